"""The control buttons with gpiozero's real Button on MockFactory pins.

A button is wired between its pin and ground with the pull-up on: pressing drives the pin low.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.displays.base import Control, DisplayConfigError, DisplayUnavailable
from companion.displays.buttons import Buttons
from companion.displays.config import ButtonConfig

PINS = {"double": 23, "take": 24, "drop": 25, "undo": 12, "new_game": 16}
HOLD = 0.3


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


@pytest.fixture
def buttons(factory: MockFactory) -> Iterator[Buttons]:
    controls = Buttons(ButtonConfig(bounce_time=0.2, hold_time=HOLD), pin_factory=factory)
    yield controls
    controls.close()


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


class TestPresses:
    @pytest.mark.parametrize("control", [Control.DOUBLE, Control.TAKE, Control.DROP, Control.UNDO])
    def test_each_button_is_one_control_event(
        self, buttons: Buttons, factory: MockFactory, control: Control
    ) -> None:
        press(factory, PINS[control.value])
        assert buttons.poll() is control
        assert buttons.poll() is None

    def test_events_arrive_in_the_order_of_the_presses(
        self, buttons: Buttons, factory: MockFactory
    ) -> None:
        for name in ("double", "take", "undo"):
            press(factory, PINS[name])
        assert [buttons.poll() for _ in range(4)] == [
            Control.DOUBLE,
            Control.TAKE,
            Control.UNDO,
            None,
        ]

    def test_contact_bounce_is_one_press(self, buttons: Buttons, factory: MockFactory) -> None:
        pin = factory.pin(PINS["double"])
        for _ in range(5):  # a bouncing contact: several edges within microseconds
            pin.drive_low()
            pin.drive_high()
        assert buttons.poll() is Control.DOUBLE
        assert buttons.poll() is None

    def test_presses_further_apart_than_the_bounce_time_all_count(
        self, factory: MockFactory
    ) -> None:
        now = [100.0]
        controls = Buttons(
            ButtonConfig(bounce_time=0.05), pin_factory=factory, clock=lambda: now[0]
        )
        try:
            press(factory, PINS["undo"])
            now[0] += 0.04
            press(factory, PINS["undo"])  # still bouncing
            now[0] += 0.5
            press(factory, PINS["undo"])  # a second, deliberate press
            assert [controls.poll() for _ in range(3)] == [Control.UNDO, Control.UNDO, None]
        finally:
            controls.close()

    def test_the_callback_hears_every_press_too(self, factory: MockFactory) -> None:
        heard: list[Control] = []
        controls = Buttons(ButtonConfig(), pin_factory=factory, on_control=heard.append)
        try:
            press(factory, PINS["drop"])
            assert heard == [Control.DROP] and controls.poll() is Control.DROP
        finally:
            controls.close()

    def test_a_failing_callback_does_not_lose_the_event(self, factory: MockFactory) -> None:
        def broken(control: Control) -> None:
            raise RuntimeError("bug in the game")

        controls = Buttons(ButtonConfig(), pin_factory=factory, on_control=broken)
        try:
            press(factory, PINS["take"])
            assert controls.poll() is Control.TAKE
        finally:
            controls.close()

    def test_a_beaver_button_when_one_is_wired(self, factory: MockFactory) -> None:
        controls = Buttons(ButtonConfig(beaver=20), pin_factory=factory)
        try:
            press(factory, 20)
            assert controls.poll() is Control.BEAVER
        finally:
            controls.close()

    def test_a_button_left_out_is_not_created(self, factory: MockFactory) -> None:
        controls = Buttons(ButtonConfig(undo=None), pin_factory=factory)
        try:
            assert Control.UNDO not in controls.buttons
            press(factory, PINS["undo"])
            assert controls.poll() is None
        finally:
            controls.close()


class TestNewGame:
    def test_new_game_needs_a_long_press(self, buttons: Buttons, factory: MockFactory) -> None:
        pin = factory.pin(PINS["new_game"])
        pressed_at = time.monotonic()
        pin.drive_low()
        assert buttons.wait(timeout=5.0) is Control.NEW_GAME
        assert time.monotonic() - pressed_at >= HOLD * 0.95
        pin.drive_high()
        assert buttons.poll() is None

    def test_a_short_press_of_new_game_does_nothing(self, factory: MockFactory) -> None:
        controls = Buttons(ButtonConfig(hold_time=0.5), pin_factory=factory)
        try:
            pin = factory.pin(PINS["new_game"])
            pin.drive_low()
            pin.drive_high()
            assert controls.wait(timeout=0.8) is None
        finally:
            controls.close()


class TestWiring:
    def test_a_machine_without_gpio_says_how_to_play_without_buttons(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
        monkeypatch.setattr(Device, "pin_factory", None)
        with pytest.raises(DisplayUnavailable, match="--display console"):
            Buttons(ButtonConfig())

    def test_two_buttons_on_one_pin_are_refused(self, factory: MockFactory) -> None:
        with pytest.raises(DisplayConfigError, match="own pin"):
            Buttons(ButtonConfig(take=23), pin_factory=factory)
