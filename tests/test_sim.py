"""The simulator: block devices, the device launcher and the host front end."""
import os
import signal

from conftest import ROOT, run_mp

MP_DIR = os.path.join(ROOT, "host_tools", "sim", "device_side")


# ---------------------------------------------------------------- block devices

def test_blockdev_protocol_offsets_erase_and_bounds():
    out = run_mp(code="""
import blockdev
d = blockdev.RAMBlockDev(block_size=512, block_count=8)
print(d.ioctl(4, 0), d.ioctl(5, 0), d.ioctl(1, 0), d.ioctl(3, 0))
b = bytearray(4)
d.readblocks(2, b, 10); print(bytes(b))              # erased reads 0xff
d.writeblocks(2, b"abcd", 10)                         # extended: no erase
d.writeblocks(2, b"XY", 0)
d.readblocks(2, b, 10); print(bytes(b))
big = bytearray(b"Z" * 600)
d.writeblocks(3, big)                                 # simple protocol: erase + write, spans 2 blocks
r = bytearray(520); d.readblocks(3, r)
print(r[:3], r[511:513], d.erases)
r = bytearray(4); d.readblocks(4, r, 86); print(bytes(r))   # bytes 598..601 of the span
print(bytes(d.blocks[2][:2]), bytes(d.blocks[2][10:14]))
d.ioctl(6, 2); d.readblocks(2, r, 10); print(bytes(r), 2 in d.blocks)
for args in ((8, bytearray(1)), (7, bytearray(2), 511), (-1, bytearray(1))):
    try:
        d.readblocks(*args); print("no error")
    except OSError as e:
        print("EIO", e.errno)
""").stdout.split("\n")
    assert out[0] == "8 512 0 0"
    assert out[1] == "b'\\xff\\xff\\xff\\xff'"
    assert out[2] == "b'abcd'"
    assert out[3] == "bytearray(b'ZZZ') bytearray(b'ZZ') 2"  # the plain write erased 2 blocks
    assert out[4] == "b'ZZ\\xff\\xff'"
    assert out[5] == "b'XY' b'abcd'"
    assert out[6] == "b'\\xff\\xff\\xff\\xff' False"
    assert out[7:10] == ["EIO 5"] * 3


def test_ram_blockdev_formats_blank_then_remounts_with_data():
    out = run_mp(code="""
import blockdev, vfs, os
d = blockdev.RAMBlockDev()
print(blockdev.mount(d, "/fl"))
with open("/fl/a.txt", "w") as f:
    f.write("kept" * 100)
vfs.umount("/fl")
print(blockdev.mount(d, "/fl"), open("/fl/a.txt").read()[:8], os.statvfs("/fl")[2])
print(len(d.blocks) < 10, d.writes > 0, d.erases > 0)
""").stdout.split()
    assert out == ["formatted", "mounted", "keptkept", "352", "True", "True", "True"]


def test_garbage_image_is_reformatted_or_refused():
    out = run_mp(code="""
import blockdev
d = blockdev.RAMBlockDev(block_size=4096, block_count=16)
d.writeblocks(0, b"not a filesystem" * 256, 0)
try:
    blockdev.mount(d, "/a", format_corrupt=False); print("mounted?")
except OSError:
    print("refused")
print(blockdev.mount(d, "/b"))
""").stdout.split()
    assert out == ["refused", "reformatted"]


def test_file_blockdev_persists_across_processes(tmp_path):
    img = str(tmp_path / "flash.img")
    first = run_mp(code="""
import blockdev
d = blockdev.FileBlockDev(%r)
print(blockdev.mount(d, "/fl"))
with open("/fl/g.json", "w") as f:
    f.write('{"deals": 7}')
""" % img).stdout.split()
    assert first == ["formatted"]
    assert os.path.getsize(img) == 4096 * 352
    second = run_mp(code="""
import blockdev
d = blockdev.FileBlockDev(%r)
print(blockdev.mount(d, "/fl"), open("/fl/g.json").read())
""" % img).stdout.split()
    assert second == ["mounted", '{"deals":', "7}"]


def test_blockdev_power_cut_hook_via_subclass():
    """The override points the power-cut tests use: cut after the k-th program."""
    out = run_mp(code="""
import blockdev, vfs

class Cut(Exception):
    pass

class CutDev(blockdev.RAMBlockDev):
    left = -1
    def _program(self, block, offset, data):
        if self.left == 0:
            raise Cut()
        self.left -= 1
        super()._program(block, offset, data)

d = CutDev()
blockdev.mount(d, "/fl")
with open("/fl/f", "w") as f:
    f.write("old")
d.left = 1
try:
    with open("/fl/f", "w") as f:
        f.write("new" * 2000)
    print("no cut")
except Cut:
    print("cut")
vfs.umount("/fl")
d.left = -1
print(blockdev.mount(d, "/fl", format_corrupt=False), open("/fl/f").read()[:3])
""").stdout.split()
    assert out[0] == "cut"
    assert out[1] == "mounted"
    assert out[2] in ("old", "new")


