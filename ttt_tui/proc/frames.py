"""How messages travel between ttt-tui and a child process: the two framings.

`LINES` carries text lines (a learner's bot speaks them); `PICKLES` carries
Python objects, each pickled behind its length (the search process). A codec
cuts what has arrived so far into whole messages and keeps the rest for later.
The child's side of `PICKLES` reads and writes with `read_pickle` and
`write_pickle`. Only the standard library is imported: a child starts quickly.
"""

from __future__ import annotations

import pickle
import struct
from typing import IO, Any, Protocol

LONGEST_LINE = 1 << 20
"""A line longer than this (bytes) is cut there: a chatty child cannot fill the memory."""

_LENGTH = struct.Struct(">I")


class Codec(Protocol):
    """Turns messages into bytes and whole frames of bytes back into messages."""

    def encode(self, message: Any) -> bytes:
        """The bytes that carry ``message``."""
        ...

    def decode(self, buffer: bytearray) -> list[Any]:
        """The whole messages at the start of ``buffer``, removed from it."""
        ...


class Lines:
    """Text lines, UTF-8, each ended by a newline (a bad byte reads as U+FFFD)."""

    def encode(self, message: Any) -> bytes:
        return f"{message}\n".encode()

    def decode(self, buffer: bytearray) -> list[Any]:
        found: list[Any] = []
        while True:
            end = buffer.find(b"\n")
            if end < 0 and len(buffer) >= LONGEST_LINE:
                end = LONGEST_LINE
            if end < 0:
                return found
            found.append(bytes(buffer[:end]).decode("utf-8", errors="replace").rstrip("\r"))
            del buffer[: end + 1]


class Pickles:
    """Python objects, each pickled behind a four-byte length."""

    def encode(self, message: Any) -> bytes:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        return _LENGTH.pack(len(data)) + data

    def decode(self, buffer: bytearray) -> list[Any]:
        found: list[Any] = []
        while len(buffer) >= _LENGTH.size:
            (length,) = _LENGTH.unpack_from(buffer)
            end = _LENGTH.size + length
            if len(buffer) < end:
                break
            found.append(pickle.loads(bytes(buffer[_LENGTH.size : end])))
            del buffer[:end]
        return found


LINES = Lines()
PICKLES = Pickles()


def write_pickle(stream: IO[bytes], message: Any) -> None:
    """Send ``message`` on ``stream`` as `PICKLES` frames it (the child's side)."""
    stream.write(PICKLES.encode(message))
    stream.flush()


def read_pickle(stream: IO[bytes]) -> Any:
    """The next message `PICKLES` framed on ``stream``; `EOFError` once it has ended."""
    header = stream.read(_LENGTH.size)
    if len(header) < _LENGTH.size:
        raise EOFError
    (length,) = _LENGTH.unpack(header)
    data = stream.read(length)
    if len(data) < length:
        raise EOFError
    return pickle.loads(data)
