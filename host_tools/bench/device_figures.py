"""Figures 3, 5 and 6: display bytes per press on the real drivers, the firmware's size
as .mpy, and flash programmed and erased per deal."""
import json
import os
import shutil
import tempfile

from host_tools.bench.budgets import DEALS_PER_NIGHT, ERASE_CYCLES, FLASH_BLOCKS, GAME_DEALS, SH1106_BOARD
from host_tools.bench.games import run_game
from host_tools.bench.programs import run_micropython
from host_tools.bench.tree import compile_module, py_files
from host_tools.common.paths import BOARDS, DEVICE_SIDE, FIRMWARE, ROOT
from host_tools.device import deploy


def display_boards(tree):
    """[(label, board name in tree)] of the boards with real drivers."""
    out = [("pico_oled (ssd1306)", "pico_oled")]
    if os.path.exists(os.path.join(tree, "boards", SH1106_BOARD + ".py")):
        out.append(("pico_oled (sh1106)", SH1106_BOARD))
    out.append(("pico_display_pack (st7789)", "pico_display_pack"))
    return out


def display_bytes(lines, presses, preset, tree, board):
    """Bus bytes at boot and over the game, per press, and the most one redraw sent."""
    st, err, reps = run_game(lines, preset, board=board, tree=tree, bench_app=True, env={"BENCH_TRACK": "1"})
    if st is None:
        return {"error": err}
    boot, end = reps[0], reps[-1]
    if end["bus"] is None:
        return {"error": "no fake bus on board %s" % board}
    game = end["bus"] - boot["bus"]
    return {"boot": boot["bus"], "game": game, "presses": presses, "per_press": game / presses,
            "render_max": end["render_bus_max"], "renders": end["renders"] - boot["renders"],
            "driver_agrees": end["driver"] == end["bus"], "deals": len(st["deals"])}


def firmware_sizes(arch="armv6m"):
    """Per module .mpy bytes, data files, and per board what deploy copies."""
    tmp = tempfile.mkdtemp(prefix="bench-mpy-")
    try:
        mods = {}
        data = {}
        for rel in py_files(FIRMWARE):
            if rel.endswith(".py") and rel != "main.py":
                out = os.path.join(tmp, rel[:-3] + ".mpy")
                compile_module(FIRMWARE, rel, out, arch)
                mods[rel] = os.path.getsize(out)
            elif not rel.endswith((".py", ".pyc", ".pyi")):
                data[rel] = os.path.getsize(os.path.join(FIRMWARE, rel))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    main_size = os.path.getsize(os.path.join(FIRMWARE, "main.py"))
    boards = {}
    for name in sorted(os.listdir(BOARDS)):
        if not name.endswith(".py"):
            continue
        board = name[:-3]
        try:
            drivers, layout, _, path = deploy.board_settings(board)
        except deploy.DeployError:
            continue  # the sim board: not for hardware
        files = deploy.firmware_files(drivers, layout)
        code = sum(mods[f] for f in files if f in mods)
        boards[board] = {"modules": len([f for f in files if f in mods]), "mpy": code, "main": main_size,
                         "board": os.path.getsize(path), "total": code + main_size + os.path.getsize(path),
                         "missing": sorted(f for f in files if f != "main.py" and f not in mods)}
    return mods, data, boards


def deploy_copies_data():
    """True if deploy's plan copies the language files (data) to the board."""
    try:
        _, argv, _ = deploy.plan("pico_oled")
    except deploy.DeployError:
        return None
    return any("lang" in a and a.endswith(".txt") for a in argv) or any(a.rstrip("/").endswith("lang") for a in argv)


def flash_figures(tree, deals=GAME_DEALS):
    folders = [os.path.join(tree, "firmware")] + [os.path.join(tree, os.path.relpath(folder, ROOT)) for folder in DEVICE_SIDE]
    code = ("import sys, json\nsys.path[:0] = %r\n"
            "import flash_stats\nprint(json.dumps(flash_stats.game_stats(%d, %d, True)))\n"
            % (folders, deals, FLASH_BLOCKS))
    return json.loads(run_micropython(["-c", code]).strip().splitlines()[-1])


def wear_years(erases_per_deal, deals_per_night=DEALS_PER_NIGHT, blocks=FLASH_BLOCKS, cycles=ERASE_CYCLES):
    """Years of nightly play until the average block reaches its erase cycles (ideal wear levelling)."""
    per_year = erases_per_deal * deals_per_night * 365
    return float("inf") if per_year <= 0 else blocks * cycles / per_year
