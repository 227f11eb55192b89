"""Looting the body: after a death, the other players take one card each from it, highest level first.

The box sees only the dead player's items (the hand is laid out too, but it has no tags in play).
The order holds for every pick: the looter whose pick it is takes an item by tapping it (after their
token, as for any card played for someone else), or says they took a card from the hand
(``LootFromHand``); nobody later in the order picks before them, and each picks once. What nobody
takes is discarded when the next turn begins.
"""

from __future__ import annotations

from engine import commands as c
from engine.cards import Catalog, CardDef
from engine.events import GameEvent, HandLooted, ItemTaken, LootOrderRolled
from engine.flow import die_roll
from engine.messages import msg, Seq
from engine.results import Refusal, RejectCode
from engine.state import GameState, Phase, Player
from engine.strength import big_problem, restriction_problem, slot_problem


def start_looting(state: GameState, body: Player, items: list[str], order: list[str], ties: list[str]) -> None:
    """``order``: the looters, highest level first; ``ties``: those at the same level as another, who roll
    the die at the table (``to_roll``, one ROLL each) before anybody picks."""
    state.looting = {"body": body.id, "items": list(items), "order": list(order), "taken": [],
                     "waiting": list(order)}
    if ties:
        state.looting["to_roll"] = list(ties)
        state.looting["rolls"] = {}


def looting_order(state: GameState, body: Player) -> tuple[list[str], list[str]]:
    """The living players but ``body``, highest level first (seat order within a level), and those
    tied at a level with another: the die decides their order."""
    others = sorted((p for p in state.players if p.id != body.id and p.alive), key=lambda p: -p.level)
    levels = [p.level for p in others]
    return [p.id for p in others], [p.id for p in others if levels.count(p.level) > 1]


def tie_roller(state: GameState) -> str | None:
    """The looter who rolls next for the looting order, or None."""
    loot = state.looting
    rolling: list[str] = loot.get("to_roll", []) if loot else []
    return rolling[0] if rolling else None


def roll_for_looting_order(state: GameState, forced: int | None, events: list[GameEvent]) -> None:
    """A tied looter's ROLL: once every tied looter has rolled, the highest roll loots first (equal
    rolls roll again)."""
    loot = state.looting
    assert loot is not None and loot.get("to_roll")
    value = die_roll(state, forced)
    roller = loot["to_roll"].pop(0)
    loot["rolls"][roller] = value
    events.append(LootOrderRolled(player=roller, roll=value))
    if not loot["to_roll"]:
        settle_looting_order(state)


def settle_looting_order(state: GameState) -> None:
    loot = state.looting
    assert loot is not None
    level = {p.id: p.level for p in state.players}
    rolls: dict[str, int] = loot["rolls"]

    def rank(pid: str) -> tuple[int, int]:
        return -level.get(pid, 0), -rolls.get(pid, 0)

    order = sorted(loot["order"], key=rank)
    again = [pid for pid in order if pid in rolls and [rank(q) for q in order].count(rank(pid)) > 1]
    for pid in again:
        del rolls[pid]
    loot["to_roll"] = again
    loot["order"] = order
    loot["waiting"] = [pid for pid in order if pid in loot["waiting"]]


def drop_looter(state: GameState, player_id: str) -> None:
    """A player leaves the game: out of the looting (their body goes with them)."""
    loot = state.looting
    if loot is None:
        return
    if loot["body"] == player_id:
        state.looting = None
        return
    for key in ("order", "waiting", "to_roll"):
        if key in loot:
            loot[key] = [p for p in loot[key] if p != player_id]
    if "rolls" in loot:
        loot["rolls"].pop(player_id, None)
        if not loot["to_roll"]:
            settle_looting_order(state)


def is_loot(state: GameState, card: CardDef, player_id: str) -> bool:
    """Whether playing ``card`` for ``player_id`` means taking it from the body."""
    loot = state.looting
    if loot is None or card.id not in loot["items"]:
        return False
    return card.copies <= 1 or player_id in loot["waiting"]


