"""A game as a table script (``munchkin-table export``), and the settings ``simulate`` reads back.

The journal holds a game as its seed, its ruleset and its commands. ``export_script`` writes the
taps, presses, dice and waits that make the table give those same commands: it drives a simulated
table (the same controller as the real one) while it writes, and checks after every command that the
table took exactly that command, so ``simulate`` of the script ends in the same state JSON.

The script starts with comment lines that ``simulate`` reads (every other reader skips comments):

    # seed: 1234
    # ruleset: {"starting_hand": 4, ...}
    # players: {"player-1": ["Ann", "female"], ...}
"""

from __future__ import annotations

import dataclasses
import json
import math
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import commands as c
from engine.errors import MunchkinError
from cards.textfile import split_lines
from engine.rules import Ruleset
from table.config import check_player, check_rules

MAX_WAIT = 86000.0          # a script's wait is under a day; longer gaps are several waits
SEED_RANGE = (0, 2**63 - 1)  # what the journal stores


class ExportError(MunchkinError, ValueError):
    """A game (or a script header) that cannot be written or read as a table script."""


@dataclass
class ScriptSettings:
    seed: int | None = None
    ruleset: Ruleset | None = None
    players: dict[str, tuple[str, str]] | None = None

    def apply(self, config: Any) -> Any:
        """``config`` with the script's ruleset and player names, where the script gives them."""
        from table.config import PlayerConfig

        changes: dict[str, Any] = {}
        if self.ruleset is not None:
            changes["rules"] = self.ruleset
        if self.players is not None:
            changes["players"] = {token: PlayerConfig(name, sex) for token, (name, sex) in self.players.items()}
        return dataclasses.replace(config, **changes) if changes else config


def check_seed(seed: int) -> int:
    if not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        raise ExportError(f"a seed is a whole number from 0 to {SEED_RANGE[1]}, not {seed}")
    return seed


def read_settings(text: str, *, source: str = "<script>") -> ScriptSettings:
    """The ``# seed:``, ``# ruleset:`` and ``# players:`` lines at the top of a script."""
    settings = ScriptSettings()
    for n, raw in enumerate(split_lines(text), 1):          # newline only, as the script's own lines
        line = raw.strip()
        if not line:
            continue
        if not line.startswith("#"):
            break                                   # the header ends at the first action
        key, sep, value = line[1:].strip().partition(":")
        key, value = key.strip(), value.strip()
        if not sep or key not in ("seed", "ruleset", "players"):
            continue
        try:
            if key == "seed":
                settings.seed = check_seed(int(value))
            elif key == "ruleset":
                data = json.loads(value)
                if not isinstance(data, dict):
                    raise ValueError("the ruleset is a JSON object")
                rules, problems = check_rules(data, "ruleset")      # the config's ranges: no nan, no strings
                if problems:
                    raise ValueError("; ".join(problems))
                settings.ruleset = rules
            else:
                data = json.loads(value)
                if not isinstance(data, dict) or not all(
                        isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) for x in v)
                        for v in data.values()):
                    raise ValueError('players are {"player-1": ["name", "male|female"], ...}')
                problems = [p for k, v in data.items() for p in check_player(str(k), {"name": v[0], "sex": v[1]})[1]]
                if problems:
                    raise ValueError("; ".join(problems))
                settings.players = {str(k): (v[0], v[1]) for k, v in data.items()}
        except (ValueError, TypeError) as exc:
            raise ExportError(f"{source}:{n}: bad '{key}' line: {exc}") from None
    return settings


def _wait_to(now: float, target: float) -> list[float]:
    """Waits that take a clock at ``now`` (advanced by ``+=``) to exactly ``target``."""
    waits = []
    while target - now > MAX_WAIT:
        waits.append(MAX_WAIT)
        now += MAX_WAIT
    if target <= now:
        return waits
    step = target - now
    for _ in range(8):                               # float sums: nudge the last step onto the target
        if now + step < target:
            step = math.nextafter(step, math.inf)
        elif now + step > target:
            step = math.nextafter(step, -math.inf)
        else:
            break
    waits.append(step)
    return waits


