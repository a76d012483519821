"""`python -m host_tools.deploy`: put the scoreboard on a Pico, made by
host_tools/device/deploy.py (kept at this name for the command)."""
import sys

from host_tools.device.deploy import main

if __name__ == "__main__":
    sys.exit(main())
