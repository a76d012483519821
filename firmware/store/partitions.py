"""The scoreboard's flash layout (decision D1) and how it is mounted: one module, for
the UF2's boot on the Pico (uf2/_boot.py) and for the simulator's launcher, so both
see the same.

The rp2 storage region is cut into three littlefs partitions; on the Pico (2 MB
flash, 352 blocks of 4096 bytes):

  blocks   0-159  the user filesystem, mounted at "/" (mpremote's filesystem;
                  raw copies of damaged data partitions go to /aside/ on it)
  blocks 160-255  data partition A, mounted at "/data_a"
  blocks 256-351  data partition B, mounted at "/data_b"

The region's size depends on the board (the Pico W keeps less for its WiFi
firmware, a Pico 2 has 4 MB of flash), so the boot reads it from the flash
itself (rp2.Flash().ioctl(4, 0), its block count) and layout() cuts it in the
same proportions: each data partition 3/11 of it, the user filesystem the rest
(always more than a data partition, so a damaged one can be set aside).

The journal (store/journal.py) writes every action to both data partitions;
each holds a complete copy, so any one damaged block costs nothing.

On the Pico, a partition is `rp2.Flash(start=first_block * 4096, len=block_count * 4096)`;
the UF2's boot calls mount_device(), which mounts them so:

    partitions.mount_storage(
        lambda first_block, block_count: rp2.Flash(start=first_block * 4096, len=block_count * 4096), vfs)

The mount policy:
* a partition that mounts is used as it is;
* a blank one (never formatted: every block erased, or zeros as in a new image
  file) is formatted, nothing to say;
* the region holds one stock MicroPython littlefs over all 352 blocks (the UF2
  flashed over a Pico that ran `make deploy`): holding files, it is used as it
  is, mounted whole at "/", and the journal's two copies are its directories
  /data_a and /data_b, as on the stock firmware; empty (nothing was ever put
  on it), it is replaced by the three partitions;
* such a whole-region filesystem that does not mount is left untouched (there is
  nowhere to copy 1.4 MB): "/" is a small filesystem in RAM for this session and
  nothing is saved;
* a data partition that holds something littlefs cannot mount (or whose root
  cannot be listed) is never formatted before its raw bytes are copied to
  /aside/<name>-<N>.bin on the user filesystem (with room to spare) and read
  back equal; then it is formatted and the journal refills it from the other
  copy. If the copy cannot be made (no room, user filesystem not usable), the
  partition is left untouched and unmounted, and the journal keeps that copy
  in the directory of the same name on the user filesystem instead (in RAM
  when the user filesystem is in RAM);
* the user filesystem itself is never formatted unless blank; if it cannot be
  mounted it is left untouched, "/" is in RAM for this session, nothing can be
  set aside, and the data partitions are still used when they mount.
Every case but "mounted" and "blank" adds a notice (short English text); the
app shows that something was recovered ("Not saved!" when no copy of the
journal is on flash: see fill_report()).
"""
from coinche.compat import const

BLOCK_SIZE = const(4096)
STORAGE_BLOCKS = const(352)
PROGRAM_SIZE = const(256)  # the Pico's flash page, as the stock _boot.py mounts it
RAM_BLOCK_SIZE = const(512)
RAM_BLOCKS = const(64)  # 32 KB of RAM: this session's files when the flash cannot be used
ASIDE_SPARE_BLOCKS = const(8)  # room left on the user filesystem after a copy set aside

MIN_STORAGE_BLOCKS = const(44)  # below this the partitions would be too small to hold a game


def layout(total_blocks):
    """The three partitions of a storage region of `total_blocks` blocks:
    (user, (data_a, data_b)), each (name, first block, block count, mount point on the device)."""
    if total_blocks < MIN_STORAGE_BLOCKS:
        raise ValueError("storage region too small")
    data = total_blocks * 3 // 11
    user = total_blocks - 2 * data
    return ("user", 0, user, "/"), (("data_a", user, data, "/data_a"), ("data_b", user + data, data, "/data_b"))


