"""Every screen of the 128x64 firmware, driven on the simulator: goldens and README pictures.

    python3 -m host_tools.sim.gallery --update      rewrite tests/golden/*.png and docs/screenshots/
    python3 -m host_tools.sim.gallery --out DIR     write this run's screens to DIR (nothing else)
    python3 -m host_tools.sim.gallery --check       compare with tests/golden/ (exit status 1 on a change)
    python3 -m host_tools.sim.gallery --guards DIR  the guards and hints on both boards, fr and de
    python3 -m host_tools.sim.gallery --entry DIR   the entry steps and the Concours screen, both boards, fr and de
    python3 -m host_tools.sim.gallery --confirm DIR the round's confirmation and its end on time, both boards, fr and de
    python3 -m host_tools.sim.gallery --clock DIR   home with a timed round's clock (club link), both Pico W boards, fr and de

Each scene is a fresh simulated device (rules preset, virtual clock) and a
key script; `shot NAME` takes a picture of the current frame. A golden is a
4x PNG of the frame (black and white, so a person can look at it) and carries
the screen name in a text chunk; tests/test_ui_screens.py compares the frame
bits with it byte for byte (`frame_bits` / `golden_bits`).
"""
import argparse
import os
import sys

from host_tools.common.frames import Frame, frame_image, mono_pixels
from host_tools.common.paths import DOCS, TESTS
from host_tools.common.script import parse_script
from host_tools.sim.client import Sim

GOLDEN_DIR = os.path.join(TESTS, "golden")
DOCS_DIR = os.path.join(DOCS, "screenshots")
SCALE = 4
README_SHOTS = {"home.png": "home_deals", "history.png": "history", "confirm.png": "confirm",
                "gameover.png": "gameover", "chart.png": "chart", "stats.png": "stats"}  # docs name -> shot (128x64)
PACK_SCALE = 2
PACK_SHOTS = {"pack_home.png": "pack_home", "pack_history.png": "pack_history", "pack_confirm.png": "pack_confirm",
              "pack_gameover.png": "pack_gameover", "pack_chart.png": "pack_chart",
              "pack_stats.png": "pack_stats"}  # docs name -> shot of the Display Pack (240x135)

# settings menu rows: rules, target, options, first dealer, language, contrast, dim
_TO_SETTINGS = "ok down down down ok"  # home > menu > settings
_LANG = {"en": "down down down down ok up ok",  # settings > language: fr -> en, OK (back on settings)
         "de": "down down down down ok up up ok",
         "it": "down down down down ok up up up ok"}
_NEXT_LANGUAGE = "down down down down ok up ok back back"  # settings > language: the next one (fr en de it), menu, home
_TO_CHART = "ok down down down down ok"  # home > menu > chart (screens/table_screens.py Menu.ITEMS)
_CAPOT_FIRST = "up down down ok ok"  # classic2000, NS: 80 -> pass -> capot; check and save: all tricks
_CAPOT_AGAIN = _CAPOT_FIRST  # the contract starts at 80 every time
_NS_100_COINCHED = "up hold:up:430 hold:back:700 ok hold:up:1540 ok"  # NS 100 x2 (held BACK), 100 -> 112 points
_EW_100_BELOTE = "down hold:up:430 ok hold:down:3220 hold:back:700 ok"  # EW 100, 100 -> 67 points, belote


def _s(text):
    return text.split()


def _lang(code):
    return _s(_TO_SETTINGS) + _s(_LANG[code])


def _spell(word):
    """The letter picker's keys that spell word (screens/name_picker.py spell_keys)."""
    from screens.name_picker import spell_keys

    return spell_keys(word)


def guard_words(suffix="", lang_words=()):
    """The guards and the hints in words (federation): the contract step's hint line turning
    (the keys, held OK, held BACK), the card points' (held OK: the other pile), the
    "Capot?" question of 162 card points, the team name's letter picker."""
    return [*lang_words,
            "up", "shot:guard_bid_hold_coinche" + suffix, "wait:2100", "shot:guard_bid_keys" + suffix,
            "wait:2000", "shot:guard_bid_hold_kind" + suffix,
            "ok", "back", "wait:2100", "shot:guard_points_hold" + suffix,
            *(["up"] * 8), "ok", "up", "up", "wait:2100", "shot:guard_confirm_hold" + suffix,
            "wait:2000", "shot:guard_confirm_hold_2" + suffix,
            "ok", "shot:guard_capot" + suffix, "wait:2100", "shot:guard_capot_2" + suffix, "ok", "wait:1600",
            *_s("ok down down down ok up ok"), "shot:guard_teams" + suffix, "hold:ok:700", *_spell("Zoé&Li 2"),
            "shot:guard_names" + suffix]


