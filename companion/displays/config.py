"""Display and button settings: ``companion.toml`` sections and their defaults.

The file is shared with the rest of the program; this module reads only its own sections,
``[displays]``, ``[console]``, ``[leds]``, ``[buttons]`` and ``[serial]``, and leaves every
other section to the part of the program that owns it. Inside its sections an unknown key or a
value of the wrong type is an error that names the key, the file and what is expected, so a
typo such as ``gren = 17`` is caught instead of silently ignored.

Pins are BCM numbers (``GPIO17`` is 17), as gpiozero numbers them. ``companion.toml.example``
at the project root documents every key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from companion.displays.base import DisplayConfigError

DEFAULT_PATH = Path("companion.toml")


@dataclass(frozen=True, slots=True)
class ConsoleConfig:
    """``board``: draw the board with each position shown, not just the verdicts."""

    board: bool = True


@dataclass(frozen=True, slots=True)
class LedConfig:
    """The status lights (green, red, amber), an optional buzzer and optional turn lights.

    ``pwm`` drives the lights as ``PWMLED`` so that game over can pulse; ``tonal_buzzer``
    treats ``buzzer`` as a passive piezo for ``TonalBuzzer`` instead of an active ``Buzzer``.
    """

    green: int = 17
    red: int = 27
    amber: int = 22
    pwm: bool = True
    active_high: bool = True
    buzzer: int | None = None
    tonal_buzzer: bool = False
    white_turn: int | None = None
    black_turn: int | None = None

    def pins(self) -> dict[str, int]:
        """Every pin in use, by its setting name."""
        named = {
            "green": self.green,
            "red": self.red,
            "amber": self.amber,
            "buzzer": self.buzzer,
            "white_turn": self.white_turn,
            "black_turn": self.black_turn,
        }
        return {name: pin for name, pin in named.items() if pin is not None}


@dataclass(frozen=True, slots=True)
class ButtonConfig:
    """The control buttons; a pin left out (``None``) means no such button.

    ``bounce_time`` ignores contact bounce after a press; ``hold_time`` is how long "new game"
    must be held so that a brush against it does not end a game. ``pull_up`` wires each
    button between its pin and ground (the internal pull-up resistor keeps it high).
    """

    double: int | None = 23
    take: int | None = 24
    drop: int | None = 25
    beaver: int | None = None
    undo: int | None = 12
    new_game: int | None = 16
    bounce_time: float = 0.05
    hold_time: float = 2.0
    pull_up: bool = True
    enabled: bool = False

    def pins(self) -> dict[str, int]:
        named = {
            "double": self.double,
            "take": self.take,
            "drop": self.drop,
            "beaver": self.beaver,
            "undo": self.undo,
            "new_game": self.new_game,
        }
        return {name: pin for name, pin in named.items() if pin is not None}


@dataclass(frozen=True, slots=True)
class SerialConfig:
    """The serial display: ``port`` is a path, a pyserial URL or ``usb:VID:PID``.

    ``open_delay`` waits after opening the port before the handshake: an Arduino Uno resets
    when the port opens and needs about two seconds to boot.
    """

    port: str = "usb:2341:0043"
    baudrate: int = 115200
    ack_timeout: float = 0.3
    retries: int = 3
    handshake_timeout: float = 3.0
    open_delay: float = 2.0
    backoff_initial: float = 0.1
    backoff_max: float = 5.0
    ping_interval: float = 2.0


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    """Every display setting; ``use`` is the display list when ``--display`` is not given."""

    use: str = "console"
    console: ConsoleConfig = field(default_factory=ConsoleConfig)
    leds: LedConfig = field(default_factory=LedConfig)
    buttons: ButtonConfig = field(default_factory=ButtonConfig)
    serial: SerialConfig = field(default_factory=SerialConfig)

    def __post_init__(self) -> None:
        used: dict[int, str] = {}
        clashes = []
        sections = [("leds", self.leds.pins())]
        if self.buttons.enabled:
            sections.append(("buttons", self.buttons.pins()))
        for section, pins in sections:
            for name, pin in pins.items():
                where = f"[{section}] {name}"
                if pin in used:
                    clashes.append(f"GPIO{pin} is both {used[pin]} and {where}")
                used[pin] = where
        if clashes:
            raise DisplayConfigError("; ".join(clashes) + ": give each its own pin")


_SECTIONS: dict[str, type[Any]] = {
    "console": ConsoleConfig,
    "leds": LedConfig,
    "buttons": ButtonConfig,
    "serial": SerialConfig,
}


def _expected(annotation: str) -> tuple[type, ...]:
    """The TOML value types a field accepts (annotations are strings under __future__)."""
    kinds: list[type] = []
    if "bool" in annotation:
        kinds.append(bool)
    if "int" in annotation:
        kinds.append(int)
    if "float" in annotation:
        kinds += [float, int]
    if "str" in annotation:
        kinds.append(str)
    return tuple(kinds)


def _section(cls: type[Any], table: Any, name: str, source: str) -> Any:
    if not isinstance(table, Mapping):
        raise DisplayConfigError(f"{source}: [{name}] must be a table of settings")
    known = {f.name: f for f in fields(cls)}
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in known:
            raise DisplayConfigError(
                f"{source}: [{name}] has no setting {key!r}; the settings are "
                + ", ".join(sorted(known))
            )
        annotation = str(known[key].type)
        if "None" in annotation and value is False:
            values[key] = None  # `undo = false`: this button or light is not wired
            continue
        kinds = _expected(annotation)
        wrong_bool = isinstance(value, bool) and bool not in kinds
        if wrong_bool or not isinstance(value, kinds):
            wanted = " or ".join(sorted({k.__name__ for k in kinds}))
            raise DisplayConfigError(
                f"{source}: [{name}] {key} = {value!r} should be {wanted}"
                + (" (a BCM pin number, or false when not wired)" if "None" in annotation else "")
            )
        if isinstance(value, int | float) and not isinstance(value, bool):
            if value < 0:
                raise DisplayConfigError(f"{source}: [{name}] {key} = {value} cannot be negative")
            if "float" in annotation:
                value = float(value)
        values[key] = value
    if "enabled" in known and name == "buttons" and "enabled" not in table:
        values["enabled"] = True  # a [buttons] section means the buttons are wired
    return cls(**values)


def parse_config(data: Mapping[str, Any], source: str = "companion.toml") -> DisplayConfig:
    """The display settings in an already parsed TOML document (other sections ignored)."""
    config = DisplayConfig()
    changes: dict[str, Any] = {}
    displays = data.get("displays", {})
    if not isinstance(displays, Mapping) or set(displays) - {"use"}:
        raise DisplayConfigError(
            f'{source}: [displays] takes one setting, use = "console,leds,serial"'
        )
    if "use" in displays:
        use = displays["use"]
        if isinstance(use, list) and all(isinstance(item, str) for item in use):
            use = ",".join(use)
        if not isinstance(use, str):
            raise DisplayConfigError(
                f'{source}: [displays] use must be text like "console,leds,serial"'
            )
        changes["use"] = use
    for name, cls in _SECTIONS.items():
        if name in data:
            changes[name] = _section(cls, data[name], name, source)
    try:
        return replace(config, **changes)
    except DisplayConfigError as error:
        raise DisplayConfigError(f"{source}: {error}") from None


def load_config(path: Path | str | None = None) -> DisplayConfig:
    """Reads the display settings from ``path``, or ``./companion.toml`` when it exists.

    With no path and no ``./companion.toml`` the defaults apply (the console only). Raises
    :class:`DisplayConfigError` for a named file that is missing or not valid TOML.
    """
    if path is None:
        if not DEFAULT_PATH.is_file():
            return DisplayConfig()
        path = DEFAULT_PATH
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DisplayConfigError(
            f"no settings file {path}: copy companion.toml.example to {path} and edit it"
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise DisplayConfigError(f"cannot read {path}: {error}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DisplayConfigError(f"{path} is not valid TOML: {error}") from None
    return parse_config(data, str(path))
