// One renderer per game: how its view (round.view(seat), see each game's round.py docstring)
// becomes a table. Each renderer may define center(st), mine(st), actions(st, act), seat(st, s),
// side(st) and summary(view, seat). `st` is the server's "state" message.
"use strict";

const GAME_ART = {
  pokdeng: () => el("div", { class: "art-cards" }, cardEl("9h"), cardEl("Ks")),
  paigow: () => el("div", { class: "art-tiles" }, tileEl("6-6"), tileEl("1-2")),
  "holdem-bonus": () => el("div", { class: "art-cards" }, cardEl("As"), cardEl("Ad")),
  niuniu: () => el("div", { class: "art-cards" }, cardEl("Qc"), cardEl("Jh"), cardEl("Ts")),
  tiengow: () => el("div", { class: "art-tiles" }, tileEl("4-5"), tileEl("3-6")),
  default: () => el("div", { class: "art-cards" }, cardEl(null)),
};

const CHIP_STEPS = [1, 2, 5, 10, 25, 50, 100];

function phaseLabel(p) { const k = "phase_" + p; return t(k) === k ? p : t(k); }

function choiceButtons(spec, field, label, act, fmt) {
  const row = el("div", { class: "action-group" }, el("span", { class: "action-label", text: label }));
  for (const c of spec.choices || []) {
    row.append(el("button", {
      class: "btn action " + (c === 0 ? "ghost" : "gold"), "data-action": spec.type, "data-value": c,
      onclick: () => act({ type: spec.type, [field]: c }), text: fmt ? fmt(c) : (c === 0 ? t("no_bid") : `×${c}`),
    }));
  }
  return row;
}

function sumNets(st) { return st.result ? st.result.nets : {}; }

