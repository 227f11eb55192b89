"""Random taps, presses and waits through the controller: the table never hits an internal error,
a refusal leaves the game as it was, and the journal always replays to what the screen shows.

Each run is a seeded sequence of 150 inputs, biased towards what moves a game along (tokens,
monsters, NEXT, RUN, ROLL) so that the sequences reach combats, run-aways and game ends, not
only setup. ``FUZZ_RUNS`` and ``FUZZ_STEPS`` set how many seeds run and how long each is (40 × 150 by
default; more to hunt locally).
"""

from __future__ import annotations

import json
import logging
import os
import random
import tempfile
import traceback

import pytest

from cards.loader import load_catalog
from drivers.base import ManualClock
from drivers.events import BUTTONS, Press, Tap
from engine.cards import Kind
from engine.game import replay
from engine.serialize import state_to_json
from table.config import Config, StorageConfig
from table.control.assembly import build_table

CATALOG = load_catalog()
CARDS = sorted(CATALOG)
MONSTERS = [c for c in CARDS if CATALOG[c].kind is Kind.MONSTER]
TOKENS = [f"player-{n}" for n in range(1, 7)]
RUNS = int(os.environ.get("FUZZ_RUNS", "40"))
STEPS = int(os.environ.get("FUZZ_STEPS", "150"))


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def as_json(state) -> str:
    return json.dumps(state_to_json(state, CATALOG), sort_keys=True)


def random_input(rng: random.Random, clock: ManualClock):
    kind = rng.choices(["card", "monster", "token", "button", "wait", "unknown"], [30, 12, 12, 36, 8, 2])[0]
    if kind == "card":
        return ("tap", rng.choice(CARDS)), Tap("", clock.monotonic(), card=rng.choice(CARDS))
    if kind == "monster":
        card = rng.choice(MONSTERS)
        return ("tap", card), Tap("", clock.monotonic(), card=card)
    if kind == "token":
        token = rng.choice(TOKENS[:4])
        return ("tap", token), Tap("", clock.monotonic(), card=token)
    if kind == "button":
        button = rng.choice([*BUTTONS, "next", "roll", "run"])
        return ("press", button), Press(button, clock.monotonic())
    if kind == "wait":
        return ("wait", rng.choice([0.5, 3.0, 9.0])), None
    return ("tap", "uid:04DEADBEEF0001"), Tap("04DEADBEEF0001", clock.monotonic())


@pytest.mark.parametrize("seed", sorted(set(range(RUNS)) | {119, 1008}))   # 119, 1008 once found bugs
def test_random_input_never_breaks_the_table(seed: int) -> None:
    rng = random.Random(seed)
    errors = Collect()
    logging.getLogger("table.control.controller").addHandler(errors)
    phases = set()
    with tempfile.TemporaryDirectory() as tmp:
        clock = ManualClock()
        table = build_table(Config(storage=StorageConfig(state_dir=tmp)), clock, catalog=CATALOG,
                            seed_source=lambda: seed)
        ctl = table.controller
        trail: list[tuple[str, object]] = []
        try:
            for _ in range(STEPS):
                before = as_json(ctl.state)
                step, event = random_input(rng, clock)
                trail.append(step)
                if event is None:
                    clock.advance(float(step[1]))           # type: ignore[arg-type]
                    out = ctl.tick()
                else:
                    out = ctl.handle(event)
                phases.add(ctl.state.phase.value)
                if out is not None and not out.accepted:
                    assert as_json(ctl.state) == before, f"a refusal changed the game after {trail}"
                if errors.records:
                    record = errors.records[0]
                    pytest.fail(f"internal error after {trail}:\n{record.getMessage()}\n"
                                + "".join(traceback.format_exception(*record.exc_info or (None, None, None))))
            stored = table.journal.commands(ctl.game.id)
            assert stored == ctl.history.commands
            assert as_json(replay(CATALOG, ctl.game.ruleset, ctl.game.seed, stored)) == as_json(ctl.state)
        finally:
            table.journal.close()
            logging.getLogger("table.control.controller").removeHandler(errors)
    assert "setup" in phases


def test_the_random_games_get_past_setup() -> None:
    """The sequences are only worth something if they reach fights; check the bias does that."""
    reached = set()
    for seed in range(10):
        rng = random.Random(seed)
        with tempfile.TemporaryDirectory() as tmp:
            clock = ManualClock()
            table = build_table(Config(storage=StorageConfig(state_dir=tmp)), clock, catalog=CATALOG)
            logging.disable(logging.CRITICAL)
            try:
                for _ in range(150):
                    _, event = random_input(rng, clock)
                    if event is None:
                        clock.advance(3.0)
                        table.controller.tick()
                    else:
                        table.controller.handle(event)
                    reached.add(table.controller.state.phase.value)
            finally:
                logging.disable(logging.NOTSET)
                table.journal.close()
    assert {"combat", "run-away", "charity"} <= reached
