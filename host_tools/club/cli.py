"""The organiser's command line: everything the admin page does, with JSON output.

    python -m host_tools.club --db FILE new --name NAME --rounds N (--deals D | --target T) [--minutes M]
                                          --rules PRESET [--format pairs|individual]
                                          [--set OPTION=VALUE ...] [--ranking total|matches] [--seed S]
                                          [--bye-score N] [--match-points W,D,L] [--bye-match-points N]
                                          [--late-as-bye] [--lang fr|de|it|en]
                                          (--minutes M alone: rounds end on time only)
    python -m host_tools.club --db FILE team add NAME [NAME ...]   (after a draw: from the next round drawn)
    python -m host_tools.club --db FILE team withdraw N [--why TEXT]
    python -m host_tools.club --db FILE team rename N NAME
    python -m host_tools.club --db FILE team list
    python -m host_tools.club --db FILE player add|withdraw|rename|list ...   (an individual event: as team)
    python -m host_tools.club --db FILE clock [start | pause | resume | add MIN]   (MIN < 0 removes minutes)
    python -m host_tools.club --db FILE draw [--undo | --swap A B]
    python -m host_tools.club --db FILE result (--code CODE | --round R --table T --ns X --ew Y)
    python -m host_tools.club --db FILE code --round R --table T --ns-team A --ew-team B --ns X --ew Y
    python -m host_tools.club --db FILE import EXPORT.json
    python -m host_tools.club --db FILE correct --round R --table T --ns X --ew Y --why TEXT [--who NAME]
    python -m host_tools.club --db FILE standings [--json] [--after R]
    python -m host_tools.club --db FILE show
    python -m host_tools.club --db FILE export --out DIR    (event.json, results.csv, standings.csv, corrections.csv)
    python -m host_tools.club --db FILE password            (the new password on stdin, or asked twice)
    python -m host_tools.club --db FILE serve [--host H] [--port P] [--refresh SECONDS] [--broker HOST:PORT]
    python -m host_tools.club --db FILE broker [--host H] [--port P]       (Mosquitto, in the foreground)
    python -m host_tools.club --db FILE provision --table N --out TABLE.json --broker HOST:PORT --ssid NAME
                                          (stdin: the admin password, then the WiFi password)
    python -m host_tools.club --db FILE league --club NAME --league HOST:PORT --user USER
                                          (stdin: the league broker's password for USER)

Bad input: one line on stderr, exit status 2, and the file is as it was.
"""
import argparse
import getpass
import json
import os
import sqlite3
import sys

from host_tools.club.errors import ClubError
from host_tools.club.service import LANGS, Club, make_event

from coinche.rules import RulesError
from host_tools.common.rules_help import UsageError, parse_setting

PROG = "python -m host_tools.club"


class Parser(argparse.ArgumentParser):
    """argparse that reports a bad command line as one line and status 2."""

    def error(self, message):
        raise ClubError("%s (%s --help)" % (message, self.prog))


def _triple(text):
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("three whole numbers W,D,L, got %r" % text)
    if len(values) != 3:
        raise argparse.ArgumentTypeError("three whole numbers W,D,L, got %r" % text)
    return values


