"""The power-safe journal: every confirmed action is on flash before the screen says so.

Why it is built this way (littlefs behaviour, wear figures, recovery rules):
docs/storage.md. In short, under `root`:

  s<N>.log          one line: the settings, written whole under the next number on a change
  g<G>.<S>.log      segment S of game G: a header line, then one action per line;
                    a header with "rules" is a base (a snapshot: the deals as adds)
  a<G>.log          a finished game: a header line, then one deal record per line
  damaged-<N>.bin   bytes that could not be read, kept for a human

Segments stay under littlefs' inline limit, so an append is one small metadata
commit instead of a copy of the file's last data block.

The journal is generic about game actions: GAME_ACTIONS (store/format.py, the
format both this writing side and the recovery read) maps each "op" to the
function that applies it and the fields stored for it, so a new kind of
action is one function and one table entry. The reading back at start-up and
the repairs are store/recovery.py's, loaded only for it.
"""
import os

from coinche.compat import const

import on_demand
from store.format import (FORMAT_VERSION, GAME_ACTIONS, Unreadable, apply_action, archive_name, check_version,
                          ignore_line, rules_after, segment_name, settings_file, settings_name)
from store.lines import LineError, Lines, check, decode, encode

_COPY_CHUNK = const(256)
_ENOENT = const(2)
_EIO = const(5)
_EEXIST = const(17)
_ENOMEM = const(12)
_ENOSPC = const(28)
_S_IFREG = const(0x8000)
_BLOCK = const(4096)
_RESERVE_BLOCKS = const(4)  # littlefs' own room (metadata compaction) plus settings
_GROWING_ACTIONS = ("add", "edit")


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
        header, deals, _ = self._journal.read_archive(game)
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
        header = self._journal.read_header(archive_name(self._game_numbers[index])) or {}
        return {"rules": header.get("rules"), "result": header.get("r"), "n": header.get("n", 0)}


