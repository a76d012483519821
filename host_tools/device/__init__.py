"""The tools for a real Pico: deploy (compile the firmware, copy it with mpremote), uf2
(MicroPython with the scoreboard frozen in, one file to drop on the Pico) and export
(every kept game off a device or a simulator image). `python -m host_tools.device.deploy`,
`host_tools.device.uf2` and `host_tools.device.export` run them."""
