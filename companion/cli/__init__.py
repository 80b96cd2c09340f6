"""The ``companion`` command line: one module per sub-command in this package.

Each sub-command module defines ``ORDER`` (its place in ``--help``), ``register(subparsers)``
which adds its parser and sets ``func``, and a ``run(args) -> int`` that returns the exit status.
Modules are discovered, so adding a command never touches this file.

Exit statuses shared by every command: 0 success, 1 a negative answer (e.g. an illegal play),
2 bad input (with a message on stderr that says what to fix), 3 a device or file that failed,
4 a fault in the program itself (a bug): one plain line on stderr, the traceback kept in a
report file for a bug report, since a player at the table can do nothing with a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from companion import __version__
from companion.allocator import keep_freed_buffers
from companion.errors import CompanionError

EXIT_OK = 0
EXIT_NEGATIVE = 1
EXIT_BAD_INPUT = 2
EXIT_DEVICE = 3
EXIT_FAULT = 4


def _command_modules() -> list[ModuleType]:
    modules = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "register"):
            modules.append(module)
    return sorted(modules, key=lambda m: (getattr(m, "ORDER", 100), m.__name__))


def build_parser() -> argparse.ArgumentParser:
    """The full parser; split out so tests and docs can inspect every command's help."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Backgammon Companion: watches a physical board and judges every move.",
        epilog="Run 'companion COMMAND --help' for the options and an example of each command.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _command_modules():
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status instead of raising."""
    command = ""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        command = args.command or ""
        keep_freed_buffers()
        if not getattr(args, "func", None):
            parser.print_help()
            return EXIT_BAD_INPUT
        return _run(args)
    except Exception as error:  # a bug: reported plainly, its traceback kept in a file
        return _report_fault(command, argv, error)


def _run(args: argparse.Namespace) -> int:
    """Runs the command, turning what a player can act on into a message and a status."""
    try:
        status: int = args.func(args)
    except CompanionError as error:
        print(f"companion {args.command}: {error}", file=sys.stderr)
        return EXIT_DEVICE if isinstance(error, OSError) else EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print(f"companion {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of our output went away (e.g. `companion legal ... | head`): not an error.
        _silence_stdout()
        return EXIT_OK
    return status


FAULT_REPORTS = "COMPANION_FAULT_REPORTS"
"""Environment variable naming the folder for fault reports (default: the system's temp)."""
FAULT_SUMMARY = 200
"""Characters of the fault's own message kept in the one line a player sees."""


def _report_fault(command: str, argv: Sequence[str] | None, error: Exception) -> int:
    """One plain line for the player, the details in a report file; never raises, whatever
    the fault (a message that cannot be printed, a full disk, stderr gone)."""
    report = _save_fault_report(command, argv, error)
    where = f"the details are in {report}" if report else "no report could be saved"
    try:
        text = str(error)
    except Exception:  # a message that cannot be made is no reason to fail here
        text = "<no message>"
    lines = text.strip().splitlines()
    summary = lines[0][:FAULT_SUMMARY] if lines else ""
    name = f"companion {command}" if command else "companion"
    try:
        print(
            f"{name}: stopped by a fault in the program ({type(error).__name__}: {summary}); "
            f"this is a bug, not a mistake in your input: {where}; please attach it to a bug "
            "report",
            file=sys.stderr,
        )
    except (OSError, ValueError):
        pass  # stderr is gone: the report, if any, holds it all
    return EXIT_FAULT


def _save_fault_report(
    command: str, argv: Sequence[str] | None, error: BaseException
) -> Path | None:
    """Writes the command line, version and traceback of an unexpected fault to a new file;
    returns its path, or None when no file could be written (the message still goes out).
    Never raises: a half-written report is removed."""
    written: Path | None = None
    try:
        folder = Path(os.environ.get(FAULT_REPORTS) or tempfile.gettempdir())
        stamp = time.strftime("%Y%m%d-%H%M%S")
        words = list(sys.argv[1:] if argv is None else argv)
        text = (
            f"companion {__version__}, Python {sys.version.split()[0]}, {sys.platform}\n"
            f"command: companion {' '.join(words)}\n\n"
            + "".join(traceback.format_exception(type(error), error, error.__traceback__))
        )
        folder.mkdir(parents=True, exist_ok=True)
        handle = tempfile.NamedTemporaryFile(
            "w",
            prefix=f"companion-{command or 'main'}-fault-{stamp}-",
            suffix=".txt",
            dir=folder,
            delete=False,
            encoding="utf-8",
            errors="backslashreplace",  # file names that are not UTF-8 stay readable
        )
        written = Path(handle.name)
        with handle:
            handle.write(text)
        return written
    except Exception:
        if written is not None:
            written.unlink(missing_ok=True)
        return None


def _silence_stdout() -> None:
    """Points stdout at /dev/null so that the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
