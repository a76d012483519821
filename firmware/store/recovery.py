"""The journal's start-up reading: a copy's files read back and checked, the two
copies merged, the damaged parts set aside and repaired.

The steps are those of docs/storage.md ("load()"), one function each:
  1. list_directory    the copy's journal files by kind (empty files ignored later)
  2. read_settings     the newest readable settings file
  3. find_current_game the highest game with a readable base, and
     replay_game       that base and the segments after it, checked
  4. check_archives    the newest finished games, checked line by line
     finish            the repairs and the clean-up of interrupted work
  5. load_copies       with two copies: each read without writing, the newest
                       consistent version of each part chosen, and each copy
                       brought to it (bring_up_to_date)

Loaded on demand (on_demand.py) for the heap of `make deploy`: with the stock
firmware's .mpy files a module's bytecode is on the heap, and this part is used
at start-up (and after a write that failed) only. JournalCopy.load() loads it,
Journal.load() releases it afterwards, so a game runs without it. It fills the
state of a JournalCopy (the attributes its reset_state() sets: the copy's reading
side) and makes every write (repairs, the clean-up) through JournalCopy's
methods, so store/journal.py holds the whole writing side. It imports the
format (store/format.py), not the journal.
"""
import os

from coinche.compat import const

from store.format import (FORMAT_VERSION, LEGACY_SETTINGS_FILE, Unreadable, apply_action, archive_name,
                          check_version, ignore_line, rules_after, settings_file)

_S_IFREG = const(0x8000)


def _canonical_number(text):
    """A canonical decimal (no sign, no leading zero) as int, else -1."""
    if not text or not text.isdigit() or (len(text) > 1 and text[0] == "0"):
        return -1
    return int(text)


def _classify_name(name):
    """('set'|'seg'|'arc'|'dmg', G, S) for a journal file name, None for anything else.

    For a settings file, G is its number (0: the legacy settings.log)."""
    if name == LEGACY_SETTINGS_FILE:
        return ("set", 0, 0)
    if name.startswith("damaged-") and name.endswith(".bin"):
        number = _canonical_number(name[8:-4])
        return ("dmg", number, 0) if number >= 0 else None
    if len(name) < 6 or not name.endswith(".log"):
        return None
    stem = name[1:-4]
    if name[0] == "a" or name[0] == "s":
        number = _canonical_number(stem)
        if number > 0:
            return ("arc" if name[0] == "a" else "set", number, 0)
        return None
    if name[0] == "g":
        dot = stem.find(".")
        if dot > 0:
            game, segment = _canonical_number(stem[:dot]), _canonical_number(stem[dot + 1:])
            if game > 0 and segment >= 0:
                return ("seg", game, segment)
    return None


class DealCount:
    """Stands for a deal list when only its length matters (apply_action's calls)."""

    def __init__(self, length=0):
        self.length = length

    def __len__(self):
        return self.length

    def append(self, deal):
        self.length += 1

    def pop(self, index):
        self.length -= 1

    def __setitem__(self, index, deal):
        pass


class Listing:
    """What step 1 found in a copy's directory, by kind of file."""

    def __init__(self):
        self.segments_by_game = {}  # game -> [(segment, name, size)]
        self.archive_sizes = {}  # game -> size
        self.segment_names = []
        self.settings_sizes = {}  # number -> size


def _sequence_of(obj):
    sequence = obj.get("q", 0)
    return sequence if type(sequence) is int and sequence > 0 else 0


def set_aside(copy, name, why, note=None):
    """Plan to move a file aside (the clean-up copies it to damaged-N.bin, never deletes
    it); why: the args of an Unreadable, true for a newer format; note: for the notice."""
    if why:
        copy.newer = True
    if name not in copy.to_set_aside:
        copy.to_set_aside.append(name)
    if note and note not in copy.notes:
        copy.notes.append(note)


def _base_complete(copy, name, snapshot_lines):
    """Does a base read to its end, with at least its header and snapshot lines?"""
    try:
        return copy.read_lines(name, ignore_line, 0) > snapshot_lines
    except Unreadable:
        return False


def list_directory(copy):
    """Step 1: the journal's files in the copy's directory (any other name is left alone)."""
    listing = Listing()
    try:
        entries = list(os.ilistdir(copy.root))
    except OSError:
        entries = []
        copy.root_exists = False
    for entry in entries:
        name = entry[0]
        if entry[1] != _S_IFREG:
            continue
        kind = _classify_name(name)
        if kind is None:
            continue  # not ours: left alone
        size = entry[3] if len(entry) > 3 else os.stat(copy.prefix + name)[6]
        kind, game, segment = kind
        if kind == "set":
            listing.settings_sizes[game] = size
            copy.settings_files.append(game)
        elif kind == "dmg":
            copy.damaged_files.append((name, size))
            copy.highest_damaged_number = max(copy.highest_damaged_number, game)
        else:
            copy.highest_game_number = max(copy.highest_game_number, game)
            if kind == "seg":
                listing.segments_by_game.setdefault(game, []).append((segment, name, size))
                copy.segment_files.append((game, segment))
                listing.segment_names.append(name)
            else:
                listing.archive_sizes[game] = size
                copy.archive_files.append(game)
    return listing


