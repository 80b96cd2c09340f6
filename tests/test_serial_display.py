"""The real SerialDisplay against loop://, socket:// and a pseudo-terminal with a fake device.

The fake device is the protocol's own :class:`DeviceSession` (checked against the firmware's
C++ by the shared examples) behind a pty whose slave is reached through a symlink, so the
test can pull the cable (close the pty, remove the link) and plug it back (a new pty, the link
re-created) while the game keeps calling the display.
"""

from __future__ import annotations

import logging
import os
import select
import socket
import threading
import time
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial.tools.list_ports
from serial.tools.list_ports_common import ListPortInfo

from companion.displays.base import Status, Verdict
from companion.displays.protocol import (
    DeviceSession,
    Frame,
    LineBuffer,
    ProtocolError,
    decode_frame,
    encode_frame,
)
from companion.displays.serial_display import PortSpec, SerialDisplay
from companion.errors import CompanionError

FAST = {
    "ack_timeout": 0.1,
    "retries": 3,
    "handshake_timeout": 0.5,
    "backoff_initial": 0.02,
    "backoff_max": 0.1,
    "ping_interval": 0.5,
}
WAIT = 10.0  # generous upper bound for waits on events; tests normally finish far sooner
CALL_BOUND = 0.02  # a game-loop call must return within this (measured: median 1.5 us, max 70 us)


class FakeDevice:
    """A display at the master end of a pty; the host opens ``link``, a symlink to the slave.

    It checks the checksum of every frame, answers through :class:`DeviceSession`, and can
    misbehave: drop every ``drop_every``-th acknowledgement, send garbage before every
    ``garbage_every``-th reply, or glue a partial line onto a reply. ``applied`` collects
    every frame acted on across plug-ins, so the test can prove no message was applied twice.
    """

    def __init__(
        self,
        link: Path,
        *,
        drop_every: int = 0,
        garbage_every: int = 0,
        partial_every: int = 0,
        noise_every: int = 0,
        refuse: frozenset[str] = frozenset(),
        version: int = 1,
    ) -> None:
        self.link = link
        self.noise_every = noise_every
        self.refuse = refuse
        self.noise_injected = 0
        self.drop_every = drop_every
        self.garbage_every = garbage_every
        self.partial_every = partial_every
        self.version = version
        self.session = DeviceSession(version=version)
        self.applied: list[Frame] = []
        self.bad_frames: list[bytes] = []
        self.lines_received = 0
        self.acks_dropped = 0
        self.hellos = 0
        self._replies = 0
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._fds: tuple[int, int] | None = None
        self.received_line = threading.Condition()

    def plug_in(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        self._fds = (master, slave)
        self.session = DeviceSession(version=self.version)  # a replugged board has rebooted
        self._stop.clear()
        os.symlink(os.ttyname(slave), self.link)
        self._thread = threading.Thread(target=self._serve, args=(master,), daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=WAIT)
        if self._fds is not None:
            for fd in self._fds:
                os.close(fd)
            self._fds = None
        self.link.unlink(missing_ok=True)

    def _serve(self, master: int) -> None:
        lines = LineBuffer()
        while not self._stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.02)
            if not ready:
                continue
            try:
                data = os.read(master, 4096)
            except OSError:
                return
            for line in lines.feed(data):
                self._answer(master, line)

    def _answer(self, master: int, line: bytes) -> None:
        if self.noise_every and (self.lines_received + 1) % self.noise_every == 0:
            line = line.replace(b"|", b"}", 1)  # noise on the wire flips a bit
            self.noise_injected += 1
        try:
            frame: Frame | None = decode_frame(line)
        except ProtocolError:
            frame = None
            self.bad_frames.append(line)
        before = len(self.session.applied)
        if frame is not None and frame.kind in self.refuse:
            reply = encode_frame("NAK", frame.seq, ("unknown",))  # firmware older than the host
        else:
            reply = self.session.handle(line)
        self.applied += self.session.applied[before:]
        if reply.startswith(b"HELLO"):
            self.hellos += 1
        with self.received_line:
            self.lines_received += 1
            self.received_line.notify_all()
        if not reply:
            return
        self._replies += 1
        out = b""
        if self.garbage_every and self._replies % self.garbage_every == 0:
            out += b"\x00\xfe\xff boot noise \x13\r\n"
        if self.partial_every and self._replies % self.partial_every == 0:
            out += b"ACK|12"  # a partial line: glued to the reply, it spoils it
        if reply.startswith(b"ACK") and self.drop_every and self._replies % self.drop_every == 0:
            self.acks_dropped += 1
            reply = b""
        os.write(master, out + reply)

    def wait_lines(self, count: int) -> bool:
        with self.received_line:
            return self.received_line.wait_for(lambda: self.lines_received >= count, WAIT)


