"""The admin page on the club's network, through Flask's test client and a real event
file: sessions kept in the server (logout and a new password end them; the file's
contents open nothing), wrong passwords slowed per address and logged, the file made
0600, what the public JSON leaves out, the team actions' forms, the round in progress
marked provisional, times in local time, the tables' problems in the page's words."""
import datetime
import logging
import os
import re
import stat
import time

import pytest

from club_browser import PASSWORD, club
from host_tools.club.service import Club
from host_tools.club.web import COOKIE, create_app, projector_data, public_live
from host_tools.club.words import Words


def event(db, teams=6, lang="fr"):
    club(db, "new", "--name", "Concours du jeudi", "--rounds", 4, "--deals", 12, "--rules", "classic2000", "--seed", 4,
         "--lang", lang)
    club(db, "team", "add", *["Équipe %d" % n for n in range(1, teams + 1)])
    with Club(str(db)) as c:
        c.set_password(PASSWORD)


def signed_in(app):
    client = app.test_client()
    assert client.post("/admin/login", data={"password": PASSWORD}).status_code == 302
    page = client.get("/admin").get_data(as_text=True)
    return client, re.search(r'name="token" value="([0-9a-f]+)"', page).group(1)


def error_of(answer):
    return re.search(r'id="error"[^>]*>([^<]*)', answer.get_data(as_text=True)).group(1)


def test_the_event_file_is_made_readable_by_its_owner_only(tmp_path):
    db = tmp_path / "private.db"
    old = os.umask(0o022)
    try:
        event(db)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(db).st_mode) == 0o600
    with Club(str(db)) as c:  # while open: SQLite's write-ahead log and shared memory files take its mode
        c.set_password("encore un secret")
        for side in ("-wal", "-shm"):
            assert stat.S_IMODE(os.stat(str(db) + side).st_mode) == 0o600, side


def test_logout_ends_the_session_on_the_server(tmp_path):
    db = tmp_path / "logout.db"
    event(db)
    client, token = signed_in(create_app(str(db)))
    cookie = client.get_cookie(COOKIE).value
    assert client.post("/admin/logout", data={"token": token}).status_code == 302
    client.set_cookie(COOKIE, cookie)  # the old cookie, kept by someone
    assert client.get("/admin").status_code == 302


def test_a_new_password_ends_every_session(tmp_path):
    db = tmp_path / "password.db"
    event(db)
    app = create_app(str(db))
    client, token = signed_in(app)
    other, _ = signed_in(app)
    with Club(str(db)) as c:
        c.set_password("un autre mot de passe")  # the command line's `password`
    assert client.get("/admin").status_code == 302 and other.get("/admin").status_code == 302


def test_a_password_changed_on_the_page_ends_the_other_sessions(tmp_path):
    db = tmp_path / "page.db"
    event(db)
    app = create_app(str(db))
    client, token = signed_in(app)
    other, _ = signed_in(app)
    short = client.post("/admin/password", data={"token": token, "password": "court"})
    assert error_of(short) == "Le mot de passe doit avoir au moins 8 caractères."
    assert client.post("/admin/password", data={"token": token, "password": "nouveau secret"}).status_code == 302
    assert client.get("/admin").status_code == 200
    assert other.get("/admin").status_code == 302


def test_nothing_in_the_event_file_opens_the_admin_page(tmp_path):
    db = tmp_path / "forged.db"
    event(db)
    client = create_app(str(db)).test_client()
    with Club(str(db)) as c:
        secrets_in_file = [c.store.meta(k) for k in ("secret", "password")]
    for value in filter(None, secrets_in_file):
        client.set_cookie(COOKIE, value)
        client.set_cookie("session", value)
        assert client.get("/admin").status_code == 302


