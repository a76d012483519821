"""table/draft.py: the Draft of a deal (steps, defaults, piles, belote and coinche
choices) and the records it makes, checked against coinche.record.validate."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ui_corpus
from coinche.melds import CODES, SEQUENCES
from coinche.record import RecordError, validate
from coinche.rule_options import PRESET_NAMES
from coinche.rules import Rules
from table import draft

RULES = {p: Rules(p) for p in PRESET_NAMES}
WITH_MELDS = ("federation", "coinche1000", "coinche1001")


# ------------------------------------------------------------------ steps

def test_steps_of_a_new_deal_per_preset():
    # the coinche is set on the contract step, the card points, belote and melds on the
    # confirm step: no step of their own (the tens are the confirm step's BACK)
    assert draft.Draft(RULES["classic2000"]).steps() == ["bid", "confirm"]
    for p in WITH_MELDS:
        assert draft.Draft(RULES[p]).steps() == ["bid", "confirm"], p
        assert draft.Draft(RULES[p]).kinds() == ("suit", "NT", "AT")
    assert draft.Draft(RULES["classic2000"]).kinds() == ("suit",)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_steps_of_pass_capot_and_edit(preset):
    r = RULES[preset]
    d = draft.Draft(r)
    d.bid = "pass"
    assert d.steps() == ["bid", "confirm"]
    d = draft.Draft(r, record={"bid": "pass"})
    assert d.steps() == ["taker", "bid", "confirm"]  # an edit starts with who took
    d = draft.Draft(r)
    assert d.has_points()
    d.bid = "capot"
    d.tens = d.default_tens()
    assert d.tens == draft.ALL and not d.has_points()  # all tricks: no card points to set
    assert d.steps() == ["bid", "confirm"]
    rec = {"taker": "EW", "bid": 120, "trump": "H", "points": 95}
    d = draft.Draft(r, record=validate(r, rec))
    assert d.steps()[0] == "taker" and d.steps()[1:] == draft.Draft(r).steps()


def test_best_melds_step_only_when_the_codes_cannot_tell():
    r = RULES["federation"]
    d = draft.Draft(r)
    assert not d.needs_melds_to()
    d.melds = {"NS": ["tierce"], "EW": []}
    assert not d.needs_melds_to()
    d.melds = {"NS": ["tierce"], "EW": ["quarte"]}
    assert not d.needs_melds_to()
    d.melds = {"NS": ["tierce"], "EW": ["tierce"]}
    assert d.needs_melds_to() and d.melds_unsettled() and d.steps()[-1] == "confirm"  # asked from there
    d.melds = {"NS": [], "EW": []}
    d.melds_to = None  # the table overrode the engine: always asked again
    assert d.needs_melds_to()
    # coinche1000 at NT: a carre of nines is no meld, so a tierce beats it
    r = RULES["coinche1000"]
    d = draft.Draft(r)
    d.kind = "NT"
    d.melds = {"NS": ["carre_9"], "EW": ["tierce"]}
    assert not d.needs_melds_to()
    d.kind = "suit"  # 150 at a suit: NS's carre wins
    assert not d.needs_melds_to()


# ------------------------------------------------------------------ defaults

@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_defaults_of_a_new_deal(preset):
    r = RULES[preset]
    d = draft.Draft(r, "EW")
    assert (d.taker, d.bid, d.kind, d.coinche, d.belote, d.pile) == ("EW", 80, "suit", 0, (0, 0), "T")
    assert (d.tens, d.units) == (8, 0) and d.takers_points() == 80  # the bid itself: made by a hair
    assert d.melds == {"NS": [], "EW": []} and d.melds_to == "auto"
    assert d.record() == {"taker": "EW", "bid": 80, "trump": "suit", "coinche": 0, "points": 80}


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_card_points_by_one_wrap_on_a_press_and_stop_when_held(preset):
    """The confirm step's UP/DOWN: the card points one up or down from the contract's
    figure, across the tens; a press wraps round 0..162, a held key stops at the ends."""
    d = draft.Draft(RULES[preset])
    assert d.points_entered() == 80 and not d.touched
    assert d.step_points(-1)
    assert (d.tens, d.units) == (7, 9) and d.takers_points() == 79 and d.touched
    assert d.step_points(1) and d.takers_points() == 80
    d.tens, d.units = 16, 2
    assert not d.step_points(1, wrap=False) and d.takers_points() == 162  # held: stops
    assert d.step_points(1) and d.takers_points() == 0  # a press: round to 0
    assert not d.step_points(-1, wrap=False) and d.takers_points() == 0
    assert d.step_points(-1) and d.takers_points() == 162
    d.set_pile("D")  # the defence's pile: its own points by one
    assert d.points_entered() == 0 and d.step_points(1) and d.takers_points() == 161


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_announce_choices_three_way(preset):
    """The three-way picker: UP belote, DOWN tierce, held OK quarte, OK the others."""
    r = RULES[preset]
    d = draft.Draft(r, "NS")
    up, down, hold, others = d.announce_choices("NS")
    assert up == draft.BELOTE
    if r.has_melds():
        assert (down, hold) == ("tierce", "quarte")
        assert others == [c for c in CODES if c not in ("tierce", "quarte")]  # no melds yet: no "best"
        d.announce("NS", "quinte")
        d.announce("NS", draft.BELOTE)
        up, down, hold, others = d.announce_choices("NS")
        assert draft.BEST in others and draft.REMOVE_BELOTE in others and 0 in others
        assert sorted(map(str, others + [x for x in (up, down, hold) if x])) == sorted(map(str, d.announce_items("NS")))
    else:
        assert (down, hold, others) == (None, None, [])
        assert d.announce_choices("EW") == (None, None, None, [])  # the defence: no belote here


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_special_bids_default_to_all_tricks(preset):
    r = RULES[preset]
    d = draft.Draft(r)
    d.bid = "capot"
    assert d.default_tens() == draft.ALL
    d.tens = d.default_tens()
    rec = d.record()
    assert rec["points"] == 162 and rec["tricks"] == 8 and "solo" not in rec
    assert validate(r, rec) == rec
    if r["generale"]:
        d.bid = "generale"
        d.tens = d.default_tens()
        assert d.tens == draft.SOLO
        rec = d.record()
        assert (rec["points"], rec["tricks"], rec["solo"]) == (162, 8, True)
        assert validate(r, rec) == rec
        assert draft.SOLO in d.tens_items()
    else:
        assert draft.SOLO not in d.tens_items() and "generale" not in d.bid_items()


def test_tens_items_per_pile():
    r = RULES["federation"]
    d = draft.Draft(r)
    assert d.tens_items() == [draft.DEF_ALL] + list(range(17)) + [draft.ALL, draft.SOLO]
    d.set_pile("D")
    assert d.tens_items() == [draft.SOLO, draft.ALL] + list(range(17)) + [draft.DEF_ALL]
    d = draft.Draft(RULES["classic2000"])
    assert d.tens_items() == [draft.DEF_ALL] + list(range(17)) + [draft.ALL]
    assert d.bid_items() == ["pass", 80, 90, 100, 110, 120, 130, 140, 150, 160, "capot"]
    d.tens, d.units = 15, 9
    assert d.step_points(1) and (d.tens, d.units) == (16, 0)  # by one across the tens
    d.tens, d.units = 16, 2
    assert d.points_entered() == 162 and d.step_points(1) and d.points_entered() == 0  # 162 at most


# ------------------------------------------------------------------ piles

@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PRESET_NAMES), st.integers(0, 162))
def test_pile_switch_keeps_the_total(preset, p):
    d = draft.Draft(RULES[preset])
    d.tens, d.units = p // 10, p % 10
    assert d.takers_points() == p
    d.set_pile("D")
    assert d.pile == "D" and d.takers_points() == p
    assert d.tens * 10 + d.units == 162 - p  # now showing the defence's pile
    assert d.record()["points"] == p
    d.set_pile("D")  # no change
    assert d.takers_points() == p
    d.set_pile("T")
    assert (d.tens, d.units) == (p // 10, p % 10)


@pytest.mark.parametrize("special,points", [(draft.ALL, 162), (draft.DEF_ALL, 0), (draft.SOLO, 162)])
def test_pile_switch_keeps_specials(special, points):
    d = draft.Draft(RULES["coinche1001"])
    d.tens = special
    d.set_pile("D")
    assert d.tens == special and d.takers_points() == points
    assert special in d.tens_items()


def test_points_entered_on_the_defence_pile():
    r = RULES["classic2000"]
    d = draft.Draft(r, "NS")
    d.set_pile("D")
    d.tens, d.units = 4, 7  # the defence counted 47
    assert d.record()["points"] == 115
    d.tens = draft.DEF_ALL
    assert (d.record()["points"], d.record()["tricks"]) == (0, 0)


# ------------------------------------------------------------------ belote and coinche choices

def test_announce_items_by_hand():
    c = RULES["classic2000"]
    d = draft.Draft(c, "NS")
    assert d.announce_items("NS") == [draft.BELOTE] and d.announce_items("EW") == []  # the takers only
    d.announce("NS", draft.BELOTE)
    assert d.belote == (1, 0) and d.announce_items("NS") == [draft.REMOVE_BELOTE]
    d.announce("NS", draft.REMOVE_BELOTE)  # one team at a time, both ways
    assert d.belote == (0, 0)
    f = RULES["federation"]
    d = draft.Draft(f, "NS")
    assert d.announce_items("EW") == [draft.BELOTE] + list(CODES)
    d.announce("EW", draft.BELOTE)
    assert d.announce_items("NS") == list(CODES)  # one belote at a suit: taken
    assert d.announce_items("EW") == list(CODES) + [draft.REMOVE_BELOTE]
    d.announce("EW", "tierce")
    d.announce("EW", "quarte")
    assert d.announce_items("EW") == list(CODES) + [draft.BEST, draft.REMOVE_BELOTE, 0, 1]
    d.announce("EW", 0)  # a single meld goes: the tierce
    assert d.melds["EW"] == ["quarte"]
    d.kind = "NT"
    assert draft.BELOTE not in d.announce_items("NS")
    assert draft.REMOVE_BELOTE in d.announce_items("EW")  # a stale belote can still go
    d.kind = "AT"
    d.announce("NS", draft.BELOTE)
    d.announce("NS", draft.BELOTE)
    d.announce("EW", draft.BELOTE)
    assert d.belote == (2, 2) and draft.BELOTE not in d.announce_items("NS")  # four at most
    assert draft.Draft(RULES["coinche1001"], "NS").announce_items("NS")[0] == draft.BELOTE
    d = draft.Draft(RULES["coinche1001"], "NS")
    d.kind = "AT"
    assert draft.BELOTE not in d.announce_items("NS")  # no belote at AT there


KINDS = [(p, k) for p in PRESET_NAMES for k in ("suit", "NT", "AT") if k == "suit" or RULES[p]["contracts"] == "all"]


def _reachable_belotes(d):
    """Every (NS, EW) belote count the announce pickers reach from none."""
    seen = {(0, 0)}
    todo = [(0, 0)]
    while todo:
        b = todo.pop()
        for team in ("NS", "EW"):
            d.belote = b
            for it in d.announce_items(team):
                if it in (draft.BELOTE, draft.REMOVE_BELOTE):
                    d.belote = b
                    d.announce(team, it)
                    if d.belote not in seen:
                        seen.add(d.belote)
                        todo.append(d.belote)
    d.belote = (0, 0)
    return seen


@pytest.mark.parametrize("preset,kind", KINDS)
@pytest.mark.parametrize("taker", ["NS", "EW"])
def test_belote_announces_reach_exactly_the_valid_counts(preset, kind, taker):
    r = RULES[preset]
    d = draft.Draft(r, taker)
    d.kind = kind
    reach = _reachable_belotes(d)
    for a in range(5):
        for b in range(5):
            rec = {"taker": taker, "bid": 100, "trump": kind, "points": 100, "belote": {"NS": a, "EW": b}}
            try:
                validate(r, rec)
                ok = True
            except RecordError as e:
                assert e.field == "belote"
                ok = False
            assert ok == ((a, b) in reach), (a, b)


def test_coinche_options():
    c = RULES["classic2000"]
    assert draft.coinche_options(c, 100) == (0, 1, 2)
    assert draft.coinche_options(c, "capot") == (0,)  # a capot bid cannot be coinched there
    for p in WITH_MELDS:
        assert draft.coinche_options(RULES[p], "capot") == (0, 1, 2)


# ------------------------------------------------------------------ records

MELD_LISTS = st.lists(st.sampled_from(CODES), max_size=3)


@st.composite
def drafts(draw):
    """A draft filled in through the choices the screens offer, in step order."""
    preset = draw(st.sampled_from(PRESET_NAMES))
    r = RULES[preset]
    d = draft.Draft(r, draw(st.sampled_from(["NS", "EW"])))
    d.bid = draw(st.sampled_from(d.bid_items()))
    d.tens = d.default_tens()
    if d.bid == "pass":
        return r, d
    if r["contracts"] == "all":
        d.kind = draw(st.sampled_from(["suit", "NT", "AT"]))
    if draw(st.booleans()):
        d.set_pile("D")
    d.tens = draw(st.sampled_from(d.tens_items()))
    if isinstance(d.tens, int):
        d.units = draw(st.integers(0, 2 if d.tens == 16 else 9))
    d.coinche = draw(st.sampled_from(d.coinche_items()))
    for _ in range(draw(st.integers(0, 3))):  # belotes through the pickers, one team at a time
        team = draw(st.sampled_from(["NS", "EW"]))
        if draft.BELOTE in d.announce_items(team):
            d.announce(team, draft.BELOTE)
    if r.has_melds():
        used = set()
        for team in ("NS", "EW"):
            for code in draw(MELD_LISTS):
                if code not in SEQUENCES and code in used:
                    continue  # one set of four per card
                used.add(code)
                assert code in d.announce_items(team)
                d.announce(team, code)
        if d.needs_melds_to() or draw(st.booleans()):
            d.melds_to = draw(st.sampled_from(["NS", "EW", None] + ([] if d.needs_melds_to() else ["auto"])))
    return r, d


@settings(max_examples=400, deadline=None)
@given(drafts())
def test_records_from_offered_choices_are_valid_and_canonical(rd):
    r, d = rd
    rec = d.record()
    assert validate(r, rec) == rec  # valid, and already in the stored (canonical) form
    back = draft.Draft(r, record=rec)  # an edit loads exactly what was saved
    assert back.record() == rec
    if rec["bid"] != "pass":
        assert back.taker == d.taker and back.takers_points() == d.takers_points()


def test_corpus_records_survive_an_edit_round_trip():
    """Every corpus record, loaded for editing and saved untouched, scores the same."""
    from coinche.game import Game
    n = 0
    for _label, preset, options, records in ui_corpus.games(ui_corpus.SEED_TUNING, 150):
        r = Rules(preset, options)
        back = [draft.Draft(r, record=validate(r, rec)).record() for rec in records]
        g, h = Game(r, records), Game(r, back)
        assert [x.score for x in g.results] == [x.score for x in h.results]
        n += len(records)
    assert n > 500


def test_stale_extras_make_an_invalid_record_naming_the_field():
    """The confirm step shows these errors: extras entered before the contract changed."""
    r = RULES["federation"]
    d = draft.Draft(r)
    d.belote = (1, 0)
    d.kind = "NT"  # changed on the kind step after the belote was set
    with pytest.raises(RecordError) as e:
        validate(r, d.record())
    assert e.value.field == "belote"
    assert d.announce_items("NS") == list(CODES) + [draft.REMOVE_BELOTE]  # it can go
    d.announce("NS", draft.REMOVE_BELOTE)
    assert validate(r, d.record())
    # a coinche set on a number does not apply to a capot bid the preset forbids it on
    # (and comes back with the number): the record is valid either way
    r = RULES["classic2000"]
    d = draft.Draft(r)
    d.coinche = 1
    d.bid = "capot"
    d.tens = d.default_tens()
    assert d.coinche_items() == (0,)
    assert validate(r, d.record())["coinche"] == 0
    d.bid = 160
    assert validate(r, d.record())["coinche"] == 1
