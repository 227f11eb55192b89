"""The state JSON (design §4): the engine's ``state_to_json`` plus the ``prompt`` key, built here only;
and what the game itself waits for when no prompt is open."""

from __future__ import annotations

from typing import Any

from engine.hints import hints
from engine.items import BIG_LIMIT
from engine.messages import Seq, msg, nmsg
from engine.looting import tie_roller
from engine.run_away import must_choose_catch, roller_entries
from engine.serialize import standing_prompt_json, state_to_json
from table.control.prompts import EXPECTS, Desk, PromptKind

# How a prompt's awaited tap is done at the table (``can``), by what it expects; the words say what for.
TAP_FOR = {"player-token": "tap a player token", "item": "tap an item", "monster": "tap a monster",
           "card-or-button": "tap a card", "card-or-next": "tap an item"}


def prompt_json(desk: Desk) -> dict[str, Any] | None:
    """What the table waits for: the open prompt, else what the game itself waits for (an item to lose,
    a looter, a wandering monster), else None."""
    prompt = desk.prompt
    if prompt is None or (prompt.until is not None and prompt.until <= desk.now):
        result: dict[str, Any] | None = standing_prompt_json(desk.state, desk.catalog)
        return result
    data: dict[str, Any] = {"kind": prompt.kind.value, "player": prompt.player or desk.acting_player() or None,
                            "card": prompt.card or None, "expects": EXPECTS.get(prompt.kind, "button"),
                            "text": prompt.text}
    if prompt.kind is PromptKind.HELPER:
        data["player"] = desk.state.active_player
    if prompt.kind is PromptKind.ENROLL:
        data["card"] = None
        data["uid"] = prompt.card
    if prompt.kind in (PromptKind.VALUE, PromptKind.MONSTER):
        data["value"] = prompt.value
    if prompt.kind is PromptKind.SELL:
        data["basket"] = list(desk.basket)
    return data


def state_json(desk: Desk, can_now: list[dict[str, Any]]) -> dict[str, Any]:
    """The state JSON with the open prompt and what can be done now (``can``, see ``can``)."""
    data: dict[str, Any] = state_to_json(desk.state, desk.catalog)
    data["prompt"] = prompt_json(desk)
    data["can"] = can_now
    return data


def can(desk: Desk) -> list[dict[str, Any]]:
    """What the acting player can do now, each ``{"how", "what"}`` (``what`` a message the words layer
    says in the table's language): with a prompt open, what the prompt takes (its soft keys, and the tap
    it waits for); else what the engine would accept (``engine.hints``), the table's own use of HELP
    (selling), and UNDO where there is something to take back. The "what can I do" panel shows it."""
    keys, undo = desk.soft_keys(), desk.history_len > 0
    prompt = desk.prompt
    if prompt is not None and (prompt.until is None or prompt.until > desk.now):
        found = [{"how": f"press {button}", "what": label} for button, label in keys.items() if label and button != "undo"]
        tap = TAP_FOR.get(EXPECTS.get(prompt.kind, "button"))
        if tap is not None:
            found.insert(0, {"how": tap, "what": prompt.text})
        if keys.get("undo"):
            found.append({"how": "press undo", "what": keys["undo"]})
        return found
    player = desk.acting_player() or desk.state.active_player or ""
    found = [{"how": hint.how, "what": hint.what} for hint in hints(desk.state, desk.catalog, player, desk.now)]
    if keys.get("help") and not any(item["how"] == "press help" for item in found):
        found.append({"how": "press help", "what": keys["help"]})    # the table's own use of HELP: selling
    if undo:
        found.append({"how": "press undo", "what": msg("take back the last action")})
    return found


def standing_prompt(desk: Desk) -> tuple[str, Any]:
    """(kind, text) of what the game itself waits for when no prompt is open: a die for the bad stuff, an
    item to lose, a looter, the monster that catches first."""
    state = desk.state
    roll = state.pending_roll
    if roll is not None and state.has_player(roll.player):
        return "roll", msg("{who}: press ROLL for the Bad Stuff of {source}", who=desk.token_name(roll.player),
                           source=_card(desk, roll.source))
    loss = state.pending_loss
    if loss is not None and state.has_player(loss.player):
        name = state.player(loss.player)
        if loss.source == BIG_LIMIT:
            return "loss", msg("{who} has too many Big items: tap the one that goes to the lowest-level player, "
                               "or sell it", who=name)
        source = _card(desk, loss.source)
        if loss.kind == "class":
            return "loss", msg("{who}: tap the class card to lose ({source})", who=name, source=source)
        if loss.source in desk.catalog and any(e.op == "roll-lose-items" for e in desk.catalog[loss.source].bad_stuff):
            return "loss", nmsg("{who}: {source} takes {count} card: tap an item to lose, or NEXT to give up a card "
                                "from the hand", "{who}: {source} takes {count} cards: tap the items to lose, NEXT "
                                "gives up the rest from the hand", "count", who=name, source=source, count=loss.count)
        return "loss", msg("{who}: tap the item to lose ({source})", who=name, source=source)
    loot = state.looting
    tied = tie_roller(state)
    if loot and tied is not None:
        return "looting", msg("looting {who}'s body: {tied} are at the same level, the die decides who picks first; "
                              "{roller}: press ROLL", who=desk.token_name(loot["body"]),
                              tied=Seq((desk.token_name(p) for p in loot["to_roll"]), "and"), roller=desk.token_name(tied))
    if loot and loot.get("waiting") and loot.get("items"):
        body = desk.token_name(loot["body"])
        who = desk.token_name(loot["waiting"][0])
        return "looting", msg("looting {who}'s body, highest level first: {who2} picks (their token, then the item; "
                              "or {who}'s token for a card from the hand)", who=body, who2=who)
    if must_choose_catch(state, desk.catalog) and state.combat is not None:
        left = roller_entries(state)
        monsters = Seq((desk.catalog[state.combat.monsters[i].card] for _, i in left), "and")
        return "flee", msg("{who} cannot outrun {monsters}: tap the monster whose Bad Stuff comes first, then ROLL",
                           who=desk.token_name(left[0][0]), monsters=monsters)
    return "", ""


def _card(desk: Desk, card_id: str) -> Any:
    return desk.catalog[card_id] if card_id in desk.catalog else card_id
