"""The texts of deal entry's check-and-save step: the contract, the verdict and why,
the belote and whose melds score, the keys in words (Entry builds them once per change
of the draft).

Loaded on demand (on_demand.py) while they are built and released at once: with
`make deploy`'s .mpy files their code would otherwise stay on the heap through every
deal, where the heap of a game peaks.
"""
from coinche.melds import credited, total
from render.text import first_that_fits
from screens.base import contract_text
from table.draft import ALL, DEF_ALL, SOLO

_LINE = 18  # characters on one line of the 128x64 screen, drawn 7 px apart when one in eight too long


def _fit(*texts):
    """The first of texts that fits one line of the 128x64 screen (the last one anyway)."""
    return first_that_fits(texts, 128)


def _first_on_a_line(*texts):
    """The first of texts that fits one line of the 128x64 screen drawn 7 px apart (the last anyway)."""
    for text in texts:
        if len(text) <= _LINE:
            return text
    return texts[-1]


def _belote_label(app, belotes):
    """'Belote NS', 'Belote NS x2 EO' ... for the (NS, EW) counts of belotes, with the
    team names ('Belote 1-1' when long names do not fit); '' for none."""
    if belotes == (0, 0):
        return ""
    label = app.texts["belote"]
    for team, count in (("NS", belotes[0]), ("EW", belotes[1])):
        if count:
            label += " " + app.team_name(team) + ((" x%d" % count) if count > 1 else "")
    return _fit(label, "%s %d-%d" % (app.texts["belote"], belotes[0], belotes[1]))


def _verdict(entry):
    """(verdict line, detail line) of the confirm step: made or failed with the card
    points entered (the pile counted: they are set here by one, the layout marks
    the last digit) and the reason the scoring core gives
    (coinche.scoring.failure); capot and generale named; then, as far as the
    line holds them, the belote and whose melds score (coinche.melds.credited)
    first, since their points are counted, then the reason: a reason never takes
    the place of a belote or a meld."""
    texts = entry.app.texts
    draft = entry.draft
    r = entry.scored[0]
    entry.melds_sum = None  # the melds' sum when the detail line has no room for it (_announces_part)
    if r.made is None:
        return texts["passed"], ""
    parts = []
    why = None
    if r.made:
        if draft.tens == SOLO or draft.tens == ALL:  # named: the big scores say it was made
            special = texts["generale"] if draft.tens == SOLO else texts["capot"]
            line = _fit(texts["made"] + ": " + special, special)
        else:
            line = _points_line(entry, texts["made"])
    else:
        why, _, need = r.failure
        if draft.tens == DEF_ALL or why == "tricks" or why == "solo":
            special = texts["def_all"] if draft.tens == DEF_ALL else texts[draft.bid]
            line = _fit(texts["failed"] + ": " + special, special)
        else:
            line = _points_line(entry, texts["failed"])
        why = texts["r_" + why] + (" " + str(need) if why == "beat" else "")  # beat: the defence's figure
    parts.append(_announces_part(entry))
    if why is not None:
        parts.append(why)
    if draft.melds_unsettled():
        parts.append(texts["t_melds_to"])
    detail = ""
    for p in parts:  # as many as one line of the 128x64 screen holds (7 px apart), in this order;
        # the belote and melds always (their shortest form fits: the text-fit test sees it)
        if p and (not detail or _LINE >= len(detail + " " + p)):
            detail = detail + " " + p if detail else p
    if entry.melds_sum is not None and entry.melds_sum in detail:
        entry.melds_sum = None  # said already: no second detail line
    return line, detail


