"""`python -m host_tools.bench`: make bench's document (host_tools/bench/report.py)."""
import sys

from host_tools.bench.report import main

sys.exit(main())
