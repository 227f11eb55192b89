"""The per-game facts kept beside the journal: the ``game_record`` table, written and read.

One row per game, rewritten as the game is played (by :class:`table.session.facts.Records`), so
``history`` and ``stats`` read one small row per game and never replay one. The entries of a game's
facts log are rows of their own (``game_fact``: game, n, entry): an action stores the entries it
added and takes out those an undo dropped, so what it writes stays the same size however long the
game has gone on (written whole in the row, a 1,800-action game's log reached 70 KB, rewritten
with every action that changed a fact). The row is a summary
the journal can always rebuild, so it is written through its own connection without waiting for
the disk; the journal's next commit, which does wait, carries it to the disk with it.

What the facts *are* (the fold of a game's events) is the session's; this module only stores and
reads them: its columns, the stored status values, and the queries history and stats run.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path
from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeVar

from engine.commands import Command, command_from_dict
from engine.errors import MunchkinError
from table.storage import writing
from table.storage.writing import Statement
from table.storage.reading import open_read_only
from table.storage.schema import FACTS_SCHEMA, row_ok

log = logging.getLogger(__name__)
T = TypeVar("T")

# A game's status as stored: "setup" (nobody has started it; not listed), "unfinished" (being played,
# or left when the box went off), "finished" (somebody won) or "abandoned" (a new game was started
# while it was unfinished).
SETUP, UNFINISHED, FINISHED, ABANDONED = "setup", "unfinished", "finished", "abandoned"


class FactsUnreadable(MunchkinError):
    """The saved games' facts could not be read (the message is SQLite's)."""


class FactsUnwritable(MunchkinError):
    """A facts row could not be written (the message is SQLite's); the journal rebuilds it later."""


def touch_row(game: int, actions: int, last: float | None) -> Statement:
    """The statement for a row whose count and time of the last action alone changed."""
    return "UPDATE game_record SET actions = ?, last = ? WHERE game = ?", (actions, last, game)


def whole_row(game: int, *, status: str, started: float | None, ended: float | None, last: float | None,
              actions: int, brief: str, tally: str, log_text: str) -> Statement:
    """The statement for the game's whole row (made or replaced)."""
    return ("INSERT INTO game_record (game, status, started, ended, last, actions, brief, tally, log) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(game) DO UPDATE SET status = excluded.status, "
            "started = excluded.started, ended = excluded.ended, last = excluded.last, "
            "actions = excluded.actions, brief = excluded.brief, tally = excluded.tally, log = excluded.log",
            (game, status, started, ended, last, actions, brief, tally, log_text))


def fact_rows(game: int, start: int, entries: Sequence[str], *, cut: bool) -> list[Statement]:
    """The statements that make the game's stored entries from number ``start`` on ``entries`` (each
    an entry's JSON), those stored after them taken out first when ``cut``."""
    out: list[Statement] = []
    if cut:
        out.append(("DELETE FROM game_fact WHERE game = ? AND n >= ?", (game, start)))
    out.extend(("INSERT OR REPLACE INTO game_fact (game, n, entry) VALUES (?, ?, ?)", (game, n, text))
               for n, text in enumerate(entries, start))
    return out


class FactsStore:
    """The ``game_record`` rows of one journal file.

    Opened on its own connection to write (nothing is written, not even the table, until the
    first row is); or, for a journal opened only to look, on that journal's connection, to read
    only. A store closes only a connection it opened.
    """

    def __init__(self, path: Path, *, db: sqlite3.Connection | None = None, owned: bool = False) -> None:
        self.path = path
        self.read_only = db is not None        # a connection given: a journal opened only to look
        self.db: sqlite3.Connection | None = db
        self._owned = owned
        self._ready = False
        if db is not None:
            return
        try:
            db = writing.connect(path)
            # Not waiting for the disk here: the row is rebuilt from the journal when it is behind,
            # and the journal's own commit right after the next action syncs it.
            db.execute("PRAGMA synchronous=NORMAL")
            self.db, self._owned = db, True
        except sqlite3.Error as exc:
            log.error("records: cannot open %s (%s); history and stats are not kept this time", path, exc)

    @classmethod
    def beside(cls, journal_path: Path, journal_db: sqlite3.Connection | None, *, read_only: bool) -> FactsStore:
        """The store of the journal at ``journal_path``: a writing journal's gets its own connection;
        a read-only journal's shares its connection (an empty one when it has none), writing nothing."""
        if not read_only:
            return cls(journal_path)
        if journal_db is not None:
            return cls(journal_path, db=journal_db)
        return cls(journal_path, db=sqlite3.connect(":memory:"), owned=True)

    @property
    def writable(self) -> bool:
        return self.db is not None and not self.read_only

    def prepare(self) -> bool:
        """Make the table, once, before the first row is written; False when it cannot be made."""
        if self._ready:
            return True
        if self.db is None:
            return False
        try:
            self.db.executescript(FACTS_SCHEMA)
        except sqlite3.Error as exc:
            log.error("records: cannot prepare %s (%s); history and stats are not kept", self.path, exc)
            return False
        self._ready = True
        return True

    @property
    def ready(self) -> bool:
        return self._ready

    def touch(self, game: int, actions: int, last: float | None) -> None:
        """Only the count and the time of the last action changed. Raises FactsUnwritable."""
        self.write([touch_row(game, actions, last)])

    def put(self, game: int, *, status: str, started: float | None, ended: float | None, last: float | None,
            actions: int, brief: str, tally: str, log_text: str) -> None:
        """The game's whole row (made or replaced). Raises FactsUnwritable."""
        self.write([whole_row(game, status=status, started=started, ended=ended, last=last, actions=actions,
                              brief=brief, tally=tally, log_text=log_text)])

    def write(self, statements: Sequence[Statement]) -> None:
        """A row's statements (``touch_row``, ``whole_row``, ``fact_rows``) on this store's own
        connection, in one transaction. Raises FactsUnwritable. (An action's row goes with the
        action instead: ``Journal.append(facts=)``.)"""
        if self.db is None:
            raise FactsUnwritable(f"{self.path} is not open")
        try:
            if len(statements) == 1:
                self.db.execute(*statements[0])
                return
            with writing.transaction(self.db):
                for statement in statements:
                    self.db.execute(*statement)
        except sqlite3.Error as exc:
            raise FactsUnwritable(str(exc)) from exc

    def entries(self, game: int, count: int) -> list[str] | None:
        """The JSON of the game's first ``count`` stored entries, in order; None when they are not
        all there (the row's log is then rebuilt) or cannot be read."""
        if self.db is None:
            return None
        try:
            rows = self.db.execute("SELECT n, entry FROM game_fact WHERE game = ? AND n < ? ORDER BY n",
                                   (game, count)).fetchall()
        except sqlite3.Error as exc:
            log.error("records: cannot read the facts of game %d: %s", game, exc)
            return None
        if [n for n, _entry in rows] != list(range(count)) or not all(isinstance(e, str) for _n, e in rows):
            return None
        return [str(entry) for _n, entry in rows]

    def row(self, game: int) -> tuple[int, str, float | None] | None:
        """(actions, the facts' log, started) of the game's row; None when there is none or it cannot be read."""
        if self.db is None:
            return None
        try:
            row: tuple[int, str, float | None] | None = self.db.execute(
                "SELECT actions, log, started FROM game_record WHERE game = ?", (game,)).fetchone()
            return row
        except sqlite3.Error as exc:
            if "no such table" not in str(exc):
                log.error("records: cannot read the facts of game %d: %s", game, exc)
            return None

    def created(self, game: int) -> float | None:
        """When the journal's game was created (its wall time), if the journal says."""
        if self.db is None:
            return None
        try:
            row = self.db.execute("SELECT created FROM game WHERE id = ?", (game,)).fetchone()
        except sqlite3.Error:
            return None
        return float(row[0]) if row else None

    def games_behind(self, *, exclude: int) -> list[tuple[int, int, str, float | None, str | None, str | None]] | None:
        """The journal's games, but ``exclude``, that have no row or whose row is behind their commands:
        (id, seed, ruleset json, created, status, facts log). None when they cannot be looked for."""
        if self.db is None:
            return []
        try:
            rows: list[tuple[int, int, str, float | None, str | None, str | None]] = self.db.execute(
                "SELECT g.id, g.seed, g.ruleset, g.created, r.status, r.log FROM game g "
                "LEFT JOIN game_record r ON r.game = g.id "
                "WHERE g.id != ? AND (r.game IS NULL OR r.actions != "
                "(SELECT COUNT(*) FROM command WHERE command.game = g.id))", (exclude,)).fetchall()
            return rows
        except sqlite3.Error as exc:
            log.error("records: cannot look for games without facts: %s", exc)
            return None

    def good_commands(self, game: int) -> list[Command]:
        """The game's commands up to the first whose checksum fails. Raises sqlite3.Error or ValueError
        (the caller leaves such a game out)."""
        assert self.db is not None
        out: list[Command] = []
        for seq, body, crc in self.db.execute("SELECT seq, body, crc FROM command WHERE game = ? ORDER BY seq",
                                              (game,)).fetchall():
            if not row_ok(game, seq, body, crc):
                break
            out.append(command_from_dict(json.loads(body)))
        return out

    def games(self) -> list[dict[str, Any]]:
        """``read_games`` of this store's file (none while its reads fail: the table's pages)."""
        return self._shown(read_games)

    def tallies(self) -> list[dict[str, Any]]:
        """``read_tallies`` of this store's file (none while its reads fail)."""
        return self._shown(read_tallies)

    def known_names(self, limit: int = 60) -> list[str]:
        """``known_names`` of this store's file (none when it is not open, or its reads fail)."""
        return self._shown(lambda db: known_names(db, limit)) if self.db is not None else []

    def _shown(self, read: Callable[[sqlite3.Connection | None], list[T]]) -> list[T]:
        """What ``read`` finds for a page of the table; nothing, and said in the log, when the disk
        refuses the read (the page is read again when it is opened again)."""
        try:
            return read(self.db)
        except sqlite3.DatabaseError as exc:
            log.error("records: cannot read the saved games now (%s)", exc)
            return []

    def close(self) -> None:
        if self.db is not None and self._owned:
            self.db.close()
        self.db = None

    def reconnect(self) -> None:
        """A writing store's connection made again (the journal's file was written anew under it)."""
        if self.read_only or not self._owned:
            return
        self.close()
        self._ready = False
        try:
            db = writing.connect(self.path)
            db.execute("PRAGMA synchronous=NORMAL")
            self.db = db
        except sqlite3.Error as exc:
            log.error("records: cannot open %s (%s); history and stats are not kept this time", self.path, exc)


# ------------------------------------------------------------------ reading (history, stats)

def _rows(db: sqlite3.Connection | None, sql: str) -> list[tuple[Any, ...]]:
    if db is None:
        return []
    try:
        rows: list[tuple[Any, ...]] = db.execute(sql, (SETUP,)).fetchall()
        return rows
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):         # a journal no table of this version has opened yet
            return []
        raise


