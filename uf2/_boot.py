"""The UF2's boot (frozen in; it replaces the rp2 port's _boot.py, which
formats the whole flash when littlefs does not mount).

Runs before boot.py and main.py at every reset and soft reset: mounts the
storage (uf2/flash_mount.py, never formatting a filesystem that holds data),
leaves what it found in flash_report for the app, and puts the frozen
modules first on the import path, so that the firmware left on the
filesystem by an earlier `make deploy` (/ui, /coinche, /board.py, ...)
cannot shadow the modules of this image.
"""
import sys

if ".frozen" in sys.path:
    sys.path.remove(".frozen")
sys.path.insert(0, ".frozen")

import flash_mount  # noqa: E402  (after the path is set)
import flash_report  # noqa: E402

try:
    flash_mount.mount_all()
except Exception as error:  # the device must start whatever the flash holds
    sys.print_exception(error)
    flash_mount.NOTES.append("unsaved")
    flash_mount.LAYOUT = "ram"
    try:
        flash_mount._ram_filesystem("/")
        for point, _first in flash_mount.DATA_PARTITIONS:
            flash_mount._makedirs(point)
    except Exception as second:
        sys.print_exception(second)
flash_report.LAYOUT = flash_mount.LAYOUT
flash_report.NOTES = flash_mount.NOTES
# _boot.py runs in the REPL's namespace: leave nothing behind there either
del sys.modules["flash_mount"], flash_mount, flash_report
