"""The link under load: N light tables (the device's protocol, light_table.py) through a
real Mosquitto on loopback to the organiser's service, in processes of their own.

    python -m host_tools.bench.club_load [--tables 200] [--deals 12] [--timeout 180] [--json] [--out FILE]

--out writes the figures as a page (make bench: docs/bench_club.md); without Mosquitto
it says why and leaves the page as it was.

Each table plays one round: its "new", then half its deals paced (one deal per
table per --pace seconds, starting at random offsets), then the other half at once.
Measured: deals per second the organiser stores (the burst: from its first deal
sent to the last acknowledgement), the latency from a table's publish to the
projector's data (/live.json polled back to back: the first poll whose table shows
the deal), the service's CPU seconds and resident memory (from /proc). More tables
than a result code names (49) is a load, not a concours: the tables play rounds of
the event's rules without the concours field, so nothing is filed; the checks, the
store, the acknowledgement and the replay are the same.
"""
import argparse
import json
import os
import random
import sys
import tempfile
import threading
import time
import urllib.request

from host_tools.rigs import link_run
from host_tools.rigs.light_table import LightTable, simple_deal
from host_tools.club.link_broker import mosquitto_hash
from host_tools.club.service import Club, now

from coinche.rules import Rules

PRESET = "classic2000"
RESEND_SECONDS = 20.0  # a table that hears nothing sends again: not while the service is merely busy
POLL_SECONDS = 0.05  # between two reads of the projector's data (a projector reads every few seconds)


