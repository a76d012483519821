"""`python -m host_tools.screens_gallery`: the screens' reference pictures, made by
host_tools/sim/gallery.py (kept at this name for the command)."""
import sys

from host_tools.sim.gallery import main

if __name__ == "__main__":
    sys.exit(main())
