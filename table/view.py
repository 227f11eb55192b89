"""What the screen shows, gathered from the controller into plain data for the display."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.serialize import state_to_json
from table.controller import Controller

BUTTON_ORDER = ("roll", "help", "run", "next", "undo")


@dataclass
class View:
    state: dict[str, Any]
    names: dict[str, str]                 # card id -> display name
    message: str = ""
    message_kind: str = "info"
    prompt: str = ""
    soft_keys: dict[str, str] = field(default_factory=dict)
    acting: str = ""
    reader_online: bool | None = None
    reader_message: str = ""
    window_left: float | None = None      # seconds of interference window left
    window_total: float = 0.0
    entry: str = ""                       # simulator: the card id being typed


def build_view(ctl: Controller, *, entry: str = "") -> View:
    state = state_to_json(ctl.state, ctl.catalog)
    now = ctl.now
    window_left = None
    combat = ctl.state.combat
    if combat is not None and combat.window_until is not None:
        window_left = max(0.0, combat.window_until - now)
    message = ctl.message
    return View(
        state=state,
        names={cid: ctl.catalog[cid].name for cid in ctl.catalog},
        message=message.text if message else "",
        message_kind=message.kind if message else "info",
        prompt=ctl.prompt.text if ctl.prompt else "",
        soft_keys=ctl.soft_keys(),
        acting=ctl.acting_player(),
        reader_online=ctl.reader_online,
        reader_message=ctl.reader_message,
        window_left=window_left,
        window_total=ctl.state.ruleset.interference_seconds,
        entry=entry,
    )
