"""What happened: one frozen dataclass per kind of event the engine reports, named in the past tense.

``apply`` returns them in ``Accepted.events``; ``GameEvent`` is their union, so a ``match`` over it
that forgets one fails type checking (end it with ``typing.assert_never``). Each keeps ``name`` (its
class name) and ``data`` (``Event``, below). ``CombatEnd`` says how a fight ended.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, Union, cast, get_args

OPTIONAL = {"optional": True}       # left out of ``data`` while it has its default, as the untyped events did


@dataclass(frozen=True, kw_only=True)
class Event:
    """Something that happened, past tense: each kind is a dataclass below.

    ``automatic`` marks what the players did not do themselves (a turn starting, a fight ending):
    the message line leaves it out. ``name`` is the class name and ``data`` the fields as a plain
    dict, keyed as the engine's events were before they were typed; ``data`` is for the transition,
    while table code moves to the typed fields, and goes once nothing reads it.
    """

    automatic: bool = False

    @property
    def name(self) -> str:
        return type(self).__name__

    @property
    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "automatic":
                continue
            value = getattr(self, f.name)
            if f.metadata.get("optional") and value == f.default:
                continue
            out[f.metadata.get("key", f.name.rstrip("_"))] = _plain(value)
        return out


def _plain(value: Any) -> Any:
    """A field's value as the untyped events had it: lists, dicts and strings."""
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return dict(value)
    return value


class CombatEnd(StrEnum):
    """How a fight ended. The values are the words the game facts have always stored."""

    KILLED = "kill"              # the players won
    DIED = "death"               # the fighter died
    RAN_AWAY = "ran away"        # every fleeing player rolled (or was caught)
    ESCAPED = "escaped"          # a card got the fighter away without a roll
    CHARMED = "charm"            # the last monster was charmed away
    CHASED = "chased"            # the last monster was chased off
    IGNORED = "ignored"          # the monster would not fight this player
    BY_CARD = "card"             # a card ended it (``CombatEnded.card`` names it)


@dataclass(frozen=True, kw_only=True)
class CombatEnded(Event):
    """The fight is over (``how``; ``card`` is the card that ended it for ``CombatEnd.BY_CARD``)."""
    how: CombatEnd
    card: str | None = None
    automatic: bool = True

    @property
    def data(self) -> dict[str, Any]:
        return {"how": self.card if self.how is CombatEnd.BY_CARD else str(self.how)}


@dataclass(frozen=True, kw_only=True)
class AbilityUsed(Event):
    """A race or class ability was used (berserk, turning, flight, charm, chase, backstab)."""
    player: str
    ability: str
    count: int | None = field(default=None, metadata=OPTIONAL)
    bonus: int | None = field(default=None, metadata=OPTIONAL)
    monster: str | None = field(default=None, metadata=OPTIONAL)
    target: str | None = field(default=None, metadata=OPTIONAL)


@dataclass(frozen=True, kw_only=True)
class AutoEscape(Event):
    """A card got these players away from the fight without a roll."""
    players: tuple[str, ...]
    by: str


@dataclass(frozen=True, kw_only=True)
class BadStuffRollAsked(Event):
    """A piece of bad stuff needs the die: ``player`` rolls it at the table (ROLL)."""
    player: str
    source: str


@dataclass(frozen=True, kw_only=True)
class BadStuffRolled(Event):
    """A die was rolled (or a count fixed) for a piece of bad stuff."""
    player: str
    roll: int
    source: str


@dataclass(frozen=True, kw_only=True)
class CardDiscarded(Event):
    """A player discarded a card they had in play."""
    player: str
    card: str


@dataclass(frozen=True, kw_only=True)
class CharityDue(Event):
    """The turn ended with charity to give: the hand limit and who receives."""
    player: str
    hand_limit: int
    receivers: tuple[str, ...]
    automatic: bool = True


@dataclass(frozen=True, kw_only=True)
class CheatAttached(Event):
    """Cheat! was attached to an item."""
    player: str
    card: str


@dataclass(frozen=True, kw_only=True)
class ClassChosen(Event):
    """A class card was played; ``replaced`` are the classes it took the place of."""
    player: str
    card: str
    replaced: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class ClassLost(Event):
    """A player lost a class (``card``), or every class when ``card`` is None."""
    player: str
    card: str | None = field(default=None, metadata=OPTIONAL)
    source: str


@dataclass(frozen=True, kw_only=True)
class CombatStarted(Event):
    """A player kicked open a monster: the fight began."""
    card: str
    player: str


@dataclass(frozen=True, kw_only=True)
class CurseBlocked(Event):
    """An item (``by``) stopped a curse."""
    card: str
    victim: str
    by: str


