"""The calculator (host_tools/calculator/score.py) against hostile input, on both interpreters.

Every case runs under CPython and under the MicroPython unix port: neither may
print a traceback, and both must print the same stdout and stderr bytes and
exit with the same status. Messages stay on stderr and printable (nothing from
the input reaches the terminal raw). Also: the strict JSON reader against
CPython's own json, the streaming score against Game, and a long stream of deals
(100,000 with SWEEP=full, tests/sweep.py).
"""
import hashlib
import json
import os
import random
import subprocess
import sys

import pytest

import sweep
from conftest import FIRMWARE, ROOT, micropython_path

from host_tools.calculator.strict_json import JSONError, JSONObject, NumberText, escape, parse  # noqa: E402
from coinche.game import Game, GameError, RunningScore  # noqa: E402
from coinche.record import RecordError  # noqa: E402
from coinche.rules import Rules  # noqa: E402
from vectors import PRESETS, gen_valid  # noqa: E402

assert FIRMWARE  # the scoring core is importable (conftest puts it on sys.path)

DEAL = b'{"taker": "NS", "bid": 100, "trump": "H", "points": 90}'
PASS = b'{"bid": "pass"}'


def _mutations(seed, count):
    """Valid records with one byte deleted, inserted or replaced."""
    rnd = random.Random(seed)
    base = [DEAL, PASS, b'{"taker": "EW", "bid": "capot", "trump": "S", "points": 162, "tricks": 8}',
            b'{"taker": "NS", "bid": 90, "trump": "H", "points": 100, "belote": {"NS": 1}, "melds": {"NS": []}}']
    out = []
    for k in range(count):
        b = bytearray(rnd.choice(base))
        i = rnd.randrange(len(b))
        how = k % 3
        if how == 0:
            del b[i]
        elif how == 1:
            b.insert(i, rnd.choice(b'{}[],:"\\0123456789.eE+- \t\x00\x1b\xff\xc3tfn'))
        else:
            b[i] = rnd.randrange(256)
        out.append(("mutation-%d" % k, bytes(b) + b"\n"))
    return out


def _random_bytes(seed, count):
    rnd = random.Random(seed)
    return [("random-bytes-%d" % k, bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 200))))
            for k in range(count)]


