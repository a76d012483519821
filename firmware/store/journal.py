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

The private names are short on purpose: every identifier is stored in the
.mpy, and the firmware has a size budget. Their meaning is given where the
Journal's state is set (Journal._z).
"""
import os

from micropython import const

from store.lines import LineError, Lines, check, decode, encode

_V = const(1)  # the format version
_COPY = const(256)
_ENOENT = const(2)
_EEXIST = const(17)
_S_IFREG = const(0x8000)
_SET = "settings.log"


def _num(t):
    """A canonical decimal (no sign, no leading zero) as int, else -1."""
    if not t or not t.isdigit() or (len(t) > 1 and t[0] == "0"):
        return -1
    return int(t)


def _parse(name):
    """('set'|'seg'|'arc'|'dmg', G, S) for a journal file name, None for anything else."""
    if name == _SET:
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


def _sn(g, s):
    """The name of segment s of game g."""
    return "g%d.%d.log" % (g, s)


def _an(g):
    """The name of the archive file of game g."""
    return "a%d.log" % g


class _Bad(ValueError):
    """A file stopped being readable: no args when damaged, (1,) for a newer format.

    A ValueError, so record() raises it as is for an action that does not fit."""


def _ver(head):
    v = head.get("v")
    if type(v) is not int or v < _V:
        raise _Bad
    if v > _V:
        raise _Bad(1)


def _apply(deals, act):
    """One action on the deal list; _Bad when it cannot apply (never half)."""
    op = act.get("op")
    d = act.get("deal")
    if op == "add":
        if not isinstance(d, dict):
            raise _Bad
        deals.append(d)
        return
    i = act.get("i")
    if type(i) is not int or not 0 <= i < len(deals):
        raise _Bad
    if op == "edit":
        if not isinstance(d, dict):
            raise _Bad
        deals[i] = d
    elif op == "del":
        deals.pop(i)
    elif isinstance(op, str):
        raise _Bad(1)
    else:
        raise _Bad


class Archive:
    """The finished games, oldest first, as a read-only sequence: len(), [i], iteration.

    A game is read from flash when it is asked for and not kept: twenty games of
    forty deals as dicts would take about 200 KB, more than the Pico's heap."""

    def __init__(self, journal):
        self._j = journal
        self._ids = journal._kp

    def __len__(self):
        return len(self._ids)

    def _game(self, g):
        head, deals, _ = self._j._ra(g)
        out = {"rules": head and head["rules"], "deals": deals}
        if head and "r" in head:
            out["result"] = head["r"]
        return out

    def __getitem__(self, i):
        if isinstance(i, slice):
            return list(map(self._game, self._ids[i]))
        return self._game(self._ids[i])

    def __iter__(self):
        return map(self._game, list(self._ids))

    def __eq__(self, other):
        return list(self) == list(other)

    def numbers(self):
        """The game numbers (a<G>.log), oldest first."""
        return list(self._ids)

    def summary(self, i):
        """{"rules", "result", "n"} of game i from its first line only: cheap for a list screen.

        "result" is what the app passed with the "new" that closed the game (None if nothing)."""
        head = self._j._hd(_an(self._ids[i])) or {}
        return {"rules": head.get("rules"), "result": head.get("r"), "n": head.get("n", 0)}