// ================================================================== Pok Deng 博丁
const pokdeng = {
  chip: null,
  seat(st, seat) {
    const v = st.round && st.round.view;
    if (!v) return null;
    const p = (v.players || []).find((x) => x.id === seat);
    if (!p) return null;
    return el("span", { class: "small muted" }, p.spots.join(" "), p.done ? " ✓" : "");
  },
  center(st) {
    const v = st.round.view;
    const wrap = el("div", { class: "pd-table" });
    const banker = el("div", { class: "pd-banker" }, el("div", { class: "label", text: t("dealer") }),
      v.cards ? cardRow(v.cards.B) : cardRow(null, 2, "dim"),
      v.hands && v.hands.B ? el("div", { class: "hand-name", text: pdHandLabel(v.hands.B) }) : null);
    wrap.append(banker);
    const spots = el("div", { class: "pd-spots" });
    const me = v.me || { bets: {} };
    const legalBet = st.legal.find((a) => a.type === "bet");
    for (const [name, info] of Object.entries(v.spots)) {
      if (info.kind === "pair") continue;
      const res = v.results && v.results[info.hand];
      const pairName = Object.keys(v.spots).find((k) => v.spots[k].kind === "pair" && v.spots[k].hand === info.hand);
      const spot = el("div", {
        class: `pd-spot ${res ? "res-" + res.result : ""} ${legalBet ? "clickable" : ""}`, "data-spot": name,
        onclick: legalBet ? () => placeBet(st, name) : null,
      },
      el("div", { class: "spot-name", text: name }),
      v.cards ? cardRow(v.cards[info.hand], 0, "small") : el("div", { class: "spot-ring" }),
      v.hands && v.hands[info.hand] ? el("div", { class: "hand-name", text: pdHandLabel(v.hands[info.hand]) }) : null,
      el("div", { class: "spot-chips" },
        v.spot_totals && v.spot_totals[name] ? chipEl(v.spot_totals[name], "all") : null,
        me.bets && me.bets[name] ? chipEl(me.bets[name], "mine") : null),
      res ? badge(t(res.result), res.result) : null,
      pairName ? el("div", {
        class: `pd-pair ${legalBet ? "clickable" : ""}`, "data-spot": pairName,
        onclick: legalBet ? (e) => { e.stopPropagation(); placeBet(st, pairName); } : null,
      }, `${t("pair")} `, me.bets && me.bets[pairName] ? chipEl(me.bets[pairName], "mine") : null) : null);
      spots.append(spot);
    }
    wrap.append(spots);
    if (v.payouts && v.payouts.net !== undefined && st.you.in_round) wrap.append(el("div", { class: "pd-net", text: `${t("net")} ${signed(v.payouts.net)}` }));
    return wrap;
  },
  mine(st) {
    const v = st.round.view;
    // stack, stake and what is left while bets are open; once settled the banner and the seat say it
    if (!v.me || st.round.finished) return null;
    return el("div", { class: "kv-row" },
      el("span", {}, `${t("stack")} `, el("b", { text: money(v.me.stack) })),
      el("span", { title: t("held_note") }, `${t("held")} `, el("b", { text: money(v.me.taken) })),
      el("span", { class: "muted" }, `${t("available")} ${money(v.me.available)}`));
  },
  actions(st, act) {
    const bet = st.legal.find((a) => a.type === "bet");
    const box = el("div", { class: "action-bar" });
    if (bet) {
      const min = Math.min(...Object.values(bet.spots).map((s) => s.min));
      const chips = CHIP_STEPS.map((k) => k * min).filter((c) => c * 2 <= bet.available || c === min);
      if (!pokdeng.chip || !chips.includes(pokdeng.chip)) pokdeng.chip = chips[0];
      const group = el("div", { class: "chip-select" }, el("span", { class: "action-label", text: t("chip") }));
      for (const c of chips) {
        group.append(el("button", { class: "chip big " + (c === pokdeng.chip ? "selected" : ""), "data-chip": c, title: money(c), onclick: () => { pokdeng.chip = c; renderTable(); }, text: chipText(c) }));
      }
      box.append(group, el("span", { class: "muted small", text: t("click_spot") }));
    }
    if (st.legal.find((a) => a.type === "clear")) box.append(el("button", { class: "btn ghost action", "data-action": "clear", onclick: () => act({ type: "clear" }), text: t("clear") }));
    if (st.legal.find((a) => a.type === "done")) box.append(el("button", { class: "btn gold action", "data-action": "done", onclick: () => act({ type: "done" }), text: t("done") }));
    return box;
  },
  side(st) {
    const v = st.round && st.round.view;
    if (!v || !v.road) return null;
    const box = el("div", {}, el("h4", { text: v.shoe ? `${t("road")} · ${t("shoe_round").replace("{n}", v.shoe.round)}` : t("road") }));
    // the road has one column per player hand P1–P5 (RULES.md §1, road), whatever the mode's bets
    const spots = Object.keys(v.road.counts || {});
    const grid = el("table", { class: "road" });
    grid.append(el("tr", {}, spots.map((s) => el("th", { text: s }))));
    const rows = pdRoadRows(v.road.code, 12);
    for (const row of rows) {
      grid.append(el("tr", {}, spots.map((s) => {
        const c = row.cells[s] || {};
        return el("td", {}, c.result ? el("span", { class: `road-dot ${c.result} ${c.ring ? "ring" : ""} ${c.pair ? "pair" : ""}`, title: roadTitle(c) }) : null);
      })));
    }
    box.append(grid);
    if (!rows.length) box.append(el("div", { class: "small muted", text: t("road_empty") }));
    box.append(el("div", { class: "road-legend small muted" },
      el("span", {}, el("i", { class: "road-dot win" }), t("road_win")), el("span", {}, el("i", { class: "road-dot lose" }), t("road_lose")),
      el("span", {}, el("i", { class: "road-dot tie" }), t("tie")), el("span", {}, el("i", { class: "road-dot ring" }), t("road_ring")),
      el("span", {}, el("i", { class: "road-dot pair" }), t("pair"))));
    if (v.shoe) box.append(el("div", { class: "small muted", text: `${v.shoe.cards_remaining} ${t("cards_left")}${v.shoe.last_round ? " · " + t("last_of_shoe") : ""}` }));
    return box;
  },
  summary(v) {
    const out = el("div", { class: "row wrap" });
    if (v.cards) for (const [k, cs] of Object.entries(v.cards)) out.append(el("span", { class: "small" }, `${k}: `, cardRow(cs, 0, "tiny")));
    return out;
  },
};

// Pai Gow hand classes name themselves fully ("天高九", "三点", "pair of Heavens"), in either language.
function handLabel(h) {
  if (!h) return "";
  return (LANG === "zh" ? h.zh || h.name : h.en || h.name) || "";
}

// Pok Deng hand names come from the rank (RULES.md §1 specials 7.1–7.5), in the UI language.
const PD_SPECIAL = {
  "7.5": ["狮子同花", "lion suited"], "7.4": ["特殊对子", "special pair"], "7.3": ["王公", "royals"],
  "7.2": ["十公", "ten-royal"], "7.1": ["同花0点", "suited zero"],
};

function pdHandLabel(h) {
  if (!h) return "";
  const sp = PD_SPECIAL[h.rank];
  const name = (LANG === "zh" ? h.zh : h.en) || (sp ? sp[LANG === "zh" ? 0 : 1] : `${h.points}${LANG === "zh" ? "点" : h.points === 1 ? " point" : " points"}`);
  return h.double ? `${name} · ${t("double")}` : name;
}

