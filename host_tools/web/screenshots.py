"""Screenshots of the page in French, on a desktop window and on a phone-sized touch
screen, for docs/screenshots/web/ (small PNGs: 64 colours).

    python -m host_tools.web.screenshots [--web build/web] [--out docs/screenshots/web]

The page is served from 127.0.0.1 and driven by headless Chromium with French as the
browser's language; each board is a new device (its home screen in French, the
device's first language).
"""
import argparse
import io
import os
import sys

from host_tools.web.build import OUT, ROOT, WEB_BOARDS, WebError, build
from host_tools.web.page_driver import Page
from host_tools.web.serve import chromium, chromium_missing, serving

WINDOWS = {"desktop": dict(width=1100, height=820), "phone": dict(width=360, height=740, mobile=True)}


def small_png(png_bytes, path):
    """The screenshot with 64 colours (the page has few), optimised."""
    from PIL import Image

    image = Image.open(io.BytesIO(png_bytes)).convert("RGB")
    image.quantize(colors=64, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def take(folder, out):
    os.makedirs(out, exist_ok=True)
    written = []
    with serving(folder) as server:
        for window, size in WINDOWS.items():
            with chromium(language="fr", **size) as browser:
                page = Page(browser, server.url)
                for board in WEB_BOARDS:
                    page.open(board, fresh=True)
                    page.idle()
                    path = os.path.join(out, "%s_%s.png" % (window, board))
                    small_png(browser.get_screenshot_as_png(), path)
                    written.append(path)
    return written


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m host_tools.web.screenshots", description=__doc__.split("\n\n")[0])
    p.add_argument("--web", default=OUT, help="the built folder (default build/web; built first)")
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "screenshots", "web"))
    args = p.parse_args(argv)
    why = chromium_missing()
    if why:
        print("web.screenshots: %s" % why, file=sys.stderr)
        return 2
    try:
        build(out=os.path.abspath(args.web), log=lambda line: None)
    except WebError as e:
        print("web.screenshots: %s" % e, file=sys.stderr)
        return 2
    for path in take(os.path.abspath(args.web), args.out):
        print("web.screenshots: %s (%d bytes)" % (os.path.relpath(path, ROOT), os.path.getsize(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
