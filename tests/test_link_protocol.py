"""The link's messages (firmware/link/protocol.py) on CPython and on the unix port:
the same bytes on both, the signature RFC 2104's, and every kind of bad message refused."""
import hashlib
import hmac
import json

import pytest

from conftest import run_mp
from link import protocol

KEY = bytes(range(32))
ACTION = {"op": "add", "deal": {"taker": "NS", "bid": 80, "trump": "H", "coinche": 0, "points": 100}}


def test_hmac_is_rfc_2104():
    for key in (b"", b"k", KEY, bytes(100)):
        for data in (b"", b"x" * 200):
            assert protocol.hmac_sha256(key, data) == hmac.new(key, data, hashlib.sha256).digest()


def test_a_signed_action_opens_with_its_key_only():
    message = protocol.sign(KEY, protocol.action_body("t01-abc", 3, 41, ACTION, 39))
    body = protocol.open_message(KEY, message)
    assert body == {"v": 1, "device": "t01-abc", "game": 3, "seq": 41, "prev": 39, "action": ACTION}
    with pytest.raises(protocol.MessageError, match="wrong signature"):
        protocol.open_message(bytes(32), message)


@pytest.mark.parametrize("message, reason", [
    (b"x" * (protocol.MAX_MESSAGE + 1), "oversized"),
    (b"", "no signature"),
    (b"z" * 64 + b" {}", "not hex"),
    (b"0" * 64 + b"{}", "no signature"),
])
def test_bad_messages_are_refused(message, reason):
    with pytest.raises(protocol.MessageError, match=reason):
        protocol.open_message(KEY, message)


def test_a_changed_body_breaks_the_signature():
    message = protocol.sign(KEY, protocol.action_body("t01-abc", 1, 2, ACTION, 1))
    forged = message.replace(b'"points":100', b'"points":160')
    with pytest.raises(protocol.MessageError, match="wrong signature"):
        protocol.open_message(KEY, forged)


def test_signed_non_json_and_other_versions_are_malformed():
    data = b"not json"
    message = protocol.hmac_sha256(KEY, data).hex().encode() + b" " + data
    with pytest.raises(protocol.MessageError, match="not JSON"):
        protocol.open_message(KEY, message)
    data = b'{"v":2}'
    with pytest.raises(protocol.MessageError, match="version"):
        protocol.open_message(KEY, protocol.hmac_sha256(KEY, data).hex().encode() + b" " + data)


def test_draw_body_with_moves():
    body = protocol.draw_body("t02-abc", 2, 2, {"NS": 5, "EW": 1}, {"NS": "A", "EW": "B"},
                              {"NS": {"team": 3, "table": 1}, "EW": {"team": 4, "table": 0}})
    assert protocol.open_message(KEY, protocol.sign(KEY, body))["next"]["EW"] == {"team": 4, "table": 0}
    assert "next" not in protocol.draw_body("t02-abc", 1, 2, None, None)


def test_topics():
    assert protocol.topic("t01-abc", "up") == "coinche/t01-abc/up"
    assert protocol.device_of("coinche/t01-abc/ack") == ("t01-abc", "ack")
    assert protocol.device_of("coinche/a/b/up") is None
    assert protocol.device_of("other/t01/up") is None


MP_DRIVER = """
import json
import sys
from link import protocol
key = bytes(range(32))
while True:
    line = sys.stdin.readline().strip()
    if line == "end":
        break
    case = json.loads(line)
    message = protocol.sign(key, protocol.action_body(case["device"], case["game"], case["seq"], case["action"], case["prev"]))
    print(message.decode())
    try:
        protocol.open_message(bytes(32), message)
        print("opened")
    except protocol.MessageError as e:
        print("refused", e)
print(protocol.sign(key, protocol.draw_body("t01-abc", 1, 1, {"NS": 1, "EW": 2}, {"NS": "a", "EW": "b"})).decode())
"""


def test_unix_port_signs_the_same_bytes():
    cases = [{"device": "t01-abc", "game": g, "seq": s, "prev": s - 1, "action": ACTION} for g, s in ((1, 1), (2, 40))]
    stdin = "".join(json.dumps(c) + "\n" for c in cases) + "end\n"
    lines = run_mp(code=MP_DRIVER, stdin=stdin, timeout=60).stdout.splitlines()
    for index, case in enumerate(cases):
        mine = protocol.sign(KEY, protocol.action_body(case["device"], case["game"], case["seq"], case["action"],
                                                       case["prev"]))
        # the bodies may order keys differently (MicroPython's dicts): each side's bytes open on the other
        theirs = lines[2 * index].encode()
        assert protocol.open_message(KEY, theirs) == protocol.open_message(KEY, mine)
        assert lines[2 * index + 1] == "refused wrong signature"
    draw = protocol.open_message(KEY, lines[-1].encode())
    assert draw["teams"] == {"NS": 1, "EW": 2} and draw["names"]["EW"] == "b"
