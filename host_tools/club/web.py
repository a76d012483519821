"""The pages on the club's own network: the projector page (read-only, updates itself
from /projector.json), the phone page (a team finds its own line), the admin page behind
the organiser's password and its paper (slips per table, the draw by name for the door,
the final ranking with the prizes). Flask renders them, waitress serves them; every
asset is in host_tools/club/static, nothing is fetched from the internet. Every page
speaks the event's language (host_tools/club/words.py).

The password is set with `python -m host_tools.club --db FILE password` (or the
CLUB_PASSWORD environment variable when `serve` starts) and kept hashed (scrypt) in the
event file; without one the admin page stays closed and says how to set it. Sessions
live in this process only (a random id in the cookie, nothing derived from the file):
logging out ends one, a new password ends them all, a restart ends them all. Wrong
passwords are logged and make their address wait longer after each one.
"""
import datetime
import functools
import json
import logging
import os
import re
import secrets
import socket
import threading
import time
import unicodedata

from flask import Flask, abort, make_response, redirect, render_template, request, url_for

from host_tools.club.errors import ClubError
from host_tools.club.service import Club, make_event
from host_tools.club.standings import RANKINGS
from host_tools.club.words import LANG_NAMES, LANGS, Words

from coinche.rule_options import PRESET_NAMES
from coinche.rules import RulesError
from host_tools.common.rules_help import UsageError, parse_setting

REFRESH_SECONDS = 10
COOKIE = "club_admin"
LOGIN_DELAY = 1.0  # seconds an address waits after its second wrong password in a row; doubles with each one
LOGIN_DELAY_MOST = 300.0
PROBLEMS = {"wrong_setup": "problem_wrong_setup", "refused_deal": "problem_refused_deal"}
log = logging.getLogger("host_tools.club.web")


class Sessions:
    """The signed-in browsers: id -> the session's form token and the password hash it
    signed in with. A session whose password is no longer the file's is over."""

    def __init__(self):
        self.lock = threading.Lock()
        self.open = {}

    def start(self, password_hash):
        sid = secrets.token_urlsafe(32)
        with self.lock:
            self.open[sid] = {"token": secrets.token_hex(16), "password": password_hash}
        return sid

    def get(self, sid, password_hash):
        with self.lock:
            found = self.open.get(sid or "")
            if found is not None and found["password"] != password_hash:
                del self.open[sid]
                found = None
            return found

    def end(self, sid):
        with self.lock:
            self.open.pop(sid or "", None)

    def end_all_but(self, sid, password_hash):
        with self.lock:
            self.open = {k: dict(v, password=password_hash) for k, v in self.open.items() if k == sid}


class Throttle:
    """Wrong passwords per address: one typo is free; after the n-th wrong one in a row
    (n >= 2) the address waits delay * 2^(n-2) seconds (at most `most`) before its next
    try is even checked."""

    def __init__(self, delay=LOGIN_DELAY, most=LOGIN_DELAY_MOST):
        self.delay, self.most = delay, most
        self.lock = threading.Lock()
        self.failures = {}  # address -> (wrong in a row, monotonic time of the next allowed try)

    def wait(self, address):
        with self.lock:
            count, until = self.failures.get(address, (0, 0.0))
        return max(0.0, until - time.monotonic())

    def failed(self, address):
        with self.lock:
            count = self.failures.get(address, (0, 0.0))[0] + 1
            pause = 0.0 if count == 1 else min(self.most, self.delay * 2 ** (count - 2))
            self.failures[address] = (count, time.monotonic() + pause)
        return count, pause

    def passed(self, address):
        with self.lock:
            self.failures.pop(address, None)


def local_time(text):
    """A stored UTC time ("2026-12-01T20:29:58Z") in this machine's local time."""
    try:
        at = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
    except (TypeError, ValueError):
        return text
    return at.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def event_lang(state):
    event = state.get("event") or {}
    lang = event.get("lang")
    return lang if lang in LANGS else "fr"


def fold(text):
    """A name as the phone page compares it: no case, no accents."""
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c))


