"""The club's pages served by `python -m host_tools.club serve` on 127.0.0.1 and read in
Debian's headless Chromium (through its chromedriver, Selenium): the projector page
(standings, the round's tables, big type, refreshing by itself, nothing from outside)
and the admin page (a wrong password refused, a code entered, a refusal shown, a
correction kept, the printable sheet). Requests without a browser (a closed admin
page, a form without its token) go through Flask's test client."""
import io
import json
import os
import re
import subprocess
import sys
import time

import pytest

from conftest import ROOT
from coinche.result_code import encode, grouped
from host_tools.club.cli import main

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
PASSWORD = "tapis vert 2026"
REFRESH = 2


def club(db, *argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(["--db", str(db)] + [str(a) for a in argv], out, err)
    assert status == 0, err.getvalue()
    return json.loads(out.getvalue())


def make_event(db):
    club(db, "new", "--name", "Concours du jeudi", "--rounds", 3, "--deals", 12, "--rules", "classic2000", "--seed", 4)
    club(db, "team", "add", "Les As", "Belote & Co", "Capot", "Dix de der", "Surcoinche", "Atout")
    return club(db, "draw")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        pytest.skip("Debian's chromium and chromium-driver are not installed (%s, %s)" % (CHROMIUM, CHROMEDRIVER))
    folder = tmp_path_factory.mktemp("pages")
    db = folder / "event.db"
    drawn = make_event(db)
    env = dict(os.environ, CLUB_PASSWORD=PASSWORD)
    proc = subprocess.Popen([sys.executable, "-m", "host_tools.club", "--db", str(db), "serve", "--host", "127.0.0.1",
                             "--port", "0", "--refresh", str(REFRESH)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    base = None
    deadline = time.monotonic() + 30
    while base is None and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        found = re.match(r"projector: (http://127\.0\.0\.1:\d+)/projector", line)
        if found:
            base = found.group(1)
    if base is None:
        proc.kill()
        pytest.fail("the server did not start: %s" % proc.stderr.read())
    yield {"base": base, "db": db, "drawn": drawn}
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser(server, tmp_path_factory):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1280,720", "--user-data-dir=%s" % tmp_path_factory.mktemp("chromium")):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.implicitly_wait(0)
    yield driver
    driver.quit()


def wait_for(condition, seconds=10):
    """condition()'s first true value; a page replaced under it (a reload, a form sent)
    counts as not yet."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = condition()
        except (NoSuchElementException, StaleElementReferenceException):
            value = None
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("not within %d s" % seconds)


def text(browser, css):
    from selenium.webdriver.common.by import By
    return browser.find_element(By.CSS_SELECTOR, css).text


def shown(browser, css):
    """The text of css once the page shows it (after a form was sent)."""
    return wait_for(lambda: text(browser, css))


def test_projector_shows_the_round_and_the_standings(server, browser):
    from selenium.webdriver.common.by import By
    browser.get(server["base"] + "/projector")
    assert text(browser, "#event-name") == "Concours du jeudi"
    rows = browser.find_elements(By.CSS_SELECTOR, "#tables tr.table-row")
    assert len(rows) == 3
    first = server["drawn"]["tables"][0]
    assert rows[0].text.split()[0] == "1" and str(first["NS"]) in rows[0].text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#standings tr.standing")) == 6
    assert "Belote & Co" in text(browser, "#standings")


def test_projector_type_is_big_fits_the_screen_and_nothing_comes_from_outside(server, browser):
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False})
    try:
        browser.get(server["base"] + "/projector")
        assert browser.execute_script("return [innerWidth, innerHeight]") == [1280, 720]
        size = browser.execute_script(
            "return parseFloat(getComputedStyle(document.querySelector('#tables td')).fontSize)")
        assert size >= 24  # on a 1280 x 720 projector; it grows with the screen
        heading = browser.execute_script("return parseFloat(getComputedStyle(document.querySelector('h1')).fontSize)")
        assert heading >= 40
        # one screen, no scrolling; no figure wider than its cell
        assert browser.execute_script("return document.documentElement.scrollHeight") <= 720
        assert browser.execute_script(
            "return [...document.querySelectorAll('td.num')].filter(c => c.scrollWidth > c.clientWidth).length") == 0
        urls = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        assert urls and all(u.startswith(server["base"]) for u in urls)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_projector_refreshes_by_itself(server, browser):
    browser.get(server["base"] + "/projector")
    table = server["drawn"]["tables"][2]
    code = encode(1, 3, 1870, 1450, table["NS"], table["EW"])
    club(server["db"], "result", "--code", code)
    wait_for(lambda: "1870–1450" in text(browser, "#tables"), REFRESH + 8)


def sign_in(browser, server, password):
    from selenium.webdriver.common.by import By
    browser.get(server["base"] + "/admin/login")
    field = browser.find_element(By.ID, "password")
    field.clear()
    field.send_keys(password)
    browser.find_element(By.ID, "sign-in").click()


def test_a_wrong_password_is_refused(server, browser):
    from selenium.webdriver.common.by import By
    browser.delete_all_cookies()
    sign_in(browser, server, "not the password")
    assert shown(browser, "#wrong") == "Wrong password."
    browser.get(server["base"] + "/admin")
    assert browser.current_url.endswith("/admin/login")
    assert not browser.find_elements(By.ID, "results")


def test_admin_enters_a_code_shows_a_refusal_and_keeps_a_correction(server, browser):
    from selenium.webdriver.common.by import By
    browser.delete_all_cookies()
    sign_in(browser, server, PASSWORD)
    assert "Teams (6)" in shown(browser, "#teams") and browser.current_url.endswith("/admin")
    table = server["drawn"]["tables"][0]
    code = grouped(encode(1, 1, 2230, 1990, table["NS"], table["EW"]))
    for attempt in range(2):
        field = browser.find_element(By.ID, "code")
        field.send_keys(code)
        browser.find_element(By.CSS_SELECTOR, "#by-code button").click()
        if attempt == 0:
            assert shown(browser, "#message") == "table 1 of round 1 stored"
        else:  # the same code again: refused, the page says why
            assert "already has a result" in shown(browser, "#error")
    form = browser.find_element(By.ID, "correct")
    for name, value in (("round", "1"), ("table", "1"), ("ns", "2130"), ("ew", "1990"), ("why", "a deal typed twice")):
        form.find_element(By.NAME, name).send_keys(value)
    form.find_element(By.TAG_NAME, "button").click()
    assert shown(browser, "#message") == "table 1 of round 1 corrected"
    assert "a deal typed twice" in text(browser, "#corrections") and "2230–1990" in text(browser, "#corrections")
    standings = club(server["db"], "standings", "--json", "--after", 1)["ranking"]
    assert {r["team"]: r["points_for"] for r in standings}[table["NS"]] == 2130


def test_printable_round_sheet(server, browser):
    from selenium.webdriver.common.by import By
    browser.get(server["base"] + "/admin/sheet/1")
    rows = browser.find_elements(By.CSS_SELECTOR, "table.sheet tbody tr")
    assert len(rows) == 3 and "Concours du jeudi" in text(browser, "h1")


# -- without a browser ----------------------------------------------------------------

def test_admin_page_is_closed_without_a_password(tmp_path):
    from host_tools.club.web import create_app
    db = tmp_path / "closed.db"
    make_event(db)
    client = create_app(str(db)).test_client()
    answer = client.get("/admin/login")
    assert answer.status_code == 503 and b"no admin password is set" in answer.data
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


def test_projector_shows_long_lists_a_page_at_a_time(tmp_path):
    from host_tools.club.web import PROJECTOR_ROWS, create_app
    db = tmp_path / "long.db"
    club(db, "new", "--name", "Grand concours", "--rounds", 3, "--deals", 12, "--rules", "classic2000")
    club(db, "team", "add", *["Team %d" % n for n in range(1, 2 * PROJECTOR_ROWS + 4)])
    client = create_app(str(db), refresh=5).test_client()
    pages = [client.get("/projector?page=%d" % n).get_data(as_text=True) for n in range(4)]
    rows = [page.count('class="standing"') for page in pages]
    assert rows == [PROJECTOR_ROWS, PROJECTOR_ROWS, 3, PROJECTOR_ROWS]  # then round again
    assert "3/3" in pages[2] and 'content="5; url=/projector?page=3"' in pages[2]
    assert client.get("/projector?page=x").status_code == 200


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
    assert bad.status_code == 400 and b"rounds must be a whole number" in bad.data
    assert client.get("/state.json").get_json() == {"event": None}
    made = client.post("/admin/new", data={"token": token, "name": "Samedi", "rounds": "3", "length": "deals",
                                           "length_value": "15", "preset": "classic2000", "options": "pass_counts=false",
                                           "ranking": "matches", "seed": "9", "bye_score": "1000"})
    assert made.status_code == 302
    client.post("/admin/teams", data={"token": token, "names": "Les As\nCapot\n\nAtout\n"})
    client.post("/admin/draw", data={"token": token})
    state = client.get("/state.json").get_json()
    assert state["event"]["rules"] == {"preset": "classic2000", "options": {"deals": 15, "pass_counts": False}}
    assert (state["event"]["ranking"], state["event"]["bye_score"], state["event"]["seed"]) == ("matches", 1000, 9)
    assert [t["name"] for t in state["teams"]] == ["Les As", "Capot", "Atout"]
    assert len(state["rounds"][0]["tables"]) == 1 and len(state["rounds"][0]["bye"]) == 1
