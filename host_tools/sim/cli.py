"""The scoreboard simulator: real firmware on the MicroPython unix port.

    python3 -m host_tools.sim                       interactive, in the terminal
    python3 -m host_tools.sim --script FILE [...]   headless, scripted

The device side (host_tools/sim/device_side/sim_main.py) runs in its own micropython
process; the client (host_tools/sim/client.py) drives it over the line protocol
described in docs/architecture.md. Virtual time only moves when we grant it, so a
script gives the same frames every run.
"""
import argparse
import os
import sys

from host_tools.common.boards import board_names
from host_tools.common.device_options import OptionError, checked_options, device_parser, write_state
from host_tools.common.script import GAP_MS, PRESS_MS, SCRIPT_LANGUAGE_HELP
from host_tools.sim.client import Sim, SimError
from host_tools.sim.concours import ConcoursError, parse_concours, start_round
from host_tools.sim.flash_file import flash_image_problem, start_blank_image
from host_tools.sim.interactive import interactive, legend
from host_tools.sim.keyboard import KeyTracker
from host_tools.sim.terminal import BRAILLE, box_size, full_size

TERMINAL_HELP = """
interactive keys (a terminal, no --script): arrow up/down = UP/DOWN,
Enter or arrow right = OK, Backspace, Esc or arrow left = BACK, q quits.
A terminal reports no key release: to hold a button, hold its key down until
the terminal auto-repeats; the button is released %(release)d ms after the last
repeat. A single keystroke is an exact %(press)d ms press; keys always reach the
device in the order they were typed.

terminal size: the %(oled)s OLED shows every pixel as blocks in a %(oled_size)s
terminal, the %(pack)s Display Pack in %(pack_size)s; smaller terminals get 2x2
pixels (quadrants) or 2x4 pixels (braille) per character: %(braille_size)s is enough to
see every OLED pixel in braille, so 80x24 is fine; the status line says when a
smaller rendering is in use.
"""


def script_help():
    return (SCRIPT_LANGUAGE_HELP + TERMINAL_HELP) % {
        "press": PRESS_MS, "gap": GAP_MS, "release": KeyTracker().release_ms,
        "oled": "128x64", "oled_size": "%dx%d" % full_size(128, 64),
        "pack": "240x135", "pack_size": "%dx%d" % full_size(240, 135),
        "braille_size": "%dx%d" % box_size(128, 64, BRAILLE)}


def parser():
    p = device_parser("python3 -m host_tools.sim", "sim", "board (sim, or one hwsim.py knows)",
                      "PNG per screen change and per `shot NAME`", 60.0,
                      description=__doc__.split("\n")[0], epilog=script_help(),
                      formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--flash", help="flash image file, kept between runs (created if missing; "
                   "a file that is not a flash image is refused)")
    p.add_argument("--format", action="store_true",
                   help="start the --flash file over as a blank image, whatever it holds (all of it is lost)")
    p.add_argument("--heapsize", help="MicroPython heap, e.g. 200000 or 192k")
    p.add_argument("--app", help="app module or .py file (default app)")
    p.add_argument("--concours", metavar="ROUND,TABLE,NS_TEAM,EW_TEAM",
                   help="start that concours round first, through Menu > Concours as a player would")
    p.add_argument("--club", metavar="TABLE.json",
                   help="join the club's link as that provisioned table would (the file `python -m "
                   "host_tools.club provision` writes): copied to the flash's /club.json; the link is a real "
                   "TCP connection, and granted time passes for real")
    return p



def main(argv=None):
    args = parser().parse_args(argv)
    script = args.script
    if script is None and not sys.stdin.isatty():
        script = "-"
    try:
        steps = checked_options(args, "sim", script, board_names())
        wanted = parse_concours(args.concours) if args.concours else None
    except (OptionError, ConcoursError) as e:
        print("sim: %s" % e, file=sys.stderr)
        return 2
    if args.club and not os.path.isfile(args.club):
        print("sim: --club %s: no such file (write one with `python -m host_tools.club --db FILE provision "
              "--table N --out TABLE.json`)" % args.club, file=sys.stderr)
        return 2
    if args.flash and args.format:
        try:
            start_blank_image(args.flash)
        except OSError as e:
            print("sim: cannot write %s: %s" % (args.flash, e.strerror or e), file=sys.stderr)
            return 2
    elif args.flash:
        problem = flash_image_problem(args.flash)
        if problem is None and os.path.isfile(args.flash) and os.path.getsize(args.flash) == 0:
            start_blank_image(args.flash)  # an empty file holds nothing to lose
        if problem:
            print("sim: %s is not a flash image made by the simulator: %s.\n"
                  "sim: it was left untouched; choose another --flash file, or add --format "
                  "to start this one over as a blank image (all of it is lost)" % (args.flash, problem),
                  file=sys.stderr)
            return 2
    sim = None
    try:
        sim = Sim(board=args.board, rules=args.rules, target=args.target, flash=args.flash,
                  heapsize=args.heapsize, app=args.app, screenshot_dir=args.screenshot_dir,
                  timeout=args.timeout, verbose=args.verbose, options=args.options, club=args.club)
        if wanted is not None:
            start_round(sim, wanted)
        if steps is None:
            interactive(sim, legend_line=legend(args.board))
        else:
            sim.run_script(steps)
        if args.state_out:
            write_state(args.state_out, sim.state())
        sim.close()
    except (SimError, ConcoursError) as e:
        if sim is not None:
            sim.kill()
        print("sim: %s" % e, file=sys.stderr)
        return 1
    return 0