# (scene, preset, script). Words: up down ok back, hold:KEY:MS, wait:MS, shot:NAME.
# A toast lasts 1.5 s: wait:1600 lets it go before a picture that should not show it.
SCENES = [
    ("classic", "classic2000", [
        "shot:home_fresh",
        "back", "shot:toast_nothing_to_undo", "wait:1600",
        # NS 100 (hold: 2 steps), coinche (held BACK), 112 points (BACK on the check step:
        # the tens, 110; then by one on the check step)
        *_s("up hold:up:430 hold:back:700"), "shot:entry_bid_coinche",
        *_s("ok back up"), "shot:entry_tens_110", *_s("ok up up"), "shot:confirm_units_112",
        "ok", "shot:toast_saved", "wait:1600",
        # EW 100, 67 points, belote (the takers' hold, held BACK for EW, toggles it)
        *_s(_EW_100_BELOTE), "wait:1600",
        "shot:home_deals",
        "ok", "shot:menu",
        "down", "ok", "shot:history",
        "ok", "shot:deal_menu",
        "ok", "shot:entry_taker",
        "back", "back", "back",
        "back", "shot:ask_undo",
        "back", *_s(_TO_SETTINGS), "shot:settings",
        "ok", "up", "shot:setting_preset", "back",  # a preset by its name and description
        "down", "ok", "shot:setting_target",
        "back", "down", "ok", "shot:options",
        "ok", "shot:setting_option",
        "back", "back", "back", "back",
        *_s("ok up up up ok"), "shot:ask_new_game", "ok", "wait:1600",  # the game goes to the archive
        *_s("ok up ok"), "shot:archive",
        "back",
        *_s(_CAPOT_FIRST), *_s(_CAPOT_AGAIN), *_s(_CAPOT_AGAIN), *_s(_CAPOT_AGAIN), "wait:1600",
        "shot:gameover",
        "hold:ok:800", "shot:chart_over",  # held OK on game over: the chart (one past game in the archive)
        "ok", *_s("ok ok"), "shot:stats_all",
        "back", "back",
    ]),
    ("concours", "classic2000", [
        *_s("ok up up ok"), "shot:concours",  # home > menu (it wraps) > Concours, on its start row
        *_s("up up up up ok up"), "shot:concours_round", "ok",  # round 2
        *_s("down down down down ok"), "shot:concours_ask",  # the start says what it starts
        "ok", "wait:1600", "shot:concours_home",
        *(_s(_CAPOT_FIRST) * 12), "wait:1600", "shot:concours_round_over",  # not confirmed: no code
        "hold:ok:700", "shot:concours_round_confirmed",  # the other team held OK: the code
    ]),
    ("chart", "classic2000", [
        *_s(_NS_100_COINCHED), "wait:1600", *_s(_EW_100_BELOTE), "wait:1600",
        *_s(_NS_100_COINCHED), "wait:1600", *_s(_EW_100_BELOTE), "wait:1600",  # the same keys again
        *_s(_TO_CHART), "shot:chart",
        "ok", "shot:stats",
        *_s("down down"), "shot:stats_scrolled",
        "back", "back", "back",
        *_s(_TO_SETTINGS + " " + _NEXT_LANGUAGE), *_s(_TO_CHART), "shot:chart_en", "ok", "shot:stats_en",
        "back", "back", "back",
        *_s(_TO_SETTINGS + " " + _NEXT_LANGUAGE), *_s(_TO_CHART), "shot:chart_de", "ok", "ok", "shot:stats_de",
        "back", "back", "back",
        *_s(_TO_SETTINGS + " " + _NEXT_LANGUAGE), *_s(_TO_CHART), "shot:chart_it", "ok", *_s("ok ok"),
        "shot:stats_it",
    ]),
    ("entry", "federation", [
        "up", "shot:entry_bid",
        "hold:ok:700", "shot:entry_bid_nt", "hold:ok:700", "hold:ok:700",  # type: NT, AT, back to a suit
        "hold:back:700", "shot:entry_bid_coinche_fed",  # held BACK: coinche
        "ok", "back", "shot:entry_tens",  # the check step's BACK: the card points by tens
        "up", "ok", "shot:confirm_coinche",  # 90 card points, the units marked
        "up", "up", "shot:confirm_units",  # UP/DOWN on the check step: by one (92), scored live
        "down", "down",
        "hold:ok:700", "shot:entry_meld_picker",  # NS announces: UP belote, DOWN tierce, OK others
        *_s("down hold:ok:700 down hold:back:700 down"), "shot:confirm_melds",  # NS tierce, tierce; EW tierce
        "hold:ok:700", "ok", "shot:entry_meld_list",  # the others: quinte, carres, best melds?, removals
        "up", "shot:entry_meld_remove", "back", "back",  # one meld can go
        "ok", "shot:entry_melds_to",  # equal best melds: OK asks the table whose count
        "up", "shot:confirm",
        "back", "back", "hold:ok:700", "ok", "back", "shot:entry_tens_nt",
        "back", "down", "down", "shot:entry_bid_generale", "ok", "back", "shot:entry_tens_generale",
        "ok", "up", "shot:toast_no_units", "wait:1600",  # a generale has no card points to set
        "back", "back", "up", "up", "hold:ok:700", "hold:ok:700", "ok", "back",  # back to 80 at a suit
        "hold:ok:700", "shot:toast_pile_defence", "wait:1600", "shot:entry_tens_defence",
        "ok", "shot:confirm_defence",  # the defence's pile: its units on the check step
    ]),
    ("names", "classic2000", [
        # settings > teams (the last row): NS "Nous", EW "Eux"; then a deal: home and history use them
        *_s(_TO_SETTINGS), "up", "ok", "shot:teams",
        "ok", "up", "shot:setting_team_name", "ok",
        "down", "ok", "up", "up", "ok", "shot:teams_named",
        "back", "back", "back", *_s("up ok ok"), "wait:1600", "shot:home_names",
        *_s("ok down ok"), "shot:history_names",
    ]),
    ("long", "coinche1000", [
        *(["ok", "ok", "ok"] * 10),  # ten deals all passed (the menu row, its check screen's save)
        *_s("down hold:ok:700 hold:back:700 hold:back:700 ok hold:down:2180 ok"), "wait:1600",
        "ok", "down", "ok", "shot:history_long",  # EW 80 NT x4, 60 points: scroll bar, two-digit numbers
        "back", "back", "shot:ask_undo_11",
    ]),
    ("errors", "federation", [
        # NS 80 at a suit with a belote, then the contract type changed to no trump
        *_s("up ok hold:ok:700 up back back hold:ok:700 ok"), "shot:confirm_error_belote_nt",
        "ok", "shot:toast_error_not_saved", "wait:1600",
        "hold:ok:700", "ok", "up", "shot:entry_meld_remove_belote",
    ]),
    ("english", "classic2000", [
        *_lang("en"), "wait:1600", "back", "back", "shot:home_fresh_en",
        *_s("down ok hold:down:1620 hold:back:700"), "shot:confirm_en",  # EW 80, 67 card points, a belote
        "hold:ok:700", "shot:toast_no_belote_en", "wait:1600",  # the belote is the takers' only here
        "ok", "wait:1600", "shot:home_deals_en",
        "ok", "shot:menu_en",
        *_s("down down down ok"), "shot:settings_en",
        *_s("down down down down ok up"), "shot:setting_language_en",  # each language by its own name
    ]),
    ("german", "federation", [
        *_lang("de"), "wait:1600", "shot:settings_de",
        "back", "back", "ok", "shot:menu_de",
        "back", "up", "ok", "back", "down", "ok", "shot:confirm_de",
        "hold:ok:700", "shot:entry_meld_picker_de", "ok", "down", "down", "down", "shot:entry_meld_list_de",
    ]),
]