# the Pico's (2 MB flash, 352 blocks): 160, 96, 96
USER_PARTITION, DATA_PARTITIONS = layout(STORAGE_BLOCKS)
ASIDE_DIRECTORY = "aside"

_EEXIST = const(17)

# What the last mount_storage() found, for fill_report(): (layout, roots, notices,
# unsaved), or None. layout: "partitions" (the three above), "whole" (a stock
# filesystem over the whole region) or "ram" (nothing on flash); unsaved: no copy of
# the journal is on flash this session (the screen says "Not saved!").
_found = None
# The names of the partitions the last mount_storage() found blank and formatted.
formatted = []


class RAMBlocks:
    """A small block device in RAM (MicroPython's extended block protocol)."""

    def __init__(self, block_size=RAM_BLOCK_SIZE, block_count=RAM_BLOCKS):
        self.block_size = block_size
        self.block_count = block_count
        self.data = bytearray(block_size * block_count)

    def readblocks(self, block, buffer, offset=0):
        start = block * self.block_size + offset
        buffer[:] = self.data[start:start + len(buffer)]

    def writeblocks(self, block, buffer, offset=None):
        start = block * self.block_size + (offset or 0)
        self.data[start:start + len(buffer)] = buffer

    def ioctl(self, operation, argument):
        if operation == 4:  # block count
            return self.block_count
        if operation == 5:  # block size
            return self.block_size
        if operation == 6:  # erase
            return 0
        return None


def _is_blank(device, block_count):
    """Every block holds only 0xFF (erased) and 0x00 bytes (holes in a new image file)."""
    buffer = bytearray(BLOCK_SIZE)
    erased = b"\xff" * BLOCK_SIZE
    zeros = bytes(BLOCK_SIZE)
    for block in range(block_count):
        device.readblocks(block, buffer)
        if buffer != erased and buffer != zeros and bytes(buffer).strip(b"\x00\xff"):
            return False
    return True


def superblock_count(device):
    """The block count written in the littlefs superblock at the start of `device`
    (its blocks 0 and 1, the newer of the two), or None when neither block starts
    with one."""
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


def _join(directory, name):
    return (directory.rstrip("/") or "") + "/" + name


def _makedirs(path):
    import os

    try:
        os.mkdir(path)
    except OSError:
        pass  # already there (or nowhere to make it: the journal will say)


def _try_mount(vfs_module, device, mount_point):
    """Mount littlefs from device at mount_point; True if it mounts and its root lists."""
    try:
        filesystem = vfs_module.VfsLfs2(device, progsize=PROGRAM_SIZE)
    except OSError:
        return False
    try:
        vfs_module.mount(filesystem, mount_point)
    except OSError:
        return False
    try:
        import os

        for _ in os.ilistdir(mount_point):
            pass
    except OSError:
        try:
            vfs_module.umount(mount_point)
        except OSError:
            pass
        return False
    return True


def _format_and_mount(vfs_module, device, mount_point):
    vfs_module.VfsLfs2.mkfs(device, progsize=PROGRAM_SIZE)
    return _try_mount(vfs_module, device, mount_point)


def _ram_filesystem(vfs_module, mount_point):
    return _format_and_mount(vfs_module, RAMBlocks(), mount_point)


def user_filesystem_roots(user_mount):
    """The journal's two copies as folders of the filesystem at user_mount (made if missing):
    a stock filesystem over the whole region, or this session's filesystem in RAM."""
    roots = [_join(user_mount, name) for name, _first, _count, _mount in DATA_PARTITIONS]
    for root in roots:
        _makedirs(root)
    return roots


def mount_ram(vfs_module, user_mount):
    """A filesystem in RAM at user_mount, holding the journal's two folders, for a session
    the flash cannot record: its roots, or None when even that could not be made."""
    if not _ram_filesystem(vfs_module, user_mount):
        return None
    return user_filesystem_roots(user_mount)


def _free_aside_name(aside_directory, name):
    import os

    taken = set()
    try:
        for entry in os.ilistdir(aside_directory):
            taken.add(entry[0])
    except OSError:
        pass
    number = 1
    while "%s-%d.bin" % (name, number) in taken:
        number += 1
    return _join(aside_directory, "%s-%d.bin" % (name, number))


