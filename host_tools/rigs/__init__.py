"""Test rigs and fake clients: the stand-ins the tests and the benchmarks drive the real code
with. Never part of what a user runs.

light_table: a table's link client in CPython (the organiser's side sees real messages);
link_run: the organiser's link service and a broker for one test or bench run;
device_side/ (MicroPython, on the unix port): cutdev, a flash that dies at the k-th write;
damage, the damage suite's flipped blocks; broker_standin, the network at the socket's
interface for the link's device-time bench."""
