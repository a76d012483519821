"""Block devices for littlefs on the MicroPython unix port.

The Pico keeps the journal on littlefs in its flash; the simulator and the
power-cut tests need the same filesystem code on a device they control.
Both classes speak MicroPython's extended block protocol (readblocks /
writeblocks with a byte offset, ioctl 1..6), as `vfs.VfsLfs2` uses it.

Every change to the medium goes through `_program()` or `_erase()`, one
call per littlefs operation, so a subclass can count them and cut power
after the k-th (raise from the override, or store only part of the data).
"""
import vfs
from micropython import const

_IOCTL_INIT = const(1)
_IOCTL_DEINIT = const(2)
_IOCTL_SYNC = const(3)
_IOCTL_BLOCK_COUNT = const(4)
_IOCTL_BLOCK_SIZE = const(5)
_IOCTL_ERASE = const(6)
_EIO = const(5)

# The Pico's flash programs in 256-byte pages (ports/rp2/modules/_boot.py
# mounts with progsize=256); using the same value keeps write patterns alike.
PROG_SIZE = const(256)


class BlockDev:
    """The protocol, on top of _read/_program/_erase supplied by subclasses."""

    def __init__(self, block_size=4096, block_count=352):
        self.block_size = block_size
        self.block_count = block_count
        # what an erased block reads as; shared, never written
        self._erased = bytearray(b"\xff" * block_size)
        self.writes = 0  # _program calls, for tests and wear figures
        self.erases = 0

    def _span(self, block, offset, n):
        addr = block * self.block_size + offset
        if block < 0 or offset < 0 or addr + n > self.block_size * self.block_count:
            raise OSError(_EIO)
        return addr

    def readblocks(self, block, buf, offset=0):
        n = len(buf)
        self._span(block, offset, n)
        mv = memoryview(buf)
        done = 0
        while done < n:  # a plain (non-extended) read may cover several blocks
            k = min(self.block_size - offset, n - done)
            self._read(block, offset, mv[done:done + k])
            done += k
            block += 1
            offset = 0

    def writeblocks(self, block, buf, offset=None):
        n = len(buf)
        erase_first = offset is None  # the simple protocol erases, the extended one does not
        if erase_first:
            offset = 0
        self._span(block, offset, n)
        mv = memoryview(buf)
        done = 0
        while done < n:
            k = min(self.block_size - offset, n - done)
            if erase_first:
                self.erase(block)
            self.writes += 1
            self._program(block, offset, mv[done:done + k])
            done += k
            block += 1
            offset = 0

    def erase(self, block):
        self._span(block, 0, 0)
        self.erases += 1
        self._erase(block)

    def ioctl(self, op, arg):
        if op == _IOCTL_BLOCK_COUNT:
            return self.block_count
        if op == _IOCTL_BLOCK_SIZE:
            return self.block_size
        if op == _IOCTL_ERASE:
            self.erase(arg)
            return 0
        if op == _IOCTL_SYNC:
            self._sync()
            return 0
        if op == _IOCTL_INIT or op == _IOCTL_DEINIT:
            return 0
        return None

    # subclasses: one block, offset + len(buf) <= block_size
    def _read(self, block, offset, buf):
        raise NotImplementedError

    def _program(self, block, offset, data):
        raise NotImplementedError

    def _erase(self, block):
        raise NotImplementedError

    def _sync(self):
        pass


class RAMBlockDev(BlockDev):
    """Flash held in RAM, sparse: a block costs memory once written.

    A full 1.4 MB bytearray would not fit the unix port's default 2 MB heap
    next to the app; erased blocks are simply absent from `blocks`."""

    def __init__(self, block_size=4096, block_count=352):
        super().__init__(block_size, block_count)
        self.blocks = {}  # block number -> bytearray(block_size)

    def _read(self, block, offset, buf):
        data = self.blocks.get(block)
        src = self._erased if data is None else data
        buf[:] = memoryview(src)[offset:offset + len(buf)]

    def _program(self, block, offset, data):
        blk = self.blocks.get(block)
        if blk is None:
            blk = self.blocks[block] = bytearray(self._erased)
        memoryview(blk)[offset:offset + len(data)] = data

    def _erase(self, block):
        self.blocks.pop(block, None)

    def snapshot(self):
        """A deep copy of the medium (for tests that compare or restore it)."""
        return {k: bytes(v) for k, v in self.blocks.items()}

    def restore(self, snap):
        self.blocks = {k: bytearray(v) for k, v in snap.items()}


