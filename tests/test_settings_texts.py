"""The settings screens' own texts (screens/settings.py settings_texts): with the table
`make deploy` uses, the options' names, values and help lines come from the language's
file, the rest from the table in use; a table that holds them all is used as it is."""
from render import languages
from screens import settings


class TableInUse:
    """What settings_texts() reads of the App: the table in use and its language."""

    def __init__(self, texts, language):
        self.texts = texts
        self.language = language


def test_the_options_texts_come_from_the_file_the_others_from_the_table():
    app = TableInUse(languages.load("de"), "de")
    whole = languages.read_file("de")
    assert "o_help_contracts" not in app.texts
    texts = settings.settings_texts(app)
    assert texts["o_help_contracts"] == whole["o_help_contracts"]
    assert texts["o_contracts"] == whole["o_contracts"]
    assert texts.get("o_value_suits", "?") == whole["o_value_suits"]
    assert texts["s_options"] is app.texts["s_options"]
    assert texts.get("o_value_no_such_value", "plain") == "plain"


def test_the_texts_are_read_once_per_table():
    app = TableInUse(languages.load("fr"), "fr")
    first = settings.settings_texts(app)
    assert settings.settings_texts(app) is first
    app.texts, app.language = languages.load("it"), "it"  # a new language: a new table
    second = settings.settings_texts(app)
    assert second is not first
    assert second["o_help_melds"] == languages.read_file("it")["o_help_melds"]


def test_a_table_holding_every_text_is_used_as_it_is():
    whole = languages.read_file("en")  # as the frozen image's table: every key in it
    app = TableInUse(whole, "en")
    assert settings.settings_texts(app) is whole
