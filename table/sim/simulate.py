"""``munchkin-table simulate``: a table script through the simulated table, headless."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import TextIO

from drivers.base import ManualClock
from drivers.sim import SimButtons, SimReader
from table.config import Config
from table.control.prompts import Outcome
from table.sim.export import ExportError, read_settings
from table.sim.script import Action, ScriptError, parse_script, tap_or_press
from table.control.assembly import Table, build_table

SIMULATION_SEED = 1


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


def story_line(action: Action, outcomes: list[Outcome]) -> str:
    """One line of ``simulate -v``: the script line, what it did, in the table's own words."""
    said = [o.message.text for o in outcomes if o.message is not None and o.message.text]
    if not said:
        if action.verb == "die":
            said = [f"the next roll shows {action.arg}"]
        elif action.verb == "wait":
            said = [f"{float(action.arg):g} s pass"]
        else:
            said = ["(nothing to say)"]
    written = action.text.split("#", 1)[0].strip()
    return f"{action.line:>4}  {written:<30} {'; '.join(said)}"


def summary_line(state: dict) -> str:  # type: ignore[type-arg]
    """The last line of the story: where the game stands."""
    players = ", ".join(f"{p['name']} level {p['level']}" + ("" if p["alive"] else " (dead)") for p in state["players"])
    words = f"end: turn {state['turn']}, {state['phase']}"
    if players:
        words += f"; {players}"
    if state["winners"]:
        words += f"; won by {', '.join(state['winners'])}"
    return words


def _screenshot_dir(path: Path) -> str | None:
    """Why screenshots cannot be written to ``path``, or None when they can."""
    if path.exists() and not path.is_dir():
        return f"cannot use {path} for screenshots: it is a file; name a folder (it is made when missing)"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot use {path} for screenshots: {exc.strerror or exc}; name a folder you can write to"
    if not os.access(path, os.W_OK | os.X_OK):
        return f"cannot use {path} for screenshots: not writable; name a folder you can write to"
    return None


def simulate(script: Path | str, config: Config, *, screenshots: Path | None = None,
             out: TextIO | None = None, err: TextIO | None = None, seed: int | None = None,
             story: bool = False) -> int:
    """Run the table script at ``script`` (``-``: standard input); 0 when it ran, 2 on a script error.

    An exported game names its seed, ruleset and players in its first lines; ``seed`` overrides
    the script's. With ``story``, each line's action and what the table said about it go to ``err``
    (the story of the game in words), then a last line with where the game stands.
    """
    from cards.textfile import TextFileError, read_text
    from table.ui.display import Display, use_headless_drivers

    out = out or sys.stdout         # looked up per call: a default bound at import time outlives a swapped stdout
    err = err or sys.stderr
    source = "<stdin>" if str(script) == "-" else str(script)
    try:
        text = read_text(script, what="script")
    except TextFileError as exc:
        print(f"script error: {exc}", file=err)
        return 2
    if screenshots is not None:
        problem = _screenshot_dir(screenshots)
        if problem is not None:
            print(f"munchkin-table simulate: {problem}", file=err)
            return 2
    use_headless_drivers()
    with tempfile.TemporaryDirectory(prefix="munchkin-sim-") as tmp:
        state_dir = config.state_dir if config.storage.state_dir else Path(tmp)
        clock = ManualClock()
        try:
            settings = read_settings(text, source=source)
        except ExportError as exc:
            print(f"script error: {exc}", file=err)
            return 2
        config = settings.apply(config)
        chosen = seed if seed is not None else settings.seed if settings.seed is not None else SIMULATION_SEED
        begun = time.time()         # the games' wall times: the script's waits are its minutes
        table = build_table(config, clock, state_dir=state_dir, seed_source=lambda: chosen,
                            wall=lambda: begun + clock.monotonic())
        try:
            try:
                actions = parse_script(text, table.catalog, source=source)
            except ScriptError as exc:
                print(f"script error: {exc}", file=err)
                return 2
            reader = SimReader(table.events, clock=clock)
            buttons = SimButtons(table.events, clock=clock)
            display = None
            if screenshots is not None:
                from table.ui.view import build_view
                display = Display((config.display.width, config.display.height), language=config.display.language,
                                  font=config.display.font)
            try:
                for number, action in enumerate(actions, 1):
                    outcomes = perform(action, table, reader, buttons, clock)
                    refused = [o for o in outcomes if not o.accepted and o.message is not None]
                    for outcome in refused:
                        print(f"rejected: {action.line}: {outcome.message.text}", file=err)  # type: ignore[union-attr]
                    if story and not refused:
                        print(story_line(action, outcomes), file=err)
                    if display is not None and screenshots is not None:
                        display.render(build_view(table.controller, language=config.display.language))
                        target = screenshots / f"{number:04d}.png"
                        try:
                            display.save(target)
                        except (OSError, pygame_error()) as exc:
                            print(f"munchkin-table simulate: cannot save the screenshot {target}: {exc}", file=err)
                            return 2
            finally:
                if display is not None:
                    display.close()
            state = table.controller.state_json()
            if story:
                print(summary_line(state), file=err)
            print(json.dumps(state, indent=2, ensure_ascii=False), file=out)
        finally:
            table.controller.records.close()
            table.journal.close()
    return 0


def pygame_error() -> type[Exception]:
    import pygame

    return pygame.error
