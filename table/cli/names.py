"""``munchkin-table cards names export --lang LANG`` and ``cards names import FILE``: card names typed by a group."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cards.textfile import TextFileError, read_text
from cards.names import LANGUAGES, imported_path, names_in, names_csv, parse_names_csv, store_imported
from engine.cards import Catalog
from table.cli.errors import os_reason
from table.cli.problems import report_bad_lines
from table.words.i18n import N_
from table.words.user import _

USAGE = N_("munchkin-table cards names: 'cards names export --lang es' (CSV on stdout) or "
            "'cards names import FILE.csv' (header 'card,english,LANG')")


def names_command(args: argparse.Namespace, catalog: Catalog, state_dir: Path) -> int:
    words = list(args.args)
    if not words or words[0] not in ("export", "import"):
        print(_(USAGE), file=sys.stderr)
        return 2
    if words[0] == "export":
        lang = getattr(args, "lang", None)
        if lang not in LANGUAGES or len(words) > 1:
            print(_("munchkin-table cards names export: say which language with --lang ({languages})").format(
                languages=" or ".join(LANGUAGES)), file=sys.stderr)
            return 2
        sys.stdout.write(names_csv(catalog, lang, names_in(catalog, lang, state_dir)))
        return 0
    if len(words) != 2:
        print(_("munchkin-table cards names import: name one CSV file (header 'card,english,LANG')"), file=sys.stderr)
        return 2
    source = words[1]
    try:
        text = read_text(source, what="card names CSV")
    except TextFileError as exc:
        print(f"munchkin-table cards names import: {exc}", file=sys.stderr)
        return 2
    lang, names, problems = parse_names_csv(text, catalog)
    if problems:
        return report_bad_lines(source, problems)
    try:
        path = store_imported(state_dir, lang, names, catalog)
    except OSError as exc:
        print(_("munchkin-table cards names import: cannot write {path}: {reason}").format(
            path=imported_path(state_dir, lang), reason=os_reason(exc)), file=sys.stderr)
        return 2
    print(f"imported {len(names)} {lang} card name(s) from {source} into {path}")
    return 0