def progress_of(state):
    """{"round", "filed", "tables"} of the round in progress, None when every drawn round is complete."""
    if "progress" in state:
        return state["progress"]
    rounds = state.get("rounds") or []
    if not rounds:
        return None
    last = rounds[-1]
    filed = sum(1 for t in last["tables"] if t.get("result"))
    if filed == len(last["tables"]):
        return None
    return {"round": last["round"], "filed": filed, "tables": len(last["tables"])}


def public_state(state):
    """/state.json: what anyone on the network may read; corrections keep their figures
    and time, not who made them or why."""
    out = dict(state)
    if "corrections" in out:
        out["corrections"] = [{k: v for k, v in c.items() if k not in ("why", "who")} for c in out["corrections"]]
    out.pop("team_actions", None)
    return out


def public_live(status):
    """/live.json: the tables' rows without the devices' ids."""
    out = dict(status)
    out["tables"] = [{k: v for k, v in row.items() if k != "device"} for row in status.get("tables", [])]
    return out


def problem_text(w, row):
    problem = row.get("problem")
    if not problem:
        return None
    key = PROBLEMS.get(problem)
    if key:
        return getattr(w, key).format(table=row.get("table"))
    return w.problem_other.format(table=row.get("table"), problem=str(problem).replace("_", " "))


def seats_of(t):
    """An individual event's table: the pair numbers its result code holds and the
    players seat by seat (North, South; East, West); nothing for a pairs event."""
    if "pairs" not in t:
        return {}
    return {"pairs": t["pairs"], "ns_names": t["ns_names"], "ew_names": t["ew_names"]}


def projector_data(state, status, w):
    """What the projector and phone pages draw (the same for every visitor)."""
    if not state.get("event"):
        return {"event": None, "lang": w.lang}
    event = state["event"]
    rounds = state.get("rounds") or []
    current = rounds[-1] if rounds else None
    live = {}
    problems = []
    link = None
    if status is not None:
        rows = status.get("tables", [])
        live = {row.get("table"): row for row in rows if current and row.get("round") == current["round"]}
        problems = [text for text in (problem_text(w, row) for row in rows) if text]
        counts = status.get("counts") or {}
        link = {"connected": bool(status.get("connected")), "refused": counts.get("refused", 0),
                "problems": problems}
    tables = []
    if current:
        for t in current["tables"]:
            row = live.get(t["table"])
            tables.append({"table": t["table"], "NS": t["NS"], "EW": t["EW"], "ns_name": t["ns_name"],
                           "ew_name": t["ew_name"],
                           "result": {"NS": t["result"]["NS"], "EW": t["result"]["EW"]} if t.get("result") else None,
                           "forfeit": bool(t.get("forfeit")),
                           "live": {"counted": row.get("counted"), "deals": row.get("deals"),
                                    "total": row.get("total")} if row and not t.get("result") else None,
                           "problem": problem_text(w, row) if row else None,
                           **seats_of(t)})
    clock = state.get("clock")
    if clock and current and clock["round"] is not None and clock["round"] != current["round"]:
        # a new round drawn, its clock not started yet: the last round's "end" is not this one's
        clock = dict(clock, round=None, minutes=event["minutes"], running=False, paused=False,
                     left_seconds=event["minutes"] * 60, warning=None)
    key = "player" if event.get("format") == "individual" else "team"
    ranking = [{"rank": r["rank"], key: r[key], "name": r["name"], "played": r["played"], "won": r["won"],
                "points_for": r["points_for"], "points_against": r["points_against"],
                "match_points": r["match_points"], "withdrawn": bool(r.get("withdrawn"))}
               for r in state["standings"]["ranking"]]
    return {"lang": w.lang,
            "event": {"name": event["name"], "rounds": event["rounds"], "deals": event["deals"],
                      "target": event["target"], "ranking": event["ranking"],
                      "format": event.get("format") or "pairs", "minutes": event.get("minutes")},
            "standings": {"round": state["standings"]["round"], "ranking": ranking},
            "current": {"round": current["round"], "tables": tables, "bye": current.get("bye_names", [])}
            if current else None,
            "progress": progress_of(state), "link": link, "clock": clock}


def qr_svg(url):
    import segno
    return segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff", omitsize=True)


