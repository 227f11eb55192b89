"""A game as a table script (``munchkin-table export``).

The journal holds a game as its seed, its ruleset and its commands. ``export_script`` writes the
taps, presses, dice and waits that make the table give those same commands: it drives a simulated
table (the same controller as the real one) while it writes, and checks after every command that the
table took exactly that command, so ``simulate`` of the script ends in the same state JSON.

The script starts with the header of table/sim/script.py (seed, ruleset, players), which
``simulate`` reads back.
"""

from __future__ import annotations

import dataclasses
import math
import tempfile
from dataclasses import dataclass
from pathlib import Path

from engine import commands as c
from engine.cards import Catalog
from engine.errors import MunchkinError
from engine.legal import abilities_now, abilities_of
from engine.rules import Ruleset
from engine.state import GameState
from table.config import Config
from table.control.controller import Controller
from table.sim.harness import SimTable
from table.session.history import History
from table.sim.script import ScriptSettings, script_header
from table.storage.journal import Journal
from table.storage.paths import JOURNAL_FILE

MAX_WAIT = 86000.0          # a script's wait is under a day; longer gaps are several waits
MENUS = ("card-menu", "player-menu")


class ExportError(MunchkinError, ValueError):
    """A game that cannot be written as a table script."""


@dataclass(frozen=True)
class Look:
    """What export needs to know of the controller beyond the game state, read in one place."""

    acting: str | None                              # who a card tap acts for now
    chosen: str | None                              # the player whose token was tapped, if any
    prompt: str | None                              # the open prompt's kind
    value: int                                      # a value prompt's number so far


