"""The scoreboard's flash layout (decision D1) and how it is mounted: one module, for
the UF2's boot on the Pico and for the simulator's launcher, so both see the same.

The rp2 storage region is 352 blocks of 4096 bytes, cut into three littlefs
partitions:

  blocks   0-159  the user filesystem, mounted at "/" (mpremote's filesystem;
                  raw copies of damaged data partitions go to /aside/ on it)
  blocks 160-255  data partition A, mounted at "/data_a"
  blocks 256-351  data partition B, mounted at "/data_b"

The journal (store/journal.py) writes every action to both data partitions;
each holds a complete copy, so any one damaged block costs nothing.

On the Pico, a partition is `rp2.Flash(start=first_block * 4096, len=block_count * 4096)`:

    import rp2, vfs
    from store import partitions
    roots, notices = partitions.mount_storage(
        lambda first_block, block_count: rp2.Flash(start=first_block * 4096, len=block_count * 4096), vfs)
    # then Journal(roots) (the app does it: see mounted)

The mount policy, for each partition:
* it mounts: used as it is;
* it is blank (never formatted: every block erased, or zeros as in a new image
  file): formatted, nothing to say;
* it holds something littlefs cannot mount (or whose root cannot be listed):
  it is never formatted before its raw bytes are copied to
  /aside/<name>-<N>.bin on the user filesystem and read back equal; then it is
  formatted and the journal refills it from the other copy. If the copy cannot
  be made (no user filesystem, not enough room), the partition is left
  untouched and unmounted, and the journal keeps that copy in the directory of
  the same name on the user filesystem instead;
* the user filesystem itself is never formatted unless blank; if it cannot be
  mounted it is left untouched, nothing can be set aside, and the data
  partitions are still used when they mount.
Every case but "mounted" and "blank" adds a notice (short English text); the
app shows that something was recovered.
"""
from micropython import const

BLOCK_SIZE = const(4096)
STORAGE_BLOCKS = const(352)
PROGRAM_SIZE = const(256)  # the Pico's flash page, as the stock _boot.py mounts it

# (name, first block, block count, mount point on the device)
USER_PARTITION = ("user", 0, 160, "/")
DATA_PARTITIONS = (("data_a", 160, 96, "/data_a"), ("data_b", 256, 96, "/data_b"))
ASIDE_DIRECTORY = "aside"

_EEXIST = const(17)

# What the last mount_storage() found, for the app: (roots, notices), or None
# when nothing was mounted here (the stock firmware's single filesystem).
mounted = None
# The names of the partitions the last mount_storage() found blank and formatted.
formatted = []


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


def _join(directory, name):
    return (directory.rstrip("/") or "") + "/" + name


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

    Returns the path, or None when the copy could not be made (it is then removed)."""
    import os

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


def mount_storage(make_block_device, vfs_module, user_mount=None, data_mounts=None):
    """Mount the user filesystem and both data partitions by the policy above.

    make_block_device(first_block, block_count): a block device for that part of the
    storage region (rp2.Flash(start=..., len=...) on the Pico). vfs_module: MicroPython's
    `vfs`. user_mount / data_mounts: where to mount them (the device's "/", "/data_a",
    "/data_b" by default; the simulator mounts the user filesystem at "/flash").

    Returns (roots, notices): roots, the two journal directories (a data partition's
    mount point, or the directory of that name on the user filesystem when the
    partition could not be used; None when neither exists), notices, a list of short
    English texts, empty when everything mounted. Also kept in `mounted`."""
    global mounted
    notices = []
    formatted[:] = []
    user_name, user_first, user_count, user_default = USER_PARTITION
    user_mount = user_mount or user_default
    user_device = make_block_device(user_first, user_count)
    user_ok = _try_mount(vfs_module, user_device, user_mount)
    if not user_ok:
        if _is_blank(user_device, user_count):
            user_ok = _format_and_mount(vfs_module, user_device, user_mount)
            formatted.append(user_name)
        else:
            notices.append("user filesystem damaged: left untouched")
    roots = []
    for index, (name, first, count, default_mount) in enumerate(DATA_PARTITIONS):
        mount_point = data_mounts[index] if data_mounts else default_mount
        device = make_block_device(first, count)
        fallback = _join(user_mount, name) if user_ok else None
        if _try_mount(vfs_module, device, mount_point):
            roots.append(mount_point)
            continue
        if _is_blank(device, count):
            roots.append(mount_point if _format_and_mount(vfs_module, device, mount_point) else fallback)
            formatted.append(name)
            continue
        path = copy_aside(device, count, user_mount, name) if user_ok else None
        if path is None:
            notices.append("%s damaged: left untouched" % name)
            roots.append(fallback)
        elif _format_and_mount(vfs_module, device, mount_point):
            notices.append("%s damaged: kept in %s" % (name, path))
            roots.append(mount_point)
        else:
            notices.append("%s damaged: kept in %s, not usable" % (name, path))
            roots.append(fallback)
    mounted = (roots, notices)
    return roots, notices
