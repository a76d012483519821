"""An individual evening with a round clock on the club's pages, served by `python -m
host_tools.club serve` and read in Debian's headless Chromium: the admin page adds,
renames and withdraws players and starts, pauses, resumes and lengthens the clock; the
projector shows the round's pairs, the players and who sits out, and the time left in
big type, counting down between its fetches, with its warnings at 5 minutes and at the
end; the phone page shows a player's seat and the clock; the slips and the door list
name the four players seat by seat. Time is moved through the clock kept in the event
file (its start set back), never slept. Forms without a browser go through Flask's
test client. CLUB_SCREENSHOTS=DIR saves the pictures docs/screenshots/club/ shows."""
import datetime
import json
import os
import re
import time

import pytest

from club_browser import PASSWORD, Server, chromium, club, need_chromium, screen, shown, sign_in, text, wait_for
from host_tools.club.service import STAMP, Club

REFRESH = 5  # seconds between the pages' fetches: the clock must count down in between
SHOTS = os.environ.get("CLUB_SCREENSHOTS")
PLAYERS = ["Anne", "Bruno", "Chloé", "Denis", "Émile", "Fanny", "Gilles", "Hélène", "Inès", "Jules", "Karim",
           "Lucie", "Marcel", "Nadia", "Odile", "Pascal", "Quentin"]  # 17: four tables, one sits out


def shot(browser, name):
    """The page as a small PNG (a palette of 64 colours)."""
    if SHOTS:
        import io
        from PIL import Image
        os.makedirs(SHOTS, exist_ok=True)
        picture = Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB")
        picture.quantize(64).save(os.path.join(SHOTS, name), optimize=True)


def clock_started(db, seconds_ago):
    """The running clock as if started seconds_ago (what an evening's minutes would do)."""
    with Club(str(db)) as c:
        clock = dict(c.event()["clock"], paused_at=None, paused_seconds=0)
        at = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=seconds_ago)
        clock["started"] = at.strftime(STAMP)
        with c.store.transaction():
            c.store.set_clock(clock)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    need_chromium()
    db = tmp_path_factory.mktemp("melee") / "melee.db"
    club(db, "new", "--name", "Mêlée du vendredi", "--rounds", 4, "--deals", 12, "--minutes", 45, "--rules",
         "classic2000", "--format", "individual", "--seed", 1512)
    club(db, "player", "add", *PLAYERS)
    drawn = club(db, "draw")
    running = Server(db, REFRESH)
    yield {"base": running.base, "db": db, "drawn": drawn}
    running.stop()


@pytest.fixture(scope="module")
def browser(server, tmp_path_factory):
    driver = chromium(tmp_path_factory.mktemp("chromium"))
    sign_in(driver, server["base"])
    yield driver
    driver.quit()


def send(browser, form, fields=None):
    """Fill a form of the admin page and send it; the page's message or error."""
    from selenium.webdriver.common.by import By
    browser.get(browser.current_url.split("/admin")[0] + "/admin")
    found = browser.find_element(By.ID, form)
    for name, value in (fields or {}).items():
        field = found.find_element(By.NAME, name)
        field.clear()
        field.send_keys(str(value))
    found.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    return wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#message, #error"))[0].text


def test_admin_adds_renames_and_withdraws_players(server, browser):
    assert send(browser, "add-teams", {"names": "Zoé"}) == "1 joueur(s) ajouté(s)"
    assert send(browser, "rename", {"team": 2, "name": "Bruno B."}) == "Joueur 2 renommé"
    assert send(browser, "withdraw", {"team": 18, "why": "malade"}) == "Joueur 18 retiré"
    assert send(browser, "withdraw", {"team": 99}) == "Il n'y a pas de joueur 99."
    assert text(browser, "#teams h2") == "Joueurs (18)"
    assert "Bruno B." in text(browser, "#teams") and "Zoé (retiré)" in text(browser, "#teams")
    round_one = text(browser, "#round-1")
    assert "paire 1:" in round_one and "paire 8:" in round_one
    assert "Ne joue pas cette manche : " + PLAYERS[server["drawn"]["sit_out"][0] - 1] in round_one
    assert text(browser, "#standings-complete thead").split()[1] == "Joueur"
    log = text(browser, "#team-actions")
    assert "Joueur 18 ajouté : Zoé (joue dès la manche 2)" in log and "Joueur 18 retiré" in log
    assert "Joueur 2 renommé : Bruno → Bruno B." in log


