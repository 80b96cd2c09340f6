"""Status lights at the table, on a Raspberry Pi's GPIO pins through gpiozero.

A glance is enough: green for a legal move, red for an illegal one, amber while the program
waits (for dice to settle, for the board to settle) and when the dice must be rolled again.

=========  =============================================  ==========================
verdict    lights                                         buzzer (when wired)
=========  =============================================  ==========================
LEGAL      green steady                                   --
ILLEGAL    red blinks fast (0.2 s on, 0.2 s off)          two short beeps
WAITING    amber steady                                   --
REROLL     amber blinks slowly (0.5 s on, 0.5 s off)      --
GAME_OVER  green pulses (PWM) or blinks (1 s, 1 s)        --
WARNING    amber blinks fast (0.2 s on, 0.2 s off)        --
INFO       unchanged (an announcement, not a judgement)   --
=========  =============================================  ==========================

Optional turn lights show whose turn it is. Pins are BCM numbers from :class:`LedConfig`. The
pin factory follows gpiozero's rules: the ``pin_factory`` argument, else the
``GPIOZERO_PIN_FACTORY`` environment variable, else the first library that works on this
machine. ``GPIOZERO_PIN_FACTORY=mock`` runs the lights in simulation anywhere.
"""

from __future__ import annotations

import logging
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import gpiozero
from gpiozero.exc import (
    BadPinFactory,
    GPIOPinInUse,
    GPIOZeroError,
    PinFactoryFallback,
    PinPWMUnsupported,
)

from companion.displays.base import (
    DisplayBase,
    DisplayConfigError,
    DisplayUnavailable,
    Status,
    Verdict,
)
from companion.displays.config import LedConfig
from companion.rules.position import Colour

logger = logging.getLogger(__name__)

ILLEGAL_BLINK = (0.2, 0.2)
REROLL_BLINK = (0.5, 0.5)
WARNING_BLINK = (0.2, 0.2)
GAME_OVER_BLINK = (1.0, 1.0)
GAME_OVER_PULSE = (1.0, 1.0)
ILLEGAL_BEEP = (0.1, 0.1, 2)
TONE = "A3"

NO_GPIO_HELP = (
    "this machine has no GPIO pins that gpiozero can drive ({error}). To play without "
    "the LEDs and buttons, leave them out: --display console (or console,serial:PORT). To try "
    "them in simulation, set GPIOZERO_PIN_FACTORY=mock. On a Raspberry Pi, install a pin "
    "library: sudo apt install python3-lgpio"
)


