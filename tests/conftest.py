"""Shared fixtures: paths, and running code on the real MicroPython unix port."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
BOARDS = os.path.join(ROOT, "boards")

if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


from host_tools.sim import micropython_path  # noqa: E402  (the venv's unix port, else PATH)
from host_tools.common.programs import find_tool  # noqa: E402
from host_tools.common.paths import DEVICE_SIDE  # noqa: E402  (the MicroPython scripts' folders)


def mpy_cross_path():
    return find_tool("mpy-cross")


def run_mp(code=None, script=None, args=(), stdin=None, heapsize=None, cwd=ROOT, timeout=600, check=True):
    """Run MicroPython code (a string) or a script file with firmware/ on sys.path.

    Returns the CompletedProcess (text mode)."""
    cmd = [micropython_path()]
    if heapsize:
        cmd += ["-X", "heapsize=%s" % heapsize]
    if code is not None:
        prelude = "import sys\nsys.path[:0] = %r\n" % ([FIRMWARE] + list(DEVICE_SIDE),)
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


# The two tiers (Makefile): `make test` runs what is not marked `device`, `make test-device`
# what is. A test is `device` when it needs the emulated RP2040 or a UF2 build: it asks
# for a UF2 fixture (marked here, DEVICE_FIXTURES), or its file or its decorator says so
# (`pytestmark = pytest.mark.device` in a file that boots the emulated Pico).
DEVICE_FIXTURES = ("uf2_images", "uf2_wifi_image")
MARKERS = {
    "device": "needs the emulated RP2040 or a UF2 build: `make test-device` runs it, `make test` leaves it out",
    "slow": "takes minutes (the 40-deal game on the emulated Pico)",
}


def pytest_configure(config):
    import sweep

    sweep.choose_offset()  # before the workers start: they inherit it
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", "%s: %s" % (name, text))


@pytest.hookimpl(tryfirst=True)  # before -m deselects by the marks
def pytest_collection_modifyitems(session, config, items):
    """Mark the tests that need a UF2, then order the files slowest first (durations.py)."""
    import durations

    for item in items:
        if any(name in item.fixturenames for name in DEVICE_FIXTURES):
            item.add_marker("device")
    durations.order_slowest_first(items)


def pytest_runtest_logreport(report):
    import durations

    durations.RUN.add(report)


def pytest_sessionfinish(session):
    import durations

    if not hasattr(session.config, "workerinput"):  # the controller (or a run without workers) keeps them
        durations.RUN.save()


def pytest_report_header(config):
    import sweep

    return sweep.header()


def pytest_terminal_summary(terminalreporter):
    import sweep

    terminalreporter.write_line(sweep.header())
