"""The figures as Markdown table rows, and the budgets that do not hold (with where the
bytes go)."""
from host_tools.bench.budgets import (ALLOC_BUDGET, BUDGETED, CALCULATOR_BUDGET_S, CALCULATOR_DEALS, DATA_BLOCKS,
                                      DEALS_PER_NIGHT, ERASE_CYCLES, GAME_DEALS, HEAP_BUDGET, HEAP_HI,
                                      HOME_REDRAW_BUDGET, OLED_BUS_BUDGET, REFERENCE, RP2_HEAP, RP2_LIVE_BUDGET,
                                      SECTIONS)
from host_tools.bench.device_figures import wear_years
from host_tools.bench.emulated import summary


def kb(n):
    return "%.1f KB" % (n / 1024)


def verdict(ok):
    return "holds" if ok else "**BROKEN**"


def escape_cell(s):
    return (s or "").replace("|", "\\|")


def render(r, sections=None):
    """The table, in Markdown lines (every figure, or those of `sections`)."""
    rows = []

    def row(sec, item, value, budget="", verdict=""):
        rows.append("| %s | %s | %s | %s | %s |" % (sec, item, value, budget, verdict))

    for sec, fn in zip(SECTIONS, (_r_heap, _r_alloc, _r_display, _r_presses, _r_size, _r_flash, _r_cpu, _r_calculator,
                                  _r_rp2)):
        if sections is not None and sec not in sections:
            continue
        err = r["errors"].get(sec)
        if err:
            row(sec, "not measured", escape_cell(err), "", verdict(False) if sec in BUDGETED else "")
        else:
            fn(r, row)
    head = ["| figure | what | value | budget | verdict |", "| --- | --- | --- | --- | --- |"]
    return head + rows


def _r_heap(r, row):
    for preset, b in r["heap"].items():
        ok = b["heap"] <= HEAP_BUDGET and (b["reliable"] or HEAP_HI) <= HEAP_BUDGET
        above = ""
        if b["fails_above"]:
            above = "; fails again at %d size(s) above, the largest %d" % (len(b["fails_above"]), max(b["fails_above"]))
        if b["reliable"] is not None:
            above += "; completes at every %d-B step from %d (%d in a row)" % (b["scan_step"], b["reliable"], b["scan_ok"])
        elif b["scan_ok"]:
            above += "; no %d sizes in a row complete within %d B above" % (b["scan_ok"], 64 * 1024)
        row("1 heap", "min `-X heapsize`, %d-deal game, %s (sim, firmware as .mpy)" % (GAME_DEALS, preset),
            "%d B = %s%s. At %d: %s" % (b["heap"], kb(b["heap"]), above, b["fail_at"], escape_cell(b["why"])),
            "", "")
    by_result = {}
    for preset, (ok, why) in r["heap_budget_check"].items():
        by_result.setdefault((ok, why), []).append(preset)
    for (ok, why), presets in by_result.items():
        row("1 heap", "game at `-X heapsize=%d`, %s" % (HEAP_BUDGET, ", ".join(presets)),
            "completes" if ok else "fails: %s" % escape_cell(why), "", "")
    d = r["heap_direct"]
    row("1 heap", "min `-X heapsize`, %s game without the simulator (App + journal only, `bench_ui.py play`)" % REFERENCE,
        "%d B = %s%s. At %d: %s" % (d["heap"], kb(d["heap"]),
                                    ("; completes at every %d-B step from %d" % (d["scan_step"], d["reliable"]))
                                    if d["reliable"] is not None else "", d["fail_at"], escape_cell(d["why"])),
        "", "")
    s = r["heap_source"]
    row("1 heap", "min `-X heapsize`, %s, firmware from source (as `make sim` runs it)" % REFERENCE,
        "%d B = %s" % (s["heap"], kb(s["heap"])), "", "")
    for preset, b in r["heap"].items():
        sm = b["sim"]
        row("1 heap", "%s: mem_info() total / current / peak at the end (sim)" % preset,
            "%d / %d / %d B" % (sm["end"]["mem_total"], sm["end"]["mem_current"], sm["end"]["mem_peak"]), "", "")
        row("1 heap", "%s: live heap after boot / largest after a render / at the end (sim)" % preset,
            "%s / %s / %s" % (kb(sm["boot"]["gc_alloc"]), kb(sm["end"]["live_max"]), kb(sm["end"]["gc_alloc"])), "", "")
    hp = r["heap_parts"]
    row("1 heap", "live heap: interpreter + bench script (%s, direct)" % REFERENCE, kb(hp["start"]), "", "")
    row("1 heap", "live heap: firmware bytecode, all %d modules of pico_oled" % len(hp["modules"]), kb(hp["code"]), "", "")
    for name, n in sorted(hp["modules"], key=lambda x: -x[1]):
        if n:
            row("1 heap", "… bytecode of `%s`" % name, "%d B" % n, "", "")
    row("1 heap", "live heap: littlefs mounted (VfsLfs2 + block device)", kb(hp["flash"]), "", "")
    row("1 heap", "live heap: App built, first frame drawn", kb(hp["app"]), "", "")
    row("1 heap", "live heap: growth over the %d deals" % hp["deals"], kb(hp["end"] - hp["booted"]), "", "")
    for name, n in hp["parts"]:
        row("1 heap", "… freed by dropping the %s (end of game)" % name, kb(n), "", "")


