"""The simulator's --flash file: the device's storage region as one image file, refused
when it was not made by the simulator (mounting it would format it)."""
import os

# The device's storage region (docs/storage.md): 352 blocks of 4096 bytes in three
# littlefs partitions starting at blocks 0 (user filesystem), 160 (data A) and 256
# (data B).
FLASH_BLOCK_SIZE = 4096
FLASH_BLOCK_COUNT = 352
PARTITION_FIRST_BLOCKS = (0, 160, 256)
LITTLEFS_MAGIC = b"littlefs"  # at byte 8 of either superblock (the first two blocks)
_MAGIC_OFFSET = 8


def flash_image_problem(path):
    """None if `path` may be used as the simulator's flash image, else why not.

    A missing or empty file is fine (a new image), and so is one of the
    device's size that holds a littlefs superblock at a partition start or is
    still blank (all 0x00 or 0xFF, as the simulator creates it). Anything
    else was not made by the simulator: mounting would format it."""
    try:
        size = os.path.getsize(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        return "cannot read it (%s)" % (e.strerror or e)
    if os.path.isdir(path):
        return "it is a directory"
    if size == 0:
        return None
    expected = FLASH_BLOCK_SIZE * FLASH_BLOCK_COUNT
    if size != expected:
        return "it is %d bytes, a flash image is %d (%d blocks of %d)" % (
            size, expected, FLASH_BLOCK_COUNT, FLASH_BLOCK_SIZE)
    try:
        found = superblocks_found(path)
    except OSError as e:
        return "cannot read it (%s)" % (e.strerror or e)
    if found != "none":
        return None
    return NO_SUPERBLOCK


NO_SUPERBLOCK = "it holds no littlefs superblock at block %s" % ", ".join(str(b) for b in PARTITION_FIRST_BLOCKS)


def superblocks_found(path):
    """What the first two blocks of each partition of an image of the device's size hold:
    "littlefs" (a superblock somewhere), "blank" (nothing yet: all 0x00 or 0xFF, as the
    simulator creates it) or "none" (something else). OSError when it cannot be read."""
    with open(path, "rb") as f:
        blank = True
        for first in PARTITION_FIRST_BLOCKS:
            for block in (first, first + 1):
                f.seek(block * FLASH_BLOCK_SIZE)
                data = f.read(FLASH_BLOCK_SIZE)
                if data[_MAGIC_OFFSET:_MAGIC_OFFSET + len(LITTLEFS_MAGIC)] == LITTLEFS_MAGIC:
                    return "littlefs"
                if first == 0 and data.strip(b"\x00") and data.strip(b"\xff"):
                    blank = False
    return "blank" if blank else "none"


def start_blank_image(path):
    """Make `path` a blank image of the device's size (zeros: the device
    formats it at its first start), whatever it held."""
    with open(path, "wb") as f:
        f.truncate(FLASH_BLOCK_SIZE * FLASH_BLOCK_COUNT)
