"""The club's pages served by `python -m host_tools.club serve` on 127.0.0.1 and read in
Debian's headless Chromium (through its chromedriver, Selenium): the projector page
(standings, the round's tables, big type, refreshing by itself, nothing from outside)
and the admin page (a wrong password refused, a code entered, a refusal shown, a
correction kept, the printable sheet). Requests without a browser (a closed admin
page, a form without its token) go through Flask's test client."""
import os
import re

import pytest

from club_browser import PASSWORD, Server, chromium, club, need_chromium, pdf_info, print_pdf, screen, shown, sign_in, text, wait_for
from coinche.result_code import encode, grouped

REFRESH = 2
WIDEST = "W" * 40  # the longest name a team can have, in the widest letter


def make_event(db):
    club(db, "new", "--name", "Concours du jeudi", "--rounds", 3, "--deals", 12, "--rules", "classic2000", "--seed", 4)
    club(db, "team", "add", "Les As", "Belote & Co", "Capot", "Dix de der", "Surcoinche", WIDEST)
    return club(db, "draw")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    need_chromium()
    db = tmp_path_factory.mktemp("pages") / "event.db"
    drawn = make_event(db)
    running = Server(db, REFRESH)
    yield {"base": running.base, "db": db, "drawn": drawn}
    running.stop()


@pytest.fixture(scope="module")
def browser(server, tmp_path_factory):
    driver = chromium(tmp_path_factory.mktemp("chromium"))
    yield driver
    driver.quit()


def test_projector_shows_the_round_and_the_standings(server, browser):
    from selenium.webdriver.common.by import By
    browser.get(server["base"] + "/projector")
    assert wait_for(lambda: text(browser, "#event-name")) == "Concours du jeudi"
    assert browser.execute_script("return document.documentElement.lang") == "fr"
    rows = browser.find_elements(By.CSS_SELECTOR, "#tables .table-row")
    assert len(rows) == 3
    first = server["drawn"]["tables"][0]
    assert rows[0].text.split()[0] == "1" and str(first["NS"]) in rows[0].text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#standings .standing")) == 6
    assert "Belote & Co" in text(browser, "#standings") and "Classement" in text(browser, "#standings h2")
    assert browser.execute_script("return document.body.dataset.pages") == "1"  # it fits: no page turns


def test_projector_type_is_big_fits_the_screen_and_nothing_comes_from_outside(server, browser):
    screen(browser, 1280, 720)
    try:
        browser.get(server["base"] + "/projector")
        assert browser.execute_script("return [innerWidth, innerHeight]") == [1280, 720]
        size = browser.execute_script(
            "return parseFloat(getComputedStyle(document.querySelector('#tables .table-row')).fontSize)")
        assert size >= 22  # on a 1280 x 720 projector; it grows with the screen
        heading = browser.execute_script("return parseFloat(getComputedStyle(document.querySelector('h1')).fontSize)")
        assert heading >= 30
        # one screen, no scrolling; no figure wider than its cell
        assert browser.execute_script("return document.documentElement.scrollHeight") <= 720
        assert browser.execute_script(
            "return [...document.querySelectorAll('.num, .name')].filter(c => c.scrollWidth > c.clientWidth + 1).length") == 0
        assert WIDEST in text(browser, "#standings")  # whole, wrapped in its row
        urls = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        assert urls and all(u.startswith(server["base"]) for u in urls)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_projector_updates_without_reloading(server, browser):
    browser.get(server["base"] + "/projector")
    browser.execute_script("window.sameDocument = true")
    table = server["drawn"]["tables"][2]
    code = encode(1, 3, 1870, 1450, table["NS"], table["EW"])
    club(server["db"], "result", "--code", code)
    wait_for(lambda: "1870" in text(browser, "#tables") and "1450" in text(browser, "#tables"), REFRESH + 8)
    assert browser.execute_script("return window.sameDocument") is True  # fetched, not reloaded


def test_a_wrong_password_is_refused(server, browser):
    from selenium.webdriver.common.by import By
    browser.delete_all_cookies()
    sign_in(browser, server["base"], "not the password")
    assert shown(browser, "#wrong") == "Mot de passe incorrect."
    browser.get(server["base"] + "/admin")
    assert browser.current_url.endswith("/admin/login")
    assert not browser.find_elements(By.ID, "results")


