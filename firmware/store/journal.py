"""The power-safe journal: every confirmed action is on flash before the screen says so.

Why it is built this way (littlefs behaviour, wear figures, recovery rules):
docs/storage.md. In short, under `root`:

  settings.log      one line, rewritten whole on a change (littlefs commits at close)
  g<G>.<S>.log      segment S of game G: a header line, then one action per line;
                    a header with "rules" is a base (a snapshot: the deals as adds)
  a<G>.log          a finished game: a header line, then one deal record per line
  damaged-<N>.bin   bytes that could not be read, kept for a human

Segments stay under littlefs' inline limit, so an append is one small metadata
commit instead of a copy of the file's last data block.

The journal is generic about game actions: GAME_ACTIONS maps each "op" to the
function that applies it and the fields stored for it, so a new kind of
action is one function and one table entry.
"""
import os

from micropython import const

from store.lines import LineError, Lines, check, decode, encode

FORMAT_VERSION = const(1)
_COPY_CHUNK = const(256)
_ENOENT = const(2)
_EEXIST = const(17)
_S_IFREG = const(0x8000)
SETTINGS_FILE = "settings.log"


def _canonical_number(text):
    """A canonical decimal (no sign, no leading zero) as int, else -1."""
    if not text or not text.isdigit() or (len(text) > 1 and text[0] == "0"):
        return -1
    return int(text)


def _classify_name(name):
    """('set'|'seg'|'arc'|'dmg', G, S) for a journal file name, None for anything else."""
    if name == SETTINGS_FILE:
        return ("set", 0, 0)
    if name.startswith("damaged-") and name.endswith(".bin"):
        number = _canonical_number(name[8:-4])
        return ("dmg", number, 0) if number >= 0 else None
    if len(name) < 6 or not name.endswith(".log"):
        return None
    stem = name[1:-4]
    if name[0] == "a":
        game = _canonical_number(stem)
        return ("arc", game, 0) if game > 0 else None
    if name[0] == "g":
        dot = stem.find(".")
        if dot > 0:
            game, segment = _canonical_number(stem[:dot]), _canonical_number(stem[dot + 1:])
            if game > 0 and segment >= 0:
                return ("seg", game, segment)
    return None


def segment_name(game, segment):
    """The file name of segment `segment` of game `game`."""
    return "g%d.%d.log" % (game, segment)


def archive_name(game):
    """The file name of the archive of game `game`."""
    return "a%d.log" % game


class Unreadable(ValueError):
    """A file stopped being readable: no args when damaged, (1,) for a newer format.

    A ValueError, so record() raises it as is for an action that does not fit."""


def _check_version(header):
    version = header.get("v")
    if type(version) is not int or version < FORMAT_VERSION:
        raise Unreadable
    if version > FORMAT_VERSION:
        raise Unreadable(1)


def _deal_of(action):
    deal = action.get("deal")
    if not isinstance(deal, dict):
        raise Unreadable
    return deal


def _index_of(action, deals):
    index = action.get("i")
    if type(index) is not int or not 0 <= index < len(deals):
        raise Unreadable
    return index


def _apply_add(deals, action):
    deals.append(_deal_of(action))


def _apply_edit(deals, action):
    deals[_index_of(action, deals)] = _deal_of(action)


def _apply_delete(deals, action):
    deals.pop(_index_of(action, deals))


def _check_dealer(deals, action):
    """A dealer correction (issue 9): "fix", the game's corrections [[deal index, seat], ...].
    It leaves the deals alone: the game's rules carry it (see _rules_after)."""
    fix = action.get("fix")
    if not isinstance(fix, list):
        raise Unreadable
    for item in fix:
        if (not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int or item[0] < 0
                or item[1] not in ("N", "W", "S", "E")):
            raise Unreadable


# op -> (apply(deals, action): raises Unreadable before changing anything when the
# action does not fit; the fields of the action that are stored with its "op")
GAME_ACTIONS = {
    "add": (_apply_add, ("deal",)),
    "edit": (_apply_edit, ("i", "deal")),
    "del": (_apply_delete, ("i",)),
    "dealer": (_check_dealer, ("fix",)),
}


