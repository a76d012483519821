# The UF2's boot (uf2/_boot.py, mounting by firmware/store/partitions.py) on the MicroPython unix port,
# with rp2.Flash(start=..., len=...) modelled as windows onto one storage region
# in RAM (352 blocks, the Pico's, or BLOCKS).  Usage: micropython flash_mount_cases.py
# CASE [BLOCKS]; prints one JSON line with what the boot did and what the flash holds
# afterwards.
import sys

sys.path[:0] = ["host_tools/sim/device_side", "host_tools/bench/device_side", "host_tools/rigs/device_side"]
sys.path.insert(0, "uf2")
sys.path.insert(0, "firmware")

import json  # noqa: E402
import os  # noqa: E402

import vfs  # noqa: E402
from blockdev import RAMBlockDev  # noqa: E402

BLOCK = 4096
TOTAL = int(sys.argv[2]) if len(sys.argv) > 2 else 352
FLASH = RAMBlockDev(BLOCK, TOTAL)


class Window:
    """rp2.Flash(start, len): blocks of the storage region seen from `start`."""

    def __init__(self, start=0, len=TOTAL * BLOCK):  # noqa: A002 - rp2.Flash's own keyword
        self.first = start // BLOCK
        self.count = len // BLOCK

    def _check(self, block):
        if block < 0 or block >= self.count:
            raise OSError(22)

    def readblocks(self, block, buf, offset=0):
        self._check(block)
        FLASH.readblocks(self.first + block, buf, offset)

    def writeblocks(self, block, buf, offset=None):
        self._check(block)
        FLASH.writeblocks(self.first + block, buf, offset)

    def ioctl(self, op, arg):
        if op == 4:
            return self.count
        if op == 5:
            return BLOCK
        if op == 6:
            self._check(arg)
            return FLASH.ioctl(6, self.first + arg)
        return FLASH.ioctl(op, arg)


class FakeRP2:
    Flash = Window


sys.modules["rp2"] = FakeRP2
with open("uf2/_boot.py") as boot_file:
    BOOT = compile(boot_file.read(), "uf2/_boot.py", "exec")
# imported while the host filesystem is still mounted; put back before each boot
import flash_report  # noqa: E402
import store.partitions  # noqa: E402, F401  (kept in MODULES below)

USER, (DATA_A, DATA_B) = store.partitions.layout(TOTAL)
USER_COUNT = USER[2]
MODULES = {name: sys.modules[name] for name in ("flash_report", "store", "store.partitions")}

vfs.umount("/")  # the unix port's host filesystem: from here on only the flash


def unmount_all():
    for point in ("/data_a", "/data_b", "/"):
        try:
            vfs.umount(point)
        except OSError:
            pass


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def damage(first_block):
    """Spoil the first commit of a superblock pair (its CRC no longer matches),
    keeping the "littlefs" magic: a filesystem that is there but does not mount."""
    buf = bytearray(BLOCK)
    for block in (first_block, first_block + 1):
        FLASH.readblocks(block, buf, 0)
        for i in range(40, 60):
            buf[i] ^= 0x5A
        FLASH.writeblocks(block, buf)


def blocks(first, count):
    buf = bytearray(BLOCK)
    out = []
    for block in range(first, first + count):
        FLASH.readblocks(block, buf, 0)
        out.append(bytes(buf))
    return out


def boot():
    unmount_all()
    sys.modules.update(MODULES)  # frozen in the UF2: always importable
    flash_report.LAYOUT = None  # as after a reset
    flash_report.ROOTS = None
    flash_report.NOTICES = []
    flash_report.NOTES = []
    exec(BOOT, {"__name__": "_boot"})
    # the mount code is unloaded after the boot: only the small report stays
    assert "store.partitions" not in sys.modules and "store" not in sys.modules
    report = sys.modules["flash_report"]
    return report.LAYOUT, list(report.NOTES)


