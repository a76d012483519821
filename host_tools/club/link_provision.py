"""Provisioning a table's scoreboard: its own device name, MQTT password and HMAC
key, made here, kept in the event (the key checks its messages; the password only
hashed, for the broker's password file) and written to TABLE.json for the device
(docs/link.md lists the fields; `make club-provision` copies it to /club.json).
"""
import ipaddress
import json
import os
import secrets
import socket

from host_tools.club.errors import ClubError
from host_tools.club.link_broker import DEFAULT_PORT, mosquitto_hash, parse_address
from host_tools.club.service import now

from coinche import result_code
from link import protocol

KEY_BYTES = 32
MAX_SSID = 32  # 802.11's limit
MAX_WIFI_PASSWORD = 63  # WPA2's passphrase


def this_machine():
    """This machine's address on the network it would reach others by, or None."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # UDP: picks the outgoing address, sends nothing
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def broker_ip(host):
    """The broker's IPv4 address, as the table's file must hold it: a host name is
    resolved here, on the organiser's machine, because a Pico W would block its
    whole loop in getaddrinfo (the table refuses a name, docs/link.md)."""
    try:
        return str(ipaddress.IPv4Address(host))
    except ValueError:
        pass
    try:
        ipaddress.IPv6Address(host.strip("[]"))
    except ValueError:
        pass
    else:
        raise ClubError("--broker: %s is an IPv6 address; the tables speak IPv4: give the broker's IPv4 address"
                        % host)
    try:
        found = socket.getaddrinfo(host, None, socket.AF_INET, socket.SOCK_STREAM)
    except (OSError, UnicodeError) as e:
        reason = getattr(e, "strerror", None) or str(e)
        raise ClubError("--broker: the name %r does not resolve on this machine (%s): give the broker's IP "
                        "address, e.g. --broker 192.168.1.10:1883" % (host, reason))
    if not found:
        raise ClubError("--broker: the name %r has no IPv4 address: give the broker's IP address" % host)
    return found[0][4][0]


def provision(club, table, out, broker, ssid, wifi_password):
    """Creates table `table`'s credentials (a new device each time: the old one is
    no longer let in), stores them and writes the device's file at `out`."""
    if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= result_code.MAX_TABLE:
        raise ClubError("--table must be a whole number from 1 to %d, got %r" % (result_code.MAX_TABLE, table))
    club.event()
    if not ssid or len(ssid.encode()) > MAX_SSID:
        raise ClubError("the WiFi name is 1 to %d bytes, got %r" % (MAX_SSID, ssid))
    if wifi_password is None or len(wifi_password) > MAX_WIFI_PASSWORD or 0 < len(wifi_password) < 8:
        raise ClubError("the WiFi password is 8 to %d characters (or empty for an open network)" % MAX_WIFI_PASSWORD)
    name, port = parse_address(broker, "--broker") if broker else (this_machine(), DEFAULT_PORT)
    if name is None:
        raise ClubError("this machine has no network address the tables could reach: give --broker HOST:PORT")
    host = broker_ip(name)
    if os.path.isdir(out):
        raise ClubError("--out %s is a folder: give the file to write" % out)
    device = "t%02d-%s" % (table, secrets.token_hex(3))
    mqtt_password = secrets.token_urlsafe(18)
    key = secrets.token_bytes(KEY_BYTES)
    document = {
        "v": protocol.VERSION,
        "wifi": {"ssid": ssid, "password": wifi_password},
        "broker": {"host": host, "port": port},
        "device": device,
        "table": table,
        "mqtt": {"user": device, "password": mqtt_password},
        "key": key.hex(),
    }
    try:
        descriptor = os.open(out + ".new", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as f:
            json.dump(document, f, ensure_ascii=False, indent=1)
            f.write("\n")
    except OSError as e:
        raise ClubError("cannot write %s: %s" % (out, e.strerror))
    with club.store.transaction():  # the file is complete before the device exists in the event
        club.store.put_device(device, table, key.hex(), mosquitto_hash(mqtt_password), now())
    os.replace(out + ".new", out)
    answer = {"table": table, "device": device, "out": out, "broker": "%s:%d" % (host, port),
              "restart the broker": "its password file and ACL now include %s" % device}
    if host != name:
        answer["resolved"] = "%s is %s on this machine; the table keeps the address" % (name, host)
    if host.startswith("127."):
        answer["note"] = "%s reaches only this machine: right for the simulator, not for a table" % host
    return answer
