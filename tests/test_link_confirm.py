"""The other team's confirmation over the link, with a real Mosquitto and the
organiser's service on 127.0.0.1: a round filed from a table's actions is marked
"confirmed at the table" once its "confirm" action comes (for the deals as they are),
and not for a confirmation of other deals; the admin page says so in its words."""
import time

import pytest

from host_tools.club.service import Club
from club_browser import club
from host_tools.club.web import create_app
from test_club_admin import event, signed_in
from host_tools.rigs import link_run
from test_link_draws import DEALS, pairs_event, play_round, seat, sites  # noqa: F401 (sites: the fixture)
from waiting import until

pytestmark = pytest.mark.skipif(link_run.mosquitto_program() is None,
                                reason="mosquitto is not installed (Debian: apt-get install mosquitto)")


def test_a_round_confirmed_at_the_table_is_marked_so_and_a_confirmation_of_other_deals_is_not(sites):  # noqa: F811
    site = sites(pairs_event)
    for table in (1, 2):
        drawn = seat(site, table)
        play_round(site, table, {"NS": drawn["NS"], "EW": drawn["EW"]}, DEALS, seed=table)
    until(lambda: (1, 1) in site.results() and (1, 2) in site.results(), 15, "both rounds to be filed")
    assert site.results()[(1, 1)]["source"] == "code"
    site.send(1, {"op": "confirm", "n": DEALS})
    site.send(2, {"op": "confirm", "n": DEALS - 1})  # not the deals the table holds: no mark
    until(lambda: site.results()[(1, 1)]["source"] == "table", 15, "table 1's result marked")
    time.sleep(1)
    assert site.results()[(1, 2)]["source"] == "code"
    assert "round 1 table 1: confirmed at the table" in site.service.log()
    with Club(site.db) as opened:
        page_sources = [t["result"]["source"] for t in opened.state()["rounds"][-1]["tables"] if t.get("result")]
    assert sorted(page_sources) == ["code", "table"]


def test_the_admin_page_marks_a_result_confirmed_at_the_table_typed_from_a_code_or_from_a_sheet(tmp_path):
    db = str(tmp_path / "event.db")
    event(db)
    club(db, "draw")
    with Club(db) as opened:
        for table in (1, 2, 3):
            seat = opened.store.rounds()[-1]["tables"][table - 1]
            if table == 3:
                opened.result(1, table, 1200, 800)  # typed from a sheet
            else:
                opened.result_from_code(opened.code(1, table, seat["NS"], seat["EW"], 1000 + 10 * table, 900)["code"])
        assert opened.confirmed_at_table(1, 1, 1010, 900) and not opened.confirmed_at_table(1, 3, 1200, 800)
    client, _token = signed_in(create_app(db))
    page = client.get("/admin").get_data(as_text=True)
    assert "confirmé à la table" in page and "saisi d&#39;un code" in page and "saisi d&#39;une feuille" in page


def test_a_real_firmware_table_confirms_its_round_and_the_organiser_marks_it(tmp_path):
    """The simulated table (the real firmware) plays its drawn round through the link,
    the other team holds OK on the round's end: the confirm action goes through the
    outbox like the others and the filed result is marked "table"."""
    from test_link_device import DEALS as ROUND_DEALS, Device, club_command, deal_together, running_club, settle, \
        start_rounds

    with running_club(str(tmp_path)) as (db, _broker, _service, _proxy, devices, folder):
        drawn = club_command(db, "draw")
        device = Device(folder, 1, seed=1).boot()
        devices.append(device)
        seat = drawn["tables"][0]
        settle([device])
        start_rounds([device], {1: (1, 1, seat["NS"], seat["EW"])})
        for _ in range(ROUND_DEALS):
            deal_together([device])
        settle([device])
        state = device.sim.state()
        assert state["screen"] == "roundover" and not state["confirmed"]
        assert source_of(db, 1, 1) == "code"
        device.send([(0, "hold", "OK", 700)])
        settle([device])
        assert device.sim.state()["confirmed"]
        until(lambda: source_of(db, 1, 1) == "table", 15, "the result marked")


def source_of(db, round_number, table):
    with Club(db) as opened:
        return opened.store.results()[(round_number, table)]["source"]
