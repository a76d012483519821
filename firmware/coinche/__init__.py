"""Coinche scoring core: pure Python shared by the device and the host tools.

Nothing here touches hardware or imports anything outside this package, so the
same files run on CPython 3.10+ and on MicroPython (unix port and the Pico).
"""