@pytest.fixture
def link(tmp_path: Path) -> Path:
    return tmp_path / "ttyCOMPANION"


@pytest.fixture
def device(link: Path) -> Iterator[FakeDevice]:
    fake = FakeDevice(link, drop_every=4, garbage_every=3, partial_every=7)
    fake.plug_in()
    yield fake
    fake.unplug()


def timed(call: object, *args: object) -> float:
    start = time.perf_counter()
    call(*args)  # type: ignore[operator]
    return time.perf_counter() - start


def play_some_turns(display: SerialDisplay, turns: range) -> list[float]:
    """What the game loop does for a few turns; returns how long each call took."""
    durations = []
    for turn in turns:
        colour = "white" if turn % 2 else "black"
        durations += [
            timed(display.show_turn, colour, f"player {turn}"),
            timed(display.show_dice, turn % 6 + 1, (turn * 5) % 6 + 1),
            timed(display.show_verdict, Verdict(Status.LEGAL, f"legal: move {turn}")),
            timed(display.show_pips, 167 - turn, 160 - turn),
            timed(display.show_score, {"white": turn // 10, "black": 0}, 7, False),
        ]
    return durations


def assert_device_caught_up(display: SerialDisplay, device: FakeDevice) -> None:
    assert display.wait_idle(WAIT), display.status
    assert device.session.state == display.state
    seqs = [frame.seq for frame in device.applied]
    assert len(seqs) == len(set(seqs)), "a frame was applied twice"
    assert len(device.bad_frames) == device.noise_injected, "the host sent a damaged frame"


class TestPortSpec:
    def test_a_usb_id_is_four_hex_digits_each(self) -> None:
        assert PortSpec.parse("usb:2341:0043").usb == (0x2341, 0x43)
        with pytest.raises(CompanionError, match="usb:VID:PID"):
            PortSpec.parse("usb:arduino")

    def test_an_empty_port_says_what_to_write(self) -> None:
        with pytest.raises(ValueError, match="/dev/ttyACM0"):
            SerialDisplay("  ")

    def test_a_usb_id_that_is_not_plugged_in_keeps_the_game_going(self) -> None:
        with SerialDisplay("usb:ffff:fffe", **FAST) as display:
            assert timed(display.show_dice, 3, 1) < CALL_BOUND
            assert display.wait_status("disconnected", WAIT)
            assert "ffff:fffe" in display.status


class TestLoopback:
    def test_every_echo_counts_as_the_acknowledgement(self) -> None:
        with SerialDisplay("loop://", **FAST) as display:
            assert display.wait_connected(WAIT)
            assert display.is_loopback
            durations = play_some_turns(display, range(20))
            assert display.wait_idle(WAIT)
            assert max(durations) < CALL_BOUND
            stats = display.stats
            assert stats.retries == 0 and stats.garbage_lines == 0
            assert stats.acknowledged == stats.frames_sent

    def test_clear_forgets_everything_shown_before(self) -> None:
        with SerialDisplay("loop://", **FAST) as display:
            display.show_dice(6, 5)
            display.clear()
            display.show_message("new game")
            assert display.state == {"TEXT": ("new game",)}

    def test_text_is_made_fit_for_an_lcd(self) -> None:
        with SerialDisplay("loop://", **FAST) as display:
            display.show_verdict(Verdict(Status.ILLEGAL, "illegal — 24/18 | 13/10 " + "x" * 80))
            status, headline, detail = display.state["VERDICT"]
            assert status == "ILLEGAL" and detail == ""
            assert headline.startswith("illegal - 24/18 / 13/10") and len(headline) == 40

    def test_impossible_values_are_refused_in_the_caller(self) -> None:
        with SerialDisplay("loop://", **FAST) as display:
            with pytest.raises(ValueError, match="1 to 6"):
                display.show_dice(0, 7)
            with pytest.raises(ValueError, match="pip count"):
                display.show_pips(-3, 167)
            with pytest.raises(ValueError, match="score"):
                display.show_score({"white": 1000, "black": 0}, 0, False)
            assert display.state == {}


class TestPseudoTerminal:
    def test_handshake_names_the_device(self, device: FakeDevice, link: Path) -> None:
        with SerialDisplay(str(link), **FAST) as display:
            assert display.wait_connected(WAIT)
            assert display.device_name == "lcd16x2" and not display.is_loopback
            assert display.status == "connected"

    def test_lost_acks_garbage_and_partial_lines_lose_and_repeat_nothing(
        self, device: FakeDevice, link: Path
    ) -> None:
        with SerialDisplay(str(link), **FAST) as display:
            durations = play_some_turns(display, range(40))
            assert_device_caught_up(display, device)
            assert max(durations) < CALL_BOUND
            assert device.acks_dropped > 0 and display.stats.retries > 0
            assert display.stats.garbage_lines > 0

    def test_frames_damaged_on_the_wire_are_sent_again(self, link: Path) -> None:
        fake = FakeDevice(link, noise_every=3)
        fake.plug_in()
        try:
            with SerialDisplay(str(link), **FAST) as display:
                play_some_turns(display, range(10))
                assert_device_caught_up(display, fake)
                assert fake.noise_injected > 0 and display.stats.naks >= fake.noise_injected - 1
        finally:
            fake.unplug()

    def test_a_message_the_firmware_does_not_know_is_dropped_not_retried(
        self, link: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        fake = FakeDevice(link, refuse=frozenset({"PIPS"}))
        fake.plug_in()
        try:
            with caplog.at_level(logging.ERROR), SerialDisplay(str(link), **FAST) as display:
                display.show_pips(150, 160)
                display.show_dice(4, 4)
                assert display.wait_idle(WAIT)
                assert display.stats.refused == 1 and display.stats.retries == 0
                assert fake.session.state == {"DICE": ("4", "4")}
            assert any("firmware up to date" in r.message for r in caplog.records)
        finally:
            fake.unplug()

    def test_a_usb_display_is_found_by_vendor_and_product_even_under_a_new_name(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        plugged: list[ListPortInfo] = []

        def comports() -> list[ListPortInfo]:
            return list(plugged)

        def plug(name: str) -> FakeDevice:
            fake = FakeDevice(tmp_path / name)
            fake.plug_in()
            port = ListPortInfo(str(fake.link), skip_link_detection=True)
            port.vid, port.pid = 0x2341, 0x0043
            other = ListPortInfo(str(tmp_path / "ttyUSB9"), skip_link_detection=True)
            other.vid, other.pid = 0x1A86, 0x7523
            plugged[:] = [other, port]
            return fake

        monkeypatch.setattr(serial.tools.list_ports, "comports", comports)
        first = plug("ttyACM0")
        with SerialDisplay("usb:2341:0043", **FAST) as display:
            display.show_message("first board")
            assert_device_caught_up(display, first)
            first.unplug()
            plugged.clear()
            display.show_message("while unplugged")
            assert display.wait_status("disconnected", WAIT)
            second = plug("ttyACM1")  # the kernel gave the board a new name
            try:
                assert_device_caught_up(display, second)
                assert second.session.state == {"TEXT": ("while unplugged",)}
            finally:
                second.unplug()

    def test_every_frame_is_applied_in_order_without_coalescing_when_paced(
        self, device: FakeDevice, link: Path
    ) -> None:
        with SerialDisplay(str(link), **FAST) as display:
            assert display.wait_connected(WAIT)
            for number in range(12):
                display.show_message(f"message {number}")
                assert display.wait_idle(WAIT)
            texts = [f.fields[0] for f in device.applied if f.kind == "TEXT"]
            assert texts == [f"message {n}" for n in range(12)]

    def test_unplug_and_replug_resends_the_current_state(
        self, device: FakeDevice, link: Path
    ) -> None:
        with SerialDisplay(str(link), **FAST) as display:
            play_some_turns(display, range(5))
            assert_device_caught_up(display, device)
            device.unplug()
            # the game goes on while the cable is out; nothing the players do waits for it
            durations = play_some_turns(display, range(5, 15))
            display.show_verdict(Verdict(Status.ILLEGAL, "illegal: bar first", "enter 25/22"))
            assert max(durations) < CALL_BOUND
            hellos_before = device.hellos
            device.plug_in()
            assert_device_caught_up(display, device)
            assert device.hellos > hellos_before
            assert device.session.state["VERDICT"] == (
                "ILLEGAL",
                "illegal: bar first",
                "enter 25/22",
            )
            assert display.stats.link_losses >= 1 and display.stats.connects >= 2

    def test_a_device_unplugged_during_the_game_is_reported_once(
        self, device: FakeDevice, link: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        with SerialDisplay(str(link), **FAST) as display:
            assert display.wait_connected(WAIT)
            with caplog.at_level(logging.WARNING):
                device.unplug()
                display.show_message("anyone there?")
                assert display.wait_status("disconnected", WAIT)
                time.sleep(0.3)  # several reconnection attempts, all failing
            lost = [r for r in caplog.records if "lost" in r.message or "unavailable" in r.message]
            assert len(lost) == 1
            device.plug_in()
            assert_device_caught_up(display, device)

    def test_calls_made_while_unplugged_arrive_as_the_newest_state_only(self, link: Path) -> None:
        fake = FakeDevice(link)
        with SerialDisplay(str(link), **FAST) as display:
            assert display.wait_status("disconnected", WAIT)
            for value in range(1, 7):
                display.show_dice(value, value)
            display.show_message("one")
            display.show_message("two")
            display.show_dice(2, 1)
            fake.plug_in()
            try:
                assert_device_caught_up(display, fake)
                assert fake.applied == [
                    Frame("CLEAR", fake.applied[0].seq),
                    Frame("TEXT", fake.applied[1].seq, ("two",)),
                    Frame("DICE", fake.applied[2].seq, ("2", "1")),
                ]
            finally:
                fake.unplug()

    def test_a_device_on_another_protocol_version_is_left_alone(self, link: Path) -> None:
        fake = FakeDevice(link, version=2)
        fake.plug_in()
        try:
            display = SerialDisplay(str(link), **FAST)
            assert display.wait_status("incompatible", WAIT)
            assert "version 2" in display.status and "firmware_notes" in display.status
            assert timed(display.show_message, "still fine") < CALL_BOUND
            display.close()
        finally:
            fake.unplug()

    def test_a_silent_device_is_retried_with_back_off(self, link: Path) -> None:
        master, slave = os.openpty()
        os.symlink(os.ttyname(slave), link)
        try:
            with SerialDisplay(str(link), **FAST) as display:
                assert display.wait_status("disconnected", WAIT)
                assert "no answer to HELLO within 0.5 s" in display.status
                assert not display.wait_connected(0.2)
        finally:
            os.close(master)
            os.close(slave)


class TestSocket:
    def test_a_display_on_a_tcp_socket(self) -> None:
        server = socket.create_server(("127.0.0.1", 0))
        port = server.getsockname()[1]
        session = DeviceSession(name="wifi-lcd")

        def serve() -> None:
            connection, _ = server.accept()
            lines = LineBuffer()
            with connection:
                while data := connection.recv(4096):
                    for line in lines.feed(data):
                        connection.sendall(session.handle(line))

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        with SerialDisplay(f"socket://127.0.0.1:{port}", **FAST) as display:
            display.show_turn("black", "Bob")
            display.show_score({"white": 4, "black": 6}, 7, True)
            assert display.wait_idle(WAIT)
            assert display.device_name == "wifi-lcd"
            assert session.state == display.state
        thread.join(timeout=WAIT)
        server.close()


def test_encode_of_what_the_display_sends_is_what_the_device_decodes() -> None:
    frame = encode_frame("SCORE", 3, ("4", "6", "7", "1"))
    assert decode_frame(frame) == Frame("SCORE", 3, ("4", "6", "7", "1"))
