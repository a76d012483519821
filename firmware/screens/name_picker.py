"""A team's name of the table's own, picked letter by letter (up to 8 characters:
"Paul&Mie", "Team 12", accented letters and digits too), besides the short list of
the teams screen.

In its own module for the heap of `make deploy`: loaded on demand (on_demand.py)
when the teams screen opens it with a held OK, released once no open screen
comes from it (App.go).

Keys: UP/DOWN the letter under the cursor (held: faster; the letters are ordered as
names are spelled, LETTERS), OK the next letter,
BACK the letter before (on the first one: leave, nothing changed), held OK: save
the name (an empty name is NS/EW again). The hint line turns through them.
"""
import on_demand
from coinche.compat import const
from events.inputs import BACK, LONG, OK, PRESS, is_key, up_down
from screens.base import Screen
from table.draft import wrap_or_stop

MAX_LETTERS = const(8)  # as table/game_table.py MAX_NAME: what a name may hold
# the letters in the order UP walks them, ordered by how names are spelled: the capitals
# (the commonest first letters of names first), then the signs and the space, then the
# small letters (the commonest first), their accented forms, and the digits backwards,
# so a sign is one or two DOWN presses from the small letters' start and a digit one or
# two from the capitals'. What the font draws (render/text.py's accents).
LETTERS = ("MJASCLPDEBRTNGFVHKIOYZWUQXÉÈÀÜÖÄ"
           ".'-& "
           "eainrlotsumcdhgbvpyfkjzwxq"
           "éèêëàâäìîïòôöùûüçß"
           "9876543210")
CAPITALS = const(0)  # where a name's first letter, and a letter after a sign or a space, starts
SMALL = const(37)  # where a letter after a letter starts: the commonest small letter
SIGNS = ".'-& "


def start_of(before):
    """Where a new letter starts, after the letter at index `before` of LETTERS (None: the
    name's first): the capitals after a sign or a space, the same digit after a digit,
    else the small letters."""
    if before is None or LETTERS[before] in SIGNS:
        return CAPITALS
    if LETTERS[before] in "0123456789":
        return before
    return SMALL


class NamePicker(Screen):
    """team: "NS" or "EW"; starts from the team's name set before (or an empty one)."""

    name = "name-picker"
    turns = True

    def __init__(self, app, team, back_to):
        Screen.__init__(self, app, back_to)
        self.team = team
        names = app.settings.get("names") or {}
        # the letters as indices into LETTERS: a key changes one number, nothing is built
        self.letters = [LETTERS.find(ch) if LETTERS.find(ch) >= 0 else 0 for ch in names.get(team) or ""]
        if not self.letters:
            self.letters.append(CAPITALS)
        self.cursor = len(self.letters) - 1
        self._text = None  # the name as drawn, rebuilt only after a key changes it

    def text(self):
        """The name picked so far (trailing spaces kept while picking)."""
        if self._text is None:
            self._text = "".join([LETTERS[i] for i in self.letters])
        return self._text

    def key(self, ev):
        step = up_down(ev)
        if step:
            self.letters[self.cursor] = wrap_or_stop(self.letters[self.cursor], step, len(LETTERS), (ev >> 2) == PRESS)
            self._text = None
        elif is_key(ev, OK, LONG):
            app = self.app
            self.back()
            app.set_team_name(self.team, self.text().strip() or None)
        elif is_key(ev, OK):
            if self.cursor + 1 < MAX_LETTERS:
                self.cursor += 1
                if self.cursor == len(self.letters):  # a new letter: see start_of
                    self.letters.append(start_of(self.letters[-1]))
                    self._text = None
            else:
                self.app.show_message(self.app.texts["n_full"])
        elif is_key(ev, BACK):
            if self.cursor == 0:
                self.back()  # nothing saved
                return
            if self.cursor == len(self.letters) - 1:
                self.letters.pop()  # the letter after the cursor goes
                self._text = None
            self.cursor -= 1

    def draw(self, layout):
        texts = self.app.texts
        k = self.phase % 3
        hint = texts["n_keys"] if k == 0 else (texts["n_save"] if k == 1 else texts["n_back"])
        # its drawing is the layout's, off the deal-entry path (loaded on demand)
        on_demand.load(layout.OFF_PATH).name_picker(layout, texts["s_names"] + " " + texts[self.team], self.text(),
                                                    self.cursor, hint)


def spell_keys(word, first=None):
    """The letter picker's keys that spell word from an empty name: each letter the
    shortest way round (UP or DOWN presses), OK between letters (the gallery and the
    tests spell with it)."""
    out = []
    at = start_of(None)
    for n, ch in enumerate(word):
        if n:
            out.append("ok")
            at = start_of(LETTERS.find(word[n - 1]))
        to = LETTERS.find(ch)
        up = (to - at) % len(LETTERS)
        out += ["up"] * up if up <= len(LETTERS) - up else ["down"] * (len(LETTERS) - up)
    return out