class Exporter:
    """Writes script lines and feeds each one to a simulated table, to know what the table does."""

    def __init__(self, config: Any, seed: int, ruleset: Ruleset, players: dict[str, tuple[str, str]],
                 state_dir: Path) -> None:
        from drivers.base import ManualClock
        from drivers.sim import SimButtons, SimReader
        from table.control.assembly import build_table

        self.clock = ManualClock()
        config = ScriptSettings(seed, ruleset, players).apply(config)
        self.table = build_table(config, self.clock, state_dir=state_dir, seed_source=lambda: seed)
        self.ctl = self.table.controller
        self.reader = SimReader(self.table.events, clock=self.clock)
        self.buttons = SimButtons(self.table.events, clock=self.clock)
        self.lines: list[str] = []
        self.offset = 0.0           # the table's clock restarts at a reboot: later times are moved past it

    def emit(self, line: str) -> None:
        from table.sim.script import parse_script
        from table.sim.simulate import perform

        self.lines.append(line)
        for action in parse_script(line, self.table.catalog):
            perform(action, self.table, self.reader, self.buttons, self.clock)

    def tap(self, what: str) -> None:
        self.emit(f"tap {what}")

    def press(self, button: str) -> None:
        self.emit(f"press {button}")

    def as_player(self, player: str) -> None:
        """The next card tap acts for ``player``: their token first, unless they act already."""
        ctl = self.ctl
        if ctl.acting_player() != player or ctl.acting_override is not None and ctl.acting_override[0] != player:
            self.tap(player)

    def close_menu(self) -> None:
        if self.ctl.prompt is not None and self.ctl.prompt.kind in ("card-menu", "player-menu"):
            self.press("undo")                       # closes the menu; takes back nothing

    def close(self) -> None:
        self.ctl.records.close()
        self.table.journal.close()

    # ------------------------------------------------------------ one command

    def command(self, cmd: c.Command) -> None:
        ctl = self.ctl
        state = ctl.state
        target = cmd.at + self.offset
        if target < self.clock.monotonic():       # the clock went back (a restart): keep the order, not the gap
            self.offset += self.clock.monotonic() - target
            target = self.clock.monotonic()
        for wait in _wait_to(self.clock.monotonic(), target):
            self.emit(f"wait {wait!r}")
        if isinstance(cmd, c.ResolveCombat):
            if len(ctl.history.commands) and isinstance(ctl.history.commands[-1], c.ResolveCombat):
                return                               # the wait closed the window
            self.emit("wait 0")
            return
        if isinstance(cmd, (c.Join,)):
            self.tap(cmd.player)
        elif isinstance(cmd, (c.ChooseFirstPlayer, c.Roll)):
            if isinstance(cmd, c.Roll) and cmd.monster >= 0 and state.combat is not None:
                self.tap(state.combat.monsters[cmd.monster].card)
            if cmd.forced is not None:
                self.emit(f"die {cmd.forced}")
            self.press("roll")
        elif isinstance(cmd, (c.StartGame, c.EndPhase, c.Fight)):
            self.press("next")
        elif isinstance(cmd, c.RunAway):
            self.press("run")
        elif isinstance(cmd, c.AddHelper):
            self.press("help")
            self.tap(cmd.helper)
        elif isinstance(cmd, c.Leave):
            self.tap(cmd.player)
            self.press("next")
            self.press("next")
        elif isinstance(cmd, (c.SetSex, c.AdjustLevel)):
            self.tap(cmd.player)
            if isinstance(cmd, c.SetSex):
                self.press("roll")
            else:
                self.press("help" if cmd.delta > 0 else "run")
            self.close_menu()
        elif isinstance(cmd, c.PlayCard):
            self.play_card(cmd)
        elif isinstance(cmd, c.UseCard):
            self.as_player(cmd.player)
            self.tap(cmd.card)
            if cmd.action in ("equip", "unequip"):
                self.press("roll")
            elif cmd.action == "discard":
                self.press("next")
            elif cmd.action in ("give", "promise"):
                self.press("run")
                self.tap(cmd.target)
        elif isinstance(cmd, c.UseAbility):
            card = next((k for (k, phase), ability in ctl.ABILITY_BY_PHASE.items()
                         if ability == cmd.ability and phase is state.phase
                         and state.has_player(cmd.player) and k in state.player(cmd.player).in_play()), None)
            if card is not None:
                self.as_player(cmd.player)
                self.tap(card)
                self.press("help")
                self.close_menu()
        elif isinstance(cmd, c.Sell):
            self.press("help")
            for card in cmd.cards:
                self.tap(card)
            self.press("next")
        elif isinstance(cmd, c.LoseItem):
            if cmd.card:
                self.tap(cmd.card)
                if ctl.prompt is not None and ctl.prompt.kind == "receiver":
                    self.tap(cmd.target)
            else:
                self.press("next")
        elif isinstance(cmd, c.ReopenWindow):
            combat = state.combat
            if combat is not None and combat.window_until is not None and combat.window_until > self.clock.monotonic():
                # the window still runs: an action taken back brings it back in full
                self.tap(state.active_player or "")
                self.press("roll")
                self.press("undo")
                self.press("undo")
            else:
                if not (ctl.history.commands and isinstance(ctl.history.commands[-1], c.ResolveCombat)):
                    self.emit("wait 0")              # the window has run: the tick kills the monsters
                self.press("undo")                   # and UNDO brings the fight back

    def play_card(self, cmd: c.PlayCard) -> None:
        ctl = self.ctl
        self.as_player(cmd.player)
        self.tap(cmd.card)
        prompt = ctl.prompt
        if prompt is None:
            return
        if prompt.kind in ("victim", "target"):
            self.tap(cmd.target)
        elif prompt.kind == "item":
            self.tap(cmd.item)
        elif prompt.kind == "side":
            self.press("roll" if cmd.side == "players" else "run")
        elif prompt.kind == "monster" and ctl.state.combat is not None:
            n = len(ctl.state.combat.monsters)
            want = cmd.monster if cmd.monster >= 0 else n - 1
            for _ in range((want - prompt.value) % n):
                self.press("roll")
            self.press("next")
        elif prompt.kind == "value":
            while ctl.prompt is not None and ctl.prompt.value != cmd.value:
                self.press("roll")
                if len(self.lines) > 10_000:
                    break
            self.press("next")


