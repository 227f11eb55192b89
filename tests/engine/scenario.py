"""A compact scenario builder: a game with N players at given levels, races, classes and items,
built by replaying commands (never by touching the state's insides)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import commands as c
from engine.game import apply, new_game
from engine.results import Accepted, Rejected
from engine.rules import Ruleset
from engine.serialize import state_to_json
from engine.state import GameState


@dataclass
class Table:
    catalog: Any
    state: GameState
    commands: list[c.Command] = field(default_factory=list)
    events: tuple = ()
    at: float = 0.0

    def do(self, cmd: c.Command) -> "Table":
        result = apply(self.state, cmd, self.catalog)
        assert isinstance(result, Accepted), f"{cmd} refused: {result}"
        self.state, self.events = result.state, result.events
        self.commands.append(cmd)
        return self

    def attempt(self, cmd: c.Command) -> Accepted | Rejected:
        result = apply(self.state, cmd, self.catalog)
        if isinstance(result, Accepted):
            self.state, self.events = result.state, result.events
            self.commands.append(cmd)
        return result

    # short forms -------------------------------------------------------
    def play(self, card: str, player: str = "player-1", **kw: Any) -> "Table":
        return self.do(c.PlayCard(player=player, card=card, at=self.at, **kw))

    def use(self, card: str, action: str, player: str = "player-1", **kw: Any) -> "Table":
        return self.do(c.UseCard(player=player, card=card, action=action, **kw))

    def ability(self, ability: str, player: str = "player-1", **kw: Any) -> "Table":
        return self.do(c.UseAbility(player=player, ability=ability, at=self.at, **kw))

    def help(self, helper: str) -> "Table":
        return self.do(c.AddHelper(player=self.state.active_player or "", helper=helper, at=self.at))

    def fight(self) -> "Table":
        return self.do(c.Fight(player=self.state.active_player or "", at=self.at))

    def win_fight(self) -> "Table":
        self.fight()
        self.at += 10
        return self.do(c.ResolveCombat(player=self.state.active_player or "", at=self.at))

    def run(self) -> "Table":
        """RUN; running away is for a fight the players cannot win, so a fight they would win is first
        turned (Magic Missiles for the monsters, thrown by a player outside the fight)."""
        self.make_losing()
        return self.do(c.RunAway(player=self.state.active_player or ""))

    def make_losing(self) -> "Table":
        from engine.strength import players_win

        combat = self.state.combat
        if combat is None:
            return self
        outsider = next((p.id for p in self.state.players if p.id not in combat.fighters), combat.fighters[0])
        while self.state.combat is not None and players_win(self.state, self.state.combat, self.catalog):
            self.do(c.PlayCard(player=outsider, card="magic-missile", side="monsters", at=self.at))
        return self

    def roll(self, n: int) -> "Table":
        return self.do(c.Roll(player="", forced=n))

    def next(self, player: str | None = None) -> "Table":
        return self.do(c.EndPhase(player=player or self.state.active_player or ""))

    def end_turn(self) -> "Table":
        while self.state.phase.value != "charity":
            self.next()
        return self.next()

    def p(self, n: int):  # type: ignore[no-untyped-def]
        return self.state.player(f"player-{n}")

    def json(self) -> dict[str, Any]:
        return state_to_json(self.state, self.catalog)

    def strengths(self) -> tuple[int, int]:
        j = self.json()["combat"]
        return j["players_strength"], j["monsters_strength"]


def scenario(catalog: Any, players: int = 3, *, levels: dict[int, int] | None = None,
             races: dict[int, list[str]] | None = None, classes: dict[int, list[str]] | None = None,
             items: dict[int, list[str]] | None = None, sexes: dict[int, str] | None = None,
             ruleset: Ruleset | None = None, seed: int = 7, monster: str | None = None) -> Table:
    """A started game, player-1 to act in kick-open-the-door (or fighting ``monster``)."""
    rs = ruleset or Ruleset(min_players=min(3, players))
    t = Table(catalog, new_game(seed, rs))
    for n in range(1, players + 1):
        t.do(c.Join(player=f"player-{n}", sex=(sexes or {}).get(n, "male")))
    t.do(c.StartGame(player="player-1"))
    for n in range(1, players + 1):
        pid = f"player-{n}"
        if (levels or {}).get(n, 1) > 1:
            t.do(c.AdjustLevel(player=pid, delta=(levels or {})[n] - 1))
        for card in (races or {}).get(n, []):
            t.play(card, pid)
        for card in (classes or {}).get(n, []):
            t.play(card, pid)
        for card in (items or {}).get(n, []):
            t.play(card, pid)
    if monster:
        t.play(monster)
    return t


def apply_checked(state: GameState, cmd: c.Command, catalog) -> Accepted | Rejected:  # type: ignore[no-untyped-def]
    """``apply``, asserting what every refusal must keep: a code, a message, and the state untouched."""
    import json

    before = json.dumps(state_to_json(state, catalog), sort_keys=True)
    previous = state.clone()
    result = apply(state, cmd, catalog)
    if isinstance(result, Rejected):
        assert result.code and result.message
        assert state == previous
        assert json.dumps(state_to_json(state, catalog), sort_keys=True) == before
    return result