class FileBlockDev(BlockDev):
    """Flash kept in an image file, so a game outlives the simulator.

    Each program or erase is exactly one write() to the file at its offset
    (the unix port's binary files are unbuffered), nothing is cached in
    memory, so a SIGKILL at any instant leaves at most one torn operation,
    which is what littlefs is built to survive on real flash."""

    def __init__(self, path, block_size=4096, block_count=352):
        super().__init__(block_size, block_count)
        self.path = path
        try:
            self._f = open(path, "r+b")  # noqa: SIM115 - held for the device's life
        except OSError:
            # new image: extend to full size without writing 1.4 MB; the
            # hole reads as zeros, which mount() treats as blank
            self._f = open(path, "w+b")  # noqa: SIM115
            self._f.seek(block_size * block_count - 1)
            self._f.write(b"\xff")

    def _read(self, block, offset, buf):
        f = self._f
        f.seek(block * self.block_size + offset)
        got = f.readinto(buf) or 0
        if got < len(buf):  # image shorter than the device: past the end is erased
            buf[got:] = memoryview(self._erased)[:len(buf) - got]

    def _write(self, addr, data):
        f = self._f
        f.seek(addr)
        n = f.write(data)
        if n is not None and n != len(data):
            raise OSError(_EIO)

    def _program(self, block, offset, data):
        self._write(block * self.block_size + offset, data)

    def _erase(self, block):
        self._write(block * self.block_size, self._erased)

    def close(self):
        self._f.close()


class Window:
    """Blocks first_block .. first_block + block_count - 1 of a device, as a device of
    their own: what rp2.Flash(start=first_block * 4096, len=block_count * 4096) is on
    the Pico. Programs and erases go to the device underneath (so a CutDev counts
    and cuts them)."""

    def __init__(self, device, first_block, block_count):
        self.device = device
        self.first_block = first_block
        self.block_count = block_count
        self.block_size = device.block_size

    def _check(self, block, offset, length):
        if block < 0 or offset < 0 or (block * self.block_size + offset + length
                                       > self.block_count * self.block_size):
            raise OSError(_EIO)

    def readblocks(self, block, buf, offset=0):
        self._check(block, offset, len(buf))
        self.device.readblocks(self.first_block + block, buf, offset)

    def writeblocks(self, block, buf, offset=None):
        self._check(block, offset or 0, len(buf))
        if offset is None:
            self.device.writeblocks(self.first_block + block, buf)
        else:
            self.device.writeblocks(self.first_block + block, buf, offset)

    def ioctl(self, op, arg):
        if op == _IOCTL_BLOCK_COUNT:
            return self.block_count
        if op == _IOCTL_ERASE:
            self._check(arg, 0, self.block_size)
            return self.device.ioctl(op, self.first_block + arg)
        return self.device.ioctl(op, arg)


def is_blank(dev):
    """True if both superblock copies (blocks 0 and 1) are all 0xFF or all 0x00."""
    buf = bytearray(dev.block_size)
    for block in (0, 1):
        dev.readblocks(block, buf, 0)
        first = buf[0]
        if first != 0x00 and first != 0xFF:
            return False
        if buf != (dev._erased if first == 0xFF else bytearray(len(buf))):
            return False
    return True


def mount(dev, path, format_corrupt=True):
    """Mount littlefs from dev at path, formatting a blank image first.

    Returns "mounted", "formatted" (blank image) or "reformatted" (the image
    held something littlefs could not mount; like the Pico's _boot.py this
    starts over, unless format_corrupt is False, then OSError is raised)."""
    how = "mounted"
    if is_blank(dev):
        vfs.VfsLfs2.mkfs(dev, progsize=PROG_SIZE)
        how = "formatted"
    try:
        fs = vfs.VfsLfs2(dev, progsize=PROG_SIZE)
    except OSError:
        if not format_corrupt:
            raise
        vfs.VfsLfs2.mkfs(dev, progsize=PROG_SIZE)
        fs = vfs.VfsLfs2(dev, progsize=PROG_SIZE)
        how = "reformatted"
    vfs.mount(fs, path)
    return how