def test_admin_starts_pauses_resumes_and_adds_minutes(server, browser):
    from selenium.webdriver.common.by import By
    assert send(browser, "clock-start") == "Pendule de la manche 1 lancée"
    assert re.match(r"Manche 1 : 4[45]:\d\d restantes sur 45 min$", text(browser, "#clock-state"))
    assert not browser.find_elements(By.ID, "clock-start")  # one start a round
    assert send(browser, "clock-pause") == "Pendule en pause"
    assert text(browser, "#clock-state").endswith("· en pause")
    assert send(browser, "clock-resume") == "Pendule relancée"
    assert send(browser, "clock-add", {"minutes": 5}) == "+5 min : la manche dure 50 min"
    assert send(browser, "clock-add", {"minutes": -100}) == "La manche dure 50 min : impossible d'en retirer 100."
    assert send(browser, "clock-add", {"minutes": -5}) == "-5 min : la manche dure 45 min"
    with Club(str(server["db"])) as c:
        clock = c.clock()
    assert (clock["round"], clock["minutes"], clock["running"]) == (1, 45, True)


def test_projector_shows_pairs_players_and_who_sits_out(server, browser):
    from selenium.webdriver.common.by import By
    screen(browser, 1920, 1080)
    browser.get(server["base"] + "/projector")
    rows = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#tables .table-row"))
    assert len(rows) == 4
    names = {n: (PLAYERS[n - 1] if n != 2 else "Bruno B.") for n in range(1, 18)}
    for row, table in zip(rows, server["drawn"]["tables"]):
        pairs = [b.text for b in row.find_elements(By.CSS_SELECTOR, ".team")]
        assert pairs == [str(2 * table["table"] - 1), str(2 * table["table"])]
        assert "%s & %s" % (names[table["NS"][0]], names[table["NS"][1]]) in row.text
        assert "%s & %s" % (names[table["EW"][0]], names[table["EW"][1]]) in row.text
    sitting = names[server["drawn"]["sit_out"][0]]
    assert text(browser, "#tables .bye") == "Ne joue pas cette manche : " + sitting
    assert text(browser, "#standings .head").split()[1] == "Joueur"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#standings .standing")) == 18
    assert "Bruno B." in text(browser, "#standings") and "Zoé (retiré)" in text(browser, "#standings")
    assert browser.execute_script("return document.body.dataset.pages") == "1"
    shot(browser, "projector-individual-1920x1080.png")


