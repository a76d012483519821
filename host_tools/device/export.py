"""Export every kept game: games.json, deals.csv and a self-contained report.html.

    python3 -m host_tools.device.export --flash sim-flash.img [--out DIR]
    python3 -m host_tools.device.export --port /dev/ttyACM0 [--out DIR]

The games are read by the device's own journal code (firmware/store/journal.py)
on the MicroPython unix port (host_tools/sim/device_side/export_dump.py), always from a
copy: the image is copied first, and a device's journal files are copied off
it with mpremote (read only; the scoreboard is restarted afterwards). They are
then scored here by the scoring core (firmware/coinche), as the calculator
does. A game that cannot be read or scored is reported and skipped.
"""
import argparse
import csv
import html
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from coinche.stats import Tally
from coinche.game import Game, GameError
from coinche.record import RecordError
from coinche.result_code import grouped, round_result
from coinche.rules import Rules, RulesError

from render.languages import LANGS
from render.languages import read_file as read_language

from host_tools.common.paths import SIM_DEVICE
from host_tools.common.programs import required_tool
from host_tools.device.report_words import REPORT_WORDS
from host_tools.sim.flash_file import (FLASH_BLOCK_COUNT, FLASH_BLOCK_SIZE, flash_image_problem,
                                       superblocks_found)

DUMP = os.path.join(SIM_DEVICE, "export_dump.py")
TEAMS = ("NS", "EW")
# the team colours of the Display Pack (firmware/render/layout_240x135.py PALETTE)
COLOURS = {"NS": "#2f7dff", "EW": "#ff7a1c"}
# where a device keeps its journal: /data (stock firmware), the two copies of D1
DEVICE_DIRS = ("data", "data_a", "data_b")


class ExportError(RuntimeError):
    """The games could not be read at all (no image, no device, no MicroPython)."""


# ------------------------------------------------------------------ reading

def _run_dump(args):
    mp = required_tool("micropython", ExportError, "micropython (unix port)")
    proc = subprocess.run([mp, "-X", "heapsize=16M", DUMP] + args, capture_output=True, text=True, timeout=600)
    items = []
    for line in proc.stdout.splitlines():
        if line.strip():
            items.append(json.loads(line))
    if proc.returncode != 0 or not items or "end" not in items[-1]:
        raise ExportError("reading the journal failed (%d): %s" % (proc.returncode, proc.stderr.strip()[-2000:]))
    return items[:-1]


def image_problem(path):
    """None when path is a flash image the simulator or the emulator made (the device's
    size, a littlefs superblock in it), else what is wrong with it: the export refuses
    anything else rather than report "0 games"."""
    if os.path.isdir(path):
        return "it is a directory, not a flash image"
    if not os.path.exists(path):
        return "no such file"
    try:
        size = os.path.getsize(path)
    except OSError as e:
        return "cannot read it (%s)" % (e.strerror or e)
    if size == 0:
        return "it is empty, a flash image is %d bytes" % (FLASH_BLOCK_SIZE * FLASH_BLOCK_COUNT)
    problem = flash_image_problem(path)  # the simulator's own check: size and superblocks
    if problem:
        return problem
    try:
        found = superblocks_found(path)
    except OSError as e:
        return "cannot read it (%s)" % (e.strerror or e)
    if found == "blank":
        return "it is blank: the scoreboard never started on it, so it holds no games"
    return None


def read_flash(path):
    """The dump of a simulator flash image, read from a copy (the image is never opened for writing)."""
    problem = image_problem(path)
    if problem:
        raise ExportError("%s is not a flash image of the scoreboard: %s" % (path, problem))
    with tempfile.TemporaryDirectory(prefix="coinche-export-") as tmp:
        copy = os.path.join(tmp, "flash.img")
        shutil.copyfile(path, copy)
        return _run_dump(["--flash", copy])