def read_settings(copy, listing):
    """Step 2: the newest readable settings file, all or nothing; a newer unreadable one
    above a readable one is a write that did not finish (removed by the clean-up)."""
    settings = None

    def visit_settings(obj, index):
        nonlocal settings
        check_version(obj)
        values = obj.get("s")
        if index > 0 or obj.get("t") != "set" or not isinstance(values, dict):
            raise Unreadable
        settings = values
        copy.settings_sequence = _sequence_of(obj)

    unreadable = None
    sizes = listing.settings_sizes
    for number in sorted(sizes, reverse=True):
        if not sizes[number]:
            continue
        try:
            copy.read_lines(settings_file(number), visit_settings)
            copy.settings = settings
            copy.settings_number = number
            break
        except Unreadable as error:
            copy.settings_sequence = 0
            if unreadable is None:
                unreadable = (number, error.args)
    if unreadable is not None and not copy.settings_number:
        set_aside(copy, settings_file(unreadable[0]), unreadable[1], "settings reset")


def _is_base(header, game, segment):
    return (header is not None and header.get("v") == FORMAT_VERSION and header.get("t") == "log"
            and header.get("g") == game and header.get("s") == segment and header.get("p") == 0
            and isinstance(header.get("rules"), dict) and type(header.get("n")) is int)


def find_current_game(copy, listing):
    """Step 3, the base: (game, base header, [(segment, name, size)] to replay: the base
    and the segments after it) of the highest game with a readable base, or
    (0, None, []). The segments of a game above it without one are set aside."""
    for game in sorted(listing.segments_by_game, reverse=True):
        files = sorted(f for f in listing.segments_by_game[game] if f[2] > 0)
        # the newest complete base; an incomplete one above it is a write that did not
        # finish (an exception inside it): never trusted, removed by the clean-up
        incomplete = []  # (position, header) of bases that do not read to their end
        base_header = None
        base_position = 0
        for position in range(len(files) - 1, -1, -1):
            file = files[position]
            header = copy.read_header(file[1])
            if _is_base(header, game, file[0]):
                if _base_complete(copy, file[1], header["n"]):
                    base_header, base_position = header, position
                    break
                incomplete.append((position, header))
                continue
            if header is not None and type(header.get("v")) is int and header["v"] > FORMAT_VERSION:
                copy.newer = True
        if base_header is None and incomplete:
            base_position, base_header = incomplete.pop(0)  # the newest: keep what it holds
        if base_header:
            for position, _ in incomplete:
                copy.interrupted_files.append(files[position][1])
            to_replay = [f for f in files[base_position:] if f[1] not in copy.interrupted_files]
            for old in base_header.get("aside") or ():
                if old in listing.segment_names:
                    set_aside(copy, old, 0)
            return game, base_header, to_replay
        for file in files:
            set_aside(copy, file[1], 0, "unreadable game set aside")
    return 0, None, []


def replay_game(copy, listing, game, base_header, to_replay, keep_deals):
    """Step 3, the replay: the game from its base and the segments after it, headers
    and "p" checked; on a problem the valid part is kept and a new base planned."""
    deals = [] if keep_deals else DealCount()
    rules = [base_header["rules"]]  # the rules spec as the replay goes (dealer corrections)
    actions = 0
    segments_read = 0
    segment = 0
    sequence = _sequence_of(base_header)

    def visit_segment(obj, index):
        nonlocal actions, sequence
        if index == 0:
            check_version(obj)
            # "p" is 0 in the base, where actions is 0 too
            if (obj.get("t") != "log" or obj.get("g") != game or obj.get("s") != segment
                    or obj.get("p") != actions):
                raise Unreadable
            return
        apply_action(deals, obj)
        rules[0] = rules_after(rules[0], obj)
        actions += 1
        if "q" in obj:
            sequence = _sequence_of(obj)

    for segment, name, size in to_replay:
        try:
            copy.read_lines(name, visit_segment)
            if not segments_read and actions < base_header["n"]:
                raise Unreadable  # the snapshot lost lines
        except Unreadable as error:
            for bad in to_replay[segments_read:]:
                set_aside(copy, bad[1], error.args)
            copy.needs_base = True
            copy.notes.append("game kept to deal %d" % len(deals))
            break
        copy.append_segment, copy.append_segment_size = segment, size
        copy.deal_bytes += size
        segments_read += 1
    copy.game_number = game
    copy.rules = rules[0]
    copy.deals = deals
    copy.game_sequence = sequence
    copy.base_segment = to_replay[0][0]
    copy.highest_segment = max(f[0] for f in listing.segments_by_game[game])
    copy.actions_since_base = actions
    copy.segments_since_base = segments_read