// The Pok Deng road arrives compact (round.py's view docstring, road.py): rows joined by ";", each
// P1–P5's beads then "p"/"-" (banker pair), a bead "W"/"L"/"T" + "r" (ring) + "p" (pair dot).
const PD_ROAD_POSITIONS = ["P1", "P2", "P3", "P4", "P5"];
const PD_ROAD_RESULT = { W: "win", L: "lose", T: "tie" };

// The last `last` rows of the road as {cells: {P1: {result, ring, pair}, …}, banker_pair}.
function pdRoadRows(code, last) {
  if (!code) return [];
  return code.split(";").slice(-last).map((text) => {
    const f = text.split(",");
    const cells = {};
    PD_ROAD_POSITIONS.forEach((p, i) => {
      const b = f[i] || "";
      cells[p] = { result: PD_ROAD_RESULT[b[0]], ring: b.includes("r"), pair: b.slice(1).includes("p") };
    });
    return { cells, banker_pair: f[5] === "p" };
  });
}

function roadTitle(c) {
  return [t(c.result === "win" ? "road_win" : c.result === "lose" ? "road_lose" : "tie"), c.ring ? t("road_ring") : "", c.pair ? t("pair") : ""].filter(Boolean).join(" · ");
}

function placeBet(st, spot) {
  const bet = st.legal.find((a) => a.type === "bet");
  if (!bet) return;
  const info = bet.spots[spot];
  let amount = pokdeng.chip || info.min;
  amount = Math.max(info.min, Math.min(amount, info.max - ((bet.current || {})[spot] || 0)));
  act({ type: "bet", spot, amount });
}

// ================================================================== Pai Gow 抢庄牌九
const paigow = {
  seat(st, seat) {
    const v = st.round && st.round.view;
    const s = v && (v.seats || []).find((x) => x.id === seat);
    if (!s) return null;
    return el("div", { class: "seat-info" },
      s.banker ? badge(t("banker"), "banker") : null,
      s.bid !== null && s.bid !== undefined && v.phase === "bid" ? badge(s.bid ? `${t("bid")} ×${s.bid}` : t("no_bid")) : null,
      s.bet ? badge(`${t("bet")} ×${s.bet}`) : null,
      s.net !== null && s.net !== undefined ? el("b", { class: s.net > 0 ? "pos" : s.net < 0 ? "neg" : "", text: signed(s.net) }) : null);
  },
  center(st) {
    const v = st.round.view;
    const wrap = el("div", { class: "pg-table" });
    wrap.append(el("div", { class: "pg-meta" },
      badge(`${t("round")} ${v.round}/2`),
      v.banker ? badge(`${t("banker")}: ${seatName(v.banker)} ×${v.banker_multiple || 1}`, "banker") : null,
      v.dice ? el("span", { class: "dice", title: v.dice.join(" + ") }, v.dice.map((d) => dieEl(d))) : null,
      el("span", { class: "muted small", text: `${v.tiles_left} ${t("tiles_left")}` })));
    const hands = el("div", { class: "pg-hands" });
    for (const s of v.seats) {
      hands.append(el("div", { class: `pg-hand ${v.me && s.id === v.me.id ? "me" : ""} ${s.outcome ? "out-" + s.outcome : ""}`, "data-seat": s.id },
        el("div", { class: "label", title: seatName(s.id) }, s.banker ? el("span", { class: "mini-banker", text: t("banker") }) : null, seatName(s.id)),
        el("div", { class: "tile-row" }, s.tiles ? s.tiles.map((x) => tileEl(x)) : (v.deal_order ? [tileEl(null), tileEl(null)] : [])),
        s.hand ? el("div", { class: "hand-name", text: handLabel(s.hand) }) : null,
        s.net !== null && s.net !== undefined ? el("div", { class: s.net > 0 ? "pos" : s.net < 0 ? "neg" : "", text: signed(s.net) }) : null));
    }
    wrap.append(hands);
    if (v.seen_tiles && v.seen_tiles.length) wrap.append(el("div", { class: "pg-seen" }, el("span", { class: "muted small", text: t("round1_tiles") }), el("div", { class: "tile-row tiny" }, v.seen_tiles.map((x) => tileEl(x, "tiny")))));
    return wrap;
  },
  actions(st, act) {
    const box = el("div", { class: "action-bar" });
    for (const spec of st.legal) {
      if (spec.type === "bid") box.append(choiceButtons(spec, "multiple", t("bid"), act));
      else if (spec.type === "bet") box.append(choiceButtons(spec, "multiple", t("bet"), act));
      else box.append(el("button", { class: "btn gold action", "data-action": spec.type, onclick: () => act({ type: spec.type }), text: t(spec.type) }));
    }
    return box;
  },
  summary(v, seat) {
    const out = el("div", { class: "row wrap" });
    for (const s of v.seats || []) out.append(el("span", { class: "small" }, `${seatName(s.id)}${s.banker ? ` (${t("banker")})` : ""}: `, el("span", { class: "tile-row tiny" }, (s.tiles || []).map((x) => tileEl(x, "tiny"))), ` ${signed(s.net)}`));
    return out;
  },
};

