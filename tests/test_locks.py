"""Build folders take turns (host_tools/common/locks.py): make test's two workers, or make
uf2 beside make test, never build into one folder at the same time."""
import subprocess
import sys
import time

from conftest import ROOT
from host_tools.common.locks import folder_lock

HOLDER = """
import sys, time
from host_tools.common.locks import folder_lock
with folder_lock(sys.argv[1]):
    print("held", flush=True)
    time.sleep(1.5)
    open(sys.argv[2], "w").write("done")
"""


def test_a_second_process_waits_for_the_folder(tmp_path):
    folder, marker = tmp_path / "build", tmp_path / "first-done"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder), str(marker)], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        started = time.monotonic()
        with folder_lock(str(folder)):
            waited = time.monotonic() - started
            assert marker.read_text() == "done", "the lock was taken while the other process held it"
    finally:
        holder.wait(timeout=30)
    assert waited > 0.5


def test_the_folder_may_be_deleted_under_its_lock(tmp_path):
    folder = tmp_path / "build"
    with folder_lock(str(folder)):
        folder.mkdir()
        folder.rmdir()
    assert (tmp_path / "build.lock").exists()