def check_archives(copy, listing, repair):
    """Step 4: the newest finished games below the current one (at most `keep`), each
    checked line by line, not kept in RAM; a damaged one is copied aside and rewritten
    with its valid deals (repair), or only noted."""
    sizes = listing.archive_sizes
    for game in sorted(sizes, reverse=True):
        if len(copy.archive_kept) >= copy.keep:
            break
        if sizes[game] == 0 or (copy.game_number and game >= copy.game_number):
            continue  # empty, or written by a "new" that did not complete
        header, count, problem = copy.read_archive(game, False)
        if problem is not None:
            copy.damaged_archives[game] = sizes[game]
            if header is None or not count:
                set_aside(copy, archive_name(game), problem, "archived game %d set aside" % game)
                continue
            if not repair:
                copy.archive_kept.append(game)
                continue
            # copy the damaged file aside, then rewrite it with its valid deals
            header, deals, problem = copy.read_archive(game)
            if header is None:  # unreadable on the second pass too: set it aside
                set_aside(copy, archive_name(game), problem, "archived game %d set aside" % game)
                continue
            try:
                copy.copy_aside(archive_name(game), sizes[game])
                copy.write_archive(game, header["rules"], deals, header.get("r"))
            except OSError:
                copy.notes.append("archived game %d not repaired" % game)
            copy.notes.append("archived game %d: %d deals kept" % (game, len(deals)))
            deals = None
        copy.archive_kept.append(game)
    copy.archive_kept.reverse()


def finish(copy, repair):
    """The repairs and the leftovers of interrupted work: a new base for a game kept
    in part, damaged files moved aside, files nobody needs removed (repair only)."""
    if copy.to_set_aside:
        copy.notes.append("damaged data kept aside")
    if repair:
        try:
            if copy.needs_base:
                copy.write_base(copy.game_number, copy.highest_segment + 1, copy.rules, copy.deals,
                                copy.game_sequence)
            copy.settle()
        except (OSError, ValueError):
            copy.notes.append("repair not saved yet")


def load_copy(copy, repair=True, keep_deals=True):
    """Rebuild settings, current game and archive from the files; never raises on bad data.

    repair=False writes nothing: damage is only noted (the two-copy Journal
    repairs a copy from the other one instead). keep_deals=False only counts
    the deals (the state's "deals" is then None): the second copy is read that
    way, so that start-up holds one copy of the game, not two."""
    copy.reset_state()
    copy.loaded = True
    listing = list_directory(copy)
    read_settings(copy, listing)
    game, base_header, to_replay = find_current_game(copy, listing)
    if base_header:
        replay_game(copy, listing, game, base_header, to_replay, keep_deals)
    check_archives(copy, listing, repair)
    listing = None
    finish(copy, repair)
    found = None
    if copy.rules is not None:
        found = {"rules": copy.rules, "deals": list(copy.deals) if keep_deals else None}
    return {"settings": dict(copy.settings), "game": found}


def bring_up_to_date(copy, settings, settings_sequence, game, rules, deals, game_sequence, archives,
                     read_archive, highest_game_number):
    """Make this copy hold the given state (after load_copy(repair=False)); writes only what differs.

    archives: the game numbers to keep, oldest first; read_archive(game) gives
    (header, deals) of one of them from a copy that has it."""
    if settings_sequence != copy.settings_sequence or settings != copy.settings:
        copy.write_settings(settings, settings_sequence)
    for number in archives:
        if not copy.archive_intact(number):
            header, archived = read_archive(number)
            if number in copy.damaged_archives and archive_name(number) not in copy.to_set_aside:
                copy.copy_aside(archive_name(number), copy.damaged_archives[number])
                copy.move_away(archive_name(number), False)
            copy.make_root()
            copy.write_archive(number, header["rules"], archived, header.get("r"))
    copy.archive_kept[:] = archives
    copy.highest_game_number = max(copy.highest_game_number, highest_game_number)
    if game and (game != copy.game_number or game_sequence != copy.game_sequence or copy.needs_base
                 or rules != copy.rules or copy.deals is None or len(deals) != len(copy.deals)):
        segment = 0
        for number, existing in copy.segment_files:
            if number == game and existing >= segment:
                segment = existing + 1
        copy.make_root()
        copy.write_base(game, segment, rules, list(deals), game_sequence)
    copy.settle()