def test_projector_clock_counts_down_and_warns_at_5_minutes_and_at_the_end(server, browser):
    from selenium.webdriver.common.by import By
    screen(browser, 1920, 1080)
    clock_started(server["db"], 45 * 60 - 5 * 60 - 4)  # 5 minutes 4 seconds left
    browser.get(server["base"] + "/projector")
    browser.execute_script("window.notReloaded = true")
    box = browser.find_element(By.ID, "clock")
    first = int(wait_for(lambda: box.get_attribute("data-left")))
    assert 300 < first <= 304 and box.get_attribute("data-warning") == ""
    assert text(browser, "#clock .clock-note") == "Manche 1"
    seen = [int(box.get_attribute("data-left"))]
    for _ in range(3):  # a new value each second, where fetches REFRESH seconds apart would give two at most
        time.sleep(1.1)
        seen.append(int(box.get_attribute("data-left")))
    assert len(set(seen)) >= 3 and seen[0] - seen[-1] >= 2, seen  # a fetch may set it a second back
    wait_for(lambda: box.get_attribute("data-warning") == "5min", 8)
    assert text(browser, "#clock .clock-note") == "Plus que 5 minutes"
    assert re.match(r"^[45]:\d\d$", text(browser, "#clock .clock-time"))
    size = float(browser.execute_script(
        "return parseFloat(getComputedStyle(document.querySelector('#clock .clock-time')).fontSize)"))
    assert size >= 96, size
    assert "clock-5min" in box.get_attribute("class")
    clock_started(server["db"], 45 * 60 - 4 * 60 - 30)  # 4:30 left, as the next fetch says
    wait_for(lambda: 265 <= int(box.get_attribute("data-left")) <= 270, REFRESH + 3)
    shot(browser, "projector-clock-5min-1920x1080.png")
    clock_started(server["db"], 46 * 60)
    wait_for(lambda: box.get_attribute("data-warning") == "end", REFRESH + 3)
    assert text(browser, "#clock .clock-time") == "Dernière donne"
    assert text(browser, "#clock .clock-note") == "Fin de la manche 1"
    assert float(browser.execute_script(
        "return parseFloat(getComputedStyle(document.querySelector('#clock .clock-time')).fontSize)")) >= 96
    top, bottom = browser.execute_script(
        "const r = document.getElementById('clock').getBoundingClientRect(); return [r.top, r.bottom]")
    assert 0 <= top and bottom <= 1080
    assert browser.execute_script("return window.notReloaded") is True
    shot(browser, "projector-clock-end-1920x1080.png")


def test_a_paused_clock_stands_still_on_the_projector(server, browser):
    from selenium.webdriver.common.by import By
    clock_started(server["db"], 20 * 60)
    with Club(str(server["db"])) as c:
        c.clock("pause")
    browser.get(server["base"] + "/projector")
    box = browser.find_element(By.ID, "clock")
    wait_for(lambda: box.get_attribute("data-left"))
    before = box.get_attribute("data-left")
    time.sleep(2.1)
    assert box.get_attribute("data-left") == before and 24 * 60 < int(before) <= 25 * 60
    assert text(browser, "#clock .clock-note") == "en pause" and "paused" in box.get_attribute("class")
    with Club(str(server["db"])) as c:
        c.clock("resume")


def test_phone_shows_a_players_seat_and_the_clock(server, browser):
    from selenium.webdriver.common.by import By
    clock_started(server["db"], 41 * 60)
    screen(browser, 390, 844, mobile=True)
    try:
        browser.get(server["base"] + "/phone")
        table = server["drawn"]["tables"][0]
        north, south = table["NS"]
        field = browser.find_element(By.ID, "find")
        field.send_keys(PLAYERS[north - 1])
        card = shown(browser, "#mine .card .seat")
        partner = PLAYERS[south - 1] if south != 2 else "Bruno B."
        assert card.startswith("Manche 1 : table 1, Nord, avec %s, contre " % partner)
        wait_for(lambda: browser.find_element(By.ID, "clock").get_attribute("data-warning") == "5min")
        assert "Plus que 5 minutes" in text(browser, "#clock")
        field.clear()
        field.send_keys(str(server["drawn"]["sit_out"][0]))
        assert shown(browser, "#mine .card .seat") == "Manche 1 : ne joue pas (compté comme exempt)"
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_slips_door_and_ranking_name_the_players(server, browser):
    from selenium.webdriver.common.by import By
    names = {n: (PLAYERS[n - 1] if n != 2 else "Bruno B.") for n in range(1, 18)}
    table = server["drawn"]["tables"][1]
    screen(browser, 1000, 1400)
    browser.get(server["base"] + "/admin/slips/1")
    slip = text(browser, "#slip-2")
    assert "Nord-Sud · 3 Nord %s · Sud %s" % (names[table["NS"][0]], names[table["NS"][1]]) in slip
    assert "Est-Ouest · 4 Est %s · Ouest %s" % (names[table["EW"][0]], names[table["EW"][1]]) in slip
    assert "Menu > Concours, manche 1, table 2, paires 3 et 4." in slip
    assert "NS 3" in slip and "EO 4" in slip
    shot(browser, "slips-individual.png")
    browser.get(server["base"] + "/admin/door/1")
    lines = [li.text.replace("\n", " ") for li in browser.find_elements(By.CSS_SELECTOR, "#door li")]
    assert "%s (%d) table 2, Est, avec %s" % (names[table["EW"][0]], table["EW"][0], names[table["EW"][1]]) in lines
    sitting = server["drawn"]["sit_out"][0]
    assert "%s (%d) ne joue pas cette manche" % (names[sitting], sitting) in lines
    assert len(lines) == 17
    browser.get(server["base"] + "/admin/ranking")
    assert text(browser, "#ranking thead").split()[1] == "Joueur"
    assert "2 · Bruno B." in text(browser, "#ranking")


