"""The league's page (issue 25): ``/league``, the standings across every table of the league and each
table's state, in the table's language, read from the box's ``LeagueWatch``; ``/api/league`` the same
as JSON (``{"standings": <league standings --json>, "tables": <league tables --json>}``).

Plain functions over what the watch has read; the web server only wraps them in responses. The page
reloads itself every few seconds, so a wall screen or a phone follows the league live.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from table.league.model import League
from table.league.standings import standings, table_rows
from table.words.i18n import _, shown_name
from table.web.records import _page, _row, players_table

RELOAD_SECONDS = 3

# What the web view reads the league from: the watch's snapshot, None while it has read nothing yet.
LeagueSource = Callable[[], "League | None"]


def league_data(league: League | None) -> dict[str, Any]:
    if league is None:
        return {"standings": None, "tables": []}
    return {"standings": standings(league), "tables": table_rows(league)}


def _phase(phase: str | None) -> str:
    return _(phase.replace("-", " ")) if phase else "–"     # the phase's words, as the screens say them


def league_page(data: dict[str, Any], name: str, language: str = "en", key: str = "") -> str:
    """The league's standings, then its tables (online, phase, turn, leader)."""
    title = _("League {name}").format(name=name)
    board = data["standings"]
    out = [f'<meta http-equiv="refresh" content="{RELOAD_SECONDS}">']
    if board is None:
        out.append(f"<p>{html.escape(_('waiting for the league broker'))}</p>")
        return _page(title, language, "\n".join(out), key)
    if not board["players"]:
        out.append(f"<p>{html.escape(_('no games yet'))}</p>")
    else:
        out.append(players_table(board["players"]))
    if data["tables"]:
        heads = [_("Table"), _("online"), _("phase"), _("turn"), _("leader"), _("games")]
        out.append(f"<h2>{html.escape(_('Tables'))}</h2>")
        out.append('<table><tr class="head">' + "".join(f"<th>{html.escape(h)}</th>" for h in heads) + "</tr>")
        for t in data["tables"]:
            online = {True: _("yes"), False: _("no"), None: "–"}[t["online"]]
            leader = (_("{names} (level {level})").format(names=", ".join(shown_name(n) for n in t["leaders"]),
                                                            level=t["level"]) if t["leaders"] else "–")
            out.append(_row(t["table"], heads[1:], [online, _phase(t["phase"]), t["turn"] if t["turn"] is not None else "–",
                                                    leader, t["games"]]))
        out.append("</table>")
    return _page(title, language, "\n".join(out), key)