def parser():
    p = Parser(prog=PROG, description="The organiser's app for a club's concours (docs/club.md).")
    p.add_argument("--db", required=True, metavar="FILE", help="the event's file (SQLite)")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)

    new = sub.add_parser("new", help="create the event")
    new.add_argument("--name", required=True)
    new.add_argument("--rounds", type=int, required=True)
    length = new.add_mutually_exclusive_group()
    length.add_argument("--deals", type=int, help="deals per round")
    length.add_argument("--target", type=int, help="rounds played to this target")
    new.add_argument("--minutes", type=int, help="a round's length in minutes (with --deals or --target: "
                                                 "whichever comes first)")
    new.add_argument("--format", default="pairs", choices=("pairs", "individual"),
                     help="pairs: fixed teams (default); individual: players, partners drawn each round")
    new.add_argument("--rules", required=True, metavar="PRESET")
    new.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE")
    new.add_argument("--ranking", default="total", choices=("total", "matches"))
    new.add_argument("--seed", type=int, help="the first round's draw (default: a random one, printed)")
    new.add_argument("--bye-score", type=int, default=0, help="points for a bye (default 0)")
    new.add_argument("--match-points", type=_triple, default=[2, 1, 0], metavar="W,D,L")
    new.add_argument("--bye-match-points", type=int, help="match points of a bye (default: a win's)")
    new.add_argument("--late-as-bye", action="store_true",
                     help="a late team's missed rounds count as byes (default: they count nothing)")
    new.add_argument("--lang", default="fr", choices=LANGS, help="the pages' language (default fr)")

    for kind, dest in (("team", "team_command"), ("player", "player_command")):
        entrants = sub.add_parser(kind, help="the %ss%s" % (kind, " (an individual event)" if kind == "player" else ""))
        entrant_sub = entrants.add_subparsers(dest=dest, required=True, parser_class=Parser)
        add = entrant_sub.add_parser("add", help="add %ss, numbered in the order added" % kind)
        add.add_argument("names", nargs="+", metavar="NAME")
        withdraw = entrant_sub.add_parser("withdraw", help="a %s leaves: never drawn again" % kind)
        withdraw.add_argument("number", type=int, metavar="N")
        withdraw.add_argument("--why", help="the reason, kept with the withdrawal")
        rename = entrant_sub.add_parser("rename", help="a %s's new name" % kind)
        rename.add_argument("number", type=int, metavar="N")
        rename.add_argument("name", metavar="NAME")
        entrant_sub.add_parser("list")

    clock = sub.add_parser("clock", help="the round clock of a timed event: the time left, or an action")
    clock.add_argument("action", nargs="?", choices=("start", "pause", "resume", "add"))
    clock.add_argument("minutes", nargs="?", type=int, metavar="MIN", help="with add: minutes (negative: removed)")

    draw = sub.add_parser("draw", help="draw the next round")
    change = draw.add_mutually_exclusive_group()
    change.add_argument("--undo", action="store_true", help="remove the last round drawn (before any of its results)")
    change.add_argument("--swap", nargs=2, type=int, metavar=("A", "B"),
                        help="teams A and B change places in the last round drawn (before their results)")

    result = sub.add_parser("result", help="a table's result")
    result.add_argument("--code", help="the result code the device shows (16 digits, groups optional)")
    sheet = {"--round": "the round", "--table": "the table", "--ns": "NS total (from the paper sheet)",
             "--ew": "EW total"}
    for name, text in sheet.items():
        result.add_argument(name, type=int, help=text)

    code = sub.add_parser("code", help="the result code a device shows")
    for name in ("--round", "--table", "--ns-team", "--ew-team", "--ns", "--ew"):
        code.add_argument(name, type=int, required=True)

    imp = sub.add_parser("import", help="results from a device export (games.json)")
    imp.add_argument("export", metavar="EXPORT.json")

    correct = sub.add_parser("correct", help="change a stored result")
    for name in ("--round", "--table", "--ns", "--ew"):
        correct.add_argument(name, type=int, required=True)
    correct.add_argument("--why", required=True)
    correct.add_argument("--who", default=None, help="who corrects (default: the login name)")

    stand = sub.add_parser("standings", help="the ranking (a table, or --json)")
    stand.add_argument("--json", action="store_true")
    stand.add_argument("--after", type=int, metavar="R",
                       help="count rounds 1..R only (default: up to the last round whose results are all in)")

    export = sub.add_parser("export", help="the event as files: event.json, results.csv, standings.csv, corrections.csv")
    export.add_argument("--out", required=True, metavar="DIR")

    sub.add_parser("show", help="the whole event as JSON")
    sub.add_parser("password", help="set the admin password (read from stdin)")

    serve = sub.add_parser("serve", help="the projector and admin pages")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8020, help="0: any free port (the one taken is printed)")
    serve.add_argument("--refresh", type=int, default=10, help="seconds between the projector's reloads")
    serve.add_argument("--broker", metavar="HOST:PORT",
                       help="the tables' broker (default: the one `broker` configured, if any)")

    broker = sub.add_parser("broker", help="configure and run the tables' Mosquitto broker (foreground)")
    broker.add_argument("--host", default="0.0.0.0", help="the address it listens on (default: every one)")
    broker.add_argument("--port", type=int, default=1883)
    broker.add_argument("--config-only", action="store_true", help="write the files, do not start it")
    broker.add_argument("--autosave", type=int, default=1, metavar="CHANGES",
                        help="save the broker's database after this many changes (default 1: a SIGKILL loses "
                             "nothing it acknowledged; more: faster, and a SIGKILL loses up to that many)")

    prov = sub.add_parser("provision", help="a table's credentials and key, written to a file for its device")
    prov.add_argument("--table", type=int, required=True)
    prov.add_argument("--out", required=True, metavar="TABLE.json")
    prov.add_argument("--broker", metavar="HOST:PORT",
                      help="the broker's address as the tables reach it (default: this machine's, port 1883)")
    prov.add_argument("--ssid", help="the club's WiFi name (default: the first line of stdin after the password)")
    prov.add_argument("--wifi-password", help="the WiFi password (default: read from stdin)")

    league = sub.add_parser("league", help="bridge this club's broker to a league's")
    league.add_argument("--club", required=True, help="the club's name in the league (one word)")
    league.add_argument("--league", required=True, metavar="HOST:PORT")
    league.add_argument("--user", required=True, help="this club's user on the league broker")
    return p