// ================================================================== Swap Niu Niu 换牌牛牛
const niuniu = {
  marked: new Set(),
  seat(st, seat) {
    const v = st.round && st.round.view;
    const s = v && (v.seats || []).find((x) => x.id === seat);
    if (!s) return null;
    return el("div", { class: "seat-info" },
      s.is_banker ? badge(`${t("banker")} ×${v.banker_multiple || 1}`, "banker") : null,
      v.phase === "swap" && s.swap_confirmed ? badge("✓") : null,
      s.swapped !== null && s.swapped !== undefined ? badge(`${t("swap")} ${s.swapped}`) : null,
      s.bid !== null && s.bid !== undefined && v.phase === "bid" ? badge(s.bid ? `×${s.bid}` : t("no_bid")) : null,
      s.bet ? badge(`${t("bet")} ×${s.bet}`) : null,
      s.settlement ? el("b", { class: s.settlement.net > 0 ? "pos" : s.settlement.net < 0 ? "neg" : "", text: signed(s.settlement.net) }) : null);
  },
  center(st) {
    const v = st.round.view;
    const wrap = el("div", { class: "nn-table" });
    wrap.append(el("div", { class: "pg-meta" }, badge(phaseLabel(v.phase)),
      v.banker ? badge(`${t("banker")}: ${seatName(v.banker)} ×${v.banker_multiple}`, "banker") : null,
      el("span", { class: "muted small", text: `${t("base")} ${money(v.base)} · ${t("commission")} ${+(Number(v.commission) * 100).toFixed(2)}%` })));
    const hands = el("div", { class: "pg-hands" });
    for (const s of v.seats) {
      if (v.me && s.id === v.me.id) continue;  // my own hand lies in front of me (mine())
      hands.append(el("div", { class: `pg-hand ${s.is_banker ? "banker" : ""}`, "data-seat": s.id },
        el("div", { class: "label", text: seatName(s.id) }),
        s.cards ? cardRow(s.cards, 0, "small") : cardRow(null, s.card_count, "small"),
        s.hand ? el("div", { class: "hand-name", text: `${LANG === "zh" ? s.hand.zh : s.hand.en} ×${s.hand.multiplier}` }) : null));
    }
    wrap.append(hands);
    return wrap;
  },
  mine(st) {
    const v = st.round.view;
    if (!v.me) return null;
    const swapping = st.legal.find((a) => a.type === "swap");
    const marked = v.me.marked ? new Set(v.me.marked) : niuniu.marked;
    const row = el("div", { class: "card-row mine" });
    const hinted = new Set((v.me.hint && swapping && v.me.hint.best && v.me.hint.best.discard) || []);
    for (const c of v.me.cards) {
      const card = cardEl(c, "big " + (marked.has(c) ? "marked" : hinted.has(c) ? "suggested" : "") + (swapping ? " clickable" : ""));
      if (swapping) card.addEventListener("click", () => { if (niuniu.marked.has(c)) niuniu.marked.delete(c); else niuniu.marked.add(c); renderTable(); });
      row.append(card);
    }
    const mineSeat = (v.seats || []).find((x) => v.me && x.id === v.me.id);
    const hand = el("div", { class: "nn-hand" }, row,
      mineSeat && mineSeat.hand ? el("div", { class: "hand-name", text: `${LANG === "zh" ? mineSeat.hand.zh : mineSeat.hand.en} ×${mineSeat.hand.multiplier}` }) : null,
      v.me.received && v.me.received.length ? el("div", { class: "small muted received" }, `${t("received")}: `, el("span", { class: "tiny-cards" }, v.me.received.map((c) => cardEl(c, "tiny")))) : null);
    const box = el("div", { class: "nn-mine" }, hand);
    if (v.me.hint && swapping) {
      const best = v.me.hint.best || {};
      const disc = best.discard || [];
      box.append(el("div", { class: "hint" },
        el("div", { class: "hint-title" }, el("span", { class: "hint-icon", "aria-hidden": "true" }), el("b", { text: t("hint") })),
        disc.length ? el("div", { class: "hint-cards" }, el("span", { text: `${t("swap")} ${disc.length}:` }), el("span", { class: "tiny-cards" }, disc.map((c) => cardEl(c, "tiny"))))
          : el("div", { text: t("keep_all") }),
        best.expected_multiplier !== undefined ? el("div", { class: "muted small", text: `${t("expected")} ${Number(best.expected_multiplier).toFixed(3)}` }) : null,
        !disc.length ? null : el("button", { class: "btn small ghost", "data-hint-use": "", onclick: () => { niuniu.marked = new Set(disc); renderTable(); }, text: t("use_hint") })));
    }
    return box;
  },
  actions(st, act) {
    const box = el("div", { class: "action-bar" });
    for (const spec of st.legal) {
      if (spec.type === "swap") {
        const n = niuniu.marked.size;
        box.append(el("button", { class: "btn gold action", "data-action": "swap", onclick: () => { const cards = [...niuniu.marked]; niuniu.marked = new Set(); act({ type: "swap", cards }); }, text: n ? `${t("swap")} ${n}` : t("keep_all") }));
      } else if (spec.type === "bid") box.append(choiceButtons(spec, "multiple", t("bid"), act));
      else if (spec.type === "bet") box.append(choiceButtons(spec, "multiple", t("bet"), act));
    }
    return box;
  },
  summary(v) {
    const out = el("div", { class: "row wrap" });
    for (const s of v.seats || []) out.append(el("span", { class: "small" }, `${seatName(s.id)}${s.is_banker ? ` (${t("banker")})` : ""}: `, cardRow(s.cards || [], 0, "tiny"), ` ${s.settlement ? signed(s.settlement.net) : ""}`));
    return out;
  },
};