def _announces_part(entry):
    """The belote and whose melds score, for the detail line: 'Belote NS Ann. EO 150',
    else 'Bel.NS Ann.EO 150', else by counts 'Bel.1-0 Ann.0-150' (NS first, as the
    columns below); '' for neither. Both marks end with a dot (lang/*.txt)."""
    app = entry.app
    texts = app.texts
    draft = entry.draft
    belote = draft.belote
    team, pts = credited(draft.rules, entry.checked or draft.record())
    full = _belote_label(app, belote)
    entry.melds_sum = None
    if not pts:
        return full
    short = texts["melds_short"]
    name = app.team_name(team)
    entry.melds_sum = _melds_sum(entry, team, pts)
    if belote == (0, 0):
        if entry.melds_sum is not None:
            return entry.melds_sum
        return _first_on_a_line(short + " " + name + " " + str(pts), short + str(pts))
    mark = texts["belote_mark"]
    mark = mark[0].upper() + mark[1:]
    names = mark
    for side, count in (("NS", belote[0]), ("EW", belote[1])):
        if count:
            names += app.team_name(side) + ("x%d" % count if count > 1 else "")
    return _first_on_a_line(full + " " + short + " " + name + " " + str(pts), names + " " + short + name + " " + str(pts),
                            "%s%d-%d %s%d-%d" % (mark, belote[0], belote[1], short,
                                                 pts if team == "NS" else 0, pts if team == "EW" else 0))


def _melds_sum(entry, team, pts):
    """'Ann.EO 150+NS 50': where the best side scores both sides' melds (rules melds
    'all') and the other side announced some, whose points they are, so the other
    side's announce is seen going over; None otherwise."""
    draft = entry.draft
    rules = draft.rules
    if rules["melds"] != "all":
        return None
    rec = entry.checked or draft.record()
    other = "EW" if team == "NS" else "NS"
    theirs = total((rec.get("melds") or {}).get(other, ()), rec["trump"], rules["carre_nt"])
    if not theirs:
        return None
    short = entry.app.texts["melds_short"]
    name = entry.app.team_name(team)
    added = str(pts - theirs) + "+"
    theirs = str(theirs)
    return _first_on_a_line(short + " " + name + " " + added + entry.app.team_name(other) + " " + theirs,
                            short + name + " " + added + theirs, short + added + theirs)


def _holds_open_announces(entry):
    """(NS, EW): can the team announce anything in this deal (its hold key then opens
    its picker)? Kept until the draft changes (the card points do not change it)."""
    if entry.holds is None:
        draft = entry.draft
        entry.holds = (draft.bid != "pass" and bool(draft.announce_items("NS")),
                       draft.bid != "pass" and bool(draft.announce_items("EW")))
    return entry.holds


def _points_line(entry, verdict):
    """'Made 112', or for the defence's pile 'Made def. 50' ('def. 50' when that is
    too long): the card points as entered, their units digit last."""
    draft = entry.draft
    v = str(draft.points_entered())
    if draft.pile == "T":
        return verdict + " " + v
    short = entry.app.texts["def_points"] + " " + v
    return _fit(verdict + " " + short, short)


def build(entry):
    """The confirm step's texts, built once per change of the draft: (title, verdict,
    detail, the melds' sum, the keys' rows, BACK's action, whether the verdict's units
    digit is underlined), a tuple deal entry keeps (an object of a class of this module would
    keep the module alive as long as its texts are shown)."""
    texts = entry.app.texts
    draft = entry.draft
    if entry.confirm_title is None:
        rec = draft.record()
        title = contract_text(entry.app, rec)
        if entry.index is not None:
            title = str(entry.index + 1) + ": " + title
        entry.confirm_title = _fit(title, contract_text(entry.app, rec, compact=True), contract_text(entry.app, rec, False))
    points = draft.has_points()  # set here by one: UP/DOWN say so
    save = texts["save_points"] if points else texts["save"]
    verdict = detail = ""
    melds_sum = None
    if entry.error is None:
        verdict, detail = _verdict(entry)
        if entry.scored[2]:
            save = texts["save_end_points"] if points else texts["save_end"]  # this deal ends the game
        melds_sum = entry.melds_sum
    # each team's hold key in words where the hold opens its announces (NS held OK, EW held BACK)
    ns, ew = _holds_open_announces(entry)
    holds = texts["h_hold_announce_both"] if ns and ew else texts["h_hold_announce"] if ns else \
        texts["h_hold_announce_ew"] if ew else None
    mark = points and verdict != "" and "0" <= verdict[-1] <= "9"  # the units digit underlined
    # BACK: to the card points by tens (where the defence's pile and the capots are too);
    # after an all-pass, back to the contract
    back = texts["h_back_tens"] if draft.bid != "pass" else texts["e_no_points"]
    return entry.confirm_title, verdict, detail, melds_sum, (save, holds) if holds else save, back, mark
