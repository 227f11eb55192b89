"""The state JSON of design §4, with the derived numbers the screen and checks need."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.cards import Catalog
from engine.state import Combat, Flight, GameState, PendingLoss, Phase, Player
from engine.looting import tie_roller
from engine.run_away import must_choose_catch, roller_entries
from engine.strength import combat_totals, fighter_strength, monster_strength, player_strength, players_win
from engine.turns import charity_receivers, hand_limit


def state_to_json(state: GameState, catalog: Catalog,
                  players: Callable[[GameState, Player, Catalog], dict[str, Any]] | None = None) -> dict[str, Any]:
    """The state JSON: the keys design §4 requires, then what the screen and the checks derive.
    ``players`` makes each player's part (``player_json`` unless given: a caller may keep them)."""
    each = players or player_json
    return {
        "phase": state.phase.value,
        "turn": state.turn,
        "active_player": state.active_player,
        "players": [each(state, p, catalog) for p in state.players],
        "combat": combat_json(state, state.combat, catalog) if state.combat is not None else None,
        "run_away": flight_json(state, state.flight) if state.flight is not None else None,
        "winners": list(state.winners),
        "last_roll": state.last_roll,
        "treasures_to_draw": state.treasures_to_draw,
        "treasures_face_up": state.treasures_face_up,
        "charity": charity_json(state),
        "pending_loss": loss_json(state.pending_loss) if state.pending_loss is not None else None,
        "looting": state.looting,
        "warnings": list(state.warnings),
        "ruleset": state.ruleset.to_dict(),
        "prompt": standing_prompt_json(state, catalog),
    }


def player_json(state: GameState, p: Player, catalog: Catalog) -> dict[str, Any]:
    """One player; ``combat_strength`` is the fight's figure for a fighter, else level and gear."""
    in_fight = state.combat is not None and p.id in state.combat.fighters
    return {
        "id": p.id, "name": p.name, "sex": p.sex, "level": p.level,
        "races": list(p.races), "classes": list(p.classes),
        "equipped": list(p.equipped), "carried": list(p.carried), "curses": list(p.curses),
        "combat_strength": (fighter_strength(state, state.combat, p, catalog) if in_fight and state.combat
                            else player_strength(p, catalog)),
        "alive": p.alive,
        "level_history": list(p.level_history),
        "specials": list(p.specials), "cheat_on": p.cheat_on, "next_combat": list(p.next_combat),
    }


def combat_json(state: GameState, cb: Combat, catalog: Catalog) -> dict[str, Any]:
    fighters = [state.player(f) for f in cb.fighters]
    ps, ms = combat_totals(state, cb, catalog)
    return {
        "monsters": [{"card": m.card, "strength": monster_strength(m, fighters, catalog),
                      "enhancers": list(m.enhancers), "slain": m.slain, "mate": m.mate}
                     for m in cb.monsters],
        "bonuses": dict(cb.bonuses), "backstabs": [list(b) for b in cb.backstabs],
        "wandering_pending": cb.wandering_pending, "illusion_pending": cb.illusion_pending,
        "fighters": list(cb.fighters),
        "helper": cb.helper,
        "one_shots": [{"card": s.card, "side": s.side, "bonus": s.bonus} for s in cb.one_shots],
        "players_strength": ps, "monsters_strength": ms,
        "players_winning": players_win(state, cb, catalog),
        "window_until": cb.window_until,
    }


def flight_json(state: GameState, flight: Flight) -> dict[str, Any]:
    """The run away. "monster" keeps its first meaning in each list (a card id in pending, an index in
    results); both lists also name it both ways: monster_card (the card id) and monster_index."""
    monsters = state.combat.monsters if state.combat else []

    def monster_card(index: int) -> str | None:
        return monsters[index].card if 0 <= index < len(monsters) else None

    def result_card(n: int, index: int) -> str | None:
        return flight.result_cards[n] if n < len(flight.result_cards) else monster_card(index)

    return {"bonus": dict(flight.bonus),
            "pending": [{"player": p, "monster": monster_card(i), "monster_card": monster_card(i), "monster_index": i}
                        for p, i in flight.pending],
            "results": [{"player": p, "monster": i, "monster_card": result_card(n, i), "monster_index": i,
                         "roll": r, "escaped": e}
                        for n, (p, i, r, e) in enumerate(flight.results)]}


def charity_json(state: GameState) -> dict[str, Any] | None:
    if state.phase is not Phase.CHARITY or not state.active_player:
        return None
    return {"hand_limit": hand_limit(state, state.player(state.active_player)), "receivers": charity_receivers(state)}


def loss_json(pl: PendingLoss) -> dict[str, Any]:
    return {"player": pl.player, "kind": pl.kind, "count": pl.count, "gold": pl.gold,
            "lost_gold": pl.lost_gold, "source": pl.source, "prompt": "tap the item to lose"}


def standing_prompt_json(state: GameState, catalog: Catalog | None = None) -> dict[str, Any] | None:
    """What the game itself waits for (``prompt`` in the state JSON), or None.

    ``kind`` names the question, ``player`` who answers, ``card`` the card it is about and ``expects``
    the answer: an ``item`` tap, a ``player-token`` (then an item), a ``monster`` card, a ``roll``.
    """
    roll = state.pending_roll
    if roll is not None:
        return {"kind": "bad-stuff-roll", "player": roll.player, "card": roll.source, "expects": "roll"}
    loss = state.pending_loss
    if loss is not None:
        return {"kind": "lose-item" if loss.source != "big-item-limit" else "give-up-big-item",
                "player": loss.player, "card": loss.source if loss.source != "big-item-limit" else None,
                "expects": "class-card" if loss.kind == "class" else "item", "item_kind": loss.kind,
                "count": loss.count}
    loot = state.looting
    roller = tie_roller(state)
    if loot and roller is not None:
        return {"kind": "loot-roll", "player": roller, "card": None, "expects": "roll", "body": loot["body"],
                "tied": list(loot["to_roll"])}
    if loot and loot.get("waiting") and loot.get("items"):
        return {"kind": "loot", "player": loot["waiting"][0], "card": None, "expects": "player-token",
                "body": loot["body"], "items": list(loot["items"])}
    combat = state.combat
    if combat is not None and catalog is not None and must_choose_catch(state, catalog):
        left = roller_entries(state)
        return {"kind": "flee-order", "player": left[0][0], "card": None, "expects": "monster",
                "monsters": [combat.monsters[i].card for _, i in left]}
    if combat is not None and state.phase is Phase.COMBAT:
        if combat.wandering_pending:
            return {"kind": "wandering-monster", "player": None, "card": "wandering-monster",
                    "expects": "monster"}
        if combat.illusion_pending >= 0:
            return {"kind": "illusion", "player": None, "card": "illusion", "expects": "monster"}
    return None
