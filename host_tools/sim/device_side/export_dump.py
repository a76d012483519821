"""Every kept game, read by the device's own journal code, as JSON lines on stdout.

    micropython export_dump.py --flash COPY.img     a simulator flash image (a copy!)
    micropython export_dump.py --dir DIR [DIR]      journal files copied off a device (both copies)

Runs on the MicroPython unix port so the games are read exactly as the
scoreboard reads them at boot (firmware/store/journal.py): what the device
would recover, the export recovers; what it sets aside, the export reports.
`Journal.load()` may repair what it reads, so it must only ever be given a
copy: host_tools/device/export.py copies the image (or the device's files) first.

Output, one JSON object per line:
    {"notice": TEXT}                      the journal's own notice (damage found)
    {"error": TEXT}                       a game that could not be read: skipped
    {"game": G, "current": false, "rules": SPEC, "deals": [...], "result": R}
    {"game": null, "current": true, "rules": SPEC, "deals": [...], "names": NAMES}
    {"end": N}                            N games written: the dump is complete
"""
import json
import sys

_HERE = sys.path[0]
_ROOT = _HERE[: -len("/host_tools/sim/device_side")] if _HERE.endswith("/host_tools/sim/device_side") else _HERE + "/../../.."
sys.path.insert(0, _ROOT + "/firmware")


def _line(obj):
    json.dump(obj, sys.stdout)
    sys.stdout.write("\n")


def _fail(msg):
    sys.stderr.write("export_dump: %s\n" % msg)
    sys.exit(2)


def dump(root):
    """Write every game the journal at root (a folder, or the list of its copies) keeps; returns how many."""
    from store.journal import Journal

    state = Journal(root).load()
    lang = (state.get("settings") or {}).get("lang")  # the scoreboard's language: the report's
    if state.get("notice"):
        _line({"notice": state["notice"]})
    written = 0
    archive = state.get("archive")
    if archive is not None:
        numbers = archive.numbers()
        for i in range(len(numbers)):
            try:
                game = archive[i]
            except Exception as e:  # noqa: BLE001 - one unreadable game never stops the export
                _line({"error": "archived game %d: %s" % (numbers[i], e)})
                continue
            if not game.get("rules") or not game.get("deals"):
                _line({"error": "archived game %d: nothing readable" % numbers[i]})
                continue
            _line({"game": numbers[i], "current": False, "rules": game["rules"],
                   "deals": game["deals"], "result": game.get("result"), "lang": lang})
            written += 1
            game = None
    current = state.get("game")
    if current and current.get("deals"):
        names = (state.get("settings") or {}).get("names")  # the current game's team names
        _line({"game": None, "current": True, "rules": current.get("rules"), "deals": current["deals"],
               "names": names, "lang": lang})
        written += 1
    return written


def main(argv):
    if len(argv) < 3 or argv[1] not in ("--flash", "--dir") or (argv[1] == "--flash" and len(argv) != 3):
        _fail("usage: export_dump.py --flash COPY.img | --dir DIR [DIR]")
    if argv[1] == "--flash":
        sys.path.insert(0, _HERE)
        import flash_image  # the launcher's mount: the image has the device's layout

        how = flash_image.mount_flash(argv[2])
        for notice in flash_image.NOTICES:
            _line({"notice": "storage: " + notice})
        if how == "formatted":
            _line({"notice": "the image held no filesystem (%s): no games" % how})
            _line({"end": 0})
            return
        root = list(flash_image.ROOTS)  # both copies of the journal
    else:
        root = argv[2] if len(argv) == 3 else argv[2:]  # a device's two journal copies, read as the device reads them
    _line({"end": dump(root)})


main(sys.argv)