# ---------------------------------------------------------------- compile for the Pico

def test_board_and_launcher_compile_for_armv6m(tmp_path):
    import subprocess

    from conftest import mpy_cross_path

    for rel in ("boards/sim.py", "host_tools/sim/device_side/sim_main.py", "host_tools/sim/device_side/blockdev.py",
                "host_tools/sim/device_side/flash_image.py"):
        out = tmp_path / (os.path.basename(rel) + ".mpy")
        subprocess.run([mpy_cross_path(), "-march=armv6m", "-o", str(out), os.path.join(ROOT, rel)],
                       check=True, capture_output=True)
        assert out.stat().st_size > 0


# ---------------------------------------------------------------- launcher, raw protocol

SIM_MAIN = os.path.join(MP_DIR, "sim_main.py")
DEMO = os.path.join(ROOT, "tests", "sim_fixtures", "demo_app.py")


def _raw(stdin, *args, check=True):
    return run_mp(script=SIM_MAIN, args=("--app", DEMO) + args, stdin=stdin, check=check)


def test_launcher_protocol_round_trip():
    proc = _raw("sync 1\nd OK\nt 40\nsync 2\nu OK\nt 60\nsync 3\nt 100\nsync 4\nstate\nt 20000\nsync 5\nquit\n",
                "--rules", "classic2000", "--target", "1500")
    lines = proc.stdout.splitlines()
    kinds = [line if line[0] in "SD" else line[0] for line in lines]
    assert lines[0] == "L flash formatted"
    # first frame and display state before the first answer, then a frame per change only
    assert kinds == ["L", "F", "D 255 1", "S 1", "F", "S 2", "F", "S 3", "S 4", "J", "D 255 0", "S 5"]
    frames = [line.split(" ") for line in lines if line.startswith("F ")]
    for f in frames:
        assert f[1:5] == ["home", "128", "64", "mono"] and len(f[5]) == 2048
    assert frames[0][5] != frames[1][5] != frames[2][5]  # OK box filled, then count 1
    assert frames[0][5] != frames[2][5]
    import json
    state = json.loads(lines[kinds.index("J")][2:])
    assert state["count"] == 1 and state["defaults"] == {"rules": "classic2000", "target": 1500}
    # "D 255 0": the demo powers the display off after 10 s idle


def test_launcher_eof_is_clean_and_bad_command_fails():
    assert _raw("t 50\n").returncode == 0
    bad = _raw("t 10\nfly away\n", check=False)
    assert bad.returncode == 2 and "bad command" in bad.stderr
    bad = _raw("d LEFT\n", check=False)
    assert bad.returncode == 2 and "bad button" in bad.stderr


def test_virtual_clock_starts_before_the_wrap():
    lines = _raw("state\nt 6000\nstate\n", "--wrap-in", "3000").stdout.splitlines()
    import json
    t0, t1 = (json.loads(line[2:])["ticks"] for line in lines if line.startswith("J "))
    assert t0 > 1 << 29  # just below the wrap
    assert t1 == 3000  # 6000 ms later, past it


# ---------------------------------------------------------------- host: Sim API

import json  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from host_tools.common.frames import Frame, frame_image  # noqa: E402
from host_tools.common.script import ScriptError, parse_script  # noqa: E402
from host_tools.sim import Sim, SimError  # noqa: E402
from host_tools.sim.keyboard import KeyTracker, parse_keys  # noqa: E402
from host_tools.sim.terminal import render_frame  # noqa: E402


