"""make bench: measure the device budgets, print one table, write docs/bench.md.

    python3 -m host_tools.bench [--out docs/bench.md] [--no-valgrind] [--figures N,N]
    python3 -m host_tools.bench.frozen [--deploy] [--out docs/bench_uf2.md]

Everything is measured on the real firmware, never estimated: figures 1-8 on the
MicroPython unix port (64-bit), figure 9 on the emulated RP2040 (stock rp2 MicroPython),
the frozen image's heap by bench.frozen. docs/bench.md says how each figure is measured.

budgets: the budgets and the games; tree: the firmware compiled as deploy puts it on the
Pico; games: the scripted games; heap, device_figures, cpu, calculator, emulated: the
figures; measure: one run of them; table and report: the document; frozen: the UF2's
heap. Budgets 1, 2, 3 and 5 are asserted by tests/test_budgets.py with the same functions.
The club link's benchmarks: club_load (200 tables through Mosquitto), link_heap (its heap
on the emulated Pico W), link_time (its cost in the device's time). device_side/: the
scripts they run on the MicroPython unix port (bench_app, bench_ui, flash_stats).
"""