SCENES.append(("guards", "federation", guard_words()))

# On a board with WiFi (pico_w_oled, its board file on the fake machine): home with the
# link's mark, offline (the simulator has no network), before and after a deal.
WIFI_BOARD = "pico_w_oled"
WIFI_SCENES = [
    ("wifi", "classic2000", [
        "shot:home_wifi_offline",
        *_s(_NS_100_COINCHED), "wait:1600", "shot:home_wifi_after_a_deal",
    ]),
]


# The Display Pack's pictures for the docs (board pico_display_pack, the colour layout).
PACK_SCENES = [
    ("pack", "classic2000", [
        # NS 100 coinched, 112 points; EW 100, 67 points, a belote
        *_s(_NS_100_COINCHED), "wait:1600", *_s(_EW_100_BELOTE), "wait:1600",
        "shot:pack_home",
        *_s("ok down ok"), "shot:pack_history",
        "back",
        *_s("up hold:up:430 ok hold:ok:700"), "shot:pack_confirm",  # NS 100, 100 points, a belote
    ]),
    ("pack_chart", "classic2000", [
        # the two deals of the first scene, twice: the chart and the statistics of four deals
        *_s(_NS_100_COINCHED), "wait:1600", *_s(_EW_100_BELOTE), "wait:1600",
        *_s(_NS_100_COINCHED), "wait:1600", *_s(_EW_100_BELOTE), "wait:1600",
        *_s(_TO_CHART), "shot:pack_chart",
        "ok", "shot:pack_stats",
    ]),
    ("pack_end", "classic2000", [
        *_s(_CAPOT_FIRST), *_s(_CAPOT_AGAIN), *_s(_CAPOT_AGAIN), *_s(_CAPOT_AGAIN), "wait:1600",
        "shot:pack_gameover",
    ]),
]


