"""The serial display line protocol, version 1: framing, checksum, and the messages.

The byte-exact description, with examples, is ``firmware_notes/PROTOCOL.md``; the examples
themselves live in ``firmware_notes/protocol_examples.txt`` and are checked against this module
and against the firmware's C++ parser alike, so the two sides cannot drift apart.

A frame is one line of printable ASCII::

    KIND|SEQ|FIELD|FIELD...*CRCX\\n

``KIND`` is 1-9 capital letters or ``_``; ``SEQ`` is 0-9999 in decimal (the host numbers its
frames 1-9999 and wraps to 1; 0 is the device's "no frame I could trust"); fields are printable
ASCII without ``|``; ``CRCX`` is the CRC-16/CCITT-FALSE of every byte before the ``*``, as four
capital hex digits. A frame is at most :data:`MAX_FRAME` bytes with its newline. The device
may end lines with ``\\r\\n``.

>>> encode_frame("DICE", 12, ("6", "5"))
b'DICE|12|6|5*FFB1\\n'
>>> decode_frame(b"DICE|12|6|5*FFB1\\n")
Frame(kind='DICE', seq=12, fields=('6', '5'))
"""

from __future__ import annotations

import binascii
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.errors import CompanionError

PROTOCOL_VERSION = 1
MAX_FRAME = 120
"""Longest frame in bytes, newline included: the firmware's line buffer is this size."""
MAX_FIELD = 40
"""Longest text field; longer text is cut (the LCD shows 16 characters a line anyway)."""
MAX_SEQ = 9999

HOST_ARITY: dict[str, int] = {
    "HELLO": 1,
    "VERDICT": 3,
    "TURN": 2,
    "DICE": 2,
    "SCORE": 4,
    "PIPS": 2,
    "TEXT": 1,
    "CLEAR": 0,
    "PING": 0,
}
"""Messages the host sends, with their number of fields."""

DEVICE_ARITY: dict[str, int] = {"ACK": 0, "NAK": 1, "HELLO": 2}
"""Messages the device sends, with their number of fields."""

VERDICT_STATUSES = ("LEGAL", "ILLEGAL", "WAITING", "REROLL", "GAME_OVER", "INFO", "WARNING")
COLOURS = ("white", "black")

FRAMING_REASONS = ("too_long", "bad_char", "no_checksum", "checksum", "kind", "seq")
"""Why a line is not a frame; the device answers these with ``NAK|0|reason``."""
MESSAGE_REASONS = ("unknown", "arity", "value")
"""Why a sound frame is refused; the device answers these with ``NAK|seq|reason``."""

_KIND = re.compile(r"[A-Z_]{1,9}")
_SEQ = re.compile(r"[0-9]{1,4}")
_HEX4 = re.compile(r"[0-9A-F]{4}")
_NUMBER = re.compile(r"[0-9]{1,3}")