def signed_in_client(db):
    from host_tools.club.web import create_app
    with Club(str(db), create=True) as c:
        c.set_password(PASSWORD)
    client = create_app(str(db)).test_client()
    assert client.post("/admin/login", data={"password": PASSWORD}).status_code == 302
    token = re.search(r'name="token" value="([0-9a-f]+)"', client.get("/admin").get_data(as_text=True)).group(1)
    return client, token


def test_the_new_event_form_makes_an_individual_timed_event(tmp_path):
    client, token = signed_in_client(tmp_path / "new.db")
    form = client.get("/admin").get_data(as_text=True)
    assert 'name="format"' in form and 'name="minutes"' in form and 'value="none"' in form
    made = client.post("/admin/new", data={"token": token, "name": "Mêlée", "rounds": "3", "length": "none",
                                           "length_value": "", "minutes": "40", "preset": "classic2000",
                                           "format": "individual"})
    assert made.status_code == 302, made.get_data(as_text=True)
    event = client.get("/state.json").get_json()["event"]
    assert (event["format"], event["minutes"], event["deals"], event["target"]) == ("individual", 40, 0, None)
    assert "3 manches de 40 min" in client.get("/admin").get_data(as_text=True)
    data = client.get("/projector.json").get_json()
    assert data["clock"] == {"round": None, "minutes": 40, "running": False, "paused": False, "left_seconds": 2400,
                             "warning": None}
    assert data["event"]["format"] == "individual" and data["event"]["minutes"] == 40


def test_the_new_event_form_refuses_no_length_without_minutes(tmp_path):
    client, token = signed_in_client(tmp_path / "none.db")
    refused = client.post("/admin/new", data={"token": token, "name": "Mêlée", "rounds": "3", "length": "none",
                                              "preset": "classic2000"})
    assert refused.status_code == 400 and 'value="none" selected' in refused.get_data(as_text=True)


def test_the_clock_of_an_untimed_event_is_refused_in_the_pages_words(tmp_path):
    db = tmp_path / "untimed.db"
    client, token = signed_in_client(db)
    club(db, "new", "--name", "Jeudi", "--rounds", 2, "--deals", 12, "--rules", "classic2000", "--lang", "de")
    assert 'id="clock"' not in client.get("/admin").get_data(as_text=True)
    refused = client.post("/admin/clock-start", data={"token": token})
    assert refused.status_code == 400
    assert "Die Runden dieses Turniers haben keine Uhr." in refused.get_data(as_text=True)
    assert client.post("/admin/clock-pause", data={}).status_code == 403  # the form's token, as every action
    assert json.loads(client.get("/projector.json").data)["clock"] is None


def test_a_team_command_in_an_individual_event_page_adds_players(tmp_path):
    db = tmp_path / "players.db"
    client, token = signed_in_client(db)
    club(db, "new", "--name", "Mêlée", "--rounds", 2, "--deals", 12, "--rules", "classic2000", "--format",
         "individual")
    client.post("/admin/teams", data={"token": token, "names": "Anne\nBruno"})
    assert [p["name"] for p in club(db, "player", "list")["players"]] == ["Anne", "Bruno"]
    taken = client.post("/admin/teams", data={"token": token, "names": "anne"})
    assert "Il y a déjà un joueur nommé" in taken.get_data(as_text=True)


