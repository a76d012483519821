"""The scoreboard in a web page: build/web/, a static folder that runs the real
firmware (the one-file UF2 of `make uf2`) on an emulated RP2040 in a Web Worker.

    python -m host_tools.web [--source MICROPYTHON_SRC] [--out build/web]

The chip, its flash and the display controllers are host_tools/rp2emu's JavaScript
modules (the same the node emulator runs), bundled with rp2040js by esbuild (both
pinned in host_tools/web/package-lock.json); docs/web.md says how to serve and
publish the folder.  The build module is host_tools/web/build.py; the page's
figures are host_tools/web/measure.py.
"""