def test_wrong_passwords_are_slowed_per_address_and_logged(tmp_path, caplog):
    db = tmp_path / "slow.db"
    event(db)
    client = create_app(str(db), login_delay=0.3).test_client()
    caplog.set_level(logging.WARNING, logger="host_tools.club.web")
    assert client.post("/admin/login", data={"password": "non"}).status_code == 401  # one typo is free
    assert client.post("/admin/login", data={"password": "non plus"}).status_code == 401
    # now even the right password waits for the delay
    early = client.post("/admin/login", data={"password": PASSWORD})
    assert early.status_code == 429 and "réessayez dans" in early.get_data(as_text=True)
    time.sleep(0.35)
    assert client.post("/admin/login", data={"password": "toujours non"}).status_code == 401
    time.sleep(0.35)
    assert client.post("/admin/login", data={"password": PASSWORD}).status_code == 429  # now 0.6 s: it grows
    time.sleep(0.3)
    assert client.post("/admin/login", data={"password": PASSWORD}).status_code == 302
    wrong = [r.getMessage() for r in caplog.records if "wrong admin password" in r.getMessage()]
    assert len(wrong) == 3 and "127.0.0.1" in wrong[0] and "3 in a row" in wrong[2]
    other = client.post("/admin/login", data={"password": "non"}, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 401  # another address has its own count


def test_public_json_leaves_out_reasons_who_and_devices(tmp_path):
    db = tmp_path / "public.db"
    event(db, teams=4)
    drawn = club(db, "draw")
    club(db, "result", "--round", 1, "--table", 1, "--ns", 1500, "--ew", 900)
    club(db, "correct", "--round", 1, "--table", 1, "--ns", 1400, "--ew", 1000, "--why", "feuille mal lue",
         "--who", "Ginette")
    club(db, "team", "withdraw", drawn["tables"][1]["NS"], "--why", "malade")
    client = create_app(str(db)).test_client()
    text = client.get("/state.json").get_data(as_text=True)
    assert "feuille mal lue" not in text and "Ginette" not in text and "malade" not in text
    assert client.get("/state.json").get_json()["corrections"][0]["new"] == {"NS": 1400, "EW": 1000}
    projector = client.get("/projector.json").get_data(as_text=True)
    assert "feuille mal lue" not in projector and "malade" not in projector
    live = public_live({"connected": True, "counts": {}, "tables": [{"device": "t07-ab12", "table": 7}]})
    assert live["tables"] == [{"table": 7}]
    admin, _ = signed_in(create_app(str(db)))
    page = admin.get("/admin").get_data(as_text=True)
    assert "feuille mal lue" in page and "malade" in page  # the admin page has them


def test_correction_times_are_the_machines_local_time(tmp_path, monkeypatch):
    db = tmp_path / "time.db"
    event(db, teams=2)
    club(db, "draw")
    club(db, "result", "--round", 1, "--table", 1, "--ns", 1500, "--ew", 900)
    done = club(db, "correct", "--round", 1, "--table", 1, "--ns", 1400, "--ew", 1000, "--why", "x")
    monkeypatch.setenv("TZ", "Asia/Kolkata")  # UTC+5:30, all year
    time.tzset()
    try:
        admin, _ = signed_in(create_app(str(db)))
        page = admin.get("/admin").get_data(as_text=True)
        at = datetime.datetime.strptime(done["at"], "%Y-%m-%dT%H:%M:%SZ") + datetime.timedelta(hours=5, minutes=30)
        assert at.strftime("%Y-%m-%d %H:%M:%S") in page and done["at"] not in page
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_the_new_event_form_offers_every_option_of_new(tmp_path):
    db = tmp_path / "form.db"
    with Club(str(db), create=True) as c:
        c.set_password(PASSWORD)
    client, token = signed_in(create_app(str(db)))
    page = client.get("/admin").get_data(as_text=True)
    for field in ("name", "rounds", "length", "length_value", "preset", "options", "ranking", "mp_win", "mp_draw",
                  "mp_loss", "bye_score", "bye_match_points", "seed", "lang", "late_as_bye", "format", "minutes"):
        assert 'name="%s"' % field in page, field
    made = client.post("/admin/new", data={"token": token, "name": "Sonntag", "rounds": "3", "length": "target",
                                           "length_value": "1000", "preset": "classic2000", "ranking": "total",
                                           "lang": "de", "late_as_bye": "1", "mp_win": "2", "mp_draw": "1",
                                           "mp_loss": "0"})
    assert made.status_code == 302
    ev = client.get("/state.json").get_json()["event"]
    assert (ev["lang"], ev["late_as_bye"], ev["target"]) == ("de", True, 1000)
    assert 'lang="de"' in client.get("/admin").get_data(as_text=True)


def test_team_actions_from_the_admin_page(tmp_path):
    db = tmp_path / "actions.db"
    event(db, teams=6)
    client, token = signed_in(create_app(str(db)))
    assert client.post("/admin/draw", data={"token": token}).status_code == 302
    assert client.post("/admin/teams", data={"token": token, "names": "Les Retardataires"}).status_code == 302
    assert client.post("/admin/rename", data={"token": token, "team": "2", "name": "Équipe Deux"}).status_code == 302
    state = client.get("/state.json").get_json()
    first = state["rounds"][0]["tables"][0]
    assert client.post("/admin/swap", data={"token": token, "a": str(first["NS"]),
                                            "b": str(state["rounds"][0]["tables"][1]["NS"])}).status_code == 302
    assert client.post("/admin/undo", data={"token": token}).status_code == 302
    assert client.get("/state.json").get_json()["rounds"] == []
    assert client.post("/admin/withdraw", data={"token": token, "team": "3", "why": "train raté"}).status_code == 302
    state = client.get("/state.json").get_json()
    teams = {t["number"]: t for t in state["teams"]}
    assert teams[2]["name"] == "Équipe Deux" and teams[3]["withdrawn"] and teams[7]["name"] == "Les Retardataires"
    page = client.get("/admin").get_data(as_text=True)
    for done in ("Équipe 7 ajoutée : Les Retardataires", "Équipe 2 renommée : Équipe 2 → Équipe Deux",
                 "Tirage de la manche 1 annulé", "Équipe 3 retirée", "train raté"):
        assert done in page, done
    again = client.post("/admin/withdraw", data={"token": token, "team": "3"})
    assert again.status_code == 400 and error_of(again) == "L&#39;équipe 3 (Équipe 3) est déjà retirée."
    unknown = client.post("/admin/rename", data={"token": token, "team": "x", "name": "Y"})
    assert error_of(unknown) == "« Équipe n° » doit être un nombre entier, pas « x »"


def test_the_round_in_progress_is_marked_provisional(tmp_path):
    db = tmp_path / "progress.db"
    event(db, teams=6)
    club(db, "draw")
    for table in (1, 2, 3):
        club(db, "result", "--round", 1, "--table", table, "--ns", 1500, "--ew", 900)
    club(db, "draw")
    club(db, "result", "--round", 2, "--table", 1, "--ns", 1600, "--ew", 800)
    app = create_app(str(db))
    data = app.test_client().get("/projector.json").get_json()
    assert data["standings"]["round"] == 1 and data["progress"] == {"round": 2, "filed": 1, "tables": 3}
    admin, _ = signed_in(app)
    page = admin.get("/admin").get_data(as_text=True)
    assert "Classement après la manche 1" in page and "Manche 2 provisoire: 1/3 tables saisies" in page
    complete = page[page.index('id="standings-complete"'):page.index('id="standings-provisional"')]
    provisional = page[page.index('id="standings-provisional"'):]
    played_two = r"<td>\d+ Équipe \d+</td><td>2</td>"  # round 2's table 1 counts only beside
    assert not re.search(played_two, complete) and len(re.findall(played_two, provisional)) == 2


def test_a_tables_problem_is_said_in_the_page_words_and_may_be_absent():
    state = {"event": {"name": "E", "rounds": 3, "deals": 12, "target": None, "ranking": "total"},
             "rounds": [{"round": 1, "tables": [{"table": 7, "NS": 1, "EW": 2, "ns_name": "A", "ew_name": "B",
                                                 "result": None}], "bye": [], "bye_names": []}],
             "standings": {"round": 0, "ranking": []}, "progress": {"round": 1, "filed": 0, "tables": 1}}
    status = {"connected": False, "counts": {"refused": 2},
              "tables": [{"device": "d7", "table": 7, "round": 1, "counted": 3, "deals": 12,
                          "total": {"NS": 300, "EW": 120}, "problem": "wrong_setup"}]}
    data = projector_data(state, status, Words("fr"))
    assert data["link"] == {"connected": False, "refused": 2, "problems": ["table 7 : mauvais réglage"]}
    assert data["current"]["tables"][0]["problem"] == "table 7 : mauvais réglage"
    assert "d7" not in str(data)
    del status["tables"][0]["problem"]  # the link service of before: no such field
    data = projector_data(state, status, Words("en"))
    assert data["link"]["problems"] == [] and data["current"]["tables"][0]["problem"] is None
    status["tables"][0]["problem"] = "refused_deal"
    assert projector_data(state, status, Words("de"))["link"]["problems"] == ["Tisch 7: Spiel abgelehnt"]


@pytest.mark.parametrize("lang, word", [("fr", "Classement"), ("de", "Rangliste"), ("it", "Classifica"),
                                        ("en", "Standings")])
def test_every_page_speaks_the_events_language(tmp_path, lang, word):
    db = tmp_path / ("%s.db" % lang)
    event(db, teams=4, lang=lang)
    club(db, "draw")
    app = create_app(str(db))
    public = app.test_client()
    admin, _ = signed_in(app)
    w = Words(lang)
    pages = {"/projector": public, "/phone": public, "/admin/login": public, "/admin": admin,
             "/admin/slips/1": admin, "/admin/door/1": admin, "/admin/ranking": admin}
    for url, client in pages.items():
        answer = client.get(url)
        page = answer.get_data(as_text=True)
        assert answer.status_code == 200 and '<html lang="%s">' % lang in page, url
    assert word in admin.get("/admin").get_data(as_text=True)
    assert w.result_code in admin.get("/admin/slips/1").get_data(as_text=True)
    assert w.qr_caption in public.get("/projector").get_data(as_text=True)
    missing = admin.get("/admin/slips/9")
    assert missing.status_code == 404 and w.err_not_found in missing.get_data(as_text=True)


def test_refusals_are_said_in_the_events_language_without_command_line_syntax(tmp_path):
    db = tmp_path / "de.db"
    event(db, teams=4, lang="de")
    club(db, "draw")
    client, token = signed_in(create_app(str(db)))
    wrong = client.post("/admin/code", data={"token": token, "code": "1010 3011 5200 9807"})
    assert error_of(wrong) == ("Code 1010 3011 5200 9807 abgelehnt: die Prüfziffer stimmt nicht: "
                               "eine Ziffer ist falsch oder zwei sind vertauscht")
    client.post("/admin/sheet", data={"token": token, "round": "1", "table": "1", "ns": "1500", "ew": "900"})
    twice = client.post("/admin/sheet", data={"token": token, "round": "1", "table": "1", "ns": "1500", "ew": "900"})
    assert "Korrekturen" in error_of(twice) and "--" not in error_of(twice)
    undo = client.post("/admin/undo", data={"token": token})
    assert error_of(undo) == "Runde 1 hat schon Ergebnisse (Tische 1): ihre Auslosung bleibt."
    with Club(str(db)) as c:
        waiting = c.state()["rounds"][0]["tables"][1]  # table 2: no result yet
    client.post("/admin/withdraw", data={"token": token, "team": str(waiting["NS"]), "why": "Zug"})
    forfeit = client.post("/admin/sheet", data={"token": token, "round": "1", "table": "2", "ns": "900", "ew": "700"})
    assert error_of(forfeit).startswith("Tisch 2 von Runde 1 ist kampflos")


class LinkStatus:
    """The link service's two reads as the link branch shapes them (a table's "problem"
    and refused count), for the page alone: the service itself needs the tables' broker."""

    def __init__(self, rows):
        self.rows = rows

    def status(self):
        return {"connected": True, "counts": {"stored": 5, "refused": 3}, "tables": self.rows}

    def admin_status(self):
        return dict(self.status(), devices=[{"id": "t07-ab12", "table": 7, "created": "x"},
                                            {"id": "t08-cd34", "table": 8, "created": "x"}], log=[])


def test_the_admin_page_shows_a_tables_problem_when_the_link_gives_one(tmp_path):
    db = tmp_path / "link.db"
    event(db, teams=16)
    club(db, "draw")
    rows = [{"device": "t07-ab12", "table": 7, "round": 1, "counted": 4, "deals": 12, "total": {"NS": 400, "EW": 220},
             "problem": "wrong_setup", "refused": 2},
            {"device": "t08-cd34", "table": 8, "round": 1, "counted": 2, "deals": 12, "total": {"NS": 90, "EW": 160}}]
    app = create_app(str(db), link=LinkStatus(rows))
    admin, _ = signed_in(app)
    page = admin.get("/admin").get_data(as_text=True)
    assert "table 7 : mauvais réglage · 2 messages refusés" in page
    data = app.test_client().get("/projector.json").get_json()
    assert data["link"]["problems"] == ["table 7 : mauvais réglage"]
    assert [t["problem"] for t in data["current"]["tables"]][6:8] == ["table 7 : mauvais réglage", None]
    assert "t07-ab12" not in app.test_client().get("/live.json").get_data(as_text=True)


def test_the_draw_button_goes_once_every_round_is_drawn(tmp_path):
    db = tmp_path / "last.db"
    event(db, teams=4)
    client, token = signed_in(create_app(str(db)))
    for number in range(1, 5):
        assert 'id="draw-button"' in client.get("/admin").get_data(as_text=True)
        client.post("/admin/draw", data={"token": token})
        for table in (1, 2):
            client.post("/admin/sheet", data={"token": token, "round": str(number), "table": str(table),
                                              "ns": "1200", "ew": "800"})
    assert 'id="draw-button"' not in client.get("/admin").get_data(as_text=True)
