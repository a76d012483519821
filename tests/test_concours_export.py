"""A concours round played on the simulator, exported from its flash image as the
device export does it (host_tools.device.export), then imported into the organiser's
app: the export carries the round's concours object and the app stores its result."""
import io
import json
import random

from coinche.result_code import encode
from coinche.rules import Rules
from host_tools.calculator.keys import plan
from host_tools.club.cli import main as club_main
from host_tools.device.export import main as export_main
from host_tools.device.report_words import REPORT_WORDS
from host_tools.sim import Sim
from host_tools.sim.concours import start_round
from vectors import gen_valid

PRESET = "classic2000"
DEALS = 12


def club(db, *argv):
    out, err = io.StringIO(), io.StringIO()
    status = club_main(["--db", str(db)] + [str(a) for a in argv], out, err)
    assert status == 0, err.getvalue()
    return json.loads(out.getvalue())


def test_a_round_exported_from_the_device_imports_into_the_club_app(tmp_path):
    rules = Rules(PRESET, {"deals": DEALS})
    rnd = random.Random(11)
    records = [gen_valid(rules, rnd) for _ in range(DEALS)]
    flash = str(tmp_path / "flash.img")
    db = tmp_path / "club.db"
    club(db, "new", "--name", "Test", "--rounds", 3, "--deals", DEALS, "--rules", PRESET, "--seed", 3)
    out, err = io.StringIO(), io.StringIO()
    assert club_main(["--db", str(db), "team", "add", "A", "B", "C", "D"], out, err) == 0, err.getvalue()
    drawn = club(db, "draw")
    seat = drawn["tables"][0]
    with Sim(rules=PRESET, options={"deals": DEALS}, flash=flash) as sim:
        start_round(sim, (1, seat["table"], seat["NS"], seat["EW"]))
        sim.run_script(plan(rules, records)[0])
        state = sim.state()
    assert state["screen"] == "roundover"
    assert export_main(["--flash", flash, "--out", str(tmp_path / "export")]) == 0
    with open(tmp_path / "export" / "games.json", encoding="utf-8") as f:
        games = json.load(f)["games"]
    rounds = [g for g in games if g.get("concours")]
    assert len(rounds) == 1
    concours = rounds[0]["concours"]
    totals = rounds[0]["total"]
    assert concours == state["concours"] == {
        "round": 1, "table": seat["table"], "teams": {"NS": seat["NS"], "EW": seat["EW"]}, "totals": totals,
        "deals": DEALS, "code": encode(1, seat["table"], totals["NS"], totals["EW"], seat["NS"], seat["EW"])}
    with open(tmp_path / "export" / "report.html", encoding="utf-8") as f:
        assert REPORT_WORDS["fr"]["round_table"] % (1, seat["table"]) in f.read()  # the report in the game's language
    imported = club(db, "import", tmp_path / "export" / "games.json")
    assert imported["imported"] == [{"round": 1, "table": seat["table"], "totals": totals}]
