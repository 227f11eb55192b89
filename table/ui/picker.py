"""The simulator's card picker: type-ahead over card names, card ids and player tokens,
and raw tag UIDs (4, 7 or 10 bytes in hex) tapped as they are, for trying unknown tags.

``Picker`` holds what is being typed and its suggestions; ``suggest`` ranks them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from table.ui.view import View

UID = re.compile(r"[0-9a-f]{8}(?:[0-9a-f]{6}(?:[0-9a-f]{6})?)?")


def as_uid(entry: str) -> str | None:
    """``entry`` as a tag UID in upper-case hex (8, 14 or 20 digits), else None."""
    typed = entry.strip().lower()
    return typed.upper() if UID.fullmatch(typed) else None


def suggest(entry: str, names: dict[str, str], players: Iterable[tuple[str, str]] = (), *,
            other_names: Mapping[str, Iterable[str]] | None = None, limit: int = 6) -> list[tuple[str, str]]:
    """(id, label) pairs that ``entry`` could mean, best first.

    A digit 1-6 means that player's token; otherwise prefix matches of ids, names and
    player names come before matches inside a word. A card is found by any of its names
    (``other_names``: card id -> its names in every language), shown by its name in ``names``.
    """
    typed = entry.strip().lower()
    if not typed:
        return []
    tokens = [(pid, f"{name} ({pid})") for pid, name in players]
    if typed.isdigit():
        return [(pid, label) for pid, label in tokens if pid == f"player-{typed}"][:limit]
    candidates = tokens + [(cid, f"{name}") for cid, name in names.items()]
    scored = []
    other = other_names or {}
    for cid, label in candidates:
        ranks = [_rank(typed, cid.lower(), alias.lower()) for alias in (label, *other.get(cid, ()))]
        found = [r for r in ranks if r is not None]
        if not found:
            continue
        scored.append((min(found), len(label), label, cid))
    scored.sort()
    return [(cid, label) for _r, _n, label, cid in scored[:limit]]


def _rank(typed: str, low_id: str, low_label: str) -> int | None:
    if low_id == typed:
        return 0
    if low_id.startswith(typed) or low_label.startswith(typed):
        return 1
    if any(w.startswith(typed) for w in low_label.replace("-", " ").split()):
        return 2
    if typed in low_id or typed in low_label:
        return 3
    return None


class Picker:
    """The simulator's typed entry and its type-ahead suggestions."""

    def __init__(self, other_names: dict[str, tuple[str, ...]] | None = None) -> None:
        self.other_names = other_names or {}      # card id -> every name it has, in any language
        self.entry = ""
        self.pick = 0
        self.suggestions: list[tuple[str, str]] = []
        self._for: tuple[str, int] | None = None

    def clear(self) -> None:
        self.entry, self.pick = "", 0

    def refresh(self, view: View) -> None:
        key = (self.entry, len(view.state["players"]))
        if key != self._for:
            players = [(p["id"], p["name"]) for p in view.state["players"]]
            self.suggestions = suggest(self.entry, view.names, players, other_names=self.other_names)
            self.pick = min(self.pick, max(0, len(self.suggestions) - 1))
            self._for = key
