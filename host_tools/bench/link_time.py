"""The club link's cost in the device's time: the Pico W's real install on the emulated
RP2040 (build/coinche-pico_w_oled.uf2, the scoreboard frozen in: `make uf2
BOARD=pico_w_oled`; or, with --deploy, a UF2 without it and the scoreboard deployed as
.mpy as `make deploy` does), a provisioned /club.json, and the
40-deal bench game typed at 30 ms presses / 30 ms gaps, then one deal with the keys
apart for press-to-pixels: once with the link offline (no WiFi chip: the emulator's
own case), once with the link running through a STAND-IN for the network.

The emulator has no WiFi chip, so the stand-in (host_tools/rigs/device_side/broker_standin.py,
installed as the `socket` module on the device) answers at the socket's interface
as a broker and the organiser would, from the device's memory, in a cycle over the
device's clock: answering (connect, publish, PUBACK and the organiser's signed
acknowledgement), the connection closed once (a reconnect), silent (CONNECT and
keepalive time out). What it leaves out: the WiFi driver's and lwIP's own work.
What it adds: its own parsing and signing, inside the table's poll. Measured, never
asserted as timings.

    python -m host_tools.bench.link_time [--uf2 FILE [--deploy]] [--out FILE]

Prints one JSON line; --out also writes the page (make bench: docs/bench_link_time.md),
and without the UF2 says why and leaves the page as it was. Several minutes.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile

from host_tools.bench import emulated
from host_tools.rigs import link_run
from host_tools.common.paths import BUILD, SHARED_RP2

BOARD = "pico_w_oled"
DEFAULT_UF2 = os.path.join(BUILD, "coinche-%s.uf2" % BOARD)  # the real install: the scoreboard frozen in
STOCK_UF2 = os.path.join(SHARED_RP2, "micropython-v1.28.0-RPI_PICO_W.uf2")  # for --deploy
PRESET = "federation"
STANDIN = os.path.join(os.path.dirname(__file__), "..", "rigs", "device_side", "broker_standin.py")

# before main.py starts again: the stand-in is the socket module, the link's modules
# are imported anew with it, and the board's network counts as joined
WITH_STANDIN = ("import sys, board, broker_standin\n"
                "broker_standin.load('/club.json', board.ticks_ms)\n"
                "sys.modules['socket'] = broker_standin\n"
                "for name in ('link.mqtt', 'link.table_link', 'link.unsent'):\n"
                "    sys.modules.pop(name, None)\n"
                "board.HOST_NETWORK = True\n")
# before main.py starts again, both ways: the link's poll timed (its longest, and how many)
LINK_TIMER = ("import time, board\nimport link.table_link as table_link_module\n"
              "board.link_poll = [0, 0]\n_link_poll = table_link_module.TableLink.poll\n"
              "def _timed_link_poll(self, app):\n"
              "    started = time.ticks_us()\n"
              "    _link_poll(self, app)\n"
              "    took = time.ticks_diff(time.ticks_us(), started)\n"
              "    if took > board.link_poll[0]:\n"
              "        board.link_poll[0] = took\n"
              "    board.link_poll[1] += 1\n"
              "table_link_module.TableLink.poll = _timed_link_poll\n")
# after the game: the link's own figures, what the stand-in saw and the link's poll, one line
# (then the link is let go: the heap is near full after the game, and the state read next needs room)
AFTER = ("import gc, board, sys\ngc.collect()\nstandin = sys.modules.get('broker_standin')\n"
         "seen = (board.app.club.figures() if board.app.club else None, standin.counts if standin else None,\n"
         "        getattr(board, 'link_poll', None))\n"
         "board.app.club = None\ngc.collect()\nprint(repr(seen))\n")


def compiled_standin(folder):
    """The stand-in as armv6m bytecode (as `make deploy` sends the firmware): no compiler
    runs on the device's heap, which the game needs whole."""
    import subprocess

    from host_tools.common.programs import required_tool

    out = os.path.join(folder, "broker_standin.mpy")
    subprocess.run([required_tool("mpy-cross", RuntimeError), "-march=armv6m", "-O3", "-o", out, STANDIN],
                   check=True, capture_output=True, timeout=120)
    with open(out, "rb") as f:
        return f.read()


