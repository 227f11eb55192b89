"""The box's own way into the remembered games, with the five buttons and the player tokens.

- Setup: HELP opens the standings, RUN the list of past games; NEXT and ROLL page through them,
  HELP and RUN switch between them, UNDO (or any tap) goes back to the setup.
- Setup: tapping a token that has already joined opens its name: ROLL (or the token again) and RUN
  step through the names the box has seen before, NEXT takes the one shown, UNDO keeps the old.
- A game found unfinished when the table starts: play on as usual (UNDO or any tap closes the
  notice), or NEXT twice to leave it in the history as abandoned and start a new game.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from engine import commands as c
from engine.messages import PlayerRef, Seq, msg, word
from engine.state import Phase
from table.session.facts import history_rows, stats

if TYPE_CHECKING:
    from table.control.controller import Controller, Outcome

PAGE = 8                                   # rows on one page of the standings or the past games
SCREENS = ("standings", "games")
PROMPTS = (*SCREENS, "name", "resume")
DEFAULT_NAME = re.compile(r"Player \d+")   # the engine's name for a token nobody named


def _outcome(ctl: Controller, text: str, accepted: bool = True) -> Outcome:
    from table.control.controller import Outcome

    ctl.revision += 1
    return Outcome(accepted, ctl.say(text))


# ------------------------------------------------------------------ standings and past games

def open_screen(ctl: Controller, kind: str) -> Outcome:
    from table.control.controller import Prompt

    store = ctl.records.store
    ctl.records_screen = {"standings": stats(store.tallies(), ctl.catalog)["players"],
                          "games": list(reversed(history_rows(store.games())))}
    ctl.prompt = Prompt(kind, "")
    ctl.prompt.text = screen_text(ctl)
    return _outcome(ctl, ctl.prompt.text)


def pages(ctl: Controller, kind: str) -> int:
    rows = ctl.records_screen.get(kind, [])
    return max(1, -(-len(rows) // PAGE))


def screen_text(ctl: Controller) -> str:
    prompt = ctl.prompt
    assert prompt is not None
    n, total = prompt.value + 1, pages(ctl, prompt.kind)
    if prompt.kind == "standings":
        return msg("standings, page {n} of {total}: NEXT and ROLL turn the pages, RUN shows the past games, "
                   "UNDO goes back", n=n, total=total)
    return msg("past games, page {n} of {total}: NEXT and ROLL turn the pages, HELP shows the standings, "
               "UNDO goes back", n=n, total=total)


def screen_view(ctl: Controller) -> dict[str, Any] | None:
    prompt = ctl.prompt
    if prompt is None or prompt.kind not in SCREENS:
        return None
    rows = ctl.records_screen.get(prompt.kind, [])
    page = prompt.value % pages(ctl, prompt.kind)
    return {"kind": prompt.kind, "page": page + 1, "pages": pages(ctl, prompt.kind), "total": len(rows),
            "rows": rows[page * PAGE:(page + 1) * PAGE], "first": page * PAGE + 1}


# ------------------------------------------------------------------ names

def name_choices(ctl: Controller, token: str) -> list[str]:
    """The names this token may take: its own first, then those the box has seen (most recent
    first) and the config's, without the names of the other players at the table."""
    state = ctl.state
    current = state.player(token).name
    taken = {p.name.casefold() for p in state.players if p.id != token}
    seen = ctl.records.store.known_names()
    configured = [name for name, _sex in ctl.players.names.values() if name]
    own = f"Player {token.split('-')[1]}"
    out = [current]
    for name in [*seen, *configured, own]:
        if DEFAULT_NAME.fullmatch(name) and name != own:
            continue
        if name.casefold() not in taken and name.casefold() not in {n.casefold() for n in out}:
            out.append(name)
    return out


def open_names(ctl: Controller, token: str) -> Outcome:
    from table.control.controller import Prompt

    prompt = ctl.prompt
    if prompt is not None and prompt.kind == "name" and prompt.player == token:
        return step_name(ctl, 1)                  # the same token again: the next name
    ctl.name_choices = name_choices(ctl, token)
    ctl.prompt = Prompt("name", "", player=token)
    ctl.prompt.text = name_text(ctl)
    return _outcome(ctl, ctl.prompt.text)


def name_text(ctl: Controller) -> str:
    prompt = ctl.prompt
    assert prompt is not None
    name = ctl.name_choices[prompt.value]
    who = ctl.state.player(prompt.player)
    if len(ctl.name_choices) == 1:
        return msg("{who}: no other names seen yet (name the players in the config)", who=who)
    return msg("{who} → {name} ({i} of {n}); ROLL or the token: next name, RUN: previous, NEXT: take it, "
               "UNDO: keep the old", who=who, name=PlayerRef(prompt.player, name), i=prompt.value + 1,
               n=len(ctl.name_choices))