def _newest_parts(sources):
    """(index of the source with the newest settings, of the one with the newest game);
    on a tie the first that has them."""
    settings_from = game_from = 0
    for index in range(1, len(sources)):
        if sources[index].settings_sequence > sources[settings_from].settings_sequence or (
                not sources[settings_from].settings and sources[index].settings
                and sources[index].settings_sequence == sources[settings_from].settings_sequence):
            settings_from = index
        if sources[index].game_sequence > sources[game_from].game_sequence or (
                sources[game_from].rules is None and sources[index].rules is not None):
            game_from = index
    return settings_from, game_from


def load_copies(journal, legacy=None):
    """Step 5: load every copy of the journal without repairing, merge the newest
    consistent parts, bring each copy to them.

    legacy: a JournalCopy of the journal written before the two copies, a source as
    long as neither copy holds an action of its own. Returns (state, notes, newer,
    the copies that could not be repaired, the finished games' numbers)."""
    copies = journal.copies
    states, sources = _load_sources(journal, legacy)
    newer = False
    for copy in sources:
        newer = newer or copy.newer
    settings_from, game_from = _newest_parts(sources)
    source = sources[game_from]
    if game_from and source.rules is not None:
        # the newest game is in another copy: drop the first copy's deals, read these
        first = copies[0]
        if first.deals is not None:
            first.deals = DealCount(len(first.deals))
        states[0]["game"] = None
        states[game_from] = load_copy(source, False)
    game_number = source.game_number
    numbers = _kept_archive_numbers(journal, sources, game_number)
    notes = _lost_for_good(copies, source)
    behind = _bring_copies_up_to_date(journal, sources, source, states[settings_from]["settings"],
                                      sources[settings_from].settings_sequence, numbers, notes)
    found = None
    if source.rules is not None:
        found = {"rules": source.rules, "deals": list(source.deals)}
    return {"settings": dict(states[settings_from]["settings"]), "game": found}, notes, newer, behind, numbers


def _load_sources(journal, legacy):
    """(each source's loaded state, the sources): the journal's copies, the first with
    its deals, the others counted only (one game in RAM), and the single-copy
    firmware's journal while neither copy holds an action of its own."""
    copies = journal.copies
    states = [load_copy(copies[0], False)]
    for copy in copies[1:]:
        states.append(load_copy(copy, False, False))  # deals counted, not kept: one game in RAM
    sources = copies
    if legacy is not None and not max(copy.sequence() for copy in copies):
        # no action of this journal yet: a journal of the single-copy firmware is a source
        legacy_state = load_copy(legacy, False, False)
        if legacy.rules is not None or legacy.archive_kept or legacy.settings:
            sources = copies + [legacy]
            states.append(legacy_state)
    journal.use_sources(sources)
    return states, sources


def _kept_archive_numbers(journal, sources, game_number):
    """The finished games kept: any copy's, below the current game, the newest `keep`."""
    numbers = []
    for copy in sources:
        for number in copy.archive_kept:
            if number not in numbers and (not game_number or number < game_number):
                numbers.append(number)
    numbers.sort()
    return numbers[-journal.keep:] if journal.keep else []


def _lost_for_good(copies, source):
    """The notes of what is lost for good: damage that every copy has (a part one copy
    lost, the other gives back), and the game as the copy it comes from kept it."""
    notes = []
    for note in copies[0].notes:
        if note != "damaged data kept aside" and all(note in copy.notes for copy in copies[1:]):
            notes.append(note)
    for note in source.notes:
        if note.startswith("game kept") and note not in notes:
            notes.append(note)
    return notes


def _bring_copies_up_to_date(journal, sources, source, settings, settings_sequence, numbers, notes):
    """Bring every copy to the merged settings, game and archive (a note for each copy
    repaired, or not repairable); returns the copies left behind."""
    copies = journal.copies
    game_number = source.game_number

    def read_archive(number):
        header, deals, problem = journal.read_archive(number)
        note = "archived game %d: %d deals kept" % (number, len(deals))
        if problem is not None and header is not None and note not in notes:
            notes.append(note)
        return header, deals

    behind = []
    newest = max(copy.sequence() for copy in copies)
    highest_game_number = max(copy.highest_game_number for copy in sources)
    for index, copy in enumerate(copies):
        damaged = bool(copy.to_set_aside or copy.damaged_archives or copy.needs_base)
        missed = newest - copy.sequence()
        try:
            bring_up_to_date(copy, settings, settings_sequence, game_number, source.rules, source.deals or [],
                             source.game_sequence, numbers, read_archive, highest_game_number)
        except (OSError, ValueError, MemoryError):
            notes.append("copy %d not repaired" % (index + 1))
            behind.append(copy)
            continue
        if damaged or missed > 1:
            notes.append("copy %d repaired" % (index + 1))
        if copy is not source and source.rules is not None:
            copy.deals = source.deals  # the same records (never changed in place): one game in RAM
    return behind
