"""The command line (design §4): run, simulate, state, cards, tags, enroll, doctor.

The top layer: ``main`` (the ``munchkin-table`` console script) parses the arguments and hands each
command to the layer that does it. May import every layer of table/; nothing imports it.
"""

from __future__ import annotations

import argparse
import errno
import json
import logging
import os
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

from engine.errors import MunchkinError

log = logging.getLogger(__name__)


def _config(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from table.config import ConfigError, load_config

    config = load_config(Path(args.config) if args.config else None)
    state_dir = config.state_dir
    if state_dir.exists() and not state_dir.is_dir():
        raise ConfigError(f"{config.source}: [storage] state_dir = {str(state_dir)!r} is a file, not a folder; "
                          f"name a folder (it is made when missing)")
    return config


def cmd_run(args: argparse.Namespace) -> int:
    from table.app.run import run

    return run(_config(args), sim=args.sim)


def cmd_simulate(args: argparse.Namespace) -> int:
    from table.sim.simulate import simulate

    from table.sim.export import check_seed

    seed = check_seed(args.seed) if args.seed is not None else None
    return simulate(args.script, _config(args), screenshots=Path(args.screenshot) if args.screenshot else None,
                    story=getattr(args, "verbose", False), seed=seed)


def cmd_export(args: argparse.Namespace) -> int:
    from table.sim.export import export_game

    sys.stdout.write(export_game(_config(args), args.game))
    return 0


def cmd_state(args: argparse.Namespace) -> int:
    from drivers.base import SystemClock
    from engine.serialize import state_to_json
    from table.control.assembly import build_table

    from cards.loader import load_catalog
    from engine.game import new_game
    from table.storage.paths import JOURNAL_FILE

    config = _config(args)
    if not (config.state_dir / JOURNAL_FILE).exists():
        # No game was ever played here: show an empty table without creating anything.
        catalog = load_catalog(config.card_set_files())
        print(json.dumps(state_to_json(new_game(0, config.rules), catalog), indent=2, ensure_ascii=False))
        from table.storage.journal import kept_copies

        copies = kept_copies(config.state_dir / JOURNAL_FILE) if config.state_dir.is_dir() else []
        if copies:
            print(f"munchkin-table state: there is no journal, but a game is kept as {copies[-1]}: "
                  f"'munchkin-table restore {copies[-1]}' brings it back", file=sys.stderr)
        return 0
    table = build_table(config, SystemClock(), read_only=True)      # looks only: nothing is moved or repaired
    print(json.dumps(table.controller.state_json(), indent=2, ensure_ascii=False))
    message = table.controller.message
    if message is not None and message.kind == "refusal":
        print(f"munchkin-table state: {message.text}", file=sys.stderr)
    table.journal.close()
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """Make a kept-aside journal the current one; the current one is kept aside first."""
    from table.storage.journal import Journal, JournalError
    from table.storage.paths import JOURNAL_FILE, hold_table_lock

    config = _config(args)
    source = Path(args.file)
    if not source.is_file():
        print(f"munchkin-table restore: {source} is not a file; name a kept copy such as "
              f"{config.state_dir / 'journal.damaged-YYYYmmdd-HHMMSS.sqlite3'}", file=sys.stderr)
        return 2
    target = config.state_dir / JOURNAL_FILE
    try:
        if source.resolve() == target.resolve():
            print("munchkin-table restore: that is the current journal already", file=sys.stderr)
            return 2
    except OSError:
        pass
    lock = hold_table_lock(config.state_dir)        # raises TableBusy naming the running table  # noqa: F841
    copy = Journal(source, read_only=True, fast=False)     # read only, every row checked: the kept file stays as it is
    try:
        games = copy.games()
        if not games:
            why = f" ({copy.damage.why})" if copy.damage else ""
            print(f"munchkin-table restore: {source} holds no game{why}; nothing restored", file=sys.stderr)
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


def cmd_history(args: argparse.Namespace) -> int:
    from table.cli.records import load, print_history

    print_history(load(_config(args).state_dir, "games"), args.format)
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    from cards.loader import load_catalog
    from table.cli.records import load, print_stats

    config = _config(args)
    print_stats(load(config.state_dir, "tallies"), args.format, load_catalog(config.card_set_files()))
    return 0


def cmd_cards(args: argparse.Namespace) -> int:
    from cards.listing import card_to_json, describe_line, search
    from cards.loader import load_catalog, validate_files

    config = _config(args)
    if args.action == "validate":
        paths = [Path(p) for p in args.args] or config.card_set_files()
        cards, problems = validate_files(paths)
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            print(f"{len(problems)} problem(s) in the card data", file=sys.stderr)
            return 2
        print(f"ok: {len(cards)} cards, {sum(c.copies for c in cards)} copies in {len(paths)} file(s)")
        return 0
    from cards.names import with_names

    catalog = with_names(load_catalog(config.card_set_files()), config.state_dir)
    if args.action == "names":
        from table.cli.names import names_command

        return names_command(args, catalog, config.state_dir)
    if args.action == "search":
        if not args.args:
            print("munchkin-table cards search: say what to look for, e.g. 'cards search dragon'", file=sys.stderr)
            return 2
        chosen = search(catalog, " ".join(args.args))
        if not chosen and not args.json:
            print(f"no card matches {' '.join(args.args)!r}; 'munchkin-table cards' lists them all", file=sys.stderr)
            return 2
    else:
        if args.args:
            print(f"munchkin-table cards: unexpected {' '.join(args.args)!r}; try 'cards validate PATH' "
                  "or 'cards search TEXT'", file=sys.stderr)
            return 2
        chosen = list(catalog.values())
    if args.json:
        print(json.dumps([card_to_json(c) for c in chosen], indent=2, ensure_ascii=False))
    else:
        for card in chosen:
            print(describe_line(card))
        if args.action is None:
            print(f"{len(chosen)} cards, {sum(c.copies for c in chosen)} copies")
    return 0


def cmd_tags(args: argparse.Namespace) -> int:
    from cards.enroll import deck_order
    from cards.loader import load_catalog
    from cards.tags import TagRegistry, parse_tag_csv
    from table.storage.paths import TAGS_FILE

    config = _config(args)
    catalog = load_catalog(config.card_set_files())
    registry = TagRegistry(config.state_dir / TAGS_FILE, known=catalog, read_only=True)   # export only reads
    for problem in registry.problems:
        print(f"munchkin-table tags: {problem}", file=sys.stderr)
    if args.action == "export":
        text = registry.to_csv(deck_order(catalog))     # tokens first, then the deck as enrollment walks it
        if args.file and args.file != "-":
            try:
                Path(args.file).write_text(text, encoding="utf-8")
            except OSError as exc:
                print(f"munchkin-table tags export: cannot write {args.file}: {exc.strerror or exc}; "
                      f"name a file in a folder you can write to", file=sys.stderr)
                return 2
            print(f"exported {len(registry)} tags to {args.file}", file=sys.stderr)
        else:
            sys.stdout.write(text)
        return 0
    if not args.file:
        print("munchkin-table tags import: name the CSV file (header 'uid,card')", file=sys.stderr)
        return 2
    from cards.textfile import TextFileError, read_text

    try:
        text = read_text(args.file, what="tags CSV")
    except TextFileError as exc:
        print(f"munchkin-table tags import: {exc}", file=sys.stderr)
        return 2
    from table.storage.paths import hold_table_lock

    # One writer of the tag file: not while a table or the enroll wizard runs on this directory
    # (TableBusy names it); the registry is read again under the lock, so no row is lost.
    lock = hold_table_lock(config.state_dir)  # noqa: F841
    registry = TagRegistry(config.state_dir / TAGS_FILE, known=catalog)
    rows, problems = parse_tag_csv(text, catalog, registry.as_dict(), require_header=True)
    if problems:
        from table.cli.problems import report_bad_lines

        return report_bad_lines(args.file, problems)
    try:
        new = registry.bind_many(rows)
    except OSError as exc:
        from table.storage.journal import describe_fault

        print(f"munchkin-table tags import: nothing imported: {describe_fault(exc, config.state_dir / TAGS_FILE)}",
              file=sys.stderr)
        return 2
    print(f"imported {len(rows)} tag(s) from {args.file}: {new} new, {len(rows) - new} already known; "
          f"the registry holds {len(registry)}")
    return 0


def cmd_enroll(args: argparse.Namespace) -> int:
    from table.app.enroll import enroll

    return enroll(_config(args), sim=args.sim, set_id=args.set, tokens=not args.no_tokens, card=args.card)


def cmd_doctor(args: argparse.Namespace) -> int:
    """Check the config, the catalog, the devices and the state directory; say what to fix."""
    from cards.loader import validate_files
    from table.config import ConfigError

    import warnings

    warnings.filterwarnings("ignore", module="gpiozero")   # its pin-factory fallbacks are reported below
    failures = 0
    try:
        config = _config(args)
        print(f"[ok] config: {config.source}")
    except ConfigError as exc:
        print(f"[FAIL] config: {exc}\n       fix: correct the file, or start from systemd/config.example.toml")
        return 1
    _, problems = validate_files(config.card_set_files())
    if problems:
        failures += 1
        print(f"[FAIL] catalog: {len(problems)} problem(s), first: {problems[0]}")
    else:
        print("[ok] catalog: the card data is valid")
    from table.ui.screen import wants_fullscreen
    from table.cli.doctor import display_checks, hardware_checks

    checks = hardware_checks(config)
    checks += display_checks(config, needs_drm=wants_fullscreen(config))
    from drivers.doctor import Check
    from table.storage.journal import check_journal
    from table.web.checks import web_check
    from table.storage.paths import JOURNAL_FILE

    checks.append(Check("saved games", *check_journal(config.state_dir / JOURNAL_FILE)))
    checks.append(web_check(config))
    for check in checks:
        print(check)
        failures += not check.ok
    print("all checks passed" if not failures else f"{failures} check(s) failed")
    return 0 if not failures else 1


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="munchkin-table", description="The Munchkin bookkeeping table.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug detail")
    sub = parser.add_subparsers(dest="command", required=True)

    def with_config(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--config", metavar="FILE", help="config file (default /etc/munchkin-table/config.toml if present)")
        return p

    p = with_config(sub.add_parser("run", help="run the table"))
    p.add_argument("--sim", action="store_true", help="simulated reader and buttons (keyboard)")
    p.set_defaults(func=cmd_run)
    p = with_config(sub.add_parser("simulate", help="run a table script headless and print the state JSON"))
    p.add_argument("script", metavar="SCRIPT", help="the table script; '-' reads it from standard input")
    p.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
                   help="tell the story of the game in words on stderr, one line per action")
    p.add_argument("--screenshot", metavar="DIR", help="save a PNG of the screen after each action")
    p.add_argument("--seed", type=int, metavar="N", help="the game's seed (die rolls); default: the script's, else 1")
    p.set_defaults(func=cmd_simulate)
    p = with_config(sub.add_parser("export", help="print a game as a table script that simulate replays"))
    p.add_argument("--game", type=whole_number(1, 2**63 - 1), metavar="ID", help="the game to export (default: the live or last one)")
    p.set_defaults(func=cmd_export)
    p = with_config(sub.add_parser("state", help="print the state JSON of the current game"))
    p.set_defaults(func=cmd_state)
    for name, func, what in (("history", cmd_history, "every game played: players, winners, turns, minutes"),
                             ("stats", cmd_stats, "standings per player name and per monster, over every game")):
        p = with_config(sub.add_parser(name, help=what))
        shape = p.add_mutually_exclusive_group()
        shape.add_argument("--json", dest="format", action="store_const", const="json", help="print JSON")
        shape.add_argument("--csv", dest="format", action="store_const", const="csv", help="print CSV")
        p.set_defaults(func=func, format="text")
    p = with_config(sub.add_parser("cards", help="list the catalog; 'cards validate [PATH...]'; 'cards search TEXT'; "
                                                 "'cards names export --lang es' / 'cards names import FILE.csv'"))
    p.add_argument("action", nargs="?", choices=["validate", "search", "names"])
    p.add_argument("args", nargs="*", metavar="PATH|TEXT")
    p.add_argument("--lang", choices=["es", "zh"], help="cards names export: the language of the names")
    p.add_argument("--json", action="store_true", help="print a JSON list of card objects")
    p.set_defaults(func=cmd_cards)
    p = with_config(sub.add_parser("tags", help="'tags import FILE.csv' or 'tags export [FILE.csv]'"))
    p.add_argument("action", choices=["import", "export"])
    p.add_argument("file", nargs="?", metavar="FILE.csv")
    p.set_defaults(func=cmd_tags)
    p = with_config(sub.add_parser("restore", help="make a kept-aside journal (FILE) the current game"))
    p.add_argument("file", metavar="FILE")
    p.set_defaults(func=cmd_restore)
    p = with_config(sub.add_parser("doctor", help="check config, devices and permissions, and say what to fix"))
    p.set_defaults(func=cmd_doctor)
    p = with_config(sub.add_parser("enroll", help="the on-screen wizard that binds every tag of the deck"))
    p.add_argument("--sim", action="store_true", help="simulated reader: type a UID and Enter to tap")
    p.add_argument("--set", metavar="ID", help="enroll only the cards of this set (e.g. an expansion)")
    p.add_argument("--no-tokens", action="store_true", help="skip the six player tokens")
    p.add_argument("--card", metavar="ID", help="bind every tag tapped to this one card (or player token) until RUN")
    p.set_defaults(func=cmd_enroll)
    return parser


