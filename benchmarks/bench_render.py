"""How long the browser client takes to draw a table state, in Chromium (≤ 4 ms at the
95th percentile on this machine; printed, not asserted).

Real state messages of every game (tests/web/golden.py: the real engine, one player and bots)
are drawn by the client's own table view (qipai/web/views/table.js, Preact) in headless
Chromium, inside the app's page frame, one after another in the order a client receives them —
the way the client re-renders on every message (a diff against the screen before). The seated
player's states and the spectator's states are two sequences, each drawn in its own order
(a client is one or the other; it never gets the two views alternately), round after round.

A round's showdown is staged by the client (qipai/web/ui/showdown.js: the hands turned one at a
time, the result after them, each stage on a frame of its own): the benchmark draws every later
stage right after the state that started it and counts it as a draw of its own (the "… stage k"
moments), timed and traced like any other — so the staging hides no work from the figures.
`--reduced-motion` draws as for a player who asks for reduced motion (everything on the first
frame, no animations).

Each draw is timed with the Performance API from `render()` until Preact has written the DOM,
plus the style and layout the browser then computes (forced by reading the layout); JavaScript
garbage collection is included. The "js p95" column is the script part alone (render() until
Preact returns); "same p95" is the same state drawn again after a change beside it (a note, a
busy button), layout included — what the page redraws on every store change that is not a new
state.

Wall-clock times on a loaded machine say little, so a second pass draws the same sequences under
a Chromium trace and reads the renderer main thread's CPU time of each draw, split into script
(Preact and the client's own code), style (`UpdateLayoutTree`), layout (`Layout`) and garbage
collection: the "cpu" columns, and what the draws at the 50th and 95th percentile and the
slowest are made of. `--web DIR` draws another copy of the client (e.g. main's, for a before /
after in one run).

    uv run python benchmarks/bench_render.py [--rounds 20] [--width 1400 --height 950]
        [--games niuniu,pokdeng] [--trace-rounds N] [--web DIR] [--reduced-motion]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
from collections import Counter
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))
import golden  # noqa: E402  (tests/web/golden.py: real views from the real engine)

PAGE = """<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="/style.css">
</head>
<body><div id="root"><div class="page signed on-table" data-lang="zh"><main id="app-main"></main></div></div>
<script type="module">
import { render } from "/vendor/preact.module.js";
import { html } from "/ui/html.js";
import { TableView } from "/views/table.js";
import { setLang } from "/i18n/index.js";
const noop = () => {};
const actions = { act: noop, setUi: noop, note: noop, pushChip: noop, standUp: noop, sitDialog: noop,
  fillBots: noop, back: noop, toggleHelp: noop, imBack: noop };