def _steps(words):
    lines = []
    for w in words:
        if w.startswith("hold:"):
            _, key, ms = w.split(":")
            lines.append("hold %s %s" % (key, ms))
        elif w.startswith("wait:"):
            lines.append("wait " + w[5:])
        elif w.startswith("shot:"):
            lines.append("shot " + w[5:])
        else:
            lines.append(w)
    return parse_script(lines)


def run_scene(preset, words, board="sim"):
    """{shot name: Frame} for one scene on a fresh device."""
    shots = {}
    with Sim(rules=preset, board=board) as sim:
        batch = []
        for step in _steps(words):
            if step[1] == "shot":
                if batch:
                    sim.run_script(batch)
                    batch = []
                fr = sim.frame()
                assert step[2] not in shots, "shot name used twice: %s" % step[2]
                shots[step[2]] = fr
            else:
                batch.append(step)
        if batch:
            sim.run_script(batch)
    return shots


def all_shots():
    """{shot name: Frame} for every scene."""
    out = {}
    for _scene, preset, words in SCENES:
        for name, fr in run_scene(preset, words).items():
            assert name not in out, "shot name used twice: %s" % name
            out[name] = fr
    for _scene, preset, words in WIFI_SCENES:
        for name, fr in run_scene(preset, words, WIFI_BOARD).items():
            assert name not in out, "shot name used twice: %s" % name
            out[name] = fr
    return out


def guard_shots(out_dir):
    """The guards' pictures on both boards, in French and German, into out_dir/guard-*.png."""
    os.makedirs(out_dir, exist_ok=True)
    written = []
    for board, scale in (("pico_oled", SCALE), ("pico_display_pack", PACK_SCALE)):
        for lang in ("fr", "de"):
            words = guard_words("", _s(_TO_SETTINGS) + _s(_LANG[lang]) + ["back", "back"] if lang != "fr" else ())
            for name, fr in run_scene("federation", words, board).items():
                path = os.path.join(out_dir, "%s-%s-%s.png" % (name.replace("guard_", "guard-"), board, lang))
                frame_image(fr, scale).save(path, optimize=True)
                written.append(path)
    return written


