"""The UF2's flash layout, mounted at every boot by _boot.py (frozen in).

The rp2 storage region (352 blocks of 4096 B) is split in three littlefs
partitions (docs/storage.md, decision D1):

    blocks   0-159  the user filesystem at /        (mpremote's; /aside/ keeps raw
                                                      copies of damaged partitions)
    blocks 160-255  data partition A at /data_a     (one copy of the journal)
    blocks 256-351  data partition B at /data_b     (the other copy)

The stock MicroPython boot formats the whole region when littlefs does not
mount.  This one never formats storage that holds a littlefs filesystem
without first keeping its content:

- a partition with no littlefs superblock (a new Pico, an erased flash) is
  formatted: there is nothing to keep;
- a data partition that holds a superblock but does not mount is copied raw
  to /aside/data_a-N.bin (or data_b) on the user filesystem, then formatted;
  when there is no room for the copy it is left as it is and the journal
  keeps that copy in RAM for this session (the other copy is still saved);
- a user filesystem that holds a superblock but does not mount is left as it
  is; the data partitions still mount, / is in RAM for this session;
- a stock MicroPython filesystem spanning the whole region (the UF2 flashed
  over a Pico that ran `make deploy`) is mounted whole at /, as the stock
  firmware does: the journal then keeps its two copies in the directories
  /data_a and /data_b of that filesystem, exactly as on the stock firmware.
  Formatting it into partitions would destroy it, so it stays; only an
  empty one (nothing was ever put on it) is replaced by the partitions;
- a damaged filesystem spanning the whole region is left untouched (there is
  nowhere to copy 1.4 MB): the device runs on a RAM filesystem and says that
  nothing is saved.

NOTES (handed to the app by _boot.py through flash_report) names what happened: "kept" when some
flash holding data was kept instead of being mounted (the screen says
"Recovered", as for a damaged journal file set aside), "unsaved" when the
games of this session live in RAM only (the screen says "Not saved!").  LAYOUT says which layout is mounted:
"partitions", "whole" (a stock filesystem) or "ram".
"""
import os

import vfs
from micropython import const

BLOCK_SIZE = const(4096)
REGION_BLOCKS = const(352)
USER_FIRST = const(0)
USER_BLOCKS = const(160)
DATA_A_FIRST = const(160)
DATA_B_FIRST = const(256)
DATA_BLOCKS = const(96)
DATA_PARTITIONS = (("/data_a", DATA_A_FIRST), ("/data_b", DATA_B_FIRST))
PROGRAM_SIZE = const(256)  # the rp2 flash programs 256-byte pages
RAM_BLOCK_SIZE = const(512)
RAM_BLOCKS = const(64)  # 32 KB of RAM: a session's journal when flash cannot be used

NOTES = []
LAYOUT = None


def _flash_class():
    """rp2.Flash, from the C module _rp2: importing the rp2 package would
    keep its PIO assembler's classes on the heap for nothing."""
    try:
        from _rp2 import Flash  # pyright: ignore[reportMissingImports]  (the C half of rp2)
    except ImportError:  # a port (or a test) with only the rp2 module
        from rp2 import Flash
    return Flash


def flash(first_block, block_count):
    """The partition as an rp2.Flash block device (start is inside the region)."""
    return _flash_class()(start=first_block * BLOCK_SIZE, len=block_count * BLOCK_SIZE)


def whole_region():
    return _flash_class()()


def superblock_count(device):
    """The block count written in the littlefs superblock at the start of
    `device` (its blocks 0 and 1, the newer of the two), or None when neither
    block starts with one: there is no littlefs there."""
    head = bytearray(32)
    found = None
    newest = -1
    for block in (0, 1):
        try:
            device.readblocks(block, head, 0)
        except OSError:
            continue
        # revision (4) | tag (4) | "littlefs" (8) | tag (4) | version, block size, block count
        if head[8:16] == b"littlefs":
            revision = int.from_bytes(head[0:4], "little")
            if found is None or revision - newest > 0:
                newest = revision
                found = int.from_bytes(head[28:32], "little")
    return found


def _mount(device, point):
    """Mount littlefs of `device` at `point`: True, or False when it does not mount."""
    try:
        vfs.mount(vfs.VfsLfs2(device, progsize=PROGRAM_SIZE), point)
        return True
    except OSError:
        return False


def _format_and_mount(device, point):
    vfs.VfsLfs2.mkfs(device, progsize=PROGRAM_SIZE)
    vfs.mount(vfs.VfsLfs2(device, progsize=PROGRAM_SIZE), point)