def test_a_new_round_shows_its_clock_stopped_not_the_last_rounds_end(tmp_path):
    db = tmp_path / "next.db"
    client, token = signed_in_client(db)
    club(db, "new", "--name", "Mêlée", "--rounds", 2, "--deals", 12, "--minutes", 30, "--rules", "classic2000",
         "--format", "individual")
    club(db, "player", "add", "Anne", "Bruno", "Chloé", "Denis")
    club(db, "draw")
    club(db, "clock", "start")
    clock_started(db, 31 * 60)
    assert client.get("/projector.json").get_json()["clock"]["warning"] == "end"
    club(db, "result", "--round", 1, "--table", 1, "--ns", 900, "--ew", 700)
    club(db, "draw")
    assert client.get("/projector.json").get_json()["clock"] == {
        "round": None, "minutes": 30, "running": False, "paused": False, "left_seconds": 1800, "warning": None}
    assert b'id="clock-start"' in client.get("/admin").data
    assert client.post("/admin/clock-start", data={"token": token}).status_code == 302
    assert client.get("/projector.json").get_json()["clock"]["round"] == 2


def test_forty_teams_standings_still_fit_the_first_screen_beside_the_clock(tmp_path):
    from test_club_hall import NAMES
    need_chromium()
    db = tmp_path / "hall.db"
    club(db, "new", "--name", "Grand concours de la Saint-Martin", "--rounds", 4, "--deals", 12, "--rules",
         "classic2000", "--seed", 7, "--ranking", "matches", "--minutes", 45)
    club(db, "team", "add", *NAMES)
    club(db, "draw")
    club(db, "clock", "start")
    running = Server(db, REFRESH)
    browser = chromium(tmp_path / "chromium")
    try:
        screen(browser, 1920, 1080)
        browser.get(running.base + "/projector")
        wait_for(lambda: browser.find_element("id", "clock").get_attribute("data-left"))
        assert float(browser.execute_script(
            "return parseFloat(getComputedStyle(document.querySelector('#clock .clock-time')).fontSize)")) >= 96
        last = browser.execute_script("const r = document.querySelector('#standings .standing:last-of-type')"
                                      ".getBoundingClientRect(); return [r.right, r.bottom]")
        assert last[0] <= 1920 and last[1] <= 1080, last  # the 40th team on the first screen
        title = browser.execute_script("return document.getElementById('event-name').getBoundingClientRect().height")
        assert title < 80  # the event's name on one line beside the clock
    finally:
        browser.quit()
        running.stop()


@pytest.mark.parametrize("lang", ["fr", "de", "it", "en"])
def test_every_page_of_an_individual_timed_evening_speaks_the_events_language(tmp_path, lang):
    from host_tools.club.words import Words
    db = tmp_path / ("%s.db" % lang)
    admin, token = signed_in_client(db)
    club(db, "new", "--name", "Mêlée", "--rounds", 3, "--deals", 12, "--minutes", 30, "--rules", "classic2000",
         "--format", "individual", "--lang", lang)
    club(db, "player", "add", "Anne", "Bruno", "Chloé", "Denis", "Émile")
    club(db, "draw")
    assert admin.post("/admin/clock-start", data={"token": token}).status_code == 302
    w = Words(lang)
    for url in ("/projector", "/phone", "/admin", "/admin/slips/1", "/admin/door/1", "/admin/ranking"):
        answer = admin.get(url)
        assert answer.status_code == 200 and '<html lang="%s">' % lang in answer.get_data(as_text=True), url
    page = admin.get("/admin").get_data(as_text=True)
    assert w.clock in page and w.clock_pause in page and w.players_n.format(count=5) in page
    assert w.slip_hint_player.format(round=1, table=1, ns=1, ew=2).replace(">", "&gt;") in \
        admin.get("/admin/slips/1").get_data(as_text=True)
    assert w.sit_out in admin.get("/admin/door/1").get_data(as_text=True)
    words = json.loads(re.search(r'<script id="words" type="application/json">(.*?)</script>',
                                 admin.get("/projector").get_data(as_text=True)).group(1))
    assert words["clock_end"] == w.clock_end and words["sit_out_name"] == w.sit_out_name
