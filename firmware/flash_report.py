"""What the UF2's boot found in the flash, for the app: filled by _boot.py from
store/partitions.py, which is then unloaded (its code would otherwise stay on
the heap for nothing).

LAYOUT: "partitions" (the three partitions of docs/storage.md), "whole" (a
stock MicroPython filesystem over the whole region) or "ram".
NOTES: "kept" (flash holding data was kept instead of being formatted),
"unsaved" (no copy of this session's games is on flash).
"""
LAYOUT = None
NOTES = []
