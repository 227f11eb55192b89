"""The doctor's look at the saved games: is the journal there, sound, and is a kept copy waiting?"""

from __future__ import annotations

from pathlib import Path

from table.storage import marker
from table.storage.faults import JournalError
from table.storage.journal import Journal
from table.storage.repair import kept_copies


def check_journal(path: Path) -> tuple[bool, str, str]:
    """For ``doctor``: (ok, what was found, the fix). Only reads."""
    known = marker.read_known(path)
    why = marker.gone(path, known)
    if known is not None and why is not None:       # a game was here: its journal vanished
        return False, str(marker.vanished_looking(known, why)), \
            "start the table (munchkin-table run): it keeps what is left and rebuilds the game from what survives"
    if not path.exists():
        copies = kept_copies(path) if path.parent.is_dir() else []
        if copies:
            return False, f"no journal at {path}, but a game is kept as {copies[-1].name}", \
                f"munchkin-table restore {copies[-1]}"
        return True, f"no game yet at {path}", ""
    try:
        journal = Journal(path, read_only=True, fast=False)
    except JournalError as exc:
        return False, str(exc), "fix the disk as said above; the journal is not touched until then"
    try:
        if journal.damage is not None:
            found = f"{path.name} is damaged: {journal.damage.why} (good up to action {journal.damage.good} " \
                    f"of {journal.damage.total})"
            if _starts_past_it(path):       # the table's start never reads that row: starting it repairs nothing
                return False, found, f"nothing to do to play on: the table resumes from its snapshot at the latest " \
                    f"action; only UNDO back past action {journal.damage.good} is refused"
            return False, found, \
                "start the table (munchkin-table run): it keeps the damaged copy and resumes at the last good action"
        game = journal.latest_game()
        actions = len(journal.commands(game.id)) if game else 0
        copies = kept_copies(path)
        if actions == 0 and copies:
            return False, f"{path.name} holds no actions, but a game is kept as {copies[-1].name}", \
                f"munchkin-table restore {copies[-1]}"
        return True, f"{path} holds {len(journal.games())} game(s); the latest at action {actions}", ""
    finally:
        journal.close()


def _starts_past_it(path: Path) -> bool:
    """Whether the table's quick start (the newest snapshot on) finds the journal sound."""
    try:
        quick = Journal(path, read_only=True, fast=True)
    except JournalError:
        return False
    try:
        return quick.damage is None
    finally:
        quick.close()
