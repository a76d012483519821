"""The simulator: block devices, the device launcher and the host front end."""
import os

from conftest import ROOT, run_mp

MP_DIR = os.path.join(ROOT, "host_tools", "mp")


# ---------------------------------------------------------------- block devices

def test_blockdev_protocol_offsets_erase_and_bounds():
    out = run_mp(code="""
import blockdev
d = blockdev.RAMBlockDev(block_size=512, block_count=8)
print(d.ioctl(4, 0), d.ioctl(5, 0), d.ioctl(1, 0), d.ioctl(3, 0))
b = bytearray(4)
d.readblocks(2, b, 10); print(bytes(b))              # erased reads 0xff
d.writeblocks(2, b"abcd", 10)                         # extended: no erase
d.writeblocks(2, b"XY", 0)
d.readblocks(2, b, 10); print(bytes(b))
big = bytearray(b"Z" * 600)
d.writeblocks(3, big)                                 # simple protocol: erase + write, spans 2 blocks
r = bytearray(520); d.readblocks(3, r)
print(r[:3], r[511:513], d.erases)
r = bytearray(4); d.readblocks(4, r, 86); print(bytes(r))   # bytes 598..601 of the span
print(bytes(d.blocks[2][:2]), bytes(d.blocks[2][10:14]))
d.ioctl(6, 2); d.readblocks(2, r, 10); print(bytes(r), 2 in d.blocks)
for args in ((8, bytearray(1)), (7, bytearray(2), 511), (-1, bytearray(1))):
    try:
        d.readblocks(*args); print("no error")
    except OSError as e:
        print("EIO", e.errno)
""").stdout.split("\n")
    assert out[0] == "8 512 0 0"
    assert out[1] == "b'\\xff\\xff\\xff\\xff'"
    assert out[2] == "b'abcd'"
    assert out[3] == "bytearray(b'ZZZ') bytearray(b'ZZ') 2"  # the plain write erased 2 blocks
    assert out[4] == "b'ZZ\\xff\\xff'"
    assert out[5] == "b'XY' b'abcd'"
    assert out[6] == "b'\\xff\\xff\\xff\\xff' False"
    assert out[7:10] == ["EIO 5"] * 3


def test_ram_blockdev_formats_blank_then_remounts_with_data():
    out = run_mp(code="""
import blockdev, vfs, os
d = blockdev.RAMBlockDev()
print(blockdev.mount(d, "/fl"))
with open("/fl/a.txt", "w") as f:
    f.write("kept" * 100)
vfs.umount("/fl")
print(blockdev.mount(d, "/fl"), open("/fl/a.txt").read()[:8], os.statvfs("/fl")[2])
print(len(d.blocks) < 10, d.writes > 0, d.erases > 0)
""").stdout.split()
    assert out == ["formatted", "mounted", "keptkept", "352", "True", "True", "True"]


def test_garbage_image_is_reformatted_or_refused():
    out = run_mp(code="""
import blockdev
d = blockdev.RAMBlockDev(block_size=4096, block_count=16)
d.writeblocks(0, b"not a filesystem" * 256, 0)
try:
    blockdev.mount(d, "/a", format_corrupt=False); print("mounted?")
except OSError:
    print("refused")
print(blockdev.mount(d, "/b"))
""").stdout.split()
    assert out == ["refused", "reformatted"]


def test_file_blockdev_persists_across_processes(tmp_path):
    img = str(tmp_path / "flash.img")
    first = run_mp(code="""
import blockdev
d = blockdev.FileBlockDev(%r)
print(blockdev.mount(d, "/fl"))
with open("/fl/g.json", "w") as f:
    f.write('{"deals": 7}')
""" % img).stdout.split()
    assert first == ["formatted"]
    assert os.path.getsize(img) == 4096 * 352
    second = run_mp(code="""
import blockdev
d = blockdev.FileBlockDev(%r)
print(blockdev.mount(d, "/fl"), open("/fl/g.json").read())
""" % img).stdout.split()
    assert second == ["mounted", '{"deals":', "7}"]


def test_blockdev_power_cut_hook_via_subclass():
    """The override points the power-cut tests use: cut after the k-th program."""
    out = run_mp(code="""
import blockdev, vfs

class Cut(Exception):
    pass

class CutDev(blockdev.RAMBlockDev):
    left = -1
    def _program(self, block, offset, data):
        if self.left == 0:
            raise Cut()
        self.left -= 1
        super()._program(block, offset, data)

d = CutDev()
blockdev.mount(d, "/fl")
with open("/fl/f", "w") as f:
    f.write("old")
d.left = 1
try:
    with open("/fl/f", "w") as f:
        f.write("new" * 2000)
    print("no cut")
except Cut:
    print("cut")
vfs.umount("/fl")
d.left = -1
print(blockdev.mount(d, "/fl", format_corrupt=False), open("/fl/f").read()[:3])
""").stdout.split()
    assert out[0] == "cut"
    assert out[1] == "mounted"
    assert out[2] in ("old", "new")
