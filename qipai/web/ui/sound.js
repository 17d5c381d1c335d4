// @ts-check
// Table sounds made with WebAudio (no sound files): a chip's click, the deal, your turn, a win,
// a loss, a refusal. Muted by the top bar's toggle (remembered); silent until the page has had
// a user gesture (the browser's autoplay rule) and wherever WebAudio is missing.

/** @typedef {"chip" | "deal" | "turn" | "win" | "lose" | "push" | "error" | "shoe"} SoundName */

/** Notes of each sound: [frequency Hz, start s, length s, wave, gain]. */
const NOTES = /** @type {Record<SoundName, [number, number, number, OscillatorType, number][]>} */ ({
  chip: [[2400, 0, 0.03, "square", 0.05], [1800, 0.035, 0.03, "square", 0.04]],
  deal: [[900, 0, 0.04, "triangle", 0.06], [700, 0.05, 0.04, "triangle", 0.05]],
  turn: [[660, 0, 0.12, "sine", 0.12], [880, 0.13, 0.16, "sine", 0.12]],
  win: [[523, 0, 0.12, "triangle", 0.14], [659, 0.1, 0.12, "triangle", 0.14], [784, 0.2, 0.12, "triangle", 0.14], [1047, 0.3, 0.3, "triangle", 0.14]],
  lose: [[330, 0, 0.2, "sine", 0.12], [247, 0.18, 0.35, "sine", 0.12]],
  push: [[440, 0, 0.15, "sine", 0.1], [440, 0.2, 0.15, "sine", 0.1]],
  error: [[180, 0, 0.15, "sawtooth", 0.05]],
  shoe: [[392, 0, 0.1, "triangle", 0.1], [523, 0.1, 0.1, "triangle", 0.1], [392, 0.2, 0.2, "triangle", 0.1]],
});

class Sound {
  constructor() {
    this.muted = false;
    /** @type {AudioContext | null} */
    this.ctx = null;
    this.unlocked = false;
    /** What was played (the tests read it; a real ear hears it). @type {SoundName[]} */
    this.played = [];
  }

  /** Called on the first user gesture: browsers start audio only after one. */
  unlock() {
    this.unlocked = true;
  }

  /** @param {SoundName} name */
  play(name) {
    this.played.push(name);
    if (this.played.length > 50) this.played.shift();
    if (this.muted || !this.unlocked) return;
    const Ctx = globalThis.AudioContext || /** @type {any} */ (globalThis).webkitAudioContext;
    if (!Ctx) return;
    try {
      if (!this.ctx) this.ctx = new Ctx();
      const ctx = /** @type {AudioContext} */ (this.ctx);
      const now = ctx.currentTime;
      for (const [freq, start, len, wave, gain] of NOTES[name]) {
        const osc = ctx.createOscillator();
        const amp = ctx.createGain();
        osc.type = wave;
        osc.frequency.value = freq;
        amp.gain.setValueAtTime(0, now + start);
        amp.gain.linearRampToValueAtTime(gain, now + start + 0.01);
        amp.gain.exponentialRampToValueAtTime(0.0001, now + start + len);
        osc.connect(amp).connect(ctx.destination);
        osc.start(now + start);
        osc.stop(now + start + len + 0.02);
      }
    } catch {
      /* audio is a nicety: never an error on the page */
    }
  }
}

export const sound = new Sound();
