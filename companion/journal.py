"""The game journal: every referee event as one JSON line, on disk before anyone sees it.

A live game must survive a crash or a power cut, so the journal is written the way a database
writes its log: each event is appended as one line of JSON (JSON Lines), flushed and
``os.fsync``-ed before :meth:`Journal.append` returns, and only then is the verdict shown.
Nothing is ever rewritten in place.

The only damage a crash can do is a last line cut short (the power went mid-write).
:func:`read_journal` notices it and :func:`repair` cuts it off, keeping every complete line: a
cut-short line was never acknowledged, so no accepted move is lost. A damaged line *before* the
last one is not a crash but a corrupted file, and is refused with its line number.

A journal starts with a ``match_start`` event; replaying its events
(:func:`companion.referee.table.replay`) rebuilds the game, which is how ``companion run
--resume LOG`` continues.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

from companion.errors import CompanionError, InvalidFormat
from companion.referee.events import Event


class JournalError(CompanionError, OSError):
    """The journal file cannot be created, read or written (a full disk, a missing folder)."""


@dataclass(frozen=True, slots=True)
class JournalContents:
    """What a journal file holds: its events, and the damaged last line, if any."""

    events: tuple[Event, ...]
    damaged_tail: bytes = b""
    good_length: int = 0
    """Bytes up to the end of the last complete line (the length after a repair)."""


def read_journal(path: str | os.PathLike[str]) -> JournalContents:
    """Reads every complete event; a cut-short last line is reported, not raised.

    Raises :class:`JournalError` when the file cannot be read and :class:`InvalidFormat` when a
    line other than the last is not an event (the file was corrupted, not cut short).
    """
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise JournalError(f"cannot read the journal {path}: {error.strerror or error}") from None
    events: list[Event] = []
    lines = data.split(b"\n")
    offset = 0
    for number, line in enumerate(lines, start=1):
        last = number == len(lines)
        if last and not line:
            break  # the file ends with a newline, as a whole journal does
        try:
            if last:
                raise ValueError("no newline at the end: the write was cut short")
            event = Event.from_json(json.loads(line.decode("utf-8")))
        except (ValueError, InvalidFormat) as error:
            rest_blank = all(not later.strip(b" \t\r\n\x00") for later in lines[number:])
            if last or rest_blank:
                return JournalContents(tuple(events), data[offset:], offset)
            raise InvalidFormat(
                f"journal {path}, line {number}: {error}; the lines after it are intact, so "
                "this is a damaged file rather than a cut-short write: restore it from a copy"
            ) from None
        events.append(event)
        offset += len(line) + 1
    return JournalContents(tuple(events), b"", offset)


def repair(path: str | os.PathLike[str]) -> JournalContents:
    """Cuts a damaged last line off the file (durably) and returns the events kept."""
    contents = read_journal(path)
    if contents.damaged_tail:
        try:
            with open(path, "r+b") as handle:
                handle.truncate(contents.good_length)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as error:
            raise JournalError(f"cannot repair the journal {path}: {error}") from None
    return contents


class Journal:
    """An append-only journal file; each :meth:`append` is on disk when it returns."""

    def __init__(self, path: str | os.PathLike[str], handle: BinaryIO) -> None:
        self.path = Path(path)
        self._handle: BinaryIO | None = handle

    @classmethod
    def create(cls, folder: str | os.PathLike[str], now: float | None = None) -> Journal:
        """A new journal in ``folder`` named after the local time (``game-20261130-0412.jsonl``);
        the folder is made when missing. Never overwrites: a clash gets a ``-2`` suffix."""
        directory = Path(folder)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
            for attempt in range(1, 1000):
                suffix = "" if attempt == 1 else f"-{attempt}"
                path = directory / f"game-{stamp}{suffix}.jsonl"
                try:
                    handle = open(path, "xb")
                except FileExistsError:
                    continue
                _sync_directory(directory)
                return cls(path, handle)
        except OSError as error:
            raise JournalError(
                f"cannot create a journal in {directory}: {error.strerror or error}; "
                "choose another folder with --log DIR"
            ) from None
        raise JournalError(f"too many journals named game-{stamp} in {directory}")

    @classmethod
    def continue_from(cls, path: str | os.PathLike[str]) -> tuple[Journal, JournalContents]:
        """Opens an existing journal to append to, repairing a cut-short last line first."""
        contents = repair(path)
        try:
            handle = open(path, "ab")
        except OSError as error:
            raise JournalError(f"cannot append to the journal {path}: {error}") from None
        return cls(path, handle), contents

    def append(self, event: Event) -> None:
        """Writes one event and waits until it is on disk (flush and fsync)."""
        if self._handle is None:
            raise JournalError(f"the journal {self.path} is closed")
        line = json.dumps(event.to_json(), ensure_ascii=False, separators=(",", ":"))
        try:
            self._handle.write(line.encode("utf-8") + b"\n")
            self._handle.flush()
            os.fsync(self._handle.fileno())
        except OSError as error:
            raise JournalError(
                f"cannot write to the journal {self.path}: {error.strerror or error}"
            ) from None

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def _sync_directory(directory: Path) -> None:
    """Makes a new file's name durable too (its directory entry), where the system allows."""
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
