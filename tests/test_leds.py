"""The LED display with gpiozero's real classes on MockFactory pins (MockPWMPin for PWM).

Blink timings are checked from the pins' recorded state histories: an interval is never
shorter than the pattern asks (the blink thread waits at least that long) and, with a
generous margin for a loaded machine, not much longer.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from companion.displays.base import DisplayConfigError, DisplayUnavailable, Status, Verdict
from companion.displays.config import LedConfig
from companion.displays.leds import (
    ILLEGAL_BEEP,
    ILLEGAL_BLINK,
    REROLL_BLINK,
    WARNING_BLINK,
    LedDisplay,
)
from companion.errors import CompanionError

GREEN, RED, AMBER, BUZZER, WHITE_TURN, BLACK_TURN = 17, 27, 22, 18, 5, 6
SLACK = 0.3  # how much later than asked a loaded machine may switch a light


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory(pin_class=MockPWMPin)


@pytest.fixture
def leds(factory: MockFactory) -> Iterator[LedDisplay]:
    config = LedConfig(buzzer=BUZZER, white_turn=WHITE_TURN, black_turn=BLACK_TURN)
    display = LedDisplay(config, pin_factory=factory)
    yield display
    display.close()


def on(pin: MockPin) -> bool:
    return bool(pin.state)


def history(pin: MockPin) -> list[float]:
    """Every state the pin has been in, from its first (MockPin.assert_states checks a prefix)."""
    return [state.state for state in pin.states]


def wait_for_changes(pin: MockPin, count: int, timeout: float = 5.0) -> None:
    """Waits until ``pin`` has recorded ``count`` state changes (after its initial state)."""
    deadline = time.monotonic() + timeout
    while len(pin.states) - 1 < count:
        assert time.monotonic() < deadline, f"pin changed only {len(pin.states) - 1} times"
        time.sleep(0.01)


def assert_blinks(pin: MockPin, on_time: float, off_time: float, cycles: int) -> None:
    """The pin went on and off ``cycles`` times, each phase lasting as long as asked."""
    states = pin.states[1 : 1 + 2 * cycles]
    assert [bool(s.state) for s in states] == [True, False] * cycles
    # states[i].timestamp is how long the pin stayed in the state before states[i]
    for before, durations in ((on_time, states[1::2]), (off_time, states[2::2])):
        for state in durations:
            assert before * 0.95 <= state.timestamp <= before + SLACK


class TestVerdictPatterns:
    def test_legal_is_steady_green(self, leds: LedDisplay, factory: MockFactory) -> None:
        leds.show_verdict(Verdict(Status.LEGAL, "legal: 24/18 13/10"))
        assert on(factory.pin(GREEN)) and not on(factory.pin(RED)) and not on(factory.pin(AMBER))
        assert history(factory.pin(GREEN)) == [0, 1]

    def test_illegal_blinks_red_fast_and_beeps_twice(
        self, leds: LedDisplay, factory: MockFactory
    ) -> None:
        red, buzzer = factory.pin(RED), factory.pin(BUZZER)
        leds.show_verdict(Verdict(Status.ILLEGAL, "illegal: a checker on the bar must enter"))
        wait_for_changes(red, 5)
        wait_for_changes(buzzer, 4)
        leds.show_verdict(Verdict(Status.LEGAL, "legal: bar/22"))
        assert_blinks(red, *ILLEGAL_BLINK, cycles=2)
        on_time, off_time, count = ILLEGAL_BEEP
        assert_blinks(buzzer, on_time, off_time, cycles=1)
        assert [bool(s.state) for s in buzzer.states] == [False] + [True, False] * count
        assert not on(red) and on(factory.pin(GREEN))

    def test_waiting_is_steady_amber(self, leds: LedDisplay, factory: MockFactory) -> None:
        leds.show_verdict(Verdict(Status.LEGAL, "legal"))
        leds.show_verdict(Verdict(Status.WAITING, "waiting for the dice to settle"))
        assert on(factory.pin(AMBER)) and not on(factory.pin(GREEN))
        assert history(factory.pin(GREEN)) == [0, 1, 0]

    def test_reroll_blinks_amber_slowly(self, leds: LedDisplay, factory: MockFactory) -> None:
        amber = factory.pin(AMBER)
        leds.show_verdict(Verdict(Status.REROLL, "re-roll: a die is cocked"))
        wait_for_changes(amber, 3)
        leds.clear()
        assert_blinks(amber, *REROLL_BLINK, cycles=1)
        assert not on(amber)

    def test_a_warning_blinks_amber_fast(self, leds: LedDisplay, factory: MockFactory) -> None:
        amber = factory.pin(AMBER)
        leds.show_verdict(Verdict(Status.WARNING, "warning: a die fell off the board"))
        wait_for_changes(amber, 5)
        leds.show_verdict(Verdict(Status.WAITING, "waiting"))
        assert_blinks(amber, *WARNING_BLINK, cycles=2)
        assert on(amber)

    def test_game_over_pulses_green_through_every_brightness(
        self, leds: LedDisplay, factory: MockFactory
    ) -> None:
        green = factory.pin(GREEN)
        leds.show_verdict(Verdict(Status.GAME_OVER, "white wins a gammon"))
        wait_for_changes(green, 30)
        leds.clear()
        levels = [s.state for s in green.states[1:30]]
        assert any(0.2 < level < 0.8 for level in levels), "a pulse fades, it does not jump"
        rising = levels[: levels.index(max(levels)) + 1]
        assert rising == sorted(rising)

    def test_game_over_blinks_without_pwm(self) -> None:
        factory = MockFactory()
        with_plain_leds = LedDisplay(LedConfig(pwm=False), pin_factory=factory)
        try:
            with_plain_leds.show_verdict(Verdict(Status.GAME_OVER, "black wins"))
            assert on(factory.pin(GREEN))
        finally:
            with_plain_leds.close()

    def test_info_leaves_the_lights_as_they_are(
        self, leds: LedDisplay, factory: MockFactory
    ) -> None:
        leds.show_verdict(Verdict(Status.WAITING, "waiting"))
        leds.show_verdict(Verdict(Status.INFO, "white doubles to 2"))
        assert on(factory.pin(AMBER))
        assert history(factory.pin(AMBER)) == [0, 1]

    def test_no_buzzer_means_silence(self, factory: MockFactory) -> None:
        display = LedDisplay(LedConfig(), pin_factory=factory)
        try:
            display.show_verdict(Verdict(Status.ILLEGAL, "illegal"))
            assert history(factory.pin(BUZZER)) == [0]
        finally:
            display.close()

    def test_a_tonal_buzzer_plays_a_tone_for_an_illegal_move(self, factory: MockFactory) -> None:
        display = LedDisplay(LedConfig(buzzer=BUZZER, tonal_buzzer=True), pin_factory=factory)
        try:
            buzzer = factory.pin(BUZZER)
            display.show_verdict(Verdict(Status.ILLEGAL, "illegal"))
            wait_for_changes(buzzer, 2)
            assert buzzer.frequency is not None or buzzer.states[1].state > 0
        finally:
            display.close()


class TestTurnLights:
    def test_the_player_on_roll_is_lit(self, leds: LedDisplay, factory: MockFactory) -> None:
        leds.show_turn("white", "Alice")
        assert on(factory.pin(WHITE_TURN)) and not on(factory.pin(BLACK_TURN))
        leds.show_turn("black")
        assert not on(factory.pin(WHITE_TURN)) and on(factory.pin(BLACK_TURN))

    def test_clear_puts_every_light_out(self, leds: LedDisplay, factory: MockFactory) -> None:
        leds.show_turn("white")
        leds.show_verdict(Verdict(Status.LEGAL, "legal"))
        leds.clear()
        for pin in (GREEN, RED, AMBER, WHITE_TURN, BLACK_TURN, BUZZER):
            assert not on(factory.pin(pin)), pin

    def test_active_low_lights_are_lit_by_a_low_pin(self, factory: MockFactory) -> None:
        display = LedDisplay(LedConfig(active_high=False), pin_factory=factory)
        try:
            display.show_verdict(Verdict(Status.LEGAL, "legal"))
            assert not on(factory.pin(GREEN)) and on(factory.pin(RED))
        finally:
            display.close()


class TestWithoutGpio:
    def test_a_machine_without_gpio_says_how_to_play_without_leds(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
        monkeypatch.setattr(Device, "pin_factory", None)
        with pytest.raises(DisplayUnavailable, match="--display console") as caught:
            LedDisplay(LedConfig())
        assert isinstance(caught.value, OSError) and isinstance(caught.value, CompanionError)
        assert "GPIOZERO_PIN_FACTORY=mock" in str(caught.value)

    def test_the_pin_factory_follows_the_environment(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
        monkeypatch.setattr(Device, "pin_factory", None)
        display = LedDisplay(LedConfig())
        try:
            display.show_verdict(Verdict(Status.LEGAL, "legal"))
            assert type(display.lights.green.pin_factory).__name__ == "MockFactory"
            assert display.lights.green.is_lit
            # gpiozero's default mock pins cannot dim: the lights fall back to plain LEDs
            assert display.config.pwm is False
        finally:
            display.close()
            Device.pin_factory.close()

    def test_a_pin_used_twice_is_named(self, factory: MockFactory) -> None:
        with pytest.raises(DisplayConfigError, match="own pin"):
            LedDisplay(LedConfig(red=GREEN), pin_factory=factory)

    def test_closing_frees_the_pins_for_the_next_game(self, factory: MockFactory) -> None:
        LedDisplay(LedConfig(), pin_factory=factory).close()
        again = LedDisplay(LedConfig(), pin_factory=factory)
        again.close()
        again.close()
