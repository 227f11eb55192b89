"""The remembered games: read from the journal (read only), and as the web view's pages.

/history and /stats are pages, /api/history and /api/stats the same JSON that ``munchkin-table
history --json`` and ``stats --json`` print: ``load`` is what both the web view and those commands
read. Plain functions; the web server only wraps them in responses.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any, Literal

from engine.cards import Catalog
from engine.errors import MunchkinError
from table.storage.paths import JOURNAL_FILE
from table.session.facts import history_rows, stats
from table.storage.facts import FactsUnreadable, read_saved
from table.words.i18n import _, ngettext, shown_name


class RecordsError(MunchkinError):
    """The saved games could not be read."""


def load(state_dir: Path, what: Literal["games", "tallies"]) -> list[dict[str, Any]]:
    """``games`` (for history) or ``tallies`` (for stats) of the state directory's journal."""
    path = state_dir / JOURNAL_FILE
    try:
        return read_saved(path, what)
    except FactsUnreadable as exc:
        raise RecordsError(f"cannot read the saved games in {path}: {exc}") from None


def history_data(state_dir: Path) -> list[dict[str, Any]]:
    return history_rows(load(state_dir, "games"))


def stats_data(state_dir: Path, catalog: Catalog | None = None) -> dict[str, Any]:
    return stats(load(state_dir, "tallies"), catalog)


def api_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


# Narrow phones (320-430 px): the tables become stacked cards, each cell with its heading beside it.
STYLE = """
* { box-sizing: border-box; }
body { font-family: system-ui, "Noto Sans", "Noto Sans CJK SC", "WenQuanYi Micro Hei", sans-serif;
  background: #0e1016; color: #f0f2f8; margin: 0; padding: 10px; font-size: 16px; line-height: 1.3;
  -webkit-text-size-adjust: 100%; }
a { color: #ffc83c; } h1 { color: #ffc83c; font-size: 1.4rem; } h2 { font-size: 1.1rem; color: #828898; }
nav { display: flex; flex-wrap: wrap; gap: 4px 12px; }
table { border-collapse: collapse; width: 100%; }
th { color: #828898; text-align: left; word-break: keep-all; }
th, td { padding: .3rem .5rem; border-bottom: 1px solid #262a38; overflow-wrap: break-word; }
td.n { text-align: right; white-space: nowrap; }
.abandoned { color: #f05448; } .unfinished { color: #50d278; }
@media (max-width: 600px) {
  table, tbody, tr, td { display: block; width: 100%; }
  tr.head { display: none; }
  tr { background: #222632; border-radius: 8px; margin: 0 0 8px; padding: 6px 10px; }
  td, td.n { border: 0; padding: 2px 0; text-align: left; white-space: normal; }
  td[data-label] { display: flex; justify-content: space-between; gap: 8px; }
  td[data-label]::before { content: attr(data-label); color: #828898; }
  td:first-child { font-weight: 700; font-size: 1.1em; }
}
"""


def _page(title: str, language: str, body: str, key: str = "") -> str:
    k = html.escape(key, quote=True)
    links = (f'<nav><a href="/?key={k}">{html.escape(_("Game"))}</a>'
             f'<a href="/history?key={k}">{html.escape(_("Past games"))}</a>'
             f'<a href="/stats?key={k}">{html.escape(_("Standings"))}</a></nav>')
    return f"""<!doctype html>
<html lang="{html.escape(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<title>{html.escape(title)}</title>
<style>{STYLE}</style>
</head>
<body>
{links}
<h1>{html.escape(title)}</h1>
{body}
</body>
</html>
"""


def _names(names: list[str]) -> list[str]:
    return [shown_name(n) for n in names]


def history_page(rows: list[dict[str, Any]], language: str = "en", key: str = "") -> str:
    """The past games, newest first."""
    if not rows:
        return _page(_("Past games"), language, f"<p>{html.escape(_('no games yet'))}</p>", key)
    status = {"abandoned": _("abandoned"), "unfinished": _("unfinished")}
    out = ["<table>"]
    for r in reversed(rows):
        if r["status"] == "finished":
            outcome = _("won: {names}").format(names=_(" and ").join(_names(r["winners"])))
        else:
            outcome = status.get(r["status"], r["status"])
        when = (r["started"] or "")[:16].replace("T", " ")
        length = ngettext("{n} turn, {m} min", "{n} turns, {m} min", r["turns"]).format(n=r["turns"], m=r["minutes"])
        out.append(f'<tr class="{html.escape(r["status"])}"><td>#{r["id"]} · {html.escape(when)}</td>'
                   f'<td>{html.escape(", ".join(_names(r["players"])))}</td><td>{html.escape(outcome)}</td>'
                   f'<td class="n">{html.escape(length)}</td></tr>')
    out.append("</table>")
    return _page(_("Past games"), language, "\n".join(out), key)


def _row(first: str, heads: list[str], cells: list[Any]) -> str:
    return (f'<tr><td>{html.escape(first)}</td>'
            + "".join(f'<td class="n" data-label="{html.escape(h, quote=True)}">{html.escape(str(c))}</td>'
                      for h, c in zip(heads, cells)) + "</tr>")


def players_table(players: list[dict[str, Any]]) -> str:
    """The standings' table of players (``stats`` of one box, or of a league)."""
    heads = [_("player"), _("games"), _("wins"), _("kills"), _("deaths"), _("runs"), _("best level"), _("helped")]
    out = ['<table><tr class="head">' + "".join(f"<th>{html.escape(h)}</th>" for h in heads) + "</tr>"]
    for p in players:
        cells = [p["games"], p["wins"], p["kills"], p["deaths"], f"{p['runs']['attempted']} ({p['runs']['escaped']})",
                 p["highest_level"], p["helped"]]
        out.append(_row(shown_name(p["name"]), heads[1:], cells))
    out.append("</table>")
    return "\n".join(out)


def stats_page(data: dict[str, Any], language: str = "en", key: str = "", names: dict[str, str] | None = None) -> str:
    """The standings per player name, then the monsters (``names``: card id -> name in the language)."""
    if not data["players"]:
        return _page(_("Standings"), language, f"<p>{html.escape(_('no games yet'))}</p>", key)
    out = [players_table(data["players"])]
    if data["monsters"]:
        heads = [_("Monster"), _("fought"), _("it won"), _("killed")]
        out.append(f"<h2>{html.escape(_('Monsters'))}</h2>")
        out.append('<table><tr class="head">' + "".join(f"<th>{html.escape(h)}</th>" for h in heads) + "</tr>")
        for m in data["monsters"]:
            out.append(_row((names or {}).get(m["card"], m["name"]), heads[1:], [m[k] for k in ("fought", "won", "killed")]))
        out.append("</table>")
    return _page(_("Standings"), language, "\n".join(out), key)
