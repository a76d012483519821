"""Build the one-file install: MicroPython v1.28.0 for the Pico with the
scoreboard frozen in, as build/coinche-<board>.uf2.

    python -m host_tools.device.uf2 --board pico_oled --source MICROPYTHON_SRC
    python -m host_tools.device.uf2 --board pico_oled --check   # only say what is missing

The board file's PORT_BOARD names MicroPython's port board (RPI_PICO by
default; RPI_PICO_W, RPI_PICO2, RPI_PICO2_W).  A port board with WiFi needs the
wireless libraries tarball (micropython-v1.28.0-rp2-wireless-libs.tar.xz), found
beside the source tarball or given with --wireless / MICROPYTHON_WIRELESS; it is
unpacked once over the unpacked source.

MICROPYTHON_SRC is the rp2 source tarball (micropython-v1.28.0-rp2-src.tar.xz:
MicroPython with pico-sdk, TinyUSB, micropython-lib, mbedtls, and picotool's
source beside it) or that tarball unpacked.  Everything happens under
build/uf2/ (gitignored):

  src/                  the source, unpacked (or copied) once per source
  picotool-install/     picotool built from the bundled source, so that
                        pico-sdk never tries to download one
  port/                 the rp2 port's build directory for RPI_PICO, shared by its
                        boards: a second board only re-freezes and re-links
  port-<PORT_BOARD>/    the same for each other port board (a full port build once)
  stage/<board>/        what is frozen: board.py (boards/<board>.py),
                        render/language_tables.py (generated from render/lang/*.txt)
  manifest.py           the frozen manifest (rewritten for each board)

Frozen: the port's own modules except its _boot.py (rp2.py, asyncio and the
small drivers of the stock image), our boot (uf2/_boot.py and
firmware/store/partitions.py: the flash layout of docs/storage.md, never formatting
storage that holds data), the firmware
files the board needs (the same selection as `make deploy`), main.py, the
board file as module `board`, and the language tables as code.

Nothing is ever downloaded: a missing source or tool is one message saying
what to install.
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import time

from host_tools.common.boards import board_bases, board_constants, board_names, board_problem
from host_tools.common.locks import folder_lock
from host_tools.common.paths import BOARDS as BOARD_FILES
from host_tools.device.deploy import (FIRMWARE, ROOT, UF2_BOOT_FIRMWARE, UF2_LANGUAGE_FIRMWARE, DeployError, board_settings,
                                      firmware_files)

BUILD = os.path.join(ROOT, "build", "uf2")
BOOT_DIR = os.path.join(ROOT, "uf2")
BOOT_FILES = ("_boot.py",)  # our boot (it mounts by store/partitions.py, deploy.UF2_BOOT_FIRMWARE)
BOARDS = ("pico_oled", "pico_display_pack")  # the Pico's boards with a UF2 (port board RPI_PICO)
WIFI_BOARDS = ("pico_w_oled", "pico_w_display_pack")  # the Pico W's (RPI_PICO_W: a port build of its own)
# where each port board's storage region starts (MICROPY_HW_FLASH_STORAGE_BYTES from the
# end of its flash): the firmware must end below it
STORAGE_START = {"RPI_PICO": 0x100A0000, "RPI_PICO_W": 0x1012C000, "RPI_PICO2": 0x10100000, "RPI_PICO2_W": 0x10180000}
PORT_BOARD = "RPI_PICO"  # the default: RP2040 with 2 MB flash (a board file's PORT_BOARD says otherwise)
# MicroPython's port boards with a CYW43 WiFi chip: they need the wireless libraries
# (cyw43-driver, lwIP, BTstack) unpacked over the source
WIRELESS_PORT_BOARDS = ("RPI_PICO_W", "RPI_PICO2_W")
PORT_BOARDS = ("RPI_PICO", "RPI_PICO_W", "RPI_PICO2", "RPI_PICO2_W")
WIRELESS_NAME = "micropython-v1.28.0-rp2-wireless-libs.tar.xz"

DEBIAN_PACKAGES = "gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake"
SOURCE_HINT = (
    "give MICROPYTHON_SRC=path/to/micropython-v1.28.0-rp2-src.tar.xz "
    "(or that tarball unpacked; ../shared/rp2/ has it)"
)


def uf2_firmware_files(drivers, layout):
    """What `make deploy` sends, the mount policy the UF2's boot uses, and the look-up
    of the language tables the UF2 has as code."""
    files = firmware_files(drivers, layout)
    return files + [rel for rel in UF2_BOOT_FIRMWARE + UF2_LANGUAGE_FIRMWARE if rel not in files]


class BuildError(Exception):
    pass


def port_board(board):
    """MicroPython's port board for `board`: its board file's PORT_BOARD (read
    from the syntax tree, as deploy reads DRIVERS), RPI_PICO when it names none."""
    board_settings(board)  # a board file for real hardware
    name = board_constants(board).get("PORT_BOARD", PORT_BOARD)
    if name not in PORT_BOARDS:
        raise BuildError("%s: PORT_BOARD %r is not one of %s" % (board, name, ", ".join(PORT_BOARDS)))
    return name


def wireless_source(source, given=""):
    """The wireless libraries tarball: `given`, else the one beside the source tarball."""
    if given:
        return given
    if source and not os.path.isdir(source):
        return os.path.join(os.path.dirname(os.path.abspath(source)), WIRELESS_NAME)
    if source:
        return os.path.join(os.path.dirname(os.path.abspath(source.rstrip("/"))), WIRELESS_NAME)
    return ""


def wireless_problem(wireless):
    if not wireless or not os.path.isfile(wireless):
        return ("the wireless libraries %s are missing: give MICROPYTHON_WIRELESS=path/to/%s "
                "(../shared/rp2/ has it)" % (wireless or WIRELESS_NAME, WIRELESS_NAME))
    return None


# -- what is missing -----------------------------------------------------------

def missing_tools():
    """Names of the build tools that are not installed (empty: all there)."""
    missing = []
    for tool in ("make", "cmake", "gcc", "g++", "arm-none-eabi-gcc", "arm-none-eabi-g++"):
        if shutil.which(tool) is None:
            missing.append(tool)
    if "arm-none-eabi-gcc" not in missing:
        # the C library and the C++ library for the Arm target (newlib) are
        # separate packages: the compiler alone does not link a firmware
        for compiler, library in (("arm-none-eabi-gcc", "libc_nano.a"), ("arm-none-eabi-g++", "libstdc++_nano.a")):
            if shutil.which(compiler) is None:
                continue
            found = subprocess.run(
                [compiler, "-mcpu=cortex-m0plus", "-print-file-name=" + library],
                capture_output=True, text=True,
            ).stdout.strip()
            if not os.path.isabs(found):
                missing.append(library)
    return missing


def tools_message(missing):
    return (
        "the Arm toolchain is missing (%s): install the Debian packages "
        "`%s` (apt-get update && apt-get install -y %s), plus make, gcc and g++"
        % (", ".join(missing), DEBIAN_PACKAGES, DEBIAN_PACKAGES)
    )


def source_problem(source):
    """Why `source` cannot be built from, or None when it can."""
    if not source:
        return "MICROPYTHON_SRC is not set: " + SOURCE_HINT
    if not os.path.exists(source):
        return "MICROPYTHON_SRC=%s does not exist: %s" % (source, SOURCE_HINT)
    if os.path.isdir(source):
        if not os.path.isfile(os.path.join(source, "micropython", "ports", "rp2", "Makefile")):
            return "MICROPYTHON_SRC=%s holds no micropython/ports/rp2: %s" % (source, SOURCE_HINT)
        if not os.path.isfile(os.path.join(source, "picotool-src", "CMakeLists.txt")):
            return "MICROPYTHON_SRC=%s holds no picotool-src/: %s" % (source, SOURCE_HINT)
    elif not source.endswith((".tar.xz", ".tar.gz", ".tar")):
        return "MICROPYTHON_SRC=%s is neither a directory nor a tarball: %s" % (source, SOURCE_HINT)
    return None


def problem(source, wireless=None):
    """One message saying what to install or give, or None when a build can start
    (`wireless`: the wireless tarball a WiFi port board needs, None when not needed)."""
    why = source_problem(source)
    if why:
        return why
    if wireless is not None:
        why = wireless_problem(wireless)
        if why:
            return why
    missing = missing_tools()
    if missing:
        return tools_message(missing)
    return None


# -- steps ---------------------------------------------------------------------

def _environment(build):
    """The build's environment: git must not find this project's repository
    around the unpacked source, or the firmware's version would be our commit
    instead of v1.28.0 (from MicroPython's mpconfig.h)."""
    env = dict(os.environ)
    env["GIT_CEILING_DIRECTORIES"] = os.path.join(os.path.abspath(build), "src")
    return env


def _run(argv, log, env=None, cwd=None):
    with open(log, "a") as out:
        out.write("$ %s\n" % " ".join(argv))
        out.flush()
        proc = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=cwd)
    if proc.returncode != 0:
        with open(log) as f:
            tail = f.read()[-3000:]
        raise BuildError("%s failed (full log: %s):\n%s" % (argv[0], os.path.relpath(log, ROOT), tail))


