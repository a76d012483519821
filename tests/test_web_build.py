"""make web's build (host_tools/web/build.py) where no browser is needed: what it says
when the UF2s cannot be built, what it takes from the firmware, and the staleness
check of a UF2."""
from host_tools.device import uf2
from host_tools.web import __main__ as web_main
from host_tools.web import build as web_build


def test_without_the_rp2_source_make_web_says_so_and_exits_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(web_build, "uf2_path", lambda board: str(tmp_path / ("coinche-%s.uf2" % board)))
    bootrom = tmp_path / "rp2040-bootrom-b1.bin"  # the boot ROM found, so the missing source is what is said
    bootrom.write_bytes(bytes(16384))
    monkeypatch.setenv("RP2040_BOOTROM", str(bootrom))
    out = tmp_path / "web"
    status = web_main.main(["--source", str(tmp_path / "no-such-source.tar.xz"), "--out", str(out)])
    err = capsys.readouterr().err
    assert status == 2
    assert "MICROPYTHON_SRC" in err and "no-such-source.tar.xz" in err and "../shared/rp2/" in err
    assert not out.exists()


def test_a_uf2_without_the_trees_firmware_digest_is_stale(tmp_path, monkeypatch):
    path = tmp_path / "coinche-pico_oled.uf2"
    monkeypatch.setattr(web_build, "uf2_path", lambda board: str(path))

    def uf2_file(payload):
        blocks = []
        for index, at in enumerate(range(0, len(payload), 256)):
            chunk = payload[at:at + 256]
            header = b"".join(v.to_bytes(4, "little") for v in (0x0A324655, 0x9E5D5157, 0x2000, 0x10000000 + at,
                                                                len(chunk), index, 1, 0xE48BFF56))
            blocks.append(header + chunk.ljust(476, b"\0") + (0x0AB16F30).to_bytes(4, "little"))
        return b"".join(blocks)

    digest = uf2.firmware_digest("pico_oled").encode()
    # the digest across a block boundary: found only in the payloads put together
    path.write_bytes(uf2_file(b"x" * 250 + digest))
    assert web_build.uf2_is_current("pico_oled")
    path.write_bytes(uf2_file(b"x" * 250 + digest[:-1] + b"?"))
    assert not web_build.uf2_is_current("pico_oled")


def test_the_new_games_choices_are_the_firmwares():
    from coinche.rule_options import PRESET_NAMES
    from coinche.rules import DEFAULT_PRESET, Rules

    config = web_build.page_config()
    assert [code for code, _ in config["languages"]] == list(web_build.firmware_constant("LANGS"))
    assert config["defaultLanguage"] == web_build.firmware_constant("SETTINGS")["s_lang"][1]
    assert (config["presets"], config["defaultPreset"]) == (list(PRESET_NAMES), DEFAULT_PRESET)
    assert config["targets"] == list(web_build.firmware_constant("TARGETS"))
    assert config["presetTargets"] == {name: Rules(name).target for name in PRESET_NAMES}


def test_the_boards_wiring_is_read_from_their_board_files():
    boards = web_build.page_config()["boards"]
    assert boards["pico_display_pack"]["buttons"] == [12, 13, 14, 15]  # A, B, X, Y
    assert (boards["pico_display_pack"]["dc"], boards["pico_display_pack"]["cs"]) == (16, 17)
    assert (boards["pico_oled"]["buttons"], boards["pico_oled"]["address"]) == ([10, 11, 12, 13], 0x3C)
