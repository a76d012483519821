"""The organiser's side of the club link, without the network: one MQTT message in,
the acknowledgement (and nothing else) out, every check in between.

A message is judged in this order: the topic (one of ours, a table's `up`), the
device (provisioned), the size, the signature with that device's key, the body's
shape and its device (the topic's); then its id (device, game, seq): stored once,
the same id again is a duplicate (acknowledged again), the same id with another
body is refused. Nothing a message holds can stop the service: every refusal is a
log line and the next message is read.

Each device's actions form a chain (each names the seq sent before it, `prev`):
the acknowledgement is the end of the unbroken chain from the device's first
action, so a message still on its way is never acknowledged by a later one. The
chain is replayed with the scoring core (the device's own code) for the live
page, and a concours round that is over is filed as its result code would be
when typed: through the same rules of the house (a second, different result is
a correction, refused here and logged for the organiser).
"""
import json
import time

from host_tools.club.errors import ClubError
from host_tools.club.service import now

from coinche import result_code
from coinche.game import Game, GameError
from coinche.record import RecordError
from coinche.rules import Rules, RulesError
from link import protocol

GAME_OPS = ("new", "add", "edit", "del", "dealer", "end", "confirm")
END_ON_TIME = {"op": "end", "end": "time"}  # the round ended on time after the deals played


class Refused(Exception):
    """A message that is not stored: its reason, one line for the log. Its kind (the
    admin page's count) is the reason's first words, before the colon."""


def kind_of(reason):
    """The kind of a refusal, from its text: "wrong signature" -> "wrong_signature"."""
    return reason.split(":")[0].strip().replace(" ", "_")[:40] or "malformed"


def setup_problem(club, spec, table):
    """Why a concours game's set-up is not the event's for this table (None: it is),
    checked as `import` checks an export: the rules and options (the number of deals
    among them), the round drawn, the table and its teams. The organiser decides
    what a round is: a game that disagrees is never filed."""
    concours = spec.get("concours")
    if not isinstance(concours, dict):
        return "its concours field is not an object"
    event = club.event()
    rules = club.rules()
    try:
        played = Rules.from_spec({"preset": spec.get("preset"), "options": spec.get("options")})
    except (RulesError, TypeError, ValueError, AttributeError) as e:
        return "its rules cannot be read (%s)" % e
    if played.round_deals != (event["deals"] or played.round_deals):
        return "%r deals, the event's rounds have %d" % (played.round_deals, event["deals"])
    unused = ("target", "tie", "bonus_rule") if rules.round_deals else ()  # a round ignores them
    if {k: v for k, v in played.opt.items() if k not in unused} != \
            {k: v for k, v in rules.opt.items() if k not in unused}:
        return "played under other rules (%s %s) than the event's (%s %s)" % (
            played.preset, json.dumps(played.overrides, sort_keys=True), rules.preset,
            json.dumps(rules.overrides, sort_keys=True))
    round_number, teams = concours.get("round"), concours.get("teams")
    if concours.get("table") != table:
        return "it says table %r, the device is table %d's" % (concours.get("table"), table)
    drawn = {r["round"]: r for r in club.store.rounds()}
    if type(round_number) is not int or round_number not in drawn:
        return "round %r has not been drawn (rounds drawn: %s)" % (
            round_number, ", ".join(str(n) for n in sorted(drawn)) or "none")
    seat = next((t for t in drawn[round_number]["tables"] if t["table"] == table), None)
    if seat is None:
        return "round %d has no table %d" % (round_number, table)
    # the teams (an individual event's pair numbers, 2T-1 and 2T) as the result code holds
    # them; they may sit the other way round: the result code's check takes that too
    ns, ew = club.code_teams(round_number, table)
    if not isinstance(teams, dict) or teams not in ({"NS": ns, "EW": ew}, {"NS": ew, "EW": ns}):
        return "teams %s, the draw puts %s %d (NS) against %d (EW) at table %d of round %d" % (
            json.dumps(teams, sort_keys=True)[:60], "pair" if club.kind() == "player" else "team", ns, ew, table,
            round_number)
    return None


def _whole(value, low):
    return type(value) is int and value >= low


