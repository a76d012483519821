"""`python -m host_tools.screens_gallery`: the screens' reference pictures, made by
host_tools/sim/gallery.py (this folder keeps the command's name)."""
import sys

from host_tools.sim.gallery import main

sys.exit(main())