def entry_words():
    """Each step of a deal's entry (federation): the contract, check and save, with a belote,
    the announce picker, the card points by tens, the capot question, the all-pass's check
    and a generale's UP (no card points to set: BACK changes them); then the Concours
    screen, its question and the new game's, with a deal in play."""
    return ["up", "hold:back:700", "shot:entry-bid", "ok", "hold:up:1540", "shot:check-and-save",
            "hold:ok:700", "shot:announce-picker", "up", "shot:check-and-save-belote",
            "back", "shot:entry-points", *(["up"] * 7), "ok", "ok", "shot:capot-question", "back",
            "wait:1600", "ok", "ok", "shot:all-pass-check", "back", "back",
            *_s("up down down ok up"), "shot:no-card-points", "wait:1600", *_s("back back back"),  # a generale
            *_s("ok up up ok"), "shot:concours",
            "ok", "shot:concours-question", *_s("back back up ok"), "shot:new-game-question"]  # a deal in play: kept


def entry_shots(out_dir):
    """The entry steps, check-and-save and the Concours screen on both boards, in the
    four languages, into out_dir/STEP-BOARD-LANG.png."""
    os.makedirs(out_dir, exist_ok=True)
    written = []
    for board, scale in (("pico_oled", 2), ("pico_display_pack", 2)):
        for lang in ("fr", "en", "de", "it"):
            words = (_s(_TO_SETTINGS) + _s(_LANG[lang]) + ["back", "back"] if lang != "fr" else []) + entry_words()
            for name, fr in run_scene("federation", words, board).items():
                path = os.path.join(out_dir, "%s-%s-%s.png" % (name, board, lang))
                frame_image(fr, scale).save(path, optimize=True)
                written.append(path)
    return written


def confirm_words():
    """The end of a concours round (twelve capots): not confirmed, its key line's other
    text, the other team's hold and the code; then the next round's end asked from the
    menu after one deal ("end the round now") and the round ended on time."""
    return [*_s("ok up up ok ok ok"), "wait:1600", *(_s(_CAPOT_FIRST) * 12), "wait:1600", "shot:round-not-confirmed",
            "wait:2100", "shot:round-not-confirmed-keys", "hold:ok:700", "shot:round-confirmed",
            *_s("ok ok ok"), "wait:1600", *_s(_CAPOT_FIRST), "wait:1600",
            *_s("ok up up up up ok"), "shot:end-the-round-now", "ok", "wait:1600", "shot:round-ended-on-time"]


def confirm_shots(out_dir):
    """The other team's confirmation and the end of a round on time on both boards, in
    French and German, into out_dir/STEP-BOARD-LANG.png."""
    os.makedirs(out_dir, exist_ok=True)
    written = []
    for board in ("pico_oled", "pico_display_pack"):
        for lang in ("fr", "de"):
            words = (_s(_TO_SETTINGS) + _s(_LANG[lang]) + ["back", "back"] if lang != "fr" else []) + confirm_words()
            for name, fr in run_scene("classic2000", words, board).items():
                path = os.path.join(out_dir, "%s-%s-%s.png" % (name, board, lang))
                frame_image(fr, 2).save(path, optimize=True)
                written.append(path)
    return written


CLOCK_MINUTES = 12  # the timed round of the clock's pictures: 12 deals or 12 minutes


def _run_real(sim, ms):
    """Let a device with the club link run for ms, for real (its link with it)."""
    sim.wait(ms)
    sim.flush()
    sim.sync()


def _until_line(sim, check, what, timeout=30):
    """Run the device until check(home's line from the link) holds."""
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        _run_real(sim, 200)
        link = sim.state()["link"] or {}
        if check(link):
            return link
    raise RuntimeError("--clock: %s did not come (the link: %r)" % (what, sim.state()["link"]))