def run_mpremote(port, *args, check=True):
    tool = required_tool("mpremote", ExportError)
    cmd = [tool] + (["connect", port] if port else []) + list(args)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if check and proc.returncode != 0:
        raise ExportError("mpremote %s failed: %s" % (" ".join(args), (proc.stderr or proc.stdout).strip()[-1000:]))
    return proc


def read_device(port, restart=True):
    """The dump of a device's journal: its files are copied off it (mpremote only reads), then read here."""
    listing = run_mpremote(port, "fs", "ls", ":/").stdout
    names = {line.split()[-1].rstrip("/") for line in listing.splitlines()[1:] if line.split()}
    found = [d for d in DEVICE_DIRS if d in names]
    if not found:
        raise ExportError("no journal on the device (none of %s)" % ", ".join("/" + d for d in DEVICE_DIRS))
    with tempfile.TemporaryDirectory(prefix="coinche-export-") as tmp:
        for d in found:
            run_mpremote(port, "fs", "cp", "-r", ":/" + d, tmp + "/")
        if restart:
            run_mpremote(port, "reset", check=False)  # the scoreboard comes back
        copies = [d for d in found if d != "data"] or found  # the two copies; the old single folder alone
        return _run_dump(["--dir"] + [os.path.join(tmp, d) for d in copies])


# ------------------------------------------------------------------ scoring

def team_names(names):
    """{"NS": name, "EW": name}: the names the table gave (settings "names", kept with a
    finished game's result), else the team codes."""
    out = {}
    for t in TEAMS:
        v = names.get(t) if isinstance(names, dict) else None
        out[t] = v if isinstance(v, str) and v else t
    return out


def language_of(item):
    """The language the game is reported in: the one kept with the game, else the
    scoreboard's setting (the dump's "lang"), else French, the device's default."""
    spec = item.get("rules") if isinstance(item.get("rules"), dict) else {}
    for code in (spec.get("lang"), item.get("lang")):
        if code in LANGS:
            return code
    return LANGS[0]


def words(code):
    """The scoreboard's own text table of language code (firmware/render/lang/CODE.txt, read by
    the firmware's reader): the report says what the screens say."""
    if code not in _WORDS:
        _WORDS[code] = read_language(code)
    return _WORDS[code]


_WORDS = {}


def score_game(item, number):
    """One dumped game scored: the dict written to games.json. Raises ValueError when it cannot be."""
    spec = item.get("rules")
    rules = Rules.from_spec(spec)
    dealer = spec.get("dealer", "N")
    game = Game(rules, item["deals"], dealer, spec.get("dir", "acw"), spec.get("fix", ()))  # order, corrections
    result = item.get("result")
    # the names the device shows: the settings' for the current game, those kept with a finished
    # game's result, else those the game started with
    names = team_names(item.get("names") or (result.get("names") if isinstance(result, dict) else None)
                       or spec.get("names"))
    deals = []
    for i, (rec, res) in enumerate(zip(game.deals, game.results)):
        deals.append({"deal": i + 1, "dealer": game.dealer(i), "record": rec, "made": res.made,
                      "score": dict(res.score), "total": game.totals_after(i)})
    tally = Tally()
    tally.add_game(game)
    return {
        "game": number, "journal_game": item.get("game"), "current": bool(item.get("current")),
        "language": language_of(item),
        "rules": {"preset": rules.preset, "options": dict(rules.overrides), "target": rules.target},
        "teams": names, "first_dealer": dealer, "deals": deals, "total": dict(game.total),
        "over": game.over, "winner": game.winner, "stats": {t: tally.as_dict(t) for t in TEAMS},
        # a concours round: the round, table, teams, totals, deals and result code (as the
        # device's state gives them, and the organiser's app imports them); None otherwise
        "concours": round_result(spec["concours"], game.total, rules.round_deals) if spec.get("concours") else None,
        "_game": game,
    }


