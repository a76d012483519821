"""No press lost at 30/30 ms: the 40-deal game on the emulated Pico (host_tools/rp2emu),
typed on the GPIO buttons of the firmware `make deploy` put there (the image of
tests/deployed_images.py, shared with tests/test_rp2emu.py). A file of its own: the
longest emulated test runs on one test worker while test_rp2emu.py's run on the other.
Skipped, with the reason, where the UF2, the boot ROM, node or rp2040js is missing."""
import shutil

import pytest

import deployed_images
from host_tools import rp2emu
from host_tools.bench import emulated

REASON = rp2emu.missing()
pytestmark = [pytest.mark.device, pytest.mark.skipif(REASON is not None, reason="emulated Pico: %s" % REASON)]  # boots the emulated RP2040 (the device tier)


@pytest.fixture(scope="module")
def oled_image():
    path, frame, reboots = deployed_images.deployed("pico_oled")
    assert reboots == 1, "make deploy ends with a reset"
    return path, frame


@pytest.mark.slow
def test_no_press_lost_or_reordered_in_40_deals_at_30_30_ms(oled_image, tmp_path):
    """A 40-deal federation game (melds, held keys) typed at 30 ms presses with 30 ms
    gaps while the app renders, saves (each sector erase keeps interrupts off for
    45 ms) and collects garbage (make bench's measuring layer runs gc.collect() every
    8 polls): every press lands, in order.  The device scores every deal as the
    planner typed it, and the edge ring never overflowed.  make bench's figure 9 plays
    the same game."""
    image = str(tmp_path / "flash.img")
    shutil.copy(oled_image[0], image)
    game = emulated.game("pico_oled", image, "federation", log=lambda text: None)
    assert "crash" not in game, "the app's loop ended:\n%s" % game["crash"]
    assert game["interrupts"], "the buttons were polled, not on edge interrupts"
    assert game["edges_dropped"] == 0, "%d edges found the ring full" % game["edges_dropped"]
    assert game["deals_kept"] == game["deals_wanted"] == 40
    assert game["deals_match"], ("a press was lost or reordered: the deals do not score as typed; the first "
                                 "that differs (deal, as typed, as kept): %r" % (game.get("first_difference"),))