def _r_alloc(r, row):
    a = r["alloc"]
    hr = a["home_render"]
    per = hr["bytes"] / hr["calls"]
    row("2 alloc", "home redraw, nothing changed (`app.render()`, %d calls)" % hr["calls"],
        "%g B per call%s" % (per, (" — first at " + " < ".join(hr["site"])) if hr.get("site") else ""),
        "0 B", verdict(hr["bytes"] <= HOME_REDRAW_BUDGET))
    ip = a["idle_poll"]
    row("2 alloc", "idle `app.poll()`, nothing pressed (%d calls)" % ip["calls"], "%g B per call" % (ip["bytes"] / ip["calls"]), "", "")
    total = n = 0
    for name, s in a["screens"].items():
        if "skipped" in s:
            row("2 alloc", "per press on `%s`" % name, "not measured: %s" % s["skipped"], "", "")
            continue
        avg = s["bytes"] / s["presses"]
        total += s["bytes"]
        n += s["presses"]
        where = ""
        if s["bytes"]:
            parts = []
            if s.get("site_key"):
                parts.append("key: " + " < ".join(s["site_key"][:2]))
            if s.get("site_draw"):
                parts.append("draw: " + " < ".join(s["site_draw"][:2]))
            where = "; redraw alone %d B; first allocation %s" % (s["redraw"], "; ".join(parts) or "?")
        row("2 alloc", "per press on `%s` (%s, %d presses)" % (name, "/".join(s["keys"]), s["presses"]),
            "avg %.0f B, max %d B%s" % (avg, s["max"], where), "≤ %d B avg" % ALLOC_BUDGET, verdict(avg <= ALLOC_BUDGET))
    if n:
        row("2 alloc", "per press, all screens above", "avg %.0f B" % (total / n), "≤ %d B avg" % ALLOC_BUDGET,
            verdict(total / n <= ALLOC_BUDGET))
    sw = a.get("sweep")
    if sw:  # every press a new units value: scored and drawn (the budget above is back and forth)
        row("2 alloc", "per press on `%s`, UP only (%d presses, each a new units value)" % (sw["screen"], sw["presses"]),
            "avg %.0f B, max %d B" % (sw["bytes"] / sw["presses"], sw["max"]), "not budgeted", "")


def _r_display(r, row):
    for label, d in r["display"].items():
        oled = label.startswith("pico_oled")
        if "error" in d:
            row("3 display", label, "not measured: %s" % escape_cell(d["error"]), "< %d B" % OLED_BUS_BUDGET if oled else "",
                verdict(False) if oled else "")
            continue
        row("3 display", "%s: bytes per press, %s game (%d presses, %d redraws)" % (label, REFERENCE, d["presses"], d["renders"]),
            "%.0f B (game %d B; boot %d B; one redraw at most %d B)%s" % (
                d["per_press"], d["game"], d["boot"], d["render_max"],
                "" if d["driver_agrees"] else "; driver's bytes_sent differs from the bus"),
            "< %d B" % OLED_BUS_BUDGET if oled else "", verdict(d["per_press"] < OLED_BUS_BUDGET) if oled else "")


def _r_presses(r, row):
    for label, (deals, avg, most, secs) in r["presses"].items():
        row("4 presses", "per deal, %s (%d deals)" % (label, deals),
            "avg %.2f, max %d; about %.1f s" % (avg, most, secs), "", "")


def _r_size(r, row):
    mods, data, boards = r["mods"], r["data"], r["boards"]
    for rel, size in sorted(mods.items(), key=lambda x: -x[1]):
        row("5 size", "`%s` as .mpy" % rel, "%d B" % size, "", "")
    row("5 size", "all firmware modules as .mpy", "%d B = %s" % (sum(mods.values()), kb(sum(mods.values()))), "", "")
    for board, b in boards.items():
        row("5 size", "board `%s`: %d modules as .mpy (+ main.py, board file: on flash in all)" % (board, b["modules"]),
            "%d B = %s (+ main.py %d, board %d: %s)" % (b["mpy"], kb(b["mpy"]), b["main"], b["board"], kb(b["total"])),
            "", "")
    for rel, size in sorted(data.items()):
        row("5 size", "data `%s`" % rel, "%d B" % size, "", "")
    row("5 size", "data, all files", "%d B" % sum(data.values()), "", "")
    dc = r.get("deploy_copies_data")
    if dc is not None:
        row("5 size", "data sent by `make deploy` (host_tools/device/deploy.py)",
            "yes" if dc else "**no**: the plan copies no render/lang/*.txt, so a deployed board has no UI strings", "", "")


