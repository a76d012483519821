"""The club's Mosquitto broker, configured from the event: its configuration, the
password file (one user per provisioned table, one for the organiser's service)
and the ACL (a table publishes only on its own `up`, reads only its own `ack`,
`draw` and `clock`), written into the event's link folder; and the bridge to a league's broker.

Why these settings (docs/link.md): Mosquitto's defaults save its database only at
exit or every 30 minutes, so a SIGKILL loses the QoS 1 messages it had queued;
`autosave_on_changes` with an interval of 1 saves after every change. Started as
root it drops to the `mosquitto` user, which cannot write a folder of ours: it
runs as the user who starts it instead.

Who speaks as whom: users, passwords and ACLs are given to Mosquitto's dynamic
security plugin in one JSON file written here (DYNSEC_NAME), where each user is
bound to one client id, its own name (the id the tables' firmware connects with):
a connection with a user's password but another client id is refused (CONNACK
"not authorised"), so a table's credentials cannot take over the organiser's
session, clear its queue, or kick another table off. `use_username_as_clientid`
is off: Mosquitto 2.0 would put the user name in place of the client id before
the plugin looks, and every such connection would be let in. The organiser
reads each table's `up` in a session of its own (user `organiser-<device>`), so a
table that floods fills only its own queue (MAX_QUEUED): another table's deals
are never dropped to make room. The broker logs at debug level into its log file:
that is the only level at which Mosquitto 2.0 writes the publishes its ACL denies
("Denied PUBLISH"), which the service reads back for the organiser.
"""
import base64
import getpass
import glob
import hashlib
import json
import os
import secrets

from host_tools.club.errors import ClubError

SERVICE_USER = "organiser"
DEFAULT_PORT = 1883
PBKDF2_ROUNDS = 101  # what mosquitto_passwd writes ($7$: PBKDF2-SHA512)
MAX_PACKET = 4096  # bytes: a message of ours is at most protocol.MAX_MESSAGE, plus the topic
# messages the broker holds for one session while it is away, per session: a table's
# worst honest backlog is a whole event typed offline (10 rounds of at most 40 actions)
MAX_QUEUED = 2000
LOG_NAME = "mosquitto.log"
DYNSEC_NAME = "dynamic-security.json"
DYNSEC_PLUGIN = "mosquitto_dynamic_security.so"
# where Debian, Fedora and a build from source put the plugin
PLUGIN_FOLDERS = ("/usr/lib/*-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib")


def reader_user(device):
    """The organiser's user that reads one table's `up` (its own session and queue)."""
    return "%s-%s" % (SERVICE_USER, device)


def link_folder(db):
    """The event's link folder: next to an SQLite file (FILE.link/), or ./club-link for a database server."""
    if "://" in db:
        return os.path.abspath("club-link")
    base = db[:-3] if db.endswith(".db") else db
    return os.path.abspath(base + ".link")


def mosquitto_hash(password, salt=None):
    """A password as Mosquitto's password file keeps it: $7$rounds$salt$hash, PBKDF2-SHA512."""
    salt = salt if salt is not None else os.urandom(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, PBKDF2_ROUNDS, 64)
    return "$7$%d$%s$%s" % (PBKDF2_ROUNDS, base64.b64encode(salt).decode(), base64.b64encode(digest).decode())


def service_password(club):
    """The organiser's service's MQTT password: made once and kept in the event."""
    password = club.store.meta("link_service_password")
    if password is None:
        password = secrets.token_urlsafe(24)
        with club.store.transaction():
            club.store.set_meta("link_service_password", password)
    return password


def current_devices(club):
    """The device let in for each table: the newest one provisioned for it."""
    newest = {}
    for device in club.store.devices():
        newest[device["table_number"]] = device
    return [newest[table] for table in sorted(newest)]


def dynsec_plugin():
    """The dynamic security plugin's path, or None when Mosquitto's is not installed."""
    for folder in PLUGIN_FOLDERS:
        found = sorted(glob.glob(os.path.join(folder, DYNSEC_PLUGIN)))
        if found:
            return found[0]
    return None


