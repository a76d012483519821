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
"""
import os

from micropython import const

from store.lines import LineError, Lines, check, decode, encode

VERSION = const(1)
SEG_MAX = const(512)  # littlefs stores files up to block_size/8 inline in the directory
MAX_SEGS = const(32)  # segments before a game is compacted into a new base
KEEP = const(20)  # finished games kept in the archive
_COPY = const(256)
_ENOENT = const(2)
_EEXIST = const(17)
_S_IFREG = const(0x8000)
SETTINGS = "settings.log"


def _num(text):
    """A canonical decimal (no sign, no leading zero) as int, else -1."""
    if not text or not text.isdigit() or (len(text) > 1 and text[0] == "0"):
        return -1
    return int(text)


def parse_name(name):
    """('set'|'seg'|'arc'|'dmg', G, S) for a journal file name, None for anything else."""
    if name == SETTINGS:
        return ("set", 0, 0)
    if name.startswith("damaged-") and name.endswith(".bin"):
        n = _num(name[8:-4])
        return ("dmg", n, 0) if n >= 0 else None
    if len(name) < 6 or not name.endswith(".log"):
        return None
    stem = name[1:-4]
    if name[0] == "a":
        g = _num(stem)
        return ("arc", g, 0) if g > 0 else None
    if name[0] == "g":
        i = stem.find(".")
        if i > 0:
            g, s = _num(stem[:i]), _num(stem[i + 1:])
            if g > 0 and s >= 0:
                return ("seg", g, s)
    return None


def seg_name(g, s):
    return "g%d.%d.log" % (g, s)


def arc_name(g):
    return "a%d.log" % g


class _Bad(Exception):
    """Why a file stopped being readable: 'damaged' or 'newer' (a newer format)."""


def _check_version(head):
    v = head.get("v")
    if type(v) is not int:
        raise _Bad("damaged")
    if v > VERSION:
        raise _Bad("newer")
    if v != VERSION:
        raise _Bad("damaged")


def _need_dict(x):
    if not isinstance(x, dict):
        raise ValueError("deal must be a record (dict)")
    return x


def _need_index(i, n):
    if type(i) is not int or not 0 <= i < n:
        raise ValueError("deal index %r not in 0..%d" % (i, n - 1))
    return i


def _apply(deals, act):
    """One logged action on the deal list; _Bad when it cannot apply (never half)."""
    op = act.get("op")
    if op == "add":
        d = act.get("deal")
        if not isinstance(d, dict):
            raise _Bad("damaged")
        deals.append(d)
        return
    i = act.get("i")
    if type(i) is not int or not 0 <= i < len(deals):
        raise _Bad("damaged")
    if op == "edit":
        d = act.get("deal")
        if not isinstance(d, dict):
            raise _Bad("damaged")
        deals[i] = d
    elif op == "del":
        deals.pop(i)
    else:
        raise _Bad("newer" if isinstance(op, str) else "damaged")


class Archive:
    """The finished games, oldest first, as a read-only sequence: len(), [i], iteration.

    A game is read from flash when it is asked for and not kept: twenty games of
    forty deals as dicts would take about 200 KB, more than the Pico's heap."""

    def __init__(self, journal):
        self._j = journal
        self._ids = journal._kept

    def __len__(self):
        return len(self._ids)

    def _game(self, g):
        head, deals, _ = self._j._read_archive(g)
        out = {"rules": head and head["rules"], "deals": deals}
        if head and "r" in head:
            out["result"] = head["r"]
        return out

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._game(g) for g in self._ids[i]]
        return self._game(self._ids[i])

    def __iter__(self):
        for g in list(self._ids):
            yield self._game(g)

    def __eq__(self, other):
        return list(self) == list(other)

    def numbers(self):
        """The game numbers (a<G>.log), oldest first."""
        return list(self._ids)

    def summary(self, i):
        """{"rules", "result", "n"} of game i from its first line only: cheap for a list screen.

        "result" is what the app passed with the "new" that closed the game (None if nothing)."""
        head = self._j._read_header(arc_name(self._ids[i])) or {}
        return {"rules": head.get("rules"), "result": head.get("r"), "n": head.get("n", 0)}