def _r_flash(r, row):
    f = r["flash"]
    # the journal's two copies on the two data partitions (store/partitions.py), both counted:
    # the erases spread over both partitions' blocks
    years = wear_years(f["erases_per_deal"], blocks=DATA_BLOCKS)
    row("6 flash", "bytes programmed per deal, both journal copies (%d-deal game with edits, undos, a setting; "
        "archived)" % f["deals"],
        "%d B (total %d B)" % (f["bytes_per_deal"], f["bytes"]), "", "")
    row("6 flash", "blocks erased per deal", "%g (total %d)" % (f["erases_per_deal"], f["erases"]), "", "")
    for op, (count, b, e) in sorted(f["by_op"].items()):
        row("6 flash", "… `%s` actions" % op, "%d: %d B, %d erases" % (count, b, e), "", "")
    row("6 flash", "wear: %d blocks (2 data partitions) × %d erases, %d deals a night"
        % (DATA_BLOCKS, ERASE_CYCLES, DEALS_PER_NIGHT),
        "%s years of nightly play" % ("{:,.0f}".format(years) if years != float("inf") else "∞"), "", "")


def _r_cpu(r, row):
    c = r["cpu"]
    if c is None:
        row("7 CPU", "instructions per press", "not measured: valgrind or the micropython_run module is absent (or --no-valgrind)", "", "")
    else:
        row("7 CPU", "x86-64 instructions per press (callgrind, first %d deals of the %s game, %d presses)" % (
            c["deals"], REFERENCE, c["presses"]), "{:,.0f}".format(c["per_press"]), "", "")
        row("7 CPU", "x86-64 instructions of the start-up (subtracted above)", "{:,}".format(c["startup"]), "", "")


def _r_calculator(r, row):
    c = r["calculator"]
    for key, label in (("cpython", "CPython (`python3 -m host_tools.score`)"),
                       ("micropython", "unix port, default heap (`micropython host_tools/score.py`)"),
                       ("micropython_256k", "unix port, `-X heapsize=256k`")):
        f = c[key]
        done = f["status"] == 0
        value = "%.1f s wall, %.1f s CPU, peak RSS %s" % (f["wall"], f["cpu"], kb(f["rss"])) if done else \
            "**fails** (exit status %d)" % f["status"]
        budget = judged = ""
        if key == "cpython":
            budget, judged = "< %g s" % CALCULATOR_BUDGET_S, verdict(done and f["wall"] < CALCULATOR_BUDGET_S)
        elif key == "micropython":
            budget, judged = "completes", verdict(done)
        row("8 calculator", "%s deals streamed, %s" % ("{:,}".format(CALCULATOR_DEALS), label), value, budget, judged)


