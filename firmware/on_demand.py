"""The modules loaded only while they are used, then released: one table, and the code
that loads and releases what it lists (the heap of `make deploy`).

With `make deploy`'s .mpy files on the stock rp2 firmware (which has no ROMFS),
an imported module's bytecode, constants and functions live on the heap for as
long as the module is referenced: 75 KB for the whole app, more than half of the
live heap of a game. So the code a game at the table does not use (the start,
the journal's recovery, the language file reader, the screens off the
deal-entry path) is imported when it is needed and released afterwards. Its
interned names (qstrs) stay on the heap once loaded; its code and globals go. In
the frozen image (the UF2) the code is in flash: a release there only drops the
module's globals, and the next import builds them again.

MODULES is the table (docs/architecture.md shows it, and a test checks the two
agree): module -> the screens it defines, by class name, or None.
- None: the code that loads it (load()) releases it itself once it is done.
- A tuple: released by release_unused() (App.go, at every change of screen) once
  none of those screens is open; with no screen, at the next change of screen,
  kept only as long as a loaded module uses its functions.
"""
import sys

MODULES = {
    "table.start": None,
    "render.languages": None,
    "store.recovery": None,
    "screens.confirm_texts": None,
    "table.state": None,
    "table.settings": (),
    "coinche.record": (),
    "coinche.rule_options": (),
    "screens.menu": ("Menu",),
    "screens.game_over": ("GameOver",),
    "screens.history": ("History", "DealMenu"),
    "screens.settings": ("Settings", "ValuePicker", "TeamsScreen", "OptionsScreen"),
    "screens.name_picker": ("NamePicker",),
    "screens.past_games": ("Archive",),
    "screens.record_list": (),
    "screens.chart": ("Chart",),
    "screens.stats": ("Stats",),
    "coinche.stats": (),
    "screens.concours": ("Concours", "NumberPicker", "RoundOver"),
    "coinche.result_code": (),
    "render.layout_128x64_off_path": (),
    "render.layout_240x135_off_path": (),
    "link.table_link": None,
    "link.unsent": None,
}


def load(name):
    """The module `name` of the table, imported now (KeyError for a module the table
    does not list: whatever is loaded on demand is in it)."""
    if name not in MODULES:
        raise KeyError(name)
    module = sys.modules.get(name)
    if module is None:
        __import__(name)
        module = sys.modules[name]
    return module


def screen(class_name):
    """The screen class `class_name`, its module loaded (KeyError for a screen no
    module of the table defines). When its module cannot be loaded (no heap left for
    it: MemoryError; its file missing), what was loaded of it is released and
    ImportError names the screen: the App tells the player and goes home. (No
    exception class of its own: on the heap of `make deploy` every object counts.)"""
    for name in MODULES:
        screens = MODULES[name]
        if screens and class_name in screens:
            try:
                module = load(name)
            except (MemoryError, ImportError):
                release(name)
                raise ImportError(class_name)
            return getattr(module, class_name)
    raise KeyError(class_name)


def release(name):
    """Forget the module `name` (dotted): out of sys.modules and out of its package,
    so that the garbage collector frees it once nothing else refers to it. The
    next import of it loads it again."""
    sys.modules.pop(name, None)
    dot = name.rfind(".")
    if dot > 0:
        package = sys.modules.get(name[:dot])
        attribute = name[dot + 1:]
        if package is not None and hasattr(package, attribute):
            delattr(package, attribute)


def release_unused(view):
    """Release each loaded module of the table with screens (a tuple) that defines none
    of the open screens: `view` and those BACK returns to from it (back_to)."""
    modules = sys.modules
    for name in MODULES:
        screens = MODULES[name]
        if screens is None or name not in modules:
            continue
        open_screen = view
        while open_screen is not None:
            if type(open_screen).__name__ in screens:
                break
            open_screen = getattr(open_screen, "back_to", None)
        else:
            release(name)
