"""The damage suite: a saved game, then every single damaged flash block, booted again.

    micropython -X heapsize=8M host_tools/rigs/device_side/damage.py [LAYOUT] [--pairs] [--firmware DIR]

LAYOUT is "device" (decision D1: user filesystem + two data partitions, as
store/partitions.py mounts them; the journal keeps two copies) or "single"
(the layout before D1: one littlefs over the whole region, the journal in
/flash/data, mounted as the simulator did: a medium that does not mount is
formatted). --firmware runs another checkout's firmware/ (to measure the
state before a change).

The saved game: settings, two finished games of 6 and 14 deals (coinche1000),
then the current game (classic2000) of 20 deals with an edit and an undo. Every block
of the image that holds anything is damaged in turn, three ways: "flipped"
(one bit flipped in every programmed 256-byte page), "zeroed" (the whole
block 0x00), "erased" (0xFF). Each damaged image is booted (mount policy +
journal load) and the current game compared with the saved one:

  all     every confirmed deal, the right game
  fewer   an older state of the same game (a prefix, or a state it went
          through), or no game at all (a formatted medium)
  other   another game's rules, or deals the game never had
  nostart the mount or load() raised

On the device layout each damaged boot must also record: one more deal is
added, the image booted once more, and that deal must be there.
--pairs damages every pair of used blocks (erased both, zeroed both) and
reports the counts, without asserting anything.

Prints one JSON line: {"layout", "used_blocks", "kinds": {kind: {class: count}},
"failures": [...], "records": {...}, "pairs": {...}}.
"""
import json
import sys

_HERE = sys.path[0]
_ROOT = _HERE[: -len("/host_tools/rigs/device_side")] if _HERE.endswith("/host_tools/rigs/device_side") else _HERE + "/../../.."
sys.path.append(_ROOT + "/host_tools/sim/device_side")  # blockdev

BLOCK_SIZE = 4096
BLOCK_COUNT = 352
PAGE = 256
SETTINGS = {"lang": "fr", "contrast": 100}
OLD_RULES = {"preset": "coinche1000", "options": {}, "dealer": "N"}
RULES = {"preset": "classic2000", "options": {}, "dealer": "E"}


def deal(number):
    return {"taker": "NS" if number % 2 else "EW", "bid": 80 + 10 * (number % 8), "trump": "HSDC"[number % 4],
            "coinche": 1, "points": 80 + number}


def actions():
    """(actions, states of the current game's deal list after each of its actions)."""
    out = [{"op": "set", "k": "lang", "v": "fr"}, {"op": "new", "rules": OLD_RULES}]
    out += [{"op": "add", "deal": deal(100 + i)} for i in range(6)]
    out.append({"op": "new", "rules": OLD_RULES, "result": {"NS": 500, "EW": 400, "winner": None}})
    out += [{"op": "add", "deal": deal(200 + i)} for i in range(14)]
    out.append({"op": "new", "rules": RULES, "result": {"NS": 1000, "EW": 400, "winner": "NS"}})
    states = [[]]
    deals = []
    for i in range(20):
        out.append({"op": "add", "deal": deal(i)})
        deals.append(deal(i))
        states.append(list(deals))
        if i == 5:
            out.append({"op": "edit", "i": 2, "deal": deal(50)})
            deals[2] = deal(50)
            states.append(list(deals))
        if i == 8:
            out.append({"op": "del", "i": 8})
            deals.pop(8)
            states.append(list(deals))
    out.append({"op": "set", "k": "contrast", "v": 100})
    return out, states


class Layout:
    """How a layout mounts an image and where its journal lives."""

    def __init__(self, name):
        self.name = name

    def unmount(self):
        import vfs

        for point in ("/flash", "/data_a", "/data_b"):
            try:
                vfs.umount(point)
            except OSError:
                pass

    def boot(self, device):
        """Mount the image, return (Journal, state)."""
        import vfs

        import blockdev
        from store.journal import Journal

        self.unmount()
        if self.name == "single":
            blockdev.mount(device, "/flash")
            journal = Journal("/flash/data")
        else:
            from store import partitions

            roots, notices = partitions.mount_storage(
                lambda first, count: blockdev.Window(device, first, count), vfs,
                user_mount="/flash", data_mounts=("/data_a", "/data_b"))
            journal = Journal([root for root in roots if root], notices=notices)
        return journal, journal.load()

    def fresh(self):
        import blockdev

        return blockdev.RAMBlockDev(BLOCK_SIZE, BLOCK_COUNT)


