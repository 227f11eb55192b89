"""What a driver says (``drivers.said.Said``), as the engine's messages that the screen renders."""

from __future__ import annotations

from typing import Any

from drivers.said import Said
from engine.messages import Msg


def from_driver(said: Any) -> Any:
    """A driver's ``Said`` (and the ones inside it) as an engine message; anything else as it is."""
    if isinstance(said, Said):
        return Msg(said.template, **{k: from_driver(v) for k, v in said.values.items()})
    return said
