"""Export (host_tools/device/export.py) from simulator flash images made by the key planner.

One image holds several games of all four presets, played on the real firmware
in the simulator (host_tools/sim/) from corpus records turned into presses by
host_tools/calculator/keys.py, with an undo and an edit. The export must give, per game,
the totals the calculator (host_tools/calculator/score.py) gives for the same records;
the CSV must parse; the HTML must open in headless Chromium with every game's
chart drawn; a damaged archive is reported and skipped; the image is never
changed.
"""
import csv
import hashlib
import html
import json
import os
import shutil
import subprocess
import sys

import pytest

import ui_corpus
from coinche.rule_options import PRESET_NAMES
from coinche.rules import Rules
from conftest import ROOT
from host_tools.device import export as exporter
from host_tools.calculator import keys as planner
from host_tools.sim import Sim
from test_ui_games import _history_to, plan_edit
from screens.menu import Menu
from screens import settings as settings_screens
from render.languages import read_file as read_language

DOCS_SHOT = os.path.join(ROOT, "docs", "screenshots", "report.png")


def _menu(item):
    """From home: open the menu and pick `item`."""
    return ["ok"] + ["down"] * Menu.ITEMS.index(item) + ["ok"]


def _next_preset(over):
    """Settings > preset > the next one (UP), saved; back where we came from."""
    into = ["down"] if over else _menu("m_settings")
    return into + ["down"] * settings_screens.Settings.ITEMS.index("s_preset") + ["ok", "up", "ok", "back"]


def _names_from_settings():
    """On the settings list: Teams > NS > the first name offered (Nous), EW > the second (Eux); back on
    the settings list, its first row selected."""
    at = settings_screens.Settings.ITEMS.index("s_names")
    return ["down"] * at + ["ok", "ok", "up", "ok", "down", "ok", "up", "up", "ok", "back"] + ["up"] * at


def _new_game(over):
    return ["ok"] if over else _menu("m_new") + ["ok"]


def _calculator(preset, options, records):
    """Totals after each deal from the calculator, run as a user runs it."""
    args = [sys.executable, "-m", "host_tools.score", "--rules", preset]
    for k, v in options.items():
        args += ["--set", "%s=%s" % (k, json.dumps(v))]
    proc = subprocess.run(args, input="".join(json.dumps(r) + "\n" for r in records), capture_output=True,
                          text=True, cwd=ROOT, check=True)
    return [json.loads(line)["total"] for line in proc.stdout.splitlines()]


def build_image(path):
    """Play the games into a flash image; returns [(preset, options, records as intended)] in order."""
    played = []
    games = [ui_corpus.games(ui_corpus.SEED_TUNING, 1, [ui_corpus.CONFIGS[i]])[0] for i in range(4)]
    with Sim(rules=PRESET_NAMES[0], flash=path) as sim:
        # the teams get names before the first game: every game keeps them
        sim.run_script(_menu("m_settings") + _names_from_settings() + ["back", "back"])  # settings, then the menu
        assert sim.current().screen == "home"
        for n, (_label, preset, options, records) in enumerate(games):
            rules = Rules(preset, options)
            assert sim.state()["rules"]["preset"] == preset
            want = list(records)
            if n == 0:
                # four deals, a fifth undone, deal 2 edited, then the rest of the game
                sim.run_script(planner.plan(rules, records[:4])[0])
                sim.run_script(_plan_after(rules, records[:4], records[4]))
                sim.run_script(["back", "ok"])  # home BACK, OK: undo deal 5
                new = _edit_for(rules, records, 1)
                sim.run_script(_history_to(4, 1) + plan_edit(rules, records[1], new))
                want[1] = new
                sim.run_script(["back"])  # the edit returned to the history: home
                for i in range(4, len(records)):
                    sim.run_script(_plan_after(rules, want[:i], records[i]))
            else:
                sim.run_script(planner.plan(rules, records)[0])
            st = sim.state()
            assert st["over"] and st["screen"] == "gameover", (preset, st["screen"])
            played.append((preset, options, want))
            if n < 3:
                sim.run_script(_next_preset(True) + _new_game(True))
        # the evening's last game is still being played: the current game
        _label, preset, options, records = ui_corpus.games(ui_corpus.SEED_TUNING + 1, 1, [ui_corpus.CONFIGS[0]])[0]
        sim.run_script(_next_preset(True) + _new_game(True))  # after coinche1001 comes classic2000 again
        rules = Rules(preset, options)
        sim.run_script(planner.plan(rules, records[:3])[0])
        st = sim.state()
        assert st["rules"]["preset"] == preset and len(st["deals"]) == 3 and not st["over"]
        played.append((preset, options, records[:3]))
    return played