function app(m, lang) {
  return { token: "t", player: m.you.player, lang, route: { name: "table", arg: m.table.id },
    me: { wallet: 990000, tables: [] }, games: {}, tables: [], conn: "open", pending: [], tableId: m.table.id,
    state: m, log: [], actionError: null, leaving: {}, lastBets: {}, chipStack: [], busy: {}, note: null,
    dialog: null, help: false, muted: true, outdated: false, history: null, tableInfo: {}, ui: {}, offers: [] };
}
// The showdown's later stages (ui/showdown.js) are drawn when the benchmark says, each as a draw
// of its own; a client without a staged showdown (an older one, --web) has none.
const stages = [];
const showdown = await import("/ui/showdown.js").catch(() => null);
if (showdown) {
  const { options } = await import("/vendor/preact.module.js");
  options.debounceRendering = (run) => run();  // a stage's redraw happens in the stage's own draw
  showdown.pace.after = (ms, fn) => { stages.push(fn); return () => { const i = stages.indexOf(fn); if (i >= 0) stages.splice(i, 1); }; };
}
// viewer "player": the seated player's states; "spectator": the watcher's (golden.py's moments)
window.bench = async (game, rounds, lang, viewer) => {
  setLang(lang);
  const all = await (await fetch(`/golden/${game}.json`)).json();
  const moments = all.filter(({ moment }) => moment.startsWith("spectator-") === (viewer === "spectator"));
  // inside the page's own frame (App.js: .page.on-table > main), so the table is laid out at the
  // screen's height exactly as in the app
  const root = document.getElementById("app-main");
  const times = [];
  for (let r = 0; r < rounds; r++) {
    for (const { moment, message } of moments) {
      const i = times.length;
      performance.mark(`draw-${i}`);  // the trace pass finds each draw between its two marks
      const at = performance.now();
      const t0 = performance.now();
      render(html`<${TableView} s=${{ ...app(message, lang), stateAt: at }} actions=${actions} />`, root);
      const t1 = performance.now();
      void root.getBoundingClientRect().height;  // style and layout of what was written
      const t2 = performance.now();
      performance.mark(`drawn-${i}`);
      times.push([t2 - t0, t1 - t0, null, moment]);
      // each later stage of a showdown: a frame of its own, measured the same way
      for (let k = 1; stages.length; k++) {
        const j = times.length;
        performance.mark(`draw-${j}`);
        const s0 = performance.now();
        stages.shift()();
        const s1 = performance.now();
        void root.getBoundingClientRect().height;
        const s2 = performance.now();
        performance.mark(`drawn-${j}`);
        times.push([s2 - s0, s1 - s0, null, `${moment} stage ${k}`]);
      }
      // the same state drawn again after a change beside it (a note, a button busy): what the
      // page redraws on every store change that is not a new state message
      const again = { ...app(message, lang), stateAt: at, busy: { bots: true } };
      const r0 = performance.now();
      render(html`<${TableView} s=${again} actions=${actions} />`, root);
      void root.getBoundingClientRect().height;
      times[i][2] = performance.now() - r0;
    }
  }
  render(null, root);
  return times;
};
window.ready = true;
</script></body></html>"""

# What the renderer's main thread does in a draw, by trace event (thread time; GC runs inside
# script, so it is taken out of it).
STYLE = ("UpdateLayoutTree",)
LAYOUT = ("Layout",)
GC = ("MinorGC", "MajorGC")
TRACE_CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "blink.user_timing",
    "v8",
]


class Handler(SimpleHTTPRequestHandler):
    golden_dir: Path
    web: Path

    def translate_path(self, path: str) -> str:
        path = path.split("?", 1)[0]
        if path.startswith("/golden/"):
            return str(self.golden_dir / path.removeprefix("/golden/"))
        return str(self.web / path.lstrip("/"))

    def do_GET(self) -> None:
        if self.path.startswith("/__bench"):
            body = PAGE.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, *args: Any) -> None:
        pass


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def draw_cpu(trace: bytes, n: int) -> list[dict[str, float]]:
    """The main thread's CPU time (ms) of draws 0..n-1 of a traced pass, split by kind."""
    events = json.loads(trace)["traceEvents"]
    main = next(
        (e["pid"], e["tid"])
        for e in events
        if e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
    )
    marks: dict[str, dict[str, Any]] = {}
    spans: list[dict[str, Any]] = []
    for e in events:
        if (e.get("pid"), e.get("tid")) != main:
            continue
        name = e.get("name", "")
        if name.startswith(("draw-", "drawn-")) and "blink.user_timing" in e.get("cat", ""):
            marks.setdefault(name, e)
        elif e.get("ph") == "X" and name in STYLE + LAYOUT + GC:
            spans.append(e)
    spans.sort(key=lambda e: e["ts"])
    out = []
    k = 0
    for i in range(n):
        a, b = marks.get(f"draw-{i}"), marks.get(f"drawn-{i}")
        if a is None or b is None or "tts" not in a or "tts" not in b:
            raise SystemExit(f"the trace lacks the marks of draw {i}")
        part: Counter[str] = Counter()
        while k < len(spans) and spans[k]["ts"] < a["ts"]:
            k += 1
        j = k
        while j < len(spans) and spans[j]["ts"] <= b["ts"]:
            e = spans[j]
            kind = "style" if e["name"] in STYLE else "layout" if e["name"] in LAYOUT else "gc"
            part[kind] += e.get("tdur", e.get("dur", 0)) / 1000
            j += 1
        cpu = (b["tts"] - a["tts"]) / 1000
        out.append(
            {
                "cpu": cpu,
                "script": max(0.0, cpu - part["style"] - part["layout"] - part["gc"]),
                "style": part["style"],
                "layout": part["layout"],
                "gc": part["gc"],
            }
        )
    return out