@dataclass(frozen=True, kw_only=True)
class CurseCancelled(Event):
    """A card (``by``) lifted a lasting curse."""
    player: str
    card: str
    by: str


@dataclass(frozen=True, kw_only=True)
class CurseMissed(Event):
    """A curse found nothing to take."""
    player: str
    source: str


@dataclass(frozen=True, kw_only=True)
class CursePlayed(Event):
    """A curse hit its victim."""
    card: str
    victim: str


@dataclass(frozen=True, kw_only=True)
class CurseRemoved(Event):
    """A lasting curse went away (with the headgear it sat on)."""
    player: str
    card: str
    why: str


@dataclass(frozen=True, kw_only=True)
class DivineIntervention(Event):
    """Divine Intervention was played: every cleric went up a level."""
    by: str


@dataclass(frozen=True, kw_only=True)
class DoorClosed(Event):
    """The door is closed: the player may look for trouble or loot the room."""
    player: str
    by: str | None = field(default=None, metadata=OPTIONAL)


@dataclass(frozen=True, kw_only=True)
class EscapeUndone(Event):
    """A card took an escape back: the player rolls again."""
    player: str
    by: str


@dataclass(frozen=True, kw_only=True)
class FightTransferred(Event):
    """A card gave the fight to another player."""
    from_: tuple[str, ...]
    to: str
    by: str


@dataclass(frozen=True, kw_only=True)
class FirstPlayerChosen(Event):
    """The die chose who starts."""
    player: str


@dataclass(frozen=True, kw_only=True)
class GameStarted(Event):
    """The game began: the players in seat order, who starts and the deal."""
    players: tuple[str, ...]
    first: str
    deal: Mapping[str, int]


@dataclass(frozen=True, kw_only=True)
class GameWon(Event):
    """Someone reached the winning level."""
    winners: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class HandDiscarded(Event):
    """A player discarded their whole hand."""
    player: str
    source: str


@dataclass(frozen=True, kw_only=True)
class HelperJoined(Event):
    """A player joined the fight as the helper."""
    player: str


@dataclass(frozen=True, kw_only=True)
class IllusionPlayed(Event):
    """Illusion was played on a monster; the table waits for its replacement."""
    monster: str
    by: str


@dataclass(frozen=True, kw_only=True)
class ItemCarried(Event):
    """An item went into play carried, not equipped (``why`` says why it gives no bonus)."""
    player: str
    card: str
    why: str


@dataclass(frozen=True, kw_only=True)
class ItemEquipped(Event):
    """A player equipped an item."""
    player: str
    card: str


@dataclass(frozen=True, kw_only=True)
class ItemGiven(Event):
    """An item changed hands (promised in a fight, or over the Big-item limit)."""
    player: str
    to: str
    card: str
    promised: bool = field(default=False, metadata=OPTIONAL)
    source: str | None = field(default=None, metadata=OPTIONAL)


@dataclass(frozen=True, kw_only=True)
class ItemPromised(Event):
    """An item was promised to the helper if the fight is won."""
    player: str
    to: str
    card: str


@dataclass(frozen=True, kw_only=True)
class ItemTaken(Event):
    """A player took an item from another (a card, or looting a body)."""
    player: str
    from_: str
    card: str
    by: str | None = field(default=None, metadata=OPTIONAL)
    passed: tuple[str, ...] | None = field(default=None, metadata=OPTIONAL)
    discarded: tuple[str, ...] | None = field(default=None, metadata=OPTIONAL)


@dataclass(frozen=True, kw_only=True)
class ItemToLoseAsked(Event):
    """The table waits for the player to tap the item(s) to lose."""
    player: str
    kind: str
    count: int
    gold: int
    source: str


@dataclass(frozen=True, kw_only=True)
class ItemUnequipped(Event):
    """A player took an item off."""
    player: str
    card: str


@dataclass(frozen=True, kw_only=True)
class ItemsLost(Event):
    """A player lost these items (``cards`` may be empty)."""
    player: str
    cards: tuple[str, ...]
    source: str


@dataclass(frozen=True, kw_only=True)
class ItemsSold(Event):
    """Items were sold for levels."""
    player: str
    cards: tuple[str, ...]
    gold: int
    levels: int
    wasted: int
    double: bool


@dataclass(frozen=True, kw_only=True)
class LevelGained(Event):
    """A player went up from level ``from_`` to ``to``."""
    player: str
    from_: int
    to: int
    why: str | None = field(default=None, metadata=OPTIONAL)


@dataclass(frozen=True, kw_only=True)
class LevelLost(Event):
    """A player went down from level ``from_`` to ``to``."""
    player: str
    from_: int
    to: int
    why: str | None = field(default=None, metadata=OPTIONAL)


