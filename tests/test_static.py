"""Static checks: ruff on everything, pyright on what runs on the Pico, mpy-cross.

Each check runs once; the results are reported per folder, so a failure
names the part of the tree (and so the engineer) it belongs to.  The
commands are the ones of `make lint` and `make typecheck`.
"""
import json
import os
import subprocess
import sys
import sysconfig

import pytest

from conftest import ROOT, mpy_cross_path

VENV_BIN = os.path.dirname(sys.executable)
PYRIGHT_CONFIG = os.path.join(ROOT, "pyright-micropython.json")
SKIP_DIRS = {".git", ".venv", "build", "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis", "tmp"}


def _python_files(top):
    out = []
    for base, dirs, names in os.walk(os.path.join(ROOT, top)):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        out += [os.path.relpath(os.path.join(base, n), ROOT) for n in sorted(names) if n.endswith(".py")]
    return out


def _group(rel):
    """firmware/screens/x.py -> firmware/screens; host_tools/sim/x.py -> host_tools/sim; boards/x.py -> boards;
    tests/test_x.py -> itself (the tests folder is everyone's)."""
    parts = rel.split(os.sep)
    if parts[0] in ("firmware", "host_tools") and len(parts) > 2:
        return "/".join(parts[:2])
    if parts[0] == "tests":
        return "/".join(parts[:2])
    return parts[0] if len(parts) > 1 else "."


ALL_FILES = [f for top in ("boards", "firmware", "host_tools", "tests") for f in _python_files(top)]
LINT_GROUPS = sorted({_group(f) for f in ALL_FILES})
DEVICE_FILES = _python_files("firmware") + _python_files("boards")
TYPE_GROUPS = sorted({_group(f) for f in DEVICE_FILES})


def _env():
    env = dict(os.environ)
    env["PYRIGHT_PYTHON_IGNORE_WARNINGS"] = "1"  # no "new version" look-up on PyPI
    return env


def _offline_prefix():
    """Run a command without network when the machine lets us (root: unshare -n)."""
    try:
        if subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode == 0:
            return ["unshare", "-n"]
    except OSError:
        pass
    return []


@pytest.fixture(scope="module")
def ruff_report():
    proc = subprocess.run([os.path.join(VENV_BIN, "ruff"), "check", "--output-format", "json", "."],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout or "[]")


@pytest.fixture(scope="module")
def pyright_report():
    typeshed = sysconfig.get_paths()["purelib"]
    env = _env()
    # Offline: anything pyright tried to fetch (the npm package, node) fails here.
    env.update(HTTPS_PROXY="http://127.0.0.1:9", HTTP_PROXY="http://127.0.0.1:9", npm_config_offline="true")
    cmd = _offline_prefix() + [os.path.join(VENV_BIN, "pyright"), "-p", PYRIGHT_CONFIG,
                               "--typeshedpath", typeshed, "--outputjson"]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode in (0, 1), "pyright did not run:\n%s\n%s" % (proc.stdout[-2000:], proc.stderr[-2000:])
    return json.loads(proc.stdout)


@pytest.mark.parametrize("group", LINT_GROUPS)
def test_ruff(ruff_report, group):
    mine = [d for d in ruff_report if _group(os.path.relpath(d["filename"], ROOT)) == group]
    assert not mine, "\n".join("%s:%d: %s %s" % (os.path.relpath(d["filename"], ROOT), d["location"]["row"],
                                                   d["code"], d["message"]) for d in mine)


@pytest.mark.parametrize("group", TYPE_GROUPS)
def test_pyright(pyright_report, group):
    diags = [d for d in pyright_report["generalDiagnostics"]
             if _group(os.path.relpath(d["file"], ROOT)) == group]
    errors = [d for d in diags if d["severity"] == "error"]
    warnings = [d for d in diags if d["severity"] == "warning"]
    for d in warnings:  # shown with -rA or on failure; they do not fail the build
        print("warning %s:%d: %s" % (os.path.relpath(d["file"], ROOT), d["range"]["start"]["line"] + 1,
                                     d["message"].split("\n")[0]))
    assert not errors, "\n".join("%s:%d: %s" % (os.path.relpath(d["file"], ROOT), d["range"]["start"]["line"] + 1,
                                                 d["message"]) for d in errors)


def test_pyright_checks_against_micropython(tmp_path):
    """The canary: CPython-only APIs are errors, MicroPython's own are fine."""
    src = tmp_path / "canary.py"
    src.write_text("import time\nimport framebuf\nfrom machine import Pin\n\n"
                   "time.sleep_ms(1)\nPin(2).value()\n"
                   "framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)\n"
                   "t = time.perf_counter()\n")
    typeshed = sysconfig.get_paths()["purelib"]
    proc = subprocess.run([os.path.join(VENV_BIN, "pyright"), "-p", PYRIGHT_CONFIG, "--typeshedpath", typeshed,
                           "--outputjson", str(src)], cwd=ROOT, capture_output=True, text=True, env=_env())
    diags = json.loads(proc.stdout)["generalDiagnostics"]
    assert [(d["range"]["start"]["line"] + 1, d["severity"]) for d in diags] == [(8, "error")]
    assert "perf_counter" in diags[0]["message"]


@pytest.mark.parametrize("rel", DEVICE_FILES)
def test_compiles_for_the_pico(rel, tmp_path):
    proc = subprocess.run([mpy_cross_path(), "-march=armv6m", "-o", str(tmp_path / "out.mpy"), rel],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