def made_of(draws: list[dict[str, float]], q: float) -> str:
    """The draw at CPU percentile q and what it is made of."""
    d = sorted(draws, key=lambda x: x["cpu"])[min(len(draws) - 1, int(q * len(draws)))]
    return (
        f"{d['cpu']:6.2f} ms = script {d['script']:.2f} + style {d['style']:.2f}"
        f" + layout {d['layout']:.2f} + gc {d['gc']:.2f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=20, help="passes over each game's moments")
    ap.add_argument(
        "--trace-rounds", type=int, default=5, help="passes of the traced (CPU) pass; 0: none"
    )
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--height", type=int, default=950)
    ap.add_argument("--games", default=",".join(golden.GAMES))
    ap.add_argument("--web", type=Path, default=ROOT / "qipai" / "web", help="the client drawn")
    ap.add_argument(
        "--moments", type=int, default=12, help="how many of the costliest moments to list"
    )
    ap.add_argument(
        "--reduced-motion",
        action="store_true",
        help="draw as for a player who asks for reduced motion (no staged showdown, no animations)",
    )
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        gdir = Path(tmp)
        golden.write(gdir)
        Handler.golden_dir = gdir
        Handler.web = args.web.resolve()
        Handler.extensions_map = {
            **Handler.extensions_map,
            ".js": "text/javascript",
            ".json": "application/json",
        }
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{httpd.server_address[1]}/__bench.html"
        load = os.getloadavg()
        print(
            f"load average {load[0]:.2f} {load[1]:.2f}; viewport {args.width}x{args.height};"
            f" client {Handler.web}"
        )
        print(
            f"{'game':14} {'viewer':9} {'lang':4} {'draws':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}"
            f" {'js p95':>8} {'same p95':>9} {'cpu p50':>8} {'cpu p95':>8}  slowest (cpu)"
        )
        everything: list[float] = []
        states: list[float] = []  # the draws of a state as it arrives (no later showdown stage)
        scripts: list[float] = []
        redraws: list[float] = []
        cpus: list[dict[str, float]] = []
        by_moment: dict[tuple[str, str], list[dict[str, float]]] = {}
        staged = 0
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"]
            )
            page = browser.new_page(
                viewport={"width": args.width, "height": args.height},
                reduced_motion="reduce" if args.reduced_motion else "no-preference",
            )
            page.goto(url)
            page.wait_for_function("window.ready === true")
            bench = "([g, r, l, v]) => window.bench(g, r, l, v)"
            for game in args.games.split(","):
                if not (gdir / f"{game}.json").exists():
                    continue
                for viewer in ("player", "spectator"):
                    page.evaluate(bench, [game, 3, "zh", viewer])  # warm-up (JIT)
                    for lang in ("zh", "en"):
                        rows = page.evaluate(bench, [game, args.rounds, lang, viewer])
                        times = [a for a, _, _, _ in rows]
                        js = [b for _, b, _, _ in rows]
                        same = [c for _, _, c, _ in rows if c is not None]
                        staged += sum(1 for *_, m in rows if " stage " in m)
                        everything += times
                        states += [a for a, _, _, m in rows if " stage " not in m]
                        scripts += js
                        redraws += same
                        cpu_cols = ""
                        if args.trace_rounds:
                            browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
                            traced = page.evaluate(bench, [game, args.trace_rounds, lang, viewer])
                            drawn = draw_cpu(browser.stop_tracing(), len(traced))
                            cpus += drawn
                            for (*_, moment), d in zip(traced, drawn, strict=True):
                                by_moment.setdefault((game, moment), []).append(d)
                            c = [d["cpu"] for d in drawn]
                            worst = max(range(len(c)), key=lambda i: c[i])
                            cpu_cols = (
                                f" {statistics.median(c):8.2f} {pct(c, 0.95):8.2f}  {traced[worst][3]}"
                                f" {c[worst]:.1f}"
                            )
                        print(
                            f"{game:14} {viewer:9} {lang:4} {len(times):6d} {statistics.median(times):8.2f}"
                            f" {pct(times, 0.95):8.2f} {max(times):8.2f} {pct(js, 0.95):8.2f}"
                            f" {pct(same, 0.95):9.2f}{cpu_cols}"
                        )
            browser.close()
        httpd.shutdown()
        print(
            f"{'all':14} {'':9} {'':4} {len(everything):6d} {statistics.median(everything):8.2f}"
            f" {pct(everything, 0.95):8.2f} {max(everything):8.2f} {pct(scripts, 0.95):8.2f}"
            f" {pct(redraws, 0.95):9.2f}"
        )
        print(
            f"  of which {staged} later stages of a showdown (each a frame and a draw of its own);"
            f" the {len(states)} draws of a state as it arrives alone: p50"
            f" {statistics.median(states):.2f} ms, p95 {pct(states, 0.95):.2f} ms,"
            f" max {max(states):.2f} ms"
        )
        summary: dict[str, Any] = {
            "p95_ms": round(pct(everything, 0.95), 3),
            "state_p95_ms": round(pct(states, 0.95), 3),
            "js_p95_ms": round(pct(scripts, 0.95), 3),
            "same_state_p95_ms": round(pct(redraws, 0.95), 3),
            "goal_ms": 4.0,
            "draws": len(everything),
            "showdown_stages": staged,
        }
        if cpus:
            print(f"main-thread CPU of {len(cpus)} traced draws (the trace itself adds some):")
            for label, q in (("p50", 0.5), ("p95", 0.95), ("max", 1.0)):
                print(f"  {label} {made_of(cpus, q)}")
            firsts = [d for (_, m), ds in by_moment.items() if " stage " not in m for d in ds]
            print(
                f"  state draws alone (no later stage), {len(firsts)}: p95 {made_of(firsts, 0.95)}"
            )
            print(
                f"the {args.moments} moments of highest CPU p95 (game, moment: p50 / p95 / max ms):"
            )
            worst = sorted(by_moment.items(), key=lambda kv: -pct([d["cpu"] for d in kv[1]], 0.95))
            for (game, moment), ds in worst[: args.moments]:
                c = [d["cpu"] for d in ds]
                print(
                    f"  {game:14} {moment:34} {statistics.median(c):6.2f} {pct(c, 0.95):6.2f}"
                    f" {max(c):6.2f}"
                )
            for kind in ("script", "style", "layout"):
                summary[f"cpu_{kind}_p95_ms"] = round(pct([d[kind] for d in cpus], 0.95), 3)
            summary["cpu_p95_ms"] = round(pct([d["cpu"] for d in cpus], 0.95), 3)
        print(f"load average after: {os.getloadavg()[0]:.2f}")
        print(json.dumps(summary))


if __name__ == "__main__":
    main()