// ================================================================== Tien Gow 打天九
const tiengow = {
  selected: new Set(),
  seat(st, seat) {
    const v = st.round && st.round.view;
    if (!v || !v.hand_counts) return null;
    return el("div", { class: "seat-info" },
      v.banker === seat ? badge(`${t("banker")} · ${t("streak")} ${v.banker_streak}`, "banker") : null,
      badge(`${v.dong[seat] || 0} ${t("dong")}`, "dong"),
      el("span", { class: "tile-backs" }, Array.from({ length: v.hand_counts[seat] || 0 }, () => el("i", { class: "tb" }))));
  },
  center(st) {
    const v = st.round.view;
    const wrap = el("div", { class: "tg-table" });
    wrap.append(el("div", { class: "pg-meta" },
      badge(`${t("banker")}: ${seatName(v.banker)} · ${t("streak")} ${v.banker_streak} · ×${v.multiplier}`, "banker"),
      v.trick ? badge(`${t("trick")} ${v.trick.number}${v.last_trick ? " · " + t("last_trick") : ""}`) : null,
      v.turn ? badge(`${t("waiting_for")} ${seatName(v.turn)}`, "live") : null));
    const trick = el("div", { class: "tg-trick" });
    const entries = (v.trick && v.trick.entries) || [];
    for (const e of entries) {
      const best = v.trick.best === e.seat;
      trick.append(el("div", { class: `tg-play ${best ? "best" : ""} ${e.action}`, "data-seat": e.seat },
        el("div", { class: "label", text: seatName(e.seat) }),
        el("div", { class: "tile-row" }, e.action === "discard"
          ? (e.tiles ? e.tiles.map((x) => tileEl(x, "small facedown-own")) : Array.from({ length: e.count }, () => tileEl(null, "small")))
          : e.tiles.map((x) => tileEl(x, "small"))),
        e.play ? el("div", { class: "hand-name", text: LANG === "zh" ? `${e.play.zh || ""} ${e.play.kind_zh || ""}` : e.play.en || t("tg_kind_" + e.play.kind), title: `${e.play.zh || ""} · ${LANG === "zh" ? e.play.kind_zh || "" : t("tg_kind_" + e.play.kind)}` }) : el("div", { class: "muted small", text: t("discard") })));
    }
    if (!entries.length && v.tricks && v.tricks.length) {
      const last = v.tricks[v.tricks.length - 1];
      trick.append(el("div", { class: "muted small", text: `${t("trick")} ${last.number}: ${seatName(last.winner)} +${last.dong} ${t("dong")}` }));
    }
    wrap.append(trick);
    if (v.zun && v.zun.length) wrap.append(el("div", { class: "small" }, v.zun.map((z) => badge(`${LANG === "zh" ? z.zh : z.en} ${seatName(z.seat)} +${z.units}`, "zun"))));
    if (v.result) wrap.append(tiengow.breakdown(v));
    return wrap;
  },
  breakdown(v) {
    const r = v.result;
    const box = el("div", { class: "tg-result" }, el("h4", { text: `${t("breakdown")} — ${t("last_trick_by")} ${seatName(r.winner)}` }));
    const tbl = el("table", { class: "breakdown" });
    tbl.append(el("tr", {}, el("th", { text: "" }), el("th", { text: t("dong") }), el("th", { text: t("net") })));
    for (const s of v.seats) tbl.append(el("tr", {}, el("td", { text: seatName(s) }), el("td", { text: (r.dong || v.dong)[s] }), el("td", { class: r.net[s] > 0 ? "pos" : r.net[s] < 0 ? "neg" : "", text: signed(r.net[s]) })));
    box.append(tbl);
    if (Array.isArray(r.breakdown) && r.breakdown.length) {
      const REASON = { zh: { empty: "空栋", short: "差栋", ru: "入栋", zun: "尊钱" }, en: { empty: "no dong", short: "under 4 dong", ru: "over 4 dong", zun: "zun money" } };
      const list = el("ul", { class: "breakdown-list small" });
      for (const b of r.breakdown) {
        const why = (REASON[LANG] && REASON[LANG][b.reason]) || b.reason || "";
        list.append(el("li", {}, `${seatName(b.from)} → ${seatName(b.to)}: `, el("b", { text: money(b.amount) }),
          el("span", { class: "muted", text: ` (${b.base_units ?? b.units} ${t("units")}${b.multiplier > 1 ? ` ×${b.multiplier}` : ""}${why ? " · " + why : ""})` })));
      }
      box.append(list);
    }
    return box;
  },
  mine(st) {
    const v = st.round.view;
    if (!v.me || !v.me.hand) return null;
    const hand = v.me.hand;
    const canPlay = st.legal.length > 0;
    const ids = new Set(hand.map((x) => x.id));
    for (const id of [...tiengow.selected]) if (!ids.has(id)) tiengow.selected.delete(id);
    const row = el("div", { class: "tile-row mine" });
    for (const x of hand) {
      const node = tileEl({ pips: x.tile, zh: x.zh, en: x.en }, (tiengow.selected.has(x.id) ? "selected " : "") + (canPlay ? "clickable" : ""));
      node.dataset.id = x.id;
      if (canPlay) node.addEventListener("click", () => { if (tiengow.selected.has(x.id)) tiengow.selected.delete(x.id); else tiengow.selected.add(x.id); renderTable(); });
      row.append(node);
    }
    return el("div", { class: "tg-mine" }, row, el("div", { class: "small muted", text: t("tg_mine").replace("{d}", v.dong[v.me.id] || 0).replace("{k}", v.tricks ? v.tricks.length : 0) }));
  },
  actions(st, act) {
    const picked = [...tiengow.selected];
    const size = st.round.view.trick && st.round.view.trick.size;
    const box = el("div", { class: "action-bar", "data-size": size || 1 });
    box.append(el("span", { class: "muted small", text: size ? `${picked.length}/${size} ${t("selected")}` : `${picked.length} ${t("selected")}` }));
    for (const spec of st.legal) {
      box.append(el("button", {
        class: "btn action " + (spec.type === "play" ? "gold" : "ghost"), "data-action": spec.type,
        disabled: picked.length ? null : true,
        onclick: () => { tiengow.selected = new Set(); act({ type: spec.type, tiles: picked }); }, text: t(spec.type),
      }));
    }
    return box;
  },
  summary(v) {
    if (!v.result) return el("span");
    return el("div", { class: "small" }, `${t("last_trick_by")} ${seatName(v.result.winner)} · `, v.seats.map((s) => `${seatName(s)} ${(v.result.dong || v.dong)[s]} ${t("dong")} ${signed(v.result.net[s])}`).join(" · "));
  },
};

