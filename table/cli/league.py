"""``munchkin-table league standings|tables``: the league as its broker has it (issue 25), read only;
``league backfill [--dry-run]``: the games played before ``[league]`` was set, sent (issue 44)."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from typing import Any

from cards.loader import load_catalog
from engine.errors import MunchkinError
from table.cli.common import Subparsers, config_of, with_config
from table.cli.records import print_stats, with_formats
from table.config import Config
from table.league.backlog import backlog
from table.league.extra import NO_PAHO, paho_missing
from table.league.model import League
from table.league.standings import counted_games, table_rows
from table.storage.paths import JOURNAL_FILE


class NoLeague(MunchkinError, ValueError):
    """The config names no league broker."""


class NoPaho(MunchkinError, ImportError):
    """[league] is set, but paho-mqtt (the league's extra) is not installed."""


def _config(args: argparse.Namespace) -> Config:
    config = config_of(args)
    if not config.league.enabled:
        raise NoLeague(f"{config.source}: no [league] broker; add [league] with broker, league and table "
                       f"(docs/league.md)")
    return config


def _league(args: argparse.Namespace) -> tuple[Config, League]:
    config = _config(args)
    try:
        from table.league.watch import read_league     # paho-mqtt is loaded only by the league's commands
    except ImportError as exc:
        raise NoPaho(NO_PAHO) if paho_missing(exc) else exc from None
    return config, read_league(config.league, timeout=args.timeout)


def cmd_standings(args: argparse.Namespace) -> int:
    config, league = _league(args)
    tallies = [g["tally"] for g in counted_games(league)]
    if args.format == "text":
        sys.stdout.write(f"league {league.name}: {len({t for t, _g in league.games} | set(league.tables))} table(s)\n")
    print_stats(tallies, args.format, load_catalog(config.card_set_files()))
    return 0


def print_tables(rows: list[dict[str, Any]], fmt: str) -> None:
    out = sys.stdout
    if fmt == "json":
        out.write(json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
        return
    head = ["table", "online", "phase", "turn", "players", "leaders", "level", "games"]
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(head)
        for r in rows:
            writer.writerow([r["table"], "" if r["online"] is None else str(r["online"]).lower(), r["phase"] or "",
                             r["turn"] if r["turn"] is not None else "", r["players"], "; ".join(r["leaders"]),
                             r["level"] if r["level"] is not None else "", r["games"]])
        out.write(buf.getvalue())
        return
    if not rows:
        out.write("no tables yet\n")
        return
    width = max(5, *(len(r["table"]) for r in rows))
    out.write(f"{'table':{width}}  online  {'phase':18}  turn  leader\n")
    for r in rows:
        online = {True: "yes", False: "no", None: "?"}[r["online"]]
        leader = f"{', '.join(r['leaders'])} (level {r['level']})" if r["leaders"] else "-"
        out.write(f"{r['table']:{width}}  {online:6}  {r['phase'] or '-':18}  {r['turn'] if r['turn'] is not None else '-':>4}"
                  f"  {leader}  games {r['games']}\n")
    out.write(f"{len(rows)} table(s)\n")


def cmd_tables(args: argparse.Namespace) -> int:
    _config, league = _league(args)
    print_tables(table_rows(league), args.format)
    return 0


def cmd_backfill(args: argparse.Namespace) -> int:
    """The ended games the league never had: listed (``--dry-run``, which writes and sends nothing), or
    sent."""
    config = _config(args)
    journal = config.state_dir / JOURNAL_FILE
    games = backlog(journal)
    where = f"league {config.league.league} on {config.league.broker} as table {config.league.table}"
    for game in games:
        print(game.line())
    if not games:
        print(f"nothing to send: every ended game in {journal} is sent or waiting to be")
        return 0
    if args.dry_run:
        print(f"{len(games)} game(s) would be sent to {where} (dry run: nothing written, nothing sent)")
        return 0
    try:
        from table.league.backfill import send_backlog     # paho-mqtt is loaded only by the league's commands
    except ImportError as exc:
        raise NoPaho(NO_PAHO) if paho_missing(exc) else exc from None
    sent = send_backlog(config.league, journal, games, timeout=args.timeout)
    print(f"{sent} game(s) sent to {where}")
    return 0


def seconds(text: str) -> float:
    """An argparse type: a number of seconds above 0 (anything else is a usage error: one line, exit 2)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"{text} is not from 0 to 3600 seconds")
    return value


def add_league(sub: Subparsers) -> None:
    p = sub.add_parser("league", help="the league's standings and tables, read from its MQTT broker")
    inner = p.add_subparsers(dest="league_command", required=True)
    for name, func, what in (("standings", cmd_standings, "standings per player name across every table and game"),
                             ("tables", cmd_tables, "each table: online, phase, turn, leader")):
        q = with_formats(with_config(inner.add_parser(name, help=what)))
        q.add_argument("--timeout", type=seconds, default=10.0, metavar="SECONDS",
                       help="how long to wait for the broker (default 10)")
        q.set_defaults(func=func, format="text")
    q = with_config(inner.add_parser("backfill", help="send the games played before [league] was set (once; "
                                     "--dry-run lists them)"))
    q.add_argument("--dry-run", action="store_true", help="list the games that would be sent; write and send nothing")
    q.add_argument("--timeout", type=seconds, default=10.0, metavar="SECONDS",
                   help="how long to wait for the broker's acknowledgements (default 10)")
    q.set_defaults(func=cmd_backfill)
