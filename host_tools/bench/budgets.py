"""What make bench holds the firmware to, and the games it measures with. The figures
are numbered as in docs/bench.md; tests/test_budgets.py asserts the same budgets."""

HEAP_BUDGET = 48 * 1024  # 1: the old budget on the 64-bit unix port, shown for reference (not a verdict)
RP2_HEAP = 245_888  # the stock rp2 firmware's heap (MicroPython v1.28.0, RPI_PICO)
RP2_LIVE_BUDGET = RP2_HEAP // 2  # 9: live heap peak of a 40-deal game on the real port
ALLOC_BUDGET = 256  # 2: bytes allocated per press, average, on every screen
HOME_REDRAW_BUDGET = 0  # 2: app.render() on home with nothing changed
OLED_BUS_BUDGET = 1024  # 3: display bytes per press on pico_oled (average, below)
CALCULATOR_BUDGET_S = 10.0  # 8: 100,000 deals in under 10 s on CPython

PRESETS = ("classic2000", "federation", "coinche1000", "coinche1001")
REFERENCE = "federation"  # the game of figures 2, 3, 7: it has every entry step
GAME_DEALS = 40
GAME_TARGET = 99990  # far enough that 40 deals never end the game
GAME_SEED = "bench"
CORPUS_SEED = 1789  # neither the UI tests' tuning nor their held-out seed
CORPUS_DEALS = 1000  # deals (whole games) per configuration
CPU_DEALS = 3  # deals of the reference game pressed under callgrind
CALCULATOR_DEALS = 100_000

ERASE_CYCLES = 100_000
FLASH_BLOCKS = 352
DATA_BLOCKS = 2 * 96  # the two data partitions the journal writes (store/partitions.py)
DEALS_PER_NIGHT = 30
SH1106_BOARD = "pico_oled_sh1106"  # generated in the tree: pico_oled.py with CONTROLLER = "sh1106"
HEAP_HI = 1 << 21  # the unix port's default heap: the game must complete there

SECTIONS = ("1 heap", "2 alloc", "3 display", "4 presses", "5 size", "6 flash", "7 CPU", "8 calculator", "9 rp2")
BUDGETED = ("2 alloc", "3 display", "9 rp2")