def step_name(ctl: Controller, step: int) -> Outcome:
    prompt = ctl.prompt
    assert prompt is not None
    prompt.value = (prompt.value + step) % len(ctl.name_choices)
    prompt.text = name_text(ctl)
    return _outcome(ctl, prompt.text)


def name_view(ctl: Controller) -> dict[str, Any] | None:
    prompt = ctl.prompt
    if prompt is None or prompt.kind != "name" or not ctl.state.has_player(prompt.player):
        return None
    return {"player": prompt.player, "name": ctl.name_choices[prompt.value], "index": prompt.value + 1,
            "count": len(ctl.name_choices), "current": ctl.state.player(prompt.player).name,
            "choices": ctl.name_choices}


# ------------------------------------------------------------------ a game found unfinished

def resume_notice(ctl: Controller) -> None:
    """Called when the table starts: an unfinished game gets the choice to go on or be abandoned."""
    from table.control.controller import Prompt

    state = ctl.state
    if state.phase in (Phase.SETUP, Phase.GAME_OVER):
        return
    players = Seq(state.players, "list")
    ctl.prompt = Prompt("resume", msg("game {n} resumed (turn {turn}, {players}): play on, or NEXT twice to abandon "
                                      "it and start a new game", n=ctl.game.id, turn=state.turn, players=players))
    ctl.say(ctl.prompt.text)


# ------------------------------------------------------------------ buttons

def press(ctl: Controller, button: str) -> Outcome:
    """A button while one of this module's prompts is open (UNDO is the controller's: it closes them)."""
    prompt = ctl.prompt
    assert prompt is not None
    if prompt.kind in SCREENS:
        if button in ("next", "roll"):
            prompt.value = (prompt.value + (1 if button == "next" else -1)) % pages(ctl, prompt.kind)
        else:
            prompt.kind, prompt.value = ("standings" if button == "help" else "games"), 0
        prompt.text = screen_text(ctl)
        return _outcome(ctl, prompt.text)
    if prompt.kind == "name":
        if button in ("roll", "run"):
            return step_name(ctl, 1 if button == "roll" else -1)
        if button == "next":
            ctl.prompt = None
            chosen = ctl.name_choices[prompt.value]
            if chosen == ctl.state.player(prompt.player).name:
                return _outcome(ctl, msg("{who} keeps their name", who=PlayerRef(prompt.player, chosen)))
            return ctl.submit(c.Rename(player=prompt.player, name_=chosen, at=ctl.now))
        return ctl.refuse(msg("{button} does nothing here: ROLL and RUN choose the name, NEXT takes it, UNDO keeps the old",
                              button=word(button.upper())))
    # resume
    if button != "next":
        ctl.prompt = None
        return ctl.handle_press(button)
    if not prompt.value:
        prompt.value = 1
        prompt.text = msg("abandon this game and start a new one? NEXT again to confirm, UNDO plays on")
        return _outcome(ctl, prompt.text)
    ctl.prompt = None
    old = ctl.game.id
    ctl.start_new_game()
    return _outcome(ctl, msg("game {n} stays in the history as abandoned; new game: tap each player's token to join, "
                             "then NEXT", n=old))


def soft_keys(ctl: Controller) -> dict[str, str] | None:
    prompt = ctl.prompt
    if prompt is None or prompt.kind not in PROMPTS:
        return None
    if prompt.kind in SCREENS:
        many = pages(ctl, prompt.kind) > 1
        return {"roll": word("Previous page") if many else "", "help": word("Standings") if prompt.kind == "games" else "",
                "run": word("Past games") if prompt.kind == "standings" else "", "next": word("Next page") if many else "",
                "undo": word("Back")}
    if prompt.kind == "name":
        return {"roll": word("Next name"), "help": "", "run": word("Previous name"), "next": word("Take this name"),
                "undo": word("Keep")}
    return {"roll": "", "help": "", "run": "", "next": word("New game: sure?") if prompt.value else word("New game"),
            "undo": word("Play on")}


def setup_keys(ctl: Controller, keys: dict[str, str]) -> dict[str, str]:
    """The setup's free buttons open the standings and the past games."""
    if ctl.state.phase is Phase.SETUP and ctl.prompt is None and not ctl.basket:
        return {**keys, "help": keys.get("help") or word("Standings"), "run": keys.get("run") or word("Past games")}
    return keys