class JournalCopy:
    """One complete copy of the journal, in one directory (see the module docstring).

    Journal drives one or two of them. Its state (the attributes reset_state() sets)
    is kept up by its own writes and, at start-up, set by store/recovery.py from
    what the files hold: the reading side of the same copy, loaded only for it.
    Nothing else writes it."""

    def __init__(self, root, segment_bytes=512, max_segments=32, keep=20):
        # segment_bytes: littlefs stores files up to block_size/8 inline in the directory;
        # max_segments: segments before a game is compacted into a new base;
        # keep: finished games kept in the archive
        self.root = root.rstrip("/") or "/"
        self.prefix = root.rstrip("/") + "/"  # a file's path is prefix + name
        self.segment_bytes = segment_bytes
        self.max_segments = max_segments
        self.keep = keep
        self.loaded = False  # load() has run
        self.reset_state()

    # ------------------------------------------------------------------ state

    def reset_state(self):
        """The state before load()."""
        self.root_exists = True  # the root directory exists
        self.settings = {}  # the settings
        self.rules = None  # rules of the current game, None: no game
        self.deals = None  # its deals (a list when there is a game)
        self.game_number = 0  # current game number, 0: none
        self.highest_game_number = 0  # highest game number in any file name
        self.base_segment = 0  # segment number of the current base
        self.append_segment = 0  # segment that takes appends
        self.append_segment_size = 0  # its size
        self.highest_segment = 0  # highest segment number of the current game on disk
        self.segments_since_base = 0  # segments since the base, base included
        self.actions_since_base = 0  # actions since the base: the next segment's "p"
        self.needs_base = False  # the log on disk cannot take appends: write a base
        # (game, segment) of the segment files on disk (the name is segment_name(game, segment):
        # a journal file's name is canonical; kept as numbers, two copies of a long game's
        # segment names would take a kilobyte or more of the Pico's heap)
        self.segment_files = []
        self.archive_files = []  # game numbers of archive files on disk
        self.archive_kept = []  # game numbers of the archive load() returned, oldest first
        self.to_set_aside = []  # names to move aside; never deleted
        self.damaged_files = []  # (name, size) of damaged-N.bin files
        self.highest_damaged_number = 0  # highest N of damaged-N.bin
        self.settings_sequence = 0  # "q" of the settings file
        self.settings_number = 0  # number of the settings file in use (0: none or settings.log)
        self.settings_files = []  # numbers of the settings files on disk
        self.interrupted_files = []  # incomplete bases above a complete one: removed
        self.game_sequence = 0  # "q" of the newest action of the current game read or written
        self.damaged_archives = {}  # game -> size, archives with a problem (load without repair)
        self.deal_bytes = 0  # about the bytes of the current game's deals (for the space reserve)
        self.notes = []  # what load() found, short English texts
        self.newer = False  # load() found data of a newer format

    # ---------------------------------------------------------------- reading

    def read_lines(self, name, visit, checksum_only_from=1 << 30):
        """Feed each line of a file to visit(obj, index); Unreadable on the first problem.

        Lines from index checksum_only_from on are only checksummed; visit gets None for them.
        Returns the number of lines."""
        count = 0
        try:
            with open(self.prefix + name, "rb") as file:
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
        return count

    def read_header(self, name):
        """The first line of a file as an object, or None."""
        try:
            with open(self.prefix + name, "rb") as file:
                for line in Lines(file):
                    return decode(line)
        except (OSError, LineError):
            pass
        return None

    def read_archive(self, game, parse=True):
        """Read the archive of a game: (header, deals, problem); problem None, or the args of an Unreadable.

        deals is the valid prefix; parse=False only checks the deal lines: deals is
        then their count."""
        header = None
        deals = []
        expected = 0

        def visit(obj, index):
            nonlocal header, expected
            if index == 0:
                check_version(obj)
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
            self.read_lines(archive_name(game), visit, 1 << 30 if parse else 1)
        except Unreadable as error:
            problem = error.args
        if problem is None and len(deals) != expected:
            problem = ()
        return header, deals if parse else len(deals), problem

    def archive_intact(self, game):
        """Does this copy hold the archive of that game, checked by load() and undamaged?
        (A file of a game that was still current is the leftover of a "new" that did
        not finish: not checked, not intact.)"""
        return game in self.archive_kept and game in self.archive_files and game not in self.damaged_archives

    # ------------------------------------------------------------------- load

    def load(self, repair=True, keep_deals=True):
        """Rebuild settings, current game and archive from the files; never raises on bad data.

        repair=False writes nothing: damage is only noted (the two-copy Journal
        repairs a copy from the other one instead). keep_deals=False only counts
        the deals (the state's "deals" is then None). The reading itself is in
        store/recovery.py, loaded only for it (Journal.load releases it). Its
        writes (repairs, clean-up) go through this class's methods."""
        return on_demand.load("store.recovery").load_copy(self, repair, keep_deals)

    def sequence(self):
        """The newest sequence number this copy holds."""
        return max(self.settings_sequence, self.game_sequence)

    # ---------------------------------------------------------------- writing

    def _write_file(self, name, first, items=(), as_adds=False):
        """Write a whole file: the line first, then each item encoded (as an "add" if as_adds).

        littlefs makes it visible only at close (or not at all). Returns the
        number of lines and the size."""
        lines = 1
        with open(self.prefix + name, "wb") as file:
            size = file.write(first)
            for item in items:
                size += file.write(encode({"op": "add", "deal": item} if as_adds else item))
                lines += 1
        return lines, size

    def _write_checked(self, name, first, items=(), as_adds=False):
        """Write a whole file under a name nothing valid uses yet, then read it back.

        The switch is done by whoever trusts the new file only when it is
        complete: an exception anywhere here (MemoryError, KeyboardInterrupt,
        OSError) can leave a half-written file, since close() commits what was
        written, but never touches the file in use. (Not a write to a temporary
        name and a rename: a power cut inside a littlefs rename that compacts the
        directory was seen to lose a third file.) Returns the size."""
        lines, size = self._write_file(name, first, items, as_adds)
        try:
            if self.read_lines(name, ignore_line, 0) != lines:
                raise Unreadable
        except Unreadable:
            raise OSError(_EIO)  # what was written does not read back
        return size

    def write_settings(self, settings, sequence):
        """A new settings file; the older ones are removed once it is complete."""
        header = {"v": FORMAT_VERSION, "t": "set", "s": settings}
        if sequence:
            header["q"] = sequence
        first = encode(header)
        self.make_root()
        number = max(self.settings_files or [0]) + 1
        self.settings_files.append(number)  # before the write: ours even if left
        self._write_checked(settings_name(number), first)
        self.settings = settings
        self.settings_sequence = sequence
        self.settings_number = number
        self._settle_quietly()

    def write_archive(self, game, rules, deals, result):
        """Write the archive file of a game."""
        header = {"v": FORMAT_VERSION, "t": "arc", "g": game, "n": len(deals), "rules": rules}
        if result is not None:
            header["r"] = result
        # a ValueError from the header comes before the file is touched
        self._write_checked(archive_name(game), encode(header), deals)
        if game not in self.archive_files:
            self.archive_files.append(game)
        self.damaged_archives.pop(game, None)

    def write_base(self, game, segment, rules, deals, sequence, made_by=None):
        """A new base segment of a game (the snapshot of deals); the caller then settles.

        made_by: the action folded into a compaction, kept in the header ("a"):
        the one action a base swallows stays readable, so the club link can
        still report it after a power cut (link/unsent.py). A game's first base
        (segment 0) needs none: it is its "new", with the header's rules.

        The base lists the damaged segments it makes obsolete: those are the
        files a clean-up would delete once the base exists; the base tells the
        next load() to move them aside instead. Other damaged files stay damaged
        on disk and are found again. (At most 64 names: a header line has a
        length limit.)"""
        header = {"v": FORMAT_VERSION, "t": "log", "g": game, "s": segment, "p": 0, "n": len(deals), "rules": rules}
        if sequence:
            header["q"] = sequence
        obsolete = [name for name in self.to_set_aside if name[0] == "g"][:64]
        if obsolete:
            header["aside"] = obsolete
        if made_by is not None:
            header["a"] = made_by
        first = encode(header)
        name = segment_name(game, segment)
        self.segment_files.append((game, segment))  # before the write: ours even if left
        size = self._write_checked(name, first, deals, True)
        self.game_number = game
        self.rules = rules
        self.deals = deals
        self.game_sequence = sequence
        self.base_segment = self.append_segment = self.highest_segment = segment
        self.append_segment_size = self.deal_bytes = size
        self.segments_since_base = 1
        self.actions_since_base = len(deals)
        self.needs_base = False

    def _settle_quietly(self):
        """settle() after a commit: its failures (even a MemoryError) never undo the action just recorded."""
        try:
            self.settle()
        except Exception:  # noqa: BLE001 - the next load() settles again
            pass

    def settle(self):
        """Move pending damaged files aside, delete segments and archives nobody needs."""
        for name in list(self.to_set_aside):
            if self.move_away(name):
                self.to_set_aside.remove(name)
        kept = []
        for item in self.segment_files:
            game, segment = item
            if game == self.game_number and segment >= self.base_segment:
                kept.append(item)
                continue
            name = segment_name(game, segment)
            if name in self.to_set_aside or not self.move_away(name, False):
                kept.append(item)
        self.segment_files = kept
        if self.game_number:
            for game in list(self.archive_files):
                name = archive_name(game)
                if (game < self.game_number and game not in self.archive_kept and name not in self.to_set_aside
                        and self.move_away(name, False)):
                    self.archive_files.remove(game)
        for name in list(self.interrupted_files):
            if self.move_away(name, False):
                self.interrupted_files.remove(name)
                self.segment_files = [item for item in self.segment_files if segment_name(*item) != name]
        for number in list(self.settings_files):
            name = settings_file(number)
            if number != self.settings_number and name not in self.to_set_aside and self.move_away(name, False):
                self.settings_files.remove(number)

    def move_away(self, name, set_aside=True):
        """Copy a file to the next damaged-N.bin (set_aside), then remove it: done, or it was gone.

        A copy and a remove, not a rename: see _write_checked."""
        try:
            if set_aside:
                self.copy_aside(name, os.stat(self.prefix + name)[6])
            os.remove(self.prefix + name)
        except OSError as error:
            return error.errno == _ENOENT
        return True

    def copy_aside(self, name, size):
        """Keep a byte copy as damaged-N.bin (once: an identical copy counts)."""
        for other, other_size in self.damaged_files:
            if other_size == size:
                with open(self.prefix + name, "rb") as original, open(self.prefix + other, "rb") as copy:
                    while True:
                        chunk = original.read(_COPY_CHUNK)
                        if chunk != copy.read(_COPY_CHUNK):
                            break
                        if not chunk:
                            return
        destination = "damaged-%d.bin" % (self.highest_damaged_number + 1)
        with open(self.prefix + name, "rb") as original, open(self.prefix + destination, "wb") as copy:
            while True:
                chunk = original.read(_COPY_CHUNK)
                if not chunk:
                    break
                copy.write(chunk)
        self.highest_damaged_number += 1
        self.damaged_files.append((destination, size))

    def make_root(self):
        if not self.root_exists:
            try:
                os.mkdir(self.root)
            except OSError as error:
                if error.errno != _EEXIST:
                    raise
            self.root_exists = True

    def _free_space(self):
        """(free bytes, filesystem bytes) where the copy lives."""
        try:
            info = os.statvfs(self.root if self.root_exists else self.root.rsplit("/", 1)[0] or "/")
        except OSError:
            return 1 << 30, 1 << 30  # a filesystem that cannot say: the write itself will tell
        return info[0] * info[3], info[0] * info[2]

    def _free_bytes(self):
        return self._free_space()[0]

    def _reserve_bytes(self):
        """Free space an action that grows the game must leave: enough for what always
        has to work (an undo that compacts, the archive and base of a "new", settings)."""
        return _RESERVE_BLOCKS * _BLOCK + 2 * self.deal_bytes

    # ---------------------------------------------------------------- record

    def check(self, action):
        """ValueError if the action does not fit this copy's state; False if it changes nothing."""
        if not isinstance(action, dict):
            raise ValueError("not a dict")
        op = action.get("op")
        if op in GAME_ACTIONS:
            if self.rules is None:
                raise ValueError("no game")
            apply_action(list(self.deals), action)  # an Unreadable is a ValueError
        elif op == "set":
            key = action.get("k")
            if not isinstance(key, str):
                raise ValueError("bad key")
            settings = self.settings
            if key in settings and settings[key] == action.get("v"):
                return False
            encode({"v": FORMAT_VERSION, "t": "set", "s": {key: action.get("v")}})
        elif op == "new":
            if not isinstance(action.get("rules"), dict):
                raise ValueError("bad rules")
        else:
            raise ValueError("unknown op")
        return True

    def record(self, action, sequence=0, game_number=0):
        """Make one confirmed action durable in this copy; returns only after the file is closed.

        sequence: the action's number ("q"), 0 for none; game_number: the number a
        "new" gives its game (default: one above any on disk). ValueError for an
        action that does not fit the current state (nothing is written); OSError
        (ENOSPC, EIO) from the filesystem, with the previous state still what
        load() returns."""
        if not self.loaded:
            self.load()
        if not self.check(action):
            return  # nothing changes: no write
        op = action["op"]
        if op in GAME_ACTIONS:  # a deal, an edit, an undo, a correction: a line of the game's log
            deals = list(self.deals)
            apply_action(deals, action)
            entry = {"op": op}
            for field in GAME_ACTIONS[op][1]:
                entry[field] = action[field]
            if sequence:
                entry["q"] = sequence
            line = encode(entry)
            if op in _GROWING_ACTIONS:
                self._keep_reserve(len(line))
            rules = rules_after(self.rules, action)
            fits = self.append_segment_size + len(line) <= self.segment_bytes
            if self.needs_base or (not fits and self.segments_since_base >= self.max_segments):
                # the new base holds the action: its deals, and its rules (a dealer correction)
                self.write_base(self.game_number, self.highest_segment + 1, rules, deals, sequence, entry)
                self._settle_quietly()
            elif fits:
                with open(self.prefix + segment_name(self.game_number, self.append_segment), "ab") as file:
                    file.write(line)
                self.append_segment_size += len(line)
                self.actions_since_base += 1
            else:  # a new log segment, its header and this action its first
                segment = self.highest_segment + 1
                header = encode({"v": FORMAT_VERSION, "t": "log", "g": self.game_number, "s": segment,
                                 "p": self.actions_since_base})
                name = segment_name(self.game_number, segment)
                # listed before the write: an empty leftover is ours
                self.segment_files.append((self.game_number, segment))
                self.highest_segment = segment
                self.append_segment_size = self._write_file(name, header + line)[1]
                self.append_segment = segment
                self.segments_since_base += 1
                self.actions_since_base += 1
            self.deal_bytes += len(line)
            self.deals = deals
            self.rules = rules
            self.game_sequence = sequence
        elif op == "set":
            settings = dict(self.settings)
            settings[action["k"]] = action.get("v")
            self.write_settings(settings, sequence)
        else:  # "new"
            self._record_new_game(action, sequence, game_number)

    def _record_new_game(self, action, sequence, game_number):
        """"new": the game with deals archived, then the new game's first base (the commit)."""
        rules = action["rules"]
        self.make_root()
        old = self.game_number
        archived = self.deals  # a game with deals
        if archived:
            self.write_archive(old, self.rules, archived, action.get("result"))
        elif old and old in self.archive_files:
            # a stale copy from an interrupted "new": this game ends empty
            if not self.move_away(archive_name(old), False):
                raise OSError(_EIO)
            self.archive_files.remove(old)
        game = max(game_number, self.highest_game_number + 1)
        self.highest_game_number = game
        self.write_base(game, 0, rules, [], sequence)  # a game's first base: its "new"
        # committed: the new base exists
        if archived:
            self.archive_kept.append(old)
            while len(self.archive_kept) > self.keep:
                self.archive_kept.pop(0)
        self._settle_quietly()

    def _keep_reserve(self, line_bytes):
        """Before an action that grows the game: make sure it leaves the reserve free.

        The oldest finished games go first (as beyond `keep`; the newest one stays);
        if that is not enough, ENOSPC: the reserve is for undo, new game and settings."""
        while self._free_bytes() < self._reserve_bytes() + line_bytes:
            if len(self.archive_kept) < 2 or not self.move_away(archive_name(self.archive_kept[0]), False):
                raise OSError(_ENOSPC)
            self.archive_files.remove(self.archive_kept.pop(0))


