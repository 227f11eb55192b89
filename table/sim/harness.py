"""The simulated table: a real table (controller, journal, catalog) on simulated drivers and clock.

``simulate`` plays a script on it and ``export`` writes one while playing it, so both see the table
react to a line exactly as the running table would.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from drivers.base import ManualClock
from drivers.sim import SimButtons, SimReader
from table.config import Config
from table.control.assembly import Table, build_table
from table.control.controller import Controller
from table.control.prompts import Outcome
from table.sim.script import Action, parse_script, tap_or_press


def perform(action: Action, table: Table, reader: SimReader, buttons: SimButtons, clock: ManualClock) -> list[Outcome]:
    """Do one script action and let the controller react to everything it caused."""
    ctl = table.controller
    if tap_or_press(action, reader, buttons):
        pass
    elif action.verb == "die":
        ctl.forced_die = int(action.arg)
    elif action.verb == "wait":
        clock.advance(float(action.arg))
    outcomes = [o for o in (ctl.handle(e) for e in table.events.drain()) if o is not None]
    ticked = ctl.tick()
    if ticked is not None:
        outcomes.append(ticked)
    return outcomes


class SimTable:
    """A table in ``state_dir`` whose die rolls come from ``seed``, driven by script actions.

    ``wall_start`` (seconds since the epoch) dates the games: the script's waits are their minutes.
    Close it (or use it in a ``with``) to close its journal and records.
    """

    def __init__(self, config: Config, state_dir: Path, seed: int, *, wall_start: float | None = None) -> None:
        self.clock = ManualClock()
        wall: Callable[[], float] | None = None
        if wall_start is not None:
            start = wall_start
            wall = lambda: start + self.clock.monotonic()       # noqa: E731
        self.table = build_table(config, self.clock, state_dir=state_dir, seed_source=lambda: seed, wall=wall)
        self.reader = SimReader(self.table.events, clock=self.clock)
        self.buttons = SimButtons(self.table.events, clock=self.clock)

    @property
    def controller(self) -> Controller:
        return self.table.controller

    def parse(self, text: str, *, source: str = "<script>") -> list[Action]:
        """The actions of ``text`` against this table's catalog; raises ScriptError."""
        return parse_script(text, self.table.catalog, source=source)

    def perform(self, action: Action) -> list[Outcome]:
        return perform(action, self.table, self.reader, self.buttons, self.clock)

    def close(self) -> None:
        records = self.table.controller.records
        if records is not None:
            records.close()
        self.table.journal.close()

    def __enter__(self) -> SimTable:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<SimTable {self.table.journal.path} at {self.clock.monotonic():g} s>"