def _rules_after(rules, action):
    """The game's rules spec after a game action: a dealer correction is kept in it
    (so a base written later, and the archive, carry it too)."""
    if action.get("op") != "dealer":
        return rules
    rules = dict(rules)
    rules["fix"] = action["fix"]
    return rules


def apply_action(deals, action):
    """One game action on the deal list; Unreadable when it cannot apply (never half)."""
    op = action.get("op")
    entry = GAME_ACTIONS.get(op) if isinstance(op, str) else None
    if entry is None:
        raise Unreadable(1) if isinstance(op, str) else Unreadable
    entry[0](deals, action)


class Archive:
    """The finished games, oldest first, as a read-only sequence: len(), [i], iteration.

    A game is read from flash when it is asked for and not kept: twenty games of
    forty deals as dicts would take about 200 KB, more than the Pico's heap."""

    def __init__(self, journal):
        self._journal = journal
        self._game_numbers = journal._archive_kept

    def __len__(self):
        return len(self._game_numbers)

    def _read_game(self, game):
        header, deals, _ = self._journal._read_archive(game)
        out = {"rules": header and header["rules"], "deals": deals}
        if header and "r" in header:
            out["result"] = header["r"]
        return out

    def __getitem__(self, index):
        if isinstance(index, slice):
            return list(map(self._read_game, self._game_numbers[index]))
        return self._read_game(self._game_numbers[index])

    def __iter__(self):
        return map(self._read_game, list(self._game_numbers))

    def __eq__(self, other):
        return list(self) == list(other)

    def numbers(self):
        """The game numbers (a<G>.log), oldest first."""
        return list(self._game_numbers)

    def summary(self, index):
        """{"rules", "result", "n"} of game `index` from its first line only: cheap for a list screen.

        "result" is what the app passed with the "new" that closed the game (None if nothing)."""
        header = self._journal._read_header(archive_name(self._game_numbers[index])) or {}
        return {"rules": header.get("rules"), "result": header.get("r"), "n": header.get("n", 0)}