def take_from_body(state: GameState, card: CardDef, player: Player, catalog: Catalog,
                   events: list[GameEvent]) -> None:
    loot = state.looting
    assert loot is not None
    body = _body(state)
    require_looters_turn(state, player, card)
    big = big_problem(card, player, catalog)
    if big:
        raise Refusal(RejectCode.ILLEGAL_PLAY, "{big}; take another card from {body}'s body", big=big, body=body)
    loot["waiting"].pop(0)
    loot["items"].remove(card.id)
    loot["taken"].append([player.id, card.id])
    fighting = state.phase in (Phase.COMBAT, Phase.RUN_AWAY)
    if not fighting and restriction_problem(card, player) is None and slot_problem(card, player, catalog) is None:
        player.equipped.append(card.id)
    else:
        player.carried.append(card.id)
    over = not loot["waiting"] or not loot["items"]
    events.append(ItemTaken(player=player.id, from_=loot["body"], card=card.id, by="looting", passed=(),
                            discarded=tuple(loot["items"]) if over else ()))
    if over:
        state.looting = None


def do_loot_from_hand(state: GameState, cmd: c.LootFromHand, catalog: Catalog, events: list[GameEvent]) -> None:
    """The looter whose pick it is took a card from the dead player's hand: the next looter picks."""
    loot = state.looting
    if loot is None or not loot["waiting"]:
        raise Refusal(RejectCode.ILLEGAL_PLAY, "nobody is looting a body now")
    if not state.has_player(cmd.player):
        raise Refusal(RejectCode.ILLEGAL_TARGET, "{player} is not playing", player=cmd.player)
    player = state.player(cmd.player)
    require_looters_turn(state, player, None)
    loot["waiting"].pop(0)
    over = not loot["waiting"] or not loot["items"]
    events.append(HandLooted(player=player.id, from_=loot["body"], discarded=tuple(loot["items"]) if over else ()))
    if over:
        state.looting = None


def _body(state: GameState) -> Player | str:
    loot = state.looting
    assert loot is not None
    return state.player(loot["body"]) if state.has_player(loot["body"]) else loot["body"]


def require_looters_turn(state: GameState, player: Player, card: CardDef | None) -> None:
    """Looting goes from the highest level down: only the looter whose pick it is picks now."""
    loot = state.looting
    assert loot is not None
    body = _body(state)
    waiting: list[str] = loot["waiting"]
    roller = tie_roller(state)
    if roller is not None:
        tied = Seq((state.player(p) for p in [roller, *loot["to_roll"][1:]] if state.has_player(p)), "and")
        raise Refusal(RejectCode.NOT_YOUR_TURN, "looting {body}'s body waits for the die: {tied} are at the same level, "
                      "and {roller} presses ROLL next", body=body, tied=tied, roller=state.player(roller))
    if waiting and player.id == waiting[0]:
        return
    names = Seq((state.player(p) for p in waiting if state.has_player(p)), "list")
    if player.id == loot["body"]:
        why = msg("{player} is dead and cannot loot their own body", player=player)
    elif player.id in waiting:
        why = msg("{first} picks before {player}: looting {body}'s body goes from the highest level down",
                  first=state.player(waiting[0]), player=player, body=body)
    elif player.id in loot["order"]:
        why = msg("{player} has had their pick from {body}'s body", player=player, body=body)
    else:
        why = msg("{player} does not loot {body}'s body", player=player, body=body)
    if card is None:
        raise Refusal(RejectCode.NOT_YOUR_TURN, "{why}; in order: {names}", why=why, names=names)
    raise Refusal(RejectCode.NOT_YOUR_TURN,
                  "{why}; {card} goes to the next looter, in order: {names} (tap the token, then the card)", why=why, card=card, names=names)
