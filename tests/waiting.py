"""Waiting for something a real server or a simulated table does in its own time."""
import time


def until(check, timeout, what):
    """Return once check() is true; AssertionError naming `what` after `timeout` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError("timed out after %ss waiting for %s" % (timeout, what))