# the service's refusals that a page says in its own words: (pattern, word)
ERRORS = (
    (r"table (?P<table>\d+) of round (?P<round>\d+) already has a result \(NS (?P<ns>\d+) - EW (?P<ew>\d+)\)",
     "err_has_result"),
    (r"a correction needs its reason", "err_why"),
    (r"give either --deals", "err_length"),
    (r"the code is for teams (?P<a>\d+) and (?P<b>\d+), but table (?P<table>\d+) of round (?P<round>\d+) is team "
     r"(?P<ns>\d+) \(NS\) against (?P<ew>\d+)", "err_wrong_table"),
    (r"round (?P<round>\d+) still waits for the results of tables? (?P<tables>[\d, ]+)", "err_waiting"),
    (r"a draw needs at least two teams", "err_two_teams"),
    (r"there is no team (?P<team>\d+)", "err_no_team"),
    (r"there is already a team named (?P<name>.*)$", "err_team_name_taken"),
    (r"team (?P<team>\d+) \((?P<name>.*)\) has already withdrawn", "err_already_withdrawn"),
    (r"team (?P<team>\d+) is already named (?P<name>.*)$", "err_already_named"),
    (r"a draw needs at least four players", "err_four_players"),
    (r"there is no player (?P<team>\d+)", "err_no_player"),
    (r"there is already a player named (?P<name>.*)$", "err_player_name_taken"),
    (r"player (?P<team>\d+) \((?P<name>.*)\) has already withdrawn", "err_player_withdrawn"),
    (r"player (?P<team>\d+) is already named (?P<name>.*)$", "err_already_named"),
    (r"rounds are not timed", "err_untimed"),
    (r"draw the round, then start its clock", "err_clock_no_draw"),
    (r"round (?P<round>\d+)'s clock is already started", "err_clock_started"),
    (r"the clock is not started", "err_clock_stopped"),
    (r"the clock is already paused", "err_clock_paused"),
    (r"the clock is running: there is nothing to resume", "err_clock_running"),
    (r"add takes a whole number of minutes", "err_clock_minutes"),
    (r"the round lasts (?P<total>\d+) minutes: (?P<minutes>\d+) cannot be removed", "err_clock_remove"),
    (r"no round is drawn", "err_nothing_drawn"),
    (r"round (?P<round>\d+) already has the result of tables? (?P<tables>[\d, ]+):", "err_undo_results"),
    (r"a swap needs two different teams", "err_swap_same"),
    (r"team (?P<team>\d+) \((?P<name>.*)\) has withdrawn: it cannot be moved", "err_swap_withdrawn"),
    (r"team (?P<team>\d+) \((?P<name>.*)\) is not in round (?P<round>\d+)", "err_swap_round"),
    (r"table (?P<table>\d+) of round (?P<round>\d+) already has its result: its teams stay", "err_swap_filed"),
    (r"table (?P<table>\d+) of round (?P<round>\d+) is a forfeit: a (?:team|player) withdrew before its result",
     "err_forfeit"),
    (r"all (?P<rounds>\d+) rounds of the event are drawn", "err_all_drawn"),
    (r"round (?P<round>\d+) has not been drawn", "err_round_not_drawn"),
    (r"round (?P<round>\d+) has no table (?P<table>\d+) \(tables 1 to (?P<tables>\d+)\)", "err_no_table"),
    (r"name cannot be empty", "err_empty_name"),
    (r"cannot hold a control or direction character", "err_control"),
    (r"name is at most (?P<most>\d+) characters, got (?P<got>\d+)", "err_long_name"),
    (r"the admin password needs at least (?P<least>\d+) characters", "err_short_password"),
)

# why a result code is refused (coinche.result_code's words)
CODE_ERRORS = (
    (r"the check digit does not match", "code_check"),
    (r"a result code has (?P<need>\d+) digits, got (?P<got>\d+)", "code_length"),
    (r"a result code has digits only", "code_digits"),
)


def _known(w, message, table):
    for pattern, key in table:
        found = re.search(pattern, message)
        if found:
            return getattr(w, key).format(**found.groupdict())
    return None