def _lit(frame, x, y):
    return (frame.data[(y // 8) * frame.w + x] >> (y % 8)) & 1


def test_sim_press_hold_wait_and_state():
    with Sim(app=DEMO) as s:
        f0 = s.frame()
        assert (f0.screen, f0.fmt, f0.w, f0.h, len(f0.data)) == ("home", "mono", 128, 64, 1024)
        assert _lit(f0, 68, 44) and not _lit(f0, 70, 50)  # OK box drawn, empty
        s.down("ok")
        s.wait(30)
        assert _lit(s.frame(), 70, 50)  # filled while held
        s.up("ok")
        s.wait(60)
        f1 = s.frame()
        assert not _lit(f1, 70, 50) and f1.data != f0.data
        assert s.state()["count"] == 1
        s.hold("ok", 1200)  # long press: no count, other screen
        assert s.frame().screen == "long"
        assert s.state()["count"] == 1
        s.press("back")
        s.press("up")
        s.press("UP")
        st = s.state()
        assert (st["screen"], st["sel"], st["held"]) == ("home", 2, [])
        frames = s.frames
        s.wait(5000)  # nothing changes: no frame is sent
        s.sync()
        assert s.frames == frames and s.display == (255, True)
        s.wait(6000)
        s.sync()
        assert s.display == (255, False)
        s.press("down")
        s.sync()
        assert s.display == (255, True)


def test_sim_many_presses_are_batched():
    with Sim(app=DEMO) as s:
        for _ in range(1500):
            s.press("up")
        for _ in range(500):
            s.press("down")
        assert s.state()["sel"] == 1000
        assert s.frame().screen == "home"


def test_sim_crash_surfaces_with_traceback():
    s = Sim(app=DEMO)
    s.hold("up", 3500)  # the demo raises after UP is held 3 s
    with pytest.raises(SimError) as e:
        s.sync()
    assert "demo crash" in str(e.value) and e.value.returncode == 1
    s.kill()  # already dead: not a kill of ours
    with pytest.raises(SimError):
        s.close()


def test_sim_hang_is_reported_not_waited_forever(tmp_path):
    app = tmp_path / "busy_app.py"
    app.write_text("def run(board, defaults):\n    while True:\n        pass\n")
    s = Sim(app=str(app), timeout=1.0)
    with pytest.raises(SimError, match="did not answer"):
        s.sync()
    s.kill()


def test_heapsize_reaches_the_device():
    with Sim(app=DEMO, heapsize=200_000) as s:
        s.press("ok")
        assert s.state()["count"] == 1
    s = Sim(app=DEMO, heapsize=12_000)
    with pytest.raises(SimError, match="MemoryError"):
        s.sync()
    s.kill()


def test_flash_image_persists_across_runs(tmp_path):
    img = str(tmp_path / "game.img")
    with Sim(app=DEMO, flash=img) as s:
        for _ in range(3):
            s.press("ok")
        s.sync()
        assert s.flash_status == "formatted"
    assert os.path.getsize(img) == 352 * 4096
    with Sim(app=DEMO, flash=img) as s:
        assert s.state()["count"] == 3
        assert s.flash_status == "mounted"
        assert "count 3" and s.frame().screen == "home"


def test_flash_survives_sigkill_at_random_instants(tmp_path):
    """Kill the device process mid-write, again and again: littlefs must stay mountable."""
    img = str(tmp_path / "kill.img")
    rnd = random.Random(1234)
    done = 0
    for _ in range(6):
        s = Sim(app=DEMO, flash=img)
        assert s.state() is not None
        assert s.flash_status in ("formatted", "mounted")
        count = s.state()["count"]
        assert done - 1 <= count <= done + 400  # at most the press in flight is lost
        done = count
        for _ in range(400):
            s.press("ok")  # every press rewrites the count file
        s.flush()
        time.sleep(rnd.uniform(0.0, 0.15))
        s.kill()
        s.close()  # killed by us: no error
    with Sim(app=DEMO, flash=img) as s:
        s.sync()
        assert s.flash_status == "mounted"
        before = s.state()["count"]
        s.press("ok")
        assert s.state()["count"] == before + 1


# ---------------------------------------------------------------- host: command line

def _cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "host_tools.sim", "--app", DEMO, *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_cli_script_screenshots_and_state(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("# two presses then a long one\n\nok\nok  # second\nshot two\n"
                      "hold ok 1200\nback\nwait 500\nshot end\n")
    shots = tmp_path / "shots"
    out = tmp_path / "state.json"
    p = _cli("--script", str(script), "--screenshot-dir", str(shots), "--state-out", str(out),
             "--rules", "classic2000", "--target", "2000")
    assert p.returncode == 0, p.stderr
    assert sorted(os.listdir(shots)) == ["001-home.png", "002-long.png", "003-home.png", "end.png", "two.png"]
    for name in os.listdir(shots):
        with Image.open(shots / name) as im:
            im.verify()
        with Image.open(shots / name) as im:
            assert im.format == "PNG" and im.size == (512, 256)
    with Image.open(shots / "two.png") as im:
        assert im.getpixel((70 * 4, 50 * 4)) == 0 and im.getpixel((68 * 4, 44 * 4)) == 255
    state = json.loads(out.read_text())
    assert state["count"] == 2 and state["screen"] == "home"
    assert state["defaults"] == {"rules": "classic2000", "target": 2000}


def test_cli_script_from_stdin_when_not_a_tty():
    p = _cli("--state-out", "/dev/stdout", stdin="ok\nok\nok\n")
    assert p.returncode == 0 and json.loads(p.stdout)["count"] == 3


def test_cli_bad_script_line_names_the_line(tmp_path):
    script = tmp_path / "bad.txt"
    script.write_text("ok\n# fine\nhold ok soon\n")
    p = _cli("--script", str(script))
    assert p.returncode == 2
    assert "line 3" in p.stderr and "hold ok soon" in p.stderr


def test_cli_device_crash_is_nonzero_with_its_stderr():
    p = _cli("--script", "-", stdin="hold up 3500\n")
    assert p.returncode == 1
    assert "RuntimeError: demo crash" in p.stderr


def test_parse_script_forms_and_errors():
    steps = parse_script(["UP", "  down # x", "", "hold BACK 1200", "wait 0", "shot a-b_1.c"])
    assert [s[1:] for s in steps] == [("press", "UP"), ("press", "DOWN"), ("hold", "BACK", 1200),
                                      ("wait", 0), ("shot", "a-b_1.c")]
    assert [s[0] for s in steps] == [1, 2, 4, 5, 6]
    for bad, n in (("left", 1), ("ok\nwait -5", 2), ("ok\n\nshot ../x", 3), ("hold ok", 1), ("ok ok", 1)):
        with pytest.raises(ScriptError, match="line %d:" % n):
            parse_script(bad.split("\n"))


# ---------------------------------------------------------------- host: pictures

def _mono(w, h, pixels):
    data = bytearray(w * h // 8)
    for x, y in pixels:
        data[(y // 8) * w + x] |= 1 << (y % 8)
    return Frame("t", "mono", w, h, bytes(data))


def test_render_frame_half_blocks():
    f = _mono(4, 8, [(0, 0), (1, 1), (2, 0), (2, 1), (3, 7), (0, 5)])
    assert render_frame(f) == [
        "┌────┐",
        "│▀▄█ │",
        "│    │",
        "│▄   │",
        "│   ▄│",
        "└────┘",
    ]
    assert render_frame(f, on=False)[1] == "│    │"
    dim = render_frame(f, level=0)
    assert dim[1] == "│\x1b[38;2;64;64;64m▀▄█ \x1b[39m│"


def test_render_frame_quadrants_then_braille_when_too_small():
    f = _mono(4, 8, [(0, 0), (3, 2), (1, 7), (2, 4)])
    # half blocks need 6x8 (box + 2 status lines); quadrants (2x2 px) 4x8; braille (2x4) 4x6
    assert len(render_frame(f, cols=6, rows=8)) == 6
    assert render_frame(f, cols=5, rows=8) == ["┌──┐", "│▘ │", "│ ▝│", "│ ▘│", "│▗ │", "└──┘"]
    # braille dots: (0,0) dot 1, (3,2) dot 6 of the right cell, (2,4) dot 1 and
    # (1,7) dot 8 of the cells below
    assert render_frame(f, cols=4, rows=6) == ["┌──┐", "│\u2801\u2820│", "│\u2880\u2801│", "└──┘"]


def test_render_frame_every_oled_pixel_fits_80x24_in_braille():
    from host_tools.sim.terminal import BRAILLE, choose_rendering, full_size, size_note
    random.seed(3)
    pixels = [(x, y) for x in range(128) for y in range(64) if random.random() < 0.3]
    f = _mono(128, 64, pixels)
    assert choose_rendering(128, 64, "mono", 80, 24) == (BRAILLE, 1)
    lines = render_frame(f, cols=80, rows=24)
    assert len(lines) + 2 <= 24 and max(len(line) for line in lines) <= 80
    # decode the braille back into pixels: every one is there
    back = set()
    for row, line in enumerate(lines[1:-1]):
        for col, ch in enumerate(line[1:-1]):
            code = 0 if ch == " " else ord(ch) - 0x2800
            for dy, bits in enumerate(((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))):
                for dx, bit in enumerate(bits):
                    if code & bit:
                        back.add((col * 2 + dx, row * 4 + dy))
    assert back == set(pixels)
    assert full_size(128, 64) == (130, 36) and full_size(240, 135) == (242, 72)
    assert size_note(f, 130, 36) == ""
    assert "130x36" in size_note(f, 80, 24) and "braille" in size_note(f, 80, 24)
    # a terminal too small for braille merges 2x2 pixels per dot, and says so
    assert choose_rendering(128, 64, "mono", 60, 20) == (BRAILLE, 2)
    assert "merged" in size_note(f, 60, 20)


def test_render_frame_colour_braille_in_80x24():
    black, white, blue = b"\x00\x00", b"\xff\xff", b"\x00\x1f"
    w, h = 240, 135
    px = [[black] * w for _ in range(h)]
    for x in range(w):
        for y in range(40, 56):
            px[y][x] = blue  # a highlighted row
    px[44][10] = white  # a white dot on it
    px[100][3] = white  # and one on the background
    f = Frame("c", "rgb565", w, h, b"".join(b"".join(r) for r in px))
    lines = render_frame(f, cols=80, rows=24)
    assert len(lines) + 2 <= 24
    plain = [re.sub("\x1b\\[[0-9;]*m", "", line) for line in lines]
    assert max(len(line) for line in plain) <= 80
    # 2x2 pixels per dot, 4x8 per character: (3,100) -> cell (0,12), dot 1 bit 0x02...
    assert plain[1 + 100 // 8][1 + 3 // 4] != " "
    assert plain[1 + 44 // 8][1 + 10 // 4] != " "
    assert "\x1b[38;2;255;255;255m\x1b[48;2;0;0;255m" in lines[1 + 44 // 8]  # white on the blue row
    assert plain[1 + 60 // 8][1 + 100 // 4] == " "


def test_render_frame_rgb565_truecolour():
    red, blue = b"\xf8\x00", b"\x00\x1f"
    f = Frame("c", "rgb565", 2, 2, red + blue + blue + blue)
    line = render_frame(f)[1]
    assert line == ("│\x1b[38;2;255;0;0m\x1b[48;2;0;0;255m▀"
                    "\x1b[38;2;0;0;255m\x1b[48;2;0;0;255m▀\x1b[0m│")


def test_frame_image_scale_dim_and_off():
    f = _mono(8, 8, [(1, 2)])
    im = frame_image(f, scale=4)
    assert im.size == (32, 32) and im.getpixel((4, 8)) == 255 and im.getpixel((0, 0)) == 0
    assert frame_image(f, 1, level=0).getpixel((1, 2)) == 64
    assert frame_image(f, 1, on=False).getpixel((1, 2)) == 0
    c = frame_image(Frame("c", "rgb565", 1, 1, b"\x07\xe0"), scale=2)
    assert c.size == (2, 2) and c.getpixel((1, 1)) == (0, 255, 0)


# ---------------------------------------------------------------- host: keyboard

def test_parse_keys():
    assert parse_keys(b"\x1b[A\x1b[B\x1bOC\x1b[D\r\n\x7f\x08q") == [
        "UP", "DOWN", "OK", "BACK", "OK", "OK", "BACK", "BACK", "QUIT"]
    assert parse_keys(b"\x1b") == ["BACK"]  # Esc on its own
    assert parse_keys(b"\x1b[1;5A\x1bOP\x1b[15~x") == ["UP"]  # Ctrl-Up; F1, F5, 'x' ignored


def test_key_tracker_single_keystroke_is_a_short_press():
    k = KeyTracker(first_ms=500)
    assert k.key("OK", 1000) == ["d OK", "t 40"]
    assert k.frozen and k.held == "OK"
    assert k.tick(1499) == []
    assert k.tick(1500) == ["u OK", "t 60"]
    assert not k.frozen and k.held is None and k.tick(5000) == []


def test_key_tracker_auto_repeat_is_a_hold():
    k = KeyTracker(first_ms=700, release_ms=150)
    out = k.key("UP", 0)
    repeats = range(480, 2000, 33)  # the terminal's repeat delay, then 30 per second
    for t in repeats:
        out += k.key("UP", t)
        out += k.tick(t + 10)
    assert out == ["d UP", "t 40"] and k.held == "UP" and not k.frozen
    last = repeats[-1]
    assert k.tick(last + 150) == []
    assert k.tick(last + 151) == ["u UP", "t 60"]
    assert k.first_ms == 480 + 150  # learnt from this terminal's delay


def test_key_tracker_two_quick_taps_are_two_presses():
    k = KeyTracker(first_ms=700, confirm_ms=120)
    out = k.key("DOWN", 0) + k.tick(100) + k.key("DOWN", 300) + k.tick(400)
    assert out == ["d DOWN", "t 40"] and k.frozen
    assert k.tick(421) == ["u DOWN", "t 60", "d DOWN", "t 40", "u DOWN", "t 60"]
    assert not k.frozen


def test_key_tracker_other_key_releases_the_first():
    k = KeyTracker()
    k.key("UP", 0)
    assert k.key("BACK", 50) == ["u UP", "t 60", "d BACK", "t 40"]
    k.key("BACK", 600)
    k.key("BACK", 630)  # confirmed hold
    assert k.key("OK", 640) == ["u BACK", "t 60", "d OK", "t 40"]


def test_killing_the_host_ends_the_device_and_keeps_the_image(tmp_path):
    img = str(tmp_path / "host.img")
    script = tmp_path / "long.txt"
    script.write_text("ok\n" * 3000)
    host = subprocess.Popen([sys.executable, "-m", "host_tools.sim", "--app", DEMO, "--flash", img,
                             "--script", str(script)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    children = "/proc/%d/task/%d/children" % (host.pid, host.pid)
    device = None
    deadline = time.monotonic() + 30
    while device is None and time.monotonic() < deadline:
        try:
            with open(children) as f:
                pids = f.read().split()
        except OSError:
            pids = []
        device = int(pids[0]) if pids else None
    assert device, "the simulator did not start a device process"
    time.sleep(0.2)
    host.kill()
    host.wait()
    while time.monotonic() < deadline and os.path.exists("/proc/%d/status" % device):
        with open("/proc/%d/status" % device) as f:
            if "State:\tZ" in f.read():  # a zombie has exited; its parent is gone
                break
        time.sleep(0.02)
    else:
        assert not os.path.exists("/proc/%d/status" % device), "device outlived the host"
    with Sim(app=DEMO, flash=img) as s:
        assert 0 <= s.state()["count"] <= 3000
        assert s.flash_status == "mounted"


def test_render_frame_rgb565_small_terminal_keeps_thin_lines():
    white, black = b"\xff\xff", b"\x00\x00"
    # 4x4, one lit pixel at (1, 1): braille (2x4) shows it as dot 5 of the left cell
    data = b"".join(white if (x, y) == (1, 1) else black for y in range(4) for x in range(4))
    lines = render_frame(Frame("c", "rgb565", 4, 4, data), cols=5, rows=5)
    assert lines[1] == "│\x1b[38;2;255;255;255m\x1b[48;2;0;0;0m\u2810\x1b[38;2;0;0;0m\x1b[48;2;0;0;0m \x1b[0m│"


@pytest.mark.parametrize("board, fmt, size", [("pico_oled", "mono", (128, 64)),
                                              ("pico_display_pack", "rgb565", (240, 135))])
def test_real_driver_boards_through_hwsim(board, fmt, size):
    """The launcher's hwsim path: real board file and driver, controller model frames."""
    for need in ("host_tools/sim/device_side/hwsim.py", "boards/%s.py" % board):
        if not os.path.exists(os.path.join(ROOT, need)):
            pytest.skip("%s not there yet" % need)
    with Sim(app=DEMO, board=board) as s:
        f0 = s.frame()
        assert (f0.fmt, (f0.w, f0.h), f0.screen) == (fmt, size, "home")
        assert len(f0.data) == (f0.w * f0.h * 2 if fmt == "rgb565" else f0.w * f0.h // 8)
        s.press("ok")
        assert s.state()["count"] == 1 and s.frame().data != f0.data
        s.wait(11000)
        s.sync()
        assert s.display[1] is False  # power state read back from the controller model


def test_interactive_mode_in_a_pty():
    """Smoke test of the real-time loop: keys in, frames drawn, terminal restored on q."""
    pid, fd = _pty_sim(["--app", DEMO], 140, 42)
    out = _PtyOutput(fd)
    try:
        assert out.wait_for("screen: home".encode()), out.seen[-500:]
        out.wait_for(b"Enter")  # the legend may still be on its way (one read can stop mid-line)
        assert "┌".encode() in out.seen and b"Enter" in out.seen  # the box and the key legend
        os.write(fd, b"\x1b")  # Esc = BACK: the demo goes to its menu
        assert out.wait_for(b"screen: menu"), out.seen[-500:]
        os.write(fd, b"q")
        assert out.wait_for(b"\x1b[?1049l"), out.seen[-500:]  # alternate screen left
    finally:
        code = _pty_finish(pid, fd)
    assert code == 0


def test_the_legend_names_the_boards_buttons_and_how_to_hold_one():
    """A player on the colour board read "A B X Y" on its screens and "Enter, Backspace" in
    the terminal, and no word on how to hold a button: the legend says both."""
    from host_tools.sim.interactive import legend

    oled, pack = legend("pico_oled"), legend("pico_display_pack")
    assert all(word in oled for word in ("UP/DOWN", "OK", "BACK", "held"))
    assert all(word in pack for word in ("A/B", "X", "Y", "held")) and "OK" not in pack


def test_key_tracker_fast_tapping_is_not_taken_for_auto_repeat():
    k = KeyTracker()  # defaults: auto-repeat means keystrokes under 80 ms apart
    out = []
    for t in range(0, 2000, 100):  # ten taps a second, the fastest a thumb goes
        out += k.tick(t) + k.key("DOWN", t)
        out += k.tick(t + 90)
    out += k.tick(5000)
    assert out.count("d DOWN") == 20 and out.count("u DOWN") == 20


def _pty_sim(args, columns, lines):
    """The simulator's CLI on a pseudo-terminal of the given size: (pid, fd)."""
    import fcntl
    import pty
    import struct
    import termios

    pid, fd = pty.fork()
    if pid == 0:  # child: the simulator on a terminal
        os.chdir(ROOT)
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        os.environ["COLUMNS"], os.environ["LINES"] = str(columns), str(lines)
        os.execv(sys.executable, [sys.executable, "-m", "host_tools.sim"] + args)
    return pid, fd


class _PtyOutput:
    """What a child on a pseudo-terminal has written so far (seen)."""

    def __init__(self, fd):
        self.fd = fd
        self.seen = b""

    def wait_for(self, pattern):
        """Read until pattern has been written (20 s at most); whether it was."""
        import select

        deadline = time.monotonic() + 20
        while pattern not in self.seen and time.monotonic() < deadline:
            if select.select([self.fd], [], [], 0.1)[0]:
                try:
                    self.seen += os.read(self.fd, 65536)
                except OSError:
                    break
        return pattern in self.seen


def _pty_finish(pid, fd):
    """Keep reading while the child finishes (a full pty buffer would block its last
    writes and it would never exit), never wait forever either; its exit code."""
    import select

    status = None
    deadline = time.monotonic() + 15
    while status is None and time.monotonic() < deadline:
        done, st = os.waitpid(pid, os.WNOHANG)
        if done:
            status = st
        elif select.select([fd], [], [], 0.1)[0]:
            try:
                os.read(fd, 65536)
            except OSError:
                pass
    if status is None:
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status)


def test_interactive_keys_land_in_typing_order_in_80x24(tmp_path):
    """Keys typed fast, right after a lone keystroke whose tap/hold decision is
    still pending, reach the app in the order they were typed (an UP typed
    0.3 s after Enter once overtook the OK: the firmware saw UP's press and
    OK's release at the same instant and polls UP first)."""
    state = str(tmp_path / "state.json")
    pid, fd = _pty_sim(["--app", DEMO, "--state-out", state], 80, 24)
    out = _PtyOutput(fd)
    try:
        assert out.wait_for(b"130x36 or more"), out.seen[-500:]  # says which size shows every pixel
        assert out.wait_for(b"quit"), out.seen[-500:]
        text = out.seen.decode("utf-8", "replace")
        assert any(0x2800 < ord(c) <= 0x28FF for c in text)  # braille: the OLED fits 80x24
        typed = [(b"\r", "OK", 0.3), (b"\x1b[A", "UP", 0.05), (b"\x1b[B", "DOWN", 0.0),
                 (b"\x7f", "BACK", 0.12), (b"\x1b[A", "UP", 0.01), (b"\r", "OK", 0.0)]
        for keys, _, pause in typed:
            os.write(fd, keys)
            time.sleep(pause)
        time.sleep(0.2)
        os.write(fd, b"\x1b[B\x1b[A\rq")  # three more and q in one read
    finally:
        code = _pty_finish(pid, fd)
    assert code == 0
    with open(state) as f:
        events = json.load(f)["events"]
    names = [name for _, name, _ in typed] + ["DOWN", "UP", "OK"]
    assert events == [e for name in names for e in (name + "+", name + "-")]


def test_help_documents_the_script_language_and_terminal():
    p = subprocess.run([sys.executable, "-m", "host_tools.sim", "--help"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0
    text = p.stdout
    for form in ("up | down | ok | back", "hold KEY MS", "wait MS", "shot NAME", "# text",
                 "auto-repeat", "130x36", "242x72", "80x24"):
        assert form in text, form
    # the examples the help gives are valid script lines
    for example in re.findall(r'"((?:hold|wait)[^"]*)"', text):
        assert parse_script([example])


# ---------------------------------------------------------------- CLI: flash image, rules

def test_flash_image_check_accepts_only_images_the_simulator_made(tmp_path):
    from host_tools.sim.flash_file import FLASH_BLOCK_COUNT, FLASH_BLOCK_SIZE, flash_image_problem
    size = FLASH_BLOCK_COUNT * FLASH_BLOCK_SIZE
    assert flash_image_problem(str(tmp_path / "missing.img")) is None
    empty = tmp_path / "empty.img"
    empty.write_bytes(b"")
    assert flash_image_problem(str(empty)) is None
    text = tmp_path / "notes.txt"
    text.write_text("my shopping list\n")
    assert "17 bytes" in flash_image_problem(str(text))
    assert "directory" in flash_image_problem(str(tmp_path))
    blank = tmp_path / "blank.img"
    blank.write_bytes(b"\x00" * size)
    assert flash_image_problem(str(blank)) is None
    blank.write_bytes(b"\xff" * size)
    assert flash_image_problem(str(blank)) is None
    random.seed(7)
    junk = bytearray(random.getrandbits(8) for _ in range(size))
    other = tmp_path / "other.bin"
    other.write_bytes(bytes(junk))
    assert "no littlefs superblock" in flash_image_problem(str(other))
    # the device's three-partition layout (D1): a superblock at block 0, 160 or 256 is ours
    for block in (0, 1, 160, 161, 256, 257):
        image = bytearray(junk)
        image[block * FLASH_BLOCK_SIZE + 8:block * FLASH_BLOCK_SIZE + 16] = b"littlefs"
        other.write_bytes(bytes(image))
        assert flash_image_problem(str(other)) is None, block
    image = bytearray(junk)
    image[5 * FLASH_BLOCK_SIZE + 8:5 * FLASH_BLOCK_SIZE + 16] = b"littlefs"  # not a partition start
    other.write_bytes(bytes(image))
    assert flash_image_problem(str(other)) is not None


def test_cli_refuses_to_format_a_file_it_did_not_make(tmp_path):
    victim = tmp_path / "thesis.odt"
    victim.write_bytes(b"PK\x03\x04 precious" * 1000)
    before = victim.read_bytes()

    def run(*extra):
        return subprocess.run([sys.executable, "-m", "host_tools.sim", "--app", DEMO, "--flash", str(victim)]
                              + list(extra), input="ok\n", capture_output=True, text=True, cwd=ROOT, timeout=120)

    p = run()
    assert p.returncode == 2 and p.stdout == ""
    assert "not a flash image" in p.stderr and "--format" in p.stderr
    assert victim.read_bytes() == before  # untouched
    p = run("--format")  # asked to: it starts over
    assert p.returncode == 0, p.stderr
    from host_tools.sim.flash_file import flash_image_problem
    assert flash_image_problem(str(victim)) is None  # a flash image now, with its littlefs
    p = run()  # now it is ours: used, not refused
    assert p.returncode == 0 and "not a flash image" not in p.stderr, p.stderr


def test_cli_rejects_invalid_rules_and_target(tmp_path):
    def run(*extra):
        return subprocess.run([sys.executable, "-m", "host_tools.sim", "--app", DEMO] + list(extra),
                              input="", capture_output=True, text=True, cwd=ROOT, timeout=120)

    for args, message in ((["--rules", "federaton"], "did you mean 'federation'"),
                          (["--rules", ""], "unknown preset"),
                          (["--target", "abc"], "--target: must be a whole number written in the digits 0-9"),
                          (["--target", " 700"], "no spaces"),
                          (["--target", "+700"], "no sign"),
                          (["--target", "50"], "from 100 to 99990"),
                          (["--rules", "classic2000", "--target", "1e9"], "whole number")):
        p = run(*args)
        assert p.returncode == 2 and message in p.stderr, (args, p.stderr)
        assert "Traceback" not in p.stderr
    state = tmp_path / "state.json"
    p = run("--rules", "federation", "--target", "700", "--state-out", str(state))
    assert p.returncode == 0, p.stderr
    assert json.loads(state.read_text())["defaults"] == {"rules": "federation", "target": 700}


def test_emulated_pico_checks_its_options_as_the_simulator_does(tmp_path):
    """python -m host_tools.rp2emu shares the simulator's options and their checks
    (host_tools/common/device_options.py: device_parser, checked_options): the same messages, before any
    emulator is looked for (so this runs where rp2040js is missing too)."""
    script = tmp_path / "bad.txt"
    script.write_text("ok\n# fine\nhold ok soon\n")
    for args in (["--rules", "federaton"], ["--target", "abc"], ["--target", "50"],
                 ["--script", str(script)], ["--script", str(tmp_path / "missing.txt")]):
        messages = []
        for tool in ("sim", "rp2emu"):
            p = subprocess.run([sys.executable, "-m", "host_tools." + tool] + args, input="",
                               capture_output=True, text=True, cwd=ROOT, timeout=120)
            assert p.returncode == 2 and p.stderr.startswith(tool + ": "), (tool, args, p.stderr)
            assert "Traceback" not in p.stderr
            messages.append(p.stderr[len(tool) + 2:])
        assert messages[0] == messages[1], args
        assert any(word in messages[0] for word in ("federation", "whole number", "line 3", "No such file"))