@dataclass(frozen=True, kw_only=True)
class MonsterEnhanced(Event):
    """A monster enhancer went on the monster at ``index``."""
    card: str
    monster: str
    index: int


@dataclass(frozen=True, kw_only=True)
class MonsterIgnoresPlayer(Event):
    """The monster will not fight this player; ``treasures`` drawn."""
    card: str
    player: str
    treasures: int


@dataclass(frozen=True, kw_only=True)
class MonsterJoined(Event):
    """Another monster joined the fight (``mate``: Mate's copy)."""
    card: str
    by: str
    mate: bool = field(default=False, metadata=OPTIONAL)


@dataclass(frozen=True, kw_only=True)
class MonsterRemoved(Event):
    """A card took a monster out of the fight."""
    card: str
    by: str


@dataclass(frozen=True, kw_only=True)
class MonsterReplaced(Event):
    """A monster replaced another (Illusion)."""
    card: str
    old: str
    by: str


@dataclass(frozen=True, kw_only=True)
class MonsterSlain(Event):
    """A card killed a monster outright."""
    card: str
    by: str


@dataclass(frozen=True, kw_only=True)
class MonstersDiscarded(Event):
    """A card made the monsters go away; ``treasures`` drawn."""
    card: str
    by: str
    treasures: int


@dataclass(frozen=True, kw_only=True)
class MonstersKilled(Event):
    """The players won the fight."""
    player: str
    monsters: tuple[str, ...]
    levels: int
    treasures: int
    face_up: bool


@dataclass(frozen=True, kw_only=True)
class NextCombatCursed(Event):
    """A curse will hit the player in their next combat."""
    player: str
    source: str


@dataclass(frozen=True, kw_only=True)
class OneShotPlayed(Event):
    """A one-shot added ``bonus`` to a side (``double``: doubles the players)."""
    card: str
    side: str
    bonus: int
    double: bool = field(default=False, metadata=OPTIONAL)


@dataclass(frozen=True, kw_only=True)
class PlayerDied(Event):
    """A player died: what they lost and the order the others loot in."""
    player: str
    lost: tuple[str, ...]
    loot_order: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class PlayerJoined(Event):
    """A player joined at the table, in ``seat``."""
    player: str
    seat: int


@dataclass(frozen=True, kw_only=True)
class PlayerLeft(Event):
    """A player left the game."""
    player: str


@dataclass(frozen=True, kw_only=True)
class PlayerRenamed(Event):
    """A player was given a name."""
    player: str
    name_: str


@dataclass(frozen=True, kw_only=True)
class PlayerRevived(Event):
    """A dead player came back at their turn with a new hand."""
    player: str
    deal: int
    automatic: bool = True


@dataclass(frozen=True, kw_only=True)
class PlayersMustAct(Event):
    """The players must do something by hand (``text`` is the card's words)."""
    player: str
    text: str
    source: str


@dataclass(frozen=True, kw_only=True)
class RaceChosen(Event):
    """A race card was played; ``replaced`` are the races it took the place of."""
    player: str
    card: str
    replaced: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class RaceLost(Event):
    """A player lost their race."""
    player: str
    source: str


@dataclass(frozen=True, kw_only=True)
class HandLooted(Event):
    """A looter took their card from the dead player's hand (the box cannot see which); the last looter's
    pick discards what is left on the body (``discarded``)."""
    player: str
    from_: str
    discarded: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class LootOrderRolled(Event):
    """A looter tied at a level with another rolled the die at the table for the looting order."""
    player: str
    roll: int


@dataclass(frozen=True, kw_only=True)
class RestFromHand(Event):
    """The rest of a loss comes from the player's hand."""
    player: str
    count: int
    source: str


@dataclass(frozen=True, kw_only=True)
class RollRetaken(Event):
    """A roll is taken again (a card or an ability, ``by``)."""
    by: str


@dataclass(frozen=True, kw_only=True)
class RoomLooted(Event):
    """The player looted the room."""
    player: str


@dataclass(frozen=True, kw_only=True)
class RunAwayDeclared(Event):
    """The players started to run away."""
    players: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class RunAwayFailed(Event):
    """A fleeing player was caught (``without_roll``: no die was rolled)."""
    player: str
    monster: str
    roll: int
    total: int
    without_roll: bool = field(default=False, metadata={"key": "automatic", "optional": True})


@dataclass(frozen=True, kw_only=True)
class RunAwaySucceeded(Event):
    """A fleeing player escaped a monster (``without_roll``: no die was rolled)."""
    player: str
    monster: str
    roll: int
    total: int
    without_roll: bool = field(default=False, metadata={"key": "automatic", "optional": True})


