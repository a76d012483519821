"""What each rule option means, for `score.py --help`, and the command line
(--rules/--target/--set, FILE) the calculator and the key planner share (host
only: the device does not need the sentences, so they stay out of the
firmware's flash)."""

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
    "deals": 'a round of a fixed number of deals: 0 = play to the target; N = the game ends after N counted deals, equal totals a draw',
    "pass_counts": 'in a round of N deals: an all-pass deal counts as one of the N, or is dealt again',
}


DIGITS = "0123456789"


def accepted_text(name):
    """What `--set NAME=VALUE` accepts for option name, as every refusal says it."""
    from coinche.rule_options import allowed_values, value_text
    allowed = allowed_values(name)
    if allowed is None:
        return "a whole number written in the digits 0-9 (no sign, no spaces, no leading zero)"
    return "one of %s, written exactly so" % ", ".join(value_text(a) for a in allowed)


def parse_value(name, text):
    """Turn the text of `--set NAME=VALUE` into the option's type, strictly: a boolean is
    `true` or `false`, a number is decimal digits without a sign, a space or a leading
    zero, a word is one of the listed words as listed. Every tool that reads an option
    from text (the calculator, the key planner, the simulator, the emulator, the club)
    reads it here, so they accept the same texts; RulesError says what is accepted.
    Host tools only: the device picks values from lists and never parses them."""
    from coinche.rule_options import allowed_values, value_text
    from coinche.rules import RulesError
    allowed = allowed_values(name)  # RulesError for an option that does not exist
    if allowed is None or isinstance(allowed[0], int) and not isinstance(allowed[0], bool):
        if not _decimal(text):
            raise RulesError(name, "must be %s, got %r" % (accepted_text(name), text))
        value = int(text)
        if allowed is None or value in allowed:
            return value  # a number's range is the rules' to check (Rules)
    else:
        for value in allowed:
            if value_text(value) == text:
                return value
    raise RulesError(name, "must be %s, got %r" % (accepted_text(name), text))


def _decimal(text):
    """Only the digits 0-9, and no leading zero (but "0" itself): int() alone would take
    "+1", " 1", "1_000" and other scripts' digits."""
    if not text or (text[0] == "0" and len(text) > 1):
        return False
    for char in text:
        if char not in DIGITS:
            return False
    return True


def parse_setting(text, what="--set"):
    """(option, value) from one `OPTION=VALUE` text, both as written (no spaces trimmed);
    UsageError without "=", RulesError for an option or value that cannot be."""
    if "=" not in text:
        raise UsageError("%s takes OPTION=VALUE, got %r" % (what, text))
    name, value = text.split("=", 1)
    return name, parse_value(name, value)


class UsageError(Exception):
    """A command line the host tools cannot use; the message says what is wrong."""


def parse_rules_arguments(argv, default_preset=None):
    """The command line of the calculator (score.py) and the key planner (keys.py):
    --rules PRESET, --target N, --set OPTION=VALUE (repeated; also as --option=value)
    and at most one FILE ('-' = stdin). Returns (preset, option overrides, file or None),
    None for -h/--help; UsageError or RulesError on a bad one. Without --rules the
    preset is default_preset, and when that is None too --rules is required.
    Parsed by hand: the unix port has no argparse."""
    preset = default_preset
    overrides = {}
    path = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            return None
        if a.startswith("--") and "=" in a:
            a, val = a.split("=", 1)
            argv = argv[:i] + [a, val] + argv[i + 1:]
        if a in ("--rules", "--target", "--set"):
            if i + 1 >= len(argv):
                raise UsageError("%s needs a value" % a)
            val = argv[i + 1]
            i += 2
            if a == "--rules":
                preset = val
            elif a == "--target":
                overrides["target"] = parse_value("target", val)
            else:
                name, value = parse_setting(val)
                overrides[name] = value
            continue
        if a.startswith("-") and a != "-":
            raise UsageError("unknown argument %r" % a)
        if path is not None:
            raise UsageError("only one FILE may be given")
        path = a
        i += 1
    if preset is None:
        from coinche.rule_options import PRESET_NAMES
        raise UsageError("--rules PRESET is required (presets: %s)" % ", ".join(PRESET_NAMES))
    return preset, overrides, path
