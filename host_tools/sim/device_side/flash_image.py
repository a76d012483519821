"""The simulator's flash image, mounted the way the device mounts its flash.

The one place that knows the image's layout: the simulator's launcher
(sim_main.py) and the exporter (export_dump.py) both mount through it, so
the exporter reads exactly what the simulated scoreboard wrote. The layout
and the mount policy are the device's own (firmware/store/partitions.py,
decision D1): 352 blocks of 4096 B, the user filesystem (blocks 0-159) at
/flash, data partitions A (160-255) and B (256-351) at /data_a and /data_b.
Nothing is ever formatted but a blank partition: one that holds something
littlefs cannot mount is copied to /flash/aside/ first (or left untouched).
What the mount found goes into the report module (firmware/flash_report.py),
which the app reads, and the mount code is unloaded, as the UF2's boot does:
the simulated game plays in the heap the device's game plays in.
"""
import sys

import blockdev

FLASH_MOUNT = "/flash"  # the user filesystem ("/" on the device)
DATA_MOUNTS = ("/data_a", "/data_b")
STORAGE = DATA_MOUNTS[0]  # one complete copy of the journal (readers that take one root)
ROOTS = list(DATA_MOUNTS)  # the journal's roots after mount_flash()
NOTICES = []  # what the mount policy had to say after mount_flash()


def mount_flash(path=None):
    """Mount the image at path (None: a blank flash in RAM) by the device's policy.

    Returns "formatted" (both data partitions were blank), "mounted", or
    "recovered" (a partition could not be mounted: see NOTICES); ROOTS then
    holds the journal's roots.
    The firmware folder must be on sys.path (for store.partitions and flash_report)."""
    import vfs

    import flash_report
    from store import partitions

    device = blockdev.FileBlockDev(path) if path else blockdev.RAMBlockDev()
    roots, notices = partitions.mount_storage(
        lambda first_block, block_count: blockdev.Window(device, first_block, block_count), vfs,
        user_mount=FLASH_MOUNT, data_mounts=DATA_MOUNTS)
    ROOTS[:] = [root for root in roots if root]
    NOTICES[:] = notices
    partitions.fill_report(flash_report)
    both_formatted = "data_a" in partitions.formatted and "data_b" in partitions.formatted
    # the policy runs once per boot: unloaded, as the UF2's boot unloads it (uf2/_boot.py)
    sys.modules.pop("store.partitions", None)
    store_package = sys.modules.get("store")
    if store_package is not None and "partitions" in store_package.__dict__:
        delattr(store_package, "partitions")
    if both_formatted:
        return "formatted"  # no journal was there (NOTICES may still name a damaged user filesystem)
    return "recovered" if notices else "mounted"