def dynsec_password(entry):
    """A password-file hash ($7$rounds$salt$hash) as the plugin's JSON holds it."""
    kind, rounds, salt, digest = entry.split("$")[1:]
    if kind != "7":
        raise ClubError("a password hash of an unknown kind ($%s$): provision the table again" % kind)
    return {"password": digest, "salt": salt, "iterations": int(rounds)}


def _acl(kind, topic):
    return {"acltype": kind, "topic": topic, "priority": 0, "allow": True}


def user_acls(devices):
    """{user: [the plugin's ACL entries]}: a table publishes only on its own `up` and
    subscribes to and receives only its own `ack`, `draw` and `clock`; the organiser
    publishes the acks, draws and clocks; its reader of a table reads that table's `up` and clears a
    retained message left there. Everything else is denied (dynsec_document)."""
    acls = {SERVICE_USER: [_acl("publishClientSend", "coinche/+/" + kind) for kind in ("ack", "draw", "clock")]}
    for device in devices:
        name = device["id"]
        up, ack, draw, clock = ("coinche/%s/%s" % (name, kind) for kind in ("up", "ack", "draw", "clock"))
        acls[reader_user(name)] = [_acl("publishClientSend", up), _acl("publishClientReceive", up),
                                   _acl("subscribeLiteral", up)]
        acls[name] = [_acl("publishClientSend", up)] + [_acl(kind, topic) for topic in (ack, draw, clock)
                                                        for kind in ("subscribeLiteral", "publishClientReceive")]
    return acls


def dynsec_document(devices, service_hash):
    """What the dynamic security plugin reads at start: every user with its password
    hash, bound to the client id of its own name, with a role of its own holding its
    ACL; nothing allowed by default. service_hash: the organiser's password hashed."""
    hashes = {SERVICE_USER: service_hash}
    hashes.update({reader_user(d["id"]): service_hash for d in devices})
    hashes.update({d["id"]: d["mqtt_hash"] for d in devices})
    clients, roles = [], []
    for user, acls in user_acls(devices).items():
        client = {"username": user, "clientid": user, "roles": [{"rolename": user, "priority": -1}]}
        client.update(dynsec_password(hashes[user]))
        clients.append(client)
        roles.append({"rolename": user, "acls": acls})
    return {"defaultACLAccess": {"publishClientSend": False, "publishClientReceive": False, "subscribe": False,
                                 "unsubscribe": True},
            "clients": clients, "groups": [], "roles": roles}


def password_lines(folder):
    """A broker that checks users and ACLs from the files `passwords` and `acl` (the league's)."""
    return ["password_file %s" % os.path.join(folder, "passwords"), "acl_file %s" % os.path.join(folder, "acl"),
            "use_username_as_clientid true"]


def dynsec_lines(folder, plugin):
    """A broker that checks users, client ids and ACLs with the dynamic security plugin (the club's)."""
    return ["plugin %s" % plugin, "plugin_opt_config_file %s" % os.path.join(folder, DYNSEC_NAME)]


def config_text(folder, host, port, bridge=None, autosave=1, security=None):
    user = getpass.getuser()
    lines = [
        "# written by host_tools.club broker; docs/link.md says why each line is there",
        "per_listener_settings false",
        "allow_anonymous false",
    ] + (security or password_lines(folder)) + [
        "listener %d %s" % (port, host),
        "protocol mqtt",
        "max_packet_size %d" % MAX_PACKET,
        "max_queued_messages %d" % MAX_QUEUED,
        # a session nobody can take any more (a table provisioned again, the organiser's
        # client id of an older version) stops holding messages after two weeks
        "persistent_client_expiration 14d",
        "persistence true",
        "persistence_location %s/" % os.path.join(folder, "persistence"),
        "autosave_on_changes true",
        "autosave_interval %d" % autosave,
        "user %s" % user,
        "log_dest file %s" % os.path.join(folder, LOG_NAME),
        "log_dest stdout",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "log_type debug",  # the only level at which Mosquitto 2.0 logs "Denied PUBLISH"
        "connection_messages true",
    ]
    if bridge:
        lines += ["", bridge]
    return "\n".join(lines) + "\n"


