// The local countdowns (ui/timer.js): "next round in" says the round is due at zero instead of
// standing at "0 s".
import { afterEach, describe, expect, it } from "vitest";
import { html } from "../../qipai/web/ui/html.js";
import { Seconds } from "../../qipai/web/ui/timer.js";
import { setLang } from "../../qipai/web/i18n/index.js";
import { cleanup, mount } from "./render.js";

const effects = () => new Promise((resolve) => setTimeout(resolve, 60));

afterEach(() => cleanup());

describe("Seconds", () => {
  it("counts whole seconds left", async () => {
    setLang("en");
    const root = mount(html`<${Seconds} until=${performance.now() + 12400} />`);
    await effects();
    expect(root.textContent).toBe("13 s");
  });
  it("says what is due at zero when told, and '0 s' otherwise", async () => {
    setLang("en");
    const due = mount(html`<${Seconds} until=${performance.now() - 1} done="starting…" />`);
    const plain = mount(html`<${Seconds} until=${performance.now() - 1} />`);
    await effects();
    expect(due.textContent).toBe("starting…");
    expect(plain.textContent).toBe("0 s");
  });
});

describe("Seconds in the UI language", () => {
  it("is rewritten at once when the language changes, the countdown not restarted", async () => {
    setLang("zh");
    const until = performance.now() + 7400;
    const root = mount(html`<${Seconds} until=${until} />`);
    await effects();
    expect(root.textContent).toBe("8 秒");
    setLang("en");
    mount(html`<${Seconds} until=${until} />`, root);
    await effects();
    expect(root.textContent).toBe("8 s");
  });
});