CASES = [
    # JSON MicroPython's json takes and CPython's does not, and the other way round
    ("trailing-comma", b'{"a":1,}\n'),
    ("trailing-comma-record", b'{"bid": "pass",}\n'),
    ("two-numbers", b'{"taker": "NS", "bid": 100, "trump": "H", "points": 12 0}\n'),
    ("nan", b'{"taker": "NS", "bid": 100, "trump": "H", "points": NaN}\n'),
    ("infinity", b'{"taker": "NS", "bid": 100, "trump": "H", "points": -Infinity}\n'),
    ("huge-float", b'{"taker": "NS", "bid": 100, "trump": "H", "points": 1e400}\n'),
    ("float-points", b'{"taker": "NS", "bid": 100, "trump": "H", "points": 0.30000000000000004}\n'),
    ("float-bid", b'{"taker": "NS", "bid": 1E2, "trump": "H", "points": 90}\n'),
    ("float-in-list", b'{"taker": "NS", "bid": 100, "trump": "H", "points": [1.5, -0.0, 2e-7]}\n'),
    ("leading-zero", b'{"taker": "NS", "bid": 0100, "trump": "H", "points": 90}\n'),
    ("minus-zero", b'{"taker": "NS", "bid": 100, "trump": "H", "points": -0}\n'),
    ("huge-int", b'{"taker": "NS", "bid": 100, "trump": "H", "points": ' + b"9" * 3000 + b"}\n"),
    ("single-quotes", b"{'bid': 'pass'}\n"),
    ("unquoted-key", b'{bid: "pass"}\n'),
    ("comment", b'{"bid": "pass"} // all passed\n'),
    ("true-typo", b'{"taker": "NS", "bid": 100, "trump": "H", "points": 90, "solo": tru}\n'),
    ("literal-glued", b'{"taker": "NS", "bid": 100, "trump": "H", "points": 90, "solo": falsey}\n'),
    ("duplicate-key", b'{"bid": "pass", "bid": 100}\n'),
    ("unclosed-string", b'{"bid": "pass}\n'),
    ("unclosed-object", b'{"bid": "pass"\n'),
    ("bad-escape", b'{"bid": "pa\\ss"}\n'),
    ("short-unicode-escape", b'{"bid": "\\u12"}\n'),
    ("lone-high-surrogate", b'{"bid": "\\ud800"}\n'),
    ("lone-low-surrogate", b'{"bid": "\\udc00x"}\n'),
    ("surrogate-pair", b'{"bid": "\\ud83d\\ude00"}\n'),
    ("escaped-esc", b'{"taker": "\\u001b[2J\\u001b[31mNS", "bid": 100, "trump": "H", "points": 90}\n'),
    ("escaped-nul-key", b'{"\\u0000": 1}\n'),
    ("raw-esc-in-string", b'{"taker": "\x1b[2J", "bid": 100}\n'),
    ("raw-esc-outside", b'\x1b[2J{"bid": "pass"}\n'),
    ("raw-nul", b'{"bid": "pass"}\x00\n'),
    ("bell-and-backspace", b'{"bid": "\x07\x08"}\n'),
    ("del-char", b'{"bid": "\x7f"}\n'),
    ("c1-control", b'{"bid": "\xc2\x85\xc2\x9b"}\n'),
    ("bidi-override", b'{"taker": "\xe2\x80\xaeSN", "bid": 100, "trump": "H", "points": 90}\n'),
    ("non-ascii-value", b'{"taker": "N\xc3\xa9", "bid": 100, "trump": "H", "points": 90}\n'),
    ("emoji-key", b'{"\xf0\x9f\x82\xa1": 1, "bid": "pass"}\n'),
    ("nbsp-key-typo", b'{"points\xc2\xa0": 1, "bid": "pass"}\n'),
    ("dict-value-order", b'{"taker": {"zeta": 1, "alpha": [2, {"b": 3, "a": null}], "mid": true}, "bid": 100}\n'),
    # encodings
    ("utf8-bom", b"\xef\xbb\xbf" + PASS + b"\n" + DEAL + b"\n"),
    ("utf8-bom-only", b"\xef\xbb\xbf"),
    ("utf8-bom-second-line", PASS + b"\n\xef\xbb\xbf" + PASS + b"\n"),
    ("utf16-le-bom", "\ufeff{\"bid\": \"pass\"}\n".encode("utf-16-le")),
    ("utf16-be-bom", "\ufeff{\"bid\": \"pass\"}\n".encode("utf-16-be")),
    ("utf16-no-bom", "{\"bid\": \"pass\"}\n".encode("utf-16-le")),
    ("latin1", b'{"taker": "NS\xe9", "bid": 100}\n'),
    ("invalid-ff", b'{"bid": "pass"}\xff\n'),
    ("overlong-slash", b'{"bid": "\xc0\xaf"}\n'),
    ("overlong-3", b'{"bid": "\xe0\x80\xaf"}\n'),
    ("encoded-surrogate", b'{"bid": "\xed\xa0\x80"}\n'),
    ("past-10ffff", b'{"bid": "\xf4\x90\x80\x80"}\n'),
    ("f5-byte", b'{"bid": "\xf5\x80\x80\x80"}\n'),
    ("truncated-sequence", b'{"bid": "\xe2\x82"}\n'),
    ("truncated-at-end", b'{"bid": "pass"}\n\xe2\x82'),
    ("lone-continuation", b'\x80{"bid": "pass"}\n'),
    # shape of the input
    ("empty", b""),
    ("blank-lines", b"\n\n  \t \r\n\n"),
    ("crlf", PASS + b"\r\n" + DEAL + b"\r\n"),
    ("cr-only", PASS + b"\r" + DEAL + b"\r"),
    ("no-final-newline", PASS + b"\n" + DEAL),
    ("form-feed-line", b"\x0c" + PASS + b"\n"),
    ("vertical-tab-line", PASS + b"\x0b\n"),
    ("nbsp-line", b"\xc2\xa0" + PASS + b"\n"),
    ("top-level-array", b'[{"bid": "pass"}]\n'),
    ("top-level-string", b'"pass"\n'),
    ("top-level-number", b"42\n"),
    ("top-level-null", b"null\n"),
    ("two-objects-one-line", PASS + PASS + b"\n"),
    ("deep-16", b'{"bid": "pass", "melds": ' + b"[" * 15 + b"]" * 15 + b"}\n"),
    ("deep-17", b'{"bid": "pass", "melds": ' + b"[" * 16 + b"]" * 16 + b"}\n"),
    ("deep-2000-arrays", b"[" * 2000 + b"]" * 2000 + b"\n"),
    ("deep-1000-objects", b'{"a":' * 800 + b"1" + b"}" * 800 + b"\n"),
    ("deep-unclosed", b"[" * 4000 + b"\n"),
    ("line-4096", PASS + b" " * (4096 - len(PASS)) + b"\n" + DEAL + b"\n"),
    ("line-4097", PASS + b" " * (4097 - len(PASS)) + b"\n" + DEAL + b"\n"),
    ("huge-line", b'{"bid": "' + b"x" * 5_000_000 + b'"}\n'),
    ("huge-line-no-newline", b"[" * 3_000_000),
    ("huge-key", b'{"' + b"k" * 4000 + b'": 1}\n'),
    ("long-meld-code", b'{"taker": "NS", "bid": 100, "trump": "H", "points": 90, "melds": {"NS": ["'
     + b"tierce" * 600 + b'"]}}\n'),
    ("many-keys", b"{" + b", ".join(b'"k%d": %d' % (k, k) for k in range(300)) + b"}\n"),
    # records: junk values, a game that is over
    ("pass-junk-taker", b'{"bid": "pass", "taker": "XX"}\n'),
    ("pass-junk-points", b'{"bid": "pass", "points": "junk"}\n'),
    ("pass-junk-melds", b'{"bid": "pass", "melds": {"NS": ["\\u001b[31m"]}}\n'),
    ("pass-with-fields", b'{"bid": "pass", "taker": "NS", "trump": "H", "points": 0, "coinche": 0}\n'),
    ("bid-is-object", b'{"taker": "NS", "bid": {"\\u001b": 1}, "trump": "H", "points": 90}\n'),
    ("after-game-over", (b'{"taker": "EW", "bid": "capot", "trump": "S", "points": 162, "tricks": 8}\n' * 5)),
]
GENERATED = _mutations(12, 40) + _random_bytes(34, 12)
# Each case costs a process start on both interpreters. The written cases each stand for
# something seen; the generated ones are a sweep of the same few shapes, sampled in the
# quick run (every one with SWEEP=full, the sample moving from run to run).
ALL_CASES = CASES + GENERATED
CASES = CASES + sweep.take(GENERATED, 4)

