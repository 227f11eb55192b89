"""The card menu: a card already in play, tapped, offers equip/unequip, its ability or a sale, give or
promise, discard and back on the soft keys."""

from __future__ import annotations

from engine import commands as c
from engine.cards import Kind
from engine.state import Player
from engine.legal import ability_command, ability_of, give_action
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
    player = desk.state.player(prompt.player)
    if button == "roll":
        action = "unequip" if prompt.card in player.equipped else "equip"
    elif button == "next":
        action = "discard"
    else:
        return desk.refuse(msg("{button} does nothing in the card menu; UNDO goes back", button=word(button.upper())))
    desk.prompt = None
    return desk.submit(c.UseCard(player=player.id, card=prompt.card, action=action, at=desk.now))


def _extra(desk: Desk, prompt: Prompt, button: str) -> Outcome:
    """HELP uses a race/class ability paying one discard (press again for more), or puts an item in the
    sales basket; RUN takes it out of the basket, or gives (promises) the item."""
    card = desk.catalog[prompt.card]
    state = desk.state
    if card.kind in (Kind.RACE, Kind.CLASS) and button == "help":
        cmd = ability_command(state, prompt.player, card.id, desk.now)
        if cmd is None:
            return desk.refuse(msg("{card} has no ability to use during {phase}", card=card, phase=state.phase))
        return desk.submit(cmd, keep_prompt=True)                 # HELP again: one more
    if card.kind in (Kind.ITEM, Kind.ONE_SHOT) and button == "help":
        if prompt.card not in desk.basket:
            desk.basket = [*desk.basket, prompt.card]
        return desk.show(None, msg("to sell: {cards}; NEXT sells, UNDO empties the basket",
                                   cards=Seq(desk.catalog[i] for i in desk.basket)))
    if button == "run" and prompt.card in desk.basket:
        desk.basket = [i for i in desk.basket if i != prompt.card]
        return desk.show(None, msg("{card} taken out of the basket", card=card))
    if button == "run" and card.kind is Kind.ITEM:
        action = give_action(state, prompt.player)
        if action == "promise":
            text = msg("promise {card} to whom, if the fight is won? tap the helper's token", card=card)
        else:
            text = msg("give {card} to whom? tap the receiver's token", card=card)
        return desk.show(Prompt(PromptKind(action), text, card=card.id, player=prompt.player))
    return desk.refuse(msg("{button} does nothing for {card}; UNDO goes back", button=word(button.upper()), card=card))


def soft_keys(desk: Desk, prompt: Prompt) -> Keys:
    player = desk.state.player(prompt.player)
    card = desk.catalog[prompt.card]
    toggle = word("Unequip") if card.id in player.equipped else (word("Equip") if card.id in player.carried else "")
    help_label = ""
    if card.kind in (Kind.RACE, Kind.CLASS):
        help_label = ABILITY_LABELS.get(ability_of(card.id, desk.state.phase) or "", "")
    elif card.kind in (Kind.ITEM, Kind.ONE_SHOT) and card.id not in desk.basket:
        help_label = word("Sell")
    run_label = word("Don't sell") if card.id in desk.basket else ""
    if not run_label and card.kind is Kind.ITEM:
        run_label = GIVE_LABELS[give_action(desk.state, player.id)]
    return {"roll": toggle, "help": help_label, "run": run_label, "next": word("Discard"), "undo": word("Back")}


def holder_of(desk: Desk, card_id: str, acting: str) -> str | None:
    """Whose card in play a tap opens the menu of: the acting player's own copy first (with two
    Warriors at the table, each one's tap opens their own); another's copy of a card with several
    copies is played, not opened; Go Up a Level is always played."""
    state, card = desk.state, desk.catalog[card_id]
    mine = state.player(acting) if state.has_player(acting) else None
    holder: Player | None
    if mine is not None and card_id in mine.in_play():
        holder = mine
    else:
        holder = next((p for p in state.players if card_id in p.in_play()), None)
    if holder is None or (card.copies > 1 and holder.id != acting) or card.kind is Kind.GO_UP_A_LEVEL:
        return None
    return holder.id
