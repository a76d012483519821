"""The pages on the club's own network: the projector page (read-only, refreshes by
itself) and the admin page behind the organiser's password. Flask renders them,
waitress serves them; every asset is in host_tools/club/static, nothing is fetched
from the internet.

The password is set with `python -m host_tools.club --db FILE password` (or the
CLUB_PASSWORD environment variable when `serve` starts) and kept hashed (scrypt) in
the event file; without one the admin page stays closed and says how to set it.
Sessions are signed with a secret kept in the event file; every form carries a
token of the session, so another site cannot post to the admin page.
"""
import functools
import os
import secrets
import socket

from flask import Flask, abort, redirect, render_template, request, session, url_for

from host_tools.club.errors import ClubError
from host_tools.club.service import Club, make_event
from host_tools.club.standings import RANKINGS

from coinche.rules import PRESET_NAMES, RulesError
from host_tools.common.rules_help import UsageError, parse_setting

REFRESH_SECONDS = 10
PROJECTOR_ROWS = 10


def _page(rows, page):
    """(the rows of page `page`, counted round the pages, its number from 1, the pages)."""
    pages = max(1, -(-len(rows) // PROJECTOR_ROWS))
    index = page % pages
    return rows[index * PROJECTOR_ROWS:(index + 1) * PROJECTOR_ROWS], index + 1, pages


def _secret(path):
    with Club(path, create=True) as club:
        secret = club.store.meta("secret")
        if secret is None:
            secret = secrets.token_hex(32)
            with club.store.transaction():
                club.store.set_meta("secret", secret)
        return secret


def create_app(path, refresh=REFRESH_SECONDS, link=None):
    """The pages of the event file at path; refresh: seconds between the projector's reloads;
    link: the organiser's link service (link_service.LinkService) when the tables report live."""
    app = Flask(__name__, static_folder="static", template_folder="templates")
    app.config["SECRET_KEY"] = _secret(path)
    app.config["SESSION_COOKIE_SAMESITE"] = "Strict"
    app.config["SESSION_COOKIE_HTTPONLY"] = True

    def club():
        return Club(path)

    def token():
        if "token" not in session:
            session["token"] = secrets.token_hex(16)
        return session["token"]

    app.jinja_env.globals["form_token"] = token

    def admin_only(view):
        @functools.wraps(view)
        def wrapped(*args, **kwargs):
            if not session.get("admin"):
                return redirect(url_for("login"))
            if request.method == "POST" and request.form.get("token") != session.get("token"):
                abort(403)
            return view(*args, **kwargs)
        return wrapped

    @app.route("/")
    def index():
        return redirect(url_for("projector"))

    @app.route("/projector")
    def projector():
        """Ten rows a column, in type read across a hall: longer lists are shown a page
        at a time, the next page at each reload (?page= counts the reloads)."""
        with club() as c:
            state = c.state()
        current = state["rounds"][-1] if state.get("rounds") else None
        try:
            page = max(0, int(request.args.get("page", "0")))
        except ValueError:
            page = 0
        tables = (current["tables"] + [{"bye": name} for name in current["bye_names"]]) if current else []
        ranking = state["standings"]["ranking"] if state.get("event") else []
        live = {}
        if link is not None and current:
            # a table whose set-up is wrong is shown whatever round it says it plays
            live = {row["table"]: row for row in link.status()["tables"]
                    if row["round"] == current["round"] or row.get("problem")}
        return render_template("projector.html", state=state, current=current, refresh=refresh, live=live,
                               tables=_page(tables, page), ranking=_page(ranking, page), next_page=page + 1)

    @app.route("/live.json")
    def live_json():
        """The tables as they report, deal by deal (the link's replay of their actions)."""
        if link is None:
            return {"connected": False, "tables": [], "counts": {}, "refused": {}}
        return link.status()

    @app.route("/state.json")
    def state_json():
        with club() as c:
            return c.state()

    @app.route("/admin/login", methods=["GET", "POST"])
    def login():
        with club() as c:
            has_password = c.has_password()
            if not has_password:
                return render_template("login.html", closed=True, path=path), 503
            if request.method == "POST":
                if c.check_password(request.form.get("password", "")):
                    session.clear()
                    session["admin"] = True
                    token()
                    return redirect(url_for("admin"))
                return render_template("login.html", closed=False, wrong=True), 401
        return render_template("login.html", closed=False, wrong=False)

    @app.route("/admin/logout", methods=["POST"])
    @admin_only
    def logout():
        session.clear()
        return redirect(url_for("projector"))

    def admin_page(message=None, error=None, status=200):
        with club() as c:
            state = c.state()
        return render_template("admin.html", state=state, message=message, error=error, presets=PRESET_NAMES,
                               rankings=RANKINGS, link=link.admin_status() if link is not None else None), status

    @app.route("/admin")
    @admin_only
    def admin():
        return admin_page(message=request.args.get("done"))

    def _int(name, default=None):
        text = request.form.get(name, "").strip()
        if not text:
            if default is not None:
                return default
            raise ClubError("%s is missing" % name.replace("_", " "))
        try:
            return int(text)
        except ValueError:
            raise ClubError("%s must be a whole number, got %r" % (name.replace("_", " "), text))

    def _event_from_form():
        options = {}
        for line in request.form.get("options", "").splitlines():
            if line.strip():
                try:
                    key, value = parse_setting(line.strip(), "options")
                except (UsageError, RulesError) as e:
                    raise ClubError(str(e))
                options[key] = value
        length = request.form.get("length", "deals")
        amount = _int("length_value")
        seed = request.form.get("seed", "").strip()
        return make_event(request.form.get("name", ""), _int("rounds"), request.form.get("preset", ""), options,
                          deals=amount if length == "deals" else None, target=amount if length == "target" else None,
                          ranking=request.form.get("ranking", "total"), seed=int(seed) if seed.isdigit() else None,
                          bye_score=_int("bye_score", 0))

    ACTIONS = {
        "new": lambda c: c.create_event(_event_from_form()) and "event created",
        "teams": lambda c: "%d teams added" % len(c.add_teams(
            [n for n in request.form.get("names", "").splitlines() if n.strip()])),
        "draw": lambda c: "round %d drawn" % c.draw()["round"],
        "code": lambda c: "table %(table)d of round %(round)d stored" % c.result_from_code(request.form.get("code", "")),
        "sheet": lambda c: "table %(table)d of round %(round)d stored" % c.result(
            _int("round"), _int("table"), _int("ns"), _int("ew")),
        "correct": lambda c: "table %(table)d of round %(round)d corrected" % c.correct(
            _int("round"), _int("table"), _int("ns"), _int("ew"), request.form.get("why", ""), "admin page"),
    }

    @app.route("/admin/<action>", methods=["POST"])
    @admin_only
    def act(action):
        if action not in ACTIONS:
            abort(404)
        try:
            with club() as c:
                done = ACTIONS[action](c)
        except ClubError as e:
            return admin_page(error=str(e), status=400)
        return redirect(url_for("admin", done=done))

    @app.route("/admin/sheet/<int:number>")
    @admin_only
    def sheet(number):
        with club() as c:
            state = c.state()
        rounds = [r for r in state.get("rounds", []) if r["round"] == number]
        if not rounds:
            abort(404)
        return render_template("sheet.html", state=state, round=rounds[0])

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
    app = create_app(path, refresh, link)
    server = create_server(app, host=host, port=port, threads=4)
    real_port = int(server.effective_port)
    for base in addresses(host, real_port):
        out.write("projector: %s/projector\nadmin:     %s/admin\n" % (base, base))
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
