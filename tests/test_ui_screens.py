"""Golden screenshots: every screen of the 128x64 layout, driven on the simulator.

The scenes and their key scripts live in host_tools/sim/gallery.py; each
`shot NAME` frame must equal tests/golden/NAME.png bit for bit (the PNG is the
frame at 4x, black and white, so a person can look at it). After a deliberate
change of the layout or of a string, regenerate and LOOK at the pictures:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest -q tests/test_ui_screens.py
    # or: .venv/bin/python -m host_tools.sim.gallery --update   (also docs/screenshots/)

A failing comparison leaves golden | now | difference pictures in the pytest
tmp directory (path in the message).
"""
import os

import pytest

from host_tools.sim import gallery
from render import languages

UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


def _shot_names():
    out = []
    for _, _, words in gallery.SCENES + gallery.WIFI_SCENES:
        out += [w[5:] for w in words if w.startswith("shot:")]
    return out


NAMES = _shot_names()

# every screen the firmware has, by the name the simulator tags frames with
SCREENS = {"home", "menu", "ask", "history", "deal", "gameover", "settings", "options", "setting", "archive", "teams",
           "entry-taker", "entry-bid", "entry-tens", "entry-meld-list",
           "entry-meld", "entry-melds_to", "entry-confirm", "chart", "stats", "concours", "number", "roundover",
           "entry-capot", "name-picker"}


@pytest.fixture(scope="module")
def shots():
    s = gallery.all_shots()
    if UPDATE:
        gallery.write(s)
    return s


def test_shot_names_are_unique_and_scenes_are_many():
    assert len(NAMES) == len(set(NAMES)) >= 40


@pytest.mark.parametrize("name", NAMES)
def test_screen_matches_golden(name, shots, tmp_path_factory):
    fr = shots[name]
    path = os.path.join(gallery.GOLDEN_DIR, name + ".png")
    assert os.path.exists(path), "no golden for %s: run with UPDATE_GOLDEN=1 and look at it" % name
    screen, w, h, bits = gallery.golden_bits(path)
    assert (screen, w, h) == (fr.screen, fr.w, fr.h)
    if bits != gallery.frame_bits(fr):
        out = tmp_path_factory.mktemp("golden-diff") / (name + ".png")
        gallery.diff_image(fr, str(out), path)
        n = sum(a != b for a, b in zip(bits, gallery.frame_bits(fr)))
        pytest.fail("%s: %d pixels differ from the golden; golden | now | diff in %s" % (name, n, out))


def test_every_screen_has_a_golden(shots):
    seen = {fr.screen for fr in shots.values()}
    assert SCREENS <= seen, SCREENS - seen
    assert not (seen - SCREENS), "a new screen: add it to SCREENS (%s)" % (seen - SCREENS)
    toasts = [n for n in shots if n.startswith("toast_")]
    assert len(toasts) >= 3
    # at least two more languages than French, for a couple of screens each
    for suffix in ("_en", "_de"):
        assert len({shots[n].screen for n in shots if n.endswith(suffix)}) >= 2, suffix


def test_no_stray_goldens():
    names = {f[:-4] for f in os.listdir(gallery.GOLDEN_DIR) if f.endswith(".png")}
    assert names == set(NAMES), names ^ set(NAMES)


def test_gallery_check_agrees(shots):
    """The gallery's --check (for people) finds nothing when the tests find nothing."""
    if UPDATE:
        pytest.skip("goldens were just rewritten")
    bad = gallery.check(shots)
    assert bad == [], bad


def test_golden_round_trip(tmp_path, shots):
    """save_png / golden_bits keep every bit (the comparison above relies on it)."""
    for name in ("home_deals", "confirm", "menu_de"):
        fr = shots[name]
        p = tmp_path / (name + ".png")
        gallery.save_png(fr, str(p))
        assert gallery.golden_bits(str(p)) == (fr.screen, fr.w, fr.h, gallery.frame_bits(fr))
    # and a changed pixel is seen
    fr = shots["home_fresh"]
    data = bytearray(fr.data)
    data[500] ^= 1
    changed = gallery.Frame(fr.screen, fr.fmt, fr.w, fr.h, bytes(data))
    assert gallery.frame_bits(changed) != gallery.frame_bits(fr)


def test_readme_screenshots_exist_and_come_from_the_simulator(shots):
    from PIL import Image

    for doc, name in gallery.README_SHOTS.items():
        path = os.path.join(gallery.DOCS_DIR, doc)
        with Image.open(path) as img:
            assert img.size == (128 * gallery.SCALE, 64 * gallery.SCALE)
            lit = bytes(1 if v else 0 for v in img.convert("L").resize((128, 64), Image.NEAREST).tobytes())
        assert lit == gallery.frame_bits(shots[name]), doc


def test_display_pack_screenshots_come_from_the_simulator():
    """The docs' Display Pack pictures are the colour firmware's frames, pixel for pixel
    (regenerate with `python -m host_tools.sim.gallery --update` and look at them)."""
    from PIL import Image, ImageChops

    from host_tools.common.frames import frame_image

    pack = gallery.pack_shots()
    assert {fr.screen for fr in pack.values()} == {"home", "history", "entry-confirm", "gameover", "chart", "stats"}
    for doc, name in gallery.PACK_SHOTS.items():
        fr = pack[name]
        assert (fr.fmt, fr.w, fr.h) == ("rgb565", 240, 135)
        with Image.open(os.path.join(gallery.DOCS_DIR, doc)) as img:
            now = frame_image(fr, gallery.PACK_SCALE)
            assert img.size == now.size, doc
            assert ImageChops.difference(img.convert("RGB"), now.convert("RGB")).getbbox() is None, doc


# drawn on a whole line, 7 px apart when they need it (18 characters; the text-fit tests
# see them drawn): check-and-save's keys (its saving key in words) and both teams' holds
# in whole words, and the questions with a number (ask() puts a long one on two lines)
WHOLE_LINE = {"save_points", "h_hold_announce_both", "undo_q", "del_q"}


@pytest.mark.parametrize("code", languages.LANGS)
def test_strings_fit_one_line(code):
    """Every string of the four tables fits the 16 characters of a 128x64 line."""
    T = languages.read_file(code)
    long = [(k, v) for k, v in T.items() if len(v) > (18 if k in WHOLE_LINE else 16)]
    assert T and not long, long
    assert set(T) == set(languages.read_file("fr"))  # no key missing in a language


@pytest.mark.parametrize("code", ["fr", "it"])
def test_meld_picker_title_shows_the_team(code):
    T = languages.load(code)
    for team in ("NS", "EW"):
        assert len(T["t_pick_meld"] + " " + T[team]) <= 16