class RAMBlocks:
    """A small block device in RAM (MicroPython's extended block protocol)."""

    def __init__(self, block_size=RAM_BLOCK_SIZE, block_count=RAM_BLOCKS):
        self.block_size = block_size
        self.block_count = block_count
        self.data = bytearray(block_size * block_count)

    def readblocks(self, block, buf, offset=0):
        start = block * self.block_size + offset
        buf[:] = self.data[start:start + len(buf)]

    def writeblocks(self, block, buf, offset=None):
        start = block * self.block_size + (offset or 0)
        self.data[start:start + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:
            return self.block_count
        if op == 5:
            return self.block_size
        if op == 6:  # erase
            return 0
        return None


def _ram_filesystem(point):
    _format_and_mount(RAMBlocks(), point)


def _makedirs(path):
    try:
        os.mkdir(path)
    except OSError:
        pass  # already there


def _free_bytes(path):
    st = os.statvfs(path)
    return st[0] * st[4]


def _set_aside(device, name, block_count):
    """Copy the raw blocks of `device` to /aside/NAME-N.bin: True when the
    whole copy is on the user filesystem (with room to spare)."""
    size = block_count * BLOCK_SIZE
    try:
        if _free_bytes("/") < size + 8 * BLOCK_SIZE:
            return False
        _makedirs("/aside")
        number = 1
        names = os.listdir("/aside")
        while "%s-%d.bin" % (name, number) in names:
            number += 1
        path = "/aside/%s-%d.bin" % (name, number)
    except OSError:
        return False
    buffer = bytearray(BLOCK_SIZE)
    try:
        with open(path, "wb") as out:
            for block in range(block_count):
                device.readblocks(block, buffer, 0)
                out.write(buffer)
    except OSError:
        try:
            os.remove(path)  # a partial copy keeps nothing: the partition stays as it is
        except OSError:
            pass
        return False
    return True


def _note(what):
    if what not in NOTES:
        NOTES.append(what)


def _mount_data_partition(point, first_block, user_mounted):
    """Mount one data partition: True when it is on flash, False when this
    session keeps that copy of the journal in RAM."""
    device = flash(first_block, DATA_BLOCKS)
    if _mount(device, point):
        return True
    if superblock_count(device) is None:
        _format_and_mount(device, point)  # empty (or never ours): nothing to keep
        return True
    # A damaged copy of the journal: keep its bytes before the partition is reused.
    _note("kept")
    if user_mounted and _set_aside(device, point[1:], DATA_BLOCKS):
        _format_and_mount(device, point)
        return True
    _ram_filesystem(point)
    return False


def _mount_user(user):
    """Mount the user filesystem at /: True (on flash), False (kept damaged,
    / in RAM), or "whole" / "ram" when the region is one filesystem."""
    if _mount(user, "/"):
        return True
    if _mount(whole_region(), "/"):
        if os.listdir("/"):
            # A stock MicroPython filesystem over the whole region, holding
            # files: used as it is.
            for point, _first in DATA_PARTITIONS:
                _makedirs(point)
            return "whole"
        # An empty one (stock MicroPython flashed, nothing put on it yet):
        # nothing to keep, so the region gets the three partitions.
        vfs.umount("/")
        _format_and_mount(user, "/")
        return True
    count = superblock_count(user)
    if count is None:
        # No filesystem starts the region: a new or erased Pico.
        _format_and_mount(user, "/")
        return True
    _note("kept")
    _ram_filesystem("/")
    if count == USER_BLOCKS:
        return False  # our user filesystem, damaged: kept as it is
    # A damaged filesystem that spans more than the user partition: pieces of
    # it may be anywhere in the region, so nothing is touched.
    _note("unsaved")
    for point, _first in DATA_PARTITIONS:
        _makedirs(point)
    return "ram"


def mount_all():
    """Mount the storage as described above; returns LAYOUT. Never raises for
    a flash problem: the device must start whatever the flash holds."""
    global LAYOUT
    del NOTES[:]
    user_mounted = _mount_user(flash(USER_FIRST, USER_BLOCKS))
    if user_mounted == "whole" or user_mounted == "ram":
        LAYOUT = user_mounted
        return LAYOUT
    LAYOUT = "partitions"
    on_flash = 0
    for point, first_block in DATA_PARTITIONS:
        if _mount_data_partition(point, first_block, user_mounted):
            on_flash += 1
    if not on_flash:
        _note("unsaved")  # neither copy of the journal can be written to flash
    return LAYOUT