class Journal:
    """The journal: load() first, then record() each confirmed action.

    roots: one directory, or two on independent filesystems (the data
    partitions of store/partitions.py). With two, every action goes to both,
    numbered ("q"); load() takes the newest consistent state of each part
    (settings, current game, each finished game) from either copy and rewrites
    the other copy where it differs, so one damaged block, whichever, costs
    nothing. notices: texts to put in front of load()'s notice (the mount's).
    legacy: the folder of a journal written before the two copies (the stock
    firmware's "/data"): read, never written or removed, as long as neither copy
    holds an action of its own; its state is then copied into both.
    """

    def __init__(self, roots, segment_bytes=512, max_segments=32, keep=20, notices=(), legacy=None):
        if isinstance(roots, str):
            roots = (roots,)
        self.copies = [JournalCopy(root, segment_bytes, max_segments, keep) for root in roots]
        self.root = self.copies[0].root if self.copies else None
        self.keep = keep
        self._mount_notices = list(notices)
        self._archive_kept = []  # game numbers of the archive, oldest first; Archive views share it
        self._sequence = 0  # the newest action's number
        self._highest_game_number = 0
        self._loaded = False
        self._interrupted = False  # an exception stopped a write: read the flash again first
        self._behind = []  # copies that missed an action (OSError): repaired at the next load()
        self._repair_tried = False  # a copy that missed an action was repaired once this session
        self._legacy = legacy
        self._sources = self.copies  # where parts are read from: the copies (and a legacy journal)
        # called with (action, its sequence number, its game number) once an action is durable:
        # the club link's outbox (link/table_link.py) hangs off it
        self.listener = None

    def archive(self):
        """The archive as it stands now (it follows later "new" actions)."""
        return Archive(self)

    def read_archive(self, game, parse=True):
        result = None
        for copy in self._sources:
            found = copy.read_archive(game, parse)
            if found[2] is None:
                return found
            if result is None or (found[0] is not None and result[0] is None):
                result = found
        return result or (None, [] if parse else 0, ())

    def read_header(self, name):
        for copy in self._sources:
            header = copy.read_header(name)
            if header is not None:
                return header
        return None

    def use_sources(self, sources):
        """Where finished games are read from: the copies, and the journal of the
        firmware before the two copies while it is one (store/recovery.py)."""
        self._sources = sources

    def load(self):
        """Rebuild settings, current game and archive; never raises on bad data.

        Returns {"settings", "game", "archive", "notice"} (docs/architecture.md).
        The reading is store/recovery.py's: released here once done."""
        try:
            return self._load()
        finally:
            on_demand.release("store.recovery")

    def _load(self):
        self._loaded = True
        self._interrupted = False
        self._behind = []
        copies = self.copies
        notes = list(self._mount_notices)
        newer = False
        if not copies:
            notes.append("no storage")
            state = {"settings": {}, "game": None}
        elif len(copies) == 1:
            state = copies[0].load()
            notes += copies[0].notes
            newer = copies[0].newer
            self._sequence = copies[0].sequence()
            self._archive_kept[:] = copies[0].archive_kept
        else:
            legacy = None
            if self._legacy:
                legacy = JournalCopy(self._legacy, copies[0].segment_bytes, copies[0].max_segments, self.keep)
            state, copy_notes, newer, behind, archived = on_demand.load("store.recovery").load_copies(self, legacy)
            legacy = None
            notes += copy_notes
            self._behind += behind
            self._sequence = max(copy.sequence() for copy in copies)
            self._archive_kept[:] = archived
        self._highest_game_number = max([copy.highest_game_number for copy in copies] or [0])
        notice = None
        if notes:
            notice = "Recovered: " + "; ".join(notes)
            if newer:
                notice += " (newer format)"
        state["archive"] = Archive(self)
        state["notice"] = notice
        return state

    def record(self, action):
        """Make one confirmed action durable; returns only after every copy's file is closed.

        ValueError for an action that does not fit the current state (nothing is
        written); OSError (ENOSPC, EIO) when no copy could take it, with the
        previous state still what load() returns. A copy that fails while the
        other takes the action is repaired from it at the next load()."""
        if not self._loaded or self._interrupted or (self._behind and not self._repair_tried):
            # first use, an exception stopped a write, or a copy missed an action (once per
            # session: a copy that keeps failing waits for the next start): read and repair
            self._repair_tried = bool(self._behind)
            self.load()
        live = [copy for copy in self.copies if copy not in self._behind]
        if not live:
            raise OSError(_EIO)
        if not live[0].check(action):
            return  # nothing changes: no write
        sequence = self._sequence + 1
        game_number = self._highest_game_number + 1 if action["op"] == "new" else 0
        errors = []
        self._interrupted = True  # until every copy is done: an exception leaves the copies unsure
        for copy in live:
            try:
                copy.record(action, sequence, game_number)
            except (OSError, MemoryError) as error:
                # this copy did not take the action (what it holds in RAM may be half
                # updated): left alone until the next load() repairs it from the other
                errors.append(error if isinstance(error, OSError) else OSError(_ENOMEM))
                self._behind.append(copy)
        if len(errors) == len(live):
            for error in errors:
                if error.errno == _ENOSPC:
                    raise error
            raise errors[0]  # the flash holds the state before: reloaded before the next write
        self._interrupted = False
        self._sequence = sequence
        if game_number:
            self._highest_game_number = game_number
            for copy in live:
                if copy not in self._behind:
                    self._archive_kept[:] = copy.archive_kept  # in place: Archive views follow
                    break
        if self.listener is not None:  # a copy's game number changes only with a "new"
            self.listener(action, sequence, game_number or live[0].game_number)
