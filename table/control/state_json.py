"""The state JSON (design §4): the engine's ``state_to_json`` plus the ``prompt`` key, built here only."""

from __future__ import annotations

from typing import Any

from engine.serialize import standing_prompt_json, state_to_json
from table.control.prompts import EXPECTS, Desk, PromptKind


def prompt_json(desk: Desk) -> dict[str, Any] | None:
    """What the table waits for: the open prompt, else what the game itself waits for (an item to lose,
    a looter, a wandering monster), else None."""
    prompt = desk.prompt
    if prompt is None or (prompt.until is not None and prompt.until <= desk.now):
        result: dict[str, Any] | None = standing_prompt_json(desk.state)
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


def state_json(desk: Desk) -> dict[str, Any]:
    """The state JSON with the open prompt."""
    data: dict[str, Any] = state_to_json(desk.state, desk.catalog)
    data["prompt"] = prompt_json(desk)
    return data
