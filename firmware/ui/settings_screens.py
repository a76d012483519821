"""The settings screens: the settings list, the value picker (also the dealer
correction of the menu), the team names and the rules options; and what they
change, journaled: a setting, a team name, the next dealer (App.change_setting,
set_team_name and correct_dealer call the functions at the end).

In their own module for the heap of `make deploy`: with the stock firmware's
.mpy files a module's bytecode is on the heap, and a game at the table goes
through deal entry, not through these. The menu and the game-over screen import
it when one of them opens; the app releases it once no open screen comes from it
(App.go, modules_on_demand.py).
"""
from coinche.game import ORDERS
from coinche.rules import OPTIONS, ORDER, PRESET_NAMES, Rules, RulesError
from ui.app import MAX_NAME
from ui.inputs import BACK, OK
from ui.screens import ListScreen, Screen, _is, _step

LANGS = ("fr", "en", "de", "it")
# each language by its own name, whatever the language in use
LANGUAGE_NAMES = {"fr": "Français", "en": "English", "de": "Deutsch", "it": "Italiano"}
# settings screen key -> (journal setting, default)
SETTINGS = {"s_first": ("dealer", "N"), "s_lang": ("lang", "fr"), "s_contrast": ("contrast", 255),
            "s_dim": ("dim", 0), "s_dir": ("dir", "acw")}
DIMS = (0, 60, 120, 300, 600)  # seconds; 0: never (the default)
CONTRASTS = (64, 128, 192, 255)
TARGETS = (500, 700, 1000, 1001, 1500, 2000, 2500, 3000)
SEATS = ("N", "W", "S", "E")


class Settings(ListScreen):
    name = "settings"
    ITEMS = ("s_preset", "s_target", "s_options", "s_first", "s_lang", "s_contrast", "s_dim", "s_dir", "s_names")

    def title(self):
        return self.app.T["m_settings"]

    def rows(self):
        a = self.app
        T = a.T
        spec = a.next_rules()
        r = Rules.from_spec(spec)
        dim = a.settings.get("dim", 0)
        vals = (T["p_" + r.preset], str(r["target"]), ">", T["seat_" + a.settings.get("dealer", "N")], T["lang"],
                str(a.settings.get("contrast", 255)), (str(dim) + T["sec"]) if dim else T["never"],
                order_label(T, a.settings.get("dir", "acw")), ">")
        return [(T[k], v) for k, v in zip(self.ITEMS, vals)]

    def pick(self, i):
        a = self.app
        k = self.ITEMS[i]
        if k == "s_options":
            a.go(OptionsScreen(a, self))
        elif k == "s_names":
            a.go(TeamsScreen(a, self))
        else:
            a.go(ValuePicker(a, k, self))


def order_label(T, order):
    """A dealing order in the table's seat letters: 'N>O>S>E' (anticlockwise), 'N>E>S>O'."""
    return ">".join([T["seat_" + seat] for seat in ORDERS[order]])


def value_label(T, v):
    """An option value as the table shows it: oui/non, a number, or a short word."""
    if v is True:
        return T["on"]
    if v is False:
        return T["off"]
    if isinstance(v, int):
        return str(v)
    return T.get("v_" + v, v)


def _cycle(seq, cur, d):
    i = seq.index(cur) if cur in seq else 0
    return seq[(i + d) % len(seq)]


class ValuePicker(Screen):
    """Change one setting with UP/DOWN; OK saves it (one journal write), BACK cancels."""

    name = "setting"

    def __init__(self, app, key, back_to, option=None):
        Screen.__init__(self, app, back_to)
        self.key_ = key
        self.option = option
        spec = app.next_rules()
        if key in SETTINGS:
            k, default = SETTINGS[key]
            self.value = app.settings.get(k, default)
        elif key == "m_dealer":  # the next dealer, corrected during a game
            self.value = app.game.dealer()
        elif key == "s_name":  # a team's name (option: the team); None: NS/EW
            names = app.settings.get("names") or {}
            self.value = names.get(option)
        elif key == "s_preset":
            self.value = spec["preset"]
        else:
            self.value = Rules.from_spec(spec)["target" if key == "s_target" else option]

    def choices(self):
        k = self.key_
        if k == "s_preset":
            return PRESET_NAMES
        if k == "s_target":
            t = TARGETS if self.value in TARGETS else tuple(sorted(TARGETS + (self.value,)))
            return t
        if k == "s_first":
            return SEATS
        if k == "m_dealer":
            return ORDERS[self.app.game.order]
        if k == "s_name":
            return name_choices(self.app.settings.get("lang", "fr"), self.value)
        if k == "s_dir":
            return ("acw", "cw")
        if k == "s_lang":
            return LANGS
        if k == "s_contrast":
            return CONTRASTS
        if k == "s_dim":
            return DIMS
        return OPTIONS[self.option]

    def key(self, ev):
        s = _step(ev)
        if s:
            self.value = _cycle(self.choices(), self.value, s)
            if self.key_ == "s_contrast":
                self.app.board.display.contrast(self.value)  # preview
        elif _is(ev, OK):
            if self.key_ == "s_name":
                set_team_name(self.app, self.option, self.value)
                self.back()
                return
            if self.key_ == "m_dealer":
                self.back()  # may release this module (the menu is not from it): its functions still run
                correct_dealer(self.app, self.value)
                if self.app.toast_msg is not None:  # saved (or refused): home shows who deals
                    self.app.home()
                return
            change_setting(self.app, self.key_, self.value, self.option)
            self.app.apply_contrast()  # the saved value, also when the write failed
            self.back()
        elif _is(ev, BACK):
            if self.key_ == "s_contrast":
                self.app.apply_contrast()
            self.back()

    def label(self):
        T = self.app.T
        v = self.value
        k = self.key_
        if k == "s_lang":
            return LANGUAGE_NAMES.get(v, v)
        if k == "s_preset":
            return T["p_" + v]
        if k == "s_first" or k == "m_dealer":
            return T["seat_" + v]
        if k == "s_name":
            return v or T[self.option]
        if k == "s_dir":
            return order_label(T, v)
        if k == "s_dim":
            return (str(v) + T["sec"]) if v else T["never"]
        if k == "s_option":
            return value_label(T, v)
        return str(v)

    def draw(self, L):
        T = self.app.T
        if self.key_ == "s_name":
            title = T["s_names"] + " " + T[self.option]
        else:
            title = T[self.key_] if self.option is None else T["o_" + self.option]
        v = self.value
        if isinstance(v, int) and not isinstance(v, bool) and self.key_ != "s_dim":
            L.picker(title, None, v, None, None, "^v  OK  <")
        else:
            context = T["d_" + v] if self.key_ == "s_preset" else None
            L.picker(title, None, None, self.label(), context, "^v  OK  <")