def clock_scene(folder, board, lang):
    """{shot name: Frame} of home in a timed round on a Pico W board with the club link:
    a real Mosquitto and the organiser's service on 127.0.0.1 (host_tools/rigs/link_run.py),
    the round drawn and its clock started, the round started from Menu > Concours and a
    deal played: the time left; then the organiser takes the minutes away (clock add
    -12): "last deal"."""
    from host_tools.rigs import link_run
    from host_tools.sim.concours import start_round

    db = os.path.join(folder, "event.db")
    link_run.club(db, "new", "--name", "Chrono", "--rounds", 1, "--deals", 12, "--rules", "classic2000",
                  "--minutes", CLOCK_MINUTES, "--seed", 7)
    link_run.club(db, "team", "add", "A", "B", "C", "D")
    link_run.club(db, "password", stdin=link_run.ADMIN_PASSWORD + "\n")
    port, web = link_run.free_port(), link_run.free_port()
    link_run.provision_tables(db, 1, port)
    broker = link_run.broker_process(db, port).start()
    service = link_run.service_process(db, port, web).start()
    shots = {}
    try:
        seat = link_run.club(db, "draw")["tables"][0]
        link_run.club(db, "clock", "start")
        with Sim(rules="classic2000", options={"deals": 12}, board=board, club=os.path.join(folder, "table1.json"),
                 timeout=60) as sim:
            for button in (_s(_TO_SETTINGS) + _s(_LANG[lang]) + ["back", "back"] if lang != "fr" else []):
                sim.press(button)
            _until_line(sim, lambda link: link.get("draw"), "the draw")
            _run_real(sim, 13000)  # the draw's four notices, three seconds each
            start_round(sim, (1, seat["table"], seat["NS"], seat["EW"]))
            for button in _s(_CAPOT_FIRST):
                sim.press(button)
            _until_line(sim, lambda link: link.get("line"), "the clock")
            _run_real(sim, 1600)
            shots["clock-time-left"] = sim.frame()
            link_run.club(db, "clock", "add", -CLOCK_MINUTES)
            _until_line(sim, lambda link: link.get("line") and "/" not in link["line"], "the last deal")
            _run_real(sim, 200)
            shots["clock-last-deal"] = sim.frame()
    finally:
        service.stop()
        broker.stop()
    return shots


def clock_shots(out_dir):
    """Home with a timed round's clock, the time left and then the last deal, on both
    Pico W boards, in French and German, into out_dir/STEP-BOARD-LANG.png (Mosquitto
    needed: the clock comes from the organiser's service over the link)."""
    import tempfile

    os.makedirs(out_dir, exist_ok=True)
    written = []
    for board in ("pico_w_oled", "pico_w_display_pack"):
        for lang in ("fr", "de"):
            with tempfile.TemporaryDirectory() as folder:
                for name, fr in clock_scene(folder, board, lang).items():
                    path = os.path.join(out_dir, "%s-%s-%s.png" % (name, board, lang))
                    frame_image(fr, 2).save(path, optimize=True)
                    written.append(path)
    return written


def pack_shots():
    """{shot name: Frame} of the Display Pack scenes (the docs' colour pictures)."""
    out = {}
    for _scene, preset, words in PACK_SCENES:
        out.update(run_scene(preset, words, "pico_display_pack"))
    return out


# ------------------------------------------------------------------ PNG goldens

def frame_bits(frame):
    """A frame as one byte per pixel (0/1), row-major."""
    assert frame.fmt == "mono", frame.fmt
    return bytes(mono_pixels(frame))


def save_png(frame, path, scale=SCALE):
    """A black-and-white PNG of the frame, scaled, with the screen name as text."""
    from PIL import PngImagePlugin

    img = frame_image(frame, scale).convert("1")
    info = PngImagePlugin.PngInfo()
    info.add_text("screen", frame.screen)
    info.add_text("size", "%dx%d" % (frame.w, frame.h))
    img.save(path, pnginfo=info, optimize=True)


def golden_bits(path):
    """(screen, w, h, bits) of a golden PNG: every SCALE-th pixel, 0/1."""
    from PIL import Image

    with Image.open(path) as img:
        img.load()
        screen = img.info.get("screen", "?")
        w, h = (int(v) for v in img.info.get("size", "128x64").split("x"))
        g = img.convert("L")
        scale = g.width // w
        px = g.load()
        bits = bytes(1 if px[x * scale, y * scale] else 0 for y in range(h) for x in range(w))
    return screen, w, h, bits