def _options(settings):
    out = {}
    for item in settings:
        try:
            key, value = parse_setting(item)
        except (UsageError, RulesError) as e:
            raise ClubError(str(e))
        out[key] = value
    return out


def _read_password():
    if sys.stdin.isatty():
        first = getpass.getpass("new admin password: ")
        if getpass.getpass("again: ") != first:
            raise ClubError("the two passwords differ")
        return first
    return sys.stdin.readline().rstrip("\r\n")


def standings_text(table):
    lines = ["after round %d%s" % (table["round"], " (provisional: the round waits for results)"
                                   if table.get("provisional") else ""),
             "%4s %4s  %-24s %6s %3s %3s %3s %8s %8s %4s" % ("rank", "team", "name", "played", "won", "drw", "lst",
                                                              "for", "against", "mp")]
    if table["ranking"] and "player" in table["ranking"][0]:
        lines[1] = lines[1].replace("team", "plyr", 1)
    for r in table["ranking"]:
        lines.append("%4d %4d  %-24s %6d %3d %3d %3d %8d %8d %4d%s" % (
            r["rank"], r.get("team", r.get("player")), r["name"][:24], r["played"], r["won"], r["drawn"], r["lost"], r["points_for"],
            r["points_against"], r["match_points"], "  withdrawn" if r["withdrawn"] else ""))
    return "\n".join(lines)