class Journal:
    """See the module docstring; load() first, then record() each confirmed action."""

    def __init__(self, root, seg_max=512, max_segs=32, keep=20):
        # seg_max: littlefs stores files up to block_size/8 inline in the directory;
        # max_segs: segments before a game is compacted into a new base;
        # keep: finished games kept in the archive
        self.root = root.rstrip("/") or "/"
        self._pre = root.rstrip("/") + "/"  # a file's path is _pre + name
        self.seg_max = seg_max
        self.max_segs = max_segs
        self.keep = keep
        self._ok = False  # load() has run
        self._z()

    # ------------------------------------------------------------------ state

    def _z(self):
        """The state before load()."""
        self._rok = True  # the root directory exists
        self._set = {}  # the settings
        self._r = None  # rules of the current game self._g, None: no game
        self._d = None  # its deals (a list when there is a game)
        self._g = 0  # current game number, 0: none
        self._gx = 0  # highest game number in any file name
        self._b = 0  # segment number of the current base
        self._s = 0  # segment that takes appends
        self._sz = 0  # its size
        self._sx = 0  # highest segment number of the current game on disk
        self._ns = 0  # segments since the base, base included
        self._n = 0  # actions since the base: the next segment's "p"
        self._nb = False  # the log on disk cannot take appends: write a base
        self._sg = []  # (g, s, name) of the segment files on disk
        self._ar = []  # game numbers of archive files on disk
        self._kp = []  # game numbers of the archive load() returned, oldest first
        self._as = []  # names to move aside; never deleted
        self._dm = []  # (name, size) of damaged-N.bin files
        self._dn = 0  # highest N of damaged-N.bin

    # ---------------------------------------------------------------- reading

    def _rd(self, name, visit, cf=1 << 30):
        """Feed each line of a file to visit(obj, index); _Bad on the first problem.

        Lines from index cf on are only checksummed; visit gets None for them."""
        n = 0
        try:
            with open(self._pre + name, "rb") as f:
                it = Lines(f)
                for line in it:
                    obj = None
                    try:
                        if n < cf:
                            obj = decode(line)
                        else:
                            check(line)
                    except LineError:
                        raise _Bad
                    visit(obj, n)
                    n += 1
                if it.tail or it.too_long:
                    raise _Bad
        except OSError:
            raise _Bad
        if n == 0:
            raise _Bad

    def _hd(self, name):
        """The first line of a file as an object, or None."""
        try:
            with open(self._pre + name, "rb") as f:
                for line in Lines(f):
                    return decode(line)
        except (OSError, LineError):
            pass
        return None

    def _ra(self, g, parse=True):
        """Read archive g: (header, deals, problem); problem None, or the args of a _Bad.

        deals is the valid prefix; parse=False only checks the deal lines: deals is
        then their count."""
        head = None
        deals = []
        n = 0

        def visit(obj, i):
            nonlocal head, n
            if i == 0:
                _ver(obj)
                k = obj.get("n")
                if obj.get("t") != "arc" or obj.get("g") != g or type(k) is not int or "rules" not in obj:
                    raise _Bad
                head, n = obj, k
                return
            if i > n:
                raise _Bad
            deals.append(obj)

        why = None
        try:
            self._rd(_an(g), visit, 1 << 30 if parse else 1)
        except _Bad as e:
            why = e.args
        if why is None and len(deals) != n:
            why = ()
        return head, deals if parse else len(deals), why

    # ------------------------------------------------------------------- load

    def load(self):
        """Rebuild settings, current game and archive from the files; never raises on bad data."""
        self._z()
        self._ok = True
        notes = []
        newer = False
        aside = self._as

        def lost(name, why, note=None):
            # why: the args of a _Bad, true for a newer format
            nonlocal newer
            if why:
                newer = True
            if name not in aside:
                aside.append(name)
            if note and note not in notes:
                notes.append(note)

        try:
            listing = list(os.ilistdir(self.root))
        except OSError:
            listing = []
            self._rok = False
        segs = {}  # g -> [(s, name, size)]
        arcs = {}  # g -> size
        snames = []  # names of the segment files
        set_size = 0
        for e in listing:
            name = e[0]
            if e[1] != _S_IFREG:
                continue
            kind = _parse(name)
            if kind is None:
                continue  # not ours: left alone
            size = e[3] if len(e) > 3 else os.stat(self._pre + name)[6]
            k, g, s = kind
            if k == "set":
                set_size = size
            elif k == "dmg":
                self._dm.append((name, size))
                self._dn = max(self._dn, g)
            else:
                self._gx = max(self._gx, g)
                if k == "seg":
                    segs.setdefault(g, []).append((s, name, size))
                    self._sg.append((g, s, name))
                    snames.append(name)
                else:
                    arcs[g] = size
                    self._ar.append(g)

        # settings: all or nothing
        if set_size:
            got = None

            def visit(obj, i):
                nonlocal got
                _ver(obj)
                s = obj.get("s")
                if i > 0 or obj.get("t") != "set" or not isinstance(s, dict):
                    raise _Bad
                got = s

            try:
                self._rd(_SET, visit)
                self._set = got
            except _Bad as e:
                lost(_SET, e.args, "settings reset")

        # the current game: the highest game with a readable base
        head = None
        for g in sorted(segs, reverse=True):
            files = sorted(f for f in segs[g] if f[2] > 0)
            todo = []  # the base and the segments after it
            for f in reversed(files):
                todo.insert(0, f)
                h = self._hd(f[1])
                if (h is not None and h.get("v") == _V and h.get("t") == "log" and h.get("g") == g
                        and h.get("s") == f[0] and h.get("p") == 0
                        and isinstance(h.get("rules"), dict) and type(h.get("n")) is int):
                    head = h
                    for old in h.get("aside") or ():
                        if old in snames:
                            lost(old, 0)
                    break
                if h is not None and type(h.get("v")) is int and h["v"] > _V:
                    newer = True
            if head:
                break
            for f in files:
                lost(f[1], 0, "unreadable game set aside")

        if head:
            # replay game g from its base; on a problem keep the valid part, plan a repair
            deals = []
            count = 0
            nsegs = 0
            s = 0

            def visit(obj, i):
                nonlocal count
                if i == 0:
                    _ver(obj)
                    # "p" is 0 in the base, where count is 0 too
                    if obj.get("t") != "log" or obj.get("g") != g or obj.get("s") != s or obj.get("p") != count:
                        raise _Bad
                    return
                _apply(deals, obj)
                count += 1

            for s, name, size in todo:
                try:
                    self._rd(name, visit)
                    if not nsegs and count < head["n"]:
                        raise _Bad  # the snapshot lost lines
                except _Bad as e:
                    for bad in todo[nsegs:]:
                        lost(bad[1], e.args)
                    self._nb = True
                    notes.append("game kept to deal %d" % len(deals))
                    break
                self._s, self._sz = s, size
                nsegs += 1
            self._g = g
            self._r = head["rules"]
            self._d = deals
            self._b = todo[0][0]
            self._sx = max(f[0] for f in segs[g])
            self._n = count
            self._ns = nsegs

        # the archive: the newest readable finished games, checked, not kept in RAM
        for g in sorted(arcs, reverse=True):
            if len(self._kp) >= self.keep:
                break
            if arcs[g] == 0 or (self._g and g >= self._g):
                continue  # empty, or written by a "new" that did not complete
            head, n, why = self._ra(g, False)
            if why is not None:
                if head is None or not n:
                    lost(_an(g), why, "archived game %d set aside" % g)
                    continue
                # copy the damaged file aside, then rewrite it with its valid deals
                head, deals, why = self._ra(g)
                if head is None:  # unreadable on the second pass too: set it aside
                    lost(_an(g), why, "archived game %d set aside" % g)
                    continue
                try:
                    self._cpa(_an(g), arcs[g])
                    self._wa(g, head["rules"], deals, head.get("r"))
                except OSError:
                    notes.append("archived game %d not repaired" % g)
                notes.append("archived game %d: %d deals kept" % (g, len(deals)))
                deals = None
            self._kp.append(g)
        self._kp.reverse()

        # repairs and leftovers of interrupted work
        if aside:
            notes.append("damaged data kept aside")
        try:
            if self._nb:
                self._cp(self._g, self._sx + 1, self._r, self._d)
            self._settle()
        except (OSError, ValueError):
            notes.append("repair not saved yet")
        notice = None
        if notes:
            notice = "Recovered: " + "; ".join(notes)
            if newer:
                notice += " (newer format)"
        game = None
        if self._r is not None:
            game = {"rules": self._r, "deals": list(self._d)}
        return {"settings": dict(self._set), "game": game, "archive": Archive(self), "notice": notice}

    def archive(self):
        """The archive as it stands now (it follows later "new" actions)."""
        return Archive(self)

    # ---------------------------------------------------------------- writing

    def _w(self, name, first, items=(), add=False):
        """Write a whole file: the line first, then each item encoded (as an "add" if add).

        littlefs makes it visible only at close (or not at all). The items must
        encode once the file is open: close would commit what was written so
        far. Callers encode headers (the only lines that can still be rejected)
        before calling. Returns the size."""
        with open(self._pre + name, "wb") as f:
            size = f.write(first)
            for d in items:
                size += f.write(encode({"op": "add", "deal": d} if add else d))
        return size

    def _wa(self, g, rules, deals, result):
        """Write the archive file of game g."""
        head = {"v": _V, "t": "arc", "g": g, "n": len(deals), "rules": rules}
        if result is not None:
            head["r"] = result
        self._w(_an(g), encode(head), deals)  # ValueError from the header before the file is touched
        if g not in self._ar:
            self._ar.append(g)

    def _cp(self, g, s, rules, deals):
        """A new base s of game g (the snapshot of deals); the caller then settles.

        The base lists the damaged segments it makes obsolete: those are the
        files a clean-up would delete once the base exists; the base tells the
        next load() to move them aside instead. Other damaged files stay damaged
        on disk and are found again. (At most 64 names: a header line has a
        length limit.)"""
        head = {"v": _V, "t": "log", "g": g, "s": s, "p": 0, "n": len(deals), "rules": rules}
        mine = [n for n in self._as if n[0] == "g"][:64]
        if mine:
            head["aside"] = mine
        first = encode(head)
        name = _sn(g, s)
        self._sg.append((g, s, name))  # before the write: an empty leftover is ours
        size = self._w(name, first, deals, True)
        self._g = g
        self._r = rules
        self._d = deals
        self._b = self._s = self._sx = s
        self._sz = size
        self._ns = 1
        self._n = len(deals)
        self._nb = False

    def _tidy(self):
        """_settle after a commit: its failures never undo the action just recorded."""
        try:
            self._settle()
        except OSError:
            pass

    def _settle(self):
        """Move pending damaged files aside, delete segments and archives nobody needs."""
        for name in list(self._as):
            if self._mv(name):
                self._as.remove(name)
        keep = []
        for item in self._sg:
            g, s, name = item
            if (g == self._g and s >= self._b) or name in self._as or not self._mv(name, False):
                keep.append(item)
        self._sg = keep
        if self._g:
            for g in list(self._ar):
                if g < self._g and g not in self._kp and _an(g) not in self._as and self._mv(_an(g), False):
                    self._ar.remove(g)

    def _mv(self, name, aside=True):
        """Move a file to the next damaged-N.bin (or remove it): done, or it was gone."""
        dst = "damaged-%d.bin" % (self._dn + 1)
        try:
            if aside:
                os.rename(self._pre + name, self._pre + dst)
            else:
                os.remove(self._pre + name)
        except OSError as e:
            return e.errno == _ENOENT
        if aside:
            self._dn += 1
            self._dm.append((dst, -1))
        return True

    def _cpa(self, name, size):
        """Keep a byte copy as damaged-N.bin (once: an identical copy counts)."""
        for other, osize in self._dm:
            if osize == size:
                with open(self._pre + name, "rb") as fa, open(self._pre + other, "rb") as fb:
                    while True:
                        x = fa.read(_COPY)
                        if x != fb.read(_COPY):
                            break
                        if not x:
                            return
        dst = "damaged-%d.bin" % (self._dn + 1)
        with open(self._pre + name, "rb") as f, open(self._pre + dst, "wb") as out:
            while True:
                b = f.read(_COPY)
                if not b:
                    break
                out.write(b)
        self._dn += 1
        self._dm.append((dst, size))

    # ---------------------------------------------------------------- record

    def _mkroot(self):
        if not self._rok:
            try:
                os.mkdir(self.root)
            except OSError as e:
                if e.errno != _EEXIST:
                    raise
            self._rok = True

    def record(self, action):
        """Make one confirmed action durable; returns only after the file is closed.

        ValueError for an action that does not fit the current state (nothing is
        written); OSError (ENOSPC, EIO) from the filesystem, with the previous
        state still what load() returns."""
        if not self._ok:
            self.load()
        if not isinstance(action, dict):
            raise ValueError("not a dict")
        op = action.get("op")
        if op in ("add", "edit", "del"):
            if self._r is None:
                raise ValueError("no game")
            new = list(self._d)
            _apply(new, action)  # a _Bad is a ValueError
            entry = {"op": op}
            if op != "add":
                entry["i"] = action["i"]
            if op != "del":
                entry["deal"] = action["deal"]
            line = encode(entry)
            fits = self._sz + len(line) <= self.seg_max
            if self._nb or (not fits and self._ns >= self.max_segs):
                self._cp(self._g, self._sx + 1, self._r, new)
                self._tidy()
            elif fits:
                with open(self._pre + _sn(self._g, self._s), "ab") as f:
                    f.write(line)
                self._sz += len(line)
                self._n += 1
            else:
                s = self._sx + 1
                head = encode({"v": _V, "t": "log", "g": self._g, "s": s, "p": self._n})
                name = _sn(self._g, s)
                self._sg.append((self._g, s, name))  # before the write: an empty leftover is ours
                self._sx = s
                self._sz = self._w(name, head + line)
                self._s = s
                self._ns += 1
                self._n += 1
            self._d = new
        elif op == "set":
            k = action.get("k")
            if not isinstance(k, str):
                raise ValueError("bad key")
            v = action.get("v")
            st = self._set
            if k in st and st[k] == v:
                return  # nothing changes: no write
            if _SET in self._as:
                if not self._mv(_SET):
                    raise OSError(5)  # the damaged file must not be overwritten
                self._as.remove(_SET)
            new = dict(st)
            new[k] = v
            self._mkroot()
            self._w(_SET, encode({"v": _V, "t": "set", "s": new}))
            self._set = new
        elif op == "new":
            rules = action.get("rules")
            if not isinstance(rules, dict):
                raise ValueError("bad rules")
            self._mkroot()
            old = self._g
            archived = self._d  # a game with deals
            if archived:
                self._wa(old, self._r, archived, action.get("result"))
            elif old and old in self._ar:
                # a stale copy from an interrupted "new": this game ends empty
                if not self._mv(_an(old), False):
                    raise OSError(5)
                self._ar.remove(old)
            g = self._gx + 1
            self._gx = g
            self._cp(g, 0, rules, [])
            # committed: the new base exists
            if archived:
                self._kp.append(old)  # in place: Archive views follow
                while len(self._kp) > self.keep:
                    self._kp.pop(0)
            self._tidy()
        else:
            raise ValueError("unknown op")