ARGS = ["--rules", "classic2000"]


def _run(exe_args, stdin, args=ARGS):
    p = subprocess.run(exe_args + list(args), input=stdin, capture_output=True, cwd=ROOT, timeout=120)
    return p.returncode, p.stdout, p.stderr


def _cpython(stdin, args=ARGS):
    return _run([sys.executable, "-m", "host_tools.score"], stdin, args)


def _micropython(stdin, args=ARGS, heapsize=None):
    exe = [micropython_path()] + (["-X", "heapsize=%s" % heapsize] if heapsize else [])
    return _run(exe + [os.path.join("host_tools", "score.py")], stdin, args)


def _printable(data):
    return all(32 <= b < 127 or b == 10 for b in data)


@pytest.mark.parametrize("name,stdin", CASES, ids=[c[0] for c in CASES])
def test_hostile_input_same_answer_no_traceback(name, stdin):
    c = _cpython(stdin)
    m = _micropython(stdin)
    for rc, out, err in (c, m):
        assert b"Traceback" not in out + err and b"Error:" not in out + err, (name, out[-300:], err[-300:])
        assert rc in (0, 2), (name, rc, err[-300:])
        assert _printable(err), (name, err[-300:])  # escaped: nothing raw from the input
        for line in out.splitlines():  # stdout holds results only
            assert set(json.loads(line)) == {"made", "score", "total", "over", "winner"}, (name, line)
        assert (rc == 0) == (err == b""), (name, err)
    assert c == m, name


