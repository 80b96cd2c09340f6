"""The Display interface, the fan-out, the console display, the settings and from_spec."""

from __future__ import annotations

import io
import logging
import threading
from pathlib import Path

import gpiozero
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.displays import (
    ConsoleDisplay,
    Control,
    Display,
    DisplayBase,
    DisplayConfig,
    DisplayConfigError,
    FanOut,
    LedDisplay,
    SerialDisplay,
    Status,
    Verdict,
    buttons_from_config,
    from_spec,
    load_config,
)
from companion.displays.config import ButtonConfig, LedConfig, parse_config
from companion.errors import CompanionError, InvalidDice
from companion.rules.position import Position

ROOT = Path(__file__).resolve().parents[1]


class Recorder(DisplayBase):
    """A display that remembers every call, to check what the fan-out passes on."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.calls: list[tuple[str, tuple[object, ...]]] = []

    def show_verdict(self, verdict: Verdict) -> None:
        self.calls.append(("show_verdict", (verdict,)))

    def show_dice(self, a: int, b: int) -> None:
        self.calls.append(("show_dice", (a, b)))

    def close(self) -> None:
        self.calls.append(("close", ()))


class Broken(DisplayBase):
    name = "broken"

    def show_verdict(self, verdict: Verdict) -> None:
        raise OSError("display unplugged")

    def show_dice(self, a: int, b: int) -> None:
        raise OSError("display unplugged")


class TestFanOut:
    def test_every_display_implements_the_interface(self) -> None:
        for display in (ConsoleDisplay(io.StringIO()), FanOut([]), Recorder("r")):
            assert isinstance(display, Display)

    def test_every_call_reaches_every_display(self) -> None:
        first, second = Recorder("first"), Recorder("second")
        verdict = Verdict(Status.LEGAL, "legal: 8/5 6/5")
        with FanOut([first, second]) as displays:
            displays.show_verdict(verdict)
            displays.show_dice(3, 1)
        expected = [("show_verdict", (verdict,)), ("show_dice", (3, 1)), ("close", ())]
        assert first.calls == expected and second.calls == expected

    def test_a_failing_display_stops_neither_the_game_nor_the_others(
        self, caplog: pytest.LogCaptureFixture
    ) -> None:
        after = Recorder("after")
        displays = FanOut([Broken(), after])
        with caplog.at_level(logging.WARNING):
            displays.show_verdict(Verdict(Status.ILLEGAL, "illegal"))
            displays.show_dice(6, 6)
        assert [call for call, _ in after.calls] == ["show_verdict", "show_dice"]
        assert displays.failures == {"broken": 2}
        warnings = [r.message for r in caplog.records]
        assert len(warnings) == 1 and "broken" in warnings[0] and "unplugged" in warnings[0]

    def test_displays_without_a_way_to_show_something_ignore_it(self) -> None:
        recorder = Recorder("r")
        FanOut([recorder]).show_pips(120, 130)
        assert recorder.calls == []


class TestConsole:
    def console(self, board: bool = True) -> tuple[ConsoleDisplay, io.StringIO]:
        stream = io.StringIO()
        return ConsoleDisplay(stream, board=board), stream

    def test_a_turn_as_the_players_see_it(self) -> None:
        console, stream = self.console()
        console.show_turn("white", "Alice")
        console.show_dice(6, 5)
        console.show_verdict(
            Verdict(Status.ILLEGAL, "illegal: a checker on the bar must enter first", "try bar/20")
        )
        console.show_pips(167, 160)
        console.show_score({"white": 2, "black": 4}, 5, True)
        console.show_message("white doubles to 2")
        assert stream.getvalue().splitlines() == [
            "Alice (white) to play",
            "dice: 6-5",
            "[ILLEGAL]   illegal: a checker on the bar must enter first",
            "            try bar/20",
            "pips: white 167, black 160",
            "score: white 2, black 4 (match to 5, Crawford)",
            "white doubles to 2",
        ]

    def test_the_board_from_a_position_or_an_absolute_board_is_the_same(self) -> None:
        console, stream = self.console()
        position = Position.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 4, 25: 1})
        console.show_board(position, "black")
        console.show_board(position.to_absolute("black"), "black")
        first, second = stream.getvalue().split("black on roll")[1:]
        assert first == second
        assert "bar: B 0  W 1" in first
        assert "5B" in first

    def test_the_board_can_be_left_out(self) -> None:
        console, stream = self.console(board=False)
        console.show_board(Position.opening())
        assert stream.getvalue() == ""

    def test_every_verdict_has_its_own_tag(self) -> None:
        console, stream = self.console()
        for status in Status:
            console.show_verdict(Verdict(status, status.value))
        tags = [line.split()[0] for line in stream.getvalue().splitlines()]
        assert len(set(tags)) == len(Status)

    def test_impossible_dice_are_refused(self) -> None:
        console, _ = self.console()
        with pytest.raises(InvalidDice):
            console.show_dice(7, 1)


class TestSettings:
    def test_the_example_file_is_valid_and_documents_every_setting(self) -> None:
        example = ROOT / "companion.toml.example"
        config = load_config(example)
        text = example.read_text()
        for section in (config.console, config.leds, config.buttons, config.serial):
            for name in type(section).__dataclass_fields__:
                if name != "enabled":
                    assert f"{name} =" in text, name

    def test_no_file_means_the_console_only(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.chdir(tmp_path)
        assert load_config() == DisplayConfig()
        assert DisplayConfig().use == "console"

    def test_other_sections_belong_to_others(self) -> None:
        config = parse_config({"camera": {"device": 0}, "leds": {"green": 5}})
        assert config.leds.green == 5

    def test_a_typo_names_the_key_and_the_right_ones(self) -> None:
        with pytest.raises(DisplayConfigError, match=r"no setting 'gren'.*green"):
            parse_config({"leds": {"gren": 17}})

    def test_a_wrong_type_says_what_is_expected(self) -> None:
        with pytest.raises(DisplayConfigError, match="BCM pin number"):
            parse_config({"buttons": {"undo": "twelve"}})
        with pytest.raises(DisplayConfigError, match="should be float"):
            parse_config({"serial": {"ack_timeout": "fast"}})

    def test_false_means_not_wired(self) -> None:
        config = parse_config({"buttons": {"undo": False}})
        assert config.buttons.undo is None and config.buttons.enabled

    def test_a_pin_used_twice_is_caught_before_any_hardware(self) -> None:
        with pytest.raises(DisplayConfigError, match="GPIO17 is both"):
            parse_config({"leds": {"green": 17}, "buttons": {"undo": 17}}, "my.toml")

    def test_broken_toml_says_where(self, tmp_path: Path) -> None:
        path = tmp_path / "companion.toml"
        path.write_text("[leds]\ngreen = \n")
        with pytest.raises(DisplayConfigError, match=r"not valid TOML.*line 2"):
            load_config(path)

    def test_a_missing_file_says_how_to_make_one(self, tmp_path: Path) -> None:
        with pytest.raises(DisplayConfigError, match=r"companion\.toml\.example"):
            load_config(tmp_path / "nope.toml")

    def test_integers_are_accepted_where_seconds_are_expected(self) -> None:
        config = parse_config({"serial": {"open_delay": 2, "port": "loop://"}})
        assert config.serial.open_delay == 2.0 and isinstance(config.serial.open_delay, float)

    def test_displays_use_may_be_a_list(self) -> None:
        assert parse_config({"displays": {"use": ["console", "leds"]}}).use == "console,leds"


class TestFromSpec:
    def test_console_leds_and_a_loopback_serial_display(self) -> None:
        stream = io.StringIO()
        factory = MockFactory(pin_class=MockPWMPin)
        with from_spec(
            "console, leds, serial:loop://", DisplayConfig(), stream=stream, pin_factory=factory
        ) as displays:
            kinds = [type(d) for d in displays.displays]
            assert kinds == [ConsoleDisplay, LedDisplay, SerialDisplay]
            displays.show_verdict(Verdict(Status.LEGAL, "legal: 24/18 13/10"))
            serial = displays.displays[2]
            assert isinstance(serial, SerialDisplay)
            assert serial.wait_idle(10.0) and serial.is_loopback
            assert factory.pin(17).state == 1
        assert "[LEGAL]" in stream.getvalue()

    def test_serial_alone_uses_the_configured_port(self) -> None:
        config = parse_config({"serial": {"port": "loop://"}})
        with from_spec("serial", config) as displays:
            serial = displays.displays[0]
            assert isinstance(serial, SerialDisplay) and serial.port.url == "loop://"

    def test_a_usb_id_is_accepted(self) -> None:
        with from_spec("serial:usb:2341:0043") as displays:
            serial = displays.displays[0]
            assert isinstance(serial, SerialDisplay) and serial.port.usb == (0x2341, 0x43)

    @pytest.mark.parametrize(
        ("spec", "complaint"),
        [
            ("lcd", "unknown display 'lcd'"),
            ("", "no display named"),
            ("console,console", "named twice"),
            ("serial:", "names no port"),
        ],
    )
    def test_a_bad_spec_says_what_to_write(self, spec: str, complaint: str) -> None:
        with pytest.raises(DisplayConfigError, match=complaint) as caught:
            from_spec(spec, DisplayConfig())
        assert "--display console,leds,serial:/dev/ttyACM0" in str(caught.value)
        assert isinstance(caught.value, CompanionError) and isinstance(caught.value, ValueError)

    def test_a_display_that_cannot_start_closes_those_already_started(self) -> None:
        factory = MockFactory()
        taken = gpiozero.LED(17, pin_factory=factory)  # something else already drives GPIO17
        try:
            with pytest.raises(DisplayConfigError, match="already in use"):
                from_spec("serial:loop://,leds", DisplayConfig(), pin_factory=factory)
        finally:
            taken.close()
        writers = [t for t in threading.enumerate() if t.name == "serial:loop:// writer"]
        assert writers == []

    def test_lights_on_one_pin_are_caught_in_the_settings(self) -> None:
        with pytest.raises(DisplayConfigError, match="GPIO5 is both"):
            DisplayConfig(leds=LedConfig(green=5, red=5))


class TestButtonsFromConfig:
    def test_no_buttons_section_means_no_buttons(self) -> None:
        assert buttons_from_config(DisplayConfig()) is None

    def test_a_buttons_section_wires_them(self) -> None:
        factory = MockFactory()
        config = DisplayConfig(buttons=ButtonConfig(enabled=True))
        buttons = buttons_from_config(config, pin_factory=factory)
        assert buttons is not None
        try:
            factory.pin(23).drive_low()
            assert buttons.poll() is Control.DOUBLE
        finally:
            buttons.close()
