"""A game at the deal limit starts, plays and archives at the heap the
device has (real App, firmware as .mpy as deploy sends it, on the MicroPython unix port).

The Pico's MicroPython heap is 245,888 B. The unix port is 64-bit: pointers, small ints
and every object header are twice the Pico's, bytecode structures up to twice, so the
same firmware and game need up to ~2x the heap (~480 KB). The test runs at 400 KB
(1.63x): below that equivalent, a margin for what the 2x estimate misses. The mount
policy (store/partitions.py, about 16 KB here) is unloaded after mounting, as the UF2's
boot does (the app reads what the mount found from flash_report).
Measured at 150 deals: start-up needs 320-340 KB, the whole run 340-360 KB: start-up
needs less than play."""
import json
import os

import pytest
from conftest import ROOT, run_mp
from host_tools.bench.tree import build_tree

SCRIPT = os.path.join(ROOT, "tests", "mp", "deal_limit.py")
MAX_DEALS = 150  # app.py
DEVICE_HEAP_ON_UNIX = "400K"


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return build_tree(str(tmp_path_factory.mktemp("limit") / "tree"))


def test_a_game_at_the_deal_limit_starts_plays_and_archives_at_the_device_heap(tree, tmp_path):
    # run from the tree's folder with short relative paths: every module's file name is on the
    # heap, and pytest's temporary folders grow longer with its run count (on the device the
    # modules sit at the root of the flash: short names too)
    folder, name = os.path.split(tree)
    image = os.path.relpath(str(tmp_path / "flash.img"), folder)
    built = run_mp(script=SCRIPT, args=["build", image, str(MAX_DEALS), name], heapsize="32M", cwd=folder)
    assert json.loads(built.stdout.strip().splitlines()[-1])["deals"] == MAX_DEALS - 1
    proc = run_mp(script=SCRIPT, args=["run", image, name], heapsize=DEVICE_HEAP_ON_UNIX, cwd=folder)
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "memory_error" not in r, r
    assert r["start_deals"] == MAX_DEALS - 1 and r["played_deals"] == MAX_DEALS
    # one more is refused with the limit message, nothing written; undo and save again work
    assert r["limit_message"] == "Max %d donnes" % MAX_DEALS  # French: the default language
    assert r["after_refusal"] == MAX_DEALS and r["after_undo_and_save"] == MAX_DEALS
    # start-up with the game at the limit, then the game archived, then start-up again
    assert r["restart_at_limit"] == MAX_DEALS
    assert r["archived"] == 20 and r["new_game_deals"] == 0 and r["restart_archive"] == [MAX_DEALS]


def test_the_limit_message_fits_one_line_in_every_language():
    for code in ("fr", "en", "de", "it"):
        with open(os.path.join(ROOT, "firmware", "render", "lang", code + ".txt"), encoding="utf-8") as f:
            text = [line.split(" = ", 1)[1] for line in f.read().splitlines() if line.startswith("e_limit = ")][0]
        assert len(text % MAX_DEALS) <= 16, (code, text)
