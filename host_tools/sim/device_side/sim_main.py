"""Simulator launcher: the firmware on the unix port, driven over stdin/stdout.

    micropython host_tools/sim/device_side/sim_main.py [--board NAME] [--app MODULE]
        [--rules P] [--target N] [--options JSON] [--flash PATH] [--wrap-in MS]
        [--club FILE]

Time is virtual and only moves when the host grants it (`t N`), so a
script yields the same frames on every run and on any machine. The
protocol loop lives in the board's sleep_ms(): the app sleeps, the
launcher spends granted time, and when none is left it reads commands.
The protocol is documented in docs/architecture.md.
"""
import json
import sys
import time

from binascii import hexlify
from flash_image import FLASH_MOUNT, NOTICES, ROOTS, mount_flash
from micropython import const

_HERE = sys.path[0]  # the unix port puts the script's directory first
_ROOT = _HERE[: -len("/host_tools/sim/device_side")] if _HERE.endswith("/host_tools/sim/device_side") else _HERE + "/../../.."
_WRAP_IN = const(5000)  # ms of virtual time until ticks_ms() wraps
_BUTTONS = {"UP": 0, "DOWN": 1, "OK": 2, "BACK": 3}


def _fail(msg):
    sys.stderr.write("sim_main: %s\n" % msg)
    sys.exit(2)


class Runtime:
    """Virtual clock, frame sink and command loop in one: they share the moment."""

    def __init__(self, wrap_in, out=sys.stdout):
        # start just before the ticks counter wraps, so code that does
        # plain arithmetic on ticks breaks within seconds instead of weeks
        self.now = time.ticks_add(0, -wrap_in)
        self.budget = 0
        self.out = out
        self.raw = out.buffer
        self.board = None
        self.hw = None  # the hwsim module for boards with real drivers
        self.fmt = "mono"
        self.w = 0
        self.h = 0
        self.last = None  # copy of the last frame sent; allocated once
        self.fresh = False  # last holds pixels not sent yet
        self.screen = None  # screen name of the last frame sent
        self.level = -1  # display contrast/power last reported
        self.on = None
        self.real_time = False  # with a club link: granted time is also spent for real

    # -- the clock the board exposes
    def ticks_ms(self):
        return self.now

    def sleep_ms(self, ms):
        self.flush()
        while ms > 0:
            if self.budget <= 0:
                self.serve()
            step = ms if ms < self.budget else self.budget
            if self.real_time:  # the network answers in real time: the device's time keeps pace
                time.sleep_ms(step)
            self.now = time.ticks_add(self.now, step)
            self.budget -= step
            ms -= step

    # -- frames
    def offer(self, buf):
        """Frame sink: keep a copy if the pixels differ from what was sent."""
        last = self.last
        if last is None or len(last) != len(buf):
            self.last = bytearray(buf)
            self.fresh = True
        elif buf != last:
            last[:] = buf
            self.fresh = True

    def flush(self):
        board = self.board
        hw = self.hw
        if hw is not None:
            fr = hw.frame(board)
            if fr is not None:
                self.fmt, self.w, self.h, data = fr
                self.offer(data)
            level, on = hw.display_state(board) if hasattr(hw, "display_state") else (255, True)
        else:
            d = board.display
            level, on = d.level, d.on
        app = board.app
        screen = getattr(app, "screen", None) if app is not None else None
        if screen is None:
            screen = "-"
        if self.last is not None and (self.fresh or screen != self.screen):
            self.fresh = False
            self.screen = screen
            self.out.write("F %s %d %d %s " % (str(screen).replace(" ", "_"), self.w, self.h, self.fmt))
            self.raw.write(hexlify(self.last))
            self.out.write("\n")
        if level != self.level or on != self.on:
            self.level = level
            self.on = on
            self.out.write("D %d %d\n" % (level, 1 if on else 0))

    # -- commands
    def serve(self):
        """Read and run commands until some virtual time is granted."""
        readline = sys.stdin.readline
        while self.budget <= 0:
            self.flush()
            line = readline()
            if not line:
                sys.exit(0)  # host gone: stop like a power-off
            cmd, _, arg = line.strip().partition(" ")
            if cmd == "t":
                self.budget += int(arg)
            elif cmd == "d" or cmd == "u":
                i = _BUTTONS.get(arg)
                if i is None:
                    _fail("bad button %r" % arg)
                if self.hw is not None:
                    self.hw.set_button(self.board, i, cmd == "d")
                else:
                    self.board.set_button(i, cmd == "d")
            elif cmd == "sync":
                self.out.write("S %s\n" % arg)
            elif cmd == "state":
                app = self.board.app
                out = self.out
                write = getattr(app, "write_state", None) if app is not None else None
                if write is not None:
                    out.write("J ")  # streamed: the document is never whole in RAM
                    write(out)
                else:
                    doc = app.state_json() if app is not None and hasattr(app, "state_json") else "null"
                    out.write("J ")  # in pieces: "J %s" % doc would copy it
                    out.write(doc)
                    doc = None
                out.write("\n")
            elif cmd == "cut":
                self.cut_after_save(arg or None)
            elif cmd == "quit":
                sys.exit(0)
            elif cmd:
                _fail("bad command %r" % line)


    def cut_after_save(self, op):
        """The power cut of the tests: the next action the journal makes durable (of
        kind `op` if given: "new", "add", ...) is the last thing the device does. Once
        the journal (and its listener) return, the device says `L cut` and stops in
        place, before anything else runs (the link's next poll included); the host
        then kills it."""
        journal = self.board.app.table.journal
        listener = journal.listener
        out = self.out

        def stop_after(action, sequence, game):
            if listener is not None:
                listener(action, sequence, game)
            if op is not None and action.get("op") != op:
                return
            out.write("L cut\n")
            while True:  # frozen: only the host's SIGKILL ends this
                time.sleep_ms(1000)

        journal.listener = stop_after


