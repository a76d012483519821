"""What the journal holds that the link has not handed to its outbox yet: read from
the journal's own files when the link starts, so a power cut between a save and
the link's next poll loses no report (the journal is the outbox).

The key path only notes an action in RAM (TableLink.journalled); the link signs
it and appends it to link/outbox.py's file at a later poll. Whatever a power cut
took from RAM is still in the journal: each game action is a line of the current
game's segments with its sequence number ("q"); the one action a base swallows
is in that base's header: a game's first base is its "new" (with the header's
rules), a compaction's base holds the action folded into it ("a",
store/journal.py). Loaded on demand when the link starts, then released.

Not rebuilt (docs/club.md): an action of a game already closed (its lines are
gone with the game's segments; they reach the outbox at the poll after the save,
long before the next game can start), the action folded into a base that a
repair wrote again (a repair keeps the deals, not the action), and a rebuilt
"new" carries no "result" (the totals of the game it closed, which its deals
already gave the organiser; a base does not keep them).
"""
from store.format import segment_name


def newest(journal):
    """The journal's newest sequence number (settings included)."""
    return max([copy.sequence() for copy in journal.copies] or [0])


def unsent(journal, after):
    """[(game, seq, action)] of the journal's current game with seq above `after`,
    oldest first, each action as the journal holds it (no "q"); settings are not
    sent. From a copy that holds them all, the one that holds the most (a copy a
    repair rewrote holds fewer lines: a base without the actions it folded)."""
    best = None
    for copy in journal.copies:
        found, complete = copy_unsent(copy, after)
        if best is None or (complete, len(found)) > best[0]:
            best = ((complete, len(found)), found)
    return best[1] if best else []


def copy_unsent(copy, after):
    """(actions, complete) of one copy: complete is False when a base above `after`
    does not say which action made it, or a segment does not read back."""
    game = copy.game_number
    if not game or copy.sequence() <= after:
        return [], True
    lines = []  # the lines numbered above `after`: a plain segment's header has no number

    def visit(line, index):
        if line.get("q", 0) > after:
            lines.append(line)

    complete = True
    for segment in sorted(segment for number, segment in copy.segment_files
                          if number == game and segment >= copy.base_segment):
        try:
            copy.read_lines(segment_name(game, segment), visit)
        except ValueError:  # a segment that does not read back (load() keeps its readable start)
            complete = False
            break
    found = []
    for line in lines:
        sequence = line["q"]
        action = base_action(line) if "t" in line else line  # a base's header, or an action's line
        if action is None:
            complete = False
            continue
        action.pop("q", None)
        found.append((game, sequence, action))
    return found, complete


def base_action(header):
    """The action that made a base (a copy), None when its header does not say."""
    if header.get("s") == 0 and header.get("n") == 0:
        return {"op": "new", "rules": header.get("rules")}  # a game's first base: its "new"
    action = header.get("a")
    return dict(action) if action is not None else None