// ================================================================== Hold'em Bonus 德州扑克
const holdem = {
  ante: null, bonus: false, pool: true,
  seat(st, seat) {
    const v = st.round && st.round.view;
    const b = v && (v.boxes || []).find((x) => x.box === seat);
    if (!b || !b.bets || !b.bets.ante) return null;
    return el("div", { class: "seat-info" }, badge(`${t("ante")} ${money(b.bets.ante)}`), b.status ? badge(t("status_" + b.status)) : null,
      b.nets ? el("b", { class: sumObj(b.nets) > 0 ? "pos" : sumObj(b.nets) < 0 ? "neg" : "", text: signed(sumObj(b.nets)) }) : null);
  },
  center(st) {
    const v = st.round.view;
    const wrap = el("div", { class: "he-table" });
    const dealer = v.dealer || {};
    const board = v.board || [];
    // the dealer's hand beside the board, one row, so the boxes keep room below
    wrap.append(el("div", { class: "he-top" },
      el("div", { class: "pd-banker he-dealer" }, el("div", { class: "label", text: t("dealer") }),
        cardRow(dealer.cards, dealer.cards ? 0 : (dealer.dealt ? 2 : 0), "small"),
        dealer.hand ? el("div", { class: "hand-name", text: pokerCat(dealer.hand.category) }) : null),
      el("div", { class: "he-board-wrap" }, el("div", { class: "label", text: t("board") }),
        el("div", { class: "he-board" }, board.map((c) => cardEl(c)), Array.from({ length: 5 - board.length }, () => el("div", { class: "card slot" }))))));
    const boxes = el("div", { class: "pd-spots" });
    for (const b of v.boxes || []) {
      if (!b.bets || !b.bets.ante) { if (b.seated === null) continue; }
      const net = b.nets ? sumObj(b.nets) : null;
      boxes.append(el("div", { class: `pd-spot ${b.outcome ? "res-" + b.outcome : ""} ${v.me && (b.player || b.seated) === v.me.id ? "mine" : ""}`, "data-box": b.box },
        el("div", { class: "spot-name", text: b.box }),
        el("div", { class: "box-player", title: b.player || b.seated ? seatName(b.player || b.seated) : "", text: b.player || b.seated ? seatName(b.player || b.seated) : t("empty") }),
        b.bets && b.bets.ante ? cardRow(b.cards, b.cards ? 0 : (v.phase === "betting" ? 0 : 2), "small") : el("div", { class: "spot-ring" }),
        b.hand ? el("div", { class: "hand-name", text: pokerCat(b.hand.category) }) : b.pool_hand ? el("div", { class: "hand-name", text: pokerCat(b.pool_hand.category) }) : null,
        el("div", { class: "he-bets" }, HE_BETS.filter((k) => b.bets && b.bets[k]).map((k) => el("span", { class: `he-bet he-${k}`, title: t("bet_" + k) }, el("i", { text: t("betshort_" + k) }), el("b", { text: chipText(b.bets[k]) })))),
        b.outcome ? badge(t(b.outcome), b.outcome) : b.status ? badge(t("status_" + b.status)) : null,
        net !== null ? el("b", { class: net > 0 ? "pos" : net < 0 ? "neg" : "", text: signed(net) }) : null));
    }
    wrap.append(boxes);
    if (v.me && v.me.net !== null && v.me.net !== undefined) wrap.append(el("div", { class: "pd-net", text: `${t("net")} ${signed(v.me.net)}` }));
    return wrap;
  },
  mine(st) {
    const v = st.round.view;
    // stack, stake and what is left while bets are open; once settled the banner and the seat say it
    if (!v.me || st.round.finished) return null;
    return el("div", { class: "kv-row" },
      el("span", {}, `${t("stack")} `, el("b", { text: money(v.me.stack) })),
      el("span", { title: t("held_note") }, `${t("held")} `, el("b", { text: money(v.me.committed) })),
      el("span", { class: "muted" }, `${t("available")} ${money(v.me.available)}`));
  },
  actions(st, act) {
    const box = el("div", { class: "action-bar" });
    const bet = st.legal.find((a) => a.type === "bet");
    if (bet) {
      const min = bet.ante.min;
      const chips = CHIP_STEPS.map((k) => k * min).filter((c) => c <= bet.ante.max && c * 6 + (bet.pool || 0) <= bet.available);
      if (!holdem.ante || !chips.includes(holdem.ante)) holdem.ante = chips[0] || min;
      const group = el("div", { class: "chip-select" }, el("span", { class: "action-label", text: t("ante") }));
      for (const c of chips) group.append(el("button", { class: "chip big " + (c === holdem.ante ? "selected" : ""), "data-chip": c, title: money(c), onclick: () => { holdem.ante = c; renderTable(); }, text: chipText(c) }));
      const bonus = el("input", { type: "checkbox", id: "he-bonus", checked: holdem.bonus ? true : null, onchange: (e) => { holdem.bonus = e.target.checked; } });
      const pool = bet.pool ? el("input", { type: "checkbox", id: "he-pool", checked: holdem.pool ? true : null, onchange: (e) => { holdem.pool = e.target.checked; } }) : null;
      box.append(group,
        el("label", { class: "small check" }, bonus, ` ${t("bonus_bet")}`),
        pool ? el("label", { class: "small check" }, pool, ` ${t("pool_bet")} ${money(bet.pool)}`) : null,
        el("button", { class: "btn gold action", "data-action": "bet", onclick: () => act({ type: "bet", box: st.you.seat, ante: holdem.ante, bonus: holdem.bonus ? holdem.ante : 0, pool: !!(bet.pool && holdem.pool), done: true }), text: t("bet") }));
    }
    // the optimal-strategy hint the server computed from my own view (qipai.analysis.strategy)
    const advice = st.round && st.round.hint && st.round.hint.boxes && st.round.hint.boxes[0];
    const suggested = advice ? ({ play: "flop", fold: "fold", check: "check", bet: advice.phase })[advice.action] : null;
    for (const spec of st.legal) {
      if (spec.type === "bet") continue;
      const amounts = spec.boxes && !Array.isArray(spec.boxes) ? Object.values(spec.boxes) : [];
      const label = `${t(spec.type)}${amounts.length ? " " + money(amounts[0]) : ""}`;
      box.append(el("button", { class: "btn action " + (["flop", "turn", "river"].includes(spec.type) ? "gold" : "ghost") + (spec.type === suggested ? " suggested" : ""), "data-action": spec.type, onclick: () => act({ type: spec.type }), text: label }));
    }
    if (advice && suggested) {
      const ev = advice.ev;
      const fmt = (x) => (x > 0 ? "+" : "") + Number(x).toFixed(2);
      box.append(el("div", { class: "hint he-hint", "data-hint": advice.action },
        el("div", { class: "hint-title" }, el("span", { class: "hint-icon", "aria-hidden": "true" }), el("b", { text: t("he_hint") })),
        el("div", { class: "small" }, el("b", { text: t(suggested) }),
          ev ? el("span", { class: "muted", text: ` · ${t("ev_bet")} ${fmt(ev.bet)} / ${t("ev_check")} ${fmt(ev.check)} ${t("per_ante")}` }) : null)));
    }
    return box;
  },
  side(st) {
    const v = st.round && st.round.view;
    if (!v || !v.pool) return null;
    const p = v.pool;
    const pct = p.percent || {};
    // a pool below its seed is topped up by the house before any award (RULES.md §3, pool awards), so
    // the amount a hand can win from is the larger of the two; the floor is named under it
    const seed = Number(p.seed) || 0;
    return el("div", { class: "pool" }, el("h4", { text: t("pool") }), el("div", { class: "pool-amount", "data-pool": p.balance, text: money(Math.max(p.balance, seed)) }),
      seed ? el("div", { class: "small muted", text: `${t("pool_floor")} ${money(seed)} · ${t("pool_stake")} ${money(p.stake)}` }) : null,
      el("div", { class: "small muted pool-pct" }, Object.entries(pct).map(([k, x]) => el("span", {}, `${pokerCat(k)} ${+(Number(x) * 100).toFixed(1)}%`))));
  },
  summary(v) {
    const out = el("div", { class: "row wrap" });
    if (v.dealer && v.dealer.cards) out.append(el("span", { class: "small" }, `${t("dealer")}: `, cardRow(v.dealer.cards, 0, "tiny")));
    if (v.board) out.append(el("span", { class: "small" }, `${t("board")}: `, cardRow(v.board, 0, "tiny")));
    return out;
  },
};