class Journal:
    """See the module docstring; load() first, then record() each confirmed action."""

    def __init__(self, root, segment_bytes=512, max_segments=32, keep=20):
        # segment_bytes: littlefs stores files up to block_size/8 inline in the directory;
        # max_segments: segments before a game is compacted into a new base;
        # keep: finished games kept in the archive
        self.root = root.rstrip("/") or "/"
        self._prefix = root.rstrip("/") + "/"  # a file's path is _prefix + name
        self.segment_bytes = segment_bytes
        self.max_segments = max_segments
        self.keep = keep
        self._loaded = False  # load() has run
        self._reset_state()

    # ------------------------------------------------------------------ state

    def _reset_state(self):
        """The state before load()."""
        self._root_exists = True  # the root directory exists
        self._settings = {}  # the settings
        self._rules = None  # rules of the current game, None: no game
        self._deals = None  # its deals (a list when there is a game)
        self._game_number = 0  # current game number, 0: none
        self._highest_game_number = 0  # highest game number in any file name
        self._base_segment = 0  # segment number of the current base
        self._append_segment = 0  # segment that takes appends
        self._append_segment_size = 0  # its size
        self._highest_segment = 0  # highest segment number of the current game on disk
        self._segments_since_base = 0  # segments since the base, base included
        self._actions_since_base = 0  # actions since the base: the next segment's "p"
        self._needs_base = False  # the log on disk cannot take appends: write a base
        self._segment_files = []  # (game, segment, name) of the segment files on disk
        self._archive_files = []  # game numbers of archive files on disk
        self._archive_kept = []  # game numbers of the archive load() returned, oldest first
        self._to_set_aside = []  # names to move aside; never deleted
        self._damaged_files = []  # (name, size) of damaged-N.bin files
        self._highest_damaged_number = 0  # highest N of damaged-N.bin

    # ---------------------------------------------------------------- reading

    def _read_lines(self, name, visit, checksum_only_from=1 << 30):
        """Feed each line of a file to visit(obj, index); Unreadable on the first problem.

        Lines from index checksum_only_from on are only checksummed; visit gets None for them."""
        count = 0
        try:
            with open(self._prefix + name, "rb") as file:
                lines = Lines(file)
                for line in lines:
                    obj = None
                    try:
                        if count < checksum_only_from:
                            obj = decode(line)
                        else:
                            check(line)
                    except LineError:
                        raise Unreadable
                    visit(obj, count)
                    count += 1
                if lines.tail or lines.too_long:
                    raise Unreadable
        except OSError:
            raise Unreadable
        if count == 0:
            raise Unreadable

    def _read_header(self, name):
        """The first line of a file as an object, or None."""
        try:
            with open(self._prefix + name, "rb") as file:
                for line in Lines(file):
                    return decode(line)
        except (OSError, LineError):
            pass
        return None

    def _read_archive(self, game, parse=True):
        """Read the archive of a game: (header, deals, problem); problem None, or the args of an Unreadable.

        deals is the valid prefix; parse=False only checks the deal lines: deals is
        then their count."""
        header = None
        deals = []
        expected = 0

        def visit(obj, index):
            nonlocal header, expected
            if index == 0:
                _check_version(obj)
                count = obj.get("n")
                if obj.get("t") != "arc" or obj.get("g") != game or type(count) is not int or "rules" not in obj:
                    raise Unreadable
                header, expected = obj, count
                return
            if index > expected:
                raise Unreadable
            deals.append(obj)

        problem = None
        try:
            self._read_lines(archive_name(game), visit, 1 << 30 if parse else 1)
        except Unreadable as error:
            problem = error.args
        if problem is None and len(deals) != expected:
            problem = ()
        return header, deals if parse else len(deals), problem

    # ------------------------------------------------------------------- load

    def load(self):
        """Rebuild settings, current game and archive from the files; never raises on bad data."""
        self._reset_state()
        self._loaded = True
        notes = []
        newer = False
        to_set_aside = self._to_set_aside

        def set_aside(name, why, note=None):
            # why: the args of an Unreadable, true for a newer format
            nonlocal newer
            if why:
                newer = True
            if name not in to_set_aside:
                to_set_aside.append(name)
            if note and note not in notes:
                notes.append(note)

        try:
            listing = list(os.ilistdir(self.root))
        except OSError:
            listing = []
            self._root_exists = False
        segments_by_game = {}  # game -> [(segment, name, size)]
        archive_sizes = {}  # game -> size
        segment_names = []
        settings_size = 0
        for entry in listing:
            name = entry[0]
            if entry[1] != _S_IFREG:
                continue
            kind = _classify_name(name)
            if kind is None:
                continue  # not ours: left alone
            size = entry[3] if len(entry) > 3 else os.stat(self._prefix + name)[6]
            kind, game, segment = kind
            if kind == "set":
                settings_size = size
            elif kind == "dmg":
                self._damaged_files.append((name, size))
                self._highest_damaged_number = max(self._highest_damaged_number, game)
            else:
                self._highest_game_number = max(self._highest_game_number, game)
                if kind == "seg":
                    segments_by_game.setdefault(game, []).append((segment, name, size))
                    self._segment_files.append((game, segment, name))
                    segment_names.append(name)
                else:
                    archive_sizes[game] = size
                    self._archive_files.append(game)

        # settings: all or nothing
        if settings_size:
            settings = None

            def visit_settings(obj, index):
                nonlocal settings
                _check_version(obj)
                values = obj.get("s")
                if index > 0 or obj.get("t") != "set" or not isinstance(values, dict):
                    raise Unreadable
                settings = values

            try:
                self._read_lines(SETTINGS_FILE, visit_settings)
                self._settings = settings
            except Unreadable as error:
                set_aside(SETTINGS_FILE, error.args, "settings reset")

        # the current game: the highest game with a readable base
        base_header = None
        game = 0
        to_replay = []  # the base and the segments after it
        for game in sorted(segments_by_game, reverse=True):
            files = sorted(f for f in segments_by_game[game] if f[2] > 0)
            to_replay = []
            for file in reversed(files):
                to_replay.insert(0, file)
                header = self._read_header(file[1])
                if (header is not None and header.get("v") == FORMAT_VERSION and header.get("t") == "log"
                        and header.get("g") == game and header.get("s") == file[0] and header.get("p") == 0
                        and isinstance(header.get("rules"), dict) and type(header.get("n")) is int):
                    base_header = header
                    for old in header.get("aside") or ():
                        if old in segment_names:
                            set_aside(old, 0)
                    break
                if header is not None and type(header.get("v")) is int and header["v"] > FORMAT_VERSION:
                    newer = True
            if base_header:
                break
            for file in files:
                set_aside(file[1], 0, "unreadable game set aside")

        if base_header:
            # replay the game from its base; on a problem keep the valid part, plan a repair
            deals = []
            fixes = [base_header["rules"]]  # the rules spec as the replay goes (dealer corrections)
            actions = 0
            segments_read = 0
            segment = 0

            def visit_segment(obj, index):
                nonlocal actions
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

            for segment, name, size in to_replay:
                try:
                    self._read_lines(name, visit_segment)
                    if not segments_read and actions < base_header["n"]:
                        raise Unreadable  # the snapshot lost lines
                except Unreadable as error:
                    for bad in to_replay[segments_read:]:
                        set_aside(bad[1], error.args)
                    self._needs_base = True
                    notes.append("game kept to deal %d" % len(deals))
                    break
                self._append_segment, self._append_segment_size = segment, size
                segments_read += 1
            self._game_number = game
            self._rules = fixes[0]
            self._deals = deals
            self._base_segment = to_replay[0][0]
            self._highest_segment = max(f[0] for f in segments_by_game[game])
            self._actions_since_base = actions
            self._segments_since_base = segments_read

        # the archive: the newest readable finished games, checked, not kept in RAM
        for game in sorted(archive_sizes, reverse=True):
            if len(self._archive_kept) >= self.keep:
                break
            if archive_sizes[game] == 0 or (self._game_number and game >= self._game_number):
                continue  # empty, or written by a "new" that did not complete
            header, count, problem = self._read_archive(game, False)
            if problem is not None:
                if header is None or not count:
                    set_aside(archive_name(game), problem, "archived game %d set aside" % game)
                    continue
                # copy the damaged file aside, then rewrite it with its valid deals
                header, deals, problem = self._read_archive(game)
                if header is None:  # unreadable on the second pass too: set it aside
                    set_aside(archive_name(game), problem, "archived game %d set aside" % game)
                    continue
                try:
                    self._copy_aside(archive_name(game), archive_sizes[game])
                    self._write_archive(game, header["rules"], deals, header.get("r"))
                except OSError:
                    notes.append("archived game %d not repaired" % game)
                notes.append("archived game %d: %d deals kept" % (game, len(deals)))
                deals = None
            self._archive_kept.append(game)
        self._archive_kept.reverse()

        # repairs and leftovers of interrupted work
        if to_set_aside:
            notes.append("damaged data kept aside")
        try:
            if self._needs_base:
                self._write_base(self._game_number, self._highest_segment + 1, self._rules, self._deals)
            self._settle()
        except (OSError, ValueError):
            notes.append("repair not saved yet")
        notice = None
        if notes:
            notice = "Recovered: " + "; ".join(notes)
            if newer:
                notice += " (newer format)"
        game = None
        if self._rules is not None:
            game = {"rules": self._rules, "deals": list(self._deals)}
        return {"settings": dict(self._settings), "game": game, "archive": Archive(self), "notice": notice}

    def archive(self):
        """The archive as it stands now (it follows later "new" actions)."""
        return Archive(self)

    # ---------------------------------------------------------------- writing

    def _write_file(self, name, first, items=(), as_adds=False):
        """Write a whole file: the line first, then each item encoded (as an "add" if as_adds).

        littlefs makes it visible only at close (or not at all). The items must
        encode once the file is open: close would commit what was written so
        far. Callers encode headers (the only lines that can still be rejected)
        before calling. Returns the size."""
        with open(self._prefix + name, "wb") as file:
            size = file.write(first)
            for item in items:
                size += file.write(encode({"op": "add", "deal": item} if as_adds else item))
        return size

    def _write_archive(self, game, rules, deals, result):
        """Write the archive file of a game."""
        header = {"v": FORMAT_VERSION, "t": "arc", "g": game, "n": len(deals), "rules": rules}
        if result is not None:
            header["r"] = result
        # a ValueError from the header comes before the file is touched
        self._write_file(archive_name(game), encode(header), deals)
        if game not in self._archive_files:
            self._archive_files.append(game)

    def _write_base(self, game, segment, rules, deals):
        """A new base segment of a game (the snapshot of deals); the caller then settles.

        The base lists the damaged segments it makes obsolete: those are the
        files a clean-up would delete once the base exists; the base tells the
        next load() to move them aside instead. Other damaged files stay damaged
        on disk and are found again. (At most 64 names: a header line has a
        length limit.)"""
        header = {"v": FORMAT_VERSION, "t": "log", "g": game, "s": segment, "p": 0, "n": len(deals), "rules": rules}
        obsolete = [name for name in self._to_set_aside if name[0] == "g"][:64]
        if obsolete:
            header["aside"] = obsolete
        first = encode(header)
        name = segment_name(game, segment)
        self._segment_files.append((game, segment, name))  # before the write: an empty leftover is ours
        size = self._write_file(name, first, deals, True)
        self._game_number = game
        self._rules = rules
        self._deals = deals
        self._base_segment = self._append_segment = self._highest_segment = segment
        self._append_segment_size = size
        self._segments_since_base = 1
        self._actions_since_base = len(deals)
        self._needs_base = False

    def _settle_quietly(self):
        """_settle after a commit: its failures never undo the action just recorded."""
        try:
            self._settle()
        except OSError:
            pass

    def _settle(self):
        """Move pending damaged files aside, delete segments and archives nobody needs."""
        for name in list(self._to_set_aside):
            if self._move_away(name):
                self._to_set_aside.remove(name)
        kept = []
        for item in self._segment_files:
            game, segment, name = item
            if ((game == self._game_number and segment >= self._base_segment) or name in self._to_set_aside
                    or not self._move_away(name, False)):
                kept.append(item)
        self._segment_files = kept
        if self._game_number:
            for game in list(self._archive_files):
                name = archive_name(game)
                if (game < self._game_number and game not in self._archive_kept and name not in self._to_set_aside
                        and self._move_away(name, False)):
                    self._archive_files.remove(game)

    def _move_away(self, name, set_aside=True):
        """Move a file to the next damaged-N.bin (or remove it): done, or it was gone."""
        destination = "damaged-%d.bin" % (self._highest_damaged_number + 1)
        try:
            if set_aside:
                os.rename(self._prefix + name, self._prefix + destination)
            else:
                os.remove(self._prefix + name)
        except OSError as error:
            return error.errno == _ENOENT
        if set_aside:
            self._highest_damaged_number += 1
            self._damaged_files.append((destination, -1))
        return True

    def _copy_aside(self, name, size):
        """Keep a byte copy as damaged-N.bin (once: an identical copy counts)."""
        for other, other_size in self._damaged_files:
            if other_size == size:
                with open(self._prefix + name, "rb") as original, open(self._prefix + other, "rb") as copy:
                    while True:
                        chunk = original.read(_COPY_CHUNK)
                        if chunk != copy.read(_COPY_CHUNK):
                            break
                        if not chunk:
                            return
        destination = "damaged-%d.bin" % (self._highest_damaged_number + 1)
        with open(self._prefix + name, "rb") as original, open(self._prefix + destination, "wb") as copy:
            while True:
                chunk = original.read(_COPY_CHUNK)
                if not chunk:
                    break
                copy.write(chunk)
        self._highest_damaged_number += 1
        self._damaged_files.append((destination, size))

    # ---------------------------------------------------------------- record

    def _make_root(self):
        if not self._root_exists:
            try:
                os.mkdir(self.root)
            except OSError as error:
                if error.errno != _EEXIST:
                    raise
            self._root_exists = True

    def record(self, action):
        """Make one confirmed action durable; returns only after the file is closed.

        ValueError for an action that does not fit the current state (nothing is
        written); OSError (ENOSPC, EIO) from the filesystem, with the previous
        state still what load() returns."""
        if not self._loaded:
            self.load()
        if not isinstance(action, dict):
            raise ValueError("not a dict")
        op = action.get("op")
        if op in GAME_ACTIONS:
            if self._rules is None:
                raise ValueError("no game")
            deals = list(self._deals)
            apply_action(deals, action)  # an Unreadable is a ValueError
            entry = {"op": op}
            for field in GAME_ACTIONS[op][1]:
                entry[field] = action[field]
            line = encode(entry)
            fits = self._append_segment_size + len(line) <= self.segment_bytes
            if self._needs_base or (not fits and self._segments_since_base >= self.max_segments):
                self._write_base(self._game_number, self._highest_segment + 1, self._rules, deals)
                self._settle_quietly()
            elif fits:
                with open(self._prefix + segment_name(self._game_number, self._append_segment), "ab") as file:
                    file.write(line)
                self._append_segment_size += len(line)
                self._actions_since_base += 1
            else:
                segment = self._highest_segment + 1
                header = encode({"v": FORMAT_VERSION, "t": "log", "g": self._game_number, "s": segment,
                                 "p": self._actions_since_base})
                name = segment_name(self._game_number, segment)
                # listed before the write: an empty leftover is ours
                self._segment_files.append((self._game_number, segment, name))
                self._highest_segment = segment
                self._append_segment_size = self._write_file(name, header + line)
                self._append_segment = segment
                self._segments_since_base += 1
                self._actions_since_base += 1
            self._deals = deals
            self._rules = _rules_after(self._rules, action)
        elif op == "set":
            key = action.get("k")
            if not isinstance(key, str):
                raise ValueError("bad key")
            value = action.get("v")
            settings = self._settings
            if key in settings and settings[key] == value:
                return  # nothing changes: no write
            if SETTINGS_FILE in self._to_set_aside:
                if not self._move_away(SETTINGS_FILE):
                    raise OSError(5)  # the damaged file must not be overwritten
                self._to_set_aside.remove(SETTINGS_FILE)
            settings = dict(settings)
            settings[key] = value
            self._make_root()
            self._write_file(SETTINGS_FILE, encode({"v": FORMAT_VERSION, "t": "set", "s": settings}))
            self._settings = settings
        elif op == "new":
            rules = action.get("rules")
            if not isinstance(rules, dict):
                raise ValueError("bad rules")
            self._make_root()
            old = self._game_number
            archived = self._deals  # a game with deals
            if archived:
                self._write_archive(old, self._rules, archived, action.get("result"))
            elif old and old in self._archive_files:
                # a stale copy from an interrupted "new": this game ends empty
                if not self._move_away(archive_name(old), False):
                    raise OSError(5)
                self._archive_files.remove(old)
            game = self._highest_game_number + 1
            self._highest_game_number = game
            self._write_base(game, 0, rules, [])
            # committed: the new base exists
            if archived:
                self._archive_kept.append(old)  # in place: Archive views follow
                while len(self._archive_kept) > self.keep:
                    self._archive_kept.pop(0)
            self._settle_quietly()
        else:
            raise ValueError("unknown op")
