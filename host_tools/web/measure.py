"""The web page's figures, measured in real headless Chromium on a page served from
127.0.0.1: what a first visit downloads (raw, and gzipped as a static host would
send it), the time to the first frame, press to pixels in the page (to the whole
picture on the canvas) and the pictures drawn per press, the emulated RP2040's speed
as a fraction of real time, and what a still screen costs the machine (the CPU time
of all the browser's processes while nothing is pressed).

    python -m host_tools.web.measure [--web build/web] [--presses 20] [--out docs/bench_web.md]
                                     [--doc docs/web.md]

prints a markdown table; with --out (make bench) also writes it, with how it was
measured, into that file; with --doc, it also replaces the figures between the
document's FIGURES_BEGIN and FIGURES_END lines (docs/web.md's table is this one, never
written by hand). Without Chromium, or without the UF2s and the rp2 source to
build them, it says why and stops with status 0, the file left as it was: a machine
that cannot run the page still runs the rest of the bench.
Figures of this machine at that moment: the emulated chip shares its cores with
everything else, so they are measured, never asserted.
"""
import argparse
import datetime
import gzip
import os
import statistics
import subprocess
import sys
import time

from host_tools.bench.measure import git_commit
from host_tools.web.build import OUT, WEB_BOARDS, WebError, build
from host_tools.web.page_driver import Page
from host_tools.web.serve import CHROMIUM, chromium, chromium_missing, serving


def gzipped_bytes(path):
    with open(path, "rb") as f:
        return len(gzip.compress(f.read(), compresslevel=6))


STILL_SECONDS = 10  # how long a still screen's CPU is measured


def process_tree_cpu_seconds(root):
    """CPU seconds (user and system) used so far by process `root` and all its
    descendants, from Linux's /proc (the browser's processes: its main one, the
    page's renderer with the Worker, the GPU and utility processes); 0 elsewhere."""
    children, used = {}, {}
    try:
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return 0.0
    for pid in pids:
        try:
            with open("/proc/%d/stat" % pid) as f:
                text = f.read()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()  # from the state on: ppid, ..., utime, stime
        children.setdefault(int(fields[1]), []).append(pid)
        used[pid] = int(fields[11]) + int(fields[12])
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += used.get(pid, 0)
        todo += children.get(pid, [])
    return total / os.sysconf("SC_CLK_TCK")


def still_cpu(browser, seconds=STILL_SECONDS):
    """The share of one core the browser uses while the page's screen is still."""
    root = browser.service.process.pid
    before, started = process_tree_cpu_seconds(root), time.monotonic()
    time.sleep(seconds)
    return (process_tree_cpu_seconds(root) - before) / (time.monotonic() - started)


def measure_board(server, folder, board, presses):
    """One board's figures: a first visit (a fresh browser profile: everything downloaded,
    a blank flash), a second visit (the kept flash), then presses on its menu."""
    load_before = load_average()
    with chromium() as browser:
        page = Page(browser, server.url)
        server.bytes_sent = 0
        server.requested = []
        first_seconds = page.open(board)
        files = sorted(set(server.requested))
        raw = server.bytes_sent
        first = page.stats()
        page.idle()
        page.saved()
        again_seconds = page.open(board)
        again = page.stats()
        page.idle()
        page.press("OK")  # the menu: DOWN moves its cursor, one picture per press
        page.idle()
        playing = page.stats()  # the boot's busy time left out: the presses' own speed
        answers, drawn = [], []
        for _ in range(presses):  # one at a time: the latency of a press, not of a queue of them
            before = page.stats()
            page.press("DOWN", by_key=True)
            page.idle()
            after = page.stats()
            answers += after["pressToPixels"][len(before["pressToPixels"]):]  # the press's own picture
            drawn.append(after["framesDrawn"] - before["framesDrawn"])
        stats = page.stats()
        time.sleep(2)  # the last press's save and pictures are over
        cpu = still_cpu(browser)
    return {
        "board": board,
        "files": files,
        "raw": raw,
        "gzipped": sum(gzipped_bytes(os.path.join(folder, name)) for name in files),
        "first_frame_ms": first["firstFrameMs"],
        "first_s": first_seconds,
        "again_frame_ms": again["firstFrameMs"],
        "again_s": again_seconds,
        "press_median_ms": statistics.median(answers) if answers else None,
        "press_max_ms": max(answers) if answers else None,
        "answered": len(answers),
        "one_picture": sum(1 for n in drawn if n == 1),
        "most_pictures": max(drawn) if drawn else 0,
        "still_cpu": cpu,
        "load": "%s to %s" % (load_before, load_average()),
        "presses": presses,
        "speed": stats["speed"],
        "awake_presses": _ratio(playing, stats, "awakeSimulatedMs", "awakeMs"),
        "answers_presses": _ratio(playing, stats, "answerSimulatedMs", "answerMs"),
        "instructions_presses": _ratio(playing, stats, "cyclesMs", "workMs"),
    }


def _ratio(before, after, simulated, real):
    """Simulated over real time between two stats() of one visit (None when no real time
    passed): the worker's figures, docs/web.md says what each counts."""
    spent = after[real] - before[real]
    return (after[simulated] - before[simulated]) / spent if spent > 0 else None


def measure(folder=OUT, presses=20, rebuild=True):
    """[figures of each board]; builds the folder first (rebuild) when it can."""
    why = chromium_missing()
    if why:
        raise WebError(why)
    if rebuild or not os.path.exists(os.path.join(folder, "index.html")):
        build(out=folder, log=lambda line: None)
    results = []
    with serving(folder) as server:
        for board in WEB_BOARDS:
            results.append(measure_board(server, folder, board, presses))
    return results


