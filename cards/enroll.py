"""Guided enrollment: walk the deck copy by copy and bind each tapped tag to the card asked for.

Pure logic, no pygame and no drivers: ``table/app/enroll.py`` and ``table/ui/screens/enroll.py`` put it on
screen. The session asks for one physical copy at a time ("tap Plutonium Dragon — 37 of 174"), in a
fixed order (``enrollment_entries``, which ``munchkin-table cards checklist`` prints too): the six
player tokens first (they are needed before any game), then every card of the catalog in catalog
order, each copy counted.

What is done comes from the tag registry itself: the copies of a card are interchangeable,
so a card with two UIDs in the registry has its first two copies enrolled, however they got
there (this wizard, ``tags import``, or a tag bound during play). The small progress file
beside the registry only remembers what the registry cannot: which copies were skipped, and
the history that UNDO walks back, so both survive a restart.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cards.files import write_atomically
from cards.tags import TagRegistry
from engine.cards import Catalog
from engine.messages import Msg, nmsg
from engine.state import PLAYER_TOKENS

PROGRESS_FILE = "enroll-progress.json"


# A sentence for the screen is a message (engine/messages.py): its English template and the values
# that fill it in; ``str()`` is the English, the screen translates it (table/words/i18n.py: text).
Say = Msg


def say(template: str, **values: Any) -> Say:
    """A message. Templates are written out in say() calls: the catalog tools find them there."""
    return Msg(template, **values)


def say_n(singular: str, plural: str, count: str, **values: Any) -> Say:
    """A message with a plural form, chosen by the value named ``count`` (ngettext at the screen)."""
    return nmsg(singular, plural, count, **values)


@dataclass(frozen=True)
class Step:
    """One physical thing to tap: a copy of a card, or a player token."""

    card: str           # card id or player token
    name: str           # what the screen calls it
    copy: int           # 1-based copy number
    copies: int
    number: int         # 1-based position in the whole deck

    @property
    def title(self) -> Say:
        """The name on screen: a card's own (English) name, or a player token's, translated."""
        return _token_name(self.card) if self.card in PLAYER_TOKENS else say("{name}", name=self.name)

    @property
    def says(self) -> Say:
        """The name, with which copy when the card has several."""
        if self.copies == 1:
            return self.title
        return say("{name} (copy {i} of {n})", name=self.title, i=self.copy, n=self.copies)

    @property
    def label(self) -> str:
        return str(self.says)


@dataclass(frozen=True)
class EnrollResult:
    ok: bool
    kind: str           # bound | skipped | undone | refused | finished | revisit | quit
    says: Say

    @property
    def message(self) -> str:
        """The English sentence (for the log and the terminal)."""
        return str(self.says)


def _token_name(token: str) -> Say:
    return say("player token {n}", n=token.split("-")[1])


def _name_of(catalog: Catalog, card: str) -> Say:
    if card in catalog:
        item = catalog[card]
        return say("{name} ({kind})", name=item.name, kind=say(item.kind.value))
    if card in PLAYER_TOKENS:
        return _token_name(card)
    return say("{name}", name=card)


class EnrollmentSession:
    """The wizard's state: which copy comes next, what a tap or a button does."""

    def __init__(self, catalog: Catalog, registry: TagRegistry, progress_path: Path | None = None, *,
                 set_id: str | None = None, tokens: bool = True) -> None:
        self.catalog = catalog
        self.registry = registry
        self.progress_path = progress_path
        self.entries = enrollment_entries(catalog, set_id=set_id, tokens=tokens)
        self.total = sum(n for _, _, n in self.entries)
        self.skipped: dict[str, int] = {}
        self.history: list[dict[str, Any]] = []
        self._load()

    # ------------------------------------------------------------ progress file

    def _load(self) -> None:
        if self.progress_path is None or not self.progress_path.exists():
            return
        try:
            data = json.loads(self.progress_path.read_text(encoding="utf-8"))
            self.skipped = {str(k): int(v) for k, v in data.get("skipped", {}).items()}
            self.history = [dict(h) for h in data.get("history", [])]
        except (ValueError, TypeError, AttributeError):
            # A damaged progress file loses only the skips and the undo history; the registry is intact.
            self.skipped, self.history = {}, []

    def _save(self) -> None:
        if self.progress_path is None:
            return
        write_atomically(self.progress_path,
                         json.dumps({"version": 1, "skipped": self.skipped, "history": self.history}, indent=1))

    # ------------------------------------------------------------ where we are

    def enrolled_copies(self, card: str, copies: int) -> int:
        return min(copies, len(self.registry.uids_of(card)))

    def current(self) -> Step | None:
        """The copy to tap now, or None when every copy is enrolled or skipped."""
        number = 0
        for card, name, copies in self.entries:
            handled = self.enrolled_copies(card, copies) + min(self.skipped.get(card, 0), copies)
            handled = min(handled, copies)
            if handled < copies:
                return Step(card, name, handled + 1, copies, number + handled + 1)
            number += copies
        return None

    @property
    def done(self) -> int:
        """Copies enrolled (tags bound), out of ``total``."""
        return sum(self.enrolled_copies(card, copies) for card, _, copies in self.entries)

    @property
    def skipped_count(self) -> int:
        total = 0
        for card, _, copies in self.entries:
            total += min(self.skipped.get(card, 0), copies - self.enrolled_copies(card, copies))
        return total

    @property
    def progress(self) -> float:
        return self.done / self.total if self.total else 1.0

    @property
    def is_finished(self) -> bool:
        return self.current() is None

    def prompt(self) -> str:
        return str(self.prompt_says())

    def prompt_says(self) -> Say:
        step = self.current()
        if step is None:
            if self.skipped_count:
                return say("{done} of {total} enrolled; {skipped} skipped: NEXT goes back to them",
                           done=self.done, total=self.total, skipped=self.skipped_count)
            return say("all {total} enrolled: the deck is ready", total=self.total)
        return say("tap {card} — {n} of {total}", card=step.says, n=step.number, total=self.total)

    def name_of(self, card: str) -> Say:
        return _name_of(self.catalog, card)

    # ------------------------------------------------------------ actions

    def tap(self, uid: str) -> EnrollResult:
        step = self.current()
        owner = self.registry.lookup(uid)
        if step is None:
            if owner:
                return EnrollResult(False, "finished", say("nothing left to enroll (it is {card}); {prompt}",
                                                           card=self.name_of(owner), prompt=self.prompt_says()))
            return EnrollResult(False, "finished", say("nothing left to enroll; {prompt}", prompt=self.prompt_says()))
        if owner is not None and owner != step.card:
            return EnrollResult(False, "refused", say("tag {uid} already belongs to {card}; "
                                                      "tap {card2} instead (NEXT skips, UNDO takes back)",
                                                      uid=uid, card=self.name_of(owner), card2=step.says))
        if owner == step.card:
            return EnrollResult(False, "refused", say("tag {uid} is already enrolled as {card}; tap the next copy",
                                                      uid=uid, card=step.title))
        self.registry.bind(uid, step.card)
        self.history.append({"do": "bind", "card": step.card, "uid": uid})
        self._save()
        return EnrollResult(True, "bound", say("{card} enrolled ({uid})", card=step.says, uid=uid))

    def skip(self) -> EnrollResult:
        step = self.current()
        if step is None:
            if not self.skipped_count:
                return EnrollResult(False, "finished", self.prompt_says())
            self.history.append({"do": "revisit", "skipped": self.skipped})
            self.skipped = {}
            self._save()
            return EnrollResult(True, "revisit", say("back to the skipped copies"))
        self.skipped[step.card] = self.skipped.get(step.card, 0) + 1
        self.history.append({"do": "skip", "card": step.card})
        self._save()
        return EnrollResult(True, "skipped", say("skipped {card}", card=step.says))

    def undo(self) -> EnrollResult:
        while self.history:
            last = self.history.pop()
            if last["do"] == "bind":
                if self.registry.lookup(last["uid"]) != last["card"]:
                    continue        # changed since (an import, a bind at the table): nothing of ours to undo
                self.registry.unbind(last["uid"])
                self._save()
                return EnrollResult(True, "undone", say("took back {uid} from {card}", uid=last["uid"],
                                                        card=self.name_of(last["card"])))
            if last["do"] == "skip":
                count = self.skipped.get(last["card"], 0) - 1
                if count > 0:
                    self.skipped[last["card"]] = count
                else:
                    self.skipped.pop(last["card"], None)
                self._save()
                return EnrollResult(True, "undone", say("{card} is no longer skipped", card=self.name_of(last["card"])))
            if last["do"] == "revisit":
                self.skipped = {str(k): int(v) for k, v in last["skipped"].items()}
                self._save()
                return EnrollResult(True, "undone", say("skipped copies are skipped again"))
        return EnrollResult(False, "refused", say("nothing to undo"))

    def __repr__(self) -> str:
        return f"<EnrollmentSession {self.done}/{self.total} enrolled, {self.skipped_count} skipped>"