@contextmanager
def gpio_errors(what: str) -> Iterator[None]:
    """Turns gpiozero's start-up failures into errors that say what to do about them."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PinFactoryFallback)
        try:
            yield
        except BadPinFactory as error:
            raise DisplayUnavailable(NO_GPIO_HELP.format(error=error)) from None
        except GPIOPinInUse as error:
            raise DisplayConfigError(
                f"{what}: a pin is already in use ({error}); give each light and button its "
                "own pin in companion.toml"
            ) from None
        except GPIOZeroError as error:
            raise DisplayConfigError(
                f"{what}: {type(error).__name__} {error} (check the pin numbers in companion.toml)"
            ) from None


class LedDisplay(DisplayBase):
    """Green, red and amber lights (an ``LEDBoard`` of ``PWMLED`` or ``LED``), an optional
    buzzer and optional turn lights.

    Raises :class:`DisplayUnavailable` (also an ``OSError``) on a machine without GPIO, with
    the way to play without LEDs, and :class:`DisplayConfigError` for pins that cannot be used.
    """

    name = "leds"

    def __init__(self, config: LedConfig | None = None, *, pin_factory: Any = None) -> None:
        self.config = config or LedConfig()
        self._devices: list[Any] = []
        self._tone_stop = threading.Event()
        self._tone_thread: threading.Thread | None = None
        config = self.config
        with gpio_errors("the LED lights"):
            try:
                try:
                    self.lights = self._status_lights(config, pin_factory)
                except PinPWMUnsupported:
                    # Pins without PWM still light and blink; only the game-over pulse is lost.
                    logger.warning("these GPIO pins cannot dim (no PWM): game over will blink")
                    self.config = config = replace(config, pwm=False)
                    self.lights = self._status_lights(config, pin_factory)
                self._devices.append(self.lights)
                self.buzzer: Any = None
                if config.buzzer is not None:
                    buzzer_class = gpiozero.TonalBuzzer if config.tonal_buzzer else gpiozero.Buzzer
                    self.buzzer = buzzer_class(config.buzzer, pin_factory=pin_factory)
                    self._devices.append(self.buzzer)
                self.turn_lights: dict[Colour, Any] = {}
                for colour, pin in (
                    (Colour.WHITE, config.white_turn),
                    (Colour.BLACK, config.black_turn),
                ):
                    if pin is not None:
                        light = gpiozero.LED(
                            pin, active_high=config.active_high, pin_factory=pin_factory
                        )
                        self.turn_lights[colour] = light
                        self._devices.append(light)
            except BaseException:
                self.close()
                raise

    @staticmethod
    def _status_lights(config: LedConfig, pin_factory: Any) -> Any:
        return gpiozero.LEDBoard(
            green=config.green,
            red=config.red,
            amber=config.amber,
            pwm=config.pwm,
            active_high=config.active_high,
            pin_factory=pin_factory,
        )

    def show_verdict(self, verdict: Verdict) -> None:
        if verdict.status is Status.INFO:
            return
        green, red, amber = self.lights.green, self.lights.red, self.lights.amber
        patterns: dict[Status, Callable[[], None]] = {
            Status.LEGAL: green.on,
            Status.ILLEGAL: lambda: red.blink(*ILLEGAL_BLINK),
            Status.WAITING: amber.on,
            Status.REROLL: lambda: amber.blink(*REROLL_BLINK),
            Status.GAME_OVER: self._game_over,
            Status.WARNING: lambda: amber.blink(*WARNING_BLINK),
        }
        lit = {Status.LEGAL: green, Status.GAME_OVER: green, Status.ILLEGAL: red}.get(
            verdict.status, amber
        )
        for light in (green, red, amber):
            if light is not lit:
                light.off()
        patterns[verdict.status]()
        if verdict.status is Status.ILLEGAL:
            self._sound_illegal()

    def _game_over(self) -> None:
        if self.config.pwm:
            self.lights.green.pulse(*GAME_OVER_PULSE)
        else:
            self.lights.green.blink(*GAME_OVER_BLINK)

    def _sound_illegal(self) -> None:
        if self.buzzer is None:
            return
        on_time, off_time, count = ILLEGAL_BEEP
        if not self.config.tonal_buzzer:
            self.buzzer.beep(on_time, off_time, n=count)
            return
        # TonalBuzzer has no beep(): play the tone in short bursts on a thread of our own.
        self._stop_tone()
        self._tone_stop = stop = threading.Event()

        def beep() -> None:
            for _ in range(count):
                self.buzzer.play(TONE)
                if stop.wait(on_time):
                    break
                self.buzzer.stop()
                if stop.wait(off_time):
                    break
            self.buzzer.stop()

        self._tone_thread = threading.Thread(target=beep, name="illegal-move tone", daemon=True)
        self._tone_thread.start()

    def _stop_tone(self) -> None:
        self._tone_stop.set()
        if self._tone_thread is not None:
            self._tone_thread.join(timeout=1.0)
            self._tone_thread = None

    def show_turn(self, colour: Colour | str, player: str = "") -> None:
        on_roll = Colour.parse(str(colour))
        for side, light in self.turn_lights.items():
            if side is on_roll:
                light.on()
            else:
                light.off()

    def clear(self) -> None:
        self._stop_tone()
        self.lights.off()
        for light in self.turn_lights.values():
            light.off()
        if self.buzzer is not None and not self.config.tonal_buzzer:
            self.buzzer.off()

    def close(self) -> None:
        """Turns everything off and releases the pins (safe to call twice)."""
        self._stop_tone()
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()
