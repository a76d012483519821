"""The settings screens: the settings list, the value picker (also the dealer
correction of the menu), the team names and the rules options. What they change
is recorded by table/settings.py, through the App (which then applies the
language and the contrast).

Loaded on demand (on_demand.py) for the heap of `make deploy`: with the stock
firmware's .mpy files a module's bytecode is on the heap, and a game at the
table goes through deal entry, not through these. The app releases it once no
open screen comes from it (App.go).
"""
import on_demand
from coinche.game import ORDERS
from coinche.rule_options import ORDER, PRESET_NAMES, ROUND_ORDER, allowed_values
from coinche.rules import Rules
from events.inputs import BACK, LONG, OK, is_key, up_down
from screens.base import ListScreen, Screen
from table.settings import SETTINGS

LANGS = ("fr", "en", "de", "it")
# each language by its own name, whatever the language in use
LANGUAGE_NAMES = {"fr": "Français", "en": "English", "de": "Deutsch", "it": "Italiano"}
DIMS = (0, 60, 120, 300, 600)  # seconds; 0: never (the default)
CONTRASTS = (64, 128, 192, 255)
TARGETS = (500, 700, 1000, 1001, 1500, 2000, 2500, 3000)
SEATS = ("N", "W", "S", "E")
# a round's deals (option `deals`); 0: the game goes to the target. 12 and 15 are the
# concours's usual counts, the small ones for a short round
ROUND_DEALS = (0, 4, 6, 8, 10, 12, 15, 16, 20, 24)
# the options screen's rows: the scoring options (the target has its own setting), then
# how long a game lasts (a round of a fixed number of deals)
LISTED_OPTIONS = tuple(k for k in ORDER if k != "target") + ROUND_ORDER
OPTION_HELP = tuple("o_help_" + k for k in LISTED_OPTIONS)  # each row's help line (keys built once, not per frame)


class SettingsTexts:
    """The texts these screens draw, read like the table in use (texts[key], texts.get):
    the table in use, and the texts only these screens draw (render/languages.py
    OPTION_PREFIX: the options' names, values and help lines). With `make deploy`
    those are not in the table in use: they are read from the language's file when one
    of these screens first needs them and go with this module, once no settings screen
    is open (their strings are not on the heap during a game)."""

    def __init__(self, table, own):
        self.table = table
        self.own = own

    def __getitem__(self, key):
        own = self.own
        return own[key] if key in own else self.table[key]

    def get(self, key, default=None):
        own = self.own
        return own[key] if key in own else self.table.get(key, default)


kept_texts = [None]  # the SettingsTexts of the table in use, made by settings_texts()


def settings_texts(app):
    """The texts of these screens for the table in use (app.texts): the table itself
    when it holds them all (the frozen image's), else a SettingsTexts, made once per
    table (a new language is a new table)."""
    table = app.texts
    texts = kept_texts[0]
    if texts is table or (isinstance(texts, SettingsTexts) and texts.table is table):
        return texts
    if OPTION_HELP[0] in table:
        texts = table
    else:
        languages = on_demand.load("render.languages")
        code = app.language if app.language in languages.LANGS else "fr"
        texts = SettingsTexts(table, languages.compact(languages.read_file(code, only=languages.OPTION_PREFIX)))
        on_demand.release("render.languages")
    kept_texts[0] = texts
    return texts


class Settings(ListScreen):
    name = "settings"
    ITEMS = ("s_preset", "s_target", "s_options", "s_first", "s_lang", "s_contrast", "s_dim", "s_dir", "s_names")

    def title(self):
        return self.app.texts["m_settings"]

    def rows(self):
        app = self.app
        texts = app.texts
        spec = app.table.next_rules()
        r = Rules.from_spec(spec)
        dim = app.settings.get("dim", 0)
        vals = (texts["p_" + r.preset], str(r["target"]), ">", texts["seat_" + app.settings.get("dealer", "N")], texts["lang"],
                str(app.settings.get("contrast", 255)), (str(dim) + texts["sec"]) if dim else texts["never"],
                order_label(texts, app.settings.get("dir", "acw")), ">")
        return [(texts[k], v) for k, v in zip(self.ITEMS, vals)]

    def pick(self, i):
        app = self.app
        k = self.ITEMS[i]
        if k == "s_options":
            app.go(OptionsScreen(app, self))
        elif k == "s_names":
            app.go(TeamsScreen(app, self))
        else:
            app.go(ValuePicker(app, k, self))


def order_label(texts, order):
    """A dealing order in the table's seat letters: 'N>O>S>E' (anticlockwise), 'N>E>S>O'."""
    return ">".join([texts["seat_" + seat] for seat in ORDERS[order]])


def value_label(texts, value):
    """An option value as the table shows it: oui/non, a number, or a short word."""
    if value is True:
        return texts["on"]
    if value is False:
        return texts["off"]
    if isinstance(value, int):
        return str(value)
    return texts.get("o_value_" + value, value)


def option_label(texts, option, value):
    """An option's value on the options screen: value_label(), and a round of 0 deals
    is a game to the target."""
    if option == "deals" and not value:
        return texts["o_value_to_target"]
    return value_label(texts, value)


def _cycle(choices, current, direction):
    """The choice one after (direction 1) or before (-1) the current one, wrapping."""
    i = choices.index(current) if current in choices else 0
    return choices[(i + direction) % len(choices)]


