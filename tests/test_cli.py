"""The calculator CLI (host_tools/calculator/score.py) on CPython; test_differential.py
checks that the MicroPython unix port prints the same bytes."""
import json
import subprocess
import sys

from conftest import ROOT

C2_GAME = [
    {"taker": "NS", "bid": 100, "trump": "H", "coinche": 1, "points": 70, "belote": {"NS": 1}},
    {"bid": "pass"},
    {"taker": "EW", "bid": "capot", "trump": "S", "points": 162, "tricks": 8},
    {"taker": "NS", "bid": 80, "trump": "suit", "points": 85},
]
FED_GAME = [
    {"taker": "NS", "bid": "capot", "trump": "AT", "points": 162, "tricks": 8, "belote": {"NS": 2}},
    {"taker": "EW", "bid": 90, "trump": "NT", "points": 122, "melds": {"NS": ["tierce"], "EW": ["carre_A"]}},
    {"taker": "NS", "bid": "generale", "trump": "D", "points": 140, "tricks": 7, "coinche": 1},
]


def cli(args, stdin=""):
    p = subprocess.run([sys.executable, "-m", "host_tools.score"] + list(args), input=stdin,
                       capture_output=True, text=True, cwd=ROOT, timeout=60)
    return p.returncode, [json.loads(line) for line in p.stdout.splitlines()], p.stderr


def text(deals):
    return "".join(json.dumps(d) + "\n" for d in deals)


def brief(o):
    return (o["made"], o["score"]["NS"], o["score"]["EW"], o["total"]["NS"], o["total"]["EW"], o["over"], o["winner"])


def test_classic2000_game():
    rc, out, err = cli(["--rules", "classic2000"], text(C2_GAME))
    assert rc == 0 and err == ""
    assert [brief(o) for o in out] == [
        (False, 20, 360, 20, 360, False, None),    # seed 000 example: 20 / 160 + 100*2
        (None, 0, 0, 20, 360, False, None),        # all passed
        (True, 0, 500, 20, 860, False, None),      # EW capot bid made: 500
        (True, 170, 80, 190, 940, False, None),    # 85 -> 90 + 80; 77 -> 80
    ]


def test_federation_with_target_700_ends_the_game():
    rc, out, err = cli(["--rules", "federation", "--target", "700"], text(FED_GAME))
    assert rc == 0
    assert [brief(o) for o in out] == [
        # capot bid made at AT with two belotes: 250 + 250 + 40 = 540
        (True, 540, 0, 540, 0, False, None),
        # EW 90 at NT with 122; EW's carre_A beats the tierce: EW 90 + 122 + (100 + 20) = 332; NS 40
        (True, 40, 332, 580, 332, False, None),
        # generale coinched and failed: EW (160 + 500)*2 = 1320 -> 1652 >= 700, no melds: EW win
        (False, 0, 1320, 580, 1652, True, "EW"),
    ]


def test_set_overrides_an_option():
    rc, out, _ = cli(["--rules", "federation", "--set", "target=700", "--set", "coinche=bid"], text(FED_GAME))
    assert rc == 0
    # coinche on the bid only: failed generale EW 160 + 500*2 = 1160 -> 332 + 1160 = 1492
    assert brief(out[2]) == (False, 0, 1160, 580, 1492, True, "EW")


def test_set_rounding_off():
    rc, out, _ = cli(["--rules=classic2000", "--set", "rounding=false"], text(C2_GAME[3:]))
    # 85 + 80 = 165; 77
    assert rc == 0 and brief(out[0])[:3] == (True, 165, 77)


def test_invalid_line_stops_with_status_2_naming_line_and_field():
    bad = '{"taker": "NS", "bid": 100, "trump": "H", "points": 170}\n'
    rc, out, err = cli(["--rules", "classic2000"], text(C2_GAME[:2]) + bad + text(C2_GAME[2:]))
    assert rc == 2
    assert len(out) == 2                       # the lines before it were printed
    assert err.startswith("line 3: points: ")


def test_malformed_json():
    rc, out, err = cli(["--rules", "classic2000"], text(C2_GAME[:1]) + '{"taker": "NS", "bid": 100,\n')
    assert rc == 2 and len(out) == 1 and err.startswith("line 2: malformed JSON")


def test_unknown_key_point():
    rc, out, err = cli(["--rules", "coinche1001"], '{"taker": "NS", "bid": 100, "trump": "H", "point": 90}\n')
    assert rc == 2 and out == []
    assert err.startswith("line 1: point: unknown key - did you mean 'points'?")


def test_a_deal_after_the_end_is_refused():
    rc, out, err = cli(["--rules", "federation", "--target", "700"], text(FED_GAME) + text(C2_GAME[3:]))
    assert rc == 2 and len(out) == 3 and err.startswith("line 4: deal: the game is over")


def test_reads_a_file(tmp_path):
    f = tmp_path / "game.jsonl"
    f.write_text(text(C2_GAME))
    rc, out, _ = cli(["--rules", "classic2000", str(f)])
    assert rc == 0 and brief(out[-1])[3:5] == (190, 940)


def test_help_lists_presets_and_options():
    p = subprocess.run([sys.executable, "-m", "host_tools.score", "--help"], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0 and p.stdout.startswith("usage: ")
    for word in ("classic2000", "federation", "coinche1000", "coinche1001", "rounding", "contract_test", "bonus_rule"):
        assert word in p.stdout


def test_usage_errors():
    for args, word in ((["--rules"], "--rules"), ([], "--rules"), (["--rules", "belote"], "preset"),
                       (["--rules", "federation", "--set", "traget=700"], "did you mean 'target'"),
                       (["--rules", "federation", "--target", "x"], "target"),
                       (["--rules", "federation", "--bogus"], "--bogus")):
        rc, out, err = cli(args)
        assert rc == 2 and out == [] and word in err and "usage:" in err, (args, err)


def test_missing_file():
    rc, _, err = cli(["--rules", "classic2000", "/nonexistent/game.jsonl"])
    assert rc == 2 and "cannot open" in err
