"""The chart and statistics screens in the real App on the unix port, both layouts.

argv: LAYOUT (128x64 | 240x135) DEALS_JSON_FILE
The file holds [[preset, options, [records...]], ...]: every game but the last
is played to its end and closed with a new game (the archive), the last one
stays current. Then, in every language: the chart and each statistics page
are drawn once (strings prepared), then redrawn 5 times with the heap
measured (gc off); what the rows say and what would not fit is reported.
Prints one JSON object.
"""
import gc
import json
import sys

_ROOT = sys.path[0] + "/../.."  # the unix port puts the script's folder first
sys.path.insert(0, _ROOT + "/firmware")
sys.path[:0] = [_ROOT + "/host_tools/sim/device_side", _ROOT + "/host_tools/bench/device_side", _ROOT + "/host_tools/rigs/device_side"]

from blockdev import RAMBlockDev, mount  # noqa: E402
from fakeboard import Board, ColourBoard  # noqa: E402
from screens.table_screens import Home  # noqa: E402
from screens import settings as settings_screens  # noqa: E402
from app import App  # noqa: E402
from screens.chart import Chart  # noqa: E402
from screens.stats import LABELS, Stats  # noqa: E402
from render.text import width  # noqa: E402


def measured(fn, n):
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for _ in range(n):
            fn()
        return gc.mem_alloc() - before
    finally:
        gc.enable()


def main():
    layout = sys.argv[1]
    with open(sys.argv[2]) as f:
        games = json.load(f)
    mount(RAMBlockDev(4096, 352), "/flash")
    board = ColourBoard() if layout == "240x135" else Board()
    first = games[0]
    app = App(board, {"rules": first[0]})
    for n, (preset, options, records) in enumerate(games):
        if n:
            app.settings["rules"] = {"preset": preset, "options": options}
            app.new_game()
        for rec in records:
            app.save_deal(rec, None)
    out = {"deals": len(app.game.deals), "archive": len(app.archive), "langs": {}}
    for lang in settings_screens.LANGS:
        app.set_language(lang)
        T = app.texts
        row = {}
        chart = Chart(app, Home(app))
        app.go(chart)
        app.render()
        row["chart_alloc"] = measured(app.render, 5)
        row["chart_legend"] = list(chart.legend)
        row["chart_target"] = chart.target_s
        stats = Stats(app, chart)
        app.go(stats)
        pages = []
        allocs = []
        for page in range(4):
            stats.page = page
            for top in (0, 2):
                stats.top = top
                app.render()
                allocs.append(measured(app.render, 5))
            title, values = stats.pages[page]
            pages.append({"title": title, "values": list(values)})
        row["stats_alloc"] = allocs
        row["pages"] = pages
        row["labels"] = [T[k] for k in LABELS]
        row["widths"] = {"labels": [width(T[k]) for k in LABELS], "titles": [width(p["title"]) for p in pages],
                         "legend": [width(s) for s in chart.legend], "target": width(chart.target_s),
                         "chart": width(T["m_chart"])}
        out["langs"][lang] = row
    out["control"] = measured(lambda: bytearray(16), 1) > 0
    print(json.dumps(out))


main()
