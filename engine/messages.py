"""Messages as data: an id (the English template, which is also the gettext msgid) and named values.

The engine and the controller never build a finished sentence for the screen. They build a ``Msg``:
``Msg("{card} is not equipped", card=card)``. A ``Msg`` is also a ``str`` whose text is the English
sentence, so logs, ``simulate``'s stderr and tests read it as they always did; the screen renders it in
its own language through ``Msg.render`` (``table/words/i18n.py`` supplies the translations).

Values keep what they are: a card (``CardRef``: its id, and its English name as text), a player
(``PlayerRef``), a word the catalogs translate (``Word``: a phase, a sex, a side), a list (``Seq``), a
number, a nested ``Msg``, or plain text shown as it is (a tag UID, a file name).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Any, Protocol


class Translator(Protocol):
    """What ``Msg.render`` needs from the screen's language."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def card(self, card_id: str, english: str) -> str: ...

    def player(self, player_id: str, english: str) -> str: ...


class CardRef(str):
    """A card in a message: its English name as text, its id for the name in another language."""

    id: str

    def __new__(cls, card_id: str, name: str) -> CardRef:
        obj = super().__new__(cls, name)
        obj.id = card_id
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (CardRef, (self.id, str(self)))


class PlayerRef(str):
    """A player in a message: their name as text, and their token id."""

    id: str

    def __new__(cls, player_id: str, name: str) -> PlayerRef:
        obj = super().__new__(cls, name)
        obj.id = player_id
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (PlayerRef, (self.id, str(self)))


class Word(str):
    """A word or phrase the catalogs translate on its own: a phase, a sex, a side of a fight, a verb."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (Word, (str(self),))


# How a Seq joins its parts, in English; the catalogs translate the joiners themselves.
JOINERS = {"and": " and ", "or": " or ", "list": ", ", "sentences": "; "}


class Seq(str):
    """Several values shown as one: names joined with "and", phases with "or", sentences with "; "."""

    items: tuple[Any, ...]
    joiner: str

    def __new__(cls, items: Iterable[Any], joiner: str = "list") -> Seq:
        parts = tuple(wrap(i) for i in items)
        obj = super().__new__(cls, JOINERS[joiner].join(str(p) for p in parts))
        obj.items = parts
        obj.joiner = joiner
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (Seq, (self.items, self.joiner))


class Msg(str):
    """A message: ``id`` is its English template (the msgid), ``values`` fill it in.

    A plural message has ``plural`` (the English plural template) and ``count`` (which value
    chooses the form, through ``ngettext``).
    """

    id: str
    values: dict[str, Any]
    plural: str
    count: str  # type: ignore[assignment]  # the value that picks the plural form; str.count is never used on a Msg

    def __new__(cls, template: str, /, *, _plural: str = "", _count: str = "", **values: Any) -> Msg:
        wrapped = {k: wrap(v) for k, v in values.items()}
        english = _fill(_choose(template, _plural, wrapped.get(_count)), wrapped)
        obj = super().__new__(cls, english)
        obj.id = template
        obj.values = wrapped
        obj.plural = _plural
        obj.count = _count
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.id, self.plural, self.count, self.values))

    def __repr__(self) -> str:
        return f"Msg({self.id!r}, {self.values!r})"

    def text(self, translate: Any = None) -> str:
        """The message through a plain gettext function ``translate`` (English without one)."""
        return self.render(_Plain(translate)) if translate is not None else str(self)

    def render(self, tr: Translator | None = None) -> str:
        """The message in ``tr``'s language (English without one)."""
        if tr is None:
            return str(self)
        values = {k: render_value(v, tr) for k, v in self.values.items()}
        if self.plural:
            template = tr.ngettext(self.id, self.plural, _as_int(self.values.get(self.count)))
        else:
            template = tr.gettext(self.id)
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):      # a translation that lost a placeholder: English, not nothing
            return _fill(_choose(self.id, self.plural, self.values.get(self.count)), values)


class _Plain:
    """A Translator from a single gettext function: names as they are, plurals chosen the English way."""

    def __init__(self, translate: Any) -> None:
        self.translate = translate

    def gettext(self, message: str) -> str:
        return str(self.translate(message))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return str(self.translate(singular if n == 1 else plural))

    def card(self, card_id: str, english: str) -> str:
        return english

    def player(self, player_id: str, english: str) -> str:
        return english


def _rebuild(template: str, plural: str, count: str, values: dict[str, Any]) -> Msg:
    return Msg(template, _plural=plural, _count=count, **values)


def _as_int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _choose(template: str, plural: str, n: Any) -> str:
    return plural if plural and _as_int(n) != 1 else template


def _fill(template: str, values: dict[str, Any]) -> str:
    return template.format(**values)


def msg(template: str, /, **values: Any) -> Msg:
    """A message; written out in calls like this one, so the catalog tools find the template."""
    return Msg(template, **values)


def nmsg(singular: str, plural: str, count: str, /, **values: Any) -> Msg:
    """A message with a singular and a plural form, chosen by the value named ``count``."""
    return Msg(singular, _plural=plural, _count=count, **values)


def word(text: str) -> Word:
    """A word the catalogs translate on its own; written out here so the catalog tools find it."""
    return Word(text)


def wrap(value: Any) -> Any:
    """A value as a message carries it: cards, players and phases by what they are."""
    if isinstance(value, (Msg, CardRef, PlayerRef, Word, Seq)):
        return value
    kind = type(value).__name__
    if kind == "CardDef":
        return CardRef(value.id, value.name)
    if kind == "Player":
        return PlayerRef(value.id, value.name)
    if kind == "Phase":
        return Word(value.value.replace("-", " "))
    if isinstance(value, Enum):
        return Word(str(value.value))
    return value


def render_value(value: Any, tr: Translator) -> Any:
    if isinstance(value, Msg):
        return value.render(tr)
    if isinstance(value, Seq):
        return tr.gettext(JOINERS[value.joiner]).join(str(render_value(v, tr)) for v in value.items)
    if isinstance(value, CardRef):
        return tr.card(value.id, str(value))
    if isinstance(value, PlayerRef):
        return tr.player(value.id, str(value))
    if isinstance(value, Word):
        return tr.gettext(str(value))
    return value