def test_the_corpus_covers_what_the_issue_names():
    """The cases the issue reports, with the answer each must get."""
    def err_of(stdin):
        rc, out, err = _cpython(stdin)
        assert (rc, out, err) == _micropython(stdin)
        return rc, err.decode()

    assert err_of(b'{"a":1,}\n')[0] == 2
    rc, err = err_of(b'{"taker": "NS", "bid": 100, "trump": "H", "points": 12 0}\n')
    assert rc == 2 and err.startswith("line 1: malformed JSON at column 56: expected ',' or '}', found '0'")
    rc, err = err_of(b"\xef\xbb\xbf" + PASS + b"\n")
    assert (rc, err) == (0, "")  # a UTF-8 BOM is accepted
    rc, err = err_of("\ufeff{}".encode("utf-16-le"))
    assert "UTF-16" in err and "byte order mark FF FE" in err
    rc, err = err_of(b'{"taker": "\x1b[2J", "bid": 100}\n')
    assert "\x1b" not in err and "U+001B" in err
    rc, err = err_of(b'{"taker": "\\u001b[2J", "bid": 100, "trump": "H", "points": 90}\n')
    assert err == "line 1: taker: must be \"NS\" or \"EW\", got '\\x1b[2J'\n"
    rc, err = err_of(b'{"bid": "pass", "taker": "XX", "points": 999}\n')
    assert rc == 2 and err.startswith("line 1: taker:")
    rc, err = err_of(b"\xff\n")
    assert err == "line 1: not UTF-8 text (byte 0xFF at byte 1); save the file as UTF-8\n"
    rc, err = err_of(b"[" * 100 + b"]" * 100 + b"\n")
    assert "nested deeper than 16 levels" in err
    rc, err = err_of(b"x" * 100000)
    assert err == "line 1: longer than 4096 bytes; a deal record is one short line\n"


def test_a_file_argument_reads_the_same_as_stdin(tmp_path):
    for name, stdin in ALL_CASES[::15]:
        path = tmp_path / "in.jsonl"
        path.write_bytes(stdin)
        assert _cpython(b"", ARGS + [str(path)]) == _cpython(stdin), name
        assert _micropython(b"", ARGS + [str(path)]) == _micropython(stdin), name


# ---------------------------------------------------------------- the strict JSON reader

def _random_value(rnd, depth=0):
    kind = rnd.randrange(8 if depth < 4 else 5)
    if kind == 0:
        return rnd.choice((True, False, None))
    if kind == 1:
        return rnd.randrange(-10 ** rnd.randrange(1, 30), 10 ** rnd.randrange(1, 30))
    if kind in (2, 3, 4):
        return "".join(rnd.choice('ab"\\/\b\f\n\r\t\x00\x1f é\u2028\ud7ff\ue000\U0001f600') for _ in range(rnd.randrange(6)))
    if kind == 5:
        return [_random_value(rnd, depth + 1) for _ in range(rnd.randrange(4))]
    return {"k%d" % rnd.randrange(50): _random_value(rnd, depth + 1) for _ in range(rnd.randrange(4))}


def test_strict_json_reads_what_cpython_writes():
    rnd = random.Random(5)
    for _ in range(3000):
        v = _random_value(rnd)
        for text in (json.dumps(v), json.dumps(v, ensure_ascii=False), json.dumps(v, indent=1)):
            assert parse(text) == v, text


