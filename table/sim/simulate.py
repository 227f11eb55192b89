"""``munchkin-table simulate``: a table script through the simulated table, headless."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TextIO

from cards.textfile import TextFileError, read_text
from table.config import Config
from table.control.controller import Controller
from table.control.prompts import Outcome
from table.sim.harness import SimTable
from table.sim.script import Action, ScriptError, read_settings
from table.storage.paths import TableBusy, hold_table_lock
from table.ui.display import use_headless_drivers
from table.ui.display import Display
from table.ui.view import build_view
from table.ui.voice import Voice, announcement
from table.words.i18n import set_language, use_catalog_names, worded

SIMULATION_SEED = 1
VOICE_WAIT = 30.0           # seconds simulate waits, at most, for the voice to finish speaking


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


def summary_line(state: dict[str, Any]) -> str:
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


class Screenshots:
    """A PNG of the screen after each action, numbered from 0001, in ``folder``."""

    def __init__(self, folder: Path, config: Config) -> None:

        self.folder = folder
        self.language = config.display.language
        self.display = Display((config.display.width, config.display.height), language=self.language,
                               font=config.display.font)

    def take(self, number: int, controller: Controller) -> str | None:
        """Draw the table and save it as picture ``number``; why it could not be saved, or None."""

        self.display.render(build_view(controller, language=self.language))
        target = self.folder / f"{number:04d}.png"
        try:
            self.display.save(target)
        except (OSError, RuntimeError) as exc:      # pygame.error is a RuntimeError
            return f"cannot save the screenshot {target}: {exc}"
        return None

    def close(self) -> None:
        self.display.close()


def play(sim: SimTable, actions: list[Action], err: TextIO, *, story: bool,
         screenshots: Screenshots | None, voice: Voice | None = None) -> str | None:
    """Perform ``actions``: each refusal (and with ``story`` each line's words) on ``err``.

    Returns why the run had to stop (a screenshot that could not be saved), or None.
    """
    for number, action in enumerate(actions, 1):
        outcomes = sim.perform(action)
        refused = [o.message for o in outcomes if not o.accepted and o.message is not None]
        for message in refused:
            print(f"rejected: {action.line}: {message.text}", file=err)
        if story and not refused:
            print(story_line(action, outcomes), file=err)
        if voice is not None:
            ctl = sim.controller
            voice.say(announcement([e for o in outcomes if o.accepted for e in o.events], ctl.state, ctl.catalog))
        if screenshots is not None:
            problem = screenshots.take(number, sim.controller)
            if problem is not None:
                return problem
    return None


def simulate(script: Path | str, config: Config, *, screenshots: Path | None = None,
             out: TextIO | None = None, err: TextIO | None = None, seed: int | None = None,
             story: bool = False, config_named: bool = True) -> int:
    """Run the table script at ``script`` (``-``: standard input); 0 when it ran, 2 on a script error.

    An exported game names its seed, ruleset and players in its first lines; ``seed`` overrides
    the script's. With ``story``, each line's action and what the table said about it go to ``err``
    (the story of the game in words), then a last line with where the game stands.

    The game is played in a fresh temporary directory, never the table's own journal, unless the
    config was named explicitly (``config_named``: ``--config FILE`` given, not the installed
    system config) and its ``[storage] state_dir`` names one; that directory is then used only
    under the table lock, so a running table is never written behind its back.
    """

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
    with tempfile.TemporaryDirectory(prefix="munchkin-sim-") as tmp, ExitStack() as held:
        state_dir = config.state_dir if config_named and config.storage.state_dir else Path(tmp)
        try:
            settings = read_settings(text, source=source)
        except ScriptError as exc:
            print(f"script error: {exc}", file=err)
            return 2
        if state_dir != Path(tmp):
            try:
                lock = hold_table_lock(state_dir)
            except TableBusy as exc:
                print(f"munchkin-table simulate: {exc}", file=err)
                return 2
            if lock is not None:
                held.callback(lock.close)
        chosen = seed if seed is not None else settings.seed if settings.seed is not None else SIMULATION_SEED
        # the games' wall times start now: the script's waits are their minutes
        with SimTable(settings.apply(config), state_dir, chosen, wall_start=time.time()) as sim:
            try:
                actions = sim.parse(text, source=source)
            except ScriptError as exc:
                print(f"script error: {exc}", file=err)
                return 2
            shots = Screenshots(screenshots, config) if screenshots is not None else None
            set_language(config.display.language)
            voice = Voice(config.voice, config.display.language) if config.voice.enabled else None
            try:
                problem = play(sim, actions, err, story=story, screenshots=shots, voice=voice)
            finally:
                if voice is not None:
                    voice.wait(VOICE_WAIT)          # what was said is heard before the table goes
                    voice.close()
                if shots is not None:
                    shots.close()
            if problem is not None:
                print(f"munchkin-table simulate: {problem}", file=err)
                return 2
            set_language(config.display.language)
            use_catalog_names(sim.controller.catalog)
            state = worded(sim.controller.state_json())
            if story:
                print(summary_line(state), file=err)
            print(json.dumps(state, indent=2, ensure_ascii=False), file=out)
    return 0
