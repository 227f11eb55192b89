"""The card menu: a card already in play, tapped, offers equip/unequip, its ability or a sale, give or
promise, discard and back on the soft keys."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import commands as c
from engine.legal import CARD_ABILITIES, NEEDS_TOKEN, abilities_now, abilities_of, ability_use, menu_actions, why_not
from engine.messages import Seq, msg, word
from table.control.choices import monster_text
from table.control.prompts import Desk, Keys, Outcome, Prompt, PromptKind

# The card menu's RUN label for an item: give it, or promise it to a helper.
GIVE_LABELS = {"give": word("Give"), "promise": word("Promise")}

# The card menu's HELP label for each ability.
ABILITY_LABELS = {"berserk": word("Berserk"), "turning": word("Turning"), "charm": word("Charm"),
                  "flight": word("Flight"), "backstab": word("Backstab"), "reroll": word("Reroll"),
                  "chase": word("Chase off"), "theft": word("Steal")}

# When each ability can be used, for the refusal when none can be now.
ABILITY_WHEN = {"berserk": msg("Berserk: in a fight you are in"),
                "turning": msg("Turning: in a fight against Undead"),
                "chase": msg("Chase off: in a fight against a monster whose card says so"),
                "charm": msg("Charm: in a fight you are in, discarding your whole hand (at least 3 cards)"),
                "flight": msg("Flight: after a run-away roll, before the next"),
                "backstab": msg("Backstab: in a fight, against a player in it"),
                "theft": msg("Steal: out of combat, a small item another player has in play"),
                "reroll": msg("Reroll: right after a failed run-away roll")}


def open_menu(desk: Desk, card_id: str, holder: str) -> Outcome:
    card = desk.catalog[card_id]
    prompt = Prompt(PromptKind.CARD_MENU, msg("{card} ({who})", card=card, who=desk.state.player(holder)),
                    card=card_id, player=holder)
    return desk.show(prompt, msg("{card}: choose with the buttons", card=card))


def press(desk: Desk, prompt: Prompt, button: str) -> Outcome:
    if button in ("help", "run"):
        return _extra(desk, prompt, button)
    if button == "roll":
        action = menu_actions(desk.state, desk.catalog, prompt.player, prompt.card).toggle or "equip"
    elif button == "next":
        action = "discard"
    else:
        return desk.refuse(msg("{button} does nothing in the card menu; UNDO goes back", button=word(button.upper())))
    desk.close()
    return desk.submit(c.UseCard(player=prompt.player, card=prompt.card, action=action, at=desk.now))


def _extra(desk: Desk, prompt: Prompt, button: str) -> Outcome:
    """HELP uses a race/class ability paying one discard (press again for more), or puts an item in the
    sales basket; RUN takes it out of the basket, or gives (promises) the item."""
    card = desk.catalog[prompt.card]
    state = desk.state
    can = menu_actions(state, desk.catalog, prompt.player, card.id)
    if can.abilities and button in ("help", "run"):
        return use_ability(desk, prompt, 0 if button == "help" else 1)
    if can.for_sale and button == "help":
        if prompt.card not in desk.basket:
            desk.basket = [*desk.basket, prompt.card]
        return desk.show(None, msg("to sell: {cards}; NEXT sells, UNDO empties the basket",
                                   cards=Seq(desk.catalog[i] for i in desk.basket)))
    if button == "run" and prompt.card in desk.basket:
        desk.basket = [i for i in desk.basket if i != prompt.card]
        return desk.show(None, msg("{card} taken out of the basket", card=card))
    if button == "run" and can.hand_over:
        if can.hand_over == "promise":
            text = msg("promise {card} to whom, if the fight is won? tap the helper's token", card=card)
        else:
            text = msg("give {card} to whom? tap the receiver's token", card=card)
        return desk.show(Prompt(PromptKind(can.hand_over), text, card=card.id, player=prompt.player))
    return desk.refuse(msg("{button} does nothing for {card}; UNDO goes back", button=word(button.upper()), card=card))


def use_ability(desk: Desk, prompt: Prompt, which: int) -> Outcome:
    """HELP uses the first ability the card can use now, RUN the second. One that needs a player's token
    (Backstab, Steal) or one of several monsters (Charm) asks for it; the others pay one discard (press
    again for more). When none can be used now, the refusal says why, or when it can be."""
    state, card = desk.state, desk.catalog[prompt.card]
    now = abilities_now(state, desk.catalog, prompt.player, card.id, desk.now)
    if which >= len(now):
        return _refuse_ability(desk, prompt, now)
    ability = now[which]
    combat = state.combat
    if ability in NEEDS_TOKEN:
        text = (msg("Backstab: tap the token of the player in the fight to backstab") if ability == "backstab"
                else msg("Steal: tap the token of the player to rob"))
        return desk.show(Prompt(PromptKind.TARGET, text, card=card.id, player=prompt.player))
    if ability == "charm" and combat is not None and len(combat.monsters) > 1:
        menu = Prompt(PromptKind.MONSTER, "", card=card.id, player=prompt.player, value=len(combat.monsters) - 1)
        return desk.show(replace(menu, text=monster_text(desk, menu)))
    return desk.submit(ability_use(state, desk.catalog, prompt.player, ability, desk.now), keep_prompt=True)


def _refuse_ability(desk: Desk, prompt: Prompt, now: tuple[str, ...]) -> Outcome:
    state, card = desk.state, desk.catalog[prompt.card]
    if now:
        return desk.refuse(msg("{card} has one ability to use now: HELP", card=card))
    for ability in abilities_of(card.id, state.phase):
        why = why_not(state, desk.catalog, ability_use(state, desk.catalog, prompt.player, ability, desk.now))
        if why is not None and ability not in NEEDS_TOKEN:
            return desk.refuse(why.message)
    uses = [ABILITY_WHEN[a] for a in CARD_ABILITIES.get(card.id, ())]
    if not uses:
        return desk.refuse(msg("{card} gives no ability to use with a button; its card says what it does", card=card))
    return desk.refuse(msg("{card} has no ability to use now; {uses}", card=card, uses=Seq(uses, "sentences")))


TOGGLE_LABELS = {"unequip": word("Unequip"), "equip": word("Equip"), "": ""}


def soft_keys(desk: Desk, prompt: Prompt) -> Keys:
    can = menu_actions(desk.state, desk.catalog, prompt.player, prompt.card)
    in_basket = prompt.card in desk.basket
    help_label: Any = ""
    run_label: Any = word("Don't sell") if in_basket else ""
    if can.abilities:
        now = abilities_now(desk.state, desk.catalog, prompt.player, prompt.card, desk.now)
        names = now or abilities_of(prompt.card, desk.state.phase)[:1]
        help_label = ABILITY_LABELS.get(names[0], "") if names else ""
        if len(now) > 1:
            run_label = ABILITY_LABELS.get(now[1], "")
    elif can.for_sale and not in_basket:
        help_label = word("Sell")
    if not run_label and can.hand_over:
        run_label = GIVE_LABELS[can.hand_over]
    return {"roll": TOGGLE_LABELS[can.toggle], "help": help_label, "run": run_label, "next": word("Discard"),
            "undo": word("Back")}