def _same(a: c.Command, b: c.Command) -> bool:
    return dataclasses.replace(a, at=0.0) == dataclasses.replace(b, at=0.0)


def export_script(config: Any, seed: int, ruleset: Ruleset, commands: list[c.Command], *,
                  game_id: int | None = None) -> str:
    """The table script that plays ``commands`` again; raises ExportError on one it cannot write."""
    players = {cmd.player: (cmd.name_, cmd.sex) for cmd in commands if isinstance(cmd, c.Join)}
    header = [f"# munchkin-table export{f' of game {game_id}' if game_id is not None else ''}: "
              f"{len(commands)} actions",
              f"# seed: {seed}",
              f"# ruleset: {json.dumps(ruleset.to_dict(), sort_keys=True)}",
              f"# players: {json.dumps({k: list(v) for k, v in players.items()}, ensure_ascii=False)}",
              "# replay it with: munchkin-table simulate THIS_FILE"]
    with tempfile.TemporaryDirectory(prefix="munchkin-export-") as tmp:
        exporter = Exporter(config, seed, ruleset, players, Path(tmp))
        try:
            for n, cmd in enumerate(commands, 1):
                exporter.command(cmd)
                done = exporter.ctl.history.commands
                if len(done) != n or not _same(done[-1], cmd):
                    got = done[-1].name if len(done) >= n else "nothing"
                    raise ExportError(f"action {n} ({cmd.name}) cannot be written as taps and presses "
                                      f"(the table took {got}); the export would not replay the game")
        finally:
            exporter.close()
    return "\n".join([*header, *exporter.lines]) + "\n"


def export_game(config: Any, game: int | None = None) -> str:
    """The game ``game`` (the live, latest one by default) of the table's state directory, as a script."""
    from table.storage.journal import Journal
    from table.storage.paths import JOURNAL_FILE

    path = config.state_dir / JOURNAL_FILE
    if not path.exists():
        raise ExportError(f"no game to export: no journal in {config.state_dir}")
    journal = Journal(path, read_only=True)      # export only reads: nothing there is moved or repaired
    try:
        if game is None:
            record = journal.latest_game()
            if record is None:
                raise ExportError(f"no game to export in {config.state_dir}")
            game_id, seed, ruleset = record.id, record.seed, record.ruleset
        else:
            found = journal.game(game)
            if found is None:
                raise ExportError(f"no game {game} in {config.state_dir}")
            game_id, seed, ruleset = found.id, found.seed, found.ruleset
        commands = journal.commands(game_id)
    finally:
        journal.close()
    return export_script(config, seed, ruleset, commands, game_id=game_id)
