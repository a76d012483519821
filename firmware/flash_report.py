"""What the boot's mount found, for the app: filled from store/partitions.py
(partitions.fill_report) by the UF2's boot (uf2/_boot.py) and by the
simulator's launcher (host_tools/sim/device_side/flash_image.py), which then unload the
mount code (it would otherwise stay on the heap for the whole game).
`make deploy` does not send it: the stock firmware mounts by its own boot.

LAYOUT: "partitions" (the three partitions of docs/storage.md), "whole" (a
stock MicroPython filesystem over the whole region) or "ram"; None: nothing
was mounted by store/partitions.py.
ROOTS: the journal's two directories (None for a copy that has none), or None:
the board's STORAGE.
NOTICES: what the mount had to say (short English texts, for the journal).
NOTES: "kept" (flash holding data was kept instead of being formatted),
"unsaved" (no copy of this session's games is on flash).
"""
LAYOUT = None
ROOTS = None
NOTICES = []
NOTES = []