def _identity(source):
    """What the unpacked tree was made from: path, size and time of the source."""
    st = os.stat(source)
    return "%s %d %d" % (os.path.abspath(source), st.st_size, int(st.st_mtime))


def unpack(source, build, log):
    """build/src/{micropython,picotool-src}, made once per source."""
    src = os.path.join(build, "src")
    stamp = os.path.join(src, ".source")
    want = _identity(source)
    if os.path.exists(stamp):
        with open(stamp) as f:
            if f.read() == want:
                return src
    # another source: start over, together with everything built from it
    for d in ("src", "picotool-build", "picotool-install") + tuple(
            os.path.basename(port_build_directory(build, port)) for port in PORT_BOARDS):
        shutil.rmtree(os.path.join(build, d), ignore_errors=True)
    os.makedirs(src)
    if os.path.isdir(source):
        for part in ("micropython", "picotool-src"):
            _run(["cp", "-a", os.path.join(source, part), src], log)
    else:
        _run(["tar", "-xf", os.path.abspath(source), "-C", src], log)
    with open(stamp, "w") as f:
        f.write(want)
    return src


def unpack_wireless(wireless, src, log):
    """The wireless libraries unpacked over build/src, once per tarball."""
    stamp = os.path.join(src, ".wireless")
    want = _identity(wireless)
    if os.path.exists(stamp):
        with open(stamp) as f:
            if f.read() == want:
                return
    _run(["tar", "-xf", os.path.abspath(wireless), "-C", src], log)
    with open(stamp, "w") as f:
        f.write(want)


