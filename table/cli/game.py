"""``munchkin-table state`` and ``restore``: the current game as state JSON, and a kept-aside journal
made current again. ``state`` only reads; ``restore`` keeps the journal it replaces."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cards.loader import load_catalog
from drivers.base import SystemClock
from engine.game import new_game
from engine.serialize import state_to_json
from table.cli.common import Subparsers, config_of, with_config
from table.config import Config
from table.control.assembly import build_table
from table.storage.faults import JournalError
from table.storage import marker
from table.storage.journal import Journal
from table.storage.paths import JOURNAL_FILE, hold_table_lock
from table.storage.repair import kept_copies
from table.words.i18n import set_language, use_catalog_names, worded
from table.words.user import _


def _empty_table(config: Config) -> int:
    """``state`` where no game was ever played: an empty table, and a kept copy if there is one; a
    journal gone where the marker says a game was is a warning (in the JSON and on stderr)."""
    catalog = load_catalog(config.card_set_files())
    data = state_to_json(new_game(0, config.rules), catalog)
    path = config.state_dir / JOURNAL_FILE
    known = marker.read_known(path)
    why = marker.gone(path, known)
    warning = marker.vanished_looking(known, why) if known is not None and why is not None else None
    if warning is not None:
        data["warnings"] = [*data.get("warnings", []), str(warning)]
    print(json.dumps(data, indent=2, ensure_ascii=False))
    if warning is not None:
        print(f"munchkin-table state: warning: {warning}", file=sys.stderr)
    copies = kept_copies(config.state_dir / JOURNAL_FILE) if config.state_dir.is_dir() else []
    if copies:
        print(_("munchkin-table state: there is no journal, but a game is kept as {copy}: "
                "'munchkin-table restore {copy}' brings it back").format(copy=copies[-1]), file=sys.stderr)
    return 0


def cmd_state(args: argparse.Namespace) -> int:
    config = config_of(args)
    if not (config.state_dir / JOURNAL_FILE).exists():
        return _empty_table(config)         # no game was ever played here: nothing is created
    table = build_table(config, SystemClock(), read_only=True)      # looks only: nothing is moved or repaired
    set_language(config.display.language)
    use_catalog_names(table.controller.catalog)
    data = worded(table.controller.state_json())
    vanished = table.journal.vanished
    if vanished is not None:            # the game the marker knew is not there: a warning, in the JSON too
        data["warnings"] = [*data.get("warnings", []), str(vanished)]
    print(json.dumps(data, indent=2, ensure_ascii=False))
    message = table.controller.message
    if vanished is not None:
        print(f"munchkin-table state: warning: {vanished}", file=sys.stderr)
    elif message is not None and message.kind == "refusal":
        print(f"munchkin-table state: {message.text}", file=sys.stderr)
    table.journal.close()
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """Make a kept-aside journal the current one; the current one is kept aside first."""

    config = config_of(args)
    source = Path(args.file)
    if not source.is_file():
        print(_("munchkin-table restore: {source} is not a file; name a kept copy such as {example}").format(
            source=source, example=config.state_dir / "journal.damaged-YYYYmmdd-HHMMSS.sqlite3"), file=sys.stderr)
        return 2
    target = config.state_dir / JOURNAL_FILE
    try:
        if source.resolve() == target.resolve():
            print(_("munchkin-table restore: that is the current journal already"), file=sys.stderr)
            return 2
    except OSError:
        pass
    lock = hold_table_lock(config.state_dir)        # raises TableBusy naming the running table  # noqa: F841
    copy = Journal(source, read_only=True, fast=False)     # read only, every row checked: the kept file stays as it is
    try:
        games = copy.games()
        if not games:
            why = f" ({copy.damage.why})" if copy.damage else ""
            print(_("munchkin-table restore: {source} holds no game{why}; nothing restored").format(source=source, why=why),
                  file=sys.stderr)
            return 2
        latest = games[-1]
        actions = len(copy.commands(latest.id))
        current = Journal(target)
        try:
            kept = current.replace_from(copy)
        finally:
            current.close()
    except JournalError as exc:
        print(f"munchkin-table restore: {exc}", file=sys.stderr)
        return 2
    finally:
        copy.close()
    damaged = f" (the copy was damaged: {copy.damage.why}; its good actions were taken)" if copy.damage else ""
    print(f"restored game {latest.id} at action {actions} from {source}{damaged}; "
          f"the journal it replaced is kept as {kept}")
    return 0


def add_state(sub: Subparsers) -> None:
    p = with_config(sub.add_parser("state", help=_("print the state JSON of the current game")))
    p.set_defaults(func=cmd_state)


def add_restore(sub: Subparsers) -> None:
    p = with_config(sub.add_parser("restore", help=_("make a kept-aside journal (FILE) the current game")))
    p.add_argument("file", metavar="FILE",
                   help=_("the kept copy, e.g. journal.damaged-YYYYmmdd-HHMMSS.sqlite3 in the state directory"))
    p.set_defaults(func=cmd_restore)
