"""`python -m host_tools.export`: every kept game as games.json, deals.csv and report.html, made by
host_tools/device/export.py (this folder keeps the command's name)."""
import sys

from host_tools.device.export import main

sys.exit(main())