def test_admin_enters_a_code_shows_a_refusal_and_keeps_a_correction(server, browser):
    from selenium.webdriver.common.by import By
    browser.delete_all_cookies()
    sign_in(browser, server["base"])
    assert "Équipes (6)" in shown(browser, "#teams") and browser.current_url.endswith("/admin")
    table = server["drawn"]["tables"][0]
    code = grouped(encode(1, 1, 2230, 1990, table["NS"], table["EW"]))
    for attempt in range(2):
        field = browser.find_element(By.ID, "code")
        field.clear()
        field.send_keys(code)
        browser.find_element(By.CSS_SELECTOR, "#by-code button").click()
        if attempt == 0:
            assert shown(browser, "#message") == "Table 1 de la manche 1 enregistrée"
        else:  # the same code again: refused, the page says why in its words, the code stays in its field
            error = shown(browser, "#error")
            assert "a déjà un résultat" in error and "Corrections" in error and "--" not in error
            assert browser.find_element(By.ID, "code").get_attribute("value") == code
    form = browser.find_element(By.ID, "correct")
    for name, value in (("round", "1"), ("table", "1"), ("ns", "2130"), ("ew", "1990"), ("why", "a deal typed twice")):
        form.find_element(By.NAME, name).send_keys(value)
    form.find_element(By.TAG_NAME, "button").click()
    assert shown(browser, "#message") == "Table 1 de la manche 1 corrigée"
    assert "a deal typed twice" in text(browser, "#corrections") and "2230–1990" in text(browser, "#corrections")
    standings = club(server["db"], "standings", "--json", "--after", 1)["ranking"]
    assert {r["team"]: r["points_for"] for r in standings}[table["NS"]] == 2130


def test_a_refused_code_stays_in_its_field(server, browser):
    from selenium.webdriver.common.by import By
    browser.get(server["base"] + "/admin")
    wrong = "1010 3011 5200 9807"  # one digit off: the check refuses it
    browser.find_element(By.ID, "code").send_keys(wrong)
    browser.find_element(By.CSS_SELECTOR, "#by-code button").click()
    assert "refusé" in shown(browser, "#error")
    assert browser.find_element(By.ID, "code").get_attribute("value") == wrong


def test_slips_print_two_to_an_a4_page_with_room_for_the_code(server, browser, tmp_path):
    """Printed to PDF by Chromium: A4 pages, two slips a page; measured in the print
    layout: 16 digit boxes of at least 8 mm, a row per deal, names on two lines at most."""
    from selenium.webdriver.common.by import By
    browser.get(server["base"] + "/admin/slips/1")
    slips = browser.find_elements(By.CSS_SELECTOR, "section.slip")
    assert len(slips) == 3
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        mm = 25.4 / 96  # CSS pixels to millimetres
        digits = browser.execute_script(
            "return [...document.querySelectorAll('#slip-1 .digit')].map(d => d.getBoundingClientRect().width)")
        assert len(digits) == 16 and min(digits) * mm >= 8
        assert len(browser.find_elements(By.CSS_SELECTOR, "#slip-1 tr.deal")) == 12
        sizes = browser.execute_script("""return [...document.querySelectorAll('section.slip')].map(
            s => [s.getBoundingClientRect().height, s.scrollHeight - s.clientHeight])""")
        assert all(height * mm <= 281 / 2 + 0.5 for height, _ in sizes)  # two in the page's 281 mm inside its margins
        assert all(spill <= 1 for _, spill in sizes)  # and everything of a slip inside it
        lines = browser.execute_script("""return [...document.querySelectorAll('.teamline')].map(e =>
            Math.round(e.scrollHeight / parseFloat(getComputedStyle(e).lineHeight)))""")
        assert len(lines) == 6 and max(lines) <= 2
        assert any(WIDEST in slip.get_attribute("textContent") for slip in slips)
        assert "Nord-Sud" in slips[0].text and "Est-Ouest" in slips[0].text
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    pdf = print_pdf(browser, tmp_path / "slips.pdf")
    info = pdf_info(pdf)
    assert re.search(r"Pages:\s+2\b", info), info  # 3 tables: two slips, then one
    width, height = map(float, re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info).groups())
    assert abs(width - 595.3) < 1 and abs(height - 841.9) < 1  # A4