class ValuePicker(Screen):
    """Change one setting with UP/DOWN; OK saves it (one journal write), BACK cancels."""

    name = "setting"

    def __init__(self, app, key, back_to, option=None):
        Screen.__init__(self, app, back_to)
        self.key_ = key
        self.option = option
        spec = app.table.next_rules()
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
        if self.option == "deals":
            return ROUND_DEALS if self.value in ROUND_DEALS else tuple(sorted(ROUND_DEALS + (self.value,)))
        return allowed_values(self.option)

    def key(self, ev):
        s = up_down(ev)
        if s:
            self.value = _cycle(self.choices(), self.value, s)
            if self.key_ == "s_contrast":
                self.app.board.display.contrast(self.value)  # preview
        elif is_key(ev, OK):
            if self.key_ == "s_name":
                self.app.set_team_name(self.option, self.value)
                self.back()
                return
            if self.key_ == "m_dealer":
                self.back()  # may release this module (the menu is not from it): its functions still run
                self.app.correct_dealer(self.value)
                if self.app.toast_msg is not None:  # saved (or refused): home shows who deals
                    self.app.home()
                return
            self.app.change_setting(self.key_, self.value, self.option)
            self.app.apply_contrast()  # the saved value, also when the write failed
            self.back()
        elif is_key(ev, BACK):
            if self.key_ == "s_contrast":
                self.app.apply_contrast()
            self.back()

    def label(self):
        texts = settings_texts(self.app)
        v = self.value
        k = self.key_
        if k == "s_lang":
            return LANGUAGE_NAMES.get(v, v)
        if k == "s_preset":
            return texts["p_" + v]
        if k == "s_first" or k == "m_dealer":
            return texts["seat_" + v]
        if k == "s_name":
            return v or texts[self.option]
        if k == "s_dir":
            return order_label(texts, v)
        if k == "s_dim":
            return (str(v) + texts["sec"]) if v else texts["never"]
        if k == "s_option":
            return option_label(texts, self.option, v)
        return str(v)

    def draw(self, layout):
        texts = settings_texts(self.app)
        if self.key_ == "s_name":
            title = texts["s_names"] + " " + texts[self.option]
        else:
            title = texts[self.key_] if self.option is None else texts["o_" + self.option]
        v = self.value
        if isinstance(v, int) and not isinstance(v, bool) and self.key_ != "s_dim" and v:
            layout.picker(title, None, v, None, None, texts["value_keys"])
        else:
            context = texts["d_" + v] if self.key_ == "s_preset" else None
            layout.picker(title, None, None, self.label(), context, texts["value_keys"])


# team names offered in the language in use only: "us" and "them", and a few more a table uses
NAME_CHOICES = {"fr": ("Nous", "Eux", "Bleus", "Rouges", "Anciens", "Jeunes"),
                "en": ("Us", "Them", "Blues", "Reds", "Elders", "Young"),
                "de": ("Wir", "Ihr", "Blau", "Rot", "Alte", "Junge"),
                "it": ("Noi", "Voi", "Azzurri", "Rossi", "Vecchi", "Giovani")}


def name_choices(lang, current):
    """None (NS/EW), the language's names; a name set before stays in the list."""
    out = [None]
    out += NAME_CHOICES.get(lang, ())
    if current is not None and current not in out:
        out.append(current)
    return out


class TeamsScreen(ListScreen):
    """Each team's name: NS and EW rows; OK on one picks its name (settings "names")."""

    name = "teams"
    wrap = False

    def title(self):
        return self.app.texts["s_names"]

    def rows(self):
        app = self.app
        return [(app.texts[t], app.team_name(t)) for t in ("NS", "EW")]

    def hint(self):
        return self.app.texts["n_hold"]  # the letter picker of a name of the table's own

    def key(self, ev):
        if is_key(ev, OK, LONG):
            self.app.go(on_demand.screen("NamePicker")(self.app, ("NS", "EW")[self.sel], self))
        else:
            ListScreen.key(self, ev)

    def pick(self, i):
        self.app.go(ValuePicker(self.app, "s_name", self, ("NS", "EW")[i]))


class OptionsScreen(ListScreen):
    name = "options"
    wrap = False

    def title(self):
        return self.app.texts["s_options"]

    def rows(self):
        """The next game's options; during a concours round, the round's own (its deals
        included): they are fixed until it ends."""
        texts = settings_texts(self.app)
        if self.app.table.concours():
            r = self.app.game.rules
            return [(texts["o_" + k], option_label(texts, k, r.round_deals if k == "deals" else r[k]))
                    for k in LISTED_OPTIONS]
        r = Rules.from_spec(self.app.table.next_rules())
        return [(texts["o_" + k], option_label(texts, k, r[k])) for k in LISTED_OPTIONS]

    def hint(self):
        """The highlighted option in words: its label is cut to share a row with its value;
        during a concours round, that its rules are fixed."""
        texts = settings_texts(self.app)
        return texts["o_help_fixed"] if self.app.table.concours() else texts[OPTION_HELP[self.sel]]

    def pick(self, i):
        if self.app.table.concours():  # a round's rules are the organiser's: nothing to change
            self.app.show_message(settings_texts(self.app)["o_help_fixed"])
            return
        self.app.go(ValuePicker(self.app, "s_option", self, LISTED_OPTIONS[i]))
