"""Where the journal lives in a test: one folder, two folders, or the device's two partitions.

  single  one littlefs over the whole device, the journal in /flash/data (one copy)
  dirs    one littlefs, two copies in /flash/data_a and /flash/data_b (the stock
          firmware's layout: `make deploy`)
  device  the layout of store/partitions.py: data partitions A (blocks 160-255) and
          B (256-351) of the same flash, mounted at /data_a and /data_b (the UF2)

Every layout runs on one CutDev, so a recorded run and its replay cover both copies.
"""
import vfs

import cutdev
from blockdev import PROG_SIZE, Window

PATH = "/flash"
DATA_MOUNTS = ("/data_a", "/data_b")
# (first block, block count) of the data partitions (store/partitions.py)
PARTITIONS = ((160, 96), (256, 96))


def roots(layout):
    if layout == "single":
        return PATH + "/data"
    if layout == "dirs":
        return [PATH + "/data_a", PATH + "/data_b"]
    return list(DATA_MOUNTS)


def unmount(layout):
    cutdev.unmount(PATH)
    for point in DATA_MOUNTS:
        cutdev.unmount(point)


def mount(dev, layout):
    """Mount what the layout needs from dev (never formats)."""
    unmount(layout)
    if layout != "device":
        cutdev.mount(dev, PATH)
        return
    for (first, count), point in zip(PARTITIONS, DATA_MOUNTS):
        vfs.mount(vfs.VfsLfs2(Window(dev, first, count), progsize=PROG_SIZE), point)


def fresh(layout, blocks=352, record=False):
    """A new CutDev, formatted for the layout and mounted; the log starts after the format."""
    if layout != "device":
        return cutdev.fresh(blocks, PATH, record=record)
    dev = cutdev.CutDev(4096, 352, record=record)
    for first, count in PARTITIONS:
        vfs.VfsLfs2.mkfs(Window(dev, first, count), progsize=PROG_SIZE)
    if dev.log is not None:
        dev.log = []
    mount(dev, layout)
    return dev