def check_shape(body, device):
    """Refused unless the body is an action of `device` as action_body() makes it."""
    if body.get("device") != device:
        raise Refused("forged: the body says device %r on %s's topic" % (body.get("device"), device))
    if not (_whole(body.get("game"), 1) and _whole(body.get("seq"), 1) and _whole(body.get("prev"), 0)):
        raise Refused("malformed: game, seq and prev must be whole numbers (game, seq from 1)")
    if body["prev"] >= body["seq"]:
        raise Refused("malformed: prev %d is not before seq %d" % (body["prev"], body["seq"]))
    action = body.get("action")
    if not isinstance(action, dict) or action.get("op") not in GAME_OPS:
        raise Refused("malformed: the action is not one of %s" % ", ".join(GAME_OPS))


class DeviceChain:
    """One device's stored actions and the unbroken chain from its first one."""

    def __init__(self, device, table):
        self.device = device
        self.table = table
        self.by_seq = {}  # seq -> (game, prev, action)
        self.after = {}  # prev -> seq: the action sent after prev
        self.end = (0, 0)  # (game, seq) of the chain's last action: the acknowledgement
        self.live = None  # what the projector shows of this table (replay())
        self.ordered = []  # the chained actions, in order: [(game, seq, action)]
        self.replayed = 0  # of them, the ones played so far
        self.current = None  # [game number, its actions, why it does not replay (None)]
        self.game = None  # the Game being played (None: none, or it does not replay)
        self.spec = None  # its rules spec
        self.ended = False  # the current game ended on time (its "end" action) after the deals played
        self.confirmed = False  # the other team confirmed the current game's result as it is (its "confirm")
        self.problem = None  # why the current game is not filed: "wrong_setup", "refused_deal" (None: none)
        self.why = None  # the problem's one line, for the log

    def add(self, game, seq, prev, action):
        self.by_seq[seq] = (game, prev, action)
        self.after.setdefault(prev, seq)

    def extend(self):
        """Follows the chain from its end; True when it grew."""
        last = self.end[1]
        grew = False
        while last in self.after:
            last = self.after[last]
            self.end = (self.by_seq[last][0], last)
            self.ordered.append((self.by_seq[last][0], last, self.by_seq[last][2]))
            grew = True
        return grew

    def chain(self):
        """The chained actions, in order: [(game, seq, action)]."""
        return self.ordered


def replay_game_step(game, action):
    """One game action on a Game, as the journal applies it on the device."""
    op = action["op"]
    if op == "add":
        game.add(action.get("deal"))
    elif op == "edit":
        game.replace(action.get("i"), action.get("deal"))
    elif op == "del":
        game.remove(action.get("i"))
    elif op == "new":
        raise GameError("deal", "a new game inside a game")


def replay_game(actions):
    """The Game of one journal game's actions (the first one its "new"), as the
    device rebuilds it; GameError/RecordError/RulesError when one does not apply."""
    spec, game = None, None
    for action in actions:
        op = action["op"]
        if op == "new":
            spec = action.get("rules")
            if not isinstance(spec, dict):
                raise RulesError("rules", "a new game without rules")
            game = Game(Rules.from_spec(spec), (), spec.get("dealer", "N"), spec.get("dir", "acw"), spec.get("fix", ()))
        elif game is None:
            raise GameError("deal", "an action before its game's new")
        elif op == "dealer":
            game = Game(game.rules, game.deals, game.first_dealer, game.order, action.get("fix") or ())
        else:
            replay_game_step(game, action)
    return spec, game