def look(ctl: Controller) -> Look:
    """The controller as export needs it, through its public answers."""
    prompt = ctl.prompt
    return Look(acting=ctl.acting_player(), chosen=ctl.token_actor,
                prompt=str(prompt.kind) if prompt is not None else None,
                value=prompt.value if prompt is not None else 0)


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

    def __init__(self, config: Config, seed: int, ruleset: Ruleset, players: dict[str, tuple[str, str]],
                 state_dir: Path) -> None:
        self.sim = SimTable(ScriptSettings(seed, ruleset, players).apply(config), state_dir, seed)
        self.ctl = self.sim.controller
        self.lines: list[str] = []
        self.offset = 0.0           # the table's clock restarts at a reboot: later times are moved past it

    def emit(self, line: str) -> None:
        self.lines.append(line)
        for action in self.sim.parse(line):
            self.sim.perform(action)

    def tap(self, what: str) -> None:
        self.emit(f"tap {what}")

    def press(self, button: str) -> None:
        self.emit(f"press {button}")

    def as_player(self, player: str) -> None:
        """The next card tap acts for ``player``: their token first, unless they act already."""
        seen = look(self.ctl)
        if seen.acting != player or seen.chosen is not None and seen.chosen != player:
            self.tap(player)

    def close_menu(self) -> None:
        if look(self.ctl).prompt in MENUS:
            self.press("undo")                       # closes the menu; takes back nothing

    def close(self) -> None:
        self.sim.close()

    def _last_was_resolve(self) -> bool:
        done = self.ctl.history.commands
        return bool(len(done)) and isinstance(done[-1], c.ResolveCombat)

    # ------------------------------------------------------------ one command

    def command(self, cmd: c.Command) -> None:
        """Write the lines that make the table give ``cmd``, after the waits that bring its time."""
        clock = self.sim.clock
        state = self.ctl.state                  # as it was before the waits: what the command was given in
        target = cmd.at + self.offset
        if target < clock.monotonic():       # the clock went back (a restart): keep the order, not the gap
            self.offset += clock.monotonic() - target
            target = clock.monotonic()
        for wait in _wait_to(clock.monotonic(), target):
            self.emit(f"wait {wait!r}")
        self.write(cmd, state)

    def write(self, cmd: c.Command, state: GameState) -> None:
        """The lines of one command, by its kind; a kind the table never gives (Rename) writes none."""
        match cmd:
            case c.ResolveCombat():
                self.resolve(cmd, state)
            case c.Join():
                self.join(cmd, state)
            case c.ChooseFirstPlayer() | c.Roll():
                self.roll(cmd, state)
            case c.StartGame() | c.EndPhase() | c.Fight():
                self.press_next(cmd, state)
            case c.RunAway():
                self.run_away(cmd, state)
            case c.AddHelper():
                self.add_helper(cmd, state)
            case c.Leave():
                self.leave(cmd, state)
            case c.SetSex():
                self.set_sex(cmd, state)
            case c.AdjustLevel():
                self.adjust_level(cmd, state)
            case c.PlayCard():
                self.play_card(cmd, state)
            case c.UseCard():
                self.use_card(cmd, state)
            case c.UseAbility():
                self.use_ability(cmd, state)
            case c.Sell():
                self.sell(cmd, state)
            case c.LoseItem():
                self.lose_item(cmd, state)
            case c.ReopenWindow():
                self.reopen_window(cmd, state)
            case c.LootFromHand():
                self.tap(state.looting["body"] if state.looting else cmd.player)    # the body's token: its hand

    def resolve(self, cmd: c.ResolveCombat, state: GameState) -> None:
        if not self._last_was_resolve():    # else the wait closed the window
            self.emit("wait 0")

    def join(self, cmd: c.Join, state: GameState) -> None:
        self.tap(cmd.player)

    def roll(self, cmd: c.ChooseFirstPlayer | c.Roll, state: GameState) -> None:
        if isinstance(cmd, c.Roll) and cmd.monster >= 0 and state.combat is not None:
            self.tap(state.combat.monsters[cmd.monster].card)
        if cmd.forced is not None:
            self.emit(f"die {cmd.forced}")
        self.press("roll")

    def press_next(self, cmd: c.Command, state: GameState) -> None:
        self.press("next")

    def run_away(self, cmd: c.RunAway, state: GameState) -> None:
        self.press("run")

    def add_helper(self, cmd: c.AddHelper, state: GameState) -> None:
        self.press("help")
        self.tap(cmd.helper)

    def leave(self, cmd: c.Leave, state: GameState) -> None:
        self.tap(cmd.player)
        self.press("next")
        self.press("next")

    def set_sex(self, cmd: c.SetSex, state: GameState) -> None:
        self.tap(cmd.player)
        self.press("roll")
        self.close_menu()

    def adjust_level(self, cmd: c.AdjustLevel, state: GameState) -> None:
        self.tap(cmd.player)
        self.press("help" if cmd.delta > 0 else "run")
        self.close_menu()

    def use_card(self, cmd: c.UseCard, state: GameState) -> None:
        self.as_player(cmd.player)
        self.tap(cmd.card)
        if cmd.action in ("equip", "unequip"):
            self.press("roll")
        elif cmd.action == "discard":
            self.press("next")
        elif cmd.action in ("give", "promise"):
            self.press("run")
            self.tap(cmd.target)

    def use_ability(self, cmd: c.UseAbility, state: GameState) -> None:
        """The card's tap, HELP (RUN for the second ability possible now), then what it asks: the
        victim's token, the item and the ROLL of a theft, the monster charmed among several."""
        held = state.player(cmd.player).in_play() if state.has_player(cmd.player) else []
        card = next((k for k in held if cmd.ability in abilities_of(k, state.phase)), None)
        if card is None:
            return
        now = abilities_now(state, self.ctl.catalog, cmd.player, card, cmd.at)
        self.as_player(cmd.player)
        self.tap(card)
        self.press("run" if now[1:2] == (cmd.ability,) else "help")
        if cmd.ability in ("backstab", "theft"):
            self.tap(cmd.target)
        if cmd.ability == "theft":
            self.tap(cmd.card)
            if cmd.forced is not None:
                self.emit(f"die {cmd.forced}")
            self.press("roll")
        combat = state.combat
        if look(self.ctl).prompt == "monster" and combat is not None and 0 <= cmd.monster < len(combat.monsters):
            self.tap(combat.monsters[cmd.monster].card)
        self.close_menu()

    def sell(self, cmd: c.Sell, state: GameState) -> None:
        self.press("help")
        for card in cmd.cards:
            self.tap(card)
        self.press("next")

    def lose_item(self, cmd: c.LoseItem, state: GameState) -> None:
        if cmd.card:
            self.tap(cmd.card)
            if look(self.ctl).prompt == "receiver":
                self.tap(cmd.target)
        else:
            self.press("next")

    def reopen_window(self, cmd: c.ReopenWindow, state: GameState) -> None:
        combat = state.combat
        if combat is not None and combat.window_until is not None and combat.window_until > self.sim.clock.monotonic():
            # the window still runs: an action taken back brings it back in full
            self.tap(state.active_player or "")
            self.press("roll")
            self.press("undo")
            self.press("undo")
        else:
            if not self._last_was_resolve():
                self.emit("wait 0")              # the window has run: the tick kills the monsters
            self.press("undo")                   # and UNDO brings the fight back

    def play_card(self, cmd: c.PlayCard, state: GameState) -> None:
        self.as_player(cmd.player)
        self.tap(cmd.card)
        kind = look(self.ctl).prompt
        if kind in ("victim", "target"):
            self.tap(cmd.target)
        elif kind == "item":
            self.tap(cmd.item)
        elif kind == "side":
            self.press("roll" if cmd.side == "players" else "run")
        elif kind == "monster" and self.ctl.state.combat is not None:
            n = len(self.ctl.state.combat.monsters)
            want = cmd.monster if cmd.monster >= 0 else n - 1
            for _ in range((want - look(self.ctl).value) % n):
                self.press("roll")
            self.press("next")
        elif kind == "value":
            while (seen := look(self.ctl)).prompt is not None and seen.value != cmd.value:
                self.press("roll")
                if len(self.lines) > 10_000:
                    break
            self.press("next")


