"""Power cuts for littlefs tests: a RAM flash that dies at the k-th program or erase.

Two ways to cut, meant to agree:

* live: CutDev(cut_at=k) lets operations 0..k-1 land, then operation k either
  not at all or torn (tear=True: the first half of its bytes), and raises
  PowerCut from that and every later program/erase. The code under test
  stops wherever littlefs happened to be, like a CPU losing power.
* replay: run once on a recording CutDev (record=True), keep the operation
  log, then Replay(...).at(k, tear) gives the medium as the cut at k would
  leave it, without running the code again. What survives a cut at k is
  exactly the first k operations of that run (plus the torn k-th), so this
  is the same thing as a live cut, at O(1) work per k instead of O(k).

A replayed image is an overlay: it reads the walking image underneath and
keeps its own writes, so load() may repair it without disturbing the walk.
"""
import builtins

import vfs

from blockdev import PROG_SIZE, RAMBlockDev


class PowerCut(BaseException):
    """The power went: raised from the block device, not an OSError on purpose,
    so no `except OSError`/`except Exception` in the code under test swallows it."""


def apply_op(dev, op, tear=False):
    """Put one logged operation on dev (a CutDev); tear: only its first half lands."""
    if op[0] == "e":
        block = op[1]
        if not tear:
            dev._erase(block)
            return
        # an interrupted sector erase: part of it erased, the rest as it was
        half = dev.block_size // 2
        blk = dev._block_rw(block)
        blk[:half] = dev._erased[:half]
    else:
        _, block, offset, data = op
        if tear:
            data = data[:len(data) // 2]
        if data:
            blk = dev._block_rw(block)
            blk[offset:offset + len(data)] = data


class CutDev(RAMBlockDev):
    """RAMBlockDev that counts programs/erases, can record them and can die.

    cut_at: index (0-based, programs and erases counted together) of the
    operation the power cut hits; -1 never. under: a blocks dict to read
    through (copy-on-write overlay), for replayed images."""

    def __init__(self, block_size=4096, block_count=352, cut_at=-1, tear=False, record=False, under=None):
        super().__init__(block_size, block_count)
        self.cut_at = cut_at
        self.tear = tear
        self.dead = False
        self.ops = 0  # programs + erases that were attempted
        self.programmed = 0  # bytes handed to _program
        self.log = [] if record else None
        self._under = under
    def _src(self, block):
        data = self.blocks.get(block)
        if data is None and self._under is not None:
            data = self._under.get(block)
        return data

    def _read(self, block, offset, buf):
        data = self._src(block)
        src = self._erased if data is None else data
        buf[:] = memoryview(src)[offset:offset + len(buf)]

    def _block_rw(self, block):
        blk = self.blocks.get(block)
        if blk is None:
            src = self._src(block)
            blk = self.blocks[block] = bytearray(self._erased if src is None else src)
        return blk

    def _op(self, op):
        if self.dead:
            raise PowerCut()
        k = self.ops
        self.ops += 1
        if k == self.cut_at:
            self.dead = True
            if self.tear:
                apply_op(self, op, True)
            raise PowerCut()
        if self.log is not None:
            self.log.append(op)
        apply_op(self, op)

    def _program(self, block, offset, data):
        self.programmed += len(data)
        self._op(("p", block, offset, bytes(data)))

    def _erase(self, block):
        if self._under is None:
            RAMBlockDev._erase(self, block)
        else:  # an overlay must hide the block underneath
            self.blocks[block] = bytearray(self._erased)

    def erase(self, block):
        self._span(block, 0, 0)
        self.erases += 1
        self._op(("e", block))

    def image(self):
        """The medium as a plain dict of blocks (overlay merged), for a new device."""
        out = dict(self._under) if self._under is not None else {}
        for k, v in self.blocks.items():
            out[k] = v
        return {k: bytes(v) for k, v in out.items()}


class Replay:
    """Every cut point of one recorded run, in order, cheaply.

    snapshot: the medium before the run (dev.image()); log: that run's
    dev.log. at(k, tear) returns a fresh CutDev holding what a cut at
    operation k leaves; k must not decrease between calls, and a device
    from at() is only valid until the next call."""

    def __init__(self, snapshot, log, block_size=4096, block_count=352):
        self.log = log
        self.block_size = block_size
        self.block_count = block_count
        self._walk = CutDev(block_size, block_count)
        self._walk.blocks = {k: bytearray(v) for k, v in snapshot.items()}
        self._k = 0

    def __len__(self):
        return len(self.log)

    def at(self, k, tear=False, cut_at=-1):
        if k < self._k or k > len(self.log):
            raise ValueError("replay goes forward only")
        while self._k < k:
            apply_op(self._walk, self.log[self._k])
            self._k += 1
        dev = CutDev(self.block_size, self.block_count, cut_at=cut_at, under=self._walk.blocks)
        if tear and k < len(self.log):
            apply_op(dev, self.log[k], True)
        return dev


def mount(dev, path="/flash", mtime=True):
    """Mount an existing littlefs from dev at path (unmounting whatever was there).

    Never formats: a medium littlefs cannot mount raises OSError, which a
    power-cut test must see rather than an empty, freshly formatted disk."""
    unmount(path)
    fs = vfs.VfsLfs2(dev, progsize=PROG_SIZE, mtime=mtime)
    vfs.mount(fs, path)
    return fs


def unmount(path="/flash"):
    try:
        vfs.umount(path)
    except OSError:
        pass


def fresh(block_count=352, path="/flash", record=False, block_size=4096):
    """A newly formatted CutDev mounted at path, mounted like the Pico (progsize 256)."""
    dev = CutDev(block_size, block_count, record=record)
    vfs.VfsLfs2.mkfs(dev, progsize=PROG_SIZE)
    if dev.log is not None:
        dev.log = []  # the run starts after the format
    mount(dev, path)
    return dev


_kept_files = []
_open_held = None  # the open() that hold_files() put in builtins


def hold_files():
    """Keep every file opened from now on referenced (for live cuts).

    A cut inside close() leaves the file open to MicroPython; its finaliser
    would close it later, inside a garbage collection with the heap locked,
    and print a MemoryError traceback for nothing. Held files are never
    collected. Needs a port that lets builtins be overridden (the unix port)."""
    global _open_held
    real = builtins.open
    if real is _open_held:  # holding already
        return

    def open_held(*args, **kw):
        f = real(*args, **kw)
        _kept_files.append(f)
        return f

    _open_held = open_held
    builtins.open = open_held
