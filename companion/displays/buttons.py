"""Control buttons at the table: double, take, drop, undo, and new game (held down).

Each press becomes one :class:`Control` in a thread-safe queue that the referee polls between
frames (:meth:`Buttons.poll`), and, when given, is also passed to a callback. Presses arrive on
gpiozero's threads; the queue is the only thing shared with the game loop.

Contact bounce is filtered twice: gpiozero's ``bounce_time`` on the pin (pin libraries that
can do it in hardware or the kernel do), and a check here that ignores a second press of the
same button within ``bounce_time`` of the one accepted, so that every pin library gives one
event per press. "New game" fires only after the button has been held for ``hold_time``
seconds, so a brush against it cannot throw a game away.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import gpiozero

from companion.displays.base import Control
from companion.displays.config import ButtonConfig
from companion.displays.leds import gpio_errors

logger = logging.getLogger(__name__)


class Buttons:
    """The control buttons of :class:`ButtonConfig`, each a gpiozero ``Button``.

    Raises :class:`~companion.displays.base.DisplayUnavailable` (also an ``OSError``) on a
    machine without GPIO, with how to play without buttons.
    """

    def __init__(
        self,
        config: ButtonConfig | None = None,
        *,
        pin_factory: Any = None,
        on_control: Callable[[Control], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config or ButtonConfig()
        self.events: queue.SimpleQueue[Control] = queue.SimpleQueue()
        self.on_control = on_control
        self._clock = clock
        self._last_accepted: dict[Control, float] = {}
        self._lock = threading.Lock()
        self.buttons: dict[Control, Any] = {}
        config = self.config
        with gpio_errors("the buttons"):
            try:
                for setting, pin in config.pins().items():
                    control = Control(setting)
                    held = control is Control.NEW_GAME
                    button = gpiozero.Button(
                        pin,
                        pull_up=config.pull_up,
                        bounce_time=config.bounce_time or None,
                        hold_time=config.hold_time if held else 1.0,
                        pin_factory=pin_factory,
                    )
                    handler = self._handler(control)
                    if held:
                        button.when_held = handler
                    else:
                        button.when_pressed = handler
                    self.buttons[control] = button
            except BaseException:
                self.close()
                raise

    def _handler(self, control: Control) -> Callable[[], None]:
        def pressed() -> None:
            self._press(control)

        return pressed

    def _press(self, control: Control) -> None:
        now = self._clock()
        with self._lock:
            last = self._last_accepted.get(control)
            if last is not None and now - last < self.config.bounce_time:
                return
            self._last_accepted[control] = now
        self.events.put(control)
        if self.on_control is not None:
            try:
                self.on_control(control)
            except Exception:
                # The callback belongs to the game; a bug there must not kill gpiozero's thread.
                logger.exception("the handler for the %s button failed", control.value)

    def poll(self) -> Control | None:
        """The oldest press not yet taken, or None at once when there is none."""
        try:
            return self.events.get_nowait()
        except queue.Empty:
            return None

    def wait(self, timeout: float) -> Control | None:
        """The oldest press, waiting up to ``timeout`` seconds for one."""
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        """Releases the pins (safe to call twice)."""
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