def test_strict_json_agrees_with_cpython_json_on_mutated_texts():
    """Where CPython's json (strict about everything but NaN/Infinity) accepts
    a text, ours gives the same value unless the text holds what we refuse on
    purpose (fractions kept as text, repeated keys, lone surrogates, deep
    nesting); where CPython refuses, ours refuses too."""
    rnd = random.Random(6)
    agree = refused_both = 0
    for _ in range(20000):
        text = list(json.dumps(_random_value(rnd)))
        for _ in range(rnd.randrange(1, 3)):
            i = rnd.randrange(len(text) + 1)
            op = rnd.randrange(3)
            if op == 0 and text:
                del text[min(i, len(text) - 1)]
            elif op == 1:
                text.insert(i, rnd.choice('{}[],:"\\0123456789.eE+- \t\nuaftrlsn\x00\x7f'))
            elif text:
                text[min(i, len(text) - 1)] = rnd.choice('{}[],:"\\0123456789.eE+- truefalsn')
        text = "".join(text)
        try:
            expected = json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)),
                                  object_pairs_hook=_no_repeats)
        except (ValueError, RecursionError):
            expected = JSONError
        try:
            got = parse(text)
        except JSONError:
            got = JSONError
        if expected is JSONError:
            assert got is JSONError, text
            refused_both += 1
        elif got is JSONError:
            assert _refused_on_purpose(text), text
        else:
            assert _plain(got) == _plain(expected), text
            agree += 1
    assert agree > 1000 and refused_both > 1000


def _no_repeats(pairs):
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("repeated key")
    return dict(pairs)


def _refused_on_purpose(text):
    return "\\ud" in text.lower()


def _plain(v):
    if isinstance(v, NumberText):
        return float(v.text)
    if isinstance(v, float):
        return v
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


def test_strict_json_values_and_messages():
    v = parse('{"b": [1, -0, 1.50, 2e3, "\\u00e9\\ud83d\\ude00"], "a": {"z": null, "y": true}}')
    assert isinstance(v, JSONObject) and list(v.key_order) == ["b", "a"]
    assert v["b"][:2] == [1, 0] and repr(v["b"][2]) == "1.50" and repr(v["b"][3]) == "2e3"
    assert v["b"][4] == "\u00e9\U0001f600"
    assert repr(v["a"]) == "{'z': None, 'y': True}"
    for text, message, column in (("", "no value", 1), ("[1,]", "unexpected ']' where a value should be", 4),
                                  ("[1 2]", "expected ',' or ']', found '2'", 4),
                                  ('{"a" 1}', "expected ':' after a key, found '1'", 6),
                                  ("\ufeff{}", "unexpected U+FEFF (a byte order mark) where a value should be", 1),
                                  ("[01]", "a number cannot start with 0", 2), ("-", "a number needs a digit after '-'", 2),
                                  ("1.", "a number needs a digit after '.'", 3), ("1e", "a number needs a digit in its exponent", 3),
                                  ('"\t"', "control character U+0009 inside a string", 2),
                                  ("[" * 17 + "]" * 17, "nested deeper than 16 levels", 17)):
        with pytest.raises(JSONError) as e:
            parse(text)
        assert (e.value.message, e.value.column) == (message, column), text
    assert escape("a\x1b[2J\u00e9\u200b\U0001f600\x7f") == "a\\x1b[2J\\xe9\\u200b\\U0001f600\\x7f"


# ---------------------------------------------------------------- streaming score, a long stream

