"""The score stays readable.

No dimming during a game unless it is set; when set, a dimmed screen is never
darker than readable (the Display Pack's contrast is its backlight: 1/255 was
black), and the press that wakes it also does what it does.
Runs the real App in-process on the MicroPython unix port (fakeboard).
"""
import json

from conftest import run_mp

DIM = """
import json
from blockdev import RAMBlockDev, mount
from fakeboard import Board, Display
from app import App, DIM_FLOOR
from events.inputs import UP

class Recording(Display):
    def __init__(self):
        Display.__init__(self)
        self.levels = []
    def contrast(self, v):
        self.levels.append(v)

mount(RAMBlockDev(4096, 352), "/flash")
board = Board()
board.display = Recording()
app = App(board, {"rules": "classic2000"})
out = {}
def idle(ms):
    end = board.now + ms
    while board.now < end:
        app.poll()
        board.sleep_ms(10)
idle(15 * 60 * 1000)  # a quarter of an hour between deals, nothing set
out["default"] = (app.dimmed, board.display.levels[-1] if board.display.levels else None)
for contrast in (255, 64):
    app.settings["dim"] = 60
    app.settings["contrast"] = contrast
    app.apply_contrast()
    idle(61 * 1000)
    out["dimmed %d" % contrast] = (app.dimmed, board.display.levels[-1])
    app.handle(UP)  # the press that wakes the screen
    out["woken %d" % contrast] = (app.dimmed, board.display.levels[-1], app.screen)
    app.home()
out["floor"] = DIM_FLOOR
print(json.dumps(out))
"""


def test_no_dimming_by_default_and_a_dimmed_press_acts():
    out = json.loads(run_mp(code=DIM).stdout.strip().splitlines()[-1])
    assert out["default"] == [False, 255], out  # never dimmed: still at full contrast
    assert out["dimmed 255"] == [True, 127]  # half the contrast
    assert out["dimmed 64"] == [True, out["floor"]]  # never below the floor
    assert out["floor"] >= 64
    # UP on a dimmed home wakes the screen and starts the NS deal
    assert out["woken 255"] == [False, 255, "entry-bid"]
    assert out["woken 64"] == [False, 64, "entry-bid"]


BACKLIGHT = """
import json
from app import DIM_FLOOR
from screens.settings import CONTRASTS
print(json.dumps({"floor": DIM_FLOOR, "lowest": min(CONTRASTS)}))
"""


def test_the_display_pack_backlight_is_never_black():
    """The dim floor and the lowest contrast choice light the Display Pack's backlight at
    least 6 % (drivers/st7789.py: duty = level^2, the square law of perceived light)."""
    out = json.loads(run_mp(code=BACKLIGHT).stdout.strip().splitlines()[-1])
    for level in (out["floor"], out["lowest"]):
        assert level * level * 65535 // 65025 >= 0.06 * 65535, level