class SingleCardSession:
    """``enroll --card ID``: every tag tapped is bound to that one card, until RUN.

    For re-tagging a card whose sticker came off, or adding copies. UNDO takes back the last
    tag bound in this session; with nothing left to take back it ends the session, as RUN
    does. NEXT does nothing here. The same interface as EnrollmentSession, for the screen.
    """

    def __init__(self, catalog: Catalog, registry: TagRegistry, card: str) -> None:
        if card not in catalog and card not in PLAYER_TOKENS:
            raise KeyError(card)
        self.catalog = catalog
        self.registry = registry
        self.card = card
        self.title = say("{name}", name=catalog[card].name) if card in catalog else _token_name(card)
        self.name = str(self.title)
        self.total = catalog[card].copies if card in catalog else 1
        self.bound: list[str] = []          # UIDs bound in this session, for UNDO
        self.skipped_count = 0

    @property
    def done(self) -> int:
        return len(self.registry.uids_of(self.card))

    @property
    def progress(self) -> float:
        return min(1.0, self.done / self.total) if self.total else 1.0

    @property
    def is_finished(self) -> bool:
        return False                        # more tags may always be added; RUN ends it

    def current(self) -> Step:
        n = self.done + 1
        return Step(self.card, self.name, n, max(self.total, n), n)

    def prompt(self) -> str:
        return str(self.prompt_says())

    def prompt_says(self) -> Say:
        if self.total == 1:
            return say_n("tap a tag for {card}: {done} tag bound, the deck has 1 copy; UNDO takes back, RUN ends",
                         "tap a tag for {card}: {done} tags bound, the deck has 1 copy; UNDO takes back, RUN ends",
                         "done", card=self.title, done=self.done)
        return say_n("tap a tag for {card}: {done} tag bound, the deck has {n} copies; UNDO takes back, RUN ends",
                     "tap a tag for {card}: {done} tags bound, the deck has {n} copies; UNDO takes back, RUN ends",
                     "done", card=self.title, done=self.done, n=self.total)

    def name_of(self, card: str) -> Say:
        return _name_of(self.catalog, card)

    def tap(self, uid: str) -> EnrollResult:
        owner = self.registry.lookup(uid)
        if owner == self.card:
            return EnrollResult(False, "refused", say("tag {uid} is already bound to {card}; tap another tag, or RUN",
                                                      uid=uid, card=self.title))
        if owner is not None:
            return EnrollResult(False, "refused", say("tag {uid} already belongs to {card}; "
                                                      "'munchkin-table enroll --card {id}' and UNDO, or use another tag",
                                                      uid=uid, card=self.name_of(owner), id=owner))
        self.registry.bind(uid, self.card)
        self.bound.append(uid)
        return EnrollResult(True, "bound", say_n("{uid} bound to {card} ({n} tag now)",
                                                 "{uid} bound to {card} ({n} tags now)", "n",
                                                 uid=uid, card=self.title, n=self.done))

    def skip(self) -> EnrollResult:
        return EnrollResult(False, "refused", say("NEXT does nothing here: tap a tag for {card}, UNDO takes back, RUN ends",
                                                  card=self.title))

    def undo(self) -> EnrollResult:
        while self.bound:
            uid = self.bound.pop()
            if self.registry.lookup(uid) == self.card:
                self.registry.unbind(uid)
                return EnrollResult(True, "undone", say("took back {uid} from {card}", uid=uid, card=self.title))
        return EnrollResult(True, "quit", say_n("nothing to take back: done, {card} has {n} tag",
                                                "nothing to take back: done, {card} has {n} tags", "n",
                                                card=self.title, n=self.done))

    def __repr__(self) -> str:
        return f"<SingleCardSession {self.card} {self.done} tag(s), {len(self.bound)} this session>"


