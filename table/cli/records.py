"""``munchkin-table history`` and ``munchkin-table stats``: the remembered games, read only.

The games are read by table/web/records.py's ``load`` (what the web view's /history and /stats
show); here they are printed as text, CSV or JSON.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from typing import Any, TextIO

from cards.loader import load_catalog
from engine.cards import Catalog
from table.cli.common import Subparsers, config_of, with_config
from table.session.facts import history_rows, stats
from table.web.records import load
from table.words.i18n import N_
from table.words.user import _


def print_history(games: list[dict[str, Any]], fmt: str, out: TextIO | None = None) -> None:

    out = out or sys.stdout
    rows = history_rows(games)
    if fmt == "json":           # one game a line: readable, and json's fast encoder (no indent)
        out.write("[\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + ("\n]\n" if rows else "]\n"))
        return
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(["id", "started", "ended", "status", "players", "winners", "turns", "actions", "minutes"])
        for r in rows:
            writer.writerow([r["id"], r["started"] or "", r["ended"] or "", r["status"], "; ".join(r["players"]),
                             "; ".join(r["winners"]), r["turns"], r["actions"], r["minutes"]])
        out.write(buf.getvalue())
        return
    if not rows:
        out.write("no games yet\n")
        return
    for r in rows:
        when = (r["started"] or "")[:16].replace("T", " ")
        outcome = {"finished": "won: " + ", ".join(r["winners"]), "abandoned": "abandoned",
                   "unfinished": "unfinished"}[r["status"]]
        out.write(f"#{r['id']:<4} {when:16}  {r['minutes']:>6} min  {', '.join(r['players'])}  {outcome}  "
                  f"turns {r['turns']}  actions {r['actions']}\n")
    out.write(f"{len(rows)} game(s)\n")


def print_stats(tallies: list[dict[str, Any]], fmt: str, catalog: Catalog | None = None, out: TextIO | None = None) -> None:

    out = out or sys.stdout
    data = stats(tallies, catalog)
    if fmt == "json":
        out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        return
    player_head = ["name", "games", "wins", "kills", "deaths", "runs_attempted", "runs_escaped", "highest_level",
                   "helped"]
    monster_head = ["card", "name", "fought", "won", "killed"]

    def player_row(p: dict[str, Any]) -> list[Any]:
        return [p["name"], p["games"], p["wins"], p["kills"], p["deaths"], p["runs"]["attempted"],
                p["runs"]["escaped"], p["highest_level"], p["helped"]]

    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(player_head)
        writer.writerows(player_row(p) for p in data["players"])
        writer.writerow([])
        writer.writerow(monster_head)
        writer.writerows([m["card"], m["name"], m["fought"], m["won"], m["killed"]] for m in data["monsters"])
        out.write(buf.getvalue())
        return
    if not data["players"]:
        out.write("no games yet\n")
        return
    width = max(6, *(len(p["name"]) for p in data["players"]))
    out.write(f"{'player':{width}}  games  wins  kills  deaths  runs (escaped)  best level  helped\n")
    for p in data["players"]:
        runs = f"{p['runs']['attempted']} ({p['runs']['escaped']})"
        out.write(f"{p['name']:{width}}  {p['games']:>5}  {p['wins']:>4}  {p['kills']:>5}  {p['deaths']:>6}  "
                  f"{runs:>14}  {p['highest_level']:>10}  {p['helped']:>6}\n")
    if data["monsters"]:
        mwidth = max(7, *(len(m["name"]) for m in data["monsters"]))
        out.write(f"\n{'monster':{mwidth}}  fought  won  killed\n")
        for m in data["monsters"]:
            out.write(f"{m['name']:{mwidth}}  {m['fought']:>6}  {m['won']:>3}  {m['killed']:>6}\n")
    out.write(f"{data['games']} game(s)\n")


def cmd_history(args: argparse.Namespace) -> int:

    print_history(load(config_of(args).state_dir, "games"), args.format)
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    config = config_of(args)
    print_stats(load(config.state_dir, "tallies"), args.format, load_catalog(config.card_set_files()))
    return 0


def add_history_and_stats(sub: Subparsers) -> None:
    for name, func, what in (("history", cmd_history, N_("every game played: players, winners, turns, minutes")),
                             ("stats", cmd_stats, N_("standings per player name and per monster, over every game"))):
        p = with_formats(with_config(sub.add_parser(name, help=_(what))))
        p.set_defaults(func=func, format="text")


def with_formats(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``p`` with ``--json`` and ``--csv`` (one or the other; text without either)."""
    shape = p.add_mutually_exclusive_group()
    shape.add_argument("--json", dest="format", action="store_const", const="json", help=_("print JSON"))
    shape.add_argument("--csv", dest="format", action="store_const", const="csv", help=_("print CSV"))
    return p
