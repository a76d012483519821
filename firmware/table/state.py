"""The app's state as the simulator, the tests and `--state-out` read it (App.state()):
the game, the screen, the settings, the concours round and the link, as one dict.

Loaded on demand (on_demand.py) for the call and released: no key of a game needs it,
and with `make deploy`'s .mpy files its code would otherwise stay on the heap through
every deal. It takes the app as it is given and imports nothing of it.
"""


def state(app):
    """The state dict of `app` (App, app.py)."""
    game = app.table.game
    held = app.table.journal_rules or {}
    return {"rules": game.rules.spec(), "dealer": game.first_dealer, "next_dealer": game.dealer(),
            "order": game.order, "fixes": game.fixes, "deals": list(game.deals),
            "total": dict(game.total), "over": game.over, "winner": game.winner,
            "screen": app.screen_name(), "settings": app.table.settings,
            "concours": app.round_result(),
            # the other team confirmed the round's result (its deals); it ended on time
            "confirmed": held.get("confirmed") == len(game.deals), "ended": held.get("end") == "time",
            "link": app.club and app.club.figures(), "setup_wrong": app.setup_wrong,
            # what Menu > Concours offers while it is open (the simulator presses from it)
            "offered": getattr(app.view, "info", None) if app.view.name == "concours" else None}
