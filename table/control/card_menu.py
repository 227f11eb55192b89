"""The card menu: a card already in play, tapped, offers equip/unequip, its ability or a sale, give or
promise, discard and back on the soft keys."""

from __future__ import annotations

from typing import Any

from engine import commands as c
from engine.legal import ability_command, menu_actions
from engine.messages import Seq, msg, word
from table.control.prompts import Desk, Keys, Outcome, Prompt, PromptKind

# The card menu's RUN label for an item: give it, or promise it to a helper.
GIVE_LABELS = {"give": word("Give"), "promise": word("Promise")}

# The card menu's HELP label for each ability.
ABILITY_LABELS = {"berserk": word("Berserk"), "turning": word("Turning"), "charm": word("Charm"),
                  "flight": word("Flight"), "backstab": word("Backstab"), "reroll": word("Reroll")}


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
    if can.abilities and button == "help":
        cmd = ability_command(state, prompt.player, card.id, desk.now)
        if cmd is None:
            return desk.refuse(msg("{card} has no ability to use during {phase}", card=card, phase=state.phase))
        return desk.submit(cmd, keep_prompt=True)                 # HELP again: one more
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


TOGGLE_LABELS = {"unequip": word("Unequip"), "equip": word("Equip"), "": ""}


def soft_keys(desk: Desk, prompt: Prompt) -> Keys:
    can = menu_actions(desk.state, desk.catalog, prompt.player, prompt.card)
    in_basket = prompt.card in desk.basket
    help_label: Any = ""
    if can.abilities:
        help_label = ABILITY_LABELS.get(can.ability or "", "")
    elif can.for_sale and not in_basket:
        help_label = word("Sell")
    run_label: Any = word("Don't sell") if in_basket else ""
    if not run_label and can.hand_over:
        run_label = GIVE_LABELS[can.hand_over]
    return {"roll": TOGGLE_LABELS[can.toggle], "help": help_label, "run": run_label, "next": word("Discard"),
            "undo": word("Back")}
