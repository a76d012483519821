"""The rule options and the four presets: every option's values, the presets' settings,
and the checks of an option's value (coinche/rules.py's Rules is built from them).

Every scoring difference between the seed texts is one orthogonal option, so a
table can start from the preset it knows and change just the point it plays
differently ("federation, but to 700"). docs/rules.md explains each option.

Rules() imports this module when it builds a rule set; a game's scoring reads only
the values the Rules object keeps. On the device it is loaded for that and released
(firmware/on_demand.py): its tables are not on the heap of a game between two deals.
"""

from coinche.fields import RulesError

# name: allowed values. The first value is not a default: the presets below
# set every option explicitly. What each option means: docs/rules.md, and
# `score.py --help` (host_tools/rules_help.py), kept off the device to save flash.
OPTIONS = {
    "contracts": ('suits', 'all'),
    "generale": (False, True),
    "capot_coinche": (True, False),
    "belote": ('taker', 'both'),
    "belote_at": (0, 4),
    "belote_counts": (True, False),
    "contract_test": ('82', 'beat', '82+melds', 'beat+melds'),
    "melds": ('none', 'all', 'own'),
    "carre_nt": ('same', 'nt'),
    "coinche": ('bid', 'all', 'winner'),
    "fail_base": (160, 162),
    "fail_capot": (True, False),
    "capot_bid_base": (True, False),
    "solo": ('capot', '500'),
    "rounding": (True, False),
    "target": None,
    "tie": ('deal', 'extra'),
    "bonus_rule": (False, True),
}

ORDER = ("contracts", "generale", "capot_coinche", "belote", "belote_at", "belote_counts",
         "contract_test", "melds", "carre_nt", "coinche", "fail_base", "fail_capot",
         "capot_bid_base", "solo", "rounding", "target", "tie", "bonus_rule")

PRESETS = {
    # seed 000, German "Coinche: die Regeln"
    "classic2000": {
        "contracts": "suits", "generale": False, "capot_coinche": False, "belote": "taker",
        "belote_at": 0, "belote_counts": True, "contract_test": "82", "melds": "none",
        "carre_nt": "same", "coinche": "bid", "fail_base": 160, "fail_capot": False,
        "capot_bid_base": True, "solo": "capot", "rounding": True, "target": 2000,
        "tie": "deal", "bonus_rule": False,
    },
    # seed 001, French federation rules ("La coinche classique")
    "federation": {
        "contracts": "all", "generale": True, "capot_coinche": True, "belote": "both",
        "belote_at": 4, "belote_counts": True, "contract_test": "beat", "melds": "all",
        "carre_nt": "same", "coinche": "all", "fail_base": 160, "fail_capot": True,
        "capot_bid_base": False, "solo": "capot", "rounding": False, "target": 3000,
        "tie": "extra", "bonus_rule": True,
    },
    # seed 003, online "Coinche bis 1000"
    "coinche1000": {
        "contracts": "all", "generale": False, "capot_coinche": True, "belote": "both",
        "belote_at": 4, "belote_counts": True, "contract_test": "82+melds", "melds": "own",
        "carre_nt": "nt", "coinche": "winner", "fail_base": 160, "fail_capot": True,
        "capot_bid_base": True, "solo": "capot", "rounding": True, "target": 1000,
        "tie": "deal", "bonus_rule": False,
    },
    # seed 004, Italian "Belote Coinchée" to 1001
    "coinche1001": {
        "contracts": "all", "generale": True, "capot_coinche": True, "belote": "both",
        "belote_at": 0, "belote_counts": True, "contract_test": "beat+melds", "melds": "own",
        "carre_nt": "same", "coinche": "winner", "fail_base": 162, "fail_capot": False,
        "capot_bid_base": False, "solo": "500", "rounding": False, "target": 1001,
        "tie": "extra", "bonus_rule": False,
    },
}

PRESET_NAMES = ("classic2000", "federation", "coinche1000", "coinche1001")

# How long a game lasts when a concours plays rounds of a fixed number of deals. No
# seed sets these (a preset says how a deal scores, the organiser says how many deals
# a round has), so every preset starts from the same values, ROUND_DEFAULTS: a game
# to the target, as before these options existed, and an all-pass deal that counts.
#   deals        0: play to the target; N (1..MAX_ROUND_DEALS): the game is a round
#                that ends after N counted deals, the target unused
#   pass_counts  true: an all-pass deal is one of the N; false: it is dealt again
#                and does not count
ROUND_OPTIONS = {
    "deals": None,
    "pass_counts": (True, False),
}
ROUND_ORDER = ("deals", "pass_counts")
EVERY_OPTION = ORDER + ROUND_ORDER  # the order options are checked, listed and suggested in
ROUND_DEFAULTS = {"deals": 0, "pass_counts": True}
MAX_ROUND_DEALS = 50  # 12 or 15 in the concours found; the result code holds 50 of the highest-scoring deals


def unknown_option(name):
    """The RulesError for an option that does not exist (with a "did you mean")."""
    hint = None
    if isinstance(name, str):
        from coinche.suggestion import closest

        hint = closest(name, EVERY_OPTION)
    return RulesError(name, "unknown option%s (options: %s)" % (
        " - did you mean %r?" % hint if hint else "", ", ".join(EVERY_OPTION)))


def allowed_values(name):
    """The values option `name` takes (None: a whole number in its range); RulesError
    if there is no such option."""
    if name in OPTIONS:
        return OPTIONS[name]
    if name in ROUND_OPTIONS:
        return ROUND_OPTIONS[name]
    raise unknown_option(name)


def check_option(name, value):
    allowed = allowed_values(name)
    if name == "deals":
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ROUND_DEALS:
            raise RulesError(name, "must be 0 (play to the target) or a number of deals from 1 to %d, got %r"
                             % (MAX_ROUND_DEALS, value))
        return
    if name == "target":
        if isinstance(value, bool) or not isinstance(value, int) or not 100 <= value <= 99990:
            raise RulesError(name, "must be a whole number from 100 to 99990, got %r" % (value,))
        return
    for a in allowed:
        # bool is an int in Python: compare types too, so 1 is not True.
        if value == a and type(value) is type(a):
            return
    raise RulesError(name, "must be one of %s, got %r" % (", ".join(value_text(a) for a in allowed), value))


def value_text(value):
    """An option's value as messages and help write it: true, false, or str(value)."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def resolve(preset, options):
    """(every option's value, the options that differ from the preset's) of a preset with
    per-option overrides: what Rules keeps. RulesError for a preset, an option or a
    value that does not exist, the first in a fixed order (the same everywhere)."""
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RulesError("preset", "unknown preset %r (presets: %s)" % (preset, ", ".join(PRESET_NAMES)))
    opt = dict(PRESETS[preset])
    opt.update(ROUND_DEFAULTS)
    over = {}
    if options is not None and not isinstance(options, dict):
        raise RulesError("options", "must be an object of option: value")
    if options:
        bad = [k for k in options if k not in OPTIONS and k not in ROUND_OPTIONS]
        if bad:
            bad.sort(key=repr)
            check_option(bad[0], options[bad[0]])  # raises: unknown option
        for k in EVERY_OPTION:  # a fixed order: the first bad option is the same everywhere
            if k not in options:
                continue
            v = options[k]
            check_option(k, v)
            if opt[k] != v or type(opt[k]) is not type(v):  # opt[k]: still the preset's value
                over[k] = v
            opt[k] = v
    return opt, over
