"""What the host tools share, kept in one place so each tool says it once: where the
repository's folders are (paths), where the development programs are (programs), the
frames the device sends and their pictures (frames), the key script language (script),
the options every way of running the scoreboard takes (device_options) and the
--rules/--target/--set reader of the calculator and the key planner (rules_help)."""