def prepare(folder, uf2, log, deploy=False):
    """A flash image with /club.json and the stand-in on it (and the scoreboard, deployed,
    when the UF2 does not hold it)."""
    from host_tools.rp2emu import Pico

    db = link_run.make_event(folder, 4, 1, 12)
    link_run.provision_tables(db, 1, 1883)
    with open(os.path.join(folder, "table1.json"), encoding="utf-8") as f:
        club = f.read()
    standin = compiled_standin(folder)
    image = os.path.join(folder, "flash.img")
    log("    %s the emulated Pico W" % ("deploying into" if deploy else "booting"))
    with Pico(BOARD, image, uf2=uf2, timeout=600) as pico:
        if deploy:
            pico.deploy()
        pico.wait_for_frame()
        for start in range(0, len(standin), 1024):  # in pieces: a short string each on the device's heap
            pico.exec("with open('/broker_standin.mpy', %r) as f:\n f.write(%r)\n"
                      % ("ab" if start else "wb", standin[start:start + 1024]))
        pico.write_file("/club.json", club)
        pico.off()
    return image


# the game's figures kept: what it played, its pauses, and the heap (a crash's traceback too)
GAME_FIGURES = ("deals_kept", "deals_wanted", "deals_match", "gap_max", "gap_screen", "edges_dropped", "render",
                "show_max", "first_difference", "crash", "boot_free", "free_min", "live_max", "layer", "repl_before", "after_game")


def run(uf2=DEFAULT_UF2, log=print, games=True, deploy=False):
    work = tempfile.mkdtemp(prefix="link-time-")
    out: dict = {"board": BOARD, "preset": PRESET, "install": "deployed .mpy" if deploy else "frozen UF2"}
    try:
        image = prepare(work, uf2, log, deploy)
        # the game with the link running first: the offline game's figures are docs/bench.md's
        # (figure 9, the same firmware on the Pico's UF2) when time is short (games=False)
        for name, setup, with_game in (("standin", WITH_STANDIN + LINK_TIMER, True), ("offline", LINK_TIMER, games)):
            copy = os.path.join(work, name + ".img")
            figures = {}
            if with_game:
                shutil.copy(image, copy)
                log("    the 40-deal game at 30/30, link %s" % name)
                played = emulated.game(BOARD, copy, PRESET, log, uf2=uf2, setup=setup, after=AFTER)
                figures = {key: played.get(key) for key in GAME_FIGURES}
                figures["link"], figures["standin"], figures["link_poll"] = played.get("after") or (None, None, None)
                figures["after_error"] = played.get("after_error")
            shutil.copy(image, copy)
            log("    press-to-pixels, link %s" % name)
            timed = emulated.latency(BOARD, copy, "classic2000", log, uf2=uf2, setup=setup)
            figures["latency_ms"] = timed["latency_ms"]
            figures["presses"] = timed["presses"]
            out[name] = figures
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_tools.bench.link_time", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--uf2", default=None,
                        help="the Pico W UF2 to boot (default: build/coinche-pico_w_oled.uf2; with --deploy, the stock one)")
    parser.add_argument("--deploy", action="store_true",
                        help="a UF2 without the scoreboard: deploy it as .mpy first, as `make deploy` does")
    parser.add_argument("--out", help="write the figures as a markdown page (make bench: docs/bench_link_time.md)")
    parser.add_argument("--one-game", action="store_true",
                        help="the 40-deal game with the link running only (press-to-pixels both ways)")
    args = parser.parse_args(argv)
    args.uf2 = args.uf2 or (STOCK_UF2 if args.deploy else DEFAULT_UF2)
    why = None if os.path.exists(args.uf2) else "no Pico W UF2 at %s (make uf2 BOARD=%s)" % (args.uf2, BOARD)
    if why is None:
        from host_tools.rp2emu import missing

        why = missing(args.uf2)
    if why:
        if args.out:
            print("skipped: %s; %s left as it was" % (why, args.out))
            return 0
        print("link_time: %s" % why, file=sys.stderr)
        return 2
    figures = run(args.uf2, log=lambda text: print(text, file=sys.stderr), games=not args.one_game,
                  deploy=args.deploy)
    print(json.dumps(figures))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as file:
            file.write(page(figures))
    return 0


INSTALLS = {"frozen UF2": "The Pico W's real install, `build/coinche-pico_w_oled.uf2` (`make uf2 BOARD=pico_w_oled`: "
                          "MicroPython v1.28.0 with the scoreboard frozen in),",
            "deployed .mpy": "The stock Pico W UF2 with the scoreboard deployed as `.mpy` files (as `make deploy`),"}


def _bytes(count):
    return "-" if count is None else "{:,}".format(count)


