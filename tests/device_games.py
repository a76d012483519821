"""Games typed on a device under test (the emulated Pico), and what the host
calculator says of them: one copy for tests/test_rp2emu.py,
tests/test_uf2_emulated.py and tests/test_export_emulated.py."""
import json
import os
import subprocess

import ui_corpus
from conftest import ROOT


def corpus_game(min_deals, preset="classic2000"):
    """Corpus records for a game of at least min_deals deals that is not over before."""
    for _label, p, options, records in ui_corpus.games(ui_corpus.SEED_TUNING, 150):
        if p == preset and not options and len(records) >= min_deals:
            return records[:min_deals]
    raise AssertionError("no %s game of %d deals in the corpus" % (preset, min_deals))


def calculator_totals(records, preset):
    """Totals from the host calculator (python -m host_tools.score), its last line."""
    text = "".join(json.dumps(r) + "\n" for r in records)
    proc = subprocess.run([os.path.join(ROOT, ".venv", "bin", "python"), "-m", "host_tools.score", "--rules", preset],
                          input=text, capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])["total"]
