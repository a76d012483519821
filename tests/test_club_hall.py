"""The concours in a hall, in Debian's headless Chromium: 40 teams on the projector at
1920 x 1080 and 1280 x 720 (full names, big rows, a page turn only for what does not
fit), the projector riding out a restart of `serve`, the phone page a team searches for
its own line, the draw by name for the door and the final ranking with its prizes.

CLUB_SCREENSHOTS=DIR saves the pictures docs/screenshots/club/ shows."""
import os
import random
import re
import subprocess

import pytest

from club_browser import Server, chromium, club, need_chromium, pdf_info, print_pdf, screen, shown, sign_in, text, wait_for

REFRESH = 2
SHOTS = os.environ.get("CLUB_SCREENSHOTS")
NAMES = ["Les As de Pique", "Belote & Co", "Capot", "Dix de der", "Surcoinche", "Atout Cœur",
         "Les Rebelles du Carreau", "Paul et Jacqueline Dumont-Lefèvre", "Les Inséparables", "Tonton et Mémé",
         "La Belote des Sapeurs-Pompiers", "Les Amis du Mardi", "Valet de Nonante", "Marie-Thérèse et Jean-Baptiste",
         "Les Cousins de Lons", "Club de Dole 1", "Club de Dole 2", "Pique Nique", "Les Sans-Atout", "Trèfle à Quatre",
         "Les Coincheurs Fous", "Annie et Bernard", "Les Vétérans de l'Amicale Laïque", "Le Roi et la Dame",
         "Chez Germaine", "Les Joyeux Retraités", "Tout Atout", "Les Manilles", "Dédé et Lulu", "La Générale",
         "Les Bons Copains", "Carré de Valets", "Les Rois du Capot", "Famille Martin-Garcia",
         "Les Tricheurs (pour rire)", "Les Gones", "Coinche Party", "Les Chouettes", "Le Neuf d'Atout",
         "Bellevue-Saint-Claude Pétanque et Belote"]


def shot(browser, name):
    """The page as a small PNG (a palette of 64 colours: the docs keep each under 300 KB)."""
    if SHOTS:
        import io
        from PIL import Image
        os.makedirs(SHOTS, exist_ok=True)
        picture = Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB")
        picture.quantize(64).save(os.path.join(SHOTS, name), optimize=True)


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    """40 teams, matches ranking; round 1 complete, round 2 drawn with 13 of its 20 tables in."""
    need_chromium()
    db = tmp_path_factory.mktemp("hall") / "hall.db"
    club(db, "new", "--name", "Grand concours de la Saint-Martin", "--rounds", 4, "--deals", 12, "--rules",
         "classic2000", "--seed", 7, "--ranking", "matches")
    club(db, "team", "add", *NAMES)
    scores = random.Random(3)
    for number in (1, 2):
        drawn = club(db, "draw")
        for t in drawn["tables"][:20 if number == 1 else 13]:
            club(db, "result", "--round", number, "--table", t["table"], "--ns", scores.randrange(60, 200) * 10,
                 "--ew", scores.randrange(60, 200) * 10)
    running = Server(db, REFRESH)
    driver = chromium(tmp_path_factory.mktemp("chromium"), 1920, 1080)
    yield {"db": db, "server": running, "browser": driver}
    driver.quit()
    running.stop()


FIT = """return {
  pages: +document.body.dataset.pages,
  page: +document.body.dataset.page,
  font: Math.min(...[...document.querySelectorAll('.row.standing, .row.table-row')].map(
      r => parseFloat(getComputedStyle(r).fontSize))),
  cut: [...document.querySelectorAll('.name, .num')].filter(e => e.scrollWidth > e.clientWidth + 1).length,
  names: [...document.querySelectorAll('.row.standing .name')].map(e => e.textContent),
  onScreen: [...document.querySelectorAll('.row.standing')].filter(e => {
      const r = e.getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
  }).length,
  tablesOnScreen: [...document.querySelectorAll('.row.table-row')].filter(e => {
      const r = e.getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
  }).length,
  scroll: document.documentElement.scrollHeight,
}"""


@pytest.mark.parametrize("width, height, least", [(1920, 1080, 32), (1280, 720, 22)])
def test_forty_teams_full_names_in_big_rows(hall, width, height, least):
    browser = hall["browser"]
    screen(browser, width, height)
    browser.get(hall["server"].base + "/projector")
    fit = wait_for(lambda: browser.execute_script(FIT))
    assert fit["font"] >= least
    assert fit["cut"] == 0 and fit["scroll"] <= height
    for name in NAMES:  # every name whole, with its team number
        assert any(shown_name.endswith(" " + name) for shown_name in fit["names"]), name
    assert fit["onScreen"] == 40  # the 40 lines of the standings on one screen
    assert fit["pages"] == 2  # the round's 20 tables do not fit beside them: they are the second page
    if width == 1920:
        shot(browser, "projector-40-teams-1920x1080.png")
    wait_for(lambda: browser.execute_script("return document.body.dataset.page") == "2", REFRESH + 4)
    turned = browser.execute_script(FIT)
    if width == 1920:
        shot(browser, "projector-40-teams-round-page.png")
    assert turned["tablesOnScreen"] == 20 and turned["onScreen"] == 0
    title = text(browser, "#tables h2")
    assert "provisoire" in title and "13/20" in title  # round 2 in progress, beside the standings after round 1


