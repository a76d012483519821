"""`python -m host_tools.export`: every kept game as games.json, deals.csv and report.html, made by
host_tools/device/export.py (kept at this name for the command)."""
import sys

from host_tools.device.export import main

if __name__ == "__main__":
    sys.exit(main())
