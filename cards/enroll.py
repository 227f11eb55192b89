"""Guided enrollment: walk the deck copy by copy and bind each tapped tag to the card asked for.

Pure logic, no pygame and no drivers: ``table/enroll.py`` puts it on screen. The session
asks for one physical copy at a time ("tap Plutonium Dragon — 37 of 174"), in a fixed
order: the six player tokens first (they are needed before any game), then every card of
the catalog in catalog order, each copy counted.

What is done comes from the tag registry itself: the copies of a card are interchangeable,
so a card with two UIDs in the registry has its first two copies enrolled, however they got
there (this wizard, ``tags import``, or a tag bound during play). The small progress file
beside the registry only remembers what the registry cannot: which copies were skipped, and
the history that UNDO walks back, so both survive a restart.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cards.files import write_atomically
from cards.tags import TagRegistry
from engine.cards import Catalog
from engine.state import PLAYER_TOKENS

PROGRESS_FILE = "enroll-progress.json"


@dataclass(frozen=True)
class Step:
    """One physical thing to tap: a copy of a card, or a player token."""

    card: str           # card id or player token
    name: str           # what the screen calls it
    copy: int           # 1-based copy number
    copies: int
    number: int         # 1-based position in the whole deck

    @property
    def label(self) -> str:
        return self.name if self.copies == 1 else f"{self.name} (copy {self.copy} of {self.copies})"


@dataclass(frozen=True)
class EnrollResult:
    ok: bool
    kind: str           # bound | skipped | undone | refused | finished | revisit
    message: str


def _token_name(token: str) -> str:
    return f"player token {token.split('-')[1]}"


class EnrollmentSession:
    """The wizard's state: which copy comes next, what a tap or a button does."""

    def __init__(self, catalog: Catalog, registry: TagRegistry, progress_path: Path | None = None, *,
                 set_id: str | None = None, tokens: bool = True) -> None:
        self.catalog = catalog
        self.registry = registry
        self.progress_path = progress_path
        entries: list[tuple[str, str, int]] = []
        if tokens:
            entries += [(t, _token_name(t), 1) for t in PLAYER_TOKENS]
        entries += [(c.id, c.name, c.copies) for c in catalog.values() if set_id is None or c.set_id == set_id]
        self.entries = entries
        self.total = sum(n for _, _, n in entries)
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
        step = self.current()
        if step is None:
            if self.skipped_count:
                return f"{self.done} of {self.total} enrolled; {self.skipped_count} skipped: NEXT goes back to them"
            return f"all {self.total} enrolled: the deck is ready"
        return f"tap {step.label} — {step.number} of {self.total}"

    def name_of(self, card: str) -> str:
        if card in self.catalog:
            item = self.catalog[card]
            return f"{item.name} ({item.kind.value})"
        if card in PLAYER_TOKENS:
            return _token_name(card)
        return card

    # ------------------------------------------------------------ actions

    def tap(self, uid: str) -> EnrollResult:
        step = self.current()
        owner = self.registry.lookup(uid)
        if step is None:
            where = f" (it is {self.name_of(owner)})" if owner else ""
            return EnrollResult(False, "finished", f"nothing left to enroll{where}; " + self.prompt())
        if owner is not None and owner != step.card:
            return EnrollResult(False, "refused", f"tag {uid} already belongs to {self.name_of(owner)}; "
                                                  f"tap {step.label} instead (NEXT skips, UNDO takes back)")
        if owner == step.card:
            return EnrollResult(False, "refused", f"tag {uid} is already enrolled as {step.name}; tap the next copy")
        self.registry.bind(uid, step.card)
        self.history.append({"do": "bind", "card": step.card, "uid": uid})
        self._save()
        return EnrollResult(True, "bound", f"{step.label} enrolled ({uid})")

    def skip(self) -> EnrollResult:
        step = self.current()
        if step is None:
            if not self.skipped_count:
                return EnrollResult(False, "finished", self.prompt())
            self.history.append({"do": "revisit", "skipped": self.skipped})
            self.skipped = {}
            self._save()
            return EnrollResult(True, "revisit", "back to the skipped copies")
        self.skipped[step.card] = self.skipped.get(step.card, 0) + 1
        self.history.append({"do": "skip", "card": step.card})
        self._save()
        return EnrollResult(True, "skipped", f"skipped {step.label}")

    def undo(self) -> EnrollResult:
        while self.history:
            last = self.history.pop()
            if last["do"] == "bind":
                if self.registry.lookup(last["uid"]) != last["card"]:
                    continue        # changed since (an import, a bind at the table): nothing of ours to undo
                self.registry.unbind(last["uid"])
                self._save()
                return EnrollResult(True, "undone", f"took back {last['uid']} from {self.name_of(last['card'])}")
            if last["do"] == "skip":
                count = self.skipped.get(last["card"], 0) - 1
                if count > 0:
                    self.skipped[last["card"]] = count
                else:
                    self.skipped.pop(last["card"], None)
                self._save()
                return EnrollResult(True, "undone", f"{self.name_of(last['card'])} is no longer skipped")
            if last["do"] == "revisit":
                self.skipped = {str(k): int(v) for k, v in last["skipped"].items()}
                self._save()
                return EnrollResult(True, "undone", "skipped copies are skipped again")
        return EnrollResult(False, "refused", "nothing to undo")

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
        self.name = catalog[card].name if card in catalog else _token_name(card)
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
        copies = "1 copy" if self.total == 1 else f"{self.total} copies"
        return (f"tap a tag for {self.name}: {self.done} tag(s) bound, the deck has {copies}; "
                "UNDO takes back, RUN ends")

    def name_of(self, card: str) -> str:
        if card in self.catalog:
            item = self.catalog[card]
            return f"{item.name} ({item.kind.value})"
        if card in PLAYER_TOKENS:
            return _token_name(card)
        return card

    def tap(self, uid: str) -> EnrollResult:
        owner = self.registry.lookup(uid)
        if owner == self.card:
            return EnrollResult(False, "refused", f"tag {uid} is already bound to {self.name}; tap another tag, or RUN")
        if owner is not None:
            return EnrollResult(False, "refused", f"tag {uid} already belongs to {self.name_of(owner)}; "
                                                  f"'munchkin-table enroll --card {owner}' and UNDO, or use another tag")
        self.registry.bind(uid, self.card)
        self.bound.append(uid)
        return EnrollResult(True, "bound", f"{uid} bound to {self.name} ({self.done} tag(s) now)")

    def skip(self) -> EnrollResult:
        return EnrollResult(False, "refused", f"NEXT does nothing here: tap a tag for {self.name}, UNDO takes back, RUN ends")

    def undo(self) -> EnrollResult:
        while self.bound:
            uid = self.bound.pop()
            if self.registry.lookup(uid) == self.card:
                self.registry.unbind(uid)
                return EnrollResult(True, "undone", f"took back {uid} from {self.name}")
        return EnrollResult(True, "quit", f"nothing to take back: done, {self.name} has {self.done} tag(s)")

    def __repr__(self) -> str:
        return f"<SingleCardSession {self.card} {self.done} tag(s), {len(self.bound)} this session>"


def deck_order(catalog: Catalog) -> list[str]:
    """Player tokens, then every card id in catalog order: the order the enrollment walks."""
    return [*PLAYER_TOKENS, *catalog]
