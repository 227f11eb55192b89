"""The tapped player's own menu: for a few seconds their taps act for them, and the soft keys offer
their sex, a manual level correction and leaving the game (NEXT twice)."""

from __future__ import annotations

from dataclasses import replace

from engine import commands as c
from engine.game import corrects_level
from engine.messages import msg, word
from table.control.prompts import Desk, Keys, Outcome, Prompt, PromptKind


def open_menu(desk: Desk, token: str) -> Outcome:
    until = desk.now + desk.token_seconds
    desk.acting_override = (token, until)
    who = desk.state.player(token)
    return desk.show(Prompt(PromptKind.PLAYER_MENU, msg("{who}: tap a card to play it for {who}, or use the buttons", who=who),
                            player=token, until=until))


def press(desk: Desk, prompt: Prompt, button: str) -> Outcome:
    token, now = prompt.player, desk.now
    prompt = replace(prompt, until=now + desk.token_seconds)      # using the menu keeps it open
    desk.open(prompt)
    desk.acting_override = (token, now + desk.token_seconds)
    if button == "roll":
        sex = "female" if desk.state.player(token).sex == "male" else "male"
        return desk.submit(c.SetSex(player=token, sex=sex, at=now))
    if button in ("help", "run"):
        return desk.submit(c.AdjustLevel(player=token, delta=1 if button == "help" else -1, at=now))
    if button == "next":
        if not prompt.value:
            return desk.show(replace(prompt, value=1),
                             msg("{who} leaves the game? NEXT again to confirm, UNDO keeps them", who=desk.state.player(token)))
        desk.close()
        desk.acting_override = None
        return desk.submit(c.Leave(player=token, at=now))
    return desk.refuse(msg("unknown button {button!r}", button=button))


def soft_keys(desk: Desk, prompt: Prompt) -> Keys | None:
    if not desk.state.has_player(prompt.player):
        return None
    p = desk.state.player(prompt.player)
    leave = word("Leave: sure?") if prompt.value else word("Leave game")
    make = word("Make female") if p.sex == "male" else word("Make male")
    state = desk.state          # a level key is off where the engine would refuse the correction
    return {"roll": make, "help": word("Level +1") if corrects_level(state, p, 1) else "",
            "run": word("Level −1") if corrects_level(state, p, -1) else "", "next": leave, "undo": word("Back")}
