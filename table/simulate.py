"""``munchkin-table simulate``: a table script through the simulated table, headless."""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import TextIO

from drivers.base import ManualClock
from drivers.sim import SimButtons, SimReader
from table.config import Config
from table.controller import Outcome
from table.export import ScriptSettings
from table.script import Action, read_script, tap_or_press
from table.wiring import Table, build_table

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


def script_settings(script: Path) -> ScriptSettings:
    """The seed, ruleset and players a script's header names (nothing for a script that cannot be read:
    reading it again says why)."""
    from table.export import ExportError, read_settings
    from table.script import ScriptError

    try:
        text = script.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ScriptSettings()
    try:
        return read_settings(text, source=str(script))
    except ExportError as exc:
        raise ScriptError(str(exc)) from None


def simulate(script: Path, config: Config, *, screenshots: Path | None = None,
             out: TextIO | None = None, err: TextIO | None = None, seed: int | None = None) -> int:
    from table.display import Display, use_headless_drivers
    from table.script import ScriptError

    out = out or sys.stdout         # looked up per call: a default bound at import time outlives a swapped stdout
    err = err or sys.stderr
    use_headless_drivers()
    with tempfile.TemporaryDirectory(prefix="munchkin-sim-") as tmp:
        state_dir = config.state_dir if config.storage.state_dir else Path(tmp)
        clock = ManualClock()
        try:        # an exported game names its seed, ruleset and players in its first lines
            settings = script_settings(script)
        except ScriptError as exc:
            print(f"script error: {exc}", file=err)
            return 2
        config = settings.apply(config)
        chosen = seed if seed is not None else settings.seed if settings.seed is not None else SIMULATION_SEED
        begun = time.time()         # the games' wall times: the script's waits are its minutes
        table = build_table(config, clock, state_dir=state_dir, seed_source=lambda: chosen,
                            wall=lambda: begun + clock.monotonic())
        try:
            actions = read_script(script, table.catalog)
        except ScriptError as exc:
            print(f"script error: {exc}", file=err)
            table.journal.close()
            return 2
        reader = SimReader(table.events, clock=clock)
        buttons = SimButtons(table.events, clock=clock)
        display = None
        if screenshots is not None:
            from table.view import build_view
            screenshots.mkdir(parents=True, exist_ok=True)
            display = Display((config.display.width, config.display.height), language=config.display.language,
                              font=config.display.font)
        for number, action in enumerate(actions, 1):
            for outcome in perform(action, table, reader, buttons, clock):
                if not outcome.accepted and outcome.message is not None:
                    print(f"rejected: {action.line}: {outcome.message.text}", file=err)
            if display is not None and screenshots is not None:
                display.render(build_view(table.controller, language=config.display.language))
                display.save(screenshots / f"{number:04d}.png")
        print(json.dumps(table.controller.state_json(), indent=2, ensure_ascii=False), file=out)
        table.controller.records.close()
        table.journal.close()
        if display is not None:
            display.close()
    return 0
