"""A 16-player individual evening of 4 rounds played on the simulator (the real
firmware on the MicroPython unix port): each round drawn by the organiser's app, each
table's round of 12 deals keyed on a simulated table from the key planner's presses,
the table set up from Menu > Concours as its players do (the round, the table, and
the round's pair numbers 2T-1 and 2T the draw gives), the other team's held OK
confirming the result, the round-over screen's code typed into the organiser's app.
In rounds 1 and 2, table 1 is a Pico W table instead (the simulator with --club): its
draw comes over the club's link (a real Mosquitto on 127.0.0.1 and the organiser's
service, `serve`), and its round reaches the event over the link, confirmed at the
table, with no code typed.
The standings must be every player's totals from the calculator (host_tools.score),
summed over the rounds with the event's ranking rule; no one partners the same player
twice. Run as a program it prints the evening (without the link when Mosquitto is
missing)."""
import os
import random
import time

from individual_evening import DEALS, PRESET, ROUNDS, Tally, calculator, check_standings, club, new_evening
import pytest

from coinche.result_code import encode, grouped
from coinche.rules import Rules
from host_tools.calculator.keys import plan
from host_tools.club.service import Club
from host_tools.rigs import link_run
from host_tools.sim import Sim
from host_tools.sim.concours import start_round
from vectors import gen_valid
from waiting import until

pytestmark = pytest.mark.skipif(link_run.mosquitto_program() is None,
                                reason="mosquitto is not installed (Debian: apt-get install mosquitto)")

RULES = Rules(PRESET, {"deals": DEALS})
LINKED = 1  # the table whose rounds go through the link
# the rounds it plays over the link (its others are keyed on the plain simulator, their
# codes typed): a Pico W table's keys take their real length on the wall clock, about
# 40 s for a round of 12 deals: one round keeps the test under a minute (the next draw
# reaching a table after a round it played is tests/test_link_draws.py's)
LINK_ROUNDS = (1,)
HELD_OK = "hold ok 1200"  # the other team's confirmation of the round's result


def confirmed_round(sim, wanted, records):
    """Round `wanted` (round, table, NS pair, EW pair) started on `sim` from Menu >
    Concours, `records` keyed from the key planner's presses, the result confirmed by
    a held OK: the device's round (its totals and the code its round-over screen shows)."""
    start_round(sim, wanted)
    script, presses = plan(RULES, records)
    assert len(presses) == len(records) and all(presses)
    sim.run_script(script)
    state = sim.state()
    assert state["screen"] == "roundover" and state["over"] and not state["confirmed"]
    sim.run_script([HELD_OK])
    state = sim.state()
    assert state["screen"] == "roundover" and state["confirmed"]
    held = state["concours"]
    assert (held["round"], held["table"], held["teams"]["NS"], held["teams"]["EW"], held["deals"]) == \
        tuple(wanted) + (len(records),)
    return held


class Link:
    """The club's link for table LINKED: the admin password, the table provisioned, the
    broker and the service started, the Pico W table booted with its TABLE.json."""

    def __init__(self, db):
        link_run.club(db, "password", stdin=link_run.ADMIN_PASSWORD + "\n")
        self.db = str(db)
        self.port, self.web = link_run.free_port(), link_run.free_port()
        link_run.club(db, "provision", "--table", LINKED, "--out", os.path.join(os.path.dirname(self.db), "table.json"),
                      "--broker", "127.0.0.1:%d" % self.port, "--ssid", "Club",
                      stdin=link_run.ADMIN_PASSWORD + "\nclub-wifi-pass\n")
        self.broker = link_run.broker_process(self.db, self.port).start()
        self.service = link_run.service_process(self.db, self.port, self.web).start()
        until(lambda: "link: connected" in self.service.log(), 15, "the service to connect")
        # a Pico W table's granted time passes for real (the network answers in real time)
        self.sim = Sim(rules=PRESET, options={"deals": DEALS}, club=os.path.join(os.path.dirname(self.db), "table.json"),
                       timeout=120)

    def run_until(self, check, what, timeout=30):
        """The table's time (and its link) run until check(its link's figures) holds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.sim.wait(100)
            self.sim.sync()
            link = self.sim.state()["link"]
            if check(link):
                return link
        raise AssertionError("%s: %s" % (what, self.sim.state()["link"]))

    def play(self, round_number, records):
        """The linked table's round: its draw read from the link, the round set up from
        Menu > Concours (which offers it), keyed, confirmed, sent; the result the event files."""
        link = self.run_until(lambda link: (link["draw"] or {}).get("round") == round_number,
                              "round %d's draw at table %d" % (round_number, LINKED))
        wanted = (round_number, LINKED, 2 * LINKED - 1, 2 * LINKED)
        assert link["draw"]["teams"] == {"NS": wanted[2], "EW": wanted[3]}
        held = confirmed_round(self.sim, wanted, records)
        self.run_until(lambda link: link["pending"] == 0, "the round's actions acknowledged")

        def filed():
            with Club(self.db) as opened:
                stored = opened.store.results().get((round_number, LINKED))
            return stored if stored and stored["source"] == "table" else None
        until(filed, 20, "round %d of table %d filed, confirmed at the table" % (round_number, LINKED))
        return held, filed()

    def close(self):
        self.sim.close()
        self.service.stop()
        self.broker.stop()


def play_evening(folder, linked=True):
    """The evening in `folder`; the tally (the calculator's totals per player, the lines)."""
    db = os.path.join(str(folder), "melee.db")
    rnd = random.Random(1611)
    new_evening(db)
    tally = Tally()
    link = Link(db) if linked else None
    try:
        with Sim(rules=PRESET, options={"deals": DEALS}) as sim:  # every other table's rounds, one after another
            for round_number in range(1, ROUNDS + 1):
                drawn = club(db, "draw")
                tally.seat(drawn, round_number)
                line = []
                for t in drawn["tables"]:
                    records = [gen_valid(RULES, rnd) for _ in range(DEALS)]
                    last = calculator(records)
                    assert last["over"] is True
                    totals = last["total"]
                    table = t["table"]
                    if link is not None and table == LINKED and round_number in LINK_ROUNDS:
                        held, stored = link.play(round_number, records)
                        assert (stored["NS"], stored["EW"]) == (totals["NS"], totals["EW"])
                        how = " (link)"
                    else:
                        held = confirmed_round(sim, (round_number, table, 2 * table - 1, 2 * table), records)
                        stored = club(db, "result", "--code", grouped(held["code"]))
                        assert stored["totals"] == totals and (stored["NS"], stored["EW"]) == (t["NS"], t["EW"])
                        how = ""
                    assert held["totals"] == totals  # and the code is the calculator's totals, as the table shows it
                    assert held["code"] == encode(round_number, table, totals["NS"], totals["EW"], 2 * table - 1, 2 * table)
                    tally.add(t, totals)
                    line.append(tally.line(t, totals, grouped(held["code"]), how))
                tally.lines.append("round %d: %s" % (round_number, "; ".join(line)))
    finally:
        if link is not None:
            link.close()
    return tally, db


def test_sixteen_players_four_rounds_on_the_simulator_one_table_over_the_link(tmp_path):
    tally, db = play_evening(tmp_path)
    check_standings(db, tally)


if __name__ == "__main__":
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        started = time.monotonic()
        evening, path = play_evening(folder, linked=link_run.mosquitto_program() is not None)
        print("\n".join(evening.lines))
        print(club(path, "standings"))
        print("played in %.0f s" % (time.monotonic() - started))