def _edit_for(rules, records, i):
    """A replacement for deal i (coinched if possible) that still lets the game end at its last deal."""
    from coinche.game import Game, GameError

    for coinche in (2, 1, 0):
        for points in (120, 100, 90, 82, 60, 40):
            for taker in ("EW", "NS"):
                new = {"taker": taker, "bid": 80, "trump": "suit", "coinche": coinche, "points": points}
                if new == records[i]:
                    continue
                try:
                    if Game(rules, records[:i] + [new] + records[i + 1:]).over:
                        return new
                except GameError:
                    pass
    raise AssertionError("no edit keeps the game's length")


def _plan_after(rules, before, rec):
    """Presses for one more deal after `before` (the planner follows the device's defaults)."""
    from coinche.game import Game

    return planner.plan_deal(rules, Game(rules, before), rec)


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    d = tmp_path_factory.mktemp("evening")
    img = str(d / "sim-flash.img")
    played = build_image(img)
    return img, played


def _digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


@pytest.fixture(scope="module")
def exported(evening, tmp_path_factory):
    img, played = evening
    out = str(tmp_path_factory.mktemp("out"))
    before = _digest(img)
    env = dict(os.environ, SOURCE_DATE_EPOCH="1796068800")  # the date shown in docs/'s picture
    proc = subprocess.run([sys.executable, "-m", "host_tools.device.export", "--flash", img, "--out", out],
                          capture_output=True, text=True, cwd=ROOT, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr
    assert _digest(img) == before  # the image is only read
    return out, played, proc


def test_json_totals_equal_the_calculator(exported):
    out, played, proc = exported
    with open(os.path.join(out, "games.json"), encoding="utf-8") as f:
        doc = json.load(f)
    assert doc["problems"] == []
    games = doc["games"]
    assert [g["rules"]["preset"] for g in games] == [p for p, _, _ in played]
    assert [g["current"] for g in games] == [False] * 4 + [True]
    for g, (preset, options, records) in zip(games, played):
        want = _calculator(preset, options, records)
        assert [d["total"] for d in g["deals"]] == want
        assert g["total"] == want[-1]
        assert g["teams"] == {"NS": "Nous", "EW": "Eux"}
        assert g["first_dealer"] == "N"
        assert [d["dealer"] for d in g["deals"][:5]] == ["N", "W", "S", "E", "N"][: len(g["deals"])]
        rules = Rules(preset, options)
        assert [d["record"] for d in g["deals"]] == [planner.canonical(rules, r) for r in records]
    assert games[0]["deals"][1]["record"] != planner.canonical(Rules(played[0][0]), ui_corpus.games(ui_corpus.SEED_TUNING, 1, [ui_corpus.CONFIGS[0]])[0][3][1])
    assert all(g["over"] and g["winner"] in ("NS", "EW") for g in games[:4])
    ns = doc["statistics"]["NS"]
    assert ns["deals"] == sum(len(g["deals"]) for g in games)
    assert ns["games"] == 4 and ns["won"] + doc["statistics"]["EW"]["won"] == 4
    assert "5 games" in proc.stdout


def test_csv_parses_one_row_per_deal(exported):
    out, played, _ = exported
    with open(os.path.join(out, "deals.csv"), encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == sum(len(r) for _, _, r in played)
    last = {}
    for row in rows:
        last[row["game"]] = row
    for i, (preset, options, records) in enumerate(played):
        want = _calculator(preset, options, records)[-1]
        row = last[str(i + 1)]
        assert (int(row["total_NS"]), int(row["total_EW"])) == (want["NS"], want["EW"])
        assert row["preset"] == preset and row["deal"] == str(len(records))
    assert {r["made"] for r in rows} <= {"yes", "no", ""}


def test_html_is_self_contained(exported):
    out, played, _ = exported
    with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
        page = f.read()
    assert page.count("<svg") == len(played)
    assert "<script" not in page.lower()
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in page


def test_report_names_the_melds_in_the_scoreboards_language(exported):
    """The device's language (French by default) names every meld, belote and the best-melds
    choice in the report, never the record's codes."""
    out, _, _ = exported
    texts = read_language("fr")
    with open(os.path.join(out, "games.json"), encoding="utf-8") as f:
        doc = json.load(f)
    with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
        page = f.read()
    codes = {m for g in doc["games"] for d in g["deals"] for ms in (d["record"].get("melds") or {}).values() for m in ms}
    assert codes, "the evening holds no meld"
    for code in codes:
        assert html.escape(texts[code]) in page and ", %s" % code not in page and ": %s" % code not in page, code
    assert all(g["language"] == "fr" for g in doc["games"])
    if any(d["record"].get("melds_to") for g in doc["games"] for d in g["deals"]):
        assert texts["t_melds_to"].rstrip("?").strip() + ":" in page


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _run_chromium(args, tmp):
    cmd = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--user-data-dir=" + str(tmp / "profile")] + args
    return subprocess.run(cmd, capture_output=True, timeout=180)


@pytest.mark.skipif(_chromium() is None, reason="chromium is not installed (Debian package `chromium`)")
def test_report_opens_in_chromium_with_every_chart_drawn(exported, tmp_path):
    from PIL import Image

    out, played, _ = exported
    page = "file://" + os.path.join(out, "report.html")
    dom = _run_chromium(["--dump-dom", page], tmp_path)
    assert dom.returncode == 0, dom.stderr[-2000:]
    text = dom.stdout.decode()
    assert text.count('class="chart"') == len(played)  # parsed by the browser, each chart an element
    shot = tmp_path / "report.png"
    height = 1400 * len(played) + 800
    run = _run_chromium(["--hide-scrollbars", "--window-size=1000,%d" % height, "--screenshot=" + str(shot), page],
                        tmp_path)
    assert run.returncode == 0 and shot.exists(), run.stderr[-2000:]
    img = Image.open(shot).convert("RGB")
    w, h = img.size
    px = img.load()
    def rgb(hexa):
        return tuple(int(hexa[i:i + 2], 16) for i in (1, 3, 5))

    # the plot areas: runs of rows holding a wide stretch of the plot colour
    plot = rgb(exporter.PLOT_FILL)
    rows = [y for y in range(h) if sum(1 for x in range(0, w, 4) if px[x, y] == plot) >= 40]
    boxes = []
    for y in rows:
        if boxes and y == boxes[-1][1] + 1:
            boxes[-1][1] = y
        elif not boxes or y - boxes[-1][1] > 30:
            boxes.append([y, y])
        else:  # a grid line crossed the area
            boxes[-1][1] = y
    assert len(boxes) == len(played), boxes
    for top, bottom in boxes:
        assert bottom - top > 150  # the whole plot area is there
        for t in exporter.TEAMS:  # both teams' lines drawn inside it, in their colours
            colour = rgb(exporter.COLOURS[t])
            hit = sum(1 for y in range(top, bottom + 1, 2) for x in range(0, w, 2) if px[x, y] == colour)
            assert hit >= 20, (t, top, hit)
    # the first game goes to docs/ for the README (when missing, or asked for with UPDATE_DOCS=1:
    # fonts differ between machines, so an ordinary run leaves the committed picture alone)
    top = boxes[1][0] - 200 if len(boxes) > 1 else min(h, 1400)
    picture = img.crop((0, 0, w, min(h, top)))
    picture.save(str(tmp_path / "report-top.png"))
    if os.environ.get("UPDATE_DOCS") == "1" or not os.path.exists(DOCS_SHOT):
        os.makedirs(os.path.dirname(DOCS_SHOT), exist_ok=True)
        picture.save(DOCS_SHOT, optimize=True)


def test_damaged_archive_is_reported_and_skipped(evening, tmp_path):
    img, played = evening
    bad = str(tmp_path / "damaged.img")
    shutil.copyfile(img, bad)
    with open(bad, "r+b") as f:
        data = bytearray(f.read())
        head = b'"t":"arc","rules":{"preset":"classic2000"'  # game 1's archive header
        hits = [i for i in range(len(data)) if data.startswith(head, i)] if head in data else []
        assert hits, "the first game's archive header is on the image"
        for at in hits:
            end = data.index(b"\n", at)
            data[end + 40] ^= 0x01  # a bit flipped in its first deal line
        f.seek(0)
        f.write(data)
    before = _digest(bad)
    out = str(tmp_path / "out")
    proc = subprocess.run([sys.executable, "-m", "host_tools.device.export", "--flash", bad, "--out", out],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert _digest(bad) == before
    assert "archived game 1" in proc.stderr
    with open(os.path.join(out, "games.json"), encoding="utf-8") as f:
        doc = json.load(f)
    assert any("archived game 1" in p for p in doc["problems"])
    # the other games are all there, unchanged
    presets = [g["rules"]["preset"] for g in doc["games"]]
    assert presets[-4:] == [p for p, _, _ in played[1:]]
    with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
        assert "archived game 1" in f.read()


IMAGE_SIZE = exporter.FLASH_BLOCK_SIZE * exporter.FLASH_BLOCK_COUNT


def _refused(tmp_path, flash):
    """Export --flash flash as a user runs it: refused with status 2, one message naming the file,
    nothing written to --out. Returns the message."""
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "host_tools.device.export", "--flash", str(flash), "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and str(flash) in lines[0] and "Traceback" not in proc.stderr, proc.stderr
    assert not out.exists()
    return lines[0]


def test_garbage_image_is_refused(tmp_path):
    bad = tmp_path / "garbage.img"
    bad.write_bytes(bytes(range(256)) * (IMAGE_SIZE // 256))
    assert "no littlefs superblock" in _refused(tmp_path, bad)
    assert bad.read_bytes() == bytes(range(256)) * (IMAGE_SIZE // 256)


def test_text_file_is_refused(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("NS 100 coeur, fait\n", encoding="utf-8")
    assert "it is 19 bytes, a flash image is %d" % IMAGE_SIZE in _refused(tmp_path, text)


def test_empty_file_is_refused(tmp_path):
    empty = tmp_path / "empty.img"
    empty.write_bytes(b"")
    assert "it is empty" in _refused(tmp_path, empty)


def test_truncated_image_is_refused(evening, tmp_path):
    cut = tmp_path / "cut.img"
    with open(evening[0], "rb") as f:
        cut.write_bytes(f.read(IMAGE_SIZE // 2))
    assert "it is %d bytes" % (IMAGE_SIZE // 2) in _refused(tmp_path, cut)


def test_blank_image_is_refused(tmp_path):
    blank = tmp_path / "blank.img"
    blank.write_bytes(bytes(IMAGE_SIZE))
    assert "blank" in _refused(tmp_path, blank)


def test_directory_is_refused(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    assert "directory" in _refused(tmp_path, folder)


def test_missing_image_is_a_clear_error(tmp_path):
    assert "no such file" in _refused(tmp_path, tmp_path / "nope.img")


def _fake_mpremote(device, listing, calls):
    """mpremote as export.py runs it (exporter.run_mpremote), on a device whose files are the
    folder device: `fs ls :/` answers listing, `fs cp -r :/NAME DEST` copies device/NAME;
    every call's arguments are added to calls."""
    def fake(port, *args, check=True):
        calls.append(args)
        out = ""
        if args[:2] == ("fs", "ls"):
            out = listing
        elif args[:3] == ("fs", "cp", "-r"):
            shutil.copytree(str(device / args[3][2:]), os.path.join(args[4], args[3][2:]))
        return subprocess.CompletedProcess(args, 0, out, "")

    return fake


def test_device_export_reads_copied_files(evening, tmp_path, monkeypatch):
    """--port: the journal files are copied off the device (fs ls, fs cp -r, then a reset) and read here.

    mpremote is replaced by a fake that serves the files of the simulator image, extracted by
    the unix port; the calls it gets are the whole conversation with the device."""
    from conftest import run_mp

    img, played = evening
    device = tmp_path / "device"
    device.mkdir()
    run_mp("import flash_image, os\nflash_image.mount_flash(%r)\nos.mkdir(%r)\n"
           "for n in os.listdir(flash_image.STORAGE):\n"
           "    open(%r + '/' + n, 'wb').write(open(flash_image.STORAGE + '/' + n, 'rb').read())\n"
           % (shutil.copy(img, str(tmp_path / "copy.img")), str(device / "data"), str(device / "data")))
    calls = []
    monkeypatch.setattr(exporter, "run_mpremote", _fake_mpremote(device, "ls :/\n           0 data/\n         120 main.py\n",
                                                       calls))
    games, problems = exporter.collect(exporter.read_device("/dev/ttyACM7"))
    assert problems == []
    assert [g["total"] for g in games] == [_calculator(p, o, r)[-1] for p, o, r in played]
    assert calls == [("fs", "ls", ":/"), ("fs", "cp", "-r", ":/data", calls[1][4]), ("reset",)]


def test_device_export_reads_both_journal_copies(evening, tmp_path, monkeypatch):
    """--port on a device with the two journal copies: both are copied off and read together, as the
    device reads them, so a copy that is behind (here: emptied) loses nothing in the export."""
    from conftest import run_mp

    img, played = evening
    device = tmp_path / "device"
    device.mkdir()
    run_mp("import flash_image, os\nflash_image.mount_flash(%r)\n"
           "for root, name in zip(flash_image.ROOTS, ('data_a', 'data_b')):\n"
           "    os.mkdir(%r + '/' + name)\n"
           "    for n in os.listdir(root):\n"
           "        open(%r + '/' + name + '/' + n, 'wb').write(open(root + '/' + n, 'rb').read())\n"
           % (shutil.copy(img, str(tmp_path / "copy.img")), str(device), str(device)))
    for name in os.listdir(str(device / "data_a")):  # copy A is behind: it lost every file
        os.remove(str(device / "data_a" / name))
    listing = "ls :/\n           0 data_a/\n           0 data_b/\n         120 main.py\n"
    monkeypatch.setattr(exporter, "run_mpremote", _fake_mpremote(device, listing, []))
    games, problems = exporter.collect(exporter.read_device("/dev/ttyACM7"))
    assert [g["total"] for g in games] == [_calculator(p, o, r)[-1] for p, o, r in played]
