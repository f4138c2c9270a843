"""Entry point of the ``edgematch`` command.

Subcommand modules each expose ``register(subparsers)``; this module wires them together
and enforces the bad-input rule: one line ``file:line: problem`` on stderr, exit status 2,
never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ..errors import InputError

# Order = order shown in --help.
SUBCOMMANDS = [
    "info",
    "generate",
    "convert",
    "show",
    "score",
    "verify",
    "count",
    "solve",
    "search",
    "estimate",
    "rotations",
    "optimize",
    "runs",
    "cache",
]

EPILOG = """examples:
  edgematch info e2                      facts about the official puzzle
  edgematch show e2 record/Joshua_Blackwood_470 --out blackwood.png
  edgematch score e2 record/Joshua_Blackwood_470 --json
  edgematch generate 8 --seed 1 --out my8x8.txt --solution my8x8.sol
  edgematch info --list                  every bundled puzzle name
"""


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line and exit status 2."""

    def error(self, message: str):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="edgematch",
        description="Model, generate, solve, count, optimise, check and draw edge-matching puzzles.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"edgematch {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    for name in SUBCOMMANDS:
        importlib.import_module(f".{name}", __package__).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, --version, or a usage error already printed
        return int(stop.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code = args.func(args)
    except InputError as err:
        print(f"edgematch {args.command}: {err.where_and_what()}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("edgematch: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())
