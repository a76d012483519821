"""`python3 -m host_tools.score` and `micropython host_tools/score.py`: the calculator,
host_tools/calculator/score.py (kept at this name for both commands)."""
import sys

try:
    from host_tools.calculator.score import guarded_main
except ImportError:  # MicroPython runs this file as a script, outside the package
    try:
        _here = __file__
    except NameError:  # pragma: no cover
        _here = "host_tools/score.py"
    sys.path.insert(0, (_here[:_here.rfind("/")] if "/" in _here else ".") + "/calculator")
    from score import guarded_main

if __name__ == "__main__":
    sys.exit(guarded_main(sys.argv[1:]))
