"""The link's outbox on flash: the signed messages the organiser has not acknowledged yet,
kept across reboots and power cuts, so the table sends each again with the same bytes.

The journal is the outbox's source: what is journalled and not in this file yet
is read back from the journal when the link starts (link/unsent.py), so the
file is written off the key path, at a later poll, and a power cut before that
poll loses nothing. The file keeps what the journal cannot: each action exactly
as it was signed (the journal compacts a game into bases and archives, where an
action is no longer a line of its own). One line per action ("game seq
message"); the file is removed when an acknowledgement covers its last line.
`ack.json` holds the last acknowledged (game, seq), the device it was for (a
table provisioned again, a new device, starts a new outbox) and "from": the
journal's sequence number when that outbox was made (what the table journalled
before it was provisioned is not reported).

A line cut short by a power cut (no newline at the end) is dropped at load: it
was never sent, and the journal still holds its action.
"""
import json
import os

from coinche.compat import const

_ENOENT = const(2)
_EEXIST = const(17)


def _remove(path):
    try:
        os.remove(path)
    except OSError as error:
        if error.args[0] != _ENOENT:
            raise


class Outbox:
    def __init__(self, folder, device, start=0):
        """start: the journal's sequence number now, kept as "from" if this is a new outbox."""
        self.folder = folder
        self.device = device
        self.start = start
        self.out_name = folder + "/out.log"
        self.ack_name = folder + "/ack.json"
        self.acked_game = 0
        self.acked_seq = 0
        self.last_seq = 0  # seq of the last line of out.log (0: empty)
        self.pending = 0  # lines of out.log after the acknowledged seq
        self.size = 0  # bytes of out.log's complete lines
        self.load()

    def load(self):
        try:
            os.mkdir(self.folder)
        except OSError as error:
            if error.args[0] != _EEXIST:
                raise
        try:
            with open(self.ack_name) as file:
                held = json.load(file)
        except (OSError, ValueError):
            held = {}
        if held.get("device") != self.device:  # another device's outbox, or none yet
            _remove(self.out_name)
            self.write_ack(0, 0)
            held = {}
        else:
            self.start = held.get("from", 0)
        self.acked_game = held.get("game", 0)
        self.acked_seq = held.get("seq", 0)
        torn = False
        try:
            with open(self.out_name, "rb") as file:
                while True:
                    line = file.readline()
                    if not line:
                        break
                    if not line.endswith(b"\n"):
                        torn = True
                        break
                    seq = line_seq(line)
                    self.size += len(line)
                    self.last_seq = seq
                    if seq > self.acked_seq:
                        self.pending += 1
        except OSError:
            pass
        if torn:
            self.cut_torn_line()

    def cut_torn_line(self):
        """Keep the complete lines only (a copy, then a rename: a cut here loses nothing more)."""
        copy = self.out_name + ".new"
        with open(self.out_name, "rb") as source, open(copy, "wb") as target:
            left = self.size
            while left:
                chunk = source.read(min(left, 256))
                target.write(chunk)
                left -= len(chunk)
        os.rename(copy, self.out_name)

    def prev(self):
        """The seq of the last action handed to the outbox (0: none since provisioning)."""
        return self.last_seq if self.last_seq else self.acked_seq

    def handed(self):
        """The journal's sequence number up to which every action is in the outbox (or
        came before it): what the journal holds above it is still to be added."""
        return max(self.prev(), self.start)

    def add(self, game, seq, message):
        """Append one signed message; it is on flash when this returns."""
        line = b"%d %d " % (game, seq) + message + b"\n"
        with open(self.out_name, "ab") as file:
            file.write(line)
        self.size += len(line)
        self.last_seq = seq
        self.pending += 1

    def acknowledge(self, game, seq):
        """The organiser stored everything up to (game, seq). False if that is nothing new."""
        if seq <= self.acked_seq:
            return False
        self.acked_game = game
        self.acked_seq = seq
        self.write_ack(game, seq)
        if seq >= self.last_seq:
            _remove(self.out_name)
            self.last_seq = 0
            self.size = 0
            self.pending = 0
        else:
            self.pending = self.count_after(seq)
        return True

    def write_ack(self, game, seq):
        """The last acknowledgement and whose it is, replaced whole (a copy, then a rename)."""
        copy = self.ack_name + ".new"
        with open(copy, "w") as file:
            json.dump({"device": self.device, "game": game, "seq": seq, "from": self.start}, file)
        os.rename(copy, self.ack_name)

    def count_after(self, seq):
        count = 0
        offset = 0
        while True:
            found = self.line_at(offset)
            if found is None:
                return count
            if found[1] > seq:
                count += 1
            offset = found[2]

    def line_at(self, offset):
        """(game, seq, next offset, message) of the line at `offset`, None at the end."""
        if offset >= self.size:
            return None
        try:
            with open(self.out_name, "rb") as file:
                file.seek(offset)
                line = file.readline()
        except OSError:
            return None
        if not line.endswith(b"\n"):
            return None
        first = line.find(b" ")
        second = line.find(b" ", first + 1)
        return int(line[:first]), int(line[first + 1:second]), offset + len(line), line[second + 1:-1]

    def next_unacknowledged(self, offset):
        """The first line at or after `offset` that is not acknowledged, as line_at gives it."""
        while True:
            found = self.line_at(offset)
            if found is None or found[1] > self.acked_seq:
                return found
            offset = found[2]


def line_seq(line):
    first = line.find(b" ")
    return int(line[first + 1:line.find(b" ", first + 1)])