def page_error(w, message):
    """A refusal in the page's words: the known ones translated, the others without the
    command line's syntax (options, `commands`)."""
    code = re.match(r"result code (?P<code>[^:]*): (?P<why>.*)", message)
    if code:
        why = _known(w, code.group("why"), CODE_ERRORS) or code.group("why")
        return w.err_code.format(code=code.group("code"), why=why)
    known = _known(w, message, ERRORS)
    if known:
        return known
    message = re.sub(r"\s*\((?:[^()]*?)(?:--|`)[^()]*\)", "", message)
    message = re.sub(r":?\s*(?:use|enter it with|create it with|create the event with)?\s*`[^`]*`", "", message)
    message = re.sub(r"\s*--[a-z-]+(?: [A-Z]+)?", "", message)
    return w.err_refused.format(why=message.strip())


class FormError(ClubError):
    """A field of a form, already in the page's words."""


def create_app(path, refresh=REFRESH_SECONDS, link=None, phone_url=None, login_delay=LOGIN_DELAY):
    """The pages of the event file at path; refresh: seconds between the projector's
    updates (and its page turns); link: the organiser's link service
    (link_service.LinkService) when the tables report live; phone_url: the phone page's
    address the projector's QR code gives (default: this request's host)."""
    app = Flask(__name__, static_folder="static", template_folder="templates")
    sessions = Sessions()
    throttle = Throttle(login_delay)
    app.jinja_env.filters["local"] = local_time

    def club():
        return Club(path)

    def read_state():
        """(the event's state with its prizes, the stored password's hash)."""
        with club() as c:
            state = c.state()
            if state.get("event"):
                prizes = c.store.meta("prizes")
                state["prizes"] = json.loads(prizes) if prizes else []
            return state, c.store.meta("password")

    def stored_password():
        with club() as c:
            return c.store.meta("password")

    def current_session():
        return sessions.get(request.cookies.get(COOKIE), stored_password())

    def render(name, state, status=200, **values):
        w = Words(event_lang(state))
        return render_template(name, state=state, w=w, lang=w.lang, **values), status

    def admin_only(view):
        @functools.wraps(view)
        def wrapped(*args, **kwargs):
            found = current_session()
            if found is None:
                return redirect(url_for("login"))
            if request.method == "POST" and request.form.get("token") != found["token"]:
                abort(403)
            request.environ["club.session"] = found
            return view(*args, **kwargs)
        return wrapped

    app.jinja_env.globals["form_token"] = lambda: request.environ.get("club.session", {}).get("token", "")

    @app.route("/")
    def index():
        return redirect(url_for("projector"))

    def data():
        with club() as c:
            state = c.state()
        return projector_data(state, link.status() if link is not None else None, Words(event_lang(state)))

    @app.route("/projector")
    def projector():
        """The tables' standings in columns of rows read across a hall; pages turn only
        when the rows do not fit one screen. The script (static/projector.js) fetches
        /projector.json every `refresh` seconds and keeps trying after a failure."""
        first = data()
        w = Words(first["lang"])
        url = phone_url or request.url_root.rstrip("/") + url_for("phone")
        return render_template("projector.html", w=w, lang=w.lang, first=first, refresh=refresh, qr=qr_svg(url),
                               phone_url=url, script_words=w.script())

    @app.route("/phone")
    def phone():
        first = data()
        w = Words(first["lang"])
        return render_template("phone.html", w=w, lang=w.lang, first=first, refresh=max(refresh, 15),
                               script_words=w.script())

    @app.route("/projector.json")
    def projector_json():
        response = make_response(data())
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.route("/live.json")
    def live_json():
        """The tables as they report, deal by deal (the link's replay of their actions)."""
        if link is None:
            return {"connected": False, "tables": [], "counts": {}, "refused": {}}
        return public_live(link.status())

    @app.route("/state.json")
    def state_json():
        with club() as c:
            return public_state(c.state())

    @app.route("/admin/login", methods=["GET", "POST"])
    def login():
        state, password = read_state()
        if password is None:
            return render("login.html", state, 503, closed=True)
        if request.method == "POST":
            address = request.remote_addr or "?"
            wait = throttle.wait(address)
            if wait > 0:
                log.warning("admin sign-in from %s refused: %.1f s to wait after wrong passwords", address, wait)
                return render("login.html", state, 429, closed=False, wait=int(wait) + 1)
            with club() as c:
                right = c.check_password(request.form.get("password", ""))
            if right:
                throttle.passed(address)
                response = redirect(url_for("admin"))
                response.set_cookie(COOKIE, sessions.start(password), httponly=True, samesite="Strict")
                return response
            count, pause = throttle.failed(address)
            log.warning("wrong admin password from %s (%d in a row; next try in %.1f s)", address, count, pause)
            return render("login.html", state, 401, closed=False, wrong=True)
        return render("login.html", state, closed=False)

    @app.route("/admin/logout", methods=["POST"])
    @admin_only
    def logout():
        sessions.end(request.cookies.get(COOKIE))
        response = redirect(url_for("projector"))
        response.delete_cookie(COOKIE)
        return response

    def admin_page(message=None, error=None, status=200, form=None):
        state, _ = read_state()
        if state.get("event"):
            state["progress"] = progress_of(state)
            if state["progress"]:
                with club() as c:
                    state["provisional"] = c.standings(after=state["progress"]["round"])
        admin_status = link.admin_status() if link is not None else None
        w = Words(event_lang(state))
        problems = {}
        if admin_status is not None:
            for row in admin_status.get("tables", []):
                said = [text for text in (problem_text(w, row),) if text]
                if row.get("refused"):
                    said.append(w.refused_n.format(count=row["refused"]))
                problems[row.get("device")] = " · ".join(said)
        return render("admin.html", state, status, message=message, error=error, presets=PRESET_NAMES,
                      rankings=RANKINGS, link=admin_status, problems=problems, form=form or {},
                      lang_names=LANG_NAMES, langs=LANGS)

    @app.route("/admin")
    @admin_only
    def admin():
        return admin_page(message=request.args.get("done"))

    def fields(w):
        """The forms' fields as the page names them."""
        return {"round": w.round, "table": w.table, "ns": w.ns, "ew": w.ew, "rounds": w.rounds,
                 "length_value": w.length_deals, "bye_score": w.bye_score, "bye_match_points": w.bye_match_points,
                 "mp_win": w.mp_win, "mp_draw": w.mp_draw, "mp_loss": w.mp_loss, "seed": w.seed,
                 "team": w.team_number, "a": w.team_number, "b": w.team_number, "minutes": w.minutes_per_round}

    def _int(w, name, default=None):
        text = request.form.get(name, "").strip()
        if not text:
            if default is not None:
                return default
            raise FormError(w.err_missing.format(field=fields(w).get(name, name)))
        try:
            return int(text)
        except ValueError:
            raise FormError(w.err_number.format(field=fields(w).get(name, name), text=text))

    def _event_from_form(w):
        options = {}
        for line in request.form.get("options", "").splitlines():
            if line.strip():
                try:
                    key, value = parse_setting(line.strip(), "options")
                except (UsageError, RulesError) as e:
                    raise ClubError(str(e))
                options[key] = value
        length = request.form.get("length", "deals")
        amount = None if length == "none" else _int(w, "length_value")
        timed = request.form.get("minutes", "").strip()
        seed = request.form.get("seed", "").strip()
        bye_mp = request.form.get("bye_match_points", "").strip()
        lang = request.form.get("lang", "fr")
        if lang not in LANGS:
            raise FormError(w.err_refused.format(why=lang))
        return make_event(request.form.get("name", ""), _int(w, "rounds"), request.form.get("preset", ""), options,
                          deals=amount if length == "deals" else None, target=amount if length == "target" else None,
                          ranking=request.form.get("ranking", "total"),
                          seed=_int(w, "seed") if seed else None, bye_score=_int(w, "bye_score", 0),
                          match_points=(_int(w, "mp_win", 2), _int(w, "mp_draw", 1), _int(w, "mp_loss", 0)),
                          bye_match_points=_int(w, "bye_match_points") if bye_mp else None,
                          late_as_bye=bool(request.form.get("late_as_bye")), lang=lang,
                          format=request.form.get("format", "pairs"), minutes=_int(w, "minutes") if timed else None)

    def _lines(name):
        return [n for n in request.form.get(name, "").splitlines() if n.strip()]

    def act_new(c, w):
        c.create_event(_event_from_form(w))
        return w.done_new

    def act_teams(c, w):
        kind = c.kind()
        added = c.add_teams(_lines("names"), who="admin page", kind=kind)
        return (w.done_players if kind == "player" else w.done_teams).format(count=len(added))

    def act_draw(c, w):
        return w.done_draw.format(round=c.draw()["round"])

    def act_code(c, w):
        return w.done_result.format(**c.result_from_code(request.form.get("code", "")))

    def act_sheet(c, w):
        return w.done_result.format(**c.result(_int(w, "round"), _int(w, "table"), _int(w, "ns"), _int(w, "ew")))

    def act_correct(c, w):
        done = c.correct(_int(w, "round"), _int(w, "table"), _int(w, "ns"), _int(w, "ew"),
                         request.form.get("why", ""), "admin page")
        return w.done_correct.format(**done)

    def act_prizes(c, w):
        prizes = [" ".join(line.split())[:80] for line in request.form.get("prizes", "").splitlines()]
        while prizes and not prizes[-1]:
            prizes.pop()
        with c.store.transaction():
            c.store.set_meta("prizes", json.dumps(prizes))
        return w.done_prizes

    def act_password(c, w):
        c.set_password(request.form.get("password", ""))
        sessions.end_all_but(request.cookies.get(COOKIE), c.store.meta("password"))
        return w.done_password

    def act_withdraw(c, w):
        number = _int(w, "team")
        kind = c.kind()
        c.withdraw_team(number, why=request.form.get("why", "").strip() or None, who="admin page", kind=kind)
        return (w.done_withdraw_player if kind == "player" else w.done_withdraw).format(team=number)

    def act_rename(c, w):
        number = _int(w, "team")
        kind = c.kind()
        c.rename_team(number, request.form.get("name", ""), who="admin page", kind=kind)
        return (w.done_rename_player if kind == "player" else w.done_rename).format(team=number)

    def act_undo(c, w):
        return w.done_undo.format(round=c.undo_draw(who="admin page")["round"])

    def act_swap(c, w):
        a, b = _int(w, "a"), _int(w, "b")
        c.swap_teams(a, b, who="admin page")
        return w.done_swap.format(a=a, b=b)

    def act_clock_start(c, w):
        return w.done_clock_start.format(round=c.clock("start")["round"])

    def act_clock_pause(c, w):
        c.clock("pause")
        return w.done_clock_pause

    def act_clock_resume(c, w):
        c.clock("resume")
        return w.done_clock_resume

    def act_clock_add(c, w):
        minutes = _int(w, "minutes")
        return w.done_clock_add.format(minutes=minutes, total=c.clock("add", minutes)["minutes"])

    ACTIONS = {"new": act_new, "teams": act_teams, "draw": act_draw, "code": act_code, "sheet": act_sheet,
               "correct": act_correct, "prizes": act_prizes, "password": act_password, "withdraw": act_withdraw,
               "rename": act_rename, "undo": act_undo, "swap": act_swap, "clock-start": act_clock_start,
               "clock-pause": act_clock_pause, "clock-resume": act_clock_resume, "clock-add": act_clock_add}

    @app.route("/admin/<action>", methods=["POST"])
    @admin_only
    def act(action):
        if action not in ACTIONS:
            abort(404)
        with club() as c:
            w = Words(event_lang({"event": c.event_summary()} if c.store.event() else {}))
            if action == "new" and c.store.event() is None:
                w = Words(request.form.get("lang", "fr"))
            try:
                done = ACTIONS[action](c, w)
            except FormError as e:
                error = str(e)
            except ClubError as e:
                error = page_error(w, str(e))
            else:
                return redirect(url_for("admin", done=done))
        form = {k: v for k, v in request.form.items() if k != "token"}
        return admin_page(error=error, status=400, form={action: form})

    def one_round(state, number):
        rounds = [r for r in state.get("rounds", []) if r["round"] == number]
        if not rounds:
            abort(404)
        return rounds[0]

    @app.route("/admin/slips/<int:number>")
    @admin_only
    def slips(number):
        """The round's slips, two to an A4 page, to cut and hand to each table."""
        state, _ = read_state()
        r = one_round(state, number)
        deals = state["event"]["deals"] or 16
        # two slips to an A4 page: the deal rows share what the slip's other parts leave
        columns = 1 if deals <= 16 else 2
        rows = -(-deals // columns)
        row_mm = max(3.6, min(6.0, 66.0 / rows))
        return render("slips.html", state, round=r, deals=deals, columns=columns, rows=rows, row_mm=row_mm)

    @app.route("/admin/sheet/<int:number>")
    @admin_only
    def sheet(number):
        return redirect(url_for("slips", number=number))

    @app.route("/admin/door/<int:number>")
    @admin_only
    def door(number):
        """The draw by team name, for the door: each team finds where it sits."""
        state, _ = read_state()
        r = one_round(state, number)
        seats = []
        for t in r["tables"]:
            if "pairs" in t:  # an individual event: each player, seat by seat, with their partner
                for side, names, seat_keys in (("NS", t["ns_names"], ("seat_n", "seat_s")),
                                               ("EW", t["ew_names"], ("seat_e", "seat_w"))):
                    for i, (number, name) in enumerate(zip(t[side], names)):
                        seats.append({"team": number, "name": name, "table": t["table"], "seat": seat_keys[i],
                                      "partner": names[1 - i]})
                continue
            seats.append({"team": t["NS"], "name": t["ns_name"], "table": t["table"], "seat": "ns",
                          "opponent": t["ew_name"]})
            seats.append({"team": t["EW"], "name": t["ew_name"], "table": t["table"], "seat": "ew",
                          "opponent": t["ns_name"]})
        for team, name in zip(r["bye"], r["bye_names"]):
            seats.append({"team": team, "name": name, "table": None, "seat": None, "opponent": None})
        seats.sort(key=lambda s: (fold(s["name"]), s["team"]))
        return render("door.html", state, round=r, seats=seats)

    @app.route("/admin/ranking")
    @admin_only
    def ranking():
        """The final ranking (or the standings so far) with the prize typed for each rank."""
        state, _ = read_state()
        if not state.get("event"):
            abort(404)
        return render("ranking.html", state)

    @app.errorhandler(404)
    def not_found(e):
        try:
            with club() as c:
                lang = event_lang({"event": c.event_summary()} if c.store.event() else {})
        except ClubError:
            lang = "fr"
        return "<!doctype html><title>404</title><p>%s</p>" % Words(lang).err_not_found, 404

    return app


def addresses(host, port):
    """The addresses to print: the host itself, or this machine's when it listens on all."""
    hosts = [host]
    if host in ("0.0.0.0", ""):
        hosts = ["127.0.0.1"]
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            probe.connect(("10.255.255.255", 1))  # UDP: picks the outgoing address, sends nothing
            mine = probe.getsockname()[0]
            if mine not in hosts:
                hosts.append(mine)
        except OSError:
            pass
        finally:
            probe.close()
    return ["http://%s:%d" % (h, port) for h in hosts]


def serve(path, host, port, out, refresh=REFRESH_SECONDS, broker=None):
    """The pages, and the link service when the event has a broker (`broker` was run) or broker is given."""
    from waitress import create_server
    with Club(path, create=True) as c:
        if os.environ.get("CLUB_PASSWORD"):
            c.set_password(os.environ["CLUB_PASSWORD"])
            out.write("admin password set from CLUB_PASSWORD\n")
        closed = not c.has_password()
        linked = broker or c.store.meta("link_broker")
    link = None
    if linked:
        from host_tools.club.link_service import LinkService
        link = LinkService(path, broker)
        link.start()
        out.write("link: the tables' broker at %s:%d\n" % (link.host, link.port))
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s: %(message)s")
    holder = {}

    def app(environ, start_response):
        return holder["app"](environ, start_response)
    server = create_server(app, host=host, port=port, threads=4)
    real_port = int(server.effective_port)
    bases = addresses(host, real_port)
    holder["app"] = create_app(path, refresh, link, phone_url=bases[-1] + "/phone")
    for base in bases:
        out.write("projector: %s/projector\nadmin:     %s/admin\nphones:    %s/phone\n" % (base, base, base))
    if closed:
        out.write("the admin page is closed until a password is set: "
                  "python -m host_tools.club --db %s password\n" % path)
    out.flush()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        if link is not None:
            link.stop()