def classify(state, expected, states):
    game = state["game"]
    if game is None:
        return "fewer"
    if game["rules"] != RULES:
        return "other"
    deals = game["deals"]
    if deals == expected:
        return "all"
    if deals in states or deals == expected[: len(deals)]:
        return "fewer"
    return "other"


def damage(blocks, block, kind, page_seed=0):
    """A copy of the image dict with one block damaged."""
    image = dict(blocks)
    if kind == "erased":
        image.pop(block, None)
    elif kind == "zeroed":
        image[block] = bytes(BLOCK_SIZE)
    else:  # flipped: one bit in every programmed page
        data = bytearray(blocks[block])
        for page in range(0, BLOCK_SIZE, PAGE):
            chunk = data[page:page + PAGE]
            if chunk != b"\xff" * PAGE:
                position = page + (block * 37 + page // PAGE * 101 + page_seed) % PAGE
                data[position] ^= 1 << ((block + page // PAGE) % 8)
        image[block] = bytes(data)
    return image


def device_from(layout, image):
    device = layout.fresh()
    device.blocks = {number: bytearray(data) for number, data in image.items()}
    return device


def run(layout_name, pairs=False):
    layout = Layout(layout_name)
    script, states = actions()
    device = layout.fresh()
    journal, _ = layout.boot(device)
    for action in script:
        journal.record(action)
    expected = states[-1]
    layout.unmount()
    saved = {number: bytes(data) for number, data in device.blocks.items()}
    used = sorted(saved)
    check_journal, clean = layout.boot(device_from(layout, saved))
    assert clean["game"]["deals"] == expected and clean["notice"] is None, clean["notice"]
    kinds = {}
    failures = []
    records = {"ok": 0, "lost": 0}
    for kind in ("flipped", "zeroed", "erased"):
        counts = {"all": 0, "fewer": 0, "other": 0, "nostart": 0}
        for block in used:
            image = damage(saved, block, kind)
            device = device_from(layout, image)
            try:
                journal, state = layout.boot(device)
                verdict = classify(state, expected, states)
            except Exception as error:  # noqa: BLE001 - the verdict is "no start"
                verdict = "nostart"
                state = {"notice": repr(error)}
            counts[verdict] += 1
            if verdict != "all":
                got = state.get("game") if isinstance(state, dict) else None
                failures.append({"kind": kind, "block": block, "verdict": verdict, "notice": state.get("notice"),
                                 "deals": len(got["deals"]) if got else None})
                continue
            if layout_name == "device":
                try:
                    journal.record({"op": "add", "deal": deal(99)})
                    _, again = layout.boot(device)
                    ok = again["game"]["deals"] == expected + [deal(99)] and again["settings"] == SETTINGS
                except Exception as error:  # noqa: BLE001
                    ok = False
                    again = {"notice": repr(error)}
                records["ok" if ok else "lost"] += 1
                if ok and again["notice"] is not None:
                    records["notice_after_repair"] = records.get("notice_after_repair", 0) + 1
                    failures.append({"kind": kind, "block": block, "verdict": "notice after repair",
                                     "notice": again["notice"]})
                if not ok:
                    failures.append({"kind": kind, "block": block, "verdict": "record lost",
                                     "notice": again.get("notice")})
        kinds[kind] = counts
    out = {"layout": layout_name, "used_blocks": len(used), "kinds": kinds, "failures": failures,
           "records": records}
    if pairs:
        out["pairs"] = pair_damage(layout, saved, used, expected, states)
    layout.unmount()
    return out


def pair_damage(layout, saved, used, expected, states):
    result = {}
    for kind in ("erased", "zeroed"):
        counts = {"all": 0, "fewer": 0, "other": 0, "nostart": 0}
        for i, first in enumerate(used):
            for second in used[i + 1:]:
                image = damage(damage(saved, first, kind), second, kind)
                try:
                    _, state = layout.boot(device_from(layout, image))
                    verdict = classify(state, expected, states)
                except Exception:  # noqa: BLE001
                    verdict = "nostart"
                counts[verdict] += 1
        result[kind] = counts
    return result


def main(argv):
    layout = "device"
    pairs = False
    firmware = _ROOT + "/firmware"
    i = 1
    while i < len(argv):
        if argv[i] == "--pairs":
            pairs = True
        elif argv[i] == "--firmware":
            i += 1
            firmware = argv[i]
        else:
            layout = argv[i]
        i += 1
    sys.path.insert(0, firmware)
    print(json.dumps(run(layout, pairs)))


if __name__ == "__main__":
    main(sys.argv)