# -- without a browser ----------------------------------------------------------------

def test_admin_page_is_closed_without_a_password(tmp_path):
    from host_tools.club.web import create_app
    db = tmp_path / "closed.db"
    make_event(db)
    client = create_app(str(db)).test_client()
    answer = client.get("/admin/login")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 503 and "aucun mot de passe" in page
    assert str(db) not in page and os.path.basename(str(db)) not in page  # no file path for visitors
    assert client.post("/admin/login", data={"password": ""}).status_code == 503
    assert client.get("/admin").status_code == 302


def test_a_form_without_its_token_is_refused(tmp_path):
    from host_tools.club.service import Club
    from host_tools.club.web import create_app
    db = tmp_path / "token.db"
    club(db, "new", "--name", "Jeudi", "--rounds", 3, "--deals", 12, "--rules", "classic2000")
    club(db, "team", "add", "A", "B", "C", "D")
    with Club(str(db)) as c:
        c.set_password(PASSWORD)
    client = create_app(str(db)).test_client()
    assert client.post("/admin/login", data={"password": PASSWORD}).status_code == 302
    assert client.post("/admin/draw", data={}).status_code == 403
    assert client.get("/state.json").get_json()["rounds"] == []
    token = re.search(r'name="token" value="([0-9a-f]+)"', client.get("/admin").get_data(as_text=True)).group(1)
    assert client.post("/admin/draw", data={"token": token}).status_code == 302
    assert client.get("/state.json").get_json()["rounds"][0]["round"] == 1


def signed_in_client(db):
    from host_tools.club.service import Club
    from host_tools.club.web import create_app
    with Club(str(db), create=True) as c:
        c.set_password(PASSWORD)
    client = create_app(str(db)).test_client()
    assert client.post("/admin/login", data={"password": PASSWORD}).status_code == 302
    token = re.search(r'name="token" value="([0-9a-f]+)"', client.get("/admin").get_data(as_text=True)).group(1)
    return client, token


def test_the_admin_page_creates_the_event_adds_teams_and_draws(tmp_path):
    db = tmp_path / "fresh.db"
    client, token = signed_in_client(db)
    assert b'id="new-event"' in client.get("/admin").data
    bad = client.post("/admin/new", data={"token": token, "name": "Samedi", "rounds": "x", "length": "deals",
                                          "length_value": "12", "preset": "federation"})
    assert bad.status_code == 400 and "« Manches » doit être un nombre entier" in bad.get_data(as_text=True)
    assert 'value="Samedi"' in bad.get_data(as_text=True)  # what was typed stays
    assert client.get("/state.json").get_json() == {"event": None}
    made = client.post("/admin/new", data={"token": token, "name": "Samedi", "rounds": "3", "length": "deals",
                                           "length_value": "15", "preset": "classic2000", "options": "pass_counts=false",
                                           "ranking": "matches", "seed": "9", "bye_score": "1000",
                                           "mp_win": "3", "mp_draw": "1", "mp_loss": "0", "bye_match_points": "2"})
    assert made.status_code == 302
    client.post("/admin/teams", data={"token": token, "names": "Les As\nCapot\n\nAtout\n"})
    client.post("/admin/draw", data={"token": token})
    state = client.get("/state.json").get_json()
    assert state["event"]["rules"] == {"preset": "classic2000", "options": {"deals": 15, "pass_counts": False}}
    assert (state["event"]["ranking"], state["event"]["bye_score"], state["event"]["seed"]) == ("matches", 1000, 9)
    assert (state["event"]["match_points"], state["event"]["bye_match_points"]) == ([3, 1, 0], 2)
    assert [t["name"] for t in state["teams"]] == ["Les As", "Capot", "Atout"]
    assert len(state["rounds"][0]["tables"]) == 1 and len(state["rounds"][0]["bye"]) == 1
