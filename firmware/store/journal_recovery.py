"""The journal's start-up reading: a copy's files read back and checked, the two
copies merged, the damaged parts set aside and repaired (store/journal.py).

Split from store/journal.py for the heap of `make deploy`: with the stock
firmware's .mpy files a module's bytecode is on the heap, and this part is
used at start-up (and after a write that failed) only. JournalCopy.load()
imports it, Journal.load() releases it afterwards (modules_on_demand.py),
so a game runs without it. Every write it makes (repairs, the clean-up) goes
through JournalCopy's methods, so store/journal.py holds the whole writing side.
"""
import os

from micropython import const

from store.journal import (FORMAT_VERSION, LEGACY_SETTINGS_FILE, JournalCopy, Unreadable, _check_version,
                           _ignore, _rules_after, _settings_file, apply_action, archive_name)

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



def _sequence_of(obj):
    sequence = obj.get("q", 0)
    return sequence if type(sequence) is int and sequence > 0 else 0



def _base_complete(copy, name, snapshot_lines):
    """Does a base read to its end, with at least its header and snapshot lines?"""
    try:
        return copy._read_lines(name, _ignore, 0) > snapshot_lines
    except Unreadable:
        return False


def load_copy(copy, repair=True, keep_deals=True):
    """Rebuild settings, current game and archive from the files; never raises on bad data.

    repair=False writes nothing: damage is only noted (the two-copy Journal
    repairs a copy from the other one instead). keep_deals=False only counts
    the deals (the state's "deals" is then None): the second copy is read that
    way, so that start-up holds one copy of the game, not two."""
    copy._reset_state()
    copy._loaded = True
    notes = copy.notes
    to_set_aside = copy._to_set_aside

    def set_aside(name, why, note=None):
        # why: the args of an Unreadable, true for a newer format
        if why:
            copy.newer = True
        if name not in to_set_aside:
            to_set_aside.append(name)
        if note and note not in notes:
            notes.append(note)

    try:
        listing = list(os.ilistdir(copy.root))
    except OSError:
        listing = []
        copy._root_exists = False
    segments_by_game = {}  # game -> [(segment, name, size)]
    archive_sizes = {}  # game -> size
    segment_names = []
    settings_sizes = {}  # number -> size
    for entry in listing:
        name = entry[0]
        if entry[1] != _S_IFREG:
            continue
        kind = _classify_name(name)
        if kind is None:
            continue  # not ours: left alone
        size = entry[3] if len(entry) > 3 else os.stat(copy._prefix + name)[6]
        kind, game, segment = kind
        if kind == "set":
            settings_sizes[game] = size
            copy._settings_files.append(game)
        elif kind == "dmg":
            copy._damaged_files.append((name, size))
            copy._highest_damaged_number = max(copy._highest_damaged_number, game)
        else:
            copy._highest_game_number = max(copy._highest_game_number, game)
            if kind == "seg":
                segments_by_game.setdefault(game, []).append((segment, name, size))
                copy._segment_files.append((game, segment))
                segment_names.append(name)
            else:
                archive_sizes[game] = size
                copy._archive_files.append(game)

    # settings: the newest readable file, all or nothing; a newer unreadable one
    # above a readable one is a write that did not finish (removed by the clean-up)
    settings = None

    def visit_settings(obj, index):
        nonlocal settings
        _check_version(obj)
        values = obj.get("s")
        if index > 0 or obj.get("t") != "set" or not isinstance(values, dict):
            raise Unreadable
        settings = values
        copy._settings_sequence = _sequence_of(obj)

    unreadable = None
    for number in sorted(settings_sizes, reverse=True):
        if not settings_sizes[number]:
            continue
        try:
            copy._read_lines(_settings_file(number), visit_settings)
            copy._settings = settings
            copy._settings_number = number
            break
        except Unreadable as error:
            copy._settings_sequence = 0
            if unreadable is None:
                unreadable = (number, error.args)
    if unreadable is not None and not copy._settings_number:
        set_aside(_settings_file(unreadable[0]), unreadable[1], "settings reset")

    # the current game: the highest game with a readable base
    base_header = None
    game = 0
    to_replay = []  # the base and the segments after it
    for game in sorted(segments_by_game, reverse=True):
        files = sorted(f for f in segments_by_game[game] if f[2] > 0)
        # the newest complete base; an incomplete one above it is a write that did not
        # finish (an exception inside it): never trusted, removed by the clean-up
        incomplete = []  # (position, header) of bases that do not read to their end
        base_position = 0
        for position in range(len(files) - 1, -1, -1):
            file = files[position]
            header = copy._read_header(file[1])
            if (header is not None and header.get("v") == FORMAT_VERSION and header.get("t") == "log"
                    and header.get("g") == game and header.get("s") == file[0] and header.get("p") == 0
                    and isinstance(header.get("rules"), dict) and type(header.get("n")) is int):
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
                copy._interrupted_files.append(files[position][1])
            to_replay = [f for f in files[base_position:] if f[1] not in copy._interrupted_files]
            for old in base_header.get("aside") or ():
                if old in segment_names:
                    set_aside(old, 0)
            break
        for file in files:
            set_aside(file[1], 0, "unreadable game set aside")

    if base_header:
        # replay the game from its base; on a problem keep the valid part, plan a repair
        deals = [] if keep_deals else DealCount()
        fixes = [base_header["rules"]]  # the rules spec as the replay goes (dealer corrections)
        actions = 0
        segments_read = 0
        segment = 0
        sequence = _sequence_of(base_header)

        def visit_segment(obj, index):
            nonlocal actions, sequence
            if index == 0:
                _check_version(obj)
                # "p" is 0 in the base, where actions is 0 too
                if (obj.get("t") != "log" or obj.get("g") != game or obj.get("s") != segment
                        or obj.get("p") != actions):
                    raise Unreadable
                return
            apply_action(deals, obj)
            fixes[0] = _rules_after(fixes[0], obj)
            actions += 1
            if "q" in obj:
                sequence = _sequence_of(obj)

        for segment, name, size in to_replay:
            try:
                copy._read_lines(name, visit_segment)
                if not segments_read and actions < base_header["n"]:
                    raise Unreadable  # the snapshot lost lines
            except Unreadable as error:
                for bad in to_replay[segments_read:]:
                    set_aside(bad[1], error.args)
                copy._needs_base = True
                notes.append("game kept to deal %d" % len(deals))
                break
            copy._append_segment, copy._append_segment_size = segment, size
            copy._deal_bytes += size
            segments_read += 1
        copy._game_number = game
        copy._rules = fixes[0]
        copy._deals = deals
        copy._game_sequence = sequence
        copy._base_segment = to_replay[0][0]
        copy._highest_segment = max(f[0] for f in segments_by_game[game])
        copy._actions_since_base = actions
        copy._segments_since_base = segments_read

    # the archive: the newest readable finished games, checked, not kept in RAM
    for game in sorted(archive_sizes, reverse=True):
        if len(copy._archive_kept) >= copy.keep:
            break
        if archive_sizes[game] == 0 or (copy._game_number and game >= copy._game_number):
            continue  # empty, or written by a "new" that did not complete
        header, count, problem = copy._read_archive(game, False)
        if problem is not None:
            copy._damaged_archives[game] = archive_sizes[game]
            if header is None or not count:
                set_aside(archive_name(game), problem, "archived game %d set aside" % game)
                continue
            if not repair:
                copy._archive_kept.append(game)
                continue
            # copy the damaged file aside, then rewrite it with its valid deals
            header, deals, problem = copy._read_archive(game)
            if header is None:  # unreadable on the second pass too: set it aside
                set_aside(archive_name(game), problem, "archived game %d set aside" % game)
                continue
            try:
                copy._copy_aside(archive_name(game), archive_sizes[game])
                copy._write_archive(game, header["rules"], deals, header.get("r"))
            except OSError:
                notes.append("archived game %d not repaired" % game)
            notes.append("archived game %d: %d deals kept" % (game, len(deals)))
            deals = None
        copy._archive_kept.append(game)
    copy._archive_kept.reverse()

    # repairs and leftovers of interrupted work
    if to_set_aside:
        notes.append("damaged data kept aside")
    if repair:
        try:
            if copy._needs_base:
                copy._write_base(copy._game_number, copy._highest_segment + 1, copy._rules, copy._deals,
                                 copy._game_sequence)
            copy._settle()
        except (OSError, ValueError):
            notes.append("repair not saved yet")
    game = None
    if copy._rules is not None:
        game = {"rules": copy._rules, "deals": list(copy._deals) if keep_deals else None}
    return {"settings": dict(copy._settings), "game": game}