def _live(run_figures):
    """The App's live heap at its highest (collected samples), the measuring layer left out."""
    if run_figures.get("live_max") is None or run_figures.get("layer") is None:
        return None
    return run_figures["live_max"] - run_figures["layer"]


def _poll(run_figures):
    timed = run_figures.get("link_poll")
    if not timed:
        return "not timed"
    return "at most %.1f ms over %s polls" % (timed[0] / 1000, "{:,}".format(timed[1]))


def page(figures):
    """The figures as docs/bench_link_time.md."""
    import datetime

    from host_tools.bench.measure import git_commit

    rows = []
    for name, what in (("offline", "offline (no WiFi chip)"), ("standin", "running, through the stand-in")):
        run_figures = figures[name]
        latency = run_figures["latency_ms"]
        if "deals_kept" in run_figures:
            before, after = run_figures.get("repl_before") or {}, run_figures.get("after_game") or {}
            game = "%s of %s | %s | %s | %.1f ms (%s) | %s B / %s B | %s B | %s B / %s B" % (
                run_figures["deals_kept"], run_figures["deals_wanted"], "yes" if run_figures["deals_match"] else "NO",
                run_figures["edges_dropped"], run_figures["gap_max"] / 1000, run_figures["gap_screen"],
                _bytes(run_figures.get("boot_free")), _bytes(run_figures.get("free_min")),
                _bytes(_live(run_figures)), _bytes(before.get("largest_free")), _bytes(after.get("largest_free")))
        else:
            game = "not run (`--one-game`): docs/bench.md's figure 9 | | | | | | "
        rows.append("| %s | %s | %s of %s presses: %s |" % (what, game, len(latency), run_figures["presses"],
                                                           emulated.summary(latency)))
    link, standin = figures["standin"]["link"] or {}, figures["standin"]["standin"] or {}
    return "\n".join([
        "## The club link's cost in the device's time (host_tools/bench/link_time.py)",
        "",
        "%s on the emulated RP2040 (125 MHz), board `%s`, a provisioned `/club.json`; the %s bench game's 40 "
        "deals typed on the button pins at 30 ms presses / 30 ms gaps, then one deal with the keys apart for "
        "press-to-pixels (from the edge that acts to the end of the display transfer of the picture it caused)." % (
            INSTALLS[figures["install"]], figures["board"], figures["preset"]),
        "",
        "**The network is a stand-in.** The emulator has no WiFi chip, so `host_tools/rigs/device_side/broker_standin.py`, "
        "installed as the `socket` module on the device, answers at the socket's interface as Mosquitto and the "
        "organiser would (CONNACK, SUBACK, PINGRESP, a PUBACK and the organiser's signed acknowledgement for each "
        "action), in a cycle over the device's clock: 6 s answering, the connection closed once (a reconnect), "
        "6 s answering, 9 s silent (CONNECT and keepalive time out). It leaves out the WiFi driver's and lwIP's "
        "own work; it adds its own parsing and signing inside the table's poll. Measured, never asserted.",
        "Generated by `make bench` on %s at commit `%s`." % (datetime.date.today().isoformat(), git_commit()),
        "",
        "| the link | deals kept at 30/30 | the game as typed | edges dropped | longest stretch between polls "
        "(screen) | free heap before the App / lowest at a poll | the App's live heap, highest | largest free "
        "block before / after the game | press-to-pixels |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ] + rows + [
        "",
    ] + ["The game with the link %s ended in a crash: `%s`" % (name, figures[name]["crash"].strip().splitlines()[-1])
         for name in ("standin", "offline") if figures[name].get("crash")] + [
        "The game with the link %s differs from the one typed: deal %s was planned as `%s`, the device holds `%s`." % (
            (name,) + tuple(figures[name]["first_difference"]))
        for name in ("standin", "offline") if figures[name].get("first_difference")] + [
        "",
        "Through the stand-in during the game: %s CONNECTs answered, %s PUBLISHes acknowledged (%s acks), %s "
        "connections closed by it, %s packets left unanswered while silent; the link's own count: %s connects, "
        "%s published, %s still pending at the end (state %s)." % (
            standin.get("connects"), standin.get("publishes"), standin.get("acks"), standin.get("drops"),
            standin.get("ignored"), link.get("connects"), link.get("published"), link.get("pending"),
            ("offline", "connecting", "online")[link.get("state", 0)]),
        "",
        "The link's own poll (one slice of its work between two key events, timed on the device over the game): "
        "%s; offline, %s." % (_poll(figures["standin"]), _poll(figures["offline"])),
    ]) + "\n"


if __name__ == "__main__":
    sys.exit(main())