def d1_with_games():
    """A device that has run the UF2: the three partitions, with data in each."""
    boot()
    write("/user.txt", "user file")
    write("/data_a/game", "copy A")
    write("/data_b/game", "copy B")


case = sys.argv[1]
result = {}
if case == "blank":
    result["first"] = boot()
    d1_with_games()
    result["second"] = boot()
    result["files"] = [read("/user.txt"), read("/data_a/game"), read("/data_b/game")]
    result["mounts"] = sorted(os.listdir("/"))
elif case == "stock_whole":
    # A stock MicroPython filesystem over the whole region, as `make deploy` left it
    vfs.VfsLfs2.mkfs(Window(), progsize=256)
    vfs.mount(vfs.VfsLfs2(Window(), progsize=256), "/")
    os.mkdir("/data")
    write("/data/settings.log", "old games")
    write("/main.py", "import board")
    result["boot"] = boot()
    result["files"] = [read("/data/settings.log"), read("/main.py")]
    write("/data_a/game", "new game")
    result["again"] = boot()
    result["files_again"] = [read("/data/settings.log"), read("/data_a/game")]
elif case == "stock_whole_empty":
    # stock MicroPython flashed and started once, nothing put on it
    vfs.VfsLfs2.mkfs(Window(), progsize=256)
    result["boot"] = boot()
    write("/data_a/game", "game")
    result["again"] = boot()
    result["files"] = [read("/data_a/game")]
    result["mounts"] = sorted(os.listdir("/"))
elif case == "damaged_user":
    d1_with_games()
    unmount_all()
    damage(0)
    before = blocks(0, USER_COUNT)
    result["boot"] = boot()
    result["user_kept"] = blocks(0, USER_COUNT) == before
    result["files"] = [read("/data_a/game"), read("/data_b/game")]
    write("/data_a/game2", "recorded")
    result["recorded"] = read("/data_a/game2")
elif case == "damaged_data_a":
    d1_with_games()
    unmount_all()
    damage(DATA_A[1])
    before = b"".join(blocks(DATA_A[1], DATA_A[2]))
    result["boot"] = boot()
    with open("/aside/data_a-1.bin", "rb") as f:
        result["aside_equal"] = f.read() == before
    result["files"] = [read("/user.txt"), read("/data_a/game"), read("/data_b/game")]
    write("/data_a/game", "recorded")
    result["again"] = boot()
    result["recorded"] = read("/data_a/game")
elif case == "damaged_data_b_full":
    d1_with_games()
    chunk = b"x" * BLOCK
    with open("/filler", "wb") as f:  # leave less room than a partition's copy
        for _ in range(USER_COUNT - DATA_B[2] // 2):
            f.write(chunk)
    unmount_all()
    damage(DATA_B[1])
    before = blocks(DATA_B[1], DATA_B[2])
    result["boot"] = boot()
    result["b_kept"] = blocks(DATA_B[1], DATA_B[2]) == before
    result["files"] = [read("/data_a/game"), read("/data_b/game")]
    write("/data_b/game", "this session")
    result["recorded"] = read("/data_b/game")
    result["b_kept_after_write"] = blocks(DATA_B[1], DATA_B[2]) == before
elif case == "layout":
    result["partitions"] = [USER, DATA_A, DATA_B]
    boot()
    result["sizes"] = [os.statvfs(point)[2] for point in ("/", "/data_a", "/data_b")]
elif case == "damaged_stock_whole":
    vfs.VfsLfs2.mkfs(Window(), progsize=256)
    vfs.mount(vfs.VfsLfs2(Window(), progsize=256), "/")
    os.mkdir("/data")
    for i in range(30):
        write("/data/seg%d" % i, "deal %d " % i * 40)
    unmount_all()
    damage(0)
    before = blocks(0, TOTAL)
    result["boot"] = boot()
    write("/data_a/game", "this session")
    write("/data_b/game", "this session")
    result["recorded"] = [read("/data_a/game"), read("/data_b/game")]
    result["flash_kept"] = blocks(0, TOTAL) == before
print(json.dumps(result))
