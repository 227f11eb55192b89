"""What the box knows of its game outside the journal: a small marker file beside it.

A journal that is cut to zero bytes (what a power cut can leave of a file on ext4), deleted, or
missing takes every trace of its game with it: the snapshots, the facts and the history all live
in the same file. The marker (``journal.known.json``) says that a game was there: its number, its
seed, how many actions it held when last noted, and whether the table that wrote it stopped
cleanly. It is written (atomically: a temporary file, synced, renamed) when a table opens the
journal, when a game starts and when the table closes it; never on an action, so a tap pays
nothing for it.

A journal missing or empty where the marker says a game was is **vanished**: the table keeps
what is left aside byte for byte, rebuilds the game from whatever survives (a ``-wal`` left
beside the empty file, a kept copy that holds the same game) and says so; ``state`` says so too.
"""

from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from cards.files import write_atomically
from engine.messages import Msg, msg

log = logging.getLogger(__name__)

MARKER_SUFFIX = ".known.json"
LINK_SUFFIX = ".link"


@dataclass(frozen=True)
class Known:
    """The marker's content: the latest game as last noted, and who wrote it."""

    game: int
    seed: int
    actions: int
    clean: bool
    pid: int = 0
    since: float = 0.0


def marker_path(journal: Path) -> Path:
    return journal.with_name(journal.name.split(".")[0] + MARKER_SUFFIX)


def link_path(journal: Path) -> Path:
    return journal.with_name(journal.name + LINK_SUFFIX)


def hold_link(journal: Path) -> None:
    """A second name for the journal's file (a hard link, never opened by SQLite while the journal
    is there): a journal deleted by its name keeps its content on disk under this one, for a
    restart to rebuild the game from, with the ``-wal`` left beside it. Made again whenever a new
    file takes the journal's name; a file system without hard links goes without."""
    link = link_path(journal)
    try:
        link.unlink(missing_ok=True)
        os.link(journal, link)
    except OSError as exc:
        log.debug("journal %s: no second name (%s)", journal, exc)


def read_known(journal: Path) -> Known | None:
    """The marker beside ``journal``; None when there is none or it does not read (then nothing
    is known, and nothing is claimed)."""
    try:
        data = json.loads(marker_path(journal).read_text(encoding="utf-8"))
        known = Known(int(data["game"]), int(data["seed"]), int(data["actions"]), bool(data["clean"]),
                      int(data.get("pid", 0)), float(data.get("since", 0.0)))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        log.warning("journal marker %s does not read (%s); ignored", marker_path(journal), exc)
        return None
    return known if known.game > 0 else None


def note(journal: Path, game: int, seed: int, actions: int, *, clean: bool) -> None:
    """Write the marker beside ``journal`` (a game of 0: none yet, nothing written). A disk that
    refuses costs only the marker: logged, the game goes on."""
    if game <= 0:
        return
    known = Known(game, seed, actions, clean, os.getpid(), time.time())
    try:
        write_atomically(marker_path(journal), json.dumps(asdict(known)) + "\n")
    except OSError as exc:
        log.warning("journal marker %s not written (%s)", marker_path(journal), exc)


def unclean(known: Known | None, journal: Path) -> bool:
    """Whether the last table on ``journal`` stopped without closing it (a kill, a power cut): its
    marker says it was still open, or (no marker yet) SQLite's ``-wal`` was left behind."""
    if known is not None:
        return not known.clean
    wal = Path(f"{journal}-wal")
    try:
        return wal.stat().st_size > 0
    except OSError:
        return False


def gone(journal: Path, known: Known | None) -> Msg | None:
    """Why the game the marker knows is not in ``journal`` (missing, or zero bytes); None when it
    may be there (the checks at opening judge the rest)."""
    if known is None or known.actions <= 0:
        return None                 # a game with no action yet: nothing of it can be lost
    try:
        size = journal.stat().st_size
    except FileNotFoundError:
        return msg("{file} is missing", file=journal.name)
    except OSError:
        return None                 # the disk refuses: a fault, said by the opening itself
    return msg("{file} was found empty (0 bytes)", file=journal.name) if size == 0 else None


def left_at(journal: Path) -> bool:
    """Whether anything of the journal is left at its name (the file or its ``-wal``/``-shm``)."""
    return any(Path(f"{journal}{extra}").exists() for extra in ("", "-wal", "-shm"))


def vanished_report(known: Known, why: Msg, *, restored: int, source: str | None, kept: Path | None) -> Msg:
    """The notice of a vanished game, with true numbers: what was rebuilt, from where, what is kept."""
    left = (msg("what was left is kept as {file}", file=kept.name) if kept is not None
            else msg("nothing of it was left"))
    if source is not None and restored:
        return msg("game {game} vanished ({why}): rebuilt with {good} of at least {total} actions from {source}; {left}",
                   game=known.game, why=why, good=restored, total=max(known.actions, restored), source=source,
                   left=left)
    return msg("game {game} vanished ({why}): its {total} actions could not be rebuilt; {left}",
               game=known.game, why=why, total=known.actions, left=left)


def vanished_looking(known: Known, why: Msg) -> Msg:
    """What a command that only looks (``state``) says of a vanished game: nothing is changed."""
    return msg("game {game} vanished ({why}): it held at least {total} actions; 'munchkin-table run' keeps what is "
               "left and rebuilds what it can", game=known.game, why=why, total=known.actions)
