"""The prompts that wait for one choice before a command: a player's token (helper, victim, target,
give, promise, receiver), an item, a number, one of several monsters, or a side of the fight."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import commands as c
from engine.card_menu import big_item_receivers
from engine.cards import CardDef, Kind
from engine.items import BIG_LIMIT
from engine.legal import Need, ability_use
from engine.state import Phase
from engine.messages import Seq, msg, word
from table.control.prompts import Desk, Keys, Outcome, Prompt, PromptKind

TOKEN_ANSWERS = (PromptKind.HELPER, PromptKind.VICTIM, PromptKind.TARGET, PromptKind.GIVE, PromptKind.PROMISE,
                 PromptKind.RECEIVER)


def ask(desk: Desk, card: CardDef, acting: str, need: Need) -> Outcome:
    """The prompt for the token, item, number, monster or side that ``card`` needs."""
    combat = desk.state.combat
    if need is Need.MONSTER and combat is not None:
        prompt = Prompt(PromptKind.MONSTER, "", card=card.id, player=acting, value=len(combat.monsters) - 1)
        prompt = replace(prompt, text=monster_text(desk, prompt))
        return desk.show(prompt)
    texts = {Need.VICTIM: msg("{card}: tap the victim's token", card=card),
             Need.TARGET: msg("{card}: tap the player's token", card=card),
             Need.ITEM: msg("{card}: tap the item", card=card),
             Need.VALUE: msg("{card}: ROLL sets the number, NEXT uses it", card=card),
             Need.SIDE: msg("{card}: for the players (ROLL) or the monsters (RUN)?", card=card)}
    return desk.show(Prompt(PromptKind(need.value), texts[need], card=card.id, player=acting,
                            value=6 if need is Need.VALUE else 0))


def open_helper(desk: Desk) -> Outcome:
    return desk.show(Prompt(PromptKind.HELPER, msg("tap the helper's token")), msg("tap the token of the player who helps"))


def tap_token(desk: Desk, prompt: Prompt, token: str) -> Outcome | None:
    """A token tapped while a choice is open: the answer, or None when it answers nothing here."""
    state, now = desk.state, desk.now
    kind = prompt.kind
    if kind is PromptKind.SIDE:
        if state.combat is None:
            return None
        if token in state.combat.fighters:
            return play(desk, prompt, side="players")
        return desk.refuse(msg("{who} is not in the fight: ROLL helps the players, RUN the monsters, or tap a fighter's "
                               "token or a monster", who=state.player(token)))
    if kind not in TOKEN_ANSWERS:
        return None
    desk.close()
    if kind is PromptKind.HELPER:
        return desk.submit(c.AddHelper(player=state.active_player or "", helper=token, at=now))
    if kind is PromptKind.TARGET and _is_ability(desk, prompt):
        return _ability_token(desk, prompt, token)
    if kind in (PromptKind.VICTIM, PromptKind.TARGET):
        return desk.submit(c.PlayCard(player=prompt.player, card=prompt.card, target=token, at=now))
    if kind in (PromptKind.GIVE, PromptKind.PROMISE):
        return desk.submit(c.UseCard(player=prompt.player, card=prompt.card, action=kind.value, target=token, at=now))
    return desk.submit(c.LoseItem(player=prompt.player, card=prompt.card, target=token, at=now))


def _is_ability(desk: Desk, prompt: Prompt) -> bool:
    """Whether the open choice is for a race or class ability (the prompt's card is the race or class)."""
    return bool(prompt.card) and desk.catalog[prompt.card].kind in (Kind.RACE, Kind.CLASS)


def _ability_token(desk: Desk, prompt: Prompt, token: str) -> Outcome:
    """Backstab: the token is the victim; the ability is used. Steal: the token is the victim; the item
    they have in play is tapped next."""
    state = desk.state
    if state.phase is Phase.COMBAT:
        return desk.submit(ability_use(state, desk.catalog, prompt.player, "backstab", desk.now, target=token))
    victim = state.player(token)
    return desk.show(Prompt(PromptKind.ITEM, msg("Steal: tap the small item of {victim}'s to steal", victim=victim),
                            card=prompt.card, player=prompt.player, choices=(token,)))


def _steal_item(desk: Desk, prompt: Prompt, card_id: str) -> Outcome:
    """Steal: the item tapped; ROLL then rolls for it (4 or more takes it, else a level is lost)."""
    victim = desk.state.player(prompt.choices[0])
    if card_id not in [*victim.equipped, *victim.carried]:
        return desk.refuse(msg("Steal: tap the small item of {victim}'s to steal", victim=victim))
    item = desk.catalog[card_id]
    return desk.show(Prompt(PromptKind.ITEM, msg("Steal {item} from {victim}: press ROLL (4 or more takes it, less "
                                                 "costs a level)", item=item, victim=victim),
                            card=prompt.card, player=prompt.player, choices=(victim.id, card_id)))


def _steal_roll(desk: Desk, prompt: Prompt) -> Outcome:
    forced, desk.forced_die = desk.forced_die, None
    desk.close()
    return desk.submit(ability_use(desk.state, desk.catalog, prompt.player, "theft", desk.now, target=prompt.choices[0],
                                   card=prompt.choices[1], forced=forced))


def tap_card(desk: Desk, prompt: Prompt, card_id: str) -> Outcome | None:
    """A card tapped while a choice is open: the item, the monster or the monsters' side; else None."""
    combat = desk.state.combat
    if prompt.kind is PromptKind.ITEM and _is_ability(desk, prompt):
        return _steal_item(desk, prompt, card_id)
    if prompt.kind is PromptKind.ITEM:
        desk.close()
        return desk.submit(c.PlayCard(player=prompt.player, card=prompt.card, item=card_id, at=desk.now))
    fighting = [m.card for m in combat.monsters] if combat is not None else []
    if prompt.kind is PromptKind.MONSTER and card_id in fighting:
        desk.close()
        return play(desk, prompt, monster=fighting.index(card_id))
    if prompt.kind is PromptKind.SIDE and card_id in fighting:
        return play(desk, prompt, side="monsters")
    return None


def play(desk: Desk, prompt: Prompt, **choice: Any) -> Outcome:
    desk.close()
    if _is_ability(desk, prompt):                  # Charm: the monster chosen
        return desk.submit(ability_use(desk.state, desk.catalog, prompt.player, "charm", desk.now,
                                       monster=int(choice.get("monster", -1))))
    return desk.submit(c.PlayCard(player=prompt.player, card=prompt.card, at=desk.now, **choice))


def monster_text(desk: Desk, prompt: Prompt) -> Any:
    combat = desk.state.combat
    assert combat is not None
    chosen = desk.catalog[combat.monsters[prompt.value].card]
    return msg("{card}: tap the monster it is for, or ROLL to choose and NEXT ({monster}, {i} of {n})",
               card=desk.catalog[prompt.card], monster=chosen, i=prompt.value + 1, n=len(combat.monsters))


def press(desk: Desk, prompt: Prompt, button: str) -> Outcome | None:
    if prompt.kind is PromptKind.ITEM and _is_ability(desk, prompt) and len(prompt.choices) == 2 and button == "roll":
        return _steal_roll(desk, prompt)
    if prompt.kind is PromptKind.VALUE:
        return _press_value(desk, prompt, button)
    if prompt.kind is PromptKind.MONSTER:
        return _press_monster(desk, prompt, button)
    if prompt.kind is PromptKind.SIDE and button in ("roll", "run"):
        return play(desk, prompt, side="players" if button == "roll" else "monsters")
    return None


def _press_monster(desk: Desk, prompt: Prompt, button: str) -> Outcome:
    combat = desk.state.combat
    if combat is None:
        desk.close()
        return desk.refuse(msg("the combat is over"))
    if button == "roll":
        stepped = replace(prompt, value=(prompt.value + 1) % len(combat.monsters))
        return desk.show(replace(stepped, text=monster_text(desk, stepped)))
    if button == "next":
        return play(desk, prompt, monster=prompt.value)
    return desk.refuse(msg("{button} does nothing here: ROLL chooses the monster, NEXT confirms, UNDO cancels",
                           button=word(button.upper())))


def _press_value(desk: Desk, prompt: Prompt, button: str) -> Outcome:
    if button == "roll":
        stepped = replace(prompt, value=prompt.value % 6 + 1)
        return desk.show(stepped, msg("{card}: {n}; NEXT uses it", card=desk.catalog[prompt.card], n=stepped.value))
    if button == "next":
        return play(desk, prompt, value=prompt.value)
    return desk.refuse(msg("{button} does nothing here: ROLL sets the number, NEXT uses it, UNDO cancels",
                           button=word(button.upper())))


def soft_keys(desk: Desk, prompt: Prompt) -> Keys | None:
    if prompt.kind is PromptKind.ITEM and len(prompt.choices) == 2:
        return {"roll": word("Roll"), "help": "", "run": "", "next": "", "undo": word("Cancel")}
    if prompt.kind is PromptKind.VALUE:
        return {"roll": f"{prompt.value % 6 + 1}", "help": "", "run": "", "next": msg("Use {n}", n=prompt.value),
                "undo": word("Cancel")}
    if prompt.kind is PromptKind.MONSTER:
        return {"roll": word("Next monster"), "help": "", "run": "", "next": word("This one"), "undo": word("Cancel")}
    if prompt.kind is PromptKind.SIDE:
        return {"roll": word("For the players"), "help": "", "run": word("For the monsters"), "next": "",
                "undo": word("Cancel")}
    return None


def lose_item(desk: Desk, card_id: str) -> Outcome | None:
    """While the game waits for an item to lose, a tap of that player's item loses it (a Big item over
    the limit goes to the lowest-level player: when several are lowest, their tokens choose)."""
    state = desk.state
    loss = state.pending_loss
    if loss is None:
        return None
    player = state.player(loss.player)
    if loss.kind == "class" and card_id in player.classes:       # "lose your class" with two: the one tapped
        return desk.submit(c.LoseItem(player=player.id, card=card_id, at=desk.now))
    if card_id not in [*player.equipped, *player.carried]:
        return None
    card = desk.catalog[card_id]
    if loss.source == BIG_LIMIT and card.big:
        receivers = big_item_receivers(state, player, card, desk.catalog)
        if len(receivers) > 1:
            names = Seq((state.player(r) for r in receivers), "list")
            return desk.show(Prompt(PromptKind.RECEIVER, msg("{card} goes to the lowest-level player: tap the token of "
                                                             "{names}", card=card, names=names),
                                    card=card_id, player=player.id))
    return desk.submit(c.LoseItem(player=player.id, card=card_id, at=desk.now))


def loot_from_hand(desk: Desk, token: str) -> Outcome | None:
    """Looting a body, the dead player's token stands for their hand laid out: the looter whose pick it
    is took a card from it (the box cannot see which). None where no body is being looted."""
    loot = desk.state.looting
    if not loot or token != loot.get("body") or not loot.get("waiting"):
        return None
    desk.close()
    return desk.submit(c.LootFromHand(player=loot["waiting"][0], at=desk.now))


def flee_from(desk: Desk, card_id: str) -> Outcome | None:
    """Running away: the fleeing player taps which monster the next roll is against."""
    state = desk.state
    if state.phase is not Phase.RUN_AWAY or state.flight is None or not state.flight.pending or state.combat is None:
        return None
    combat = state.combat
    roller = state.flight.pending[0][0]
    left = [i for p, i in state.flight.pending if p == roller and combat.monsters[i].card == card_id]
    if not left:
        return None
    desk.roll_against = left[0]
    return Outcome(True, desk.say(msg("{who} rolls next against {card}: press ROLL", who=state.player(roller),
                                      card=desk.catalog[card_id])))