def collect(items):
    """(games, problems) from a dump: every game scored, the unreadable ones named in problems."""
    games, problems = [], []
    for it in items:
        if "notice" in it:
            problems.append(it["notice"])
        elif "error" in it:
            problems.append(it["error"])
        else:
            label = "current game" if it.get("current") else "archived game %s" % it.get("game")
            try:
                games.append(score_game(it, len(games) + 1))
            except (RulesError, RecordError, GameError, KeyError, TypeError, AttributeError, ValueError) as e:
                problems.append("%s skipped: %s" % (label, e))
    return games, problems


def evening(games):
    """The statistics over every exported game, per team."""
    tally = Tally()
    for g in games:
        tally.add_game(g["_game"])
    return {t: tally.as_dict(t) for t in TEAMS}


# ------------------------------------------------------------------ writing

def public(game):
    return {k: v for k, v in game.items() if not k.startswith("_")}


def write_json(path, games, problems):
    doc = {"format": 1, "exported": time.strftime("%Y-%m-%dT%H:%M:%S", export_time()), "games": [public(g) for g in games], "statistics": evening(games), "problems": problems}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")


CSV_FIELDS = ("game", "deal", "team_NS", "team_EW", "preset", "dealer", "taker", "bid", "trump", "coinche",
              "points", "tricks", "solo", "belote_NS", "belote_EW", "melds_NS", "melds_EW", "melds_to",
              "made", "score_NS", "score_EW", "total_NS", "total_EW")


def _cell(v):
    if v is None:
        return ""
    if v is True:
        return "yes"
    if v is False:
        return "no"
    return v


def deal_rows(games):
    for g in games:
        for d in g["deals"]:
            r = d["record"]
            belote = r.get("belote") or {}
            melds = r.get("melds") or {}
            passed = r.get("bid") == "pass"
            yield {
                "game": g["game"], "deal": d["deal"], "team_NS": g["teams"]["NS"], "team_EW": g["teams"]["EW"],
                "preset": g["rules"]["preset"], "dealer": d["dealer"], "taker": None if passed else r.get("taker"),
                "bid": r.get("bid"), "trump": r.get("trump"), "coinche": r.get("coinche", 0) if not passed else None,
                "points": r.get("points"), "tricks": r.get("tricks"), "solo": r.get("solo"),
                "belote_NS": belote.get("NS", 0), "belote_EW": belote.get("EW", 0),
                "melds_NS": " ".join(melds.get("NS", ())), "melds_EW": " ".join(melds.get("EW", ())),
                "melds_to": r.get("melds_to"), "made": None if passed else d["made"],
                "score_NS": d["score"]["NS"], "score_EW": d["score"]["EW"],
                "total_NS": d["total"]["NS"], "total_EW": d["total"]["EW"],
            }


def write_csv(path, games):
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        for row in deal_rows(games):
            w.writerow({k: _cell(v) for k, v in row.items()})


TRUMPS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
COINCHES = {1: " x2", 2: " x4"}
CHART_W, CHART_H = 640, 260
PLOT_FILL = "#fdfcf7"  # the plot area's colour: a test finds every drawn chart by it
PAD_L, PAD_R, PAD_T, PAD_B = 52, 16, 14, 30