def _proc(pid):
    """(CPU seconds, resident KB, peak resident KB) of a process, from /proc."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = peak = 0
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
            elif line.startswith("VmHWM:"):
                peak = int(line.split()[1])
    return cpu, rss, peak


def _percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return None
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def _devices(db, tables, broker_port):
    """Provisions the tables straight into the event (no TABLE.json files, no table limit)."""
    import secrets
    configs = []
    with Club(db) as club:
        with club.store.transaction():
            for table in range(1, tables + 1):
                device = "t%03d-%s" % (table, secrets.token_hex(3))
                password = secrets.token_urlsafe(12)
                key = secrets.token_bytes(32)
                club.store.put_device(device, table, key.hex(), mosquitto_hash(password), now())
                configs.append({"device": device, "table": table, "key": key.hex(),
                                "mqtt": {"user": device, "password": password},
                                "broker": {"host": "127.0.0.1", "port": broker_port}})
    return configs


def run(tables=200, deals=12, pace=1.0, timeout=180.0, folder=None, autosave=1):
    """The figures of one run (a dict); every process started here is stopped before it returns."""
    if link_run.mosquitto_program() is None:
        raise RuntimeError("mosquitto is not installed (Debian: apt-get install mosquitto)")
    owned = folder is None
    folder = folder or tempfile.mkdtemp(prefix="club-load-")
    db = link_run.make_event(folder, 4, 1, deals)
    broker_port, web_port = link_run.free_port(), link_run.free_port()
    configs = _devices(db, tables, broker_port)
    rules = Rules(PRESET, {"deals": deals})
    broker = link_run.broker_process(db, broker_port, autosave).start()
    service = None
    clients = []
    seen = {}  # table -> {counted: first time the page showed it}
    stop_polling = threading.Event()
    polls = [0]

    def poll():
        url = "http://127.0.0.1:%d/live.json" % web_port
        while not stop_polling.is_set():
            try:
                rows = json.loads(urllib.request.urlopen(url, timeout=10).read())["tables"]
            except OSError:
                time.sleep(0.05)
                continue
            at = time.monotonic()
            polls[0] += 1
            for row in rows:
                marks = seen.setdefault(row["table"], {})
                for counted in range(1, row["counted"] + 1):
                    marks.setdefault(counted, at)
            time.sleep(POLL_SECONDS)

    try:
        service = link_run.service_process(db, broker_port, web_port).start()
        cpu_start = _proc(service.proc.pid)[0]
        broker_cpu_start = _proc(broker.proc.pid)[0]
        rnd = random.Random(1)
        for config in configs:
            client = LightTable(config, gaps=False, seed=config["table"], resend_seconds=RESEND_SECONDS)
            client.start()
            clients.append(client)
        end = time.monotonic() + timeout
        while time.monotonic() < end and not all(c.client.is_connected() for c in clients):
            time.sleep(0.05)
        poller = threading.Thread(target=poll, daemon=True)
        poller.start()
        sent = {}  # (table, counted) -> monotonic time of its publish
        started = time.monotonic()
        for client in clients:
            client.record({"op": "new", "rules": dict(rules.spec(), dealer="N")})
        paced = deals // 2
        offsets = {c.config["table"]: rnd.random() * pace for c in clients}
        for step in range(paced):
            for client in sorted(clients, key=lambda c: offsets[c.config["table"]]):
                due = started + step * pace + offsets[client.config["table"]]
                pause = due - time.monotonic()
                if pause > 0:
                    time.sleep(pause)
                client.add(simple_deal(rules, client.rnd))
                sent[(client.config["table"], step + 1)] = time.monotonic()
        while time.monotonic() < end and not all(not c.outbox for c in clients):
            time.sleep(0.02)
        burst_start = time.monotonic()
        for step in range(paced, deals):
            for client in clients:
                client.add(simple_deal(rules, client.rnd))
                sent[(client.config["table"], step + 1)] = time.monotonic()
        while time.monotonic() < end and not all(not c.outbox for c in clients):
            time.sleep(0.01)
        burst_end = time.monotonic()
        complete = all(not c.outbox for c in clients)
        settle = time.monotonic() + 5
        while time.monotonic() < settle and sum(len(m) for m in seen.values()) < len(sent):
            time.sleep(0.05)
        stop_polling.set()
        poller.join(15)
        cpu_end, rss, peak = _proc(service.proc.pid)
        broker_cpu = _proc(broker.proc.pid)[0] - broker_cpu_start
        latencies = [(seen[t][n] - at) * 1000 for (t, n), at in sent.items() if t in seen and n in seen[t]]
        with Club(db) as club:
            stored = sum(len(club.store.actions(c.config["device"])) for c in clients)
        burst_deals = tables * (deals - paced)
        return {
            "tables": tables, "deals_per_table": deals, "complete": complete,
            "actions_stored": stored, "actions_sent": tables * (deals + 1),
            "burst_deals_per_second": round(burst_deals / (burst_end - burst_start), 1),
            "paced_offered_deals_per_second": round(tables / pace, 1),
            "page_latency_ms": {"p50": round(_percentile(latencies, 0.5) or -1, 1),
                                "p99": round(_percentile(latencies, 0.99) or -1, 1),
                                "measured": len(latencies), "polls": polls[0]},
            "service_cpu_seconds": round(cpu_end - cpu_start, 2),
            "service_rss_mb": round(rss / 1024, 1), "service_peak_rss_mb": round(peak / 1024, 1),
            "broker_cpu_seconds": round(broker_cpu, 2), "broker_autosave_changes": autosave,
            "wall_seconds": round(time.monotonic() - started, 1),
            "load_average": os.getloadavg()[0],
        }
    finally:
        stop_polling.set()
        for client in clients:
            client.stop()
        if service is not None:
            service.stop()
        broker.stop()
        if owned:
            import shutil
            shutil.rmtree(folder, ignore_errors=True)


def page(figures, pace):
    """The figures as docs/bench_club.md: what was measured, how, and the numbers."""
    from host_tools.bench.measure import git_commit

    latency = figures["page_latency_ms"]
    rows = [
        ("tables, deals each", "%d, %d (a `new` and the deals: %d actions)" % (
            figures["tables"], figures["deals_per_table"], figures["actions_sent"])),
        ("actions stored (each once)", "%d of %d%s" % (figures["actions_stored"], figures["actions_sent"],
                                                      "" if figures["complete"] else " (not complete)")),
        ("deals per second the organiser stores (the burst)", figures["burst_deals_per_second"]),
        ("deals per second offered while paced", figures["paced_offered_deals_per_second"]),
        ("latency, a table's publish to the projector's data (p50 / p99)",
         "%s ms / %s ms (%d deals)" % (latency["p50"], latency["p99"], latency["measured"])),
        ("the service's CPU", "%s s" % figures["service_cpu_seconds"]),
        ("the service's memory (resident / peak)", "%s MB / %s MB" % (figures["service_rss_mb"],
                                                                      figures["service_peak_rss_mb"])),
        ("the broker's CPU (autosave on %d changes)" % figures["broker_autosave_changes"],
         "%s s" % figures["broker_cpu_seconds"]),
        ("wall time, load average at the end", "%s s, %.1f" % (figures["wall_seconds"], figures["load_average"])),
    ]
    lines = [
        "## The club link under load (host_tools/bench/club_load.py)",
        "",
        "Light tables speaking the device's protocol (host_tools/rigs/light_table.py), each in its own MQTT "
        "connection, through a real Mosquitto on 127.0.0.1 to the organiser's service started as `serve` is. "
        "Each table plays one round: its `new`, half its deals paced (one per table every %s s), then the other "
        "half at once (the burst). Measured on this machine, shared with whatever else runs: figures, never "
        "asserted. What they mean: [link.md](link.md#load)." % pace,
        "Generated by `make bench` on %s at commit `%s`." % (now()[:10], git_commit()),
        "",
        "| what | measured |",
        "| --- | --- |",
    ]
    lines += ["| %s | %s |" % row for row in rows]
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_tools.bench.club_load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a table's paced deals")
    parser.add_argument("--timeout", type=float, default=180.0)
    parser.add_argument("--autosave", type=int, default=1, help="the broker's --autosave (default 1)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--out", help="write the figures as a markdown page (make bench: docs/bench_club.md)")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 1000 or not 2 <= args.deals <= 50:
        parser.error("--tables 1..1000, --deals 2..50")
    if args.out and link_run.mosquitto_program() is None:
        print("skipped: mosquitto is not installed (Debian: apt-get install mosquitto); %s left as it was" % args.out)
        return 0
    figures = run(args.tables, args.deals, args.pace, args.timeout, autosave=args.autosave)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as file:
            file.write(page(figures, args.pace))
        print("wrote %s" % args.out)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print("%-32s %s" % (key, value))
    return 0 if figures["complete"] and figures["actions_stored"] == figures["actions_sent"] else 1


if __name__ == "__main__":
    sys.exit(main())
