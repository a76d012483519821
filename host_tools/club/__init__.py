"""The organiser's app for a club's concours: the event, the teams, the draw, the
results (result codes, paper sheets, device exports), corrections and standings;
a command line (host_tools/club/cli.py) and pages on the club's network
(host_tools/club/web.py). docs/club.md explains it all.

Imports go one way: errors <- limits, pairing, standings, storage
(<- storage_postgres) <- databases <- service <- link_broker, link_ingest <- link_provision,
link_service <- cli, web. docs/link.md explains the live link. Its test rigs and fake
clients are in host_tools/rigs/, its benchmarks in host_tools/bench/."""
