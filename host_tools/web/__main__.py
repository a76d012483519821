"""python -m host_tools.web: build build/web/ (docs/web.md)."""
import argparse
import os
import sys

from host_tools.web.build import OUT, ROOT, WebError, build, folder_bytes


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m host_tools.web",
                                description="Build build/web/: the scoreboard in a web page (docs/web.md)")
    p.add_argument("--source", default=None,
                   help="the rp2 source tarball or tree for the UF2s (default: $MICROPYTHON_SRC, "
                        "else ../shared/rp2/micropython-v1.28.0-rp2-src.tar.xz)")
    p.add_argument("--out", default=OUT, help="the folder to build (default build/web)")
    args = p.parse_args(argv)
    try:
        out = build(args.source, os.path.abspath(args.out))
    except WebError as e:
        print("web: %s" % e, file=sys.stderr)
        return 2
    total = sum(folder_bytes(out).values())
    print("web: %s (%d files, %d bytes); serve it with: python3 -m http.server -d %s"
          % (os.path.relpath(out, ROOT), len(folder_bytes(out)), total, os.path.relpath(out, ROOT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
