"""The games a box played before ``[league]`` was set: what ``league backfill`` sends (issue 44).

The ended games (finished or abandoned: what the standings count) of the journal's records that the
league never acknowledged and whose facts do not wait in the outbox, each with the facts the box
would have sent when it ended: its ``history --json`` row and its tally, from the records. Reads
only; imports no paho (``--dry-run`` needs neither the broker nor the extra).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from table.league.standings import COUNTED
from table.session.facts import history_rows
from table.storage.outbox import read_never_sent

_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


@dataclass(frozen=True)
class Unsent:
    """One game never sent: its id, status, players and winners (to list), and its facts (to send)."""

    game: int
    status: str
    ended: str | None
    players: list[str]
    winners: list[str]
    body: str

    def line(self) -> str:
        outcome = f"won by {', '.join(self.winners)}" if self.winners else self.status
        return f"game {self.game}: {outcome}, {(self.ended or '?')[:16].replace('T', ' ')}, {', '.join(self.players)}"


def backlog(journal: Path) -> list[Unsent]:
    """The journal's ended games the league never had, oldest first."""
    rows = read_never_sent(journal, COUNTED)           # (OutboxTrouble: one line, exit 2)
    out = []
    for game, _status, brief_text, tally_text, actions in rows:
        try:
            brief, tally = json.loads(brief_text), json.loads(tally_text)
            brief["actions"] = actions          # (the row's count moves with every action; the brief keeps its own)
            history = history_rows([brief])[0]
        except (ValueError, KeyError, TypeError):
            continue                            # a damaged record: the records' own reads leave it out too
        out.append(Unsent(game, history["status"], history["ended"], list(history["players"]),
                          list(history["winners"]), _ENCODE({"game": game, "history": history, "tally": tally})))
    return out
