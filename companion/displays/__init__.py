"""Displays and controls at the table: console, LEDs and buttons (gpiozero), serial display.

Every display implements :class:`Display`; :func:`from_spec` builds the displays a user
chose (``--display console,leds,serial:/dev/ttyACM0``) as one :class:`FanOut`, configured from
``companion.toml`` (:func:`load_config`). Buttons are not displays: :func:`buttons_from_config`
builds them when the settings file has a ``[buttons]`` section.

>>> import io
>>> stream = io.StringIO()
>>> with from_spec("console", DisplayConfig(), stream=stream) as displays:
...     displays.show_verdict(Verdict(Status.LEGAL, "legal: 24/18 13/10"))
>>> stream.getvalue()
'[LEGAL]     legal: 24/18 13/10\\n'
"""

from __future__ import annotations

from typing import Any, TextIO

from companion.displays.base import (
    Control,
    Display,
    DisplayBase,
    DisplayConfigError,
    DisplayUnavailable,
    FanOut,
    Status,
    Verdict,
)
from companion.displays.buttons import Buttons
from companion.displays.config import DisplayConfig, load_config
from companion.displays.console import ConsoleDisplay
from companion.displays.leds import LedDisplay
from companion.displays.serial_display import SerialDisplay

__all__ = [
    "Buttons",
    "ConsoleDisplay",
    "Control",
    "Display",
    "DisplayBase",
    "DisplayConfig",
    "DisplayConfigError",
    "DisplayUnavailable",
    "FanOut",
    "LedDisplay",
    "SerialDisplay",
    "Status",
    "Verdict",
    "buttons_from_config",
    "from_spec",
    "load_config",
]

KINDS = ("console", "leds", "serial")
SPEC_HELP = (
    "name displays separated by commas: console, leds, serial (the port of companion.toml) or "
    "serial:PORT with PORT a path (/dev/ttyACM0), a URL (loop://, socket://host:port) or a USB "
    "id (usb:2341:0043); e.g. --display console,leds,serial:/dev/ttyACM0"
)


def from_spec(
    spec: str,
    config: DisplayConfig | None = None,
    *,
    stream: TextIO | None = None,
    pin_factory: Any = None,
) -> FanOut:
    """The displays named in ``spec`` (``"console,leds,serial:/dev/ttyACM0"``) as a FanOut.

    ``config`` supplies the pins, the serial port and the timings (defaults when None);
    ``serial:PORT`` overrides the configured port. ``stream`` is where the console writes
    (standard output by default); ``pin_factory`` is gpiozero's (its default follows
    ``GPIOZERO_PIN_FACTORY``).

    Raises :class:`DisplayConfigError` for an unknown or repeated display name, and
    :class:`DisplayUnavailable` (an ``OSError``) when the LEDs are asked for on a machine
    without GPIO, saying how to run without them. A serial display that is not plugged in is
    not an error: it connects in the background when it appears.
    """
    config = config or DisplayConfig()
    names = [part.strip() for part in spec.split(",") if part.strip()]
    if not names:
        raise DisplayConfigError(f"no display named in {spec!r}: {SPEC_HELP}")
    seen: set[str] = set()
    for name in names:
        kind = name.split(":", 1)[0].lower()
        if kind not in KINDS:
            raise DisplayConfigError(f"unknown display {name!r}: {SPEC_HELP}")
        if kind == "serial" and name.lower() != "serial" and not name.split(":", 1)[1].strip():
            raise DisplayConfigError(f"{name!r} names no port: {SPEC_HELP}")
        if name in seen:
            raise DisplayConfigError(f"display {name!r} is named twice in {spec!r}: {SPEC_HELP}")
        seen.add(name)
    displays: list[Display] = []
    try:
        for name in names:
            kind, _, port = name.partition(":")
            kind = kind.lower()
            if kind == "console":
                displays.append(ConsoleDisplay(stream, board=config.console.board))
            elif kind == "leds":
                displays.append(LedDisplay(config.leds, pin_factory=pin_factory))
            else:
                serial = config.serial
                target = port.strip() or serial.port
                displays.append(
                    SerialDisplay(
                        target,
                        baudrate=serial.baudrate,
                        ack_timeout=serial.ack_timeout,
                        retries=serial.retries,
                        handshake_timeout=serial.handshake_timeout,
                        # Only a board on a USB cable resets when its port opens.
                        open_delay=0.0 if "://" in target else serial.open_delay,
                        backoff_initial=serial.backoff_initial,
                        backoff_max=serial.backoff_max,
                        ping_interval=serial.ping_interval,
                    )
                )
    except BaseException:
        for display in displays:
            display.close()
        raise
    return FanOut(displays)


def buttons_from_config(config: DisplayConfig, *, pin_factory: Any = None) -> Buttons | None:
    """The buttons of the settings, or None when none are wired (no ``[buttons]`` section)."""
    if not config.buttons.enabled or not config.buttons.pins():
        return None
    return Buttons(config.buttons, pin_factory=pin_factory)
