"""The box's own way into the remembered games, with the five buttons and the player tokens.

- Setup: HELP opens the standings, RUN the list of past games; NEXT and ROLL page through them,
  HELP and RUN switch between them, UNDO (or any tap) goes back to the setup.
- Setup: tapping a token that has already joined opens its name: ROLL (or the token again) and RUN
  step through the names the box has seen before, NEXT takes the one shown, UNDO keeps the old.
- A game found unfinished when the table starts: play on as usual (UNDO or any tap closes the
  notice), or NEXT twice to leave it in the history as abandoned and start a new game.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import commands as c
from engine.messages import PlayerRef, Seq, msg, word
from engine.players import default_name, default_token
from engine.state import Phase
from table.control.prompts import Desk, Keys, Outcome, Prompt, PromptKind
from table.session.facts import history_rows, stats

PAGE = 8                                   # rows on one page of the standings or the past games
CALM_SECONDS = 2.0      # after an unclean stop, the resume offer takes no press this long on screen
SCREENS = (PromptKind.STANDINGS, PromptKind.GAMES)
PROMPTS = (*SCREENS, PromptKind.NAME, PromptKind.RESUME)


# ------------------------------------------------------------------ standings and past games

def open_screen(desk: Desk, kind: PromptKind) -> Outcome:
    store = desk.records_store
    rows = {"standings": stats(store.tallies(), desk.catalog)["players"],
            "games": list(reversed(history_rows(store.games())))}
    prompt = Prompt(kind, "", rows=rows)
    return desk.show(replace(prompt, text=screen_text(prompt)))


def pages(prompt: Prompt, kind: str) -> int:
    rows = prompt.rows.get(kind, [])
    return max(1, -(-len(rows) // PAGE))


def screen_text(prompt: Prompt) -> Any:
    n, total = prompt.value + 1, pages(prompt, prompt.kind)
    if prompt.kind == "standings":
        return msg("standings, page {n} of {total}: NEXT and ROLL turn the pages, RUN shows the past games, "
                   "UNDO goes back", n=n, total=total)
    return msg("past games, page {n} of {total}: NEXT and ROLL turn the pages, HELP shows the standings, "
               "UNDO goes back", n=n, total=total)


def screen_view(desk: Desk) -> dict[str, Any] | None:
    prompt = desk.prompt
    if prompt is None or prompt.kind not in SCREENS:
        return None
    rows = prompt.rows.get(prompt.kind, [])
    page = prompt.value % pages(prompt, prompt.kind)
    return {"kind": prompt.kind, "page": page + 1, "pages": pages(prompt, prompt.kind), "total": len(rows),
            "rows": rows[page * PAGE:(page + 1) * PAGE], "first": page * PAGE + 1}


# ------------------------------------------------------------------ names

def name_choices(desk: Desk, token: str) -> tuple[str, ...]:
    """The names this token may take: its own first, then those the box has seen (most recent
    first) and the config's, without the names of the other players at the table."""
    state = desk.state
    current = state.player(token).name
    taken = {p.name.casefold() for p in state.players if p.id != token}
    seen = desk.records_store.known_names()
    configured = [name for name, _sex in desk.players.names.values() if name]
    own = default_name(token)
    out = [current]
    for name in [*seen, *configured, own]:
        if default_token(name) is not None and name != own:
            continue
        if name.casefold() not in taken and name.casefold() not in {n.casefold() for n in out}:
            out.append(name)
    return tuple(out)


def open_names(desk: Desk, token: str) -> Outcome:
    prompt = desk.prompt
    if prompt is not None and prompt.kind == PromptKind.NAME and prompt.player == token:
        return step_name(desk, prompt, 1)                  # the same token again: the next name
    fresh = Prompt(PromptKind.NAME, "", player=token, choices=name_choices(desk, token))
    return desk.show(replace(fresh, text=name_text(desk, fresh)))


def name_text(desk: Desk, prompt: Prompt) -> Any:
    name = prompt.choices[prompt.value]
    who = desk.state.player(prompt.player)
    if len(prompt.choices) == 1:
        return msg("{who}: no other names seen yet (name the players in the config)", who=who)
    return msg("{who} → {name} ({i} of {n}); ROLL or the token: next name, RUN: previous, NEXT: take it, "
               "UNDO: keep the old", who=who, name=PlayerRef(prompt.player, name), i=prompt.value + 1,
               n=len(prompt.choices))


def step_name(desk: Desk, prompt: Prompt, step: int) -> Outcome:
    stepped = replace(prompt, value=(prompt.value + step) % len(prompt.choices))
    return desk.show(replace(stepped, text=name_text(desk, stepped)))


