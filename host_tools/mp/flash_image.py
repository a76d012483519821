"""The simulator's flash image, mounted the way the device mounts its flash.

The one place that knows the image's layout: the simulator's launcher
(sim_main.py) and the exporter (export_dump.py) both mount through it, so
the exporter reads exactly what the simulated scoreboard wrote.
"""
import blockdev

FLASH_MOUNT = "/flash"
STORAGE = "/flash/data"  # the journal's root (board.STORAGE in the simulator)


def mount_flash(path=None):
    """Mount the image at path (None: a blank flash in RAM) at FLASH_MOUNT.

    Returns "mounted", "formatted" (blank image) or "reformatted" (it held
    something littlefs could not mount)."""
    dev = blockdev.FileBlockDev(path) if path else blockdev.RAMBlockDev()
    return blockdev.mount(dev, FLASH_MOUNT)
