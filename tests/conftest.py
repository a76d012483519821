"""Shared fixtures: paths, and running code on the real MicroPython unix port."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
BOARDS = os.path.join(ROOT, "boards")
HOST_MP = os.path.join(ROOT, "host_tools", "mp")

if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


from host_tools.sim import micropython_path  # noqa: E402  (the venv's unix port, else PATH)
from host_tools.common.programs import find_tool  # noqa: E402


def mpy_cross_path():
    return find_tool("mpy-cross")


def run_mp(code=None, script=None, args=(), stdin=None, heapsize=None, cwd=ROOT, timeout=600, check=True):
    """Run MicroPython code (a string) or a script file with firmware/ on sys.path.

    Returns the CompletedProcess (text mode)."""
    cmd = [micropython_path()]
    if heapsize:
        cmd += ["-X", "heapsize=%s" % heapsize]
    if code is not None:
        prelude = "import sys\nsys.path.insert(0, %r)\nsys.path.insert(0, %r)\n" % (HOST_MP, FIRMWARE)
        cmd += ["-c", prelude + code]
    else:
        cmd += [script]
    cmd += list(args)
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=cwd, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError("micropython failed (%d):\n%s\n%s" % (proc.returncode, proc.stdout[-4000:], proc.stderr[-4000:]))
    return proc


@pytest.fixture
def mp():
    """The run_mp helper as a fixture."""
    return run_mp


@pytest.fixture(scope="session")
def uf2_images():
    """build/coinche-<board>.uf2 for both boards, built (incrementally) from
    $MICROPYTHON_SRC by host_tools/device/uf2.py; the test is skipped with the reason
    when the source or the Arm toolchain is missing."""
    from host_tools.device import uf2

    source = os.environ.get("MICROPYTHON_SRC", "")
    why = uf2.problem(source)
    if why:
        pytest.skip("UF2 not built: " + why)
    images = {}
    for board in uf2.BOARDS:
        try:
            images[board], _seconds = uf2.build_firmware(board, source)
        except uf2.BuildError as e:
            pytest.fail(str(e))
    return images


@pytest.fixture(scope="session")
def uf2_wifi_image():
    """build/coinche-pico_w_oled.uf2 (MicroPython's RPI_PICO_W port board, with the
    wireless libraries beside the source tarball), built like uf2_images; skipped with
    the reason when the source, the wireless libraries or the toolchain is missing."""
    from host_tools.device import uf2

    source = os.environ.get("MICROPYTHON_SRC", "")
    why = uf2.problem(source, uf2.wireless_source(source, os.environ.get("MICROPYTHON_WIRELESS", "")))
    if why:
        pytest.skip("Pico W UF2 not built: " + why)
    try:
        path, _seconds = uf2.build_firmware("pico_w_oled", source, wireless=os.environ.get("MICROPYTHON_WIRELESS", ""))
    except uf2.BuildError as e:
        pytest.fail(str(e))
    return path


def pytest_configure(config):
    import sweep

    sweep.choose_offset()  # before the workers start: they inherit it
    config.addinivalue_line("markers", "slow: takes minutes (the 40-deal game on the emulated Pico); "
                                       "`make test` runs it, `pytest -m 'not slow'` leaves it out")


# The files that take longest (minutes, measured with `--durations`), first: under
# `--dist loadfile --no-loadscope-reorder` (the Makefile's) a free worker takes the next
# file in the order collected, so one of these collected last would run alone at the end
# while the other worker waits. Their own tests keep their order (the sort is stable).
SLOWEST_FILES_FIRST = (
    "test_budgets.py",
    "test_rp2emu_presses.py",
    "test_rp2emu.py",
    "test_uf2_emulated.py",
    "test_concours_emulated.py",
    "test_export_emulated.py",
    "test_picow_emulated.py",
    "test_web.py",
    "test_journal_power.py",
    "test_text_fit_240x135.py",
    "test_link_device.py",
    "test_power_e2e.py",
    "test_ui_games.py",
    "test_text_fit_128x64.py",
    "test_calculator_hostile.py",
    "test_storage_layout.py",
    "test_journal_faults.py",
)


def pytest_collection_modifyitems(session, config, items):
    rank = {name: index for index, name in enumerate(SLOWEST_FILES_FIRST)}
    items.sort(key=lambda item: rank.get(os.path.basename(str(item.fspath)), len(SLOWEST_FILES_FIRST)))


def pytest_report_header(config):
    import sweep

    return sweep.header()


def pytest_terminal_summary(terminalreporter):
    import sweep

    terminalreporter.write_line(sweep.header())