def _r_rp2(r, row):
    """Figure 9: the real port (stock rp2 MicroPython v1.28.0 UF2 on the emulated RP2040, 125 MHz)."""
    x = r["rp2"]
    g = x["game"]
    label = "rp2 (emulated Pico, stock UF2)"
    st = x["stock"]
    row("9 rp2", "%s: heap, nothing deployed: total / free after boot (REPL)" % label,
        "%d / %d B" % (st["total"], st["free"]), "", "")
    total = g["after_game"]["total"]
    row("9 rp2", "%s: live heap after boot (app running, .mpy deployed) / heap free then" % label,
        "%s / %s" % (kb(g["app_live"]), kb(total - g["app_live"])), "", "")
    ok = g["deals_match"] and g["app_live_max"] <= RP2_LIVE_BUDGET
    row("9 rp2", "%s: live heap peak over a %d-deal %s game (after `gc.collect()` every %d polls), "
        "less the measuring layer's own %d B" % (label, g["deals_wanted"], x["preset"], 8, g["layer"]),
        "%s (%d B)%s" % (kb(g["app_live_max"]), g["app_live_max"], "" if g["deals_match"] else
                          " — **the game did not come out right: %d of %d deals**" % (g["deals_kept"], g["deals_wanted"])),
        "≤ %s (half of %d B)" % (kb(RP2_LIVE_BUDGET), RP2_HEAP), verdict(ok))
    row("9 rp2", "%s: least free heap seen at a poll (before collections)" % label, kb(g["free_min"]), "", "")
    after = g["after_game"]
    row("9 rp2", "%s: after the game: heap used / free / largest free block (`micropython.mem_info()`)" % label,
        "%s / %s / %s" % (kb(after["used"]), kb(after["free"]), kb(after["largest_free"] or 0)), "", "")
    row("9 rp2", "%s: longest `gc.collect()` (full heap walk)" % label, "%.1f ms" % (g["gc_max"] / 1000), "", "")
    row("9 rp2", "%s: longest time between two polls (a render, a save, a collection)" % label,
        "%.1f ms (on %s)" % (g["gap_max"] / 1000, g["gap_screen"]), "", "")
    row("9 rp2", "%s: presses at 30 ms with 30 ms gaps, whole game" % label,
        "all %d deals as typed" % g["deals_kept"] if g["deals_match"] else "**lost or reordered**",
        "none lost", verdict(g["deals_match"]))
    for board, key in (("pico_oled", "latency_oled"), ("pico_display_pack", "latency_pack")):
        lat = x[key]
        for name, (count, draw_total, draw_max, show_max) in sorted(lat["render"].items()):
            row("9 rp2", "%s, %s: render of `%s` (%d renders): drawing mean / max, display transfer max"
                % (label, board, name, count),
                "%.1f / %.1f ms, %.1f ms" % (draw_total / count / 1000, draw_max / 1000, show_max / 1000), "", "")
        row("9 rp2", "%s, %s: press to pixels (acting edge to the end of the press's own picture on the bus: "
            "the next poll, the drawing, the transfer), ms" % (label, board), summary(lat["latency_ms"]), "", "")
    for name, (count, draw_total, draw_max, show_max) in sorted(g["render"].items()):
        row("9 rp2", "%s, pico_oled, %d-deal game: render of `%s` (%d renders): drawing mean / max, transfer max"
            % (label, g["deals_wanted"], name, count),
            "%.1f / %.1f ms, %.1f ms" % (draw_total / count / 1000, draw_max / 1000, show_max / 1000), "", "")


def diagnosis(r, sections=None):
    """Markdown lines: each budget that does not hold, by how much, and where the bytes go
    (of every figure, or of those of `sections`, as render())."""
    sections = SECTIONS if sections is None else sections
    out = []
    errors = r["errors"]
    for sec in sections:
        if sec in errors:
            out.append("- **%s** could not be measured%s: %s" % (
                sec, " (its budget is not shown to hold)" if sec in BUDGETED else "", escape_cell(errors[sec])))
    for sec, explain in (("9 rp2", _d_rp2), ("2 alloc", _d_alloc), ("3 display", _d_display)):
        if sec in sections and sec not in errors:
            out += explain(r)
    return out


def _d_rp2(r):
    g = r["rp2"]["game"]
    out = []
    if g["app_live_max"] > RP2_LIVE_BUDGET:
        out.append("- **9 rp2** (budget %s live heap): the %d-deal game peaks at %s on the real port, %s over."
                   % (kb(RP2_LIVE_BUDGET), g["deals_wanted"], kb(g["app_live_max"]),
                      kb(g["app_live_max"] - RP2_LIVE_BUDGET)))
    if not g["deals_match"]:
        out.append("- **9 rp2**: at 30 ms presses / 30 ms gaps the device kept %d of %d deals, or scored them "
                   "otherwise than typed." % (g["deals_kept"], g["deals_wanted"]))
    return out


def _d_alloc(r):
    out = []
    a = r["alloc"]
    hr = a["home_render"]
    if hr["bytes"] > HOME_REDRAW_BUDGET:
        out.append("- **2 home redraw** (budget 0 B): %g B per `app.render()`; the first allocation is at %s."
                   % (hr["bytes"] / hr["calls"], " < ".join(hr.get("site") or ["?"])))
    over = []
    for name, sc in a["screens"].items():
        if "skipped" in sc:
            continue
        avg = sc["bytes"] / sc["presses"]
        if avg > ALLOC_BUDGET:
            over.append((avg, name, sc))
    if over:
        items = []
        for avg, name, sc in sorted(over, key=lambda x: -x[0]):
            first = sc.get("site_key") or sc.get("site_draw") or ["?"]
            items.append("`%s` %.0f B (redraw alone %d B; first at %s)" % (name, avg, sc["redraw"], " < ".join(first[:2])))
        out.append("- **2 allocation per press** (budget %d B average): %d of %d screens over: %s."
                   % (ALLOC_BUDGET, len(over), sum(1 for x in a["screens"].values() if "skipped" not in x),
                      "; ".join(items)))
    return out


def _d_display(r):
    out = []
    for label, d in r["display"].items():
        if label.startswith("pico_oled") and ("error" in d or d["per_press"] >= OLED_BUS_BUDGET):
            out.append("- **3 display** (%s, budget < %d B per press): %s" % (
                label, OLED_BUS_BUDGET, escape_cell(d.get("error")) or "%.0f B per press" % d["per_press"]))
    return out
