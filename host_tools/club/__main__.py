import sys

from host_tools.club.cli import main

sys.exit(main(sys.argv[1:]))
