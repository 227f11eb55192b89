"""The command line (design §4): run, simulate, state, cards, tags, enroll, doctor.

The top layer: ``main`` (the ``munchkin-table`` console script, also ``python -m table``) parses the
arguments and hands each command to the layer that does it. One module per command family, each
with its ``cmd_*`` functions and the ``add_*`` that declares their arguments:

    play.py      run, enroll
    scripts.py   simulate, export
    game.py      state, restore
    records.py   history, stats
    cards.py     cards (names.py: cards names; checklist.py: cards checklist)
    tags.py      tags
    doctor.py    doctor (checks.py: the devices and the screen)
    league.py    league standings, league tables

errors.py is the one error wrapper (a failure that is not a bug: one line, exit 2) and says where
the log goes; common.py holds the config every command reads and the one-line answer to a bad
command line (with the closest command to one mistyped). The command line speaks the user's
language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG: table/words/user.py); its JSON and CSV never change. A new command is an ``add_*`` in its family's module (or a new
module) and one entry in ``COMMANDS`` below.

May import every layer of table/; nothing imports it.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import logging
import sys
from collections.abc import Callable

import table
from table.cli import cards, doctor, game, league, play, records, scripts, tags, web
from table.cli.common import Parser, Subparsers
from table.cli.errors import log_handlers, quiet_stdout, run_command
from table.words.user import _

# The subcommands in the order ``--help`` lists them.
COMMANDS: tuple[Callable[[Subparsers], None], ...] = (
    play.add_run, scripts.add_simulate, scripts.add_export, game.add_state, records.add_history_and_stats,
    cards.add_cards, tags.add_tags, game.add_restore, doctor.add_doctor, play.add_enroll, web.add_web,
    league.add_league,
)
# Commands whose output is their answer: only errors are logged.
QUIET = ("simulate", "state", "cards", "tags", "doctor", "history", "stats", "export", "restore", "web", "league")


def version() -> str:
    """The installed package's version (pyproject.toml's, the one source), else "unknown"."""
    own = getattr(table, "__version__", None)
    if isinstance(own, str) and own:
        return own
    try:
        return importlib.metadata.version("munchkin-table")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed: pip install -e . or ./go)"


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="munchkin-table", description=_("The Munchkin bookkeeping table."))
    parser.add_argument("-v", "--verbose", action="store_true", help=_("log debug detail (and the traceback of a bug)"))
    parser.add_argument("--version", action="version", version=f"munchkin-table {version()}",
                        help=_("print the version and exit"))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", help=_("what to do (COMMAND --help for more)"))
    for add in COMMANDS:
        add(sub)
    return parser


def _tolerant_stdout() -> None:
    """Where stdout cannot encode every character (PYTHONIOENCODING=ascii, a Latin-1 terminal),
    write the others as escapes instead of failing half-way through the output."""
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    if encoding not in ("utf8", "utf8sig") and hasattr(sys.stdout, "reconfigure"):
        try:
            sys.stdout.reconfigure(errors="backslashreplace")
        except (ValueError, OSError):
            pass


def main(argv: list[str] | None = None) -> int:
    _tolerant_stdout()
    try:
        args = build_parser().parse_args(argv)      # --help exits 0; a usage error exits 2 after one line
    except BrokenPipeError:                 # --help into a reader that left
        quiet_stdout()
        return 0
    verbose = args.verbose and args.command != "simulate"     # simulate -v tells the story instead
    quiet = args.command in QUIET
    logging.basicConfig(level=logging.DEBUG if verbose else (logging.ERROR if quiet else logging.INFO),
                        handlers=log_handlers(verbose=args.verbose))
    return run_command(args.func, args)


if __name__ == "__main__":
    raise SystemExit(main())
