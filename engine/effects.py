"""The effect vocabulary: the steps that card data is written in, and what each does.

``OPS`` names every op with the arguments it takes; the catalog loader checks
card data against it, so a card can only say what the engine can do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.cards import Catalog, Effect, Slot
from engine.results import Event
from engine.state import GameState, Player

# op -> {argument: type}
OPS: dict[str, dict[str, type]] = {
    # bad stuff and curses
    "lose-levels": {"n": int},
    "death": {},
    "lose-slot": {"slot": str},
    "lose-big-items": {},
    "lose-all-items": {},
    "lose-race": {},
    "lose-class": {},
    "manual": {"text": str},          # the box cannot do it; the screen tells the players
    "lasting": {},                    # a curse that stays in front of its victim
    # monster enhancers
    "treasure-mod": {"n": int},
    # items
    "run-away-bonus": {"bonus": int},
    "bonus-vs-trait": {"trait": str, "bonus": int},
}


def check_effect(effect: Effect) -> str | None:
    """What is wrong with ``effect`` against the vocabulary, or None."""
    spec = OPS.get(effect.op)
    if spec is None:
        return f"unknown effect {effect.op!r}; known: {', '.join(sorted(OPS))}"
    for key, value in effect.args.items():
        if key not in spec:
            return f"effect {effect.op!r} takes no argument {key!r}"
        if not isinstance(value, spec[key]) or isinstance(value, bool):
            return f"effect {effect.op!r}: {key} must be {spec[key].__name__}, got {value!r}"
    missing = set(spec) - set(effect.args)
    if missing:
        return f"effect {effect.op!r} needs {', '.join(sorted(missing))}"
    return None


def lose_levels(state: GameState, player: Player, n: int, events: list[Event]) -> None:
    before = player.level
    player.level = max(state.ruleset.level_floor, player.level - n)
    if player.level != before:
        events.append(Event("LevelLost", {"player": player.id, "from": before, "to": player.level}))


def _items_where(player: Player, catalog: Catalog, keep: Callable[[str], bool]) -> list[str]:
    lost = [c for c in [*player.equipped, *player.carried] if not keep(c)]
    player.equipped = [c for c in player.equipped if keep(c)]
    player.carried = [c for c in player.carried if keep(c)]
    return lost


def kill(state: GameState, player: Player, events: list[Event]) -> None:
    player.alive = False
    lost = [*player.equipped, *player.carried]
    player.equipped.clear()
    player.carried.clear()
    if not state.ruleset.death_keeps_race_and_class:
        player.races.clear()
        player.classes.clear()
    events.append(Event("PlayerDied", {"player": player.id, "lost": lost}))


def apply_effects(state: GameState, player: Player, effects: Iterable[Effect], catalog: Catalog,
                  events: list[Event], *, source: str) -> None:
    """Apply bad stuff or a curse to ``player``."""
    for effect in effects:
        if not player.alive:
            return
        op = effect.op
        if op == "lose-levels":
            lose_levels(state, player, int(effect.get("n", 1)), events)
        elif op == "death":
            kill(state, player, events)
        elif op == "lose-slot":
            slot = Slot(effect.get("slot"))
            lost = _items_where(player, catalog, lambda c: catalog[c].slot is not slot)
            events.append(Event("ItemsLost", {"player": player.id, "cards": lost, "source": source}))
        elif op == "lose-big-items":
            lost = _items_where(player, catalog, lambda c: not catalog[c].big)
            events.append(Event("ItemsLost", {"player": player.id, "cards": lost, "source": source}))
        elif op == "lose-all-items":
            lost = _items_where(player, catalog, lambda c: False)
            events.append(Event("ItemsLost", {"player": player.id, "cards": lost, "source": source}))
        elif op == "lose-race":
            player.races.clear()
            events.append(Event("RaceLost", {"player": player.id, "source": source}))
        elif op == "lose-class":
            player.classes.clear()
            events.append(Event("ClassLost", {"player": player.id, "source": source}))
        elif op == "manual":
            events.append(Event("PlayersMustAct", {"player": player.id, "text": effect.get("text", ""),
                                                   "source": source}))
