"""The club's Mosquitto broker, configured from the event: its configuration, the
password file (one user per provisioned table, one for the organiser's service)
and the ACL (a table publishes only on its own `up`, reads only its own `ack` and
`draw`), written into the event's link folder; and the bridge to a league's broker.

Why these settings (docs/link.md): Mosquitto's defaults save its database only at
exit or every 30 minutes, so a SIGKILL loses the QoS 1 messages it had queued;
`autosave_on_changes` with an interval of 1 saves after every change. Started as
root it drops to the `mosquitto` user, which cannot write a folder of ours: it
runs as the user who starts it instead.

Who speaks as whom: the broker takes each client's user name as its client id
(`use_username_as_clientid`), so a table's credentials cannot take over the
organiser's session, clear its queue, or kick another table off. The organiser
reads each table's `up` in a session of its own (user `organiser-<device>`), so a
table that floods fills only its own queue (MAX_QUEUED): another table's deals
are never dropped to make room. The broker logs at debug level into its log file:
that is the only level at which Mosquitto 2.0 writes the publishes its ACL denies
("Denied PUBLISH"), which the service reads back for the organiser.
"""
import base64
import getpass
import hashlib
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


def acl_text(devices):
    lines = ["# written by host_tools.club broker: a table speaks only as itself", "",
             "user %s" % SERVICE_USER, "topic write coinche/+/ack", "topic write coinche/+/draw", ""]
    for device in devices:
        name = device["id"]
        # the organiser's reader: reads the table's up, and clears a retained message left there
        lines += ["user %s" % reader_user(name), "topic readwrite coinche/%s/up" % name, ""]
        lines += ["user %s" % name, "topic write coinche/%s/up" % name, "topic read coinche/%s/ack" % name,
                  "topic read coinche/%s/draw" % name, ""]
    return "\n".join(lines)


def config_text(folder, host, port, bridge=None, autosave=1):
    user = getpass.getuser()
    lines = [
        "# written by host_tools.club broker; docs/link.md says why each line is there",
        "per_listener_settings false",
        "allow_anonymous false",
        "password_file %s" % os.path.join(folder, "passwords"),
        "acl_file %s" % os.path.join(folder, "acl"),
        "listener %d %s" % (port, host),
        "protocol mqtt",
        "use_username_as_clientid true",
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


def write_broker_files(club, db, host, port, autosave=1):
    """Writes config, passwords and acl into the link folder; returns the config's path."""
    folder = link_folder(db)
    os.makedirs(os.path.join(folder, "persistence"), exist_ok=True)
    devices = current_devices(club)
    password = service_password(club)
    entries = ["%s:%s" % (SERVICE_USER, mosquitto_hash(password))]
    entries += ["%s:%s" % (reader_user(d["id"]), mosquitto_hash(password)) for d in devices]
    entries += ["%s:%s" % (d["id"], d["mqtt_hash"]) for d in devices]
    _write_private(os.path.join(folder, "passwords"), "\n".join(entries) + "\n")
    _write_private(os.path.join(folder, "acl"), acl_text(devices))
    bridge_path = os.path.join(folder, "bridge.conf")
    bridge = None
    if os.path.exists(bridge_path):
        with open(bridge_path, encoding="utf-8") as f:
            bridge = f.read()
    path = os.path.join(folder, "mosquitto.conf")
    _write_private(path, config_text(folder, host, port, bridge, autosave))
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
