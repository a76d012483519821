"""`python -m host_tools.deploy`: put the scoreboard on a Pico, made by
host_tools/device/deploy.py (this folder keeps the command's name)."""
import sys

from host_tools.device.deploy import main

sys.exit(main())