def whole_number(lowest: int, highest: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``lowest`` to ``highest``; anything else is a usage error."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not lowest <= value <= highest:
            raise argparse.ArgumentTypeError(f"{value} is not from {lowest} to {highest}")
        return value

    return parse


class Parser(argparse.ArgumentParser):
    """argparse with a one-line answer to a bad command line (usage errors exit 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message}; see '{self.prog} --help'\n")


def _say(text: str) -> None:
    """``text`` on stderr, each of its lines (one per problem) starting with the program's name."""
    try:
        print("\n".join(f"munchkin-table: {line}" for line in text.split("\n")), file=sys.stderr)
    except (OSError, ValueError):       # stderr itself is closed: nothing more to say
        pass


def _quiet_stdout() -> None:
    """After the reader of our stdout went away (``state | head -3``): let the exit flush go nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


OS_ADVICE = {
    errno.EACCES: "check its permissions, or run as the user that owns it",
    errno.EPERM: "check its permissions, or run as the user that owns it",
    errno.EROFS: "the file system is read-only; name a place that can be written",
    errno.ENOSPC: "make room and try again",
    errno.ENOENT: "check the path",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.EISDIR: "name a file, not a folder",
}


def describe_os_error(exc: OSError) -> str:
    """One line for a file-system failure: which path, why, and what to do."""
    why = exc.strerror or str(exc)
    advice = OS_ADVICE.get(exc.errno or 0)
    where = f"cannot use {exc.filename}: " if exc.filename else ""
    return f"{where}{why}" + (f"; {advice}" if advice else "")


def run_command(func: Callable[[argparse.Namespace], int | None], args: argparse.Namespace) -> int:
    """Run one subcommand; every failure that is not a bug becomes one line on stderr and exit 2.

    Subcommands raise or return; they need no error handling of their own for bad files, paths,
    config or closed pipes. A bug is one line too (with the traceback under -v), exit 1.
    """
    try:
        code = int(func(args) or 0)
        sys.stdout.flush()                  # a full disk or a closed pipe is answered here, not at exit
        return code
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except MunchkinError as exc:
        _say(str(exc))
        return 2
    except OSError as exc:
        _say(describe_os_error(exc))
        return 2
    except sqlite3.Error as exc:
        _say(f"the game journal cannot be used: {exc}")
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug: still one line, the traceback only when asked for
        log.debug("unexpected error", exc_info=True)
        _say(f"unexpected error ({type(exc).__name__}: {exc}); run it again with -v for the details")
        return 1


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
        _quiet_stdout()
        return 0
    verbose = args.verbose and args.command != "simulate"     # simulate -v tells the story instead
    quiet = args.command in ("simulate", "state", "cards", "tags", "doctor", "history", "stats", "export", "restore")
    logging.basicConfig(level=logging.DEBUG if verbose else (logging.ERROR if quiet else logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    return run_command(args.func, args)


if __name__ == "__main__":
    raise SystemExit(main())
