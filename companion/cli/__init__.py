"""The ``companion`` command line: one module per sub-command in this package.

Each sub-command module defines ``ORDER`` (its place in ``--help``), ``register(subparsers)``
which adds its parser and sets ``func``, and a ``run(args) -> int`` that returns the exit status.
Modules are discovered, so adding a command never touches this file.

Exit statuses shared by every command: 0 success, 1 a negative answer (e.g. an illegal play),
2 bad input (with a message on stderr that says what to fix), 3 a device or file that failed.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType

from companion import __version__
from companion.allocator import keep_freed_buffers
from companion.errors import CompanionError

EXIT_OK = 0
EXIT_NEGATIVE = 1
EXIT_BAD_INPUT = 2
EXIT_DEVICE = 3


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
    parser = build_parser()
    args = parser.parse_args(argv)
    keep_freed_buffers()
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
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


def _silence_stdout() -> None:
    """Points stdout at /dev/null so that the interpreter's final flush cannot fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