def read_games(db: sqlite3.Connection | None) -> list[dict[str, Any]]:
    """The brief facts of every game that was started, oldest first: what ``history`` lists."""
    out = []
    for text, actions, last in _rows(db, "SELECT brief, actions, last FROM game_record WHERE status != ? ORDER BY game"):
        try:
            brief: dict[str, Any] = json.loads(text)
        except ValueError:
            log.error("records: a damaged row is left out")
            continue
        # the facts are rewritten when one changes; the count and the clock move with every action
        brief["actions"] = actions
        if brief["status"] == UNFINISHED and brief["started"] is not None and last is not None:
            brief["minutes"] = round(max(0.0, last - brief["started"]) / 60, 1)
        out.append(brief)
    return out


def read_tallies(db: sqlite3.Connection | None) -> list[dict[str, Any]]:
    """Per game, each player's counts and each monster's: what ``stats`` adds up."""
    out = []
    for (text,) in _rows(db, "SELECT tally FROM game_record WHERE status != ? ORDER BY game"):
        try:
            out.append(json.loads(text))
        except ValueError:
            log.error("records: a damaged row is left out")
    return out


def read_saved(path: Path, what: Literal["games", "tallies"]) -> list[dict[str, Any]]:
    """``read_games`` or ``read_tallies`` of the journal file at ``path``, opened read-only for the
    reading and closed again; none when there is no file. Raises FactsUnreadable."""
    try:
        db = open_read_only(path)
        try:
            return read_games(db) if what == "games" else read_tallies(db)
        finally:
            if db is not None:
                db.close()
    except sqlite3.Error as exc:
        raise FactsUnreadable(str(exc)) from None


def known_names(db: sqlite3.Connection | None, limit: int = 60) -> list[str]:
    """The players' names the box has seen, the most recently played first."""
    seen: list[str] = []
    for s in reversed(read_games(db)):
        for name in s["players"]:
            if name not in seen:
                seen.append(name)
                if len(seen) >= limit:
                    return seen
    return seen
