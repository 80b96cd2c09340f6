"""The serial display: a microcontroller with a small screen on a USB serial line.

The game loop never waits for it. Each ``show_*`` call only records the newest state of its
message kind and wakes a background writer thread; the writer sends one frame at a time (stop
and wait), retries a frame until the device acknowledges it, and, when the line dies (the cable
is pulled: ``SerialException``), closes the port, reopens it with growing back-off, repeats
the version handshake and re-sends the whole current state. Between those steps newer calls
replace older pending ones of the same kind, so the queue is bounded by the number of message
kinds and the device always ends on the newest state.

The port is a path (``/dev/ttyACM0``), a pyserial URL (``loop://``, ``socket://host:port``)
or ``usb:VID:PID`` (hex, e.g. ``usb:2341:0043`` for an Arduino Uno), looked up among the
plugged-in USB serial devices on every (re)connect, so a replugged board is found again even
under a new device name.

On ``loop://`` every frame comes straight back; the handshake recognises its own HELLO,
marks the display :attr:`SerialDisplay.is_loopback` and counts each echo as the
acknowledgement, which makes ``serial:loop://`` a dry run of the whole protocol.

The wire format is in :mod:`companion.displays.protocol` and ``firmware_notes/PROTOCOL.md``.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import serial
import serial.tools.list_ports

from companion.displays.base import (
    DisplayBase,
    DisplayConfigError,
    Verdict,
    check_count,
    check_dice,
)
from companion.displays.protocol import (
    MAX_SEQ,
    MESSAGE_REASONS,
    PROTOCOL_VERSION,
    Frame,
    LineBuffer,
    ProtocolError,
    ascii_text,
    check_device_message,
    decode_frame,
    encode_frame,
)
from companion.rules.position import Colour

try:
    from termios import error as _TermiosError
except ImportError:  # pragma: no cover - Windows has no termios

    class _TermiosError(Exception):  # type: ignore[no-redef]
        """Stands in for termios.error where there is no termios."""


logger = logging.getLogger(__name__)

_USB = re.compile(r"usb:([0-9a-fA-F]{4}):([0-9a-fA-F]{4})")


class LinkLost(Exception):
    """The device stopped answering or the port failed; the writer reconnects."""


class IncompatibleDevice(Exception):
    """The device speaks another protocol version; retrying cannot help."""


LINK_ERRORS = (serial.SerialException, OSError, _TermiosError, LinkLost)
"""What a pulled cable raises, depending on the moment and the driver."""


@dataclass(frozen=True, slots=True)
class PortSpec:
    """Where the display is: a path or pyserial URL, or a USB vendor and product id.

    >>> PortSpec.parse("usb:2341:0043").usb
    (9025, 67)
    >>> PortSpec.parse("loop://").url
    'loop://'
    """

    text: str
    url: str = ""
    usb: tuple[int, int] | None = None

    @classmethod
    def parse(cls, text: str) -> PortSpec:
        """Raises :class:`DisplayConfigError` for an empty port or a malformed ``usb:`` id."""
        text = text.strip()
        if not text:
            raise DisplayConfigError(
                "the serial display needs a port: a path like /dev/ttyACM0, a URL like loop://"
                " or socket://host:port, or usb:VID:PID like usb:2341:0043"
            )
        if text.lower().startswith("usb:"):
            match = _USB.fullmatch(text)
            if not match:
                raise DisplayConfigError(
                    f"{text!r} is not a USB id: write usb:VID:PID with four hex digits each, "
                    "e.g. usb:2341:0043 (see `python -m serial.tools.list_ports -v`)"
                )
            return cls(text, usb=(int(match[1], 16), int(match[2], 16)))
        return cls(text, url=text)

    def resolve(self) -> str:
        """The path or URL to open now; a USB id is looked up among the plugged-in devices."""
        if self.usb is None:
            return self.url
        vid, pid = self.usb
        for port in sorted(serial.tools.list_ports.comports(), key=lambda p: p.device):
            if port.vid == vid and port.pid == pid:
                return str(port.device)
        raise serial.SerialException(f"no USB serial device {vid:04x}:{pid:04x} is plugged in")


@dataclass(frozen=True, slots=True)
class SerialStats:
    """Counters of what happened on the line, for status lines and tests."""

    frames_sent: int = 0
    acknowledged: int = 0
    retries: int = 0
    naks: int = 0
    refused: int = 0
    garbage_lines: int = 0
    garbage_bytes: int = 0
    connects: int = 0
    link_losses: int = 0


class SerialDisplay(DisplayBase):
    """A display on a serial line, speaking the protocol of :mod:`companion.displays.protocol`.

    Construction never touches the port: the writer thread connects in the background, so a
    display that is unplugged at start-up simply shows the game once it is plugged in.
    :attr:`status` says what the link is doing; :meth:`wait_connected` and
    :meth:`wait_idle` let a command or a test wait for it with a timeout.
    """

    def __init__(
        self,
        port: str,
        *,
        baudrate: int = 115200,
        ack_timeout: float = 0.3,
        retries: int = 3,
        handshake_timeout: float = 3.0,
        open_delay: float = 0.0,
        backoff_initial: float = 0.1,
        backoff_max: float = 5.0,
        ping_interval: float = 2.0,
        name: str = "",
    ) -> None:
        self.port = PortSpec.parse(port)
        for label, value in (
            ("ack_timeout", ack_timeout),
            ("handshake_timeout", handshake_timeout),
            ("backoff_initial", backoff_initial),
            ("backoff_max", backoff_max),
            ("ping_interval", ping_interval),
        ):
            if not value > 0:
                raise DisplayConfigError(f"serial {label} must be more than 0 seconds, got {value}")
        if retries < 0 or open_delay < 0:
            raise DisplayConfigError("serial retries and open_delay cannot be negative")
        self.name = name or f"serial:{self.port.text}"
        self.baudrate = baudrate
        self.ack_timeout = ack_timeout
        self.retries = retries
        self.handshake_timeout = handshake_timeout
        self.open_delay = open_delay
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.ping_interval = ping_interval

        self._lock = threading.Condition()
        self._state: OrderedDict[str, tuple[str, ...]] = OrderedDict()
        self._pending: OrderedDict[str, tuple[str, ...]] = OrderedDict()
        self._in_flight = False
        self._stopping = threading.Event()
        self._connected = threading.Event()
        self._status = "connecting"
        self._counts: dict[str, int] = dict.fromkeys(SerialStats.__dataclass_fields__, 0)
        self._seq = 0
        self._serial: Any = None
        self._lines = LineBuffer()
        self.is_loopback = False
        self.device_name = ""
        self._thread = threading.Thread(target=self._run, name=f"{self.name} writer", daemon=True)
        self._thread.start()

    # -- the game loop's side: record the newest state and return at once ----------------------

    def _put(self, kind: str, fields: tuple[str, ...]) -> None:
        with self._lock:
            if kind == "CLEAR":
                self._state.clear()
                self._pending.clear()
            else:
                self._state[kind] = fields
                self._state.move_to_end(kind)
            self._pending.pop(kind, None)
            self._pending[kind] = fields
            self._lock.notify_all()

    def show_verdict(self, verdict: Verdict) -> None:
        self._put(
            "VERDICT",
            (verdict.status.name, ascii_text(verdict.headline), ascii_text(verdict.detail)),
        )

    def show_turn(self, colour: Colour | str, player: str = "") -> None:
        self._put("TURN", (Colour.parse(str(colour)).value, ascii_text(player)))

    def show_dice(self, a: int, b: int) -> None:
        check_dice(a, b)
        self._put("DICE", (str(a), str(b)))

    def show_score(self, scores: Mapping[str, int], match_length: int, crawford: bool) -> None:
        white = check_count("white's score", scores.get("white", 0))
        black = check_count("black's score", scores.get("black", 0))
        length = check_count("the match length", match_length)
        self._put("SCORE", (str(white), str(black), str(length), "1" if crawford else "0"))

    def show_pips(self, white: int, black: int) -> None:
        check_count("white's pip count", white)
        check_count("black's pip count", black)
        self._put("PIPS", (str(white), str(black)))

    def show_message(self, text: str) -> None:
        self._put("TEXT", (ascii_text(text),))

    def clear(self) -> None:
        self._put("CLEAR", ())

    # -- what a caller may ask ------------------------------------------------------------------

    @property
    def status(self) -> str:
        """``connecting``, ``connected``, ``disconnected: why`` or ``incompatible: why``."""
        with self._lock:
            return self._status

    @property
    def state(self) -> dict[str, tuple[str, ...]]:
        """The newest fields of each message kind: what the device shows once it has caught up."""
        with self._lock:
            return dict(self._state)

    @property
    def stats(self) -> SerialStats:
        with self._lock:
            return SerialStats(**self._counts)

    def wait_connected(self, timeout: float) -> bool:
        """Waits until the handshake has succeeded; False if it has not within ``timeout``."""
        return self._connected.wait(timeout)

    def wait_status(self, prefix: str, timeout: float) -> bool:
        """Waits until :attr:`status` starts with ``prefix`` (e.g. ``"disconnected"``)."""
        with self._lock:
            return self._lock.wait_for(lambda: self._status.startswith(prefix), timeout)

    def wait_idle(self, timeout: float) -> bool:
        """Waits until the device is connected and has acknowledged every pending message."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._pending or self._in_flight or not self._connected.is_set():
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not self._thread.is_alive():
                    return False
                self._lock.wait(remaining)
            return True

    def close(self, flush_timeout: float = 1.0) -> None:
        """Gives the device up to ``flush_timeout`` seconds to catch up, then releases the port."""
        if self._thread.is_alive() and self._connected.is_set():
            self.wait_idle(flush_timeout)
        self._stopping.set()
        with self._lock:
            self._lock.notify_all()
        self._thread.join(timeout=max(1.0, self.ack_timeout * 2))
        self._close_port()

    def __enter__(self) -> SerialDisplay:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the writer thread ------------------------------------------------------------------------

    def _count(self, key: str, amount: int = 1) -> None:
        with self._lock:
            self._counts[key] += amount

    def _set_status(self, status: str) -> None:
        with self._lock:
            self._status = status
            self._lock.notify_all()

    def _next_seq(self) -> int:
        self._seq = self._seq % MAX_SEQ + 1
        return self._seq

    def _run(self) -> None:
        try:
            self._serve()
        except Exception as error:  # a bug must not pass silently, nor stop the game
            logger.exception("serial display %s writer failed", self.port.text)
            self._set_status(f"failed: {type(error).__name__}: {error}")
            self._close_port()

    def _serve(self) -> None:
        delay = self.backoff_initial
        outage_logged = False
        while not self._stopping.is_set():
            if self._serial is None:
                try:
                    self._connect()
                except IncompatibleDevice as error:
                    self._set_status(f"incompatible: {error}")
                    logger.error("serial display %s: %s", self.port.text, error)
                    self._close_port()
                    return
                except LINK_ERRORS as error:
                    self._close_port()
                    self._set_status(f"disconnected: {error}")
                    if not outage_logged:
                        logger.warning(
                            "serial display %s unavailable (%s); retrying in the background",
                            self.port.text,
                            error,
                        )
                        outage_logged = True
                    self._stopping.wait(delay)
                    delay = min(delay * 2, self.backoff_max)
                    continue
                delay = self.backoff_initial
                if outage_logged:
                    logger.warning("serial display %s is back", self.port.text)
                    outage_logged = False
            message = self._take(self.ping_interval)
            if self._stopping.is_set():
                return
            kind, fields = message if message is not None else ("PING", ())
            try:
                self._deliver(kind, fields)
            except LINK_ERRORS as error:
                self._close_port()
                with self._lock:
                    self._counts["link_losses"] += 1
                    self._connected.clear()
                    self._status = f"disconnected: {error}"
                    # Whatever was sent may be lost with the device: all of it goes again.
                    self._pending = OrderedDict([("CLEAR", ()), *self._state.items()])
                logger.warning("serial display %s lost (%s); reconnecting", self.port.text, error)
                outage_logged = True
            finally:
                with self._lock:
                    self._in_flight = False
                    self._lock.notify_all()

    def _take(self, timeout: float) -> tuple[str, tuple[str, ...]] | None:
        """The oldest pending message, waiting up to ``timeout``; None means time to PING."""
        with self._lock:
            if not self._pending:
                self._lock.wait_for(lambda: self._pending or self._stopping.is_set(), timeout)
            if not self._pending:
                return None
            self._in_flight = True
            return self._pending.popitem(last=False)

    def _connect(self) -> None:
        target = self.port.resolve()
        self._serial = serial.serial_for_url(
            target,
            baudrate=self.baudrate,
            timeout=min(0.05, self.ack_timeout / 4),
            write_timeout=max(0.5, self.ack_timeout),
        )
        self._lines.reset()
        if self.open_delay and self._stopping.wait(self.open_delay):
            raise LinkLost("closing")
        self._serial.reset_input_buffer()
        self._handshake()
        with self._lock:
            # The device may have been reset or replaced: clear it and send everything again.
            self._pending = OrderedDict([("CLEAR", ()), *self._state.items()])
            self._counts["connects"] += 1
            self._status = "connected"
            self._connected.set()
            self._lock.notify_all()
        logger.info(
            "serial display %s connected (%s)",
            self.port.text,
            "loopback" if self.is_loopback else self.device_name,
        )

    def _handshake(self) -> None:
        seq = self._next_seq()
        hello = encode_frame("HELLO", seq, (str(PROTOCOL_VERSION),))
        deadline = time.monotonic() + self.handshake_timeout
        while time.monotonic() < deadline and not self._stopping.is_set():
            self._write(hello)
            attempt_end = min(deadline, time.monotonic() + self.ack_timeout)
            for frame, line in self._replies(attempt_end):
                if line == hello:
                    self.is_loopback = True
                    self.device_name = "loopback"
                    return
                if frame.kind == "HELLO" and frame.seq == seq and len(frame.fields) == 2:
                    version, name = frame.fields
                    if version != str(PROTOCOL_VERSION):
                        raise IncompatibleDevice(
                            f"the display speaks protocol version {version} and this program "
                            f"speaks {PROTOCOL_VERSION}: load the sketch from "
                            "firmware_notes/sketch/ onto the display"
                        )
                    self.is_loopback = False
                    self.device_name = name
                    return
        raise LinkLost(f"no answer to HELLO within {self.handshake_timeout:g} s")

    def _deliver(self, kind: str, fields: tuple[str, ...]) -> None:
        """Sends one frame and waits for its ACK, retrying; raises LinkLost when all tries fail."""
        seq = self._next_seq()
        frame_bytes = encode_frame(kind, seq, fields)
        for attempt in range(self.retries + 1):
            if self._stopping.is_set():
                return
            if attempt:
                self._count("retries")
            self._write(frame_bytes)
            self._count("frames_sent")
            for frame, line in self._replies(time.monotonic() + self.ack_timeout):
                if self.is_loopback and line == frame_bytes:
                    self._count("acknowledged")
                    return
                try:
                    check_device_message(frame)
                except ProtocolError:
                    self._count("garbage_lines")
                    continue
                if frame.kind == "ACK" and frame.seq == seq:
                    self._count("acknowledged")
                    return
                if frame.kind == "NAK" and frame.seq in (seq, 0):
                    self._count("naks")
                    if frame.fields[0] in MESSAGE_REASONS:
                        # The device understood the frame and refuses it: sending it again
                        # cannot help, so drop it and say so.
                        self._count("refused")
                        logger.error(
                            "serial display %s refused %s (%s): is the firmware up to date?",
                            self.port.text,
                            kind,
                            frame.fields[0],
                        )
                        return
                    break
        raise LinkLost(f"no acknowledgement of {kind} after {self.retries + 1} tries")

    def _write(self, data: bytes) -> None:
        if self._serial is None:
            raise LinkLost("port closed")
        self._serial.write(data)

    def _replies(self, deadline: float) -> Iterator[tuple[Frame, bytes]]:
        """Yields (frame, raw line) for each sound device frame until ``deadline``.

        Garbage and partial lines are counted and skipped: a noisy line costs a retry, never
        the game.
        """
        while time.monotonic() < deadline and not self._stopping.is_set():
            port = self._serial
            if port is None:
                raise LinkLost("port closed")
            data = port.read(max(1, port.in_waiting))
            if not data:
                continue
            discarded_before = self._lines.discarded
            lines = self._lines.feed(data)
            if self._lines.discarded != discarded_before:
                self._count("garbage_bytes", self._lines.discarded - discarded_before)
            for line in lines:
                if not line.strip():
                    continue
                try:
                    frame = decode_frame(line)
                except ProtocolError:
                    self._count("garbage_lines")
                    continue
                yield frame, line

    def _close_port(self) -> None:
        port, self._serial = self._serial, None
        if port is not None:
            try:
                port.close()
            except LINK_ERRORS:
                pass
