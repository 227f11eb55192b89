"""``munchkin-table run`` and ``enroll``: the table, and the wizard that binds the deck's tags."""

from __future__ import annotations

import argparse

from table.cli.common import Subparsers, config_of, with_config
from table.words.user import _


def cmd_run(args: argparse.Namespace) -> int:
    if args.league_board:
        from table.app.league import run_league_board     # pygame is loaded only by the commands that draw

        return run_league_board(config_of(args))
    from table.app.run import run     # pygame is loaded only by the commands that draw

    return run(config_of(args), sim=args.sim)


def cmd_enroll(args: argparse.Namespace) -> int:
    from table.app.enroll import enroll     # pygame is loaded only by the commands that draw

    return enroll(config_of(args), sim=args.sim, set_id=args.set, tokens=not args.no_tokens, card=args.card)


def add_run(sub: Subparsers) -> None:
    p = with_config(sub.add_parser("run", help=_("run the table")))
    p.add_argument("--sim", action="store_true", help=_("simulated reader and buttons (keyboard)"))
    p.add_argument("--league-board", action="store_true",
                   help=_("no game: show the league's standings and tables (a wall screen; [league] in the config)"))
    p.set_defaults(func=cmd_run)


def add_enroll(sub: Subparsers) -> None:
    p = with_config(sub.add_parser("enroll", help=_("the on-screen wizard that binds every tag of the deck")))
    p.add_argument("--sim", action="store_true", help=_("simulated reader: type a UID and Enter to tap"))
    p.add_argument("--set", metavar="ID", help=_("enroll only the cards of this set (e.g. an expansion)"))
    p.add_argument("--no-tokens", action="store_true", help=_("skip the six player tokens"))
    p.add_argument("--card", metavar="ID", help=_("bind every tag tapped to this one card (or player token) until RUN"))
    p.set_defaults(func=cmd_enroll)