@pytest.mark.parametrize("preset", PRESETS)
def test_running_score_matches_game(preset):
    rnd = random.Random(preset)
    rules = Rules(preset, {"target": 99990})
    for _ in range(20):
        game, running = Game(rules), RunningScore(rules)
        for _ in range(rnd.randrange(1, 60)):
            rec = gen_valid(rules, rnd)
            if rnd.random() < 0.1:
                rec = dict(rec, points=rnd.choice((-5, 170, "x")))
            try:
                expected = game.add(rec)
            except (RecordError, GameError) as e:
                with pytest.raises(type(e)) as got:
                    running.add(rec)
                assert str(got.value) == str(e)
                continue
            got = running.add(rec)
            assert (got.made, got.score, got.winner, got.bonus) == (
                expected.made, expected.score, expected.winner, expected.bonus)
            assert (running.total, running.over, running.winner, running.count) == (
                game.total, game.over, game.winner, len(game.deals))


REAL_DEALS = [DEAL, b'{"taker": "EW", "bid": 80, "trump": "S", "coinche": 1, "points": 85, "belote": {"EW": 1}}',
              b'{"taker": "EW", "bid": "capot", "trump": "D", "points": 162, "tricks": 8}']
FILLER = b'{"bid": "pass", "taker": "NS", "trump": "H", "coinche": 0, "points": 0, "belote": {"NS": 0, "EW": 0}}'


STREAM_DEALS = sweep.count(100000, 10000)


def _long_stream(path, lines):
    """`lines` deal lines of realistic length that never end the game at target
    99990: a real deal every 400 lines, between them passes that carry their
    fields. Returns how often each real deal occurs."""
    counts = [0, 0, 0]
    with open(path, "wb") as f:
        for i in range(lines):
            if i % 400 == 0:
                counts[i // 400 % 3] += 1
                f.write(REAL_DEALS[i // 400 % 3] + b"\n")
            else:
                f.write(FILLER + b"\n")
    return counts


def test_a_long_deal_stream_scores_on_both_interpreters(tmp_path):
    """Linear and bounded: CPython scores the stream (its time is in `make bench`), and
    the unix port does too at a 256 KB heap (its default is 2 MB; the imports take about
    100 KB), with the same output. The stream is 100,000 deals with SWEEP=full and 10,000
    in the quick run (the unix port scores about 3,000 a second): even then, one heap
    block kept per line (32 bytes on the 64-bit unix port) would not fit."""
    path = str(tmp_path / "deals.jsonl")
    counts = _long_stream(path, STREAM_DEALS)
    rules = Rules("classic2000", {"target": 99990})
    expected = {"NS": 0, "EW": 0}
    for rec, n in zip(REAL_DEALS, counts):
        score = Game(rules).add(json.loads(rec)).score
        for team in expected:
            expected[team] += n * score[team]
    args = ["--rules", "classic2000", "--target", "99990", path]
    c = _cpython(b"", args)
    m = _micropython(b"", args, heapsize="256k")
    assert c[0] == 0 and c[2] == b"", c[2][-500:]
    assert m[0] == 0 and m[2] == b"", m[2][-500:]
    lines = c[1].splitlines()
    assert len(lines) == STREAM_DEALS and json.loads(lines[-1])["total"] == expected
    assert hashlib.sha256(c[1]).digest() == hashlib.sha256(m[1]).digest()


def test_file_and_pipe_troubles_same_on_both(tmp_path):
    args = ARGS + [str(tmp_path)]
    c, m = _cpython(b"", args), _micropython(b"", args)
    assert c == m and c[0] == 2 and c[2].endswith(b"it is a directory\n")
    args = ARGS + [str(tmp_path / "missing.jsonl")]
    assert _cpython(b"", args) == _micropython(b"", args)
    # whoever reads the results goes away (`| head -1`): no message, no traceback
    path = tmp_path / "long.jsonl"
    path.write_bytes((PASS + b"\n") * 200000)
    for exe in ([sys.executable, "-m", "host_tools.score"], [micropython_path(), os.path.join("host_tools", "score.py")]):
        p = subprocess.Popen(exe + ARGS + [str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        p.stdout.readline()
        p.stdout.close()
        err = p.stderr.read()
        assert p.wait(timeout=120) == 3 and err == b"", (exe, err)
