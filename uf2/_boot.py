"""The UF2's boot (frozen in; it replaces the rp2 port's _boot.py, which
formats the whole flash when littlefs does not mount).

Runs before boot.py and main.py at every reset and soft reset: mounts the
storage by the one mount policy of the firmware (store/partitions.py, never
formatting a filesystem that holds data), leaves what it found in
flash_report for the app (partitions.fill_report), unloads the mount code
(it would otherwise stay on the heap for the whole game), and puts the frozen modules first on the
import path, so that the firmware left on the filesystem by an earlier
`make deploy` (/screens, /coinche, /board.py, ...) cannot shadow the modules of
this image.
"""
import sys

if ".frozen" in sys.path:
    sys.path.remove(".frozen")
sys.path.insert(0, ".frozen")

import flash_report  # noqa: E402  (after the path is set)
from store import partitions  # noqa: E402

try:
    partitions.mount_device()
    partitions.fill_report(flash_report)
except Exception as error:  # the device must start whatever the flash holds
    sys.print_exception(error)
    flash_report.LAYOUT = "ram"
    flash_report.NOTES.append("unsaved")
    try:
        import vfs

        partitions.mount_ram(vfs, "/")
    except Exception as second:
        sys.print_exception(second)
# _boot.py runs in the REPL's namespace: leave nothing behind there either, and
# unload the mount code (the app takes the journal's roots from flash_report, or
# from board.STORAGE when the mount raised)
for _module in ("store.partitions", "store"):
    sys.modules.pop(_module, None)
del partitions, flash_report
