"""Key planner: deal records in, the shortest button script that enters them.

    python3 -m host_tools.calculator.keys --rules PRESET [--target N] [--set OPTION=VALUE ...] [FILE]

Reads deal records (JSON lines) and prints one simulator script that, run from
the home screen of a new game, enters and saves them all, each deal preceded
by `# deal N: K presses, about T s` (T: the keystroke-level time estimate
below; the averages go to stderr). A hold (`hold up 730`) counts as one press: on the
device a held UP/DOWN repeats faster and faster and the player lets go on the
value, just as the planner does. The planner walks the firmware's own Draft
(firmware/table/draft.py) and key timing (firmware/events/timing.py), so its idea of
defaults and steps cannot drift from the device's.

The device's guards are pressed too, only on the deals they stop: an all-pass deal
is the menu, its first row and the save on its check screen, card points of
162 or 0 entered as a number answer the "Capot?" question with BACK.

The UI records what changes a score: a trump suit is stored as "suit", and a
trick count other than 0 or 8 is not entered (it never changes a score).
"""
import json
import sys

from coinche import melds  # noqa: E402
from coinche.game import Game, GameError  # noqa: E402
from coinche.record import RecordError, validate  # noqa: E402
from coinche.rules import Rules, RulesError  # noqa: E402
from host_tools.common.rules_help import UsageError, parse_rules_arguments
from host_tools.calculator.round_end import EndError, after_end_error, is_end, winner_on_time
from table import draft  # noqa: E402
from events.timing import LONG_MS, POLL_MS, repeat_at  # noqa: E402

LONG_HOLD = LONG_MS + 100  # "hold ok 700": comfortably past the long-press threshold
HOLD_OK = "hold ok %d" % LONG_HOLD
HOLD_BACK = "hold back %d" % LONG_HOLD


def hold_for(k):
    """Hold length (ms) that gives exactly k steps: the press, then k-1 repeats.

    Polled, the press registers DEBOUNCE_MS + POLL_MS after the key goes down and
    the release as long after it goes up, so k steps need
    repeat_at(k-1) <= D - POLL_MS < repeat_at(k) (docs/ui.md); with edge
    interrupts both register at their edges, so repeat_at(k-1) <= D < repeat_at(k),
    which the middle of the first window also meets. The planner aims at that
    middle, so a jittery real hand still lands."""
    assert k >= 2
    lo = repeat_at(k - 1) + POLL_MS
    hi = repeat_at(k) + POLL_MS
    mid = (lo + hi) // 2
    return mid - mid % POLL_MS


def moves(key, k):
    """Events for k steps with one key: nothing, a press, or one hold."""
    if k <= 0:
        return []
    if k == 1:
        return [key]
    return ["hold %s %d" % (key, hold_for(k))]


def wrap_moves(i, j, n, up_increases=True):
    """Shortest way from index i to j on a list of n that wraps, press or hold."""
    fwd = (j - i) % n
    back = (i - j) % n
    up, down = ("up", "down") if up_increases else ("down", "up")
    if fwd <= back:
        return moves(up, fwd)
    return moves(down, back)


def presses(events):
    return sum(1 for e in events if not e.startswith("#") and not e.startswith("wait"))


def _trump_kind(t):
    return t if t in ("NT", "AT") else "suit"


def _tens_target(rec, pile):
    if rec.get("solo"):
        return draft.SOLO, 0
    if rec.get("tricks") == 8:
        return draft.ALL, 0
    if rec.get("tricks") == 0:
        return draft.DEF_ALL, 0
    v = rec["points"] if pile == "T" else 162 - rec["points"]
    return v // 10, v % 10


def stop_or_wrap_moves(i, j, n):
    """Shortest way from index i to j on a list of n where single presses wrap but a held
    key stops at the ends (the card points, by tens and by one): a hold goes the direct
    way, only single presses go round."""
    direct = moves("up" if j > i else "down", abs(j - i))
    wrapped = ["up" if j < i else "down"] * (n - abs(j - i))
    return direct if presses(direct) <= presses(wrapped) else wrapped


