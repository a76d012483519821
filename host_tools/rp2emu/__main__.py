"""python -m host_tools.rp2emu: the scoreboard on an emulated Pico (stock rp2 MicroPython).

    python -m host_tools.rp2emu --board pico_oled --script FILE --state-out FILE
        [--rules PRESET --target N] [--flash IMAGE] [--press-ms 30 --gap-ms 30]
        [--screenshot-dir DIR] [--uf2 FILE]
    python -m host_tools.rp2emu --board pico_oled --flash IMAGE --serve
        (no script: boot and serve the USB serial on a local port until Ctrl-C;
         `mpremote connect socket://127.0.0.1:PORT repl` talks to it)

The same script files as the simulator's (host_tools/sim.py), pressed on the
board's GPIO pins; --state-out writes the app's state read from the device, in
the simulator's format.  A flash image that already holds the scoreboard for the
board is booted as it is; otherwise the firmware is deployed (host_tools/deploy.py,
the same mpremote commands as `make deploy`) and the game starts with
--rules/--target.  The UF2 defaults to $MICROPYTHON_UF2 (--uf2 FILE overrides it,
e.g. a firmware with the scoreboard frozen in).
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time

from host_tools.rp2emu import GAP_MS, PRESS_MS, EmulatorError, Pico, missing, uf2_path
from host_tools.sim import SHOT_SCALE, ScriptError, frame_image, parse_script


def _parser():
    p = argparse.ArgumentParser(prog="python -m host_tools.rp2emu", description=__doc__.split("\n")[0])
    p.add_argument("--board", default="pico_oled", help="a board file in boards/ (pico_oled, pico_display_pack)")
    p.add_argument("--script", help="key script to press ('-' = stdin)")
    p.add_argument("--state-out", help="write the app's state JSON here at the end")
    p.add_argument("--rules", help="rules preset of a freshly deployed device")
    p.add_argument("--target", type=int, help="target score of a freshly deployed device")
    p.add_argument("--flash", help="flash image file, kept between runs (default: a throw-away one)")
    p.add_argument("--uf2", help="MicroPython UF2 to boot (default $MICROPYTHON_UF2)")
    p.add_argument("--press-ms", type=int, default=PRESS_MS, help="a scripted press: down this long")
    p.add_argument("--gap-ms", type=int, default=GAP_MS, help="then up this long")
    p.add_argument("--screenshot-dir", help="PNG per `shot NAME` line, and final.png")
    p.add_argument("--serve", action="store_true", help="no script: serve the USB serial until Ctrl-C")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for the device")
    p.add_argument("-v", "--verbose", action="store_true")
    return p


def main(argv=None):
    args = _parser().parse_args(argv)
    uf2 = args.uf2 or uf2_path()
    reason = missing(uf2)
    if reason:
        print("rp2emu: %s" % reason, file=sys.stderr)
        return 2
    steps = None
    if args.script:
        try:
            if args.script == "-":
                text = sys.stdin.read().splitlines()
            else:
                with open(args.script, encoding="utf-8") as f:
                    text = f.read().splitlines()
            steps = parse_script(text)
        except OSError as e:
            print("rp2emu: %s" % e, file=sys.stderr)
            return 2
        except ScriptError as e:
            print("rp2emu: %s: %s" % (args.script, e), file=sys.stderr)
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
            pico.deploy(rules=args.rules, target=args.target)
        else:
            pico.reset()  # the REPL check stopped main.py: boot it again
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
                doc = pico.state()
                with open(args.state_out, "w", encoding="utf-8") as f:
                    json.dump(doc, f, indent=2, sort_keys=True)
                    f.write("\n")
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