def name_view(desk: Desk) -> dict[str, Any] | None:
    prompt = desk.prompt
    if prompt is None or prompt.kind != PromptKind.NAME or not desk.state.has_player(prompt.player):
        return None
    return {"player": prompt.player, "name": prompt.choices[prompt.value], "index": prompt.value + 1,
            "count": len(prompt.choices), "current": desk.state.player(prompt.player).name,
            "choices": list(prompt.choices)}


# ------------------------------------------------------------------ a game found unfinished

def resume_notice(desk: Desk, *, unclean: bool = False) -> None:
    """Called when the table starts: an unfinished game gets the choice to go on or be abandoned.
    After an unclean stop (``unclean``: a crash, a power cut) the offer takes no press in its first
    ``CALM_SECONDS`` on screen, by the table's clock: a button still held or mashed through the
    restart must not abandon the game."""
    state = desk.state
    if state.phase in (Phase.SETUP, Phase.GAME_OVER):
        return
    players = Seq(state.players, "list")
    desk.show(Prompt(PromptKind.RESUME, msg("game {n} resumed (turn {turn}, {players}): play on, or NEXT twice to "
                                            "abandon it and start a new game", n=desk.game_id, turn=state.turn,
                                            players=players),
                     calm_until=desk.now + CALM_SECONDS if unclean else None))


# ------------------------------------------------------------------ buttons

def press(desk: Desk, prompt: Prompt, button: str) -> Outcome:
    """A button while one of this module's prompts is open (UNDO is the controller's: it closes them)."""
    if prompt.kind in SCREENS:
        if button in ("next", "roll"):
            moved = replace(prompt, value=(prompt.value + (1 if button == "next" else -1)) % pages(prompt, prompt.kind))
        else:
            moved = replace(prompt, kind=PromptKind.STANDINGS if button == "help" else PromptKind.GAMES, value=0)
        return desk.show(replace(moved, text=screen_text(moved)))
    if prompt.kind == PromptKind.NAME:
        return _press_name(desk, prompt, button)
    # resume
    if prompt.calm_until is not None and desk.now < prompt.calm_until:
        return desk.refuse(msg("the table has just started again after an unclean stop: wait a moment, then press "
                               "again ({text})", text=prompt.text))
    if button != "next":
        desk.close()
        return desk.handle_press(button)
    if not prompt.value:
        calm = desk.now + CALM_SECONDS if prompt.calm_until is not None else None    # the confirmation too
        return desk.show(replace(prompt, value=1, calm_until=calm,
                                 text=msg("abandon this game and start a new one? NEXT again to confirm, UNDO plays on")))
    desk.close()
    old = desk.game_id
    desk.start_new_game()
    return desk.show(None, msg("game {n} stays in the history as abandoned; new game: tap each player's token to join, "
                               "then NEXT", n=old))


def _press_name(desk: Desk, prompt: Prompt, button: str) -> Outcome:
    if button in ("roll", "run"):
        return step_name(desk, prompt, 1 if button == "roll" else -1)
    if button == "next":
        desk.close()
        chosen = prompt.choices[prompt.value]
        if chosen == desk.state.player(prompt.player).name:
            return desk.show(None, msg("{who} keeps their name", who=PlayerRef(prompt.player, chosen)))
        return desk.submit(c.Rename(player=prompt.player, name_=chosen, at=desk.now))
    return desk.refuse(msg("{button} does nothing here: ROLL and RUN choose the name, NEXT takes it, UNDO keeps the old",
                           button=word(button.upper())))


def soft_keys(desk: Desk, prompt: Prompt) -> Keys:
    if prompt.kind in SCREENS:
        many = pages(prompt, prompt.kind) > 1
        return {"roll": word("Previous page") if many else "",
                "help": word("Standings") if prompt.kind == PromptKind.GAMES else "",
                "run": word("Past games") if prompt.kind == PromptKind.STANDINGS else "",
                "next": word("Next page") if many else "", "undo": word("Back")}
    if prompt.kind == PromptKind.NAME:
        return {"roll": word("Next name"), "help": "", "run": word("Previous name"), "next": word("Take this name"),
                "undo": word("Keep")}
    return {"roll": "", "help": "", "run": "", "next": word("New game: sure?") if prompt.value else word("New game"),
            "undo": word("Play on")}


def setup_keys(desk: Desk, keys: Keys) -> Keys:
    """The setup's free buttons open the standings and the past games."""
    if desk.state.phase is Phase.SETUP and desk.prompt is None and not desk.basket:
        return {**keys, "help": keys.get("help") or word("Standings"), "run": keys.get("run") or word("Past games")}
    return keys