def test_the_projector_rides_out_a_restart_of_serve(hall, tmp_path):
    """A server that stops shows a banner, keeps the last figures, and is followed again
    when it is back on the same address, without anyone touching the browser."""
    browser = hall["browser"]
    screen(browser, 1280, 720)
    db = tmp_path / "restart.db"
    club(db, "new", "--name", "Concours du vendredi", "--rounds", 3, "--deals", 12, "--rules", "classic2000")
    club(db, "team", "add", "Nord", "Sud", "Est", "Ouest")
    first = Server(db, REFRESH)
    port = first.port
    browser.get(first.base + "/projector")
    browser.execute_script("window.sameDocument = true")
    assert wait_for(lambda: text(browser, "#event-name")) == "Concours du vendredi"
    first.stop()
    wait_for(lambda: browser.find_element("id", "offline").is_displayed(), REFRESH + 10)
    assert "Nord" in text(browser, "#standings")  # the last figures stay up
    club(db, "draw")
    second = Server(db, REFRESH, port=port)
    try:
        wait_for(lambda: not browser.find_element("id", "offline").is_displayed(), REFRESH + 10)
        wait_for(lambda: "Manche 1" in text(browser, "#tables h2"), REFRESH + 5)
        assert browser.execute_script("return window.sameDocument") is True
    finally:
        second.stop()


def test_the_phone_page_finds_a_team_by_name_or_number(hall):
    from selenium.webdriver.common.by import By
    browser = hall["browser"]
    screen(browser, 390, 844, mobile=True)
    try:
        browser.get(hall["server"].base + "/phone")
        wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#all li")) == 40)
        field = browser.find_element(By.ID, "find")
        field.send_keys("jacqueline")
        card = shown(browser, "#mine .card")
        assert "Paul et Jacqueline Dumont-Lefèvre" in card and "Manche 2" in card
        assert re.search(r"rang \d+ · \d+ points de match", card)
        shot(browser, "phone-find-a-team.png")
        field.clear()
        field.send_keys("14")
        assert "Marie-Thérèse et Jean-Baptiste" in shown(browser, "#mine .card")
        field.clear()
        field.send_keys("personne")
        assert shown(browser, "#mine") == "Aucune équipe ne correspond"
        assert not browser.find_elements(By.TAG_NAME, "form")  # read-only
    finally:
        screen(browser, 1920, 1080)


def test_the_projector_shows_a_qr_code_to_the_phone_page(hall):
    browser = hall["browser"]
    browser.get(hall["server"].base + "/projector")
    svg = browser.execute_script("const s = document.querySelector('#qr svg'); return s && s.outerHTML")
    from host_tools.club.web import qr_svg
    assert svg is not None and "qrline" in svg
    def modules(markup):
        return re.search(r'class="qrline"[^>]*\bd="([^"]+)"', markup).group(1)
    assert modules(qr_svg(hall["server"].base + "/phone")) == modules(svg)  # the phone page's address
    # drawn whole: its view box scaled into a square of the header, not cropped
    box = browser.execute_script("""const s = document.querySelector('#qr svg'), r = s.getBoundingClientRect();
        return [s.getAttribute('viewBox'), r.width, r.height, r.top >= 0 && r.bottom <= innerHeight]""")
    assert box[0] and box[1] == box[2] >= 80 and box[3]


def test_door_list_and_slips_for_the_hall(hall, tmp_path):
    from selenium.webdriver.common.by import By
    browser = hall["browser"]
    screen(browser, 1280, 900)
    sign_in(browser, hall["server"].base)
    shown(browser, "#prizes")
    browser.get(hall["server"].base + "/admin/door/2")
    lines = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#door li")]
    assert len(lines) == 40
    assert lines[0].startswith("Annie et Bernard") and "table" in lines[0]
    assert lines == sorted(lines, key=lambda line: line.casefold().replace("é", "e").replace("è", "e"))
    browser.get(hall["server"].base + "/admin/slips/2")
    pdf = print_pdf(browser, tmp_path / "slips.pdf")
    info = pdf_info(pdf)
    assert re.search(r"Pages:\s+10\b", info)  # 20 tables, two a page
    if SHOTS:
        subprocess.run(["pdftoppm", "-png", "-r", "72", "-f", "1", "-l", "1", "-singlefile", str(pdf),
                        os.path.join(SHOTS, "slips-a4-page")], check=True)


