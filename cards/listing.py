"""The catalog as people look at it: one JSON object per card, and a search by name or id."""

from __future__ import annotations

from typing import Any

from engine.cards import CardDef, Catalog


def card_to_json(card: CardDef) -> dict[str, Any]:
    """What ``munchkin-table cards --json`` prints for one card (design §4: id, name, kind, copies, ...)."""
    return {
        "id": card.id, "name": card.name, "name_es": card.names.get("es"), "name_zh": card.names.get("zh"),
        "kind": card.kind.value, "deck": card.deck, "copies": card.copies, "set": card.set_id,
        "level": card.level, "treasures": card.treasures, "levels_gained": card.levels_gained,
        "bonus": card.bonus, "gold": card.gold, "slot": card.slot.value if card.slot else None,
        "big": card.big, "undead": card.undead, "requires": card.requires,
    }


def _fold(text: str) -> str:
    return " ".join(text.casefold().replace("-", " ").split())


def search(catalog: Catalog, text: str) -> list[CardDef]:
    """Cards whose id or name (any language) contains ``text``, ignoring case, hyphens and spacing.

    An exact id or name comes first, then names that start with the text, then the rest.
    """
    needle = _fold(text)
    if not needle:
        return []
    found = []
    for card in catalog.values():
        haystacks = [_fold(card.id), _fold(card.name), *(_fold(n) for n in card.names.values() if n)]
        if any(needle in h for h in haystacks):
            rank = 0 if needle in (haystacks[0], haystacks[1]) else (1 if any(h.startswith(needle) for h in haystacks) else 2)
            found.append((rank, card.name.casefold(), card))
    return [card for _, _, card in sorted(found, key=lambda t: (t[0], t[1]))]


def describe_line(card: CardDef) -> str:
    """One line of the text listing: id, kind, copies, the numbers that matter, name."""
    numbers = []
    if card.level is not None:
        numbers.append(f"level {card.level}")
    if card.bonus is not None:
        numbers.append(f"{card.bonus:+d}")
    if card.slot is not None and card.slot.value != "none":
        numbers.append(card.slot.value)
    if card.big:
        numbers.append("big")
    if card.gold is not None:
        numbers.append(f"{card.gold} gold")
    return f"{card.id:34} {card.kind.value:17} x{card.copies}  {card.name}" + (f"  ({', '.join(numbers)})" if numbers else "")
