"""The calculator and the key planner, on the scoring core the device runs: score (deal
records in, results out; runs on CPython and on MicroPython), strict_json (its JSON
reader, the same on both) and keys (deal records in, the button script that enters
them). `python -m host_tools.score` and `python -m host_tools.calculator.keys` run them."""