def enrollment_entries(catalog: Catalog, *, set_id: str | None = None, tokens: bool = True) -> list[tuple[str, str, int]]:
    """``(card id or player token, name, copies)`` in the order the wizard asks for them: the six
    player tokens (unless ``tokens`` is false), then the cards of the catalog (of ``set_id`` only,
    if given) in catalog order. The one ordering: the wizard, ``deck_order`` and ``checklist`` use it."""
    entries = [(t, str(_token_name(t)), 1) for t in PLAYER_TOKENS] if tokens else []
    entries += [(c.id, c.name, c.copies) for c in catalog.values() if set_id is None or c.set_id == set_id]
    return entries


def checklist(catalog: Catalog, *, set_id: str | None = None, tokens: bool = True) -> list[Step]:
    """Every tag to write, one per physical copy, in the order the wizard asks (``enrollment_entries``)."""
    steps: list[Step] = []
    for card, name, copies in enrollment_entries(catalog, set_id=set_id, tokens=tokens):
        steps += [Step(card, name, i, copies, len(steps) + i) for i in range(1, copies + 1)]
    return steps


def deck_order(catalog: Catalog) -> list[str]:
    """Player tokens, then every card id in catalog order: the order the enrollment walks."""
    return [card for card, _, _ in enrollment_entries(catalog)]