def _args(argv):
    opts = {"board": "sim", "app": "app", "rules": None, "target": None, "options": None, "flash": None,
            "wrap-in": None, "club": None}
    i = 1
    while i < len(argv):
        key = argv[i][2:] if argv[i].startswith("--") else None
        if key not in opts or i + 1 >= len(argv):
            _fail("usage: sim_main.py [--board NAME] [--app MODULE] [--rules P] [--target N] [--options JSON] [--flash PATH] [--wrap-in MS] [--club FILE]")
        opts[key] = argv[i + 1]
        i += 2
    return opts


def _import(name):
    """A dotted module name, or a path to a .py file (its folder joins sys.path)."""
    if name.endswith(".py"):
        cut = name.rfind("/")
        sys.path.insert(0, name[:cut] if cut > 0 else ".")
        name = name[cut + 1 : -3]
    __import__(name)
    return sys.modules[name]


def _load_board(name, rt):
    if name == "sim":
        sys.path.insert(0, _ROOT + "/boards")
        try:
            board = _import("sim")
        finally:
            sys.path.pop(0)
        board.bind(rt, rt.offer)
        rt.fmt, rt.w, rt.h = "mono", board.display.width, board.display.height
        return board
    import hwsim  # host_tools/sim/device_side/hwsim.py: real drivers on fake buses

    board = hwsim.load(name, rt)
    rt.hw = hwsim
    if not hasattr(board, "app"):
        board.app = None
    return board


def _join_club(board, rt, path):
    """The table as a provisioned Pico W: the club's file copied onto its flash (where
    the organiser's tool puts it), WiFi on the board; the unix port has no `network`,
    the host's own network stands in for the joined WiFi and the TCP link is real."""
    with open(path, "rb") as source:
        data = source.read()
    club_path = FLASH_MOUNT + "/club.json"
    with open(club_path, "wb") as target:
        target.write(data)
    board.CLUB_FILE = club_path
    board.WIFI = True
    board.HOST_NETWORK = True
    rt.real_time = True


def main(argv):
    opts = _args(argv)
    sys.path.insert(0, _ROOT + "/firmware")
    how = mount_flash(opts["flash"])  # flash_image.py: shared with the exporter
    rt = Runtime(int(opts["wrap-in"]) if opts["wrap-in"] else _WRAP_IN)
    rt.out.write("L flash %s\n" % how)
    for notice in NOTICES:
        rt.out.write("L storage: %s\n" % notice)
    board = _load_board(opts["board"], rt)
    board.STORAGE = ROOTS[0] if ROOTS else FLASH_MOUNT  # one copy, for simple apps; app uses both
    if opts["club"]:
        _join_club(board, rt, opts["club"])
    rt.board = board
    sys.modules["board"] = board  # firmware code may `import board`, as on the Pico
    defaults = None
    if opts["rules"] is not None or opts["target"] is not None or opts["options"] is not None:
        target = opts["target"]
        defaults = {"rules": opts["rules"], "target": int(target) if target is not None else None}
        if opts["options"]:  # the other rule options (--set)
            defaults["options"] = json.loads(opts["options"])
    app_module = _import(opts["app"])
    app_module.run(board, defaults)
    while True:  # the app returned: keep answering the host
        rt.sleep_ms(10)


try:
    main(sys.argv)
except SystemExit:
    raise
except BaseException as e:  # the unix port would print this on stdout, inside the protocol
    sys.print_exception(e, sys.stderr)
    sys.exit(1)