class Ingest:
    """The link's rules over one open event (service.Club). handle() takes one
    message and returns what to publish: [(topic, payload, retain)]."""

    def __init__(self, club, log, counts=None, refused=None):
        """counts, refused: the counts so far (an Ingest read again after an error
        keeps them, and does not count again the problems it reads back)."""
        self.club = club
        self.log = log  # log(kind, device, text): one line per event
        self.quiet = counts is not None  # reading back: problems already logged and counted
        self.counts = counts if counts is not None else {"stored": 0, "duplicate": 0, "refused": 0}
        self.refused = refused if refused is not None else {}  # kind -> how many refused
        self.latest = {}  # device -> time.time() its last stored action was replayed
        self.chains = {}
        self.devices = {}
        self.load()

    def load(self):
        """The devices and every stored action (a restart after a crash starts here)."""
        self.devices = {d["id"]: d for d in self.club.store.devices()}
        for device_id, row in self.devices.items():
            chain = self.chains.get(device_id) or DeviceChain(device_id, row["table_number"])
            self.chains[device_id] = chain
            for stored in self.club.store.actions(device_id):
                body = json.loads(stored["body"])
                chain.add(stored["game"], stored["seq"], stored["prev"], body["action"])
            chain.extend()
            self.replay(chain)
        self.quiet = False

    def refuse(self, device, reason, kind=None):
        """One refusal: logged, counted by kind."""
        kind = kind or kind_of(reason)
        self.counts["refused"] += 1
        self.refused[kind] = self.refused.get(kind, 0) + 1
        self.log("refused", device, reason)

    def ack(self, chain):
        body = protocol.ack_body(chain.device, chain.end[0], chain.end[1])
        return (protocol.topic(chain.device, "ack"), protocol.sign(self.key(chain.device), body), True)

    def key(self, device):
        return bytes.fromhex(self.devices[device]["key_hex"])

    def handle(self, topic, payload):
        try:
            return self._handle(topic, payload)
        except Refused as e:
            where = protocol.device_of(topic)
            self.refuse(where[0] if where else "-", str(e))
            return []

    def _handle(self, topic, payload):
        where = protocol.device_of(topic)
        if where is None or where[1] != "up":
            raise Refused("malformed: not a table's up topic: %r" % topic[:80])
        device = where[0]
        if device not in self.devices:
            self.devices.update({d["id"]: d for d in self.club.store.devices()})  # provisioned since
            if device not in self.devices:
                raise Refused("forged: no provisioned device %r" % device[:40])
        try:
            body = protocol.open_message(self.key(device), bytes(payload))
        except protocol.MessageError as e:
            raise Refused(str(e))
        check_shape(body, device)
        chain = self.chains.setdefault(device, DeviceChain(device, self.devices[device]["table_number"]))
        game, seq, prev, action = body["game"], body["seq"], body["prev"], body["action"]
        data = bytes(payload)[protocol.SIGNATURE_HEX + 1:].decode()
        known = chain.by_seq.get(seq)
        if known is not None:
            stored = self.club.store.action(device, known[0], seq)
            if stored is not None and stored["body"] == data:
                self.counts["duplicate"] += 1
                self.log("duplicate", device, "game %d seq %d again: acknowledged again" % (game, seq))
                return [self.ack(chain)]
            raise Refused("conflict: seq %d is stored with another body; this one is refused" % seq)
        if prev in chain.after:
            raise Refused("conflict: seq %d and seq %d both say they follow %d" % (chain.after[prev], seq, prev))
        with self.club.store.transaction():
            self.club.store.add_action(device, game, seq, prev, data, now())
        self.counts["stored"] += 1
        chain.add(game, seq, prev, action)
        if chain.extend():
            self.replay(chain)
            self.latest[device] = time.time()
        return [self.ack(chain)]

    # -- the scores ---------------------------------------------------------
    def replay(self, chain):
        """Plays the chain's new actions on the device's games with the scoring core
        (each action once: the game being played is kept), checks a concours game's
        set-up against the event, files every concours round that is over and sound,
        and updates what the projector shows of the table. A deal the scoring core
        refuses is refused (logged, counted, each time) and left out: the game goes
        on with the table's next deals, marked, and is not filed."""
        actions = chain.chain()
        for game, seq, action in actions[chain.replayed:]:
            if chain.current is None or chain.current[0] != game:
                chain.current = [game, [], None]  # (game number, its actions, the replay error)
                chain.game, chain.spec, chain.problem, chain.why = None, None, None, None
                chain.ended = chain.confirmed = False
            number, played_actions, broken = chain.current
            played_actions.append(action)
            if broken:
                continue
            try:
                if action["op"] == "new" or chain.game is None:
                    chain.spec, chain.game = replay_game([action])
                elif action["op"] == "end":
                    if action != END_ON_TIME:
                        raise GameError("end", "an end that is not %s" % json.dumps(END_ON_TIME))
                    chain.ended = True
                elif action["op"] == "add" and chain.ended:
                    raise GameError("deal", "a deal after the round's end on time")
                elif action["op"] == "confirm":  # as the device keeps it: for the deals as they are
                    chain.confirmed = action.get("n") == len(chain.game.deals)
                else:
                    replay_game_step(chain.game, action)
                    if action["op"] in ("add", "edit", "del"):
                        chain.confirmed = False  # a changed deal: the result is confirmed again
                    if action["op"] == "dealer":
                        chain.game = Game(chain.game.rules, chain.game.deals, chain.game.first_dealer,
                                          chain.game.order, action.get("fix") or ())
            except (GameError, RecordError, RulesError, TypeError, KeyError, ValueError, AttributeError,
                    IndexError, OverflowError) as e:
                if chain.game is None:  # the game's new itself: nothing of it can be played
                    chain.current[2] = str(e) or type(e).__name__
                    self.problem(chain, "wrong_setup", "game %d does not replay: %s" % (number, e))
                else:
                    chain.problem, chain.why = "refused_deal", "game %d seq %d: %s" % (number, seq, e)
                    if not self.quiet:
                        self.refuse(chain.device, "refused deal: game %d seq %d, the scoring core refuses it "
                                    "(%s): left out, the game is not filed" % (number, seq, str(e)[:120]),
                                    "refused_deal")
        chain.replayed = len(actions)
        if chain.current is None:
            return
        spec = chain.spec if isinstance(chain.spec, dict) else {}
        concours = spec.get("concours") if isinstance(spec.get("concours"), dict) else None
        if concours is not None and chain.problem in (None, "wrong_setup"):
            why = setup_problem(self.club, spec, chain.table)
            if why is None and chain.ended and chain.game is not None and not chain.game.over and \
                    self.club.event()["minutes"] is None:
                why = "it ended on time after %d deals, but the event's rounds are not timed" % (
                    chain.game.round_deal() - 1)
            if why is None:
                chain.problem, chain.why = None, None  # the round was drawn since, say
            elif chain.why != why:
                self.problem(chain, "wrong_setup", "wrong set-up: game %d: %s: not filed" % (chain.current[0], why),
                             why)
        played = chain.game
        chain.live = {"device": chain.device, "table": chain.table, "game": chain.current[0],
                      "round": concours.get("round") if concours else None,
                      "teams": concours.get("teams") if concours else None,
                      "counted": played.round_deal() - 1 if played else 0,
                      "deals": played.rules.round_deals if played else None,
                      "total": dict(played.total) if played else {"NS": 0, "EW": 0},
                      "over": (played.over or chain.ended) if played else False, "problem": chain.problem}
        if concours and played is not None and (played.over or chain.ended):
            if chain.problem is None:
                self.file(chain, chain.current[0], concours, played)
            elif not self.quiet:
                self.log("not filed", chain.device, "game %d is over but not filed: %s" % (
                    chain.current[0], chain.why))

    def problem(self, chain, kind, text, why=None):
        """Marks the chain's current game (shown to the organiser), logged and counted once."""
        chain.problem, chain.why = kind, why or text
        if not self.quiet:
            self.refuse(chain.device, text, kind)

    def file(self, chain, number, concours, played):
        """A round that is over, filed as its typed code would be (once; a different
        result is a correction the organiser makes)."""
        round_number, teams = concours.get("round"), concours.get("teams") or {}
        if concours.get("table") != chain.table:
            self.log("refused", chain.device, "game %d says table %r, the device is table %d's: not filed"
                     % (number, concours.get("table"), chain.table))
            return
        ns, ew = played.total["NS"], played.total["EW"]
        stored = self.club.store.results().get((round_number, chain.table))
        if stored is not None and (stored["NS"], stored["EW"]) in ((ns, ew), (ew, ns)):
            if chain.confirmed and self.club.confirmed_at_table(round_number, chain.table, ns, ew):
                self.log("confirmed", chain.device, "round %d table %d: confirmed at the table" % (
                    round_number, chain.table))
            return  # filed already (or typed in by hand, with the same totals)
        try:
            code = result_code.encode(round_number, chain.table, ns, ew, teams.get("NS"), teams.get("EW"))
            filed = self.club.result_from_code(code)
        except (ClubError, result_code.CodeError) as e:
            self.log("not filed", chain.device, "round %r table %d: %s" % (round_number, chain.table, e))
            return
        self.log("filed", chain.device, "round %d table %d: NS %d - EW %d (code %s)" % (
            filed["round"], filed["table"], filed["totals"]["NS"], filed["totals"]["EW"], result_code.grouped(code)))
        if chain.confirmed:
            self.club.confirmed_at_table(round_number, chain.table, ns, ew)

    def live(self):
        """The live page's rows: one per table whose device has spoken (with its device:
        status() leaves it out of the public page)."""
        return sorted((c.live for c in self.chains.values() if c.live), key=lambda row: row["table"])
