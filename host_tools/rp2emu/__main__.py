"""python -m host_tools.rp2emu: the scoreboard on an emulated Pico (stock rp2 MicroPython).

    python -m host_tools.rp2emu --board pico_oled --script FILE --state-out FILE
        [--rules PRESET --target N] [--flash IMAGE] [--press-ms 30 --gap-ms 30]
        [--screenshot-dir DIR] [--uf2 FILE] [--club TABLE.json]
    python -m host_tools.rp2emu --board pico_oled --flash IMAGE --serve
        (no script: boot and serve the USB serial on a local port until Ctrl-C;
         `mpremote connect socket://127.0.0.1:PORT repl` talks to it)

The same script files as the simulator's (host_tools/sim/), pressed on the
board's GPIO pins; --state-out writes the app's state read from the device, in
the simulator's format.  A flash image that already holds the scoreboard for the
board is booted as it is; otherwise the firmware is deployed (host_tools/device/deploy.py,
the same mpremote commands as `make deploy`) and the game starts with
--rules/--target/--set.  On a flash that holds a game they are recorded as the
Settings screen records them: at once while the game has no deal, else from the next
game.  The UF2 defaults to $MICROPYTHON_UF2 (--uf2 FILE overrides it, e.g. a firmware
with the scoreboard frozen in).
"""
import os
import shutil
import sys
import tempfile
import time

from host_tools.rp2emu import GAP_MS, PRESS_MS, EmulatorError, Pico, missing, uf2_path
from host_tools.common.boards import pico_board_names
from host_tools.common.device_options import OptionError, checked_options, device_parser, write_state
from host_tools.common.frames import SHOT_SCALE, frame_image


def _parser():
    p = device_parser("python -m host_tools.rp2emu", "pico_oled",
                      "a board file in boards/ (%s)" % ", ".join(pico_board_names()),
                      "PNG per `shot NAME` line, and final.png", 120.0, description=__doc__.split("\n")[0])
    p.add_argument("--flash", help="flash image file, kept between runs (default: a throw-away one)")
    p.add_argument("--uf2", help="MicroPython UF2 to boot (default $MICROPYTHON_UF2)")
    p.add_argument("--press-ms", type=int, default=PRESS_MS, help="a scripted press: down this long")
    p.add_argument("--gap-ms", type=int, default=GAP_MS, help="then up this long")
    p.add_argument("--serve", action="store_true", help="no script: serve the USB serial until Ctrl-C")
    p.add_argument("--club", metavar="TABLE.json",
                   help="the club's file of a provisioned table (`python -m host_tools.club provision`), written "
                   "to the emulated flash as /club.json; the emulator has no WiFi chip: the table shows offline")
    return p


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        steps = checked_options(args, "rp2emu", args.script or None, pico_board_names())
    except OptionError as e:
        print("rp2emu: %s" % e, file=sys.stderr)
        return 2
    club = None
    if args.club:
        try:
            with open(args.club, encoding="utf-8") as f:
                club = f.read()
        except OSError as e:
            print("rp2emu: --club %s: %s" % (args.club, e.strerror or e), file=sys.stderr)
            return 2
    uf2 = args.uf2 or uf2_path()
    reason = missing(uf2)
    if reason:
        print("rp2emu: %s" % reason, file=sys.stderr)
        return 2
    scratch = None
    flash = args.flash
    if not flash:
        scratch = tempfile.mkdtemp(prefix="rp2emu-")
        flash = os.path.join(scratch, "flash.img")
    if args.screenshot_dir:
        os.makedirs(args.screenshot_dir, exist_ok=True)
    pico = None
    try:
        pico = Pico(args.board, flash, uf2=uf2, timeout=args.timeout, verbose=args.verbose)
        if not pico.holds_firmware():
            print("rp2emu: deploying the scoreboard for %s into the emulated Pico" % args.board, file=sys.stderr)
            pico.deploy(rules=args.rules, target=args.target, options=args.options)
        else:
            if args.rules is not None or args.target is not None or args.options:
                if pico.set_rules(args.rules, args.target, args.options) == "next_game":
                    print("rp2emu: the game on this flash has deals: the rules given apply from its next game",
                          file=sys.stderr)
            if club is None:
                pico.reset()  # the REPL check stopped main.py: boot it again
        if club is not None:
            pico.write_file("/club.json", club)
            pico.reset()
        if args.serve:
            print("rp2emu: serving %s (mpremote connect %s repl); Ctrl-C stops" % (pico.url, pico.url))
            try:
                while pico.proc.poll() is None:
                    time.sleep(0.5)
            except KeyboardInterrupt:
                pass
        else:
            pico.wait_for_frame()

            def shot(name, frame, looks):
                if args.screenshot_dir:
                    frame_image(frame, SHOT_SCALE, *looks).save(os.path.join(args.screenshot_dir, name + ".png"))

            if steps:
                pico.play(steps, args.press_ms, args.gap_ms, on_shot=shot)
            if args.screenshot_dir:
                pico.image(SHOT_SCALE).save(os.path.join(args.screenshot_dir, "final.png"))
            if args.state_out:
                write_state(args.state_out, pico.state())
        pico.off()
    except EmulatorError as e:
        if pico is not None:
            pico.kill()
        print("rp2emu: %s" % e, file=sys.stderr)
        return 1
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
