"""Commands: what a player asks the game to do. Imperative names, plain data.

Every command carries the acting player (``player``, empty where nobody acts
yet) and the table clock's time (``at``), so a replay needs no clock.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, kw_only=True)
class Command:
    player: str = ""
    at: float = 0.0

    @property
    def name(self) -> str:
        return type(self).__name__


@dataclass(frozen=True, kw_only=True)
class Join(Command):
    """A player token was tapped during setup."""
    name_: str = ""
    sex: str = "male"


@dataclass(frozen=True, kw_only=True)
class Rename(Command):
    """During setup, a joined player takes another name (picked from names the table has seen)."""
    name_: str


@dataclass(frozen=True, kw_only=True)
class Leave(Command):
    """A player leaves the game (from setup, or mid-game from their menu)."""


@dataclass(frozen=True, kw_only=True)
class ChooseFirstPlayer(Command):
    """ROLL during setup: the die picks who starts."""
    forced: int | None = None


@dataclass(frozen=True, kw_only=True)
class StartGame(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class PlayCard(Command):
    """A card that is not in play was tapped: play it for ``player``.

    ``target`` names another player where the card needs one (a curse from the
    hand, Go Up a Level on someone else).
    """
    card: str
    target: str = ""
    monster: int = -1     # which monster an enhancer goes on; -1: the last one
    side: str = ""        # one-shots: "players" or "monsters"; empty: the acting player's side
    item: str = ""        # a card the played card acts on (Cheat!'s item, Help Me Out Here's item)
    value: int = 0        # Loaded Die: the number chosen


@dataclass(frozen=True, kw_only=True)
class UseCard(Command):
    """A card menu action on a card in play: equip, unequip, discard, give, promise (to a helper), escape."""
    card: str
    action: str
    target: str = ""


@dataclass(frozen=True, kw_only=True)
class AddHelper(Command):
    """The active player asked for help and ``helper`` agreed (tapped their token)."""
    helper: str


@dataclass(frozen=True, kw_only=True)
class Fight(Command):
    """NEXT while the players win: open the interference window (or resolve at once)."""


@dataclass(frozen=True, kw_only=True)
class ResolveCombat(Command):
    """The interference window closed."""


@dataclass(frozen=True, kw_only=True)
class ReopenWindow(Command):
    """UNDO brought back a fight whose interference window had run: it opens again, in full."""


@dataclass(frozen=True, kw_only=True)
class RunAway(Command):
    pass


@dataclass(frozen=True, kw_only=True)
class Roll(Command):
    """ROLL: the die for a run away. ``forced`` is a simulated die (``die N``); ``monster`` picks which
    monster the roll is against (the fleeing players choose the order); -1: the next in line."""
    forced: int | None = None
    monster: int = -1


@dataclass(frozen=True, kw_only=True)
class EndPhase(Command):
    """NEXT outside combat: end kick-open-the-door, loot the room, end the turn."""


@dataclass(frozen=True, kw_only=True)
class Sell(Command):
    """Sell items (from the hand or the table) for levels: the basket from the card menu."""
    cards: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class UseAbility(Command):
    """A race or class ability paid with ``count`` discards from the hand (the box cannot see it).

    berserk, turning, flight, charm (``monster``), backstab (``target``), theft (``target``,
    ``card``), chase (cleric vs a monster that allows it), reroll (halfling, later printing).
    """
    ability: str
    count: int = 1
    target: str = ""
    card: str = ""
    monster: int = -1
    forced: int | None = None


@dataclass(frozen=True, kw_only=True)
class LoseItem(Command):
    """The player tapped the item to lose, as the screen asked; empty card: the rest from the hand.

    An item the player can no longer carry goes to the lowest-level player: ``target`` picks one
    where several are tied."""
    card: str = ""
    target: str = ""


@dataclass(frozen=True, kw_only=True)
class LootFromHand(Command):
    """Looting a body, the looter whose pick it is (``player``) took a card from the dead player's hand."""


@dataclass(frozen=True, kw_only=True)
class SetSex(Command):
    sex: str


@dataclass(frozen=True, kw_only=True)
class AdjustLevel(Command):
    """A manual level correction from the player's menu (the box saw something wrong)."""
    delta: int


COMMANDS: dict[str, type[Command]] = {
    cls.__name__: cls
    for cls in (Join, Leave, ChooseFirstPlayer, StartGame, PlayCard, UseCard, AddHelper, Fight,
                ResolveCombat, ReopenWindow, RunAway, Roll, EndPhase, SetSex, AdjustLevel, Sell, UseAbility, LoseItem,
                Rename, LootFromHand)
}


_FIELD_NAMES: dict[type[Command], tuple[str, ...]] = {}


def command_to_dict(cmd: Command) -> dict[str, Any]:
    """The command's fields by name, then its type: what ``asdict`` gives (every field is a string,
    a number, None or a tuple of strings), without its deep copy of each value (an action's cost)."""
    kind = type(cmd)
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(f.name for f in fields(kind))
    data = {name: getattr(cmd, name) for name in names}
    data["type"] = cmd.name
    return data


def command_from_dict(data: dict[str, Any]) -> Command:
    data = dict(data)
    kind = data.pop("type", None)
    cls = COMMANDS.get(kind or "")
    if cls is None:
        raise ValueError(f"unknown command type {kind!r}; known: {', '.join(COMMANDS)}")
    allowed = {f.name for f in fields(cls)}
    extra = set(data) - allowed
    if extra:
        raise ValueError(f"command {kind} has unknown field(s) {sorted(extra)}")
    if "cards" in data:
        data["cards"] = tuple(data["cards"])
    return cls(**data)