def build_picotool(src, build, log):
    """picotool from the bundled source (pico-sdk would download one otherwise)."""
    install = os.path.join(build, "picotool-install")
    if os.path.exists(os.path.join(install, "picotool", "picotoolConfig.cmake")):
        return os.path.join(install, "picotool")
    tree = os.path.join(build, "picotool-build")
    _run([
        "cmake", "-S", os.path.join(src, "picotool-src"), "-B", tree,
        "-DPICO_SDK_PATH=" + os.path.join(src, "micropython", "lib", "pico-sdk"),
        "-DPICOTOOL_NO_LIBUSB=1", "-DPICOTOOL_FLAT_INSTALL=1", "-DCMAKE_INSTALL_PREFIX=" + install,
    ], log)
    _run(["make", "-j%d" % _jobs(), "-C", tree, "install"], log)
    return os.path.join(install, "picotool")


def _jobs():
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def _write_if_changed(path, text):
    """Keep the file (and its time) when the text is the same: the port's
    build only recompiles what changed."""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def language_tables_source(firmware=FIRMWARE):
    """render/language_tables.py: each language file as a function returning its
    table, read by render/languages.py's own parser (so the frozen text is exactly what
    the files say), and CODE_prepared(): the same strings in render/text.py's
    drawing form (made by its own _split).  Each is a ConstantTable of two sorted
    tuples: frozen, the tuples, strings and prepared forms are constants in
    flash, so looking a text up builds nothing in RAM (two dicts of the language
    in use took 3 KB of the Pico's heap)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_i18n_for_freezing", os.path.join(firmware, "render", "languages.py"))
    i18n = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(i18n)
    lines = [
        '"""The language tables of render/lang/*.txt as code, for the frozen image',
        "(generated by host_tools/device/uf2.py: edit the .txt files, not this)."
        '"""',
        "from render.constant_table import ConstantTable",
    ]
    text_spec = importlib.util.spec_from_file_location("_text_for_freezing", os.path.join(firmware, "render", "text.py"))
    text = importlib.util.module_from_spec(text_spec)
    text_spec.loader.exec_module(text)

    def table_source(name, table):
        # sorted as MicroPython compares str (UTF-8 bytes: the order of the code points)
        keys = sorted(table)
        lines.append("")
        lines.append("")
        lines.append("def %s():" % name)
        lines.append("    return ConstantTable((")
        lines.extend("        %r," % key for key in keys)
        lines.append("    ), (")
        lines.extend("        %r," % (table[key],) for key in keys)
        lines.append("    ))")

    for code in i18n.LANGS:
        table = i18n.read_file(code)
        table_source(code, table)
        # render/text.py's drawing form of every string, as constants (flash, not RAM)
        table_source(code + "_prepared", {value: text._split(value) for value in table.values()})
    return "\n".join(lines) + "\n"


def firmware_build_source(board, label=""):
    """firmware_build.py: what the image was built from, readable on the device."""
    return "\n".join([
        '"""What this firmware image was built from (generated by host_tools/device/uf2.py)."""',
        "BOARD = %r" % board,
        "FIRMWARE_DIGEST = %r  # sha256 of the frozen sources" % firmware_digest(board),
        "LABEL = %r" % label,
        "",
    ])


def stage(board, build, label="", manifest_name="manifest.py"):
    """The files frozen for `board`, and the manifest naming them (`manifest_name`: one per
    port board, so two port boards can build at the same time)."""
    drivers, layout, _storage, board_path = board_settings(board)
    files = uf2_firmware_files(drivers, layout)
    staged = os.path.join(build, "stage", board)
    with open(board_path, encoding="utf-8") as f:
        _write_if_changed(os.path.join(staged, "board.py"), f.read())
    bases = board_bases(board)  # the board it builds on, frozen under its own name
    for base in bases:
        with open(os.path.join(BOARD_FILES, base + ".py"), encoding="utf-8") as f:
            _write_if_changed(os.path.join(staged, base + ".py"), f.read())
    _write_if_changed(os.path.join(staged, "render", "language_tables.py"), language_tables_source())
    _write_if_changed(os.path.join(staged, "firmware_build.py"), firmware_build_source(board, label))
    lines = [
        "# Generated by host_tools/device/uf2.py for board %s: do not edit." % board,
        "# The port's own modules, without its _boot.py (it formats the whole flash",
        "# when littlefs does not mount): ours is uf2/_boot.py.",
        'freeze("$(PORT_DIR)/modules", "rp2.py")',
        'include("$(MPY_DIR)/extmod/asyncio")',
        'require("onewire")',
        'require("ds18x20")',
        'require("dht")',
        'require("neopixel")',
    ]
    lines += ["module(%r, base_path=%r)" % (name, BOOT_DIR) for name in BOOT_FILES]
    lines += [
        "module(%r, base_path=%r)" % ("board.py", staged),
    ]
    lines += ["module(%r, base_path=%r)" % (base + ".py", staged) for base in bases]
    lines += [
        "module(%r, base_path=%r)" % ("render/language_tables.py", staged),
        "module(%r, base_path=%r)" % ("firmware_build.py", staged),
    ]
    for rel in files:
        lines.append("module(%r, base_path=%r)" % (rel, FIRMWARE))
    _write_if_changed(os.path.join(build, manifest_name), "\n".join(lines) + "\n")
    return os.path.join(build, manifest_name)


def forget_other_boards_frozen_code(port_build, board):
    """The port's build directory is shared by the boards (the C code is the
    same), but MicroPython's freezing decides what to recompile by file times:
    a board.mpy compiled for another board is newer than this board's
    board.py and would be kept.  So when the board changes, its compiled
    modules and the frozen content go (re-freezing takes seconds)."""
    marker = os.path.join(port_build, "frozen-board")
    previous = None
    if os.path.exists(marker):
        with open(marker) as f:
            previous = f.read()
    if previous == board:
        return
    shutil.rmtree(os.path.join(port_build, "frozen_mpy"), ignore_errors=True)
    try:
        os.remove(os.path.join(port_build, "frozen_content.c"))
    except FileNotFoundError:
        pass
    os.makedirs(port_build, exist_ok=True)
    with open(marker, "w") as f:
        f.write(board)


def port_build_directory(build, port):
    return os.path.join(build, "port" if port == PORT_BOARD else "port-" + port)


def point_cache_at_manifest(port_build, manifest):
    """The port's CMake keeps the manifest it was configured with (FROZEN_MANIFEST on
    make's command line only counts for a new build directory): when the cache names
    another file, it is made to name this one, so that CMake reconfigures with it."""
    cache = os.path.join(port_build, "CMakeCache.txt")
    if not os.path.exists(cache):
        return
    with open(cache, encoding="utf-8") as f:
        lines = f.read().split("\n")
    changed = False
    for index, line in enumerate(lines):
        if line.startswith("MICROPY_FROZEN_MANIFEST:"):
            kind, _, value = line.partition("=")
            if value != manifest:
                lines[index] = kind + "=" + manifest
                changed = True
    if changed:
        with open(cache, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))


def build_firmware(board, source, out=None, build=BUILD, log=None, label="", wireless="", port=None):
    """Build build/coinche-<board>.uf2 (or `out`); returns (path, seconds).
    `label` is kept in the image as firmware_build.LABEL; `wireless`, the wireless
    libraries tarball (default: beside the source) for a port board with WiFi; `port`,
    MicroPython's port board instead of the board file's PORT_BOARD (RPI_PICO2_W for
    the same board on a Pico 2 W). One build at a time in `build` (the boards share its
    unpacked source); what is missing is said without waiting for it."""
    port = port or port_board(board)
    if port not in PORT_BOARDS:
        raise BuildError("port board %r is not one of %s" % (port, ", ".join(PORT_BOARDS)))
    wireless = wireless_source(source, wireless) if port in WIRELESS_PORT_BOARDS else None
    why = problem(source, wireless)
    if why:
        raise BuildError(why)
    with folder_lock(build):
        return _build_firmware(board, source, out, build, log, label, wireless, port)


def _build_firmware(board, source, out, build, log, label, wireless, port):
    why = problem(source, wireless)
    if why:
        raise BuildError(why)
    started = time.monotonic()
    os.makedirs(build, exist_ok=True)
    log = log or os.path.join(build, "build.log" if port == PORT_BOARD else "build-%s.log" % port)
    with open(log, "w") as f:
        f.write("make uf2 BOARD=%s from %s\n" % (board, source))
    src = unpack(source, build, log)
    if wireless is not None:
        unpack_wireless(wireless, src, log)
    mpy = os.path.join(src, "micropython")
    picotool = build_picotool(src, build, log)
    env = _environment(build)
    _run(["make", "-j%d" % _jobs(), "-C", os.path.join(mpy, "mpy-cross")], log, env=env)
    manifest = stage(board, build, label, "manifest.py" if port == PORT_BOARD else "manifest-%s.py" % port)
    port_build = port_build_directory(build, port)
    forget_other_boards_frozen_code(port_build, board)
    point_cache_at_manifest(port_build, manifest)
    # In the environment, not on the command line: a CMAKE_ARGS= there would
    # replace the board's own arguments (shared/rp2/README.md).
    env["CMAKE_ARGS"] = "-Dpicotool_DIR=" + picotool
    _run([
        "make", "-j%d" % _jobs(), "-C", os.path.join(mpy, "ports", "rp2"),
        "BOARD=" + port, "BUILD=" + port_build, "FROZEN_MANIFEST=" + manifest,
    ], log, env=env)
    if out is None and port != port_board(board):
        out = os.path.join(ROOT, "build", "coinche-%s-%s.uf2" % (board, port))
    out = out or os.path.join(ROOT, "build", "coinche-%s.uf2" % board)
    shutil.copyfile(os.path.join(port_build, "firmware.uf2"), out + ".part")
    os.replace(out + ".part", out)
    return out, time.monotonic() - started


def firmware_digest(board):
    """A digest of everything frozen for `board` (to tell whether a UF2 is current)."""
    h = hashlib.sha256()
    drivers, layout, _storage, board_path = board_settings(board)
    paths = [os.path.join(BOOT_DIR, name) for name in BOOT_FILES] + [board_path]
    paths += [os.path.join(BOARD_FILES, base + ".py") for base in board_bases(board)]
    paths += [os.path.join(FIRMWARE, rel) for rel in uf2_firmware_files(drivers, layout)]
    lang = os.path.join(FIRMWARE, "render", "lang")
    paths += [os.path.join(lang, n) for n in sorted(os.listdir(lang))]
    for p in paths:
        with open(p, "rb") as f:
            h.update(p.encode() + b"\0" + f.read())
    return h.hexdigest()


def main(args=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--board", required=True)
    p.add_argument("--source", default=os.environ.get("MICROPYTHON_SRC", ""),
                   help="the rp2 source tarball or tree (default: $MICROPYTHON_SRC)")
    p.add_argument("--wireless", default=os.environ.get("MICROPYTHON_WIRELESS", ""),
                   help="the wireless libraries tarball for a WiFi board (default: beside the source)")
    p.add_argument("--port-board", default=None, choices=PORT_BOARDS,
                   help="MicroPython's port board instead of the board file's PORT_BOARD "
                        "(e.g. RPI_PICO2_W: the board on a Pico 2 W; the UF2 is then build/coinche-BOARD-PORT.uf2)")
    p.add_argument("--out", default=None, help="default build/coinche-BOARD.uf2")
    p.add_argument("--label", default="", help="a text kept in the image as firmware_build.LABEL")
    p.add_argument("--check", action="store_true", help="only say whether a build can start")
    o = p.parse_args(args)
    unknown = board_problem(o.board, board_names())  # sim: its own message below
    if unknown:
        print("uf2: --board: %s" % unknown, file=sys.stderr)
        return 2
    try:
        board_settings(o.board)
        if o.check:
            port = o.port_board or port_board(o.board)
            why = problem(o.source, wireless_source(o.source, o.wireless) if port in WIRELESS_PORT_BOARDS else None)
            if why:
                raise BuildError(why)
            print("uf2: ready to build")
            return 0
        out, seconds = build_firmware(o.board, o.source, o.out, label=o.label, wireless=o.wireless,
                                      port=o.port_board)
    except (BuildError, DeployError, ValueError) as e:
        print("uf2: %s" % e, file=sys.stderr)
        return 2
    print("uf2: %s (%d bytes) in %.0f s" % (os.path.relpath(out, ROOT), os.path.getsize(out), seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
