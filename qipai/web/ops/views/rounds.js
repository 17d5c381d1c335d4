// @ts-check
// The round inspector: find rounds by id, player, table or time; a round's journal step by step,
// drawn by the player's own table renderers (qipai/web/games) with every seat's cards; its
// settlement postings; verification with one click; void with a reason (open rounds). The list
// is paged (newest first, stake and net per round) and exports each page as CSV or JSON.
import { html, cx } from "../../ui/html.js";
import { Component } from "../../vendor/preact.module.js";
import { useEffect, useState } from "../../vendor/hooks.module.js";
import { renderer } from "../../games/index.js";
import { api, query } from "../api.js";
import { t } from "../i18n.js";
import { amount, askReason, ErrorLine, roundRef, Signed, when } from "./common.js";
import { downloadCsv, downloadJson } from "./export.js";

/** Rounds per page of the list (the server pages them: every round can be reached). */
const PAGE = 50;

/** A renderer that fails on a state it was not written for shows the raw view instead. */
class Guard extends Component {
  constructor() {
    super();
    this.state = { failed: false };
  }

  componentDidCatch() {
    this.setState({ failed: true });
  }

  render() {
    const props = /** @type {any} */ (this.props);
    if (/** @type {any} */ (this.state).failed) return html`<pre class="raw-view small">${JSON.stringify(props.view, null, 1)}</pre>`;
    return props.children;
  }
}

const NOOP_CTX = {
  act: () => undefined, busy: true, ui: {}, setUi: () => undefined, note: () => undefined,
  pushChip: () => undefined, chipStack: [], lastBets: null,
};

/** The state the player's renderers draw, for one seat's view at one step. @param {any} replay @param {any} step @param {string | null} seat */
export function stateFor(replay, step, seat) {
  const view = seat === null ? step.spectator : step.views[seat];
  return {
    table: {
      id: replay.table_id, game: replay.game,
      seats: replay.seats.map((/** @type {any} */ s) => ({
        seat: s.seat, name: s.user_id, occupied: true, bot: (s.user_id || "").startsWith("bot.") ? "bot" : null, stack: s.stack,
      })),
    },
    round: { view, phase: step.phase, finished: step.finished, number: 0, awaiting: step.awaiting, hint: null },
    legal: [],
    you: { seat, in_round: seat !== null },
    result: null,
  };
}

/** @param {{ replay: any }} props */
function Replay({ replay }) {
  const [index, setIndex] = useState(0);
  const [seat, setSeat] = useState(/** @type {string | null} */ (replay.seats.length ? replay.seats[0].seat : null));
  const steps = replay.steps;
  const step = steps[Math.min(index, steps.length - 1)];
  const R = renderer(replay.game);
  const st = stateFor(replay, step, seat);
  const label = step.index === 0 ? t("step_deal") : step.seat === null ? t("step_expire") : t("step_action", { seat: step.seat, action: step.action ? step.action.type : "" });
  return html`<div class="panel" id="replay" data-step=${step.index} data-steps=${steps.length}>
    <div class="row">
      <button type="button" class="btn small" id="step-first" disabled=${index === 0} onClick=${() => setIndex(0)}>«</button>
      <button type="button" class="btn small" id="step-prev" disabled=${index === 0} onClick=${() => setIndex(index - 1)}>◀</button>
      <span id="step-label"><b>${t("step_n", { n: step.index, of: steps.length - 1 })}</b> · ${label} · <span class="muted">${step.phase}</span></span>
      <button type="button" class="btn small" id="step-next" disabled=${index >= steps.length - 1} onClick=${() => setIndex(index + 1)}>▶</button>
      <button type="button" class="btn small" id="step-last" disabled=${index >= steps.length - 1} onClick=${() => setIndex(steps.length - 1)}>»</button>
    </div>
    ${step.action ? html`<p class="mono small">${JSON.stringify(step.action)}</p>` : null}
    <div class="row seat-tabs">${replay.seats.map((/** @type {any} */ s) => html`<button type="button" key=${s.seat} data-seat=${s.seat}
        class=${cx("btn", "small", seat === s.seat ? "gold" : "ghost")} onClick=${() => setSeat(s.seat)}>${s.seat} · ${s.user_id}</button>`)}
      <button type="button" class=${cx("btn", "small", seat === null ? "gold" : "ghost")} data-seat="" onClick=${() => setSeat(null)}>${t("spectator")}</button></div>
    <div class=${cx("felt", `felt-${replay.game}`, "replay-felt")}><div class="center">
      <${Guard} view=${st.round.view} key=${`${index}:${seat}`}><${R.Center} st=${st} ctx=${NOOP_CTX} /></${Guard}></div></div>
    ${R.Mine ? html`<h4>${t("every_seat")}</h4><div class="every-seat" id="every-seat">${replay.seats.map((/** @type {any} */ s) => {
      const mine = stateFor(replay, step, s.seat);
      return html`<div class="seat-hand" key=${s.seat} data-seat=${s.seat}><b>${s.seat}</b> <span class="muted">${s.user_id}</span>
        <${Guard} view=${mine.round.view} key=${`${index}:${s.seat}`}><${R.Mine} st=${mine} ctx=${NOOP_CTX} /></${Guard}></div>`;
    })}</div>` : null}
  </div>`;
}

