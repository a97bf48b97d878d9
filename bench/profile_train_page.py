"""Where the browser's CPU goes on the Train & tree page (issue 26): the ~1 300-node C4.5 tree of
``bench.bench_browser`` (10⁵ rows × 20): its upload and training (``--steps upload,train``), then each step that does not retrain (language there and
back, Data and back, layout change, a click in the picture) under the V8 sampling profiler and
CDP tracing.

    .venv/bin/python -m bench.profile_train_page [--port N] [--out DIR] [--steps a,b,...] [--frames N]

Per step it prints the browser CPU (as the benchmark measures it), the JS time by the Streamlit
chunk of the first library on the stack (``plotly``, ``graphviz`` (WebAssembly), the glide data
grid, the tree frame) or the leaf's chunk (``react-dom``, ``emotion``...), ``(program)`` (the
browser's own work outside JS: style, layout, paint), and the renderer main thread's lifecycle
events from the trace (with ``--frames N``, its N largest websocket messages by element kind); the traces go to ``DIR`` (open them in the DevTools performance panel).
Profiler times are wall time between samples: on a loaded machine they inflate with it.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import tempfile
import time
from pathlib import Path

import psutil

from bench.bench_browser import (
    TREE_FRAME,
    TREES,
    BrowserCpu,
    Session,
    goto_page,
    make_csv,
    needs_retrain,
    pick_option,
    retrain,
    start_server,
    tree_drawn,
)
from scripts.app_server import free_port, launch_chromium

CATS = ",".join(
    [
        "devtools.timeline",
        "disabled-by-default-devtools.timeline",
        "v8.execute",
        "blink",
        "cc",
        "gpu",
        "viz",
        "toplevel",
    ]
)
#: the steps this can profile (each after the ones before it, on the trained tree)
STEPS = (
    "upload",
    "train",
    "lang_zh",
    "lang_en",
    "to_data",
    "back_train",
    "layout_lr",
    "click_node",
    "whatif",
    "splits",
    "back_from_splits",
    "prune",
    "compare",
)
LIBS = [
    ("PlotlyChart", "plotly"),
    ("GraphVizChart", "graphviz"),
    ("DataFrame", "dataframe(glide)"),
    ("arrowFormat", "dataframe(glide)"),
    ("StreamlitSyntaxHighlighter", "code"),
    ("/component/", "tree frame (component v2)"),
    ("bidiComponent", "tree frame (component v2)"),
]


def lib_of(url: str) -> str | None:
    for needle, name in LIBS:
        if needle in url:
            return name
    return None


class Recorder:
    def __init__(self, s: Session) -> None:
        self.s = s
        self.cdp = s.ctx.new_cdp_session(s.page)
        self.events: list[dict] = []
        self.done = False
        self.cdp.on("Tracing.dataCollected", lambda e: self.events.extend(e["value"]))
        self.cdp.on("Tracing.tracingComplete", lambda e: setattr(self, "done", True))
        self.cdp.send("Profiler.enable")
        self.cdp.send("Profiler.setSamplingInterval", {"interval": 250})

    def start(self) -> None:
        self.events, self.done = [], False
        self.cdp.send("Tracing.start", {"categories": CATS, "transferMode": "ReportEvents"})
        self.cdp.send("Profiler.start")

    def stop(self) -> tuple[list[dict], dict]:
        prof = self.cdp.send("Profiler.stop")["profile"]
        self.cdp.send("Tracing.end")
        while not self.done:
            self.s.page.wait_for_timeout(100)
        return self.events, prof


def js_breakdown(prof: dict) -> collections.Counter:
    """Milliseconds of samples by the first library chunk on the stack (else the leaf's chunk)."""
    nodes = {n["id"]: n for n in prof["nodes"]}
    parent = {}
    for n in prof["nodes"]:
        for c in n.get("children", []):
            parent[c] = n["id"]
    deltas = prof["timeDeltas"]
    out: collections.Counter = collections.Counter()
    cache: dict[int, str] = {}
    for sid, dt in zip(prof["samples"], deltas[1:] + [0]):
        if sid not in cache:
            n = nodes[sid]
            fn = n["callFrame"]["functionName"]
            label = None
            if fn in ("(idle)", "(program)", "(garbage collector)"):
                label = fn
            else:
                cur = sid
                while cur is not None:
                    lib = lib_of(nodes[cur]["callFrame"]["url"])
                    if lib:
                        label = lib
                        break
                    cur = parent.get(cur)
                if label is None:
                    url = n["callFrame"]["url"]
                    label = "js:" + (re.sub(r"^.*/", "", url).split(".")[0] if url else "(native:" + fn + ")")
            cache[sid] = label
        out[cache[sid]] += dt / 1000.0
    return out


def trace_breakdown(events: list[dict]) -> dict:
    """Busy seconds per process/thread, and the renderer main thread's events by name."""
    threads = {}
    procs = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
        if e.get("ph") == "M" and e.get("name") == "process_name":
            procs[e["pid"]] = e["args"]["name"]
    per_thread: collections.Counter = collections.Counter()
    tasks: dict[str, list[tuple[float, float]]] = collections.defaultdict(list)
    names = {
        "UpdateLayoutTree",
        "Layout",
        "Paint",
        "PrePaint",
        "Layerize",
        "Commit",
        "ParseHTML",
        "HitTest",
        "UpdateLayer",
        "ScheduleStyleRecalculation",
        "MajorGC",
        "MinorGC",
        "V8.GC_SCAVENGER",
        "RasterTask",
        "v8.compile",
        "v8.parseOnBackground",
        "IntersectionObserverController::computeIntersections",
        "FunctionCall",
        "EvaluateScript",
        "TimerFire",
        "EventDispatch",
        "FireAnimationFrame",
        "RunMicrotasks",
        "ThreadControllerImpl::RunTask",
        "Decode Image",
        "PaintImage",
    }
    per_name: collections.Counter = collections.Counter()
    for e in events:
        if e.get("ph") != "X" or "dur" not in e:
            continue
        th = threads.get((e["pid"], e["tid"]), "?")
        dur = e["dur"] / 1e6
        if e["name"] in ("ThreadControllerImpl::RunTask", "RunTask"):
            tasks[procs.get(e["pid"], "?") + "/" + th].append((e["ts"], e["ts"] + e["dur"]))
        if th == "CrRendererMain" and e["name"] in names:
            per_name[e["name"]] += dur  # nested events (a Layout in a FunctionCall) in both
    for name, spans in tasks.items():  # busy time: the union of the thread's tasks (they nest)
        end = float("-inf")
        for a, b in sorted(spans):
            if b > end:
                per_thread[name] += (b - max(a, end)) / 1e6
                end = b
    return {"thread_busy": per_thread, "renderer_main_events_total": per_name}


def dom_counts(page) -> dict:
    return page.evaluate(
        """() => {
      const q = (s) => Array.from(document.querySelectorAll(s));
      const count = (els) => els.reduce((a, e) => a + e.querySelectorAll('*').length + 1, 0);
      return {
        all: document.querySelectorAll('*').length,
        plotly: count(q('[data-testid=stPlotlyChart]')),
        plotly_charts: q('[data-testid=stPlotlyChart]').length,
        graphviz: count(q('[data-testid=stGraphVizChart]')),
        dataframes: q('[data-testid=stDataFrame]').length,
        dataframe_nodes: count(q('[data-testid=stDataFrame]')),
        frame_svg: count(q('.dt-frame svg')),
        elements: q('[data-testid=stElementContainer]').length,
      };
    }"""
    )


def frame_kind(raw: bytes) -> str:
    """What a websocket message carries: its ForwardMsg type, and for a delta the element's kind."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    msg = ForwardMsg()
    try:
        msg.ParseFromString(raw)
    except Exception:
        return "?"
    kind = msg.WhichOneof("type") or "?"
    if kind == "delta":
        part = msg.delta.WhichOneof("type")
        if part == "new_element":
            el = msg.delta.new_element
            kind = str(el.WhichOneof("type"))
            if kind == "markdown":  # which text: its opening words
                kind += ":" + el.markdown.body[:40].replace("\n", " ")
            return "element:" + kind
        return "delta:" + str(part)
    return kind


def largest_frames(frames: list[tuple[float, int, bytes]], count: int) -> list[tuple[str, float]]:
    """The ``count`` largest messages: (kind, KB), largest first."""
    big = sorted(frames, key=lambda f: -f[1])[:count]
    return [(frame_kind(raw), round(n / 1024, 1)) for _, n, raw in big]


def main() -> None:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, default=0, help="the server's port (default: a free one)")
    ap.add_argument(
        "--out", type=Path, default=Path(tempfile.gettempdir()) / "profile-train", help="where the traces go"
    )
    ap.add_argument(
        "--steps",
        default="lang_zh,lang_en,to_data,back_train,layout_lr,click_node",
        help=f"the profiled steps, in order, from: {','.join(STEPS)}",
    )
    ap.add_argument(
        "--tree",
        type=int,
        default=0,
        choices=range(len(TREES)),
        help="the tree size of bench_browser (0, 1, 2)",
    )
    ap.add_argument("--frames", type=int, default=0, help="print each step's N largest websocket messages")
    args = ap.parse_args()
    steps = args.steps.split(",")
    if set(steps) - set(STEPS):
        ap.error(f"unknown steps: {', '.join(sorted(set(steps) - set(STEPS)))}")
    port = args.port or free_port()
    out_dir = args.out
    out_dir.mkdir(parents=True, exist_ok=True)
    proc = start_server(port)
    server = psutil.Process(proc.pid)
    url = f"http://127.0.0.1:{port}"
    report = {}
    try:
        with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
            browser = launch_chromium(pw)
            cpu = BrowserCpu()
            s = Session(browser, url, server, cpu)
            page = s.page
            t0 = time.perf_counter()
            page.goto(url + "/", wait_until="commit")
            tree_drawn(page)
            s.settle(t0, 120)
            csv = Path(tmp) / "b.csv"
            size = TREES[args.tree]
            csv.write_bytes(make_csv(100_000, size.flip))
            s.step("data", lambda: goto_page(page, "data"), browser=None)
            s.floor = s.steps[-1].browser_cpu
            rec = Recorder(s)

            def upload():
                page.locator('[data-testid="stFileUploaderDropzoneInput"][accept*=".csv"]').set_input_files(
                    str(csv)
                )

            def profiled(name: str, action, **kw) -> None:
                """One step, under the profiler when it is among --steps."""
                if name not in steps:
                    s.step(name, action, **kw)
                    return
                rec.start()
                first = len(s.frames)
                got = s.step(name, action, **kw)
                if args.frames:
                    print("  frames:", largest_frames(s.frames[first:], args.frames), flush=True)
                events, prof = rec.stop()
                js = js_breakdown(prof)
                tr = trace_breakdown(events)
                report[name] = {
                    "step": None if got is None else got.__dict__,
                    "js": dict(js.most_common()),
                    "threads": dict(tr["thread_busy"].most_common(12)),
                    "main_events": dict(tr["renderer_main_events_total"].most_common()),
                }
                print("  js:", {k: round(v, 2) for k, v in js.most_common(12)}, flush=True)
                print("  threads:", {k: round(v, 2) for k, v in tr["thread_busy"].most_common(8)}, flush=True)
                print(
                    "  main:",
                    {k: round(v, 2) for k, v in tr["renderer_main_events_total"].most_common(14)},
                    flush=True,
                )
                (out_dir / f"{name}.trace.json").write_text(json.dumps({"traceEvents": events}))

            profiled("upload", upload, timeout=300)
            profiled("train", lambda: (goto_page(page, "train"), tree_drawn(page, 300_000)), timeout=400)
            if needs_retrain(size):  # as bench_browser grows it
                s.step("retrain", lambda: retrain(s, size), timeout=400)
            print("dom", dom_counts(page), flush=True)
            report["dom"] = dom_counts(page)

            def lang(code):
                return lambda: page.locator(".st-key-lang label").filter(has_text=code).first.click()

            def whatif():
                box = page.locator(".st-key-whatif_row input").first
                box.scroll_into_view_if_needed()
                box.fill("7")
                box.press("Enter")

            actions = {
                "lang_zh": lang("中文"),
                "lang_en": lang("English"),
                "to_data": lambda: goto_page(page, "data"),
                "back_train": lambda: (goto_page(page, "train"), tree_drawn(page)),
                "layout_lr": lambda: pick_option(page, "layout", index=2),
                "click_node": lambda: page.locator(f"{TREE_FRAME} svg g[id^=dtnode]").nth(2).click(),
                "whatif": whatif,
                "splits": lambda: goto_page(page, "splits"),
                "back_from_splits": lambda: (goto_page(page, "train"), tree_drawn(page)),
                "prune": lambda: goto_page(page, "prune"),
                "compare": lambda: goto_page(page, "compare"),
            }
            for name in steps:
                if name not in ("upload", "train"):
                    profiled(name, actions[name])
            report["dom_end"] = dom_counts(page)
            s.close()
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    (out_dir / "report.json").write_text(json.dumps(report, indent=1, default=str))


if __name__ == "__main__":
    main()