def test_final_ranking_with_the_prizes_typed_on_the_admin_page(hall, tmp_path):
    """A 13-team evening played to its end: a late team, a withdrawal with a forfeit; the
    organiser types the prizes, the ranking prints them by place, withdrawn teams last."""
    from selenium.webdriver.common.by import By
    db = tmp_path / "final.db"
    club(db, "new", "--name", "Concours du jeudi", "--rounds", 4, "--deals", 12, "--rules", "federation",
         "--ranking", "matches", "--seed", 1201, "--bye-score", 500)
    club(db, "team", "add", *NAMES[:12])
    scores = random.Random(5)
    for number in (1, 2, 3, 4):
        if number == 2:
            club(db, "team", "add", NAMES[12])
        drawn = club(db, "draw")
        if number == 3:
            club(db, "team", "withdraw", drawn["tables"][-1]["NS"], "--why", "train du retour")
        for t in drawn["tables"]:
            if number == 3 and t is drawn["tables"][-1]:
                continue  # the forfeit: its opponent is credited as for a bye
            club(db, "result", "--round", number, "--table", t["table"], "--ns", scores.randrange(40, 200) * 10,
                 "--ew", scores.randrange(40, 200) * 10)
    running = Server(db, REFRESH)
    browser = hall["browser"]
    screen(browser, 1000, 760)
    try:
        sign_in(browser, running.base)
        field = browser.find_element(By.CSS_SELECTOR, "#prize-list textarea")
        field.send_keys("Un jambon de Luxeuil\nDeux bouteilles de Château-Chalon\nUn comté de 18 mois\n"
                        "Une boîte de chocolats")
        browser.find_element(By.CSS_SELECTOR, "#prize-list button").click()
        assert shown(browser, "#message") == "Lots enregistrés"
        browser.get(running.base + "/admin/ranking")
        assert "Classement final" in text(browser, "h1")
        rows = browser.find_elements(By.CSS_SELECTOR, "#ranking tbody tr")
        assert len(rows) == 13
        assert rows[0].text.endswith("Un jambon de Luxeuil") and rows[3].text.endswith("Une boîte de chocolats")
        assert not rows[4].find_element(By.CSS_SELECTOR, ".prize").text
        assert "retirée" in rows[-1].text and not rows[-1].find_element(By.CSS_SELECTOR, ".prize").text
        shot(browser, "final-ranking-with-prizes.png")
        pdf = print_pdf(browser, tmp_path / "ranking.pdf")
        info = pdf_info(pdf)
        width, height = map(float, re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info).groups())
        assert abs(width - 595.3) < 1 and abs(height - 841.9) < 1
    finally:
        running.stop()


def test_the_projector_says_when_the_link_to_the_tables_is_down(hall, tmp_path):
    """serve with the tables' broker where none answers: the projector says so."""
    import socket
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    closed = probe.getsockname()[1]
    probe.close()  # nothing listens there now
    db = tmp_path / "link.db"
    club(db, "new", "--name", "Concours relié", "--rounds", 3, "--deals", 12, "--rules", "classic2000")
    club(db, "team", "add", "Nord", "Sud", "Est", "Ouest")
    club(db, "draw")
    running = Server(db, REFRESH, broker="127.0.0.1:%d" % closed)
    browser = hall["browser"]
    try:
        browser.get(running.base + "/projector")
        assert wait_for(lambda: browser.find_element("id", "link-down").is_displayed())
        assert text(browser, "#link-down") == "Liaison avec les tables coupée"
    finally:
        running.stop()
    browser.get(hall["server"].base + "/projector")  # the hall's own server has no link: nothing said
    assert not browser.find_element("id", "link-down").is_displayed()


@pytest.mark.parametrize("deals", [15, 24])
def test_slips_for_longer_rounds_still_two_to_a_page(hall, tmp_path, deals):
    """15 deals: one column of narrower rows; 24: two columns of rows side by side."""
    from selenium.webdriver.common.by import By
    db = tmp_path / "long.db"
    club(db, "new", "--name", "Concours long", "--rounds", 3, "--deals", deals, "--rules", "classic2000")
    club(db, "team", "add", *NAMES[:8])
    club(db, "draw")
    running = Server(db, REFRESH)
    browser = hall["browser"]
    try:
        sign_in(browser, running.base)
        shown(browser, "#draw")
        browser.get(running.base + "/admin/slips/1")
        assert len(browser.find_elements(By.CSS_SELECTOR, "#slip-1 tr.deal")) == deals
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        try:
            mm = 25.4 / 96
            spill = browser.execute_script(
                "return Math.max(...[...document.querySelectorAll('section.slip')].map(s => s.scrollHeight - s.clientHeight))")
            rows = browser.execute_script(
                "return [...document.querySelectorAll('#slip-1 tr.deal')].map(r => r.getBoundingClientRect().height)")
            digits = browser.execute_script(
                "return [...document.querySelectorAll('#slip-1 .digit')].map(d => d.getBoundingClientRect().width)")
        finally:
            browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        assert spill <= 1 and min(rows) * mm >= 3.5 and min(digits) * mm >= 8
        pdf = print_pdf(browser, tmp_path / "slips.pdf")
        assert re.search(r"Pages:\s+2\b", pdf_info(pdf))
    finally:
        running.stop()
