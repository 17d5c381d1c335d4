// @ts-check
// A game's rules as a page of the room, in the player's language: the page the game ships in its
// package (qipai/games/<package>/rules/<lang>.md) with the table's own settings filled in by the
// server, then the table's pay table, limits, buy-in range and the exact return of every bet.
import { html } from "../ui/html.js";
import { t, named } from "../i18n/index.js";
import { PayTable, ReturnTable, buyInText } from "./paytable.js";
import { templateName } from "../games/common.js";

/**
 * Bold spans of a text, the rest as written (text, never HTML: a page cannot inject markup).
 * @param {string} text @param {number} at
 */
function bold(text, at) {
  const parts = text.split(/(\*\*[^*]+\*\*)/);
  return parts.map((p, i) => (p.startsWith("**") && p.endsWith("**") && p.length > 4 ? html`<b key=${`${at}.${i}`}>${p.slice(2, -2)}</b>` : p));
}

/**
 * Inline text: **bold** spans and links to the room's own pages (`[text](#/rules/pokdeng)`);
 * a link anywhere else is shown as its text, so a page never sends a player off the room.
 * @param {string} text
 */
export function inline(text) {
  const parts = text.split(/(\[[^\]]+\]\([^)\s]+\))/);
  return parts.flatMap((p, i) => {
    const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(p);
    if (!link) return bold(p, i);
    return /^#\/[a-z]+(\/[A-Za-z0-9_.-]+)*$/.test(link[2])
      ? [html`<a key=${i} href=${link[2]}>${bold(link[1], i)}</a>`]
      : bold(link[1], i);
  });
}

/** @param {string} line */
const cells = (line) => line.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());

/**
 * The subset of Markdown the rules pages use, as elements: headings, paragraphs, bullet and
 * numbered lists (a line indented under an item continues it), tables, bold.
 * @param {string} md
 * @returns {any[]}
 */
export function markdown(md) {
  const lines = md.replace(/\r/g, "").split("\n");
  /** @type {any[]} */
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i += 1; continue; }
    const h = /^(#{1,4}) +(.*)$/.exec(line);
    if (h) {
      const level = Math.min(h[1].length + 1, 5);
      const body = inline(h[2]);
      out.push(level === 2 ? html`<h2 key=${i}>${body}</h2>` : level === 3 ? html`<h3 key=${i}>${body}</h3>` : html`<h4 key=${i}>${body}</h4>`);
      i += 1;
      continue;
    }
    if (line.trim().startsWith("|")) {
      const rows = [];
      while (i < lines.length && lines[i].trim().startsWith("|")) rows.push(lines[i++]);
      const [head, , ...body] = rows;
      out.push(html`<table key=${i} class="rules-table"><thead><tr>${cells(head).map((c, k) => html`<th key=${k}>${inline(c)}</th>`)}</tr></thead>
        <tbody>${body.map((r, n) => html`<tr key=${n}>${cells(r).map((c, k) => html`<td key=${k}>${inline(c)}</td>`)}</tr>`)}</tbody></table>`);
      continue;
    }
    const item = /^(\*|-|\d+\.) +/;
    if (item.test(line)) {
      const ordered = /^\d+\./.test(line);
      const items = [];
      while (i < lines.length && (item.test(lines[i]) || (/^ {2,}\S/.test(lines[i]) && items.length))) {
        if (item.test(lines[i])) items.push(lines[i].replace(item, ""));
        else items[items.length - 1] += ` ${lines[i].trim()}`;
        i += 1;
      }
      const lis = items.map((x, k) => html`<li key=${k}>${inline(x)}</li>`);
      out.push(ordered ? html`<ol key=${i}>${lis}</ol>` : html`<ul key=${i}>${lis}</ul>`);
      continue;
    }
    const para = [];
    while (i < lines.length && lines[i].trim() && !/^(#|\||\*|-|\d+\.) /.test(lines[i]) && !lines[i].trim().startsWith("|")) para.push(lines[i++].trim());
    // Chinese lines (and their full-width punctuation) join without a space, English ones with one
    const cjk = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
    out.push(html`<p key=${i}>${inline(para.reduce((a, b) => (a && cjk.test(a.slice(-1)) && cjk.test(b[0]) ? a + b : a ? `${a} ${b}` : b), ""))}</p>`);
  }
  return out;
}

/** @param {{ s: import("../app.js").AppState, actions: any }} props */
export function RulesView({ s, actions }) {
  const arg = s.route.arg || "";
  const loaded = s.rulesPage && s.rulesPage.key === arg ? s.rulesPage[s.lang] : null;
  const back = () => (globalThis.history && globalThis.history.length > 1 ? globalThis.history.back() : actions.go("#/lobby"));
  if (!loaded) return html`<section class="view rules-view" id="view-rules"><p class="muted loading">…</p></section>`;
  const facts = loaded.facts;
  return html`<section class="view rules-view" id="view-rules" data-game=${loaded.game} lang=${s.lang}>
    <div class="table-bar"><button type="button" class="btn small ghost" id="rules-back" onClick=${back}>${t("back")}</button>
      <span class="table-title">${named(loaded.title)} · ${t("rules")}</span>
      ${loaded.template ? html`<span class="muted small">${templateName(loaded.template)}</span>` : null}</div>
    <article class="rules-page" id="rules-text">${loaded.markdown ? markdown(loaded.markdown) : html`<p class="muted">${t("rules_generic")}</p>`}</article>
    ${facts ? html`<section class="rules-facts" id="rules-facts">
      <h2>${t("pay_table")}</h2><${PayTable} pay=${facts.pay_table} />
      ${buyInText(facts) ? html`<p class="small">${buyInText(facts)}</p>` : null}
      <h2>${t("rtp")}</h2><${ReturnTable} rtp=${facts.rtp} status=${facts.rtp_status} />
    </section>` : null}
  </section>`;
}