def _percent(share):
    return "-" if share is None else "%.0f%%" % (100 * share)


def _ms(value):
    return "-" if value is None else "%.0f ms" % value


def markdown(results):
    lines = [
        "| board | first visit downloads | gzipped | first frame, first visit | first frame, next visits "
        "| press to pixels (median / max) | pictures per press | emulated chip's speed | still screen "
        "| load average |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        lines.append("| %s | %s B (%d files) | %s B | %s (%.1f s from navigation) | %s (%.1f s) "
                     "| %s / %s (%d of %d presses) | one for %d of %d presses (at most %d) "
                     "| %s of real time while awake (the presses: %s awake, answers %s, instructions %s) "
                     "| %.1f%% of a core | %s |" % (
                         r["board"], format(r["raw"], ","), len(r["files"]), format(r["gzipped"], ","),
                         _ms(r["first_frame_ms"]), r["first_s"], _ms(r["again_frame_ms"]), r["again_s"],
                         _ms(r["press_median_ms"]), _ms(r["press_max_ms"]), r["answered"], r["presses"],
                         r["one_picture"], r["presses"], r["most_pictures"],
                         _percent(r["speed"]), _percent(r.get("awake_presses")), _percent(r.get("answers_presses")),
                         _percent(r.get("instructions_presses")), 100 * r["still_cpu"],
                         r.get("load", "-")))
    lines.append("")
    lines.append("First frame: from the page's script starting to the app's first picture on the canvas; "
                 "press to pixels: from the key's event to the canvas showing the whole picture that answers it; "
                 "pictures per press: the pictures the canvas drew for one press; the chip's speed: its simulated "
                 "time while awake (running, or waiting on a bus as a real chip does) over the real time of the turns "
                 "it was awake in, the whole visit's and the presses'; answers: simulated time from each press to its "
                 "whole picture over the emulation's real time in between; instructions: the cycles the core executed "
                 "over the emulation's real time (the raw rate); still screen: the CPU time of "
                 "all the browser's processes over %d s with nothing pressed, as a share of one core." % STILL_SECONDS)
    return "\n".join(lines) + "\n"


def chromium_version():
    """The browser the figures were measured in ("Chromium 156.0..."), or "Chromium"."""
    try:
        out = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return "Chromium"
    return out.strip() or "Chromium"


def document(results, browser, date, commit, load):
    """make bench's docs/bench_web.md: the table, and what the figures are and where from."""
    return "\n".join([
        "## The web page (make web) in headless Chromium",
        "",
        "`build/web/` served from 127.0.0.1 and driven by %s, headless, a fresh profile per board "
        "(host_tools/web/measure.py): the first visit downloads everything and boots a blank flash, "
        "the next visit opens the kept flash; then %d presses of DOWN in the menu, one at a time. "
        "The emulated RP2040 shares this machine's cores with everything else running (load average "
        "%s at the start), so these figures are this machine's at that moment: measured, never asserted. "
        "What they mean, and how they moved over several runs: [web.md](web.md)." % (
            browser, results[0]["presses"] if results else 0, load),
        "Generated by `make bench` (host_tools/web/measure.py) on %s at commit `%s`." % (date, commit),
        "",
        markdown(results),
    ])


FIGURES_BEGIN = "<!-- figures: make bench writes them (host_tools/web/measure.py) -->"
FIGURES_END = "<!-- end of the figures -->"


class MarkersMissing(Exception):
    """The document has no FIGURES_BEGIN ... FIGURES_END lines to put the figures between."""


def with_figures(document_text, figures):
    """document_text with `figures` between its FIGURES_BEGIN and FIGURES_END lines."""
    begin = document_text.find(FIGURES_BEGIN)
    end = document_text.find(FIGURES_END, begin + 1) if begin >= 0 else -1
    if begin < 0 or end < 0:
        raise MarkersMissing("no %r ... %r lines" % (FIGURES_BEGIN, FIGURES_END))
    return document_text[:begin + len(FIGURES_BEGIN)] + "\n" + figures.strip("\n") + "\n" + document_text[end:]


def load_average():
    try:
        return "%.1f" % os.getloadavg()[0]
    except OSError:
        return "unknown"


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m host_tools.web.measure", description=__doc__.split("\n\n")[0])
    p.add_argument("--web", default=OUT, help="the built folder (default build/web; built first)")
    p.add_argument("--presses", type=int, default=20, help="presses measured per board")
    p.add_argument("--no-build", action="store_true", help="measure the folder as it is")
    p.add_argument("--out", default=None, help="also write the figures, with how they were measured, here")
    p.add_argument("--doc", default=None, help="and put them between this document's figure markers")
    args = p.parse_args(argv)
    if args.doc:
        with open(args.doc, encoding="utf-8") as f:
            doc_text = f.read()
        try:
            with_figures(doc_text, "")
        except MarkersMissing as e:
            print("web.measure: %s: %s" % (args.doc, e), file=sys.stderr)
            return 2
    load = load_average()
    try:
        results = measure(os.path.abspath(args.web), args.presses, rebuild=not args.no_build)
    except WebError as e:
        print("web.measure: skipped: %s" % e, file=sys.stderr)
        return 0
    if args.out:
        text = document(results, chromium_version(), datetime.date.today().isoformat(), git_commit(), load)
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    if args.doc:
        table = document(results, chromium_version(), datetime.date.today().isoformat(), git_commit(), load)
        with open(args.doc, "w", encoding="utf-8") as f:
            f.write(with_figures(doc_text, table.split("\n", 2)[2]))  # without the heading
    sys.stdout.write(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
