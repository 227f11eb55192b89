"""``munchkin-table cards``: the catalog listed, searched or checked; ``cards names`` (names.py)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cards.listing import card_to_json, describe_line, search
from cards.loader import load_catalog, validate_files
from cards.names import LANGUAGES, with_names
from engine.cards import CardDef
from table.cli.checklist import print_checklist
from table.cli.common import Subparsers, config_of, with_config
from table.cli.names import names_command
from table.config import Config
from table.words.user import _


def _validate(args: argparse.Namespace, config: Config) -> int:
    """``cards validate [PATH...]``: every problem named by file and line; exit 2 when there is one."""
    paths = [Path(p) for p in args.args] or config.card_set_files()
    cards, problems = validate_files(paths)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(_("{n} problem(s) in the card data").format(n=len(problems)), file=sys.stderr)
        return 2
    print(f"ok: {len(cards)} cards, {sum(c.copies for c in cards)} copies in {len(paths)} file(s)")
    return 0


def _print_cards(chosen: list[CardDef], args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps([card_to_json(c) for c in chosen], indent=2, ensure_ascii=False))
    else:
        for card in chosen:
            print(describe_line(card))
        if args.action is None:
            print(f"{len(chosen)} cards, {sum(c.copies for c in chosen)} copies")
    return 0


def cmd_cards(args: argparse.Namespace) -> int:
    config = config_of(args)
    if args.action == "validate":
        return _validate(args, config)
    catalog = with_names(load_catalog(config.card_set_files()), config.state_dir)
    if args.action == "checklist":
        if args.args:
            print(_("munchkin-table cards checklist: unexpected {words}; it takes --html or --json").format(
                words=repr(" ".join(args.args))), file=sys.stderr)
            return 2
        return print_checklist(catalog, html_page=args.html, as_json=args.json, lang=config.display.language)
    if args.action == "names":

        return names_command(args, catalog, config.state_dir)
    if args.action == "search":
        if not args.args:
            print(_("munchkin-table cards search: say what to look for, e.g. 'cards search dragon'"), file=sys.stderr)
            return 2
        chosen = search(catalog, " ".join(args.args))
        if not chosen and not args.json:
            print(_("no card matches {text}; 'munchkin-table cards' lists them all").format(text=repr(" ".join(args.args))),
                  file=sys.stderr)
            return 2
    else:
        if args.args:
            print(_("munchkin-table cards: unexpected {words}; try 'cards validate PATH' or 'cards search TEXT'").format(
                words=repr(" ".join(args.args))), file=sys.stderr)
            return 2
        chosen = list(catalog.values())
    return _print_cards(chosen, args)


def add_cards(sub: Subparsers) -> None:
    p = with_config(sub.add_parser("cards", help=_("list the catalog; 'cards validate [PATH...]'; 'cards search TEXT'; "
                                                   "'cards names export --lang es' / 'cards names import FILE.csv'; "
                                                   "'cards checklist [--html]'")))
    p.add_argument("action", nargs="?", choices=["validate", "search", "names", "checklist"],
                   help=_("validate: check card files; search: find cards; names: export or import card names; "
                          "checklist: every tag to enroll, in the order the wizard asks (default: list the catalog)"))
    p.add_argument("args", nargs="*", metavar="PATH|TEXT",
                   help=_("validate: the card files (default: the config's); search: the words to look for; "
                          "names: export, or import FILE.csv"))
    p.add_argument("--lang", choices=list(LANGUAGES), help=_("cards names export: the language of the names"))
    p.add_argument("--json", action="store_true", help=_("print a JSON list of card objects"))
    p.add_argument("--html", action="store_true", help=_("cards checklist: a printable page to sort the deck by"))
    p.set_defaults(func=cmd_cards)