def write_broker_files(club, db, host, port, autosave=1, plugin=None):
    """Writes the config and the plugin's users and ACLs into the link folder;
    returns the config's path. plugin: the dynamic security plugin's path (found
    here when not given; the broker refuses to start without it)."""
    plugin = plugin or dynsec_plugin()
    if plugin is None:
        raise ClubError("Mosquitto's dynamic security plugin (%s) is not installed: it comes with mosquitto 2 "
                        "(Debian: apt-get install mosquitto)" % DYNSEC_PLUGIN)
    folder = link_folder(db)
    os.makedirs(os.path.join(folder, "persistence"), exist_ok=True)
    devices = current_devices(club)
    document = dynsec_document(devices, mosquitto_hash(service_password(club)))
    _write_private(os.path.join(folder, DYNSEC_NAME), json.dumps(document, indent=1) + "\n")
    for older in ("passwords", "acl"):  # what an earlier version checked users with: hashes nobody reads
        if os.path.exists(os.path.join(folder, older)):
            os.remove(os.path.join(folder, older))
    bridge_path = os.path.join(folder, "bridge.conf")
    bridge = None
    if os.path.exists(bridge_path):
        with open(bridge_path, encoding="utf-8") as f:
            bridge = f.read()
    path = os.path.join(folder, "mosquitto.conf")
    _write_private(path, config_text(folder, host, port, bridge, autosave, dynsec_lines(folder, plugin)))
    with club.store.transaction():
        club.store.set_meta("link_broker", "%s:%d" % ("127.0.0.1" if host in ("0.0.0.0", "") else host, port))
    return path


def _write_private(path, text):
    """A file only its owner reads (it holds password hashes or a league password)."""
    descriptor = os.open(path + ".new", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".new", path)


def bridge_text(club_name, league_host, league_port, user, password):
    """A bridge from this club's broker to a league's: every topic of ours goes out
    under league/<club>/ (QoS 1, kept across restarts of either broker)."""
    if not club_name or any(c in club_name for c in "/#+ \t\n") or len(club_name) > 40:
        raise ClubError("the club's name in the league is one word of at most 40 characters, without / # +")
    return "\n".join([
        "connection league-%s" % club_name,
        "address %s:%d" % (league_host, league_port),
        "bridge_protocol_version mqttv311",
        "remote_clientid club-%s" % club_name,
        "remote_username %s" % user,
        "remote_password %s" % password,
        "cleansession false",
        "notifications false",
        "try_private false",
        "restart_timeout 1 10",
        "topic # out 1 coinche/ league/%s/coinche/" % club_name,
    ]) + "\n"


def write_bridge(db, club_name, league, user, password):
    host, port = parse_address(league, "--league")
    folder = link_folder(db)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "bridge.conf")
    _write_private(path, bridge_text(club_name, host, port, user, password))
    return path


def parse_address(text, what):
    host, _, port = (text or "").rpartition(":")
    if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ClubError("%s takes HOST:PORT, got %r" % (what, text))
    return host, int(port)


def write_league_broker(folder, host, port, clubs):
    """A league's broker: one user per club (clubs: {name: password}), each writing only
    under league/<name>/; a reader user `league` for the league's own service. Returns
    the config's path (run it with mosquitto -c)."""
    os.makedirs(os.path.join(folder, "persistence"), exist_ok=True)
    reader = secrets.token_urlsafe(18)
    entries = ["league:%s" % mosquitto_hash(reader)]
    acl = ["user league", "topic read league/#", ""]
    for name, password in sorted(clubs.items()):
        entries.append("%s:%s" % (name, mosquitto_hash(password)))
        acl += ["user %s" % name, "topic write league/%s/#" % name, ""]
    _write_private(os.path.join(folder, "passwords"), "\n".join(entries) + "\n")
    _write_private(os.path.join(folder, "acl"), "\n".join(acl))
    path = os.path.join(folder, "mosquitto.conf")
    _write_private(path, config_text(folder, host, port))
    _write_private(os.path.join(folder, "reader"), reader + "\n")
    return path
