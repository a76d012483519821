"""Deploy: the plan for each board, and the deployed tree booting on a fake device.

No Pico is needed: the mpremote commands of the plan are carried out by a
small interpreter on the MicroPython unix port, against a littlefs volume
mounted at / (what the Pico has), and the result is then booted from that
volume with the fake `machine` and a controller model behind the bus.
"""
import json
import os
import shlex
import subprocess
import sys

import pytest

from conftest import FIRMWARE, ROOT
from host_tools.common.paths import SIM_DEVICE
from host_tools.device import deploy

BOARDS = {"pico_oled": ("ssd1306", "st7789"), "pico_display_pack": ("st7789", "ssd1306")}


def firmware_files(ext=".py"):
    out = []
    for top, dirs, names in os.walk(FIRMWARE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        out += [os.path.relpath(os.path.join(top, n), FIRMWARE) for n in names
                if (n.endswith(ext) if ext else not n.endswith((".py", ".pyi")))]
    return sorted(out)


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_plan_sends_what_the_board_needs(board):
    mine, other = BOARDS[board]
    compile_cmds, argv, on_device = deploy.plan(board)
    compiled = sorted(c[-1] for c in compile_cmds)
    sources = firmware_files()
    assert "main.py" not in compiled  # main stays source: MicroPython only runs main.py
    assert "drivers/%s.py" % mine in compiled
    # the OLEDs' page sync; the colour panel's row sync is in its own driver
    assert ("drivers/dirty.py" in compiled) == (mine == "ssd1306")
    assert "drivers/%s.py" % other not in compiled
    # everything else of the firmware goes, compiled for the Pico, but the UF2 boot's
    # partition mount and its report (the stock firmware has one filesystem: the journal's
    # copies are folders) and the look-up of the language tables the UF2 has as code
    uf2_only = ("store/partitions.py", "flash_report.py", "render/constant_table.py")
    assert not set(uf2_only) & set(compiled)
    layouts = [s for s in sources if s.startswith("render/layout_")]
    expected = [s for s in sources if s != "main.py" and not s.startswith("drivers/") and s not in layouts
                and s not in uf2_only]
    assert set(expected) <= set(compiled)
    assert all(c[1] == "-march=armv6m" for c in compile_cmds)
    assert "/main.py" in on_device and "/board.py" in on_device
    data = ["/" + f for f in firmware_files(ext=None)]  # tables, fonts: sent as they are
    assert set(data) <= set(on_device)
    assert all(p.endswith(".mpy") for p in on_device if p not in ["/main.py", "/board.py"] + data)
    # mpremote: prepare (clean old firmware, create folders and the journal folders /data_a, /data_b), copy, reset
    steps, cur = [], []
    for a in argv[1:] + ["+"]:
        if a == "+":
            steps.append(" ".join(cur))
            cur = []
        else:
            cur.append(a)
    assert steps[0].startswith("exec ") and '"/data_a"' in steps[0] and '"/data_b"' in steps[0]
    assert steps[-1] == "reset"
    assert "fs cp boards/%s.py :/board.py" % board in steps
    # main.py as source into the root, alone or with the other top-level modules (on_demand.mpy)
    assert "fs cp firmware/main.py :/main.py" in steps or any(
        step.startswith("fs cp ") and "firmware/main.py" in step.split() and step.endswith(" :/") for step in steps)


def test_make_deploy_plan_with_port_and_arch():
    proc = subprocess.run(["make", "-s", "deploy-plan", "BOARD=pico_oled", "PORT=/dev/ttyACM0", "ARCH=armv7emsp"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "mpremote connect /dev/ttyACM0 exec" in out
    compile_lines = [line for line in out.splitlines() if "mpy-cross" in line]
    assert compile_lines and all("-march=armv7emsp" in line for line in compile_lines)
    # the printed plan is valid shell: each line parses
    for line in compile_lines:
        shlex.split(line)


def test_sim_board_is_refused():
    proc = subprocess.run([sys.executable, "-m", "host_tools.device.deploy", "--board", "sim", "--plan"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 2
    assert "DRIVERS" in proc.stderr


# -- the deployed tree, booted -------------------------------------------------

DEVICE = r"""
import sys, os, json, vfs
ARGV = json.loads(%(argv)r)
ROOT = %(root)r
BOARD = %(board)r
sys.path.insert(0, %(host_mp)r)
import blockdev, fake_machine
from models.ssd1306 import SSD1306Model
from models.st7789 import ST7789Model

# The Pico: littlefs at /, with what an earlier deploy and the game left there.
dev = blockdev.RAMBlockDev()
vfs.VfsLfs2.mkfs(dev)
host = vfs.VfsPosix("/")
vfs.umount("/")
vfs.mount(vfs.VfsLfs2(dev), "/")
vfs.mount(host, "/host")
os.chdir("/")
os.mkdir("/data")
os.mkdir("/ui")
for path, text in (("/data/journal.txt", "keep"), ("/app.py", "stale"), ("/main.mpy", "stale")):
    with open(path, "w") as f:
        f.write(text)

# mpremote, as far as the plan uses it
steps, cur = [], []
for a in ARGV[1:]:
    if a == "+":
        steps.append(cur)
        cur = []
    else:
        cur.append(a)
steps.append(cur)
def local(p):
    return "/host" + (p if p.startswith("/") else ROOT + "/" + p)
done = []
for s in steps:
    if s[0] == "connect":
        s = s[2:]
    if s[0] == "exec":
        exec(s[1], {})
    elif s[:2] == ["fs", "cp"]:
        dst = s[-1][1:]
        for src in s[2:-1]:
            to = dst + src.split("/")[-1] if dst.endswith("/") else dst
            with open(local(src), "rb") as f:
                data = f.read()
            with open(to, "wb") as f:
                f.write(data)
    elif s[0] == "reset":
        pass
    else:
        raise ValueError("the plan uses an mpremote command this test does not know: %%r" %% s)
    done.append(s[0] if s[0] != "fs" else "cp")

def walk(d):
    for name in sorted(os.listdir(d)):
        p = (d if d != "/" else "") + "/" + name
        if os.stat(p)[0] & 0x4000:
            if p != "/host":
                yield from walk(p)
        else:
            yield p
tree = list(walk("/"))
with open("/data/journal.txt") as f:
    kept = f.read()

# Boot: only the device's files on the path, the fake machine behind the pins.
sys.path[:] = ["", "/lib"]
sys.modules["machine"] = fake_machine
fake_machine.reset_hardware()
if BOARD == "pico_oled":
    panel = fake_machine.attach_i2c(0, 0x3C, SSD1306Model())
else:
    panel = fake_machine.attach_spi(0, ST7789Model(dc=16, cs=17, backlight=20))
import board
imported, failed = [], []
for p in tree:
    if p.endswith(".mpy"):
        name = p[1:-4].replace("/", ".")
        try:
            __import__(name)
            imported.append(name)
        except Exception as e:
            failed.append([name, repr(e)])

ran = None
if %(run_main)r:
    class Stop(Exception):
        pass
    polls = [0]
    def sleep_ms(ms):
        polls[0] += 1
        if polls[0] > 30:
            raise Stop()
    board.sleep_ms = sleep_ms
    try:
        exec(open("/main.py").read(), {"__name__": "__main__"})
    except Stop:
        pass
    ran = [polls[0], any(panel.frame())]
print(json.dumps({"done": done, "tree": tree, "kept": kept, "imported": imported, "failed": failed,
                  "panel_on": panel.display_on, "problems": panel.problems, "ran": ran}))
"""


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_deployed_tree_boots(mp, board, tmp_path):
    build = str(tmp_path / "build")
    compile_cmds, argv, on_device = deploy.plan(board, arch="x64", build_dir=build)
    deploy.compile_all(compile_cmds)
    layout = "render/layout_%s.py" % ("128x64" if board == "pico_oled" else "240x135")
    run_main = os.path.exists(os.path.join(FIRMWARE, layout))
    code = DEVICE % {"argv": json.dumps(argv), "root": ROOT, "board": board, "host_mp": SIM_DEVICE,
                     "run_main": run_main}
    res = json.loads(mp(code=code, heapsize="8M").stdout.strip().splitlines()[-1])
    assert res["done"][0] == "exec" and res["done"][-1] == "reset"
    assert res["kept"] == "keep"  # the journal survives a deploy
    assert "/app.py" not in res["tree"] and "/main.mpy" not in res["tree"]  # stale files gone
    assert sorted(res["tree"]) == sorted(on_device + ["/data/journal.txt"])
    assert res["failed"] == []
    assert len(res["imported"]) == len([p for p in on_device if p.endswith(".mpy")])
    assert res["panel_on"] and res["problems"] == []
    if not run_main:
        pytest.skip("%s is not written yet: the app cannot start on %s" % (layout, board))
    polls, drew = res["ran"]
    assert polls > 30 and drew


def test_a_pico_w_board_goes_with_the_pico_board_it_builds_on():
    """A Pico W board is its Pico board plus what differs: deploy sends both, the W board as
    /board.py and the Pico's under its own name, which the W board imports."""
    _compile_cmds, argv, on_device = deploy.plan("pico_w_oled")
    assert "/board.py" in on_device and "/pico_oled.py" in on_device
    steps = " ".join(argv)
    assert "boards/pico_w_oled.py :/board.py" in steps and "boards/pico_oled.py" in steps