def chart_svg(game):
    """Both totals after each deal and the target line, as inline SVG (no script)."""
    n = len(game["deals"])
    target = game["rules"]["target"]
    totals = [(0, 0)] + [(d["total"]["NS"], d["total"]["EW"]) for d in game["deals"]]
    top = max([target] + [max(t) for t in totals])
    low = min([0] + [min(t) for t in totals])
    span = top - low or 1
    iw, ih = CHART_W - PAD_L - PAD_R, CHART_H - PAD_T - PAD_B

    def x(i):
        return PAD_L + iw * i / max(n, 1)

    def y(v):
        return PAD_T + ih * (top - v) / span

    out = ['<svg class="chart" data-game="%d" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d" role="img" aria-label="totals after each deal">'
           % (game["game"], CHART_W, CHART_H, CHART_W, CHART_H)]
    out.append('<rect class="plot" x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#c8ccd4"/>'
               % (PAD_L, PAD_T, iw, ih, PLOT_FILL))
    step = 500 if span > 2500 else 250 if span > 1000 else 100
    v = (low // step) * step
    while v <= top:
        if v >= low:
            out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#eceef2"/>' % (PAD_L, PAD_L + iw, y(v), y(v)))
            out.append('<text x="%d" y="%.1f" font-size="11" text-anchor="end" fill="#555">%d</text>'
                       % (PAD_L - 6, y(v) + 4, v))
        v += step
    for i in range(1, n + 1):
        if n <= 20 or i % 5 == 0 or i == n:
            out.append('<text x="%.1f" y="%d" font-size="11" text-anchor="middle" fill="#555">%d</text>'
                       % (x(i), CHART_H - 12, i))
    out.append('<line class="target" x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#d03030" stroke-width="1.5" '
               'stroke-dasharray="6 4"/>' % (PAD_L, PAD_L + iw, y(target), y(target)))
    out.append('<text x="%d" y="%.1f" font-size="11" fill="#d03030">%d</text>' % (PAD_L + 4, y(target) - 4, target))
    for k, t in enumerate(TEAMS):
        pts = " ".join("%.1f,%.1f" % (x(i), y(tot[k])) for i, tot in enumerate(totals))
        out.append('<polyline class="team-%s" points="%s" fill="none" stroke="%s" stroke-width="3" '
                   'stroke-linejoin="round"/>' % (t, pts, COLOURS[t]))
    out.append("</svg>")
    return "".join(out)


def contract(rec, names, texts):
    """The contract as the table says it: "Nous 100 \u2665", "Eux 90 SA x2", "Tous passent"."""
    if rec.get("bid") == "pass":
        return texts["pass"]
    bid = rec["bid"]
    bid_text = texts[bid] if bid in ("capot", "generale") else str(bid)
    trump = rec.get("trump")
    if trump in TRUMPS:
        trump_text = TRUMPS[trump]
    elif trump in ("NT", "AT"):
        trump_text = texts["k_" + trump]
    elif trump == "suit":
        trump_text = texts["suit"]
    else:
        trump_text = trump or ""
    s = " ".join(part for part in (names.get(rec["taker"], rec["taker"]), bid_text, trump_text) if part)
    return s + COINCHES.get(rec.get("coinche", 0), "")


def extras(rec, names, texts):
    """Belotes, melds by name with their team, the best-melds choice, capot: in the table's words."""
    parts = []
    for t in TEAMS:
        b = (rec.get("belote") or {}).get(t, 0)
        if b:
            parts.append("%s %s" % (texts["belote"], names[t]) + (" x%d" % b if b > 1 else ""))
        m = (rec.get("melds") or {}).get(t)
        if m:
            parts.append("%s: %s" % (names[t], ", ".join(texts.get(code, code) for code in m)))
    if rec.get("melds_to") in TEAMS:
        parts.append("%s: %s" % (texts["t_melds_to"].rstrip("?").strip(), names[rec["melds_to"]]))
    if rec.get("solo"):
        parts.append(texts["generale"])
    elif rec.get("tricks") == 8:
        parts.append(texts["all_tricks"])
    elif rec.get("tricks") == 0:
        parts.append(texts["def_all"])
    return "; ".join(parts)


# each row: its label on the scoreboard's statistics screen (ui/stats.py), the figure's key
STAT_ROWS = (("st_taken", "taken"), ("st_made", None), ("st_coinche", "coinche_won"),
             ("st_surcoinche", "surcoinche_won"), ("st_capots", "capots"), ("st_belotes", "belotes"),
             ("st_average", "average"), ("st_won", "won"))


def stats_table(st, names, texts):
    e = html.escape
    rows = ['<table class="stats"><tr><th></th>%s</tr>' % "".join(
        '<th style="color:%s">%s</th>' % (COLOURS[t], e(names[t])) for t in TEAMS)]
    for label, key in STAT_ROWS:
        cells = []
        for t in TEAMS:
            s = st[t]
            if key is None:
                v = "%d (%s)" % (s["made"], "-" if s["made_percent"] is None else "%d %%" % s["made_percent"])
            elif key == "won":
                v = "%d / %d" % (s["won"], s["games"])
            elif key in ("coinche_won", "surcoinche_won"):
                v = "%d / %d" % (s[key], s[key[:-4] + "d"])
            else:
                v = "-" if s[key] is None else str(s[key])
            cells.append("<td>%s</td>" % v)
        rows.append("<tr><th>%s</th>%s</tr>" % (e(texts[label]), "".join(cells)))
    rows.append("</table>")
    return "".join(rows)


CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px auto;max-width:980px;color:#1c2028;
background:#f6f7f9}
h1{margin:0 0 4px}section{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:16px 20px;margin:18px 0}
.score{font-size:28px;font-weight:700;margin:6px 0}.ns{color:#2f7dff}.ew{color:#ff7a1c}
table{border-collapse:collapse;font-size:14px;margin-top:10px}td,th{padding:3px 9px;border-bottom:1px solid #eceef2;
text-align:right}th{text-align:left}table.deals td:nth-child(3),table.deals td:nth-child(4){text-align:left}
.made{color:#178a3a;font-weight:700}.failed{color:#c62828;font-weight:700}.legend span{margin-right:14px}
.problems{color:#8a4b00}svg.chart{max-width:100%;height:auto;display:block;margin-top:8px}.small{color:#666;font-size:13px}
"""


def game_section(g):
    e = html.escape
    names = g["teams"]
    texts = words(g["language"])
    say = REPORT_WORDS[g["language"]]
    tot = g["total"]
    if g["winner"]:
        result = e(say["won"] % names[g["winner"]])
    elif g["current"]:
        result = e(say["in_progress"])
    else:
        result = e(say["not_finished"])
    opts = ", ".join("%s=%s" % (k, json.dumps(v)) for k, v in sorted(g["rules"]["options"].items()))
    concours = g.get("concours")
    heading = say["round_table"] % (concours["round"], concours["table"]) if concours else ""
    out = ['<section class="game" id="game-%d">' % g["game"],
           "<h2>%s</h2>" % e(say["game"] % g["game"] + heading + (say["current"] if g["current"] else "")),
           '<p class="small">%s</p>'
           % e(say["summary"] % (texts.get("p_" + g["rules"]["preset"], g["rules"]["preset"]), g["rules"]["target"],
                                 (" (" + opts + ")") if opts else "",
                                 texts.get("seat_" + g["first_dealer"], g["first_dealer"]), len(g["deals"]))),
           '<p class="score"><span class="ns">%s %d</span> &ndash; <span class="ew">%d %s</span> &nbsp;%s</p>'
           % (e(names["NS"]), tot["NS"], tot["EW"], e(names["EW"]), result),
           ('<p class="small">%s</p>' % e(say["round_teams"] % (
                concours["teams"]["NS"], concours["teams"]["EW"], grouped(concours["code"]) if concours["code"] else "-"))
            if concours else ""),
           '<p class="legend"><span class="ns">&#9644; %s</span><span class="ew">&#9644; %s</span>'
           '<span style="color:#d03030">- - %s</span></p>' % (e(names["NS"]), e(names["EW"]), e(say["target_line"])),
           chart_svg(g),
           '<table class="deals"><tr><th>#</th><th>%s</th><th>%s</th><th>%s</th><th>%s</th>'
           "<th>%s</th><th>%s</th><th>%s</th><th>%s %s</th><th>%s %s</th></tr>"
           % (e(texts["dealer"]), e(texts["t_bid"]), e(say["details"]), e(texts["t_points"]), e(texts["made"]), e(names["NS"]),
              e(names["EW"]), e(texts["total"]), e(names["NS"]), e(texts["total"]), e(names["EW"]))]
    for d in g["deals"]:
        r = d["record"]
        if d["made"] is None or r.get("bid") == "pass":
            mark = ""
        elif d["made"]:
            mark = '<span class="made" title="made">&#10004; %s</span>' % e(texts["made"])
        else:
            mark = '<span class="failed" title="failed">&#10008; %s</span>' % e(texts["failed"])
        pts = "" if r.get("bid") == "pass" else str(r.get("points", ""))
        out.append("<tr><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
                   "<td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>"
                   % (d["deal"], e(texts.get("seat_" + d["dealer"], d["dealer"])), e(contract(r, names, texts)), e(extras(r, names, texts)), pts, mark, d["score"]["NS"],
                      d["score"]["EW"], d["total"]["NS"], d["total"]["EW"]))
    out.append("</table>")
    out.append("<h3>%s</h3>" % e(texts["m_stats"]) + stats_table(g["stats"], names, texts))
    out.append("</section>")
    return "\n".join(out)


def export_time():
    """Now, or SOURCE_DATE_EPOCH when set (reproducible reports, e.g. the one in docs/)."""
    fixed = os.environ.get("SOURCE_DATE_EPOCH")
    return time.gmtime(int(fixed)) if fixed and fixed.isdigit() else time.localtime()


def write_html(path, games, problems, source):
    e = html.escape
    language = games[-1]["language"] if games else LANGS[0]
    say = REPORT_WORDS[language]
    parts = ['<!DOCTYPE html><html lang="%s"><head><meta charset="utf-8">' % language,
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             "<title>%s</title><style>%s</style></head><body>" % (e(say["title"]), CSS),
             "<h1>%s</h1>" % e(say["title"]),
             '<p class="small">%s</p>' % e(say["source"] % (len(games), source,
                                                             time.strftime("%Y-%m-%d %H:%M", export_time())))]
    if problems:
        parts.append('<section class="problems"><h2>%s</h2><ul>%s</ul></section>'
                     % (e(say["problems"]), "".join("<li>%s</li>" % e(p) for p in problems)))
    if games:
        names = games[-1]["teams"]
        parts.append('<section class="evening"><h2>%s</h2>%s</section>' % (e(say["evening"]), stats_table(evening(games), names, words(language))))
    else:
        parts.append("<section><p>%s</p></section>" % e(say["none"]))
    for g in games:
        parts.append(game_section(g))
    parts.append("</body></html>\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(parts))


def export(items, out_dir, source):
    """Write the three files for a dump; returns (games, problems)."""
    games, problems = collect(items)
    os.makedirs(out_dir, exist_ok=True)
    write_json(os.path.join(out_dir, "games.json"), games, problems)
    write_csv(os.path.join(out_dir, "deals.csv"), games)
    write_html(os.path.join(out_dir, "report.html"), games, problems, source)
    return games, problems


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m host_tools.device.export", description=__doc__.split("\n\n")[0])
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--flash", help="a simulator flash image (read from a copy)")
    src.add_argument("--port", help="a device on this serial port (mpremote), e.g. /dev/ttyACM0; 'auto' for the first")
    p.add_argument("--out", default="export", help="folder for games.json, deals.csv, report.html (default: export)")
    p.add_argument("--no-restart", action="store_true", help="leave the device stopped after reading it")
    a = p.parse_args(argv)
    start = time.monotonic()
    try:
        if a.flash:
            items = read_flash(a.flash)
            source = os.path.basename(a.flash)
        else:
            items = read_device(None if a.port == "auto" else a.port, restart=not a.no_restart)
            source = "the device" + ("" if a.port == "auto" else " on " + a.port)
    except ExportError as e:
        sys.stderr.write("export: %s\n" % e)
        return 2
    games, problems = export(items, a.out, source)
    for msg in problems:
        sys.stderr.write("export: %s\n" % msg)
    sys.stdout.write("%d games, %d deals -> %s (games.json, deals.csv, report.html) in %.1f s\n"
                     % (len(games), sum(len(g["deals"]) for g in games), a.out, time.monotonic() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
