"""The load bench's function on a few tables (make bench runs it with 200): every
action sent is stored once, and the figures are there."""
import pytest

from host_tools.club import link_run
from host_tools.club.load import run


@pytest.mark.skipif(link_run.mosquitto_program() is None,
                    reason="mosquitto is not installed (Debian: apt-get install mosquitto)")
def test_a_few_tables_under_the_bench(tmp_path):
    figures = run(tables=5, deals=4, pace=0.2, timeout=60, folder=str(tmp_path))
    assert figures["complete"]
    assert figures["actions_stored"] == figures["actions_sent"] == 5 * 5
    assert figures["page_latency_ms"]["measured"] == 5 * 4
    assert figures["page_latency_ms"]["p99"] >= figures["page_latency_ms"]["p50"] >= 0
    assert figures["service_rss_mb"] > 0 and figures["service_cpu_seconds"] >= 0
