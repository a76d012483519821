"""`make uf2`: the frozen image's inputs, its messages, and (when the rp2
source and the Arm toolchain are there) the image itself."""
import os
import re
import subprocess
import sys

import pytest

from host_tools.device import uf2
from tests.conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "firmware"))
from render import languages, text  # noqa: E402
from render.constant_table import ConstantTable  # noqa: E402


def test_language_tables_module_holds_exactly_the_language_files():
    namespace = {}
    exec(compile(uf2.language_tables_source(), "language_tables.py", "exec"), namespace)
    for code in languages.LANGS:
        table = namespace[code]()
        assert isinstance(table, ConstantTable)
        assert {key: table[key] for key in table} == languages.read_file(code)
        assert len(table) > 100
        prepared = namespace[code + "_prepared"]()
        assert {value: prepared[value] for value in prepared} == {
            value: text._split(value) for value in languages.read_file(code).values()}
        # looked up by bisection: MicroPython compares str as UTF-8 bytes, the order of the code points
        for sorted_table in (table, prepared):
            keys = sorted_table.sorted_keys
            assert [k.encode() for k in keys] == sorted(k.encode() for k in keys)
        assert table.get("no such key") is None and "no such key" not in table
        with pytest.raises(KeyError):
            table["no such key"]


def test_language_tables_module_compiles_for_the_rp2040(tmp_path):
    from tests.conftest import mpy_cross_path

    src = tmp_path / "language_tables.py"
    src.write_text(uf2.language_tables_source(), encoding="utf-8")
    proc = subprocess.run([mpy_cross_path(), "-march=armv6m", str(src)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_manifest_freezes_our_boot_the_board_and_what_deploy_sends(tmp_path):
    from host_tools.device.deploy import board_settings, firmware_files

    manifest = open(uf2.stage("pico_display_pack", str(tmp_path))).read()
    modules = re.findall(r"module\('([^']+)'", manifest)
    drivers, layout, _storage, _path = board_settings("pico_display_pack")
    assert set(firmware_files(drivers, layout)) <= set(modules)
    for name in ("_boot.py", "flash_report.py", "store/partitions.py", "board.py", "render/language_tables.py",
                 "render/constant_table.py", "main.py"):
        assert name in modules
    # the port's modules directory only for rp2.py: its _boot.py formats the flash
    assert 'freeze("$(PORT_DIR)/modules", "rp2.py")' in manifest
    assert "drivers/ssd1306.py" not in modules
    with open(tmp_path / "stage" / "pico_display_pack" / "board.py") as f, \
            open(os.path.join(ROOT, "boards", "pico_display_pack.py")) as g:
        assert f.read() == g.read()


def test_missing_source_is_one_message_saying_what_to_give(tmp_path):
    assert "MICROPYTHON_SRC is not set" in uf2.problem("")
    assert "does not exist" in uf2.problem(str(tmp_path / "nothing.tar.xz"))
    assert "holds no micropython/ports/rp2" in uf2.problem(str(tmp_path))
    proc = subprocess.run([sys.executable, "-m", "host_tools.device.uf2", "--board", "pico_oled", "--source", ""],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("uf2: MICROPYTHON_SRC is not set")
    assert not os.path.exists(os.path.join(ROOT, "build", "uf2", "nothing"))


def test_missing_toolchain_names_the_debian_packages(monkeypatch, tmp_path):
    real_which = uf2.shutil.which
    monkeypatch.setattr(uf2.shutil, "which", lambda name: None if "arm-none-eabi" in name else real_which(name))
    missing = uf2.missing_tools()
    assert "arm-none-eabi-gcc" in missing
    message = uf2.tools_message(missing)
    assert "gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake" in message


def test_real_board_is_required():
    proc = subprocess.run([sys.executable, "-m", "host_tools.device.uf2", "--board", "sim", "--check"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 2 and "not a board for real hardware" in proc.stderr


def _picotool_info(path):
    picotool = os.path.join(uf2.BUILD, "picotool-install", "picotool", "picotool")
    return subprocess.run([picotool, "info", "-a", path], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("board", uf2.BOARDS)
def test_uf2_is_micropython_1_28_with_the_scoreboard_frozen_in(uf2_images, board):
    path = uf2_images[board]
    assert path == os.path.join(ROOT, "build", "coinche-%s.uf2" % board)
    info = _picotool_info(path)
    assert re.search(r"version:\s+v1\.28\.0\b", info)
    frozen = re.search(r"frozen modules:(.*?)\n\s*binary start", info, re.S).group(1)
    frozen = {name.strip() for name in frozen.replace("\n", " ").split(",")}
    for name in ("_boot", "store/partitions", "flash_report", "board", "main", "app", "render/language_tables", "firmware_build", "store/journal",
                 "coinche/game", "rp2"):
        assert name in frozen
    driver = "drivers/st7789" if board == "pico_display_pack" else "drivers/ssd1306"
    assert driver in frozen
    # the firmware stays below the storage region (flash offset 640 KB)
    end = int(re.search(r"binary end:\s+0x([0-9a-f]+)", info).group(1), 16)
    assert end <= 0x100A0000


def test_pico_w_uf2_is_built_for_the_rp2_port_board_with_wifi(uf2_wifi_image):
    """pico_w_oled: MicroPython's RPI_PICO_W (the CYW43 driver and lwIP linked in, from the
    wireless libraries unpacked over the source), the scoreboard frozen in, the firmware
    below the Pico W's smaller storage region."""
    info = _picotool_info(uf2_wifi_image)
    assert re.search(r"version:\s+v1\.28\.0\b", info)
    assert re.search(r"pico_board:\s+pico_w\b", info)
    drive = re.search(r"embedded drive:\s+0x([0-9a-f]+)-0x([0-9a-f]+) \((\d+)K\)", info)
    assert int(drive.group(1), 16) == uf2.STORAGE_START["RPI_PICO_W"] and drive.group(3) == "848"
    frozen = re.search(r"frozen modules:(.*?)\n\s*binary start", info, re.S).group(1)
    frozen = {name.strip() for name in frozen.replace("\n", " ").split(",")}
    for name in ("_boot", "store/partitions", "board", "main", "app", "link/state", "drivers/ssd1306"):
        assert name in frozen
    end = int(re.search(r"binary end:\s+0x([0-9a-f]+)", info).group(1), 16)
    assert end <= uf2.STORAGE_START["RPI_PICO_W"]


def test_port_board_comes_from_the_board_file():
    assert uf2.port_board("pico_oled") == "RPI_PICO"
    assert uf2.port_board("pico_w_oled") == "RPI_PICO_W"
    assert uf2.port_board("pico_w_display_pack") == "RPI_PICO_W"


def test_wifi_board_without_the_wireless_libraries_is_one_message(tmp_path):
    source = tmp_path / "micropython-v1.28.0-rp2-src.tar.xz"
    source.write_bytes(b"")
    proc = subprocess.run([sys.executable, "-m", "host_tools.device.uf2", "--board", "pico_w_oled", "--source", str(source),
                           "--check"], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    assert "wireless libraries" in proc.stderr and uf2.WIRELESS_NAME in proc.stderr


def test_frozen_language_tables_look_up_on_micropython_without_allocating(tmp_path):
    """On MicroPython (the unix port), with render/language_tables.py in render/ as in the
    frozen image: languages.load() and render.text read the tables from it, every text is found,
    and a look-up (T[key], T.get, in, the drawing form of a text) allocates nothing."""
    import json
    import shutil

    from tests.conftest import FIRMWARE, run_mp

    shutil.copytree(os.path.join(FIRMWARE, "render"), tmp_path / "render", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "render" / "language_tables.py").write_text(uf2.language_tables_source(), encoding="utf-8")
    code = """
import sys, gc, json
sys.path.insert(0, %r)
from render import languages, text
out = {}
for code in languages.LANGS:
    T = languages.load(code)
    text.prepare_table(T, code)
    file_table = languages.read_file(code)
    same = type(T).__name__ == "ConstantTable" and type(text._table).__name__ == "ConstantTable"
    same = same and len(T) == len(file_table)
    for key in file_table:
        value = file_table[key]
        same = same and T[key] == value and T.get(key) == value and key in T
        same = same and text._prepare(value) == text._split(value)
    key = "saved"
    value = T[key]
    gc.collect()
    before = gc.mem_alloc()
    for _ in range(100):
        T[key]
        T.get("no such key", key)
        key in T
        text._prepare(value)
    out[code] = (same, gc.mem_alloc() - before, T.get("no such key"))
print(json.dumps(out))
""" % str(tmp_path)
    proc = run_mp(code)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out == {code: [True, 0, None] for code in languages.LANGS}, out


def test_a_pico_w_boards_manifest_freezes_the_pico_board_it_builds_on(tmp_path):
    manifest = open(uf2.stage("pico_w_display_pack", str(tmp_path))).read()
    modules = re.findall(r"module\('([^']+)'", manifest)
    assert "board.py" in modules and "pico_display_pack.py" in modules
    with open(tmp_path / "stage" / "pico_w_display_pack" / "pico_display_pack.py") as f, \
            open(os.path.join(ROOT, "boards", "pico_display_pack.py")) as g:
        assert f.read() == g.read()
    assert uf2.port_board("pico_w_display_pack") == "RPI_PICO_W" and uf2.port_board("pico_display_pack") == "RPI_PICO"
