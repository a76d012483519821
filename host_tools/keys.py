"""`python3 -m host_tools.keys`: the key planner, host_tools/calculator/keys.py (kept at
this name for the command)."""
import sys

from host_tools.calculator.keys import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