class Journal:
    """See the module docstring; load() first, then record() each confirmed action."""

    def __init__(self, root, seg_max=SEG_MAX, max_segs=MAX_SEGS, keep=KEEP):
        self.root = root.rstrip("/") or "/"
        self.seg_max = seg_max
        self.max_segs = max_segs
        self.keep = keep
        self._loaded = False
        self._clear()

    # ------------------------------------------------------------------ state

    def _clear(self):
        self._root_ok = True
        self._settings = {}
        self._game = None  # {"rules": R, "deals": [...]} of game self._g
        self._g = 0  # current game number, 0: none
        self._gmax = 0  # highest game number in any file name
        self._base = 0  # segment number of the current base
        self._seg = 0  # segment that takes appends
        self._seg_size = 0
        self._smax = 0  # highest segment number of the current game on disk
        self._nsegs = 0  # segments since the base, base included
        self._count = 0  # actions since the base: the next segment's "p"
        self._needs_base = False  # the log on disk cannot take appends: write a base
        self._segs = []  # (g, s, name) of the segment files on disk
        self._arcs = []  # game numbers of archive files on disk
        self._kept = []  # game numbers of the archive load() returned, oldest first
        self._aside = []  # names to move aside; never deleted
        self._damaged = []  # (name, size) of damaged-N.bin files
        self._dmg = 0  # highest N of damaged-N.bin

    def _path(self, name):
        return self.root + "/" + name if self.root != "/" else "/" + name

    # ---------------------------------------------------------------- reading

    def _read_file(self, name, visit, check_from=1 << 30):
        """Feed each line to visit(obj, index); _Bad on the first problem.

        Lines from index check_from on are only checksummed; visit gets None for them."""
        n = 0
        try:
            with open(self._path(name), "rb") as f:
                it = Lines(f)
                for line in it:
                    try:
                        if n < check_from:
                            obj = decode(line)
                        else:
                            check(line)
                            obj = None
                    except LineError:
                        raise _Bad("damaged")
                    visit(obj, n)
                    n += 1
                if it.tail or it.too_long:
                    raise _Bad("damaged")
        except OSError:
            raise _Bad("damaged")
        if n == 0:
            raise _Bad("damaged")
        return n

    def _read_header(self, name):
        """The first line of a file as an object, or None."""
        try:
            with open(self._path(name), "rb") as f:
                for line in Lines(f):
                    return decode(line)
        except (OSError, LineError):
            pass
        return None

    def _is_base(self, head, g, s):
        if head is None or head.get("v") != VERSION or head.get("t") != "log":
            return False
        if head.get("g") != g or head.get("s") != s or head.get("p") != 0:
            return False
        return isinstance(head.get("rules"), dict) and type(head.get("n")) is int

    def _replay(self, name, g, s, is_base, deals, count):
        """Apply one segment to deals (in place, line by line); returns the new count.

        Raises _Bad after applying every valid line before the problem."""
        box = [count]

        def visit(obj, i):
            if i == 0:
                _check_version(obj)
                if obj.get("t") != "log" or obj.get("g") != g or obj.get("s") != s:
                    raise _Bad("damaged")
                if obj.get("p") != (0 if is_base else box[0]):
                    raise _Bad("damaged")
                return
            _apply(deals, obj)
            box[0] += 1

        self._read_file(name, visit)
        return box[0]

    def _read_archive(self, g, parse=True):
        """(header, deals, problem): problem None, 'damaged' or 'newer'; deals the valid prefix.

        parse=False only checks the deal lines: deals is then their count."""
        box = [None, [], 0]

        def visit(obj, i):
            if i == 0:
                _check_version(obj)
                n = obj.get("n")
                if obj.get("t") != "arc" or obj.get("g") != g or type(n) is not int or "rules" not in obj:
                    raise _Bad("damaged")
                box[0], box[2] = obj, n
                return
            if i > box[2]:
                raise _Bad("damaged")
            box[1].append(obj)

        why = None
        try:
            if parse:
                self._read_file(arc_name(g), visit)
            else:
                self._read_file(arc_name(g), visit, 1)
        except _Bad as e:
            why = e.args[0]
        if why is None and len(box[1]) != box[2]:
            why = "damaged"
        return box[0], box[1] if parse else len(box[1]), why

    def _read_settings(self):
        box = [None]

        def visit(obj, i):
            _check_version(obj)
            s = obj.get("s")
            if i > 0 or obj.get("t") != "set" or not isinstance(s, dict):
                raise _Bad("damaged")
            box[0] = s

        self._read_file(SETTINGS, visit)
        return box[0]

    # ------------------------------------------------------------------- load

    def load(self):
        """Rebuild settings, current game and archive from the files; never raises on bad data."""
        self._clear()
        self._loaded = True
        notes = []
        newer = [False]

        def lost(name, why, note):
            if why == "newer":
                newer[0] = True
            if name not in self._aside:
                self._aside.append(name)
            if note and note not in notes:
                notes.append(note)

        try:
            listing = list(os.ilistdir(self.root))
        except OSError:
            listing = []
            self._root_ok = False
        segs = {}  # g -> [(s, name, size)]
        arcs = {}  # g -> size
        set_size = 0
        for e in listing:
            name = e[0]
            if e[1] != _S_IFREG:
                continue
            kind = parse_name(name)
            if kind is None:
                continue  # not ours: left alone
            size = e[3] if len(e) > 3 else os.stat(self._path(name))[6]
            k, g, s = kind
            if k == "set":
                set_size = size
            elif k == "dmg":
                self._damaged.append((name, size))
                self._dmg = max(self._dmg, g)
            else:
                self._gmax = max(self._gmax, g)
                if k == "seg":
                    segs.setdefault(g, []).append((s, name, size))
                    self._segs.append((g, s, name))
                else:
                    arcs[g] = size
                    self._arcs.append(g)

        # settings: all or nothing
        if set_size:
            try:
                self._settings = self._read_settings()
            except _Bad as e:
                lost(SETTINGS, e.args[0], "settings reset")

        # the current game: the highest game with a readable base
        for g in sorted(segs, reverse=True):
            files = sorted(f for f in segs[g] if f[2] > 0)
            base = -1
            for s, name, _ in reversed(files):
                head = self._read_header(name)
                if self._is_base(head, g, s):
                    base = s
                    for old in head.get("aside") or ():
                        if isinstance(old, str) and any(old == x[2] for x in self._segs):
                            lost(old, "damaged", None)
                    break
                if head is not None and type(head.get("v")) is int and head["v"] > VERSION:
                    newer[0] = True
            if base < 0:
                for f in files:
                    lost(f[1], "newer" if newer[0] else "damaged", "unreadable game set aside")
                continue
            self._load_game(g, base, head, segs[g], files, lost, notes)
            break

        # the archive: the newest readable finished games, checked, not kept in RAM
        for g in sorted(arcs, reverse=True):
            if len(self._kept) >= self.keep:
                break
            if arcs[g] == 0 or (self._g and g >= self._g):
                continue  # empty, or written by a "new" that did not complete
            head, n, why = self._read_archive(g, False)
            if why is not None:
                if head is None or not n:
                    lost(arc_name(g), why, "archived game %d set aside" % g)
                    continue
                head, deals, why = self._read_archive(g)
                if not self._repair_archive(g, head, deals, arcs[g]):
                    notes.append("archived game %d not repaired" % g)
                notes.append("archived game %d: %d deals kept" % (g, len(deals)))
                deals = None
            self._kept.append(g)
        self._kept.reverse()

        # repairs and leftovers of interrupted work
        if self._aside:
            notes.append("damaged data kept aside")
        try:
            if self._needs_base:
                self._checkpoint(self._game["rules"], self._game["deals"])
            self._settle()
        except (OSError, ValueError):
            notes.append("repair not saved yet")
        notice = None
        if notes:
            notice = "Recovered: " + "; ".join(notes)
            if newer[0]:
                notice += " (newer format)"
        game = None
        if self._game is not None:
            game = {"rules": self._game["rules"], "deals": list(self._game["deals"])}
        return {"settings": dict(self._settings), "game": game, "archive": Archive(self), "notice": notice}

    def archive(self):
        """The archive as it stands now (it follows later "new" actions)."""
        return Archive(self)

    def _load_game(self, g, base, head, all_files, files, lost, notes):
        """Replay game g from its base; on a problem keep the valid part, plan a repair."""
        deals = []
        count = 0
        last = None
        nsegs = 0
        problem = None
        todo = [f for f in files if f[0] >= base]
        for j in range(len(todo)):
            s, name, size = todo[j]
            try:
                count = self._replay(name, g, s, s == base, deals, count)
                if s == base and count < head["n"]:
                    raise _Bad("damaged")  # the snapshot lost lines
            except _Bad as e:
                problem = e.args[0]
                for _, bad, _ in todo[j:]:
                    lost(bad, problem, None)
                break
            last = (s, size)
            nsegs += 1
        self._g = g
        self._game = {"rules": head["rules"], "deals": deals}
        self._base = base
        self._smax = max(f[0] for f in all_files)
        self._count = count
        self._nsegs = nsegs
        if last is not None:
            self._seg, self._seg_size = last
        if problem is not None:
            self._needs_base = True
            notes.append("game kept to deal %d" % len(deals))

    def _repair_archive(self, g, head, deals, size):
        """Copy the damaged file aside, then rewrite it with its valid deals."""
        name = arc_name(g)
        try:
            if not self._copy_aside(name, size):
                return False
            self._write_archive(g, head["rules"], deals, head.get("r"))
        except OSError:
            return False
        return True

    # ---------------------------------------------------------------- writing

    def _write(self, name, lines):
        """Write a whole file; littlefs makes it visible only at close (or not at all).

        lines must not raise once the file is open: close would commit what
        was written so far. Callers encode headers (the only lines that can
        still be rejected) before calling."""
        size = 0
        with open(self._path(name), "wb") as f:
            for line in lines:
                f.write(line)
                size += len(line)
        return size

    def _write_archive(self, g, rules, deals, result=None):
        head = {"v": VERSION, "t": "arc", "g": g, "n": len(deals), "rules": rules}
        if result is not None:
            head["r"] = result
        first = encode(head)  # ValueError here, before the file is touched

        def gen():
            yield first
            for d in deals:
                yield encode(d)

        self._write(arc_name(g), gen())
        if g not in self._arcs:
            self._arcs.append(g)

    def _checkpoint(self, rules, deals):
        """A new base for the current game: the snapshot, then the old segments go."""
        g = self._g
        s = self._smax + 1
        head = {"v": VERSION, "t": "log", "g": g, "s": s, "p": 0, "n": len(deals), "rules": rules}
        self._protect(head)
        first = encode(head)

        def gen():
            yield first
            for d in deals:
                yield encode({"op": "add", "deal": d})

        name = seg_name(g, s)
        size = self._write(name, gen())
        self._segs.append((g, s, name))
        self._base = self._seg = self._smax = s
        self._seg_size = size
        self._nsegs = 1
        self._count = len(deals)
        self._needs_base = False
        self._tidy()

    def _protect(self, head):
        """List in a new base the damaged segments it makes obsolete.

        Those are the files a clean-up would delete once the base exists; the
        base tells the next load() to move them aside instead. Other damaged
        files stay damaged on disk and are found again. (At most 64 names: a
        header line has a length limit.)"""
        mine = [n for n in self._aside if n[0] == "g"][:64]
        if mine:
            head["aside"] = mine

    def _tidy(self):
        """_settle after a commit: its failures never undo the action just recorded."""
        try:
            self._settle()
        except OSError:
            pass

    def _settle(self):
        """Move pending damaged files aside, delete segments and archives nobody needs."""
        for name in list(self._aside):
            if self._move_aside(name):
                self._aside.remove(name)
        keep = []
        for item in self._segs:
            g, s, name = item
            if (g == self._g and s >= self._base) or name in self._aside:
                keep.append(item)
            elif not self._remove(name):
                keep.append(item)
        self._segs = keep
        if self._g:
            for g in list(self._arcs):
                if g < self._g and g not in self._kept and arc_name(g) not in self._aside:
                    if self._remove(arc_name(g)):
                        self._arcs.remove(g)

    def _remove(self, name):
        try:
            os.remove(self._path(name))
        except OSError as e:
            return e.errno == _ENOENT
        return True

    def _move_aside(self, name):
        n = self._dmg + 1
        dst = "damaged-%d.bin" % n
        try:
            os.rename(self._path(name), self._path(dst))
        except OSError as e:
            return e.errno == _ENOENT
        self._dmg = n
        self._damaged.append((dst, -1))
        return True

    def _same(self, a, b):
        with open(self._path(a), "rb") as fa, open(self._path(b), "rb") as fb:
            while True:
                x = fa.read(_COPY)
                if x != fb.read(_COPY):
                    return False
                if not x:
                    return True

    def _copy_aside(self, name, size):
        """Keep a byte copy as damaged-N.bin (once: an identical copy counts)."""
        for other, osize in self._damaged:
            if osize == size and self._same(name, other):
                return True
        n = self._dmg + 1
        dst = "damaged-%d.bin" % n

        def chunks():
            with open(self._path(name), "rb") as f:
                while True:
                    b = f.read(_COPY)
                    if not b:
                        return
                    yield b

        self._write(dst, chunks())
        self._dmg = n
        self._damaged.append((dst, size))
        return True

    # ---------------------------------------------------------------- record

    def record(self, action):
        """Make one confirmed action durable; returns only after the file is closed.

        ValueError for an action that does not fit the current state (nothing is
        written); OSError (ENOSPC, EIO) from the filesystem, with the previous
        state still what load() returns."""
        if not self._loaded:
            self.load()
        if not isinstance(action, dict):
            raise ValueError("action must be a dict")
        op = action.get("op")
        if op in ("add", "edit", "del"):
            self._record_game(op, action)
        elif op == "set":
            self._record_set(action)
        elif op == "new":
            self._record_new(action)
        else:
            raise ValueError("unknown op %r" % (op,))

    def _ensure_root(self):
        if not self._root_ok:
            try:
                os.mkdir(self.root)
            except OSError as e:
                if e.errno != _EEXIST:
                    raise
            self._root_ok = True

    def _record_game(self, op, action):
        game = self._game
        if game is None:
            raise ValueError("no current game: record a 'new' first")
        deals = game["deals"]
        if op == "add":
            deal = _need_dict(action.get("deal"))
            entry = {"op": "add", "deal": deal}
            new = deals + [deal]
        elif op == "edit":
            i = _need_index(action.get("i"), len(deals))
            deal = _need_dict(action.get("deal"))
            entry = {"op": "edit", "i": i, "deal": deal}
            new = list(deals)
            new[i] = deal
        else:
            i = _need_index(action.get("i"), len(deals))
            entry = {"op": "del", "i": i}
            new = deals[:i] + deals[i + 1:]
        line = encode(entry)
        fits = self._seg_size + len(line) <= self.seg_max
        if self._needs_base or (not fits and self._nsegs >= self.max_segs):
            self._checkpoint(game["rules"], new)
        elif fits:
            with open(self._path(seg_name(self._g, self._seg)), "ab") as f:
                f.write(line)
            self._seg_size += len(line)
            self._count += 1
        else:
            s = self._smax + 1
            head = encode({"v": VERSION, "t": "log", "g": self._g, "s": s, "p": self._count})
            name = seg_name(self._g, s)
            self._segs.append((self._g, s, name))  # before the write: an empty leftover is ours
            self._smax = s
            self._seg_size = self._write(name, (head, line))
            self._seg = s
            self._nsegs += 1
            self._count += 1
        game["deals"] = new

    def _record_set(self, action):
        k = action.get("k")
        if not isinstance(k, str):
            raise ValueError("setting key must be a string")
        v = action.get("v")
        if k in self._settings and self._settings[k] == v:
            return  # nothing changes: no write
        if SETTINGS in self._aside:
            if not self._move_aside(SETTINGS):
                raise OSError(5)  # the damaged file must not be overwritten
            self._aside.remove(SETTINGS)
        new = dict(self._settings)
        new[k] = v
        self._ensure_root()
        self._write(SETTINGS, (encode({"v": VERSION, "t": "set", "s": new}),))
        self._settings = new

    def _record_new(self, action):
        rules = action.get("rules")
        if not isinstance(rules, dict):
            raise ValueError("rules must be a RULESPEC dict")
        self._ensure_root()
        old, game = self._g, self._game
        archived = game is not None and len(game["deals"]) > 0
        if archived:
            self._write_archive(old, game["rules"], game["deals"], action.get("result"))
        elif old and old in self._arcs:
            # a stale copy from an interrupted "new": this game ends empty
            if not self._remove(arc_name(old)):
                raise OSError(5)
            self._arcs.remove(old)
        g = self._gmax + 1
        head = {"v": VERSION, "t": "log", "g": g, "s": 0, "p": 0, "n": 0, "rules": rules}
        self._protect(head)
        name = seg_name(g, 0)
        self._gmax = g
        self._segs.append((g, 0, name))
        size = self._write(name, (encode(head),))
        # committed: the new base exists
        if archived:
            self._kept.append(old)  # in place: Archive views follow
            while len(self._kept) > self.keep:
                self._kept.pop(0)
        self._g = g
        self._game = {"rules": rules, "deals": []}
        self._base = self._seg = self._smax = 0
        self._seg_size = size
        self._nsegs = 1
        self._count = 0
        self._needs_base = False
        self._tidy()
