"""Before the first tap: a rehearsal off the glass.

On a Pi-class core the first taps after a start cost up to twice what later ones do
(docs/benchmarks.md, "Pi-class time"): their handling ran the engine's, the journal's and the
controller's code for the first time in the process, and their frames drew screens whose glyphs
FreeType had not yet loaded at those sizes. So once the first frame is shown, and before the loop
waits for a tap, a scratch table (its own journal in a temporary directory, the same catalog) plays
a few taps of a game of its own, and each of its frames is drawn on the display but never shown
(``Display.rehearse``): three joins, NEXT, a race, a class, an item, a token, a card in play (its
menu), another token and a monster (the fight). The table's own game is not touched, and a tap or
anything else that wakes the loop meanwhile ends the rehearsal at once.
"""

from __future__ import annotations

import logging
import os
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from drivers.base import ManualClock
from drivers.events import Press, Release, Tap
from engine.cards import CardDef, Catalog, Kind
from engine.state import PLAYER_TOKENS
from table.config import Config
from table.control.assembly import build_table
from table.ui.display import Display
from table.ui.view import build_view

log = logging.getLogger(__name__)

READER = "rehearsal"
STEP_S = 1.0            # the scratch table's clock between two of its taps


def rehearsal_taps(catalog: Catalog) -> list[Tap | Press | Release]:
    """The scratch game: three joins, NEXT, then a race, a class, an item with a bonus, the first
    token, the race again (a card in play: its menu), the second token and the first again (who
    acts) and a monster (the fight); a kind the catalog lacks is left out."""
    def first(kind: Kind, ok: Callable[[CardDef], bool] = lambda _card: True) -> str | None:
        return next((card.id for card in catalog.values() if card.kind is kind and ok(card)), None)

    race, item = first(Kind.RACE), first(Kind.ITEM, lambda card: bool(card.bonus) and not card.big)
    cards = [race, first(Kind.CLASS), item, PLAYER_TOKENS[0], race, PLAYER_TOKENS[1], PLAYER_TOKENS[0],
             first(Kind.MONSTER)]
    taps: list[Tap | Press | Release] = [Tap("", 0.0, READER, card=token) for token in PLAYER_TOKENS[:3]]
    taps += [Press("next", 0.0), Release("next", 0.0)]
    return taps + [Tap("", 0.0, READER, card=card) for card in cards if card is not None]


def scratch_directory() -> str | None:
    """Where the scratch journal goes: the unit's runtime directory (memory) when it has one."""
    runtime = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    return runtime if runtime and os.path.isdir(runtime) else None


@contextmanager
def unlogged() -> Iterator[None]:
    """The scratch game's own lines (its joins, its moves: records of this thread below ERROR)
    kept out of the table's log while it plays; the other threads' records go on as ever."""
    here = threading.get_ident()

    def others(record: logging.LogRecord) -> bool:
        return record.thread != here or record.levelno >= logging.ERROR

    handlers = list(logging.getLogger().handlers)
    for handler in handlers:
        handler.addFilter(others)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(others)


def rehearse(config: Config, display: Display, catalog: Catalog, language: str,
             interrupted: Callable[[], bool]) -> int:
    """The rehearsal, drawn on ``display`` and never shown; how many frames it drew (it stops
    when ``interrupted`` says so). Nothing it meets stops the table: a failure is logged."""
    frames = 0
    try:
        with tempfile.TemporaryDirectory(prefix="munchkin-rehearsal-", dir=scratch_directory()) as where, \
                unlogged():
            clock = ManualClock()
            table = build_table(config, clock, state_dir=Path(where), catalog=catalog, seed_source=lambda: 1,
                                named=False)
            try:
                ctl = table.controller
                for event in rehearsal_taps(catalog):
                    if interrupted():
                        break
                    clock.advance(STEP_S)
                    ctl.handle(replace(event, at=clock.monotonic()))
                    ctl.tick()
                    if not isinstance(event, Press):
                        display.rehearse(build_view(ctl, language=language))
                        frames += 1
            finally:
                table.controller.records.close()
                table.controller.journal.close()
    except Exception:           # a rehearsal is never worth the table
        log.exception("the rehearsal before the first tap failed; the table goes on without it")
    return frames