def copy_aside(device, block_count, user_root, name):
    """Copy a partition's raw blocks to <user_root>/aside/<name>-<N>.bin and read them back.

    Returns the path, or None when the copy could not be made: not enough room
    (the copy and a few blocks to spare), or a write or read-back that failed
    (the partial copy is then removed)."""
    import os

    try:
        status = os.statvfs(user_root)
        if status[0] * status[4] < (block_count + ASIDE_SPARE_BLOCKS) * BLOCK_SIZE:
            return None
    except OSError:
        return None
    aside_directory = _join(user_root, ASIDE_DIRECTORY)
    try:
        os.mkdir(aside_directory)
    except OSError as error:
        if error.errno != _EEXIST:
            return None
    path = _free_aside_name(aside_directory, name)
    buffer = bytearray(BLOCK_SIZE)
    check = bytearray(BLOCK_SIZE)
    try:
        with open(path, "wb") as copy:
            for block in range(block_count):
                device.readblocks(block, buffer)
                if copy.write(buffer) != len(buffer):
                    raise OSError(28)
        with open(path, "rb") as copy:
            for block in range(block_count):
                device.readblocks(block, buffer)
                if copy.readinto(check) != len(check) or check != buffer:
                    raise OSError(5)
    except OSError:
        try:
            os.remove(path)
        except OSError:
            pass
        return None
    return path


def _mount_whole_region(make_block_device, vfs_module, user_mount, total_blocks):
    """The user partition did not mount: is the region one stock filesystem?

    Returns "whole" (mounted whole, holding files), "empty" (an empty one, now
    unmounted: nothing to keep) or None (it does not mount whole)."""
    import os

    if not _try_mount(vfs_module, make_block_device(0, total_blocks), user_mount):
        return None
    for _ in os.ilistdir(user_mount):
        return "whole"
    vfs_module.umount(user_mount)
    return "empty"


def mount_storage(make_block_device, vfs_module, user_mount=None, data_mounts=None, total_blocks=STORAGE_BLOCKS):
    """Mount the user filesystem and both data partitions by the policy above.

    make_block_device(first_block, block_count): a block device for that part of the
    storage region (rp2.Flash(start=..., len=...) on the Pico). vfs_module: MicroPython's
    `vfs`. user_mount / data_mounts: where to mount them (the device's "/", "/data_a",
    "/data_b" by default; the simulator mounts the user filesystem at "/flash").
    total_blocks: the storage region's size in blocks (the partitions are layout(total_blocks)).

    Returns (roots, notices): roots, the two journal directories (a data partition's
    mount point, or the directory of that name on the user filesystem when the
    partition could not be used; None when neither exists), notices, a list of short
    English texts, empty when everything mounted. Kept, with the layout and whether
    nothing is saved, for fill_report(). Never raises for a flash problem."""
    global _found
    notices = []
    formatted[:] = []
    user_partition, data_partitions = layout(total_blocks)
    user_mount = user_mount or user_partition[3]
    ended, user_on_flash = _mount_user_filesystem(make_block_device, vfs_module, user_partition, user_mount,
                                                  total_blocks, notices)
    if ended is not None:
        how, roots, nothing_saved = ended
        _found = (how, roots, notices, nothing_saved)
        return roots, notices
    user_present = user_on_flash or _ram_filesystem(vfs_module, user_mount)
    roots = []
    on_flash = 0
    for index, partition in enumerate(data_partitions):
        mount_point = data_mounts[index] if data_mounts else partition[3]
        root, flash = _mount_data_partition(make_block_device, vfs_module, partition, mount_point, user_mount,
                                            user_on_flash, user_present, notices)
        roots.append(root)
        on_flash += flash
    _found = ("partitions", roots, notices, not on_flash)
    return roots, notices


