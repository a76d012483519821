"""The output of a deterministic MicroPython program, kept under build/test_cache/ and
read back while nothing it runs has changed.

A long tour of the firmware (the text-fit tours: every screen state in four languages)
gives the same lines for the same code and arguments, so a run of the suite after
another with the same firmware reads them instead of touring again. The key is a hash
of everything the program can read: firmware/, the device-side scripts (host_tools/*/device_side/), tests/mp/ (the scripts),
the MicroPython unix port's files, and the arguments; change any byte of them and the
program runs again. COINCHE_TEST_CACHE=0 turns the cache off (every run tours).
"""
import functools
import hashlib
import os
import tempfile

from conftest import DEVICE_SIDE, FIRMWARE, ROOT, micropython_path, run_mp

CACHE_DIR = os.path.join(ROOT, "build", "test_cache")
SCRIPTS = os.path.join(ROOT, "tests", "mp")


def tree_digest(digest, folder):
    for parent, folders, files in os.walk(folder):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        for name in sorted(files):
            path = os.path.join(parent, name)
            digest.update(os.path.relpath(path, folder).encode() + b"\0")
            with open(path, "rb") as handle:
                digest.update(handle.read())
            digest.update(b"\0")


def _interpreter_files():
    """The unix port's own files: its launcher, and the compiled module it runs when the
    launcher is a Python script (the PyPI package's interpreter, in-process)."""
    launcher = os.path.realpath(micropython_path())
    files = [launcher]
    with open(launcher, "rb") as handle:
        head = handle.read(200)
    if head.startswith(b"#!") and b"python" in head.split(b"\n", 1)[0]:
        try:
            import micropython_run  # pyright: ignore[reportMissingImports]
            files.append(os.path.realpath(micropython_run.__file__))
        except ImportError:
            pass
    return files


@functools.lru_cache(maxsize=None)
def code_digest():
    """The hash of everything a MicroPython test program reads (once per test process)."""
    digest = hashlib.sha256()
    for folder in (FIRMWARE, *DEVICE_SIDE, SCRIPTS):
        tree_digest(digest, folder)
    for path in _interpreter_files():
        with open(path, "rb") as handle:
            digest.update(handle.read())
    return digest.hexdigest()


def enabled():
    return os.environ.get("COINCHE_TEST_CACHE", "1") != "0"


def cache_path(script, args, heapsize):
    key = hashlib.sha256(repr((code_digest(), os.path.relpath(script, ROOT), tuple(args), heapsize)).encode())
    return os.path.join(CACHE_DIR, key.hexdigest()[:32] + ".txt")


@functools.lru_cache(maxsize=None)
def output_lines(script, args=(), heapsize=None):
    """The program's stdout lines: read from the cache when the same code ran with the same
    arguments before, else run (it must exit 0) and kept, written whole or not at all (two
    test workers may write the same entry at once)."""
    path = cache_path(script, args, heapsize)
    if enabled() and os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            return tuple(handle.read().splitlines())
    out = run_mp(script=script, args=tuple(args), heapsize=heapsize).stdout
    if enabled():
        os.makedirs(CACHE_DIR, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=CACHE_DIR, suffix=".part")
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(out)
        os.replace(temporary, path)
    return tuple(out.splitlines())
