"""One `make deploy` per board and per run of the suite, shared by every emulated-Pico test
that starts from a deployed device, on whichever test worker it runs.

A deploy into the emulated RP2040 takes a minute or two of CPU. The tests that play on a
freshly deployed Pico (a game, the power cut, the 40-deal presses, the export) copy one
flash image instead of deploying each: the first worker to ask deploys, under a lock,
and keeps the image and the picture its first boot drew; the others wait for the lock
and read them. The image lives under build/test_cache/ in a folder of this run of the
suite only (xdist gives its workers one run id), so every run deploys once afresh:
`make deploy` itself is tested each run.
"""
import os
import pickle
import shutil
import subprocess
import time
import uuid

from conftest import ROOT
from host_tools import rp2emu
from host_tools.common.frames import Frame
from host_tools.common.locks import folder_lock

CACHE_DIR = os.path.join(ROOT, "build", "test_cache")
STALE_SECONDS = 6 * 3600  # another run's folder, older than any run of the suite


def make_deploy(board, url):
    """`make deploy` into the device at url, as a user runs it; it must succeed."""
    proc = subprocess.run(["make", "-s", "deploy", "BOARD=" + board, "PORT=" + url], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr


_RUN = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex  # one per run of the suite


def _run_folder():
    folder = os.path.join(CACHE_DIR, "run-" + _RUN)
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(CACHE_DIR):
        other = os.path.join(CACHE_DIR, name)
        if name.startswith("run-") and other != folder and time.time() - os.path.getmtime(other) > STALE_SECONDS:
            shutil.rmtree(other, ignore_errors=True)
    return folder


def deployed(board):
    """(flash image, the picture its first boot drew, reboots after the deploy): the stock
    UF2 on an empty flash, `make deploy BOARD=board` into it, its reset, its first boot.
    Callers copy the image before they boot it."""
    folder = _run_folder()
    image = os.path.join(folder, board + ".img")
    drawn = image + ".frame"
    with folder_lock(image):
        if not os.path.exists(drawn):
            building = image + ".part"
            if os.path.exists(building):
                os.remove(building)
            with rp2emu.Pico(board, building) as pico:
                make_deploy(board, pico.url)
                # the reset comes after mpremote returns (it waits 100 ms first): counted once
                # the app, which only that boot starts, has drawn (the reader reports in the
                # emulator's order)
                frame = pico.wait_for_frame()
                reboots = pico.reboots
            os.replace(building, image)
            with open(drawn + ".part", "wb") as handle:
                pickle.dump((tuple(frame), reboots), handle)
            os.replace(drawn + ".part", drawn)
    with open(drawn, "rb") as handle:
        fields, reboots = pickle.load(handle)
    return image, Frame(*fields), reboots