def run(args, out):
    if args.command == "new":
        event = make_event(args.name, args.rounds, args.rules, _options(args.set), deals=args.deals,
                           target=args.target, ranking=args.ranking, seed=args.seed, bye_score=args.bye_score,
                           match_points=args.match_points, bye_match_points=args.bye_match_points,
                           late_as_bye=args.late_as_bye, lang=args.lang, format=args.format, minutes=args.minutes)
        with Club(args.db, create=True) as club:
            return club.create_event(event)
    if args.command == "password":
        password = _read_password()
        with Club(args.db, create=True) as club:
            club.set_password(password)
        return {"password": "set"}
    if args.command == "serve":
        from host_tools.club.web import serve
        if not 1 <= args.refresh <= 3600:
            raise ClubError("--refresh must be from 1 to 3600 seconds")
        serve(args.db, args.host, args.port, out, args.refresh, args.broker)
        return None
    if args.command == "broker":
        return _broker(args, out)
    if args.command == "league":
        from host_tools.club.link_broker import write_bridge
        password = sys.stdin.readline().rstrip("\r\n")
        if not password:
            raise ClubError("the league broker's password comes on stdin")
        with Club(args.db) as club:
            club.event()
        return {"bridge": write_bridge(args.db, args.club, args.league, args.user, password),
                "next": "restart the broker: it reads the bridge with its configuration"}
    if args.command == "provision":
        return _provision(args)
    with Club(args.db) as club:
        if args.command in ("team", "player"):
            kind = args.command
            action = args.team_command if kind == "team" else args.player_command
            if action == "add":
                return {kind + "s": club.add_teams(args.names, who=getpass.getuser(), kind=kind)}
            if action == "withdraw":
                return club.withdraw_team(args.number, args.why, who=getpass.getuser(), kind=kind)
            if action == "rename":
                return club.rename_team(args.number, args.name, who=getpass.getuser(), kind=kind)
            return {kind + "s": club.entrants(kind)}
        if args.command == "clock":
            if (args.action == "add") != (args.minutes is not None):
                raise ClubError("minutes go with add only: clock add MIN (MIN < 0 removes minutes)")
            return club.clock(args.action, args.minutes)
        if args.command == "draw":
            if args.undo:
                return {"removed": club.undo_draw(who=getpass.getuser())}
            if args.swap:
                return club.swap_teams(args.swap[0], args.swap[1], who=getpass.getuser())
            return club.draw()
        if args.command == "result":
            sheet = (args.round, args.table, args.ns, args.ew)
            if args.code is not None:
                if any(v is not None for v in sheet):
                    raise ClubError("give either --code CODE or --round R --table T --ns X --ew Y, not both")
                return club.result_from_code(args.code)
            if any(v is None for v in sheet):
                raise ClubError("give --code CODE, or all of --round R --table T --ns X --ew Y")
            return club.result(*sheet)
        if args.command == "code":
            return club.code(args.round, args.table, args.ns_team, args.ew_team, args.ns, args.ew)
        if args.command == "import":
            return club.import_export(args.export)
        if args.command == "correct":
            who = args.who if args.who is not None else getpass.getuser()
            return club.correct(args.round, args.table, args.ns, args.ew, args.why, who)
        if args.command == "standings":
            table = club.standings(args.after)
            return table if args.json else standings_text(table)
        if args.command == "export":
            return club.export(args.out)
        if args.command == "show":
            return club.state()
    raise ClubError("unknown command %r" % args.command)


def _broker(args, out):
    import shutil
    from host_tools.club.link_broker import write_broker_files
    if not 1 <= args.port <= 65535:
        raise ClubError("--port must be from 1 to 65535")
    if not 1 <= args.autosave <= 100000:
        raise ClubError("--autosave must be from 1 to 100000 changes")
    with Club(args.db, create=True) as club:
        path = write_broker_files(club, args.db, args.host, args.port, args.autosave)
    if args.config_only:
        return {"config": path}
    program = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if os.path.exists("/usr/sbin/mosquitto") else None)
    if program is None:
        raise ClubError("mosquitto is not installed (Debian: apt-get install mosquitto)")
    out.write("broker: %s:%d (config %s)\n" % (args.host, args.port, path))
    out.flush()
    os.execv(program, [program, "-c", path])


def _provision(args):
    from host_tools.club.link_provision import provision
    lines = iter(sys.stdin.readline, "")
    if sys.stdin.isatty():
        admin = getpass.getpass("admin password: ")
    else:
        admin = next(lines, "").rstrip("\r\n")
    with Club(args.db) as club:
        if not club.has_password():
            raise ClubError("set the admin password first (password): provisioning needs it")
        if not club.check_password(admin):
            raise ClubError("wrong admin password")
        ssid = args.ssid
        if ssid is None:
            ssid = input("WiFi name: ") if sys.stdin.isatty() else next(lines, "").rstrip("\r\n")
        wifi = args.wifi_password
        if wifi is None:
            wifi = getpass.getpass("WiFi password: ") if sys.stdin.isatty() else next(lines, "").rstrip("\r\n")
        return provision(club, args.table, args.out, args.broker, ssid, wifi)


def main(argv, out=None, err=None):
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        args = parser().parse_args(argv)
        answer = run(args, out)
    except ClubError as e:
        err.write("club: %s\n" % e)
        return 2
    except sqlite3.DatabaseError as e:  # ours by its header, but damaged, or locked too long
        err.write("club: the event file cannot be used: %s\n" % e)
        return 2
    except OSError as e:
        err.write("club: input/output error: %s\n" % e)
        return 3
    if isinstance(answer, str):
        out.write(answer + "\n")
    elif answer is not None:
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
    return 0
