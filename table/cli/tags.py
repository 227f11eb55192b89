"""``munchkin-table tags export [FILE]`` and ``tags import FILE``: the tag registry as CSV (``uid,card``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cards.enroll import deck_order
from cards.loader import load_catalog
from cards.tags import TagRegistry, parse_tag_csv
from cards.textfile import TextFileError, read_text
from engine.cards import Catalog
from table.cli.errors import os_reason
from table.cli.common import Subparsers, config_of, with_config
from table.cli.problems import report_bad_lines
from table.storage.faults import describe_fault
from table.storage.paths import TAGS_FILE, hold_table_lock
from table.words.user import _


def _export(registry: TagRegistry, catalog: Catalog, file: str | None) -> int:
    text = registry.to_csv(deck_order(catalog))     # tokens first, then the deck as enrollment walks it
    if file and file != "-":
        try:
            Path(file).write_text(text, encoding="utf-8")
        except OSError as exc:
            print(_("munchkin-table tags export: cannot write {file}: {reason}; name a file in a folder you can "
                    "write to").format(file=file, reason=os_reason(exc)), file=sys.stderr)
            return 2
        print(f"exported {len(registry)} tags to {file}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _import(state_dir: Path, catalog: Catalog, file: str | None) -> int:
    if not file:
        print(_("munchkin-table tags import: name the CSV file (header 'uid,card')"), file=sys.stderr)
        return 2
    try:
        text = read_text(file, what="tags CSV")
    except TextFileError as exc:
        print(f"munchkin-table tags import: {exc}", file=sys.stderr)
        return 2
    # One writer of the tag file: not while a table or the enroll wizard runs on this directory
    # (TableBusy names it); the registry is read again under the lock, so no row is lost.
    lock = hold_table_lock(state_dir)  # noqa: F841
    registry = TagRegistry(state_dir / TAGS_FILE, known=catalog)
    rows, problems = parse_tag_csv(text, catalog, registry.as_dict(), require_header=True)
    if problems:

        return report_bad_lines(file, problems)
    try:
        new = registry.bind_many(rows)
    except OSError as exc:

        print(_("munchkin-table tags import: nothing imported: {why}").format(why=describe_fault(exc, state_dir / TAGS_FILE)),
              file=sys.stderr)
        return 2
    print(f"imported {len(rows)} tag(s) from {file}: {new} new, {len(rows) - new} already known; "
          f"the registry holds {len(registry)}")
    return 0


def cmd_tags(args: argparse.Namespace) -> int:
    config = config_of(args)
    catalog = load_catalog(config.card_set_files())
    registry = TagRegistry(config.state_dir / TAGS_FILE, known=catalog, read_only=True)   # export only reads
    for problem in registry.problems:
        print(f"munchkin-table tags: {problem}", file=sys.stderr)
    if args.action == "export":
        return _export(registry, catalog, args.file)
    return _import(config.state_dir, catalog, args.file)


def add_tags(sub: Subparsers) -> None:
    p = with_config(sub.add_parser("tags", help=_("'tags import FILE.csv' or 'tags export [FILE.csv]'")))
    p.add_argument("action", choices=["import", "export"],
                   help=_("import: bind the tags of a CSV file; export: write the registry as CSV"))
    p.add_argument("file", nargs="?", metavar="FILE.csv",
                   help=_("the CSV file (header 'uid,card'); export without one, or with '-', prints it"))
    p.set_defaults(func=cmd_tags)