// Hold'em Bonus bets on a box in layout order (RULES.md §3), and poker categories by their key.
const HE_BETS = ["ante", "bonus", "pool", "flop", "turn", "river"];
function pokerCat(key) { return key ? t("cat_" + key) : ""; }

function sumObj(o) { return Object.values(o || {}).reduce((a, b) => a + (Number(b) || 0), 0); }

// ================================================================== fallback and test game
function genericActions(st, act) {
  const box = el("div", { class: "action-bar" });
  for (const spec of st.legal) {
    if (spec.choices) { box.append(choiceButtons(spec, spec.field || "multiple", t(spec.type), act)); continue; }
    if (spec.min !== undefined && spec.max !== undefined) {
      const input = el("input", { type: "number", min: spec.min, max: spec.max, value: spec.min, class: "amount-input", "data-action-input": spec.type });
      box.append(el("span", { class: "action-group" }, input, el("button", { class: "btn gold action", "data-action": spec.type, onclick: () => act({ type: spec.type, amount: parseInt(input.value, 10) }), text: t(spec.type) })));
      continue;
    }
    box.append(el("button", { class: "btn action", "data-action": spec.type, onclick: () => act({ type: spec.type }), text: t(spec.type) }));
  }
  return box;
}

const generic = {
  center(st) {
    const v = st.round.view;
    const box = el("div", { class: "generic" }, badge(phaseLabel(v.phase || st.round.phase)));
    if (v.cards && typeof v.cards === "object" && !Array.isArray(v.cards)) {
      const hands = el("div", { class: "pg-hands" });
      for (const [seat, c] of Object.entries(v.cards)) {
        const list = Array.isArray(c) ? c : c ? [c] : null;
        hands.append(el("div", { class: "pg-hand", "data-seat": seat }, el("div", { class: "label", text: seatName(seat) }), cardRow(list, list ? 0 : 1)));
      }
      box.append(hands);
    }
    if (v.bets) box.append(el("div", { class: "small" }, Object.entries(v.bets).map(([s, a]) => el("span", { class: "bet-tag" }, `${seatName(s)} `, chipEl(a)))));
    return box;
  },
  actions(st, act) { return genericActions(st, act); },
};

const RENDERERS = { pokdeng, paigow, niuniu, tiengow, "holdem-bonus": holdem, toy: generic, default: generic };
