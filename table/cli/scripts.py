"""``munchkin-table simulate`` and ``export``: table scripts played headless, and games written as them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from table.cli.common import Subparsers, config_of, whole_number, with_config
from table.sim.script import check_seed
from table.sim.export import export_game
from table.words.user import _


def cmd_simulate(args: argparse.Namespace) -> int:
    from table.sim.simulate import simulate     # pygame is loaded only by the commands that draw

    seed = check_seed(args.seed) if args.seed is not None else None
    return simulate(args.script, config_of(args), screenshots=Path(args.screenshot) if args.screenshot else None,
                    story=getattr(args, "verbose", False), seed=seed, config_named=bool(args.config))


def cmd_export(args: argparse.Namespace) -> int:

    sys.stdout.write(export_game(config_of(args), args.game))
    return 0


def add_simulate(sub: Subparsers) -> None:
    p = with_config(sub.add_parser("simulate", help=_("run a table script headless and print the state JSON")))
    p.add_argument("script", metavar="SCRIPT", help=_("the table script; '-' reads it from standard input"))
    p.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
                   help=_("tell the story of the game in words on stderr, one line per action"))
    p.add_argument("--screenshot", metavar="DIR", help=_("save a PNG of the screen after each action"))
    p.add_argument("--seed", type=int, metavar="N", help=_("the game's seed (die rolls); default: the script's, else 1"))
    p.set_defaults(func=cmd_simulate)


def add_export(sub: Subparsers) -> None:
    p = with_config(sub.add_parser("export", help=_("print a game as a table script that simulate replays")))
    p.add_argument("--game", type=whole_number(1, 2**63 - 1), metavar="ID", help=_("the game to export (default: the live or last one)"))
    p.set_defaults(func=cmd_export)