def diff_image(frame, path, golden_path):
    """Side by side: golden | now | difference (red), for a failing comparison."""
    from PIL import Image

    _, w, h, old = golden_bits(golden_path)
    new = frame_bits(frame)
    img = Image.new("RGB", (w * 3 + 8, h), (40, 40, 40))
    for y in range(h):
        for x in range(w):
            i = y * w + x
            img.putpixel((x, y), (255,) * 3 if old[i] else (0, 0, 0))
            img.putpixel((w + 4 + x, y), (255,) * 3 if new[i] else (0, 0, 0))
            img.putpixel((2 * w + 8 + x, y), (255, 0, 0) if old[i] != new[i] else (0, 0, 0))
    img.resize((img.width * SCALE, h * SCALE), Image.NEAREST).save(path)


def check(shots, golden_dir=GOLDEN_DIR):
    """[(name, problem)] for shots that differ from their goldens, plus goldens no scene makes."""
    bad = []
    for name, fr in sorted(shots.items()):
        path = os.path.join(golden_dir, name + ".png")
        if not os.path.exists(path):
            bad.append((name, "no golden"))
            continue
        screen, w, h, bits = golden_bits(path)
        if (screen, w, h) != (fr.screen, fr.w, fr.h):
            bad.append((name, "screen %s %dx%d, golden %s %dx%d" % (fr.screen, fr.w, fr.h, screen, w, h)))
        elif bits != frame_bits(fr):
            n = sum(a != b for a, b in zip(bits, frame_bits(fr)))
            bad.append((name, "%d pixels differ" % n))
    extra = sorted(set(f[:-4] for f in os.listdir(golden_dir) if f.endswith(".png")) - set(shots)) \
        if os.path.isdir(golden_dir) else []
    bad += [(name, "golden without a scene") for name in extra]
    return bad


def write(shots, golden_dir=GOLDEN_DIR, docs_dir=DOCS_DIR, pack=None):
    """The goldens, and the docs' pictures: 128x64 ones from shots, the Display Pack's from
    pack (pack_shots(); made here when not given)."""
    os.makedirs(golden_dir, exist_ok=True)
    for f in os.listdir(golden_dir):
        if f.endswith(".png") and f[:-4] not in shots:
            os.remove(os.path.join(golden_dir, f))
    for name, fr in shots.items():
        save_png(fr, os.path.join(golden_dir, name + ".png"))
    if docs_dir:
        os.makedirs(docs_dir, exist_ok=True)
        for doc, name in README_SHOTS.items():
            frame_image(shots[name], SCALE).save(os.path.join(docs_dir, doc), optimize=True)
        pack = pack if pack is not None else pack_shots()
        for doc, name in PACK_SHOTS.items():
            frame_image(pack[name], PACK_SCALE).save(os.path.join(docs_dir, doc), optimize=True)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m host_tools.sim.gallery", description=__doc__.split("\n")[0])
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--update", action="store_true", help="rewrite tests/golden/ and docs/screenshots/")
    g.add_argument("--check", action="store_true", help="compare with tests/golden/")
    g.add_argument("--out", help="write this run's screens to DIR")
    g.add_argument("--guards", help="write the guards' pictures (both boards, fr and de) to DIR")
    g.add_argument("--entry", help="write the entry steps' pictures (both boards, four languages) to DIR")
    g.add_argument("--confirm", help="write the round's confirmation pictures (both boards, fr and de) to DIR")
    g.add_argument("--clock", help="write home with a timed round's clock (both Pico W boards, fr and de) to DIR")
    a = p.parse_args(argv)
    for folder, make in ((a.clock, clock_shots), (a.confirm, confirm_shots), (a.entry, entry_shots),
                         (a.guards, guard_shots)):
        if folder:
            print("%d pictures in %s" % (len(make(folder)), folder))
            return 0
    shots = all_shots()
    if a.update:
        write(shots)
        print("%d goldens in %s, README pictures in %s" % (len(shots), GOLDEN_DIR, DOCS_DIR))
        return 0
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        for name, fr in shots.items():
            save_png(fr, os.path.join(a.out, name + ".png"))
        print("%d screens in %s" % (len(shots), a.out))
        return 0
    bad = check(shots)
    for name, why in bad:
        print("%s: %s" % (name, why))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ("SCENES", "WIFI_SCENES", "PACK_SCENES", "all_shots", "pack_shots", "guard_shots", "guard_words", "run_scene", "check", "write", "frame_bits",
           "golden_bits", "Frame")
