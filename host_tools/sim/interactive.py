"""The simulator in a terminal, in real time: keys in, the picture redrawn, until q."""
import os
import select
import shutil
import signal
import sys
import time

from host_tools.sim.keyboard import KeyTracker, parse_keys
from host_tools.sim.terminal import render_frame, size_note

# the board's buttons as the screens name them: UP DOWN OK BACK, on the Display Pack its
# key caps A B X Y; a key kept down is held (the terminal repeats it), as on the device
LEGEND = "\u2191/\u2193 UP/DOWN   Enter/\u2192 OK   Bksp/Esc/\u2190 BACK   keep a key down: held   q quit"
PACK_LEGEND = "\u2191/\u2193 A/B   Enter/\u2192 X   Bksp/Esc/\u2190 Y   keep a key down: held   q quit"


def legend(board):
    """The keyboard's keys as the board's screens name its buttons."""
    return PACK_LEGEND if "display_pack" in (board or "") else LEGEND


def screen_lines(sim, cols, rows, tracker, legend_line=LEGEND):
    fr = sim.current()
    level, on = sim.display
    if fr is None:
        lines = ["(waiting for the first frame)"]
    else:
        lines = render_frame(fr, cols, rows, level, on)
    screen = fr.screen if fr else "-"
    held = tracker.held
    status = "screen: %s" % screen
    if fr is not None:
        status += size_note(fr, cols, rows)
    if not on:
        status += "   (display off)"
    elif level < 255:
        status += "   (contrast %d)" % level
    if held:
        status += "   [%s]" % held
    # a line wider than the terminal would wrap and push the picture up
    return lines + [status[:cols], legend_line[:cols]]


def interactive(sim, out=None, tick_ms=20, legend_line=LEGEND):
    """Drive sim from the keyboard in real time until q / Ctrl-C, legend_line under the picture."""
    import termios
    import tty

    out = out or sys.stdout
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tracker = KeyTracker()
    start = time.monotonic()
    granted = 0
    size = None
    old_term = signal.getsignal(signal.SIGTERM)

    def on_term(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    try:
        tty.setcbreak(fd)  # keys unbuffered, no echo; Ctrl-C still interrupts
        out.write("\x1b[?1049h\x1b[?25l\x1b[2J")
        out.flush()
        dirty = True
        while True:
            ready, _, _ = select.select([fd], [], [], tick_ms / 1000)
            now = int((time.monotonic() - start) * 1000)
            cmds = []
            if ready:
                data = os.read(fd, 256)
                if not data:  # the terminal went away
                    break
                keys = parse_keys(data)
                quit_now = "QUIT" in keys
                for k in keys[:keys.index("QUIT")] if quit_now else keys:
                    cmds += tracker.key(k, now)
                if quit_now:
                    # the keys typed before q still reach the device, in order
                    cmds += tracker.finish()
                    sim.send(*cmds)
                    sim.sync()
                    break
                dirty = True
            released = tracker.tick(now)
            if released:
                cmds += released
                dirty = True
            granted += sum(int(c[2:]) for c in cmds if c.startswith("t "))
            owed = now - granted
            # grant real time, unless a keystroke is undecided or the device lags behind
            if not tracker.frozen and owed >= tick_ms and sim.lag() < 3:
                cmds.append("t %d" % owed)
                granted += owed
            if cmds:
                sim.send(*cmds)
                sim.request_sync()
            if sim.poll():
                dirty = True
            cur = shutil.get_terminal_size((80, 24))
            if cur != size:
                size = cur
                dirty = True
                out.write("\x1b[2J")
            if dirty:
                dirty = False
                lines = screen_lines(sim, size.columns, size.lines, tracker, legend_line)
                out.write("\x1b[H" + "\x1b[K\r\n".join(line for line in lines) + "\x1b[K\x1b[J")
                out.flush()
    except KeyboardInterrupt:
        pass
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write("\x1b[0m\x1b[?25h\x1b[?1049l")
        out.flush()
        signal.signal(signal.SIGTERM, old_term)
