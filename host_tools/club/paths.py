"""Puts the firmware's scoring core (firmware/coinche) on sys.path: the organiser's
app scores, checks and decodes with the very code the device runs."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)