@dataclass(frozen=True, kw_only=True)
class SexChanged(Event):
    """A player's sex changed (by a curse: ``source``)."""
    player: str
    sex: str
    source: str | None = field(default=None, metadata=OPTIONAL)


@dataclass(frozen=True, kw_only=True)
class SpecialPlayed(Event):
    """A special card was played."""
    player: str
    card: str


@dataclass(frozen=True, kw_only=True)
class TheftFailed(Event):
    """A thief's roll failed."""
    player: str
    from_: str
    card: str
    roll: int


@dataclass(frozen=True, kw_only=True)
class TheftSucceeded(Event):
    """A thief stole an item."""
    player: str
    from_: str
    card: str
    roll: int


@dataclass(frozen=True, kw_only=True)
class TreasuresAdded(Event):
    """A card added treasures to draw."""
    player: str
    n: int
    by: str


@dataclass(frozen=True, kw_only=True)
class TurnEnded(Event):
    """A turn ended."""
    player: str
    turn: int


@dataclass(frozen=True, kw_only=True)
class TurnStarted(Event):
    """A turn began."""
    player: str
    turn: int
    automatic: bool = True


@dataclass(frozen=True, kw_only=True)
class WanderingMonsterPlayed(Event):
    """Wandering Monster was played; the table waits for the monster."""
    by: str


@dataclass(frozen=True, kw_only=True)
class WindowClosed(Event):
    """The interference window closed early (``why``)."""
    why: str
    automatic: bool = True


@dataclass(frozen=True, kw_only=True)
class WindowOpened(Event):
    """The players are winning: the interference window opened."""
    until: float | None
    seconds: float


@dataclass(frozen=True, kw_only=True)
class WindowReopened(Event):
    """The fight came back (a one-shot after the window): the window opened again."""
    until: float | None
    seconds: float


@dataclass(frozen=True, kw_only=True)
class WindowRestarted(Event):
    """The interference window started again."""
    until: float | None
    automatic: bool = True

GameEvent = Union[
    AbilityUsed, AutoEscape, BadStuffRollAsked, BadStuffRolled, CardDiscarded, CharityDue, CheatAttached, ClassChosen, ClassLost,
    CombatEnded, CombatStarted, CurseBlocked, CurseCancelled, CurseMissed, CursePlayed, CurseRemoved,
    DivineIntervention, DoorClosed, EscapeUndone, FightTransferred, FirstPlayerChosen, GameStarted, GameWon,
    HandDiscarded, HandLooted, HelperJoined, IllusionPlayed, ItemCarried, ItemEquipped, ItemGiven, ItemPromised, ItemTaken,
    ItemToLoseAsked, ItemUnequipped, ItemsLost, ItemsSold, LevelGained, LevelLost, LootOrderRolled, MonsterEnhanced,
    MonsterIgnoresPlayer, MonsterJoined, MonsterRemoved, MonsterReplaced, MonsterSlain, MonstersDiscarded,
    MonstersKilled, NextCombatCursed, OneShotPlayed, PlayerDied, PlayerJoined, PlayerLeft, PlayerRenamed,
    PlayerRevived, PlayersMustAct, RaceChosen, RaceLost, RestFromHand, RollRetaken, RoomLooted,
    RunAwayDeclared, RunAwayFailed, RunAwaySucceeded, SexChanged, SpecialPlayed, TheftFailed, TheftSucceeded,
    TreasuresAdded, TurnEnded, TurnStarted, WanderingMonsterPlayed, WindowClosed, WindowOpened, WindowReopened,
    WindowRestarted,
]
"""Every event the engine emits: ``describe`` and the folds match on it exhaustively."""


EVENT_TYPES: dict[str, type[Event]] = {cls.__name__: cls for cls in get_args(GameEvent)}


def event_from_data(name: str, data: Mapping[str, Any], *, automatic: bool | None = None) -> GameEvent:
    """The event called ``name`` built from a ``data``-style mapping (lists become tuples; keys the
    event does not have are ignored). For tools and tests that describe events they make up."""
    cls = EVENT_TYPES[name]
    values: dict[str, Any] = {}
    for f in fields(cls):
        key = f.metadata.get("key", f.name.rstrip("_"))
        if f.name != "automatic" and key in data:
            value = data[key]
            values[f.name] = tuple(value) if isinstance(value, list) else value
    if name == "CombatEnded" and "how" in data:
        how = str(data["how"])
        known = how in {str(m) for m in CombatEnd}
        values["how"] = CombatEnd(how) if known else CombatEnd.BY_CARD
        values["card"] = None if known else how
    if automatic is not None:
        values["automatic"] = automatic
    return cast("GameEvent", cls(**values))       # EVENT_TYPES holds exactly the classes of GameEvent