/**
 * A round's replay, or while its deal unit still deals (the server answers 409 unit_in_play:
 * docs/security.md, "Who reads what, when") the round without its cards (`withheld`), so the
 * operator can still see it and void it, which ends the unit and opens the replay.
 * @param {string} roundId
 */
async function loadRound(roundId) {
  const id = encodeURIComponent(roundId);
  try {
    return await api.get(`/api/ops/rounds/${id}/replay`);
  } catch (err) {
    if (!(err && /** @type {any} */ (err).code === "unit_in_play")) throw err;
    const { round } = await api.get(`/api/ops/rounds/${id}`);
    return { ...round, withheld: true, postings: [] };
  }
}

/** @param {{ me: any, roundId: string | null, setRoundId: (id: string | null) => void }} props */
export function Rounds({ me, roundId, setRoundId }) {
  const [list, setList] = useState(/** @type {any[] | null} */ (null));
  // the search shown, the `after` of each page before this one, and the next page's
  const [search, setSearch] = useState(/** @type {Record<string, string>} */ ({}));
  const [pages, setPages] = useState(/** @type {string[]} */ ([]));
  const [next, setNext] = useState(/** @type {string | null} */ (null));
  const [replay, setReplay] = useState(/** @type {any} */ (null));
  const [verdict, setVerdict] = useState(/** @type {any} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));

  /** A page of the search: `back` holds the `after` of every page before it. @param {Record<string, string>} params @param {string[]} back */
  async function find(params, back = []) {
    try {
      const after = back.length ? back[back.length - 1] : undefined;
      const found = await api.get(`/api/ops/rounds${query({ ...params, after, limit: PAGE })}`);
      setList(found.rounds);
      setNext(found.next);
      setSearch(params);
      setPages(back);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }

  async function csv() {
    try {
      const after = pages.length ? pages[pages.length - 1] : undefined;
      await downloadCsv(`/api/ops/rounds${query({ ...search, after, limit: PAGE, format: "csv" })}`, `rounds-page-${pages.length + 1}.csv`);
    } catch (err) {
      setError(err);
    }
  }

  useEffect(() => {
    setVerdict(null);
    if (!roundId) {
      setReplay(null);
      return;
    }
    loadRound(roundId).then((r) => { setReplay(r); setError(null); }, setError);
  }, [roundId]);
  useEffect(() => { find({}); }, []);

  /** The round shown, read again (a withheld round's unit may have ended since). @param {string} id */
  function reload(id) {
    setVerdict(null);
    loadRound(id).then((r) => { setReplay(r); setError(null); }, setError);
  }

  /** @param {Event} e */
  function submit(e) {
    e.preventDefault();
    const data = new FormData(/** @type {HTMLFormElement} */ (e.target));
    /** @type {Record<string, string>} */
    const params = {};
    for (const k of ["round_id", "player", "table_id", "since", "until"]) {
      const v = String(data.get(k) || "").trim();
      if (v) params[k] = k === "since" || k === "until" ? new Date(v).toISOString() : v;
    }
    find(params);
  }

  async function verify() {
    if (!roundId) return;
    try {
      setVerdict(await api.get(`/api/ops/rounds/${encodeURIComponent(roundId)}/verify`));
    } catch (err) {
      setError(err);
    }
  }

  /** Void the round; `resume`: and let its table play on at once (one step, one reason). @param {boolean} [resume] */
  async function voidRound(resume = false) {
    if (!roundId) return;
    const reason = askReason(t(resume ? "verb_void_resume" : "verb_void"));
    if (!reason) return;
    try {
      await api.post(`/api/ops/rounds/${encodeURIComponent(roundId)}/void`, resume ? { reason, resume } : { reason });
      setReplay(await loadRound(roundId));
    } catch (err) {
      setError(err);
    }
  }

  return html`<section class="view" id="ops-rounds">
    <h2>${t("tab_rounds")}</h2>
    <form class="row" id="round-search" onSubmit=${submit}>
      <input name="round_id" id="q-round" placeholder=${t("round_id")} maxlength="64" />
      <input name="player" id="q-player" placeholder=${t("player")} maxlength="64" />
      <input name="table_id" placeholder=${t("table")} maxlength="64" />
      <label class="small">${t("since")} <input name="since" type="datetime-local" /></label>
      <label class="small">${t("until")} <input name="until" type="datetime-local" /></label>
      <button type="submit" class="btn small" id="round-find">${t("search")}</button>
    </form>
    <${ErrorLine} error=${error} />
    ${list ? html`<div class="row small" id="round-pages"><span>${t("page_n", { n: pages.length + 1 })}</span>
      <button type="button" class="btn small ghost" id="round-newer" disabled=${!pages.length} onClick=${() => find(search, pages.slice(0, -1))}>${t("page_newer")}</button>
      <button type="button" class="btn small ghost" id="round-older" disabled=${!next} onClick=${() => next && find(search, [...pages, next])}>${t("page_older")}</button>
      <button type="button" class="btn small ghost" id="round-csv" onClick=${csv}>CSV</button>
      <button type="button" class="btn small ghost" id="round-json" onClick=${() => downloadJson(list, `rounds-page-${pages.length + 1}.json`)}>JSON</button></div>
    <table class="grid" id="round-list"><thead><tr><th>${t("round")}</th><th>${t("game")}</th><th>${t("table")}</th><th>${t("state")}</th><th>${t("opened")}</th><th>${t("col_stake")}</th><th>${t("col_net")}</th></tr></thead>
      <tbody>${list.map((r) => html`<tr key=${r.id} class=${r.id === roundId ? "selected" : ""}>
        <td><a href="#" class="mono" data-round=${r.id} title=${r.id} onClick=${(/** @type {Event} */ e) => { e.preventDefault(); if (r.id === roundId) reload(r.id); else setRoundId(r.id); }}>${roundRef(r.id)}</a></td>
        <td>${r.game}</td><td class="mono small">${r.table_id}</td><td>${t(`round_${r.status}`)}</td><td>${when(r.opened_at)}</td>
        <td class="num" data-col="stake">${amount(r.stake)}</td><td class="num" data-col="net"><${Signed} n=${r.net} /></td></tr>`)}</tbody></table>` : null}
    ${replay ? html`<div id="round-detail" data-round=${replay.round_id} data-status=${replay.status}>
      <div class="row"><h3 class="mono">${replay.round_id}</h3><span class="badge">${t(`round_${replay.status}`)}</span>
        <span class="muted">${replay.game} · ${replay.table_id}${replay.meta && replay.meta.template_id ? ` · ${replay.meta.template_id} v${replay.meta.template_version}` : ""}</span>
        <span class="spacer"></span>
        <button type="button" class="btn small gold" id="btn-verify" onClick=${verify}>${t("verify")}</button>
        ${me.can_write && replay.status === "open" ? html`<button type="button" class="btn small" id="btn-void" onClick=${() => voidRound(false)}>${t("verb_void")}</button>
          <button type="button" class="btn small" id="btn-void-resume" onClick=${() => voidRound(true)}>${t("verb_void_resume")}</button>` : null}</div>
      ${replay.void_reason ? html`<p class="muted">${t("void_reason")}: ${replay.void_reason}</p>` : null}
      ${verdict ? html`<div class="panel" id="verdict" data-ok=${verdict.ok ? "true" : "false"}>
        <h4 class=${verdict.ok ? "pos" : "neg"}>${verdict.ok ? t("verified_ok") : t("verified_failed")}</h4>
        <ul class="plain">${verdict.checks.map((/** @type {any} */ c) => html`<li key=${c.check} class=${c.ok ? "pos" : "neg"}>${c.ok ? "✓" : "✗"} ${c.check} <span class="muted small">${c.detail}</span></li>`)}</ul>
        <p class="mono small">${t("seed")}: ${verdict.seed}<br />${t("commitment")}: ${verdict.seed_commitment}</p></div>` : null}
      ${replay.error ? html`<p class="neg">${replay.error}</p>` : null}
      ${replay.withheld ? html`<p class="muted" id="replay-withheld">${t("replay_withheld")}</p>` : html`<${Replay} replay=${replay} key=${replay.round_id} />`}
      <h4>${t("players")}</h4>
      <table class="grid"><tbody>${replay.players.map((/** @type {any} */ p) => html`<tr key=${p.seat}><td>${p.seat}</td><td>${p.user_id}</td>
        <td class="num">${amount(p.start_balance)}</td><td class="num"><${Signed} n=${p.net} /></td></tr>`)}</tbody></table>
      <h4>${t("postings")}</h4>
      <table class="grid" id="postings"><thead><tr><th>tx</th><th>${t("kind")}</th><th>${t("account")}</th><th>${t("amount")}</th><th>${t("balance_after")}</th></tr></thead>
        <tbody>${replay.postings.map((/** @type {any} */ p, /** @type {number} */ i) => html`<tr key=${i}><td>${p.tx_id}</td><td>${p.kind}</td><td class="mono small">${p.account}</td>
          <td class="num"><${Signed} n=${p.amount} /></td><td class="num">${amount(p.balance_after)}</td></tr>`)}</tbody></table>
    </div>` : null}
  </section>`;
}