class ProtocolError(CompanionError, ValueError):
    """A line that is not a sound frame, or a frame that is not a sound message.

    ``reason`` is one of :data:`FRAMING_REASONS` or :data:`MESSAGE_REASONS` (the word the
    device puts in its NAK) and ``line`` the offending bytes.
    """

    def __init__(self, reason: str, message: str, line: bytes = b"") -> None:
        self.reason = reason
        self.line = line
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame: its kind, sequence number and text fields."""

    kind: str
    seq: int
    fields: tuple[str, ...] = ()

    def encode(self) -> bytes:
        return encode_frame(self.kind, self.seq, self.fields)


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF), as the firmware computes it.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    return binascii.crc_hqx(data, 0xFFFF)


_ASCII_LOOKALIKES = str.maketrans(
    {
        "\u2212": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2026": "...",
        "\u00d7": "x",
        "|": "/",
        "\t": " ",
        "\n": " ",
        "\r": " ",
    }
)


def ascii_text(text: str, limit: int = MAX_FIELD) -> str:
    """Text a 16x2 LCD can show: printable ASCII, no ``|``, at most ``limit`` characters.

    Accents are dropped, dashes and quotes become their ASCII look-alikes, anything else that
    the LCD cannot show becomes ``?``.

    >>> ascii_text("Crawford — white’s 6-5 | café")
    "Crawford - white's 6-5 / cafe"
    """
    decomposed = unicodedata.normalize("NFKD", text.translate(_ASCII_LOOKALIKES))
    kept = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    printable = "".join(ch if " " <= ch <= "~" else "?" for ch in kept)
    return printable[:limit]


def encode_frame(kind: str, seq: int, fields: Sequence[str] = ()) -> bytes:
    """The bytes of one frame, newline included.

    Raises :class:`ProtocolError` for a malformed kind, a sequence number outside 0-9999, a
    field that is not printable ASCII or holds ``|``, or a frame longer than :data:`MAX_FRAME`
    (pass text through :func:`ascii_text` first).
    """
    if not _KIND.fullmatch(kind):
        raise ProtocolError("kind", f"a frame kind is 1-9 capital letters, got {kind!r}")
    if not 0 <= seq <= MAX_SEQ:
        raise ProtocolError("seq", f"a sequence number is 0-{MAX_SEQ}, got {seq}")
    for field in fields:
        if "|" in field or any(not " " <= ch <= "~" for ch in field):
            raise ProtocolError(
                "bad_char", f"field {field!r} must be printable ASCII without '|': use ascii_text"
            )
    body = "|".join((kind, str(seq), *fields)).encode("ascii")
    frame = body + b"*%04X\n" % crc16(body)
    if len(frame) > MAX_FRAME:
        raise ProtocolError(
            "too_long", f"frame is {len(frame)} bytes, the limit is {MAX_FRAME}: shorten the text"
        )
    return frame


def decode_frame(line: bytes | str) -> Frame:
    """The frame in one line (its ``\\n`` or ``\\r\\n`` optional).

    Raises :class:`ProtocolError` whose ``reason`` is one of :data:`FRAMING_REASONS`, checked
    in that order (the firmware checks in the same order, so both name the same reason).
    """
    raw = line.encode("latin-1") if isinstance(line, str) else bytes(line)
    text = raw[:-1] if raw.endswith(b"\n") else raw
    text = text[:-1] if text.endswith(b"\r") else text
    if len(text) + 1 > MAX_FRAME:
        raise ProtocolError("too_long", f"line of {len(text)} bytes is longer than a frame", raw)
    if any(not 0x20 <= byte <= 0x7E for byte in text):
        raise ProtocolError("bad_char", "line holds bytes that are not printable ASCII", raw)
    body, star, checksum = text.rpartition(b"*")
    if not star or not _HEX4.fullmatch(checksum.decode("ascii")):
        raise ProtocolError("no_checksum", "line does not end in '*' and four hex digits", raw)
    if int(checksum, 16) != crc16(body):
        raise ProtocolError(
            "checksum", f"checksum {checksum.decode()} != {crc16(body):04X} (line damaged)", raw
        )
    parts = body.decode("ascii").split("|")
    if not _KIND.fullmatch(parts[0]):
        raise ProtocolError("kind", f"frame kind {parts[0]!r} is not 1-9 capital letters", raw)
    if len(parts) < 2 or not _SEQ.fullmatch(parts[1]):
        raise ProtocolError("seq", "frame has no sequence number of 1-4 digits", raw)
    return Frame(parts[0], int(parts[1]), tuple(parts[2:]))


def check_host_message(frame: Frame) -> None:
    """Checks a frame from the host the way the firmware does before acting on it.

    A HELLO of any version passes: the device answers it with its own version and the host
    decides whether the two can talk.

    Raises :class:`ProtocolError` whose ``reason`` is one of :data:`MESSAGE_REASONS`.
    """
    arity = HOST_ARITY.get(frame.kind)
    if arity is None:
        raise ProtocolError("unknown", f"no message {frame.kind!r} in protocol {PROTOCOL_VERSION}")
    if len(frame.fields) != arity:
        raise ProtocolError(
            "arity", f"{frame.kind} has {arity} fields, got {len(frame.fields)}", frame.encode()
        )
    numbers: tuple[str, ...] = ()
    if frame.kind == "HELLO":
        numbers = frame.fields
    if frame.kind == "VERDICT" and frame.fields[0] not in VERDICT_STATUSES:
        raise ProtocolError("value", f"unknown verdict status {frame.fields[0]!r}")
    if frame.kind == "TURN" and frame.fields[0] not in COLOURS:
        raise ProtocolError("value", f"unknown colour {frame.fields[0]!r}")
    if frame.kind == "DICE":
        if any(value not in "123456" or len(value) != 1 for value in frame.fields):
            raise ProtocolError("value", f"dice must be 1-6, got {frame.fields}")
    if frame.kind == "SCORE":
        numbers = frame.fields[:3]
        if frame.fields[3] not in ("0", "1"):
            raise ProtocolError("value", "the Crawford flag is 0 or 1")
    if frame.kind == "PIPS":
        numbers = frame.fields
    if any(not _NUMBER.fullmatch(value) for value in numbers):
        raise ProtocolError("value", f"{frame.kind} needs whole numbers 0-999, got {numbers}")


def check_device_message(frame: Frame) -> None:
    """Checks a frame from the device: a known kind with the right number of fields."""
    arity = DEVICE_ARITY.get(frame.kind)
    if arity is None:
        raise ProtocolError("unknown", f"the device sent an unknown message {frame.kind!r}")
    if len(frame.fields) != arity:
        raise ProtocolError("arity", f"{frame.kind} has {arity} fields, got {len(frame.fields)}")


class LineBuffer:
    """Cuts the byte stream from the device into lines, surviving garbage and partial lines.

    Bytes that run on past :data:`MAX_FRAME` without a newline (a baud-rate mismatch, noise on
    an unplugged line) are thrown away up to the next newline and counted in
    :attr:`discarded`, so a stream of garbage can never grow the buffer without limit.
    """

    def __init__(self) -> None:
        self._pending = bytearray()
        self._overflowing = False
        self.discarded = 0

    def feed(self, data: bytes) -> list[bytes]:
        """Adds received bytes; returns the complete lines (each with its ``\\n``)."""
        lines: list[bytes] = []
        for chunk in data.splitlines(keepends=True):
            if chunk.endswith(b"\n"):
                if self._overflowing:
                    self.discarded += len(chunk)
                    self._overflowing = False
                else:
                    lines.append(bytes(self._pending + chunk))
                self._pending.clear()
            elif self._overflowing:
                self.discarded += len(chunk)
            else:
                self._pending += chunk
                if len(self._pending) > MAX_FRAME:
                    self.discarded += len(self._pending)
                    self._pending.clear()
                    self._overflowing = True
        return lines

    def reset(self) -> None:
        """Forgets a partial line, as when the port is reopened."""
        self._pending.clear()
        self._overflowing = False


class DeviceSession:
    """The device's side of the protocol, as the firmware implements it, in Python.

    Tests use it as the simulated display at the far end of a pseudo-terminal, and the shared
    examples check it against the firmware's C++ so the simulation cannot drift from the real
    device. ``state`` holds the newest fields of each message kind (what the LCD shows),
    ``applied`` every frame acted on, in order.
    """

    def __init__(self, name: str = "lcd16x2", version: int = PROTOCOL_VERSION) -> None:
        self.name = name
        self.version = version
        self.last_seq = -1
        self.state: dict[str, tuple[str, ...]] = {}
        self.applied: list[Frame] = []

    def handle(self, line: bytes) -> bytes:
        """Acts on one received line; returns the reply to send (empty for a blank line)."""
        stripped = line.rstrip(b"\n").rstrip(b"\r")
        if not stripped:
            return b""
        try:
            frame = decode_frame(line)
        except ProtocolError as error:
            return encode_frame("NAK", 0, (error.reason,))
        try:
            check_host_message(frame)
        except ProtocolError as error:
            return encode_frame("NAK", frame.seq, (error.reason,))
        if frame.kind == "HELLO":
            self.last_seq = frame.seq
            return encode_frame("HELLO", frame.seq, (str(self.version), self.name))
        if frame.seq != self.last_seq:
            self.last_seq = frame.seq
            self.apply(frame)
        return encode_frame("ACK", frame.seq)

    def apply(self, frame: Frame) -> None:
        """Updates what the display shows: CLEAR empties it, PING changes nothing."""
        self.applied.append(frame)
        if frame.kind == "CLEAR":
            self.state.clear()
        elif frame.kind != "PING":
            self.state[frame.kind] = frame.fields


# -- the shared examples (firmware_notes/protocol_examples.txt) ---------------------------------


@dataclass(frozen=True, slots=True)
class Example:
    """One line of the shared example file.

    ``check`` is ``"frame"`` (decode ``data``; ``expect`` is ``"ok"`` and ``frame`` the
    result, or a framing reason), ``"message"`` (``expect`` is ``"ok"`` or a message reason of
    :func:`check_host_message`), ``"reply"`` (the device answers ``data`` with ``reply``) or
    ``"session"`` (a fresh device for the replies that follow).
    """

    check: str
    line_number: int
    expect: str = ""
    data: bytes = b""
    frame: Frame | None = None
    reply: bytes = b""


EXAMPLES_PATH = Path(__file__).resolve().parents[2] / "firmware_notes" / "protocol_examples.txt"


def _tokens(line: str, line_number: int) -> list[str | bytes]:
    """Splits an example line into bare words (str) and quoted byte strings (bytes)."""
    tokens: list[str | bytes] = []
    index = 0
    while index < len(line):
        ch = line[index]
        if ch in " \t":
            index += 1
        elif ch == '"':
            out = bytearray()
            index += 1
            while index < len(line) and line[index] != '"':
                if line[index] == "\\":
                    code = line[index + 1 : index + 2]
                    if code == "x":
                        out.append(int(line[index + 2 : index + 4], 16))
                        index += 4
                        continue
                    escapes = {"n": b"\n", "r": b"\r", "t": b"\t", "\\": b"\\", '"': b'"'}
                    if code not in escapes:
                        raise ValueError(f"protocol examples line {line_number}: bad escape")
                    out += escapes[code]
                    index += 2
                else:
                    out += line[index].encode("ascii")
                    index += 1
            if index >= len(line):
                raise ValueError(f"protocol examples line {line_number}: unterminated quote")
            tokens.append(bytes(out))
            index += 1
        else:
            end = index
            while end < len(line) and line[end] not in " \t":
                end += 1
            tokens.append(line[index:end])
            index = end
    return tokens


def _text(token: str | bytes) -> str:
    return token.decode("ascii") if isinstance(token, bytes) else token


def load_examples(path: Path = EXAMPLES_PATH) -> list[Example]:
    """Reads the shared examples file (its header describes the format)."""
    examples = []
    for number, line in enumerate(path.read_text(encoding="ascii").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        check, *rest = _tokens(line, number)
        try:
            if check == "session":
                examples.append(Example("session", number))
            elif check == "reply":
                data, reply = rest
                assert isinstance(data, bytes) and isinstance(reply, bytes)
                examples.append(Example("reply", number, data=data, reply=reply))
            elif check in ("frame", "message"):
                expect, data, *decoded = rest
                assert isinstance(data, bytes)
                frame = None
                if check == "frame" and expect == "ok":
                    kind, seq, *fields = decoded
                    frame = Frame(_text(kind), int(_text(seq)), tuple(map(_text, fields)))
                examples.append(Example(str(check), number, _text(expect), data, frame))
            else:
                raise ValueError(f"unknown check {check!r}")
        except (ValueError, AssertionError) as error:
            raise ValueError(f"protocol examples line {number} is malformed: {error}") from error
    return examples