def adopt(copy, settings, settings_sequence, game, rules, deals, game_sequence, archives, read_archive,
          highest_game_number):
    """Make this copy hold the given state (after load(repair=False)); writes only what differs.

    archives: the game numbers to keep, oldest first; read_archive(game) gives
    (header, deals) of one of them from a copy that has it."""
    if settings_sequence != copy._settings_sequence or settings != copy._settings:
        copy._write_settings(settings, settings_sequence)
    for number in archives:
        if not copy.archive_intact(number):
            header, archived = read_archive(number)
            if number in copy._damaged_archives and archive_name(number) not in copy._to_set_aside:
                copy._copy_aside(archive_name(number), copy._damaged_archives[number])
                copy._move_away(archive_name(number), False)
            copy._make_root()
            copy._write_archive(number, header["rules"], archived, header.get("r"))
    copy._archive_kept[:] = archives
    copy._highest_game_number = max(copy._highest_game_number, highest_game_number)
    if game and (game != copy._game_number or game_sequence != copy._game_sequence or copy._needs_base
                 or rules != copy._rules or copy._deals is None or len(deals) != len(copy._deals)):
        segment = 0
        for number, existing in copy._segment_files:
            if number == game and existing >= segment:
                segment = existing + 1
        copy._make_root()
        copy._write_base(game, segment, rules, list(deals), game_sequence)
    copy._settle()


