"""The club link's cost in the device's time: the stock Pico W UF2 on the emulated RP2040,
the scoreboard deployed as .mpy (as `make deploy`), a provisioned /club.json, and the
40-deal bench game typed at 30 ms presses / 30 ms gaps, then one deal with the keys
apart for press-to-pixels: once with the link offline (no WiFi chip: the emulator's
own case), once with the link running through a STAND-IN for the network.

The emulator has no WiFi chip, so the stand-in (host_tools/mp/broker_standin.py,
installed as the `socket` module on the device) answers at the socket's interface
as a broker and the organiser would, from the device's memory, in a cycle over the
device's clock: answering (connect, publish, PUBACK and the organiser's signed
acknowledgement), the connection closed once (a reconnect), silent (CONNECT and
keepalive time out). What it leaves out: the WiFi driver's and lwIP's own work.
What it adds: its own parsing and signing, inside the table's poll. Measured, never
asserted as timings.

    python -m host_tools.club.link_time [--uf2 FILE] [--out FILE]

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
from host_tools.club import link_run
from host_tools.common.paths import SHARED_RP2

DEFAULT_UF2 = os.path.join(SHARED_RP2, "micropython-v1.28.0-RPI_PICO_W.uf2")
BOARD = "pico_w_oled"
PRESET = "federation"
STANDIN = os.path.join(os.path.dirname(__file__), "..", "mp", "broker_standin.py")

# before main.py starts again: the stand-in is the socket module, the link's modules
# are imported anew with it, and the board's network counts as joined
WITH_STANDIN = ("import sys, board, broker_standin\n"
                "broker_standin.load('/club.json', board.ticks_ms)\n"
                "sys.modules['socket'] = broker_standin\n"
                "for name in ('link.mqtt', 'link.table_link', 'link.unsent'):\n"
                "    sys.modules.pop(name, None)\n"
                "board.HOST_NETWORK = True\n")
# after the game: the link's own figures and what the stand-in saw, one line
AFTER = ("import board, sys\nstandin = sys.modules.get('broker_standin')\n"
         "print(repr((board.app.club.figures() if board.app.club else None, standin.counts if standin else None)))\n")


def prepare(folder, uf2, log):
    """A flash image with the scoreboard deployed, /club.json and the stand-in on it."""
    from host_tools.rp2emu import Pico

    db = link_run.make_event(folder, 4, 1, 12)
    link_run.provision_tables(db, 1, 1883)
    with open(os.path.join(folder, "table1.json"), encoding="utf-8") as f:
        club = f.read()
    with open(STANDIN, encoding="utf-8") as f:
        standin = f.read()
    image = os.path.join(folder, "flash.img")
    log("    deploying into the emulated Pico W")
    with Pico(BOARD, image, uf2=uf2, timeout=600) as pico:
        pico.deploy()
        pico.wait_for_frame()
        pico.write_file("/club.json", club)
        pico.write_file("/broker_standin.py", standin)
        pico.off()
    return image


def run(uf2=DEFAULT_UF2, log=print):
    work = tempfile.mkdtemp(prefix="link-time-")
    out = {"board": BOARD, "preset": PRESET}
    try:
        image = prepare(work, uf2, log)
        for name, setup in (("offline", ""), ("standin", WITH_STANDIN)):
            copy = os.path.join(work, name + ".img")
            shutil.copy(image, copy)
            log("    the 40-deal game at 30/30, link %s" % name)
            played = emulated.game(BOARD, copy, PRESET, log, uf2=uf2, setup=setup, after=AFTER)
            figures = {key: played.get(key) for key in ("deals_kept", "deals_wanted", "deals_match", "gap_max",
                                                        "gap_screen", "edges_dropped", "render", "show_max")}
            figures["link"], figures["standin"] = played["after"]
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
    parser = argparse.ArgumentParser(prog="python -m host_tools.club.link_time", description=__doc__.split("\n")[0])
    parser.add_argument("--uf2", default=DEFAULT_UF2, help="the Pico W UF2 to boot (default: the stock one)")
    parser.add_argument("--out", help="write the figures as a markdown page (make bench: docs/bench_link_time.md)")
    args = parser.parse_args(argv)
    why = None if os.path.exists(args.uf2) else "no Pico W UF2 at %s" % args.uf2
    if why is None:
        from host_tools.rp2emu import missing

        why = missing(args.uf2)
    if why:
        if args.out:
            print("skipped: %s; %s left as it was" % (why, args.out))
            return 0
        print("link_time: %s" % why, file=sys.stderr)
        return 2
    figures = run(args.uf2, log=lambda text: print(text, file=sys.stderr))
    print(json.dumps(figures))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as file:
            file.write(page(figures))
    return 0


def page(figures):
    """The figures as docs/bench_link_time.md."""
    import datetime

    from host_tools.bench.measure import git_commit

    rows = []
    for name, what in (("offline", "offline (no WiFi chip)"), ("standin", "running, through the stand-in")):
        run_figures = figures[name]
        latency = run_figures["latency_ms"]
        rows.append("| %s | %s of %s | %s | %.1f ms (%s) | %s of %s presses: %s |" % (
            what, run_figures["deals_kept"], run_figures["deals_wanted"],
            "yes" if run_figures["deals_match"] else "NO", run_figures["gap_max"] / 1000,
            run_figures["gap_screen"], len(latency), run_figures["presses"], emulated.summary(latency)))
    link, standin = figures["standin"]["link"] or {}, figures["standin"]["standin"] or {}
    return "\n".join([
        "## The club link's cost in the device's time (host_tools/club/link_time.py)",
        "",
        "The stock Pico W UF2 on the emulated RP2040 (125 MHz), the scoreboard deployed as `.mpy` files (as "
        "`make deploy`), board `%s`, a provisioned `/club.json`; the %s bench game's 40 deals typed on the "
        "button pins at 30 ms presses / 30 ms gaps, then one deal with the keys apart for press-to-pixels (from "
        "the edge that acts to the end of the last display transfer it caused)." % (figures["board"],
                                                                                   figures["preset"]),
        "",
        "**The network is a stand-in.** The emulator has no WiFi chip, so `host_tools/mp/broker_standin.py`, "
        "installed as the `socket` module on the device, answers at the socket's interface as Mosquitto and the "
        "organiser would (CONNACK, SUBACK, PINGRESP, a PUBACK and the organiser's signed acknowledgement for each "
        "action), in a cycle over the device's clock: 6 s answering, the connection closed once (a reconnect), "
        "6 s answering, 9 s silent (CONNECT and keepalive time out). It leaves out the WiFi driver's and lwIP's "
        "own work; it adds its own parsing and signing inside the table's poll. Measured, never asserted.",
        "Generated by `make bench` on %s at commit `%s`." % (datetime.date.today().isoformat(), git_commit()),
        "",
        "| the link | deals kept at 30/30 | the game as typed | longest stretch between polls (screen) "
        "| press-to-pixels |",
        "| --- | --- | --- | --- | --- |",
    ] + rows + [
        "",
        "Through the stand-in during the game: %s CONNECTs answered, %s PUBLISHes acknowledged (%s acks), %s "
        "connections closed by it, %s packets left unanswered while silent; the link's own count: %s connects, "
        "%s published, %s still pending at the end (state %s)." % (
            standin.get("connects"), standin.get("publishes"), standin.get("acks"), standin.get("drops"),
            standin.get("ignored"), link.get("connects"), link.get("published"), link.get("pending"),
            ("offline", "connecting", "online")[link.get("state", 0)]),
    ]) + "\n"


if __name__ == "__main__":
    sys.exit(main())
