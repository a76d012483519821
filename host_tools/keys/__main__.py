"""`python3 -m host_tools.keys`: the key planner, host_tools/calculator/keys.py (this
folder keeps the command's name)."""
import sys

from host_tools.calculator.keys import main

sys.exit(main(sys.argv[1:]))
