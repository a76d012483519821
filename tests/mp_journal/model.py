"""What load() must give back, computed without any file: the oracle of the journal tests."""

KEEP = 20


def initial():
    return {"settings": {}, "game": None, "archive": []}


def step(st, a, keep=KEEP):
    """The state after action a (a new dict; st is not changed)."""
    settings = dict(st["settings"])
    game = st["game"]
    archive = list(st["archive"])
    op = a["op"]
    if op == "set":
        settings[a["k"]] = a["v"]
    elif op == "new":
        if game is not None and game["deals"]:
            if a.get("result") is not None:
                game = {"rules": game["rules"], "deals": game["deals"], "result": a["result"]}
            archive = (archive + [game])[-keep:]
        game = {"rules": a["rules"], "deals": []}
    elif op == "dealer":  # a dealer correction: the game's rules carry it
        rules = dict(game["rules"])
        rules["fix"] = a["fix"]
        game = {"rules": rules, "deals": game["deals"]}
    else:
        deals = list(game["deals"])
        if op == "add":
            deals.append(a["deal"])
        elif op == "edit":
            deals[a["i"]] = a["deal"]
        elif op == "del":
            deals.pop(a["i"])
        game = {"rules": game["rules"], "deals": deals}
    return {"settings": settings, "game": game, "archive": archive}


def states(actions, keep=KEEP):
    """[state before action 0, after action 0, ..., after the last]."""
    out = [initial()]
    for a in actions:
        out.append(step(out[-1], a, keep))
    return out


def same(loaded, expected):
    return (loaded["settings"] == expected["settings"] and loaded["game"] == expected["game"]
            and list(loaded["archive"]) == expected["archive"])


def describe(st):
    g = st["game"]
    return "settings=%r game=%s archive=%s" % (
        st["settings"], None if g is None else "%d deals" % len(g["deals"]),
        [len(x["deals"]) for x in list(st["archive"])])
