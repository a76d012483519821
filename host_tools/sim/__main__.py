"""`python -m host_tools.sim`: the simulator's command line (host_tools/sim/cli.py)."""
import sys

from host_tools.sim.cli import main

sys.exit(main())