def _mount_user_filesystem(make_block_device, vfs_module, user_partition, user_mount, total_blocks, notices):
    """(ended, user_on_flash) of the user filesystem's partition: ended is (how, roots,
    nothing saved) when it decides the whole mount (one filesystem over the whole region,
    or a damaged one over it: the session runs in RAM), else None and the data
    partitions are mounted next; user_on_flash, whether it is mounted on flash."""
    user_name, user_first, user_count, _default_mount = user_partition
    user_device = make_block_device(user_first, user_count)
    user_on_flash = _try_mount(vfs_module, user_device, user_mount)
    if user_on_flash:
        return None, user_on_flash
    whole = _mount_whole_region(make_block_device, vfs_module, user_mount, total_blocks)
    if whole == "whole":
        return ("whole", user_filesystem_roots(user_mount), False), user_on_flash
    if whole == "empty" or _is_blank(user_device, user_count):
        user_on_flash = _format_and_mount(vfs_module, user_device, user_mount)
        formatted.append(user_name)
        return None, user_on_flash
    count = superblock_count(user_device)
    if count is not None and count > user_count:
        # A damaged filesystem over the whole region: pieces of it may be
        # anywhere, so no partition is touched; this session runs in RAM.
        notices.append("flash filesystem damaged: left untouched, not saved")
        return ("ram", mount_ram(vfs_module, user_mount) or [None, None], True), user_on_flash
    notices.append("user filesystem damaged: left untouched")
    return None, user_on_flash


def _mount_data_partition(make_block_device, vfs_module, partition, mount_point, user_mount, user_on_flash,
                          user_present, notices):
    """(this journal copy's directory, 1 if it is on flash else 0) for one data partition:
    mounted; formatted when blank; when damaged, copied aside (onto the user filesystem
    on flash) and formatted, else left untouched with the copy on the user filesystem."""
    name, first, count, _default_mount = partition
    device = make_block_device(first, count)
    fallback = _join(user_mount, name) if user_present else None
    if _try_mount(vfs_module, device, mount_point):
        return mount_point, 1
    if _is_blank(device, count):
        mounted = _format_and_mount(vfs_module, device, mount_point)
        formatted.append(name)
        return (mount_point, 1) if mounted else (fallback, 0)
    path = copy_aside(device, count, user_mount, name) if user_on_flash else None
    if path is not None and _format_and_mount(vfs_module, device, mount_point):
        notices.append("%s damaged: kept in %s" % (name, path))
        return mount_point, 1
    if path is None:
        notices.append("%s damaged: left untouched" % name)
    else:
        notices.append("%s damaged: kept in %s, not usable" % (name, path))
    # this copy of the journal on the user filesystem (RAM if it is in RAM)
    if fallback is None:
        return None, 0
    _makedirs(fallback)
    return fallback, 1 if user_on_flash else 0


def fill_report(report):
    """Copy what the last mount_storage() found into `report` (the small flash_report
    module the app reads), so that this module can be unloaded once mounted: the UF2's
    boot and the simulator's launcher both do that, and the game then plays without
    the mount code on the heap. LAYOUT, ROOTS (the journal's two directories) and
    NOTICES (the mount's texts) as found; NOTES, "kept" (flash holding data was
    kept instead of being formatted) and "unsaved" (no copy of the journal on flash)."""
    layout, roots, notices, unsaved = _found
    report.LAYOUT = layout
    report.ROOTS = list(roots)
    report.NOTICES = list(notices)
    report.NOTES = []
    if notices:
        report.NOTES.append("kept")
    if unsaved:
        report.NOTES.append("unsaved")


def storage_blocks(flash):
    """The storage region's size in blocks of BLOCK_SIZE, as the firmware reports it
    (`flash`: rp2.Flash() over the whole region)."""
    return flash.ioctl(4, 0) * flash.ioctl(5, 0) // BLOCK_SIZE


def mount_device():
    """The UF2's boot: mount the board's storage region (its size read from the flash) by the policy above."""
    try:
        from _rp2 import Flash  # pyright: ignore[reportMissingImports]  (the C half of rp2: the rp2 package would keep its PIO assembler on the heap)
    except ImportError:  # a port (or a test) with only the rp2 module
        from rp2 import Flash
    import vfs

    return mount_storage(
        lambda first_block, block_count: Flash(start=first_block * BLOCK_SIZE, len=block_count * BLOCK_SIZE), vfs,
        total_blocks=storage_blocks(Flash()))