def load_copies(journal):
    """Load every copy without repairing, merge the newest consistent parts, repair."""
    copies = journal.copies
    states = [load_copy(copies[0], False)]
    for copy in copies[1:]:
        states.append(load_copy(copy, False, False))  # deals counted, not kept: one game in RAM
    journal._sources = copies
    if journal._legacy and not max(copy.sequence() for copy in copies):
        # no action of this journal yet: a journal of the single-copy firmware is a source
        old = JournalCopy(journal._legacy, copies[0].segment_bytes, copies[0].max_segments, journal.keep)
        old_state = load_copy(old, False, False)
        if old._rules is not None or old._archive_kept or old._settings:
            journal._sources = copies + [old]
            states.append(old_state)
    sources = journal._sources
    newer = False
    for copy in sources:
        newer = newer or copy.newer
    # the newest readable settings and game; on a tie the first copy that has them
    settings_from = game_from = 0
    for index in range(1, len(sources)):
        if sources[index]._settings_sequence > sources[settings_from]._settings_sequence or (
                not sources[settings_from]._settings and sources[index]._settings
                and sources[index]._settings_sequence == sources[settings_from]._settings_sequence):
            settings_from = index
        if sources[index]._game_sequence > sources[game_from]._game_sequence or (
                sources[game_from]._rules is None and sources[index]._rules is not None):
            game_from = index
    source = sources[game_from]
    if game_from and source._rules is not None:
        # the newest game is in another copy: drop the first copy's deals, read these
        first = copies[0]
        if first._deals is not None:
            first._deals = DealCount(len(first._deals))
        states[0]["game"] = None
        states[game_from] = load_copy(source, False)
    game_number = source._game_number
    # finished games: any copy's, below the current game, the newest `keep`
    numbers = []
    for copy in sources:
        for number in copy._archive_kept:
            if number not in numbers and (not game_number or number < game_number):
                numbers.append(number)
    numbers.sort()
    numbers = numbers[-journal.keep:] if journal.keep else []
    # what is lost for good: damage that every copy has (a part one copy lost,
    # the other gives back), and the game as the copy it comes from kept it
    notes = []
    for note in copies[0].notes:
        if note != "damaged data kept aside" and all(note in copy.notes for copy in copies[1:]):
            notes.append(note)
    for note in source.notes:
        if note.startswith("game kept") and note not in notes:
            notes.append(note)

    def read_archive(number):
        header, deals, problem = journal._read_archive(number)
        note = "archived game %d: %d deals kept" % (number, len(deals))
        if problem is not None and header is not None and note not in notes:
            notes.append(note)
        return header, deals

    newest = max(copy.sequence() for copy in copies)
    for index, copy in enumerate(copies):
        damaged = bool(copy._to_set_aside or copy._damaged_archives or copy._needs_base)
        behind = newest - copy.sequence()
        try:
            adopt(copy, states[settings_from]["settings"], sources[settings_from]._settings_sequence,
                       game_number, source._rules, source._deals or [], source._game_sequence, numbers,
                       read_archive, max(c._highest_game_number for c in sources))
        except (OSError, ValueError, MemoryError):
            notes.append("copy %d not repaired" % (index + 1))
            journal._behind.append(copy)
            continue
        if damaged or behind > 1:
            notes.append("copy %d repaired" % (index + 1))
        if copy is not source and source._rules is not None:
            copy._deals = source._deals  # the same records (never changed in place): one game in RAM
    journal._sequence = max(copy.sequence() for copy in copies)
    journal._archive_kept[:] = numbers
    game = None
    if source._rules is not None:
        game = {"rules": source._rules, "deals": list(source._deals)}
    return {"settings": dict(states[settings_from]["settings"]), "game": game}, notes, newer
