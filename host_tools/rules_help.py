"""What each rule option means, for `score.py --help` (host only: the device
does not need the sentences, so they stay out of the firmware's flash)."""

HELP = {
    "contracts": 'contract types: trump suits only, or suits + NT + AT',
    "generale": 'the generale bid exists (all tricks by the bidder alone)',
    "capot_coinche": 'a capot/generale bid may be coinched',
    "belote": 'who may score a belote: the taking team only, or either team',
    "belote_at": 'belotes possible at all-trump (0 = none, 4 = one per suit)',
    "belote_counts": "the takers' belote counts toward making the contract",
    "contract_test": 'made when: 82 = P+belote >= max(bid,82); beat = P+belote >= bid and > defence; 82+melds = P >= 82 and P+melds+belote >= bid; beat+melds = as beat, melds included',
    "melds": "melds: none; all = the best side scores both sides' melds; own = the best side scores its own melds",
    "carre_nt": 'carre values at NT: same as elsewhere, or nt = A 200, 10 150, K/Q/J 100, 9 0',
    "coinche": 'what a coinche multiplies: bid = the bid only; all = every mark but belote; winner = the deal winner scores (base+bid+melds)*m',
    "fail_base": 'what the defence scores for the cards on a failed contract',
    "fail_capot": "a capot moves the base to 250: on a failure when the defence won all tricks, and with coinche = winner after the takers' capot too",
    "capot_bid_base": 'the failure base becomes 250 when the failed bid was capot',
    "solo": 'an unannounced generale on a numeric bid: counts as a capot, or 500 flat',
    "rounding": "round each side's card count to the nearest 10 (5 rounds up)",
    "target": 'points to reach (any whole number from 100 to 99990)',
    "tie": 'equal totals at the end: the winner of that deal wins, or one more deal',
    "bonus_rule": 'a side does not win on the melds/belote it scored in the final deal',
}


def parse_value(name, text):
    """Turn the text of `--set NAME=VALUE` into the option's type (host tools only:
    the device picks values from lists and never parses them)."""
    from coinche.rules import OPTIONS, RulesError, _unknown
    if name not in OPTIONS:
        raise _unknown(name)
    allowed = OPTIONS[name]
    if name == "target" or (allowed and isinstance(allowed[0], int) and not isinstance(allowed[0], bool)):
        try:
            return int(text)
        except ValueError:
            raise RulesError(name, "must be a whole number, got %r" % text)
    if allowed and isinstance(allowed[0], bool):
        low = text.lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise RulesError(name, "must be true or false, got %r" % text)
    return text
