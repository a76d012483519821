"""The tree the device would hold, compiled for the unix port under build/bench/, and how
the simulator runs it."""
import contextlib
import os
import re
import shutil
import subprocess

from host_tools.bench.budgets import SH1106_BOARD
from host_tools.bench.programs import BenchError, mpy_cross
from host_tools.common.paths import BENCH_DEVICE, BOARDS, BUILD, FIRMWARE, RIGS_DEVICE, ROOT, SIM_DEVICE
from host_tools.device.deploy import module_imports
from host_tools.sim.client import SIM_MAIN


def py_files(top):
    out = []
    for d, dirs, files in os.walk(top):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__" and not x.startswith("."))
        for f in sorted(files):
            out.append(os.path.relpath(os.path.join(d, f), top).replace(os.sep, "/"))
    return out


def compile_module(src_top, rel, out, arch):
    os.makedirs(os.path.dirname(out), exist_ok=True)
    # run from the source folder so tracebacks name files as on the device
    p = subprocess.run([mpy_cross(), "-march=" + arch, "-O3", "-o", out, "-s", rel, rel], cwd=src_top,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise BenchError("mpy-cross failed on %s:\n%s" % (rel, p.stderr or p.stdout))


def build_tree(dest=None, arch="x64"):
    """firmware/ and the device-side scripts compiled to .mpy for the unix port, under dest.

    dest/firmware: every module as .mpy, main.py and data files (render/lang) as they are;
    dest/boards: the board files as source, plus SH1106_BOARD;
    dest/host_tools/{sim,bench,rigs}/device_side: the launcher, the bench scripts and
    the rigs as .mpy, at their paths in the repository, and two source mains, boot.py
    (beside sim_main) and bench_main.py (beside bench_ui), that only import them (the
    unix port cannot run a .mpy as its main script, and a main script's own bytecode
    would stay on the heap)."""
    dest = dest or os.path.join(BUILD, "bench")
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    sources = [(FIRMWARE, "firmware", {"main.py"})]
    sources += [(folder, os.path.relpath(folder, ROOT), set()) for folder in (SIM_DEVICE, BENCH_DEVICE, RIGS_DEVICE)]
    for src, sub, keep_source in sources:
        for rel in py_files(src):
            out = os.path.join(dest, sub, rel)
            if rel.endswith(".py") and rel not in keep_source:
                compile_module(src, rel, out[:-3] + ".mpy", arch)
            elif not rel.endswith((".pyc", ".pyi")):
                os.makedirs(os.path.dirname(out), exist_ok=True)
                shutil.copyfile(os.path.join(src, rel), out)
    shutil.copytree(BOARDS, os.path.join(dest, "boards"), ignore=shutil.ignore_patterns("__pycache__"))
    with open(os.path.join(BOARDS, "pico_oled.py")) as f:
        text = f.read()
    variant, n = re.subn(r'(?m)^CONTROLLER = "ssd1306"', 'CONTROLLER = "sh1106"', text)
    if n == 1:
        with open(os.path.join(dest, "boards", SH1106_BOARD + ".py"), "w") as f:
            f.write(variant)
    for folder, name, module in ((SIM_DEVICE, "boot.py", "sim_main"), (BENCH_DEVICE, "bench_main.py", "bench_ui")):
        with open(os.path.join(dest, os.path.relpath(folder, ROOT), name), "w") as f:
            f.write('"""make bench: run the compiled %s with this argv."""\nimport %s  # noqa: F401\n' % (module, module))
    return dest


def ui_script(tree):
    """The main script that runs host_tools/bench/device_side/bench_ui.py (compiled) in tree."""
    return os.path.join(tree, os.path.relpath(BENCH_DEVICE, ROOT), "bench_main.py")


def launcher(tree):
    """The simulator's device-side main script: tree's compiled one, or
    host_tools/sim/device_side/sim_main.py as source for tree None."""
    return SIM_MAIN if tree is None else os.path.join(tree, os.path.relpath(SIM_DEVICE, ROOT), "boot.py")


@contextlib.contextmanager
def environment(env):
    """os.environ with `env` added (the device process inherits it), restored after."""
    saved = {k: os.environ.get(k) for k in (env or {})}
    os.environ.update(env or {})
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def module_order(files):
    """Module names of firmware files (relative paths): packages first, then each
    module after what it imports at module level."""
    by_module = {}
    for f in files:
        if f.endswith(".py") and f != "main.py":
            name = f[:-3].replace("/", ".")
            by_module[name[:-9] if name.endswith(".__init__") else name] = f
    packages = sorted(m for m, f in by_module.items() if f.endswith("__init__.py"))
    order, seen = list(packages), set(packages)

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        top, _ = module_imports(FIRMWARE, by_module[name])
        for dep in sorted(top):
            if dep in by_module:
                visit(dep)
        order.append(name)

    for name in sorted(by_module):
        visit(name)
    return order