def _by_ones(d, v):
    """Events that take the check step's card points (of the pile counted) to v, one
    point a step (0..162)."""
    return stop_or_wrap_moves(d.points_entered(), v, 163)


def _special_by_ones(rec):
    """A capot or a defence capot reached as 162 or 0 card points and OK on the "Capot?"
    question when saving (the takers' pile)."""
    if rec.get("tricks") == 8 and not rec.get("solo"):
        return 162
    if rec.get("tricks") == 0:
        return 0
    return None


def _points_ways(d, rec):
    """Every way to the deal's card points from the check step, as (events, tens, units,
    pile): by one from the contract's figure where it is, or BACK to the card points by
    tens (the defence's pile there, if asked: held OK), their OK back to the check step, then
    by one to the units."""
    ways = []
    special = _special_by_ones(rec)
    if d.has_points():  # the takers' pile, at the contract's figure
        v = rec["points"] if special is None else special
        if not rec.get("solo"):
            ev = _by_ones(d, v)
            ways.append((ev, v // 10, v % 10, d.pile))
    elif _tens_target(rec, d.pile)[0] == d.tens:
        ways.append(([], d.tens, d.units, d.pile))  # a capot bid made: its default
    for pile in ("T", "D"):
        tens, units, cur = d.tens, d.units, d.pile
        ev = ["back"]
        if pile != cur:
            ev.append(HOLD_OK)
            d.set_pile(pile)
        items = d.tens_items()
        t_target, u_target = _tens_target(rec, pile)
        ev += stop_or_wrap_moves(items.index(d.tens) if d.tens in items else 0, items.index(t_target), len(items))
        d.tens = t_target
        if d.tens == 16 and d.units > 2:
            d.units = 2
        ev.append("ok")
        if isinstance(t_target, int):
            ev += _by_ones(d, t_target * 10 + u_target)
            d.units = u_target
        ways.append((ev, d.tens, d.units, d.pile))
        d.tens, d.units, d.pile = tens, units, cur
    return ways


def _points_events(d, rec):
    """The card points from the check step: the quickest way (the tens' screen read
    counted), then the one of fewest presses. A player lets a held key run through a
    few dozen points rather than go to the tens, but not through a hundred: 0 from a
    contract of 120 is BACK, the tens, OK, not a 10-second hold. d takes the fields it
    leaves."""
    ev, d.tens, d.units, d.pile = min(_points_ways(d, rec),
                                      key=lambda w: (seconds(w[0], "back" in w[0]), presses(w[0])))
    return ev


OPENER = {"NS": HOLD_OK, "EW": HOLD_BACK}  # the check step's hold that opens a team's announces


def announce_events(d, team, item):
    """(events, screens read) that apply one announce item (Draft.announce_items) for
    team from the check step, back on it; d is not changed."""
    key = OPENER[team]
    if not d.rules.has_melds() and len(d.announce_items(team)) == 1:
        return [key], 0  # the hold toggles the only announce (the belote)
    up, down, hold, others = d.announce_choices(team)
    if item == up:
        return [key, "up"], 2  # the picker, then the check step again
    if item == down:
        return [key, "down"], 2
    if item == hold:
        return [key, HOLD_OK], 2
    # OK: the list of the others
    return [key, "ok"] + wrap_moves(0, others.index(item), len(others), up_increases=False) + ["ok"], 3


def canonical(rules, rec):
    """What the device stores for rec: the validated record with what the UI does not
    enter dropped (the trump colour, trick counts other than 0 and 8, a melds_to with
    no melds); none of it ever changes a score."""
    r = validate(rules, rec)
    if r["bid"] == "pass":
        return r
    if r["trump"] not in ("NT", "AT"):
        r["trump"] = "suit"
    if r.get("tricks") not in (None, 0, 8):
        del r["tricks"]
    if "melds_to" in r and not r.get("melds"):
        del r["melds_to"]
    return r


def plan_deal(rules, game, rec):
    """Events (from the home screen) that enter and save rec; rec must be valid."""
    return plan_deal_read(rules, game, rec)[0]


def plan_deal_read(rules, game, rec):
    """(events, screens read): the events of plan_deal and how many new screens the
    player reads on the way (the M operators of the time estimate)."""
    rec = validate(rules, rec)
    if rec["bid"] == "pass":
        return ["ok", "ok", "ok"], 2  # menu (read), its first row: the all-pass's check screen (read), save
    ev = ["up" if rec["taker"] == "NS" else "down"]
    d = draft.Draft(rules, rec["taker"])  # the contract starts at 80
    items = d.bid_items()
    ev += wrap_moves(items.index(d.bid), items.index(rec["bid"]), len(items))
    d.bid = rec["bid"]
    d.tens = d.default_tens()
    d.units = 0
    # held OK on the contract cycles its type: suit -> NT -> AT
    kinds = d.kinds()
    d.kind = _trump_kind(rec["trump"])
    ev += [HOLD_OK] * kinds.index(d.kind)
    # held BACK on the contract steps the coinche level (none, x2, x4)
    ev += [HOLD_BACK] * rec.get("coinche", 0)
    d.coinche = rec.get("coinche", 0)
    ev.append("ok")
    points = _points_events(d, rec)  # on the check step: by one, or BACK to the tens and back
    ev += points
    reads = 2 if "back" in points else 1  # the contract, the tens if seen (the check step is counted below)
    # the check step: held OK / held BACK open the NS / EW announce picker, a three-way
    # screen (UP belote, DOWN tierce, held OK quarte, OK the list of the others)
    bel = rec.get("belote") or {}
    declared = rec.get("melds") or {}
    for team in ("NS", "EW"):
        wanted = [draft.BELOTE] * bel.get(team, 0) + list(declared.get(team, ()))
        for item in wanted:
            e, r = announce_events(d, team, item)
            ev += e
            reads += r
            d.announce(team, item)
    want_to = rec.get("melds_to", "auto")
    has = d.melds["NS"] or d.melds["EW"]
    auto = melds.winner(d.melds, d.trump(), rules["carre_nt"]) if has else None
    answer = {"NS": "up", "EW": "down"}
    if d.melds_unsettled():
        ev += ["ok", answer.get(want_to, "ok")]  # OK asks whose melds are best first
        reads += 2
    elif has and want_to != "auto" and want_to != auto:
        e, r = announce_events(d, "NS", draft.BEST)  # the table overrides the codes: "best melds?"
        ev += e
        ev.append(answer.get(want_to, "ok"))
        reads += r + 1  # the picker, its list, whose melds are best, the check step again
    reads += 1  # the confirm step
    ev.append("ok")  # confirm: save
    if capot_question(d):
        ev.append(capot_answer(rec))
        reads += 1
    return ev, reads


def capot_answer(rec):
    """The answer to "Capot?" on saving card points of 162 or 0: OK for a capot (or the
    defence's) entered that way, BACK for the card points as entered."""
    return "ok" if _special_by_ones(rec) is not None else "back"


def capot_question(d):
    """Does saving draft d ask "Capot?" first (card points of 162 or 0 entered as a
    number, not as the capot item)? The device asks it once, on saving."""
    return d.has_points() and d.takers_points() in (0, 162)


# Time per deal, keystroke-level model (Card, Moran & Newell, "The Psychology of
# Human-Computer Interaction", 1983; CACM 23(7), 1980): K = 0.28 s per keystroke
# (average non-secretary typist; a button under a finger is no slower), M = 1.35 s
# of mental preparation, here charged once per new screen the player reads; a
# hold costs K plus the time the key is held (it cannot be shortened: the device
# repeats at its own pace). System response is not charged (a redraw takes
# milliseconds).
KLM_K = 0.28
KLM_M = 1.35


def seconds(events, reads):
    """Estimated seconds for a deal's events with `reads` new screens read."""
    t = reads * KLM_M
    for e in events:
        if e.startswith("#") or e.startswith("wait"):
            continue
        t += KLM_K
        if e.startswith("hold"):
            t += int(e.split()[2]) / 1000
    return t


def plan_dealer(game, seat):
    """Events (from the home screen) that correct the next dealer of game to seat:
    menu > "Next dealer" > UP/DOWN through the seats in the game's dealing order > OK.
    The caller records the correction in its Game (game.fixes = game.with_fix(seat))."""
    from coinche.game import ORDERS
    from screens.menu import Menu
    items = Menu.ITEMS
    ev = ["ok"] + wrap_moves(0, items.index("m_dealer"), len(items), up_increases=False) + ["ok"]
    seats = ORDERS[game.order]
    ev += wrap_moves(seats.index(game.dealer()), seats.index(seat), 4)
    return ev + ["ok"]


def plan_end_now():
    """Events (from the home screen) that end a concours round on time after the deals
    played: menu > "End the round now" > OK to its question."""
    from screens.menu import Menu
    items = Menu.ITEMS
    return ["ok"] + wrap_moves(0, items.index("m_end"), len(items), up_increases=False) + ["ok", "ok"]


class PlanError(ValueError):
    pass


DEAL_MARK = "# deal "  # the comment line plan() puts before each deal's keys


def deal_scripts(lines):
    """A script of plan() (possibly after lines of its own) cut at its deal lines:
    (the lines before the first deal, [each deal's lines, its DEAL_MARK line first])."""
    before, deals = [], []
    for line in lines:
        if line.startswith(DEAL_MARK):
            deals.append([])
        (deals[-1] if deals else before).append(line)
    return before, deals


def plan(rules, records, lines=None, times=None):
    """(script lines, [presses per deal]) for a whole game.

    lines: the input line number of each record, for error messages;
    times: a list that receives the estimated seconds of each deal."""
    game = Game(rules)
    out = []
    counts = []
    ended = 0
    for n, rec in enumerate(records, 1):
        where = "line %d" % (lines[n - 1] if lines else n)
        try:
            if ended:
                raise after_end_error(lines[ended - 1] if lines else ended)
            if is_end(rec):
                if game.over:
                    raise GameError("the round is already over: it cannot also end on time")
                ended = n
                # the table's Menu > "End the round now" and its question (the organiser's
                # clock over the link ends it the same way, without keys)
                out.append("# the round ends on time after deal %d: %s wins" % (len(game.deals),
                                                                             winner_on_time(game.total)))
                out += plan_end_now()
                continue
            ev, reads = plan_deal_read(rules, game, rec)
            game.add(rec)
        except (RecordError, GameError, EndError) as e:
            raise PlanError("%s: %s" % (where, e))
        k = presses(ev)
        t = seconds(ev, reads)
        counts.append(k)
        if times is not None:
            times.append(t)
        out.append("%s%d: %d presses, about %.1f s" % (DEAL_MARK, n, k, t))
        out += ev
    return out, counts


def main(argv):
    try:
        parsed = parse_rules_arguments(argv, "classic2000")  # the calculator's command line
        if parsed is None:
            print(__doc__)
            return 0
        preset, over, path = parsed
        rules = Rules(preset, over)
    except (RulesError, UsageError) as e:
        sys.stderr.write("keys: %s\n" % e)
        return 2
    try:
        f = open(path) if path and path != "-" else sys.stdin
    except OSError as e:
        sys.stderr.write("keys: cannot open %s: %s\n" % (path, e))
        return 2
    records = []
    numbers = []
    for n, line in enumerate(f, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            sys.stderr.write("keys: line %d: malformed JSON\n" % n)
            return 2
        records.append(rec)
        numbers.append(n)
    times = []
    try:
        lines, counts = plan(rules, records, numbers, times)
    except PlanError as e:
        sys.stderr.write("keys: %s\n" % e)
        return 2
    sys.stdout.write("\n".join(lines) + "\n")
    if counts:
        sys.stderr.write("keys: %d deals, %.2f presses and about %.1f s per deal (K %.2f s, M %.2f s per screen read)\n"
                         % (len(counts), sum(counts) / len(counts), sum(times) / len(times), KLM_K, KLM_M))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