def _same(a: c.Command, b: c.Command) -> bool:
    return dataclasses.replace(a, at=0.0) == dataclasses.replace(b, at=0.0)


def export_script(config: Config, seed: int, ruleset: Ruleset, commands: list[c.Command], *,
                  game_id: int | None = None) -> str:
    """The table script that plays ``commands`` again; raises ExportError on one it cannot write."""
    players = {cmd.player: (cmd.name_, cmd.sex) for cmd in commands if isinstance(cmd, c.Join)}
    title = f"munchkin-table export{f' of game {game_id}' if game_id is not None else ''}: {len(commands)} actions"
    header = [*script_header(title, ScriptSettings(seed, ruleset, players)),
              "# replay it with: munchkin-table simulate THIS_FILE"]
    with tempfile.TemporaryDirectory(prefix="munchkin-export-") as tmp:
        exporter = Exporter(config, seed, ruleset, players, Path(tmp))
        try:
            _replays_whole(exporter.sim.table.catalog, seed, ruleset, commands, game_id)
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


def _replays_whole(catalog: Catalog, seed: int, ruleset: Ruleset, commands: list[c.Command], game_id: int | None) -> None:
    """Raise ExportError unless the game replays whole as the table replays it (what ``state``
    shows): an export never holds more or fewer actions than the table does."""
    kept = History(catalog, seed, ruleset).load(list(commands))
    if kept < len(commands):
        game = f"game {game_id}" if game_id is not None else "the game"
        raise ExportError(f"{game} replays to action {kept} of its {len(commands)} actions (action {kept + 1} is "
                          f"refused now), so 'state' shows {kept}: nothing exported; 'munchkin-table run' cuts the "
                          f"journal there (keeping the whole file aside), then export writes the game it shows")


def export_game(config: Config, game: int | None = None) -> str:
    """The game ``game`` (the live, latest one by default) of the table's state directory, as a script."""

    path = config.state_dir / JOURNAL_FILE
    if not path.exists():
        raise ExportError(f"no game to export: no journal in {config.state_dir}")
    journal = Journal(path, read_only=True)      # export only reads: nothing there is moved or repaired
    try:
        if game is None:
            record = journal.latest_game()
            if record is None:
                raise ExportError(f"no game to export in {config.state_dir}")
        else:
            record = journal.game(game)
            if record is None:
                raise ExportError(f"no game {game} in {config.state_dir}")
        commands = journal.commands(record.id)
    finally:
        journal.close()
    return export_script(config, record.seed, record.ruleset, commands, game_id=record.id)
