"""The heap the club link costs on a Pico W: the stock Pico W UF2 on the emulated RP2040,
the scoreboard deployed as .mpy (as `make deploy`), the App started and polled without
and then with a provisioned /club.json. The emulator has no WiFi chip, so the link
stays offline; its modules, its buffers and its outbox are loaded all the same.

    python -m host_tools.club.link_heap [--uf2 FILE]

Prints one JSON line: the App's live heap and the free heap, without and with the link.
A few minutes (the deploy into the emulated flash is most of it)."""
import argparse
import json
import os
import sys
import tempfile

from host_tools.club import link_run
from host_tools.common.paths import SHARED_RP2

DEFAULT_UF2 = os.path.join(SHARED_RP2, "micropython-v1.28.0-RPI_PICO_W.uf2")
BOARD = "pico_w_oled"

MEASURE = """
import gc, board, sys
sys.path.append('/')
board.app = None
gc.collect()
before = gc.mem_alloc()
from app import App
app = App(board)
for i in range(30):
    app.poll()
gc.collect()
from link import state
print('MEASURE', gc.mem_alloc() - before, 1 if app.club is not None else 0, state.state(), gc.mem_free())
"""


def measure(pico):
    for line in pico.exec(MEASURE).splitlines():
        if line.startswith("MEASURE "):
            live, linked, link_state, free = (int(word) for word in line.split()[1:])
            return {"app_live": live, "link": bool(linked), "state": link_state, "free": free}
    raise RuntimeError("no measure from the emulated Pico")


def run(uf2=DEFAULT_UF2):
    from host_tools.rp2emu import Pico

    with tempfile.TemporaryDirectory(prefix="link-heap-") as folder:
        db = link_run.make_event(folder, 4, 1, 12)
        link_run.provision_tables(db, 1, 1883)
        with open(os.path.join(folder, "table1.json"), encoding="utf-8") as f:
            club = f.read()
        with Pico(BOARD, os.path.join(folder, "flash.img"), uf2=uf2, timeout=300) as pico:
            pico.deploy(rules="classic2000")
            pico.wait_for_frame()
            without = measure(pico)
            pico.write_file("/club.json", club)
            pico.reset()
            pico.wait_for_frame()
            linked = measure(pico)
            pico.off()
    return {"board": BOARD, "without": without, "with": linked,
            "live_cost": linked["app_live"] - without["app_live"], "free_cost": without["free"] - linked["free"]}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_tools.club.link_heap", description=__doc__.split("\n")[0])
    parser.add_argument("--uf2", default=DEFAULT_UF2, help="the Pico W UF2 to boot (default: the stock one)")
    args = parser.parse_args(argv)
    if not os.path.exists(args.uf2):
        print("link_heap: no UF2 at %s" % args.uf2, file=sys.stderr)
        return 2
    print(json.dumps(run(args.uf2)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