# team names offered (the language in use first, then the others'): "us" and "them"
NAME_PAIRS = {"fr": ("Nous", "Eux"), "en": ("Us", "Them"), "de": ("Wir", "Ihr"), "it": ("Noi", "Voi")}


def name_choices(lang, current):
    """None (NS/EW), the language's pair, the other pairs; a name set before stays in the list."""
    out = [None]
    for code in (lang,) + LANGS:
        for name in NAME_PAIRS.get(code, ()):
            if name not in out:
                out.append(name)
    if current is not None and current not in out:
        out.append(current)
    return out


class TeamsScreen(ListScreen):
    """Each team's name: NS and EW rows; OK on one picks its name (settings "names")."""

    name = "teams"
    wrap = False

    def title(self):
        return self.app.T["s_names"]

    def rows(self):
        a = self.app
        return [(a.T[t], a.team_name(t)) for t in ("NS", "EW")]

    def pick(self, i):
        self.app.go(ValuePicker(self.app, "s_name", self, ("NS", "EW")[i]))


class OptionsScreen(ListScreen):
    name = "options"
    wrap = False

    def title(self):
        return self.app.T["s_options"]

    def rows(self):
        T = self.app.T
        r = Rules.from_spec(self.app.next_rules())
        out = []
        for k in ORDER:
            if k == "target":
                continue
            out.append((T["o_" + k], value_label(T, r[k])))
        return out

    def pick(self, i):
        keys = [k for k in ORDER if k != "target"]
        self.app.go(ValuePicker(self.app, "s_option", self, keys[i]))


# -- what the settings screens change (the App's methods of the same names call these)

def set_team_name(app, team, name):
    """Name a team (None: back to NS/EW); one journaled setting, like any other."""
    names = dict(app.settings.get("names") or {})
    if name:
        names[team] = name[:MAX_NAME]
    else:
        names.pop(team, None)
    value = names or None
    if app.settings.get("names") == value:
        return
    if not app._record({"op": "set", "k": "names", "v": value}):
        return
    if value is None:
        del app.settings["names"]
    else:
        app.settings["names"] = value
    from ui.text import prepare_table
    prepare_table(app.T)  # the text cache starts afresh with the new names
    app.flash(app.T["saved"])


def correct_dealer(app, seat):
    """Who deals the next deal, corrected at the table: journaled ({"op": "dealer"}),
    so it survives a power cut; before the first deal it is the first-dealer setting."""
    g = app.game
    if seat == g.dealer():
        return
    if not g.deals:
        change_setting(app, "s_first", seat)
        return
    fixes = g.with_fix(seat)
    if not app._record({"op": "dealer", "fix": fixes}):
        return
    g.fixes = fixes
    if app._jgame is not None:
        app._jgame = dict(app._jgame)
        app._jgame["fix"] = fixes
    app.flash(app.T["saved"])

def change_setting(app, key, value, option=None):
    """Apply and journal one setting. Rules changes apply to the current game only while it has no deal."""
    spec = app.next_rules()
    spec = {"preset": spec["preset"], "options": dict(spec.get("options") or {})}
    if key in SETTINGS:
        k, v = SETTINGS[key][0], value
    else:
        if key == "s_preset":
            if value == spec["preset"]:
                return  # the same preset: its options (target...) stay
            spec = {"preset": value, "options": {}}
        else:
            name = "target" if key == "s_target" else option
            spec["options"][name] = value
        try:
            spec = Rules.from_spec(spec).spec()  # drops overrides equal to the preset
        except RulesError:
            app.flash(app.T["e_field"])
            return
        k, v = "rules", spec
    if app.settings.get(k) == v:
        return  # nothing changed: nothing written
    if not app._record({"op": "set", "k": k, "v": v}):
        return
    app.settings[k] = v
    if k == "lang":
        app.set_language(v)
    elif k == "contrast":
        app.apply_contrast()
    msg = app.T["saved"]
    if k in ("rules", "dealer", "dir"):
        if not app.game.deals:
            app.game = app._empty_game()  # one write: the setting (see _empty_game)
            msg = app.T["applied"]
        else:
            msg = app.T["next_game"]
    app.flash(msg)


# the screens this module defines: App keeps the module loaded while one of them is open
SCREENS = (Settings, ValuePicker, TeamsScreen, OptionsScreen)
