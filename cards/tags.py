"""The tag registry: which NFC tag UID stands for which card or player token.

Kept as a CSV file (``uid,card``) in the state directory and always replaced
atomically, so a power cut leaves either the old registry or the new one.

A damaged file (edited by hand, written by another tool, torn, or garbage)
never stops the table: every good row is kept, every bad row is skipped with a
log line naming ``file:line``, the damaged file is copied aside as
``tags.csv.damaged-<timestamp>`` and a clean one is written in its place.
``TagRegistry.problems`` lists what was skipped, for the screen.
"""

from __future__ import annotations

import csv
import io
import logging
import time
from collections.abc import Container, Sequence
from dataclasses import dataclass
from pathlib import Path

from cards.files import write_atomically
from cards.textfile import csv_rows
from engine.messages import Seq, msg
from engine.state import PLAYER_TOKENS

log = logging.getLogger(__name__)

HEADER = ("uid", "card")
HEX = set("0123456789ABCDEF")


def parse_uid(text: str) -> str:
    """Upper-case hex of a 4-, 7- or 10-byte UID; raises ValueError naming the text."""
    cleaned = "".join(ch for ch in text.strip() if ch not in ": -").upper()
    if not cleaned or set(cleaned) - HEX or len(cleaned) not in (8, 14, 20):
        raise ValueError(f"{text!r} is not a tag UID (4, 7 or 10 bytes in hex, like 04A1B2C3D4E5F6)")
    return cleaned


def is_player_token(name: str) -> bool:
    return name in PLAYER_TOKENS


@dataclass(frozen=True)
class ImportProblem:
    """A row of an imported CSV that cannot be taken, with its line number."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def _header_problem(cells: list[str], number: int, *, required: bool) -> ImportProblem | None:
    """What is wrong with the first row as a header, or None when it is ``uid,card`` or a data row that may start the file."""
    lowered = tuple(c.lower() for c in cells)
    if lowered == HEADER:
        return None
    if lowered == HEADER[::-1]:
        return ImportProblem(number, "the header is 'card,uid': the columns are swapped; the tag UID comes first, "
                                     "write the header 'uid,card' and the rows as UID,card")
    joined = ",".join(cells)
    for sep, name in ((";", "semicolons"), ("\t", "tabs")):
        if len(cells) == 1 and sep in joined and set(c.strip().lower() for c in joined.split(sep)) <= set(HEADER):
            return ImportProblem(number, f"the columns are separated by {name}; separate them with a comma: 'uid,card'")
    if any(c in HEADER for c in lowered):
        return ImportProblem(number, f"the header must be 'uid,card', got {joined[:60]!r}")
    if required:
        return ImportProblem(number, f"no header: the first line must be 'uid,card', got {','.join(cells)[:60]!r}; "
                                     f"add the line 'uid,card' at the top")
    return None


def parse_tag_csv(text: str, known: Container[str], bound: dict[str, str], *,
                  require_header: bool = False) -> tuple[list[tuple[str, str]], list[ImportProblem]]:
    """The (uid, card) rows of a ``uid,card`` CSV, and every row that is wrong.

    ``known`` holds the card ids that exist; ``bound`` is what the registry already holds
    (UID → card). A row is wrong when its UID is malformed, its card is neither a known card
    nor a player token, or its UID already belongs to another card, in ``bound`` or higher up
    in the same file. Blank lines and lines starting with ``#`` are skipped; the header
    ``uid,card`` is optional unless ``require_header`` (an import by hand); a header with the
    columns swapped or misspelt is always a problem, named as such.
    """
    rows: list[tuple[str, str]] = []
    problems: list[ImportProblem] = []
    first_in_file: dict[str, tuple[str, int]] = {}
    header_seen = False
    swapped = False             # a 'card,uid' header: its rows are checked that way round (the header is the problem)
    # skipinitialspace: "uid", "card" as spreadsheets write it
    for number, line, cells, unreadable in csv_rows(text, skipinitialspace=True):
        if cells is None:
            problems.append(ImportProblem(number, unreadable or ""))
            continue
        lowered = tuple(c.lower() for c in cells)
        if not header_seen:
            header_seen = True
            problem = _header_problem(cells, number, required=require_header)
            if problem is not None:
                problems.append(problem)
            swapped = lowered == HEADER[::-1]
            if any(c in HEADER for c in lowered) or problem is not None and "separated by" in problem.message:
                continue                # a header, right or wrong; a missing one: this row is data
        elif lowered == HEADER:
            continue
        if len(cells) != 2:
            problems.append(ImportProblem(number, f"expected 2 columns 'uid,card', got {len(cells)}: {','.join(cells)!r}"))
            continue
        raw_uid, card = cells[::-1] if swapped else cells
        try:
            uid = parse_uid(raw_uid)
        except ValueError as exc:
            problems.append(ImportProblem(number, str(exc)))
            continue
        if not card or "\ufffd" in card or not card.isprintable():
            problems.append(ImportProblem(number, f"{card!r} is not a card id"))
            continue
        if not (card in known or is_player_token(card)):
            problems.append(ImportProblem(number, f"unknown card id {card!r} (not in the catalog, not player-1 … player-6)"))
            continue
        if uid in first_in_file and first_in_file[uid][0] != card:
            other, first_line = first_in_file[uid]
            problems.append(ImportProblem(number, f"tag {uid} is bound to {other!r} on line {first_line} of the same file"))
            continue
        if bound.get(uid, card) != card:
            problems.append(ImportProblem(number, f"tag {uid} already belongs to {bound[uid]!r} in the registry"))
            continue
        first_in_file.setdefault(uid, (card, number))
        rows.append((uid, card))
    if require_header and not header_seen:
        problems.append(ImportProblem(1, "the file is empty: expected the header 'uid,card' and then one row per tag"))
    return rows, problems


class _AnyCard:
    """``known`` when no catalog is given: every well-formed card id is taken."""

    def __contains__(self, item: object) -> bool:
        return True


class TagRegistry:
    """UID → card id or player token; several UIDs may share a card id.

    ``known`` (the catalog, or any container of card ids) lets loading skip rows whose
    card does not exist. Loading never raises: see ``problems`` and ``moved_aside``.
    """

    def __init__(self, path: Path | None = None, *, known: Container[str] | None = None,
                 read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only          # for commands that only look: a damaged file is reported, not rewritten
        self._by_uid: dict[str, str] = {}
        self.problems: list[str] = []       # "tags.csv:3: …", one per skipped row or failure
        self.moved_aside: Path | None = None
        if path is not None:
            self._load(path, _AnyCard() if known is None else known)

    def _load(self, path: Path, known: Container[str]) -> None:
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as exc:
            self._problem(Seq([msg("{file}: cannot read it ({error})", file=str(path), error=exc.strerror or str(exc)),
                               msg("starting with no tags")], "sentences"))
            return
        text = raw.decode("utf-8-sig", errors="replace")
        rows, problems = parse_tag_csv(text, known, {})
        self._by_uid = dict(rows)
        if not problems:
            return
        for problem in problems:
            self._problem(f"{path.name}:{problem.line}: {problem.message}; row skipped")
        if self.read_only:
            return
        self.moved_aside = self._keep_aside(path, raw)
        try:
            self.save()
        except OSError as exc:
            self._problem(msg("{file}: cannot write a clean copy ({error}); using the good rows anyway",
                              file=str(path), error=exc.strerror or str(exc)))

    def _problem(self, text: str) -> None:
        log.warning("tag registry: %s", text)
        self.problems.append(text)

    def _keep_aside(self, path: Path, raw: bytes) -> Path | None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = path.with_name(f"{path.name}.damaged-{stamp}")
        n = 1
        while aside.exists():
            n += 1
            aside = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
        try:
            aside.write_bytes(raw)      # exactly what was read, for whoever wants to recover a row by hand
        except OSError as exc:
            self._problem(msg("{file}: cannot keep the damaged file aside ({error})", file=str(path),
                              error=exc.strerror or str(exc)))
            return None
        log.warning("tag registry: kept the damaged %s aside as %s", path, aside)
        return aside

    def damage_report(self) -> str | None:
        """One line for the screen when loading skipped rows, else None."""
        if not self.problems:
            return None
        skipped = sum(1 for p in self.problems if p.endswith("row skipped"))
        name = self.path.name if self.path else "the tag registry"
        head = msg("{file} was damaged: skipped {n} bad row(s), kept {count} tag(s)", file=name, n=skipped,
                   count=len(self)) if skipped else self.problems[0]
        if self.moved_aside is not None:
            return Seq([head, msg("the old file is kept as {file}", file=self.moved_aside.name)], "sentences")
        return head

    def lookup(self, uid: str) -> str | None:
        return self._by_uid.get(uid)

    def uids_of(self, card: str) -> list[str]:
        return [u for u, c in self._by_uid.items() if c == card]

    def bind(self, uid: str, card: str) -> None:
        uid = parse_uid(uid)
        owner = self._by_uid.get(uid)
        if owner is not None and owner != card:
            raise ValueError(f"tag {uid} already belongs to {owner}")
        self._by_uid[uid] = card
        self.save()

    def bind_many(self, rows: list[tuple[str, str]]) -> int:
        """Bind every (uid, card) row, saving once; returns how many UIDs were new.

        Checks every row before binding any, so a clash leaves the registry as it was.
        """
        updated = dict(self._by_uid)
        for uid, card in rows:
            uid = parse_uid(uid)
            owner = updated.get(uid)
            if owner is not None and owner != card:
                raise ValueError(f"tag {uid} already belongs to {owner}")
            updated[uid] = card
        new = len(updated) - len(self._by_uid)
        self._by_uid = updated
        self.save()
        return new

    def as_dict(self) -> dict[str, str]:
        return dict(self._by_uid)

    def unbind(self, uid: str) -> None:
        if self._by_uid.pop(uid, None) is not None:
            self.save()

    def items(self, order: Sequence[str] | None = None) -> list[tuple[str, str]]:
        """(uid, card) pairs by card id, or in ``order`` of card ids (others after, by id); UIDs sorted within a card."""
        if order is None:
            return sorted(self._by_uid.items(), key=lambda kv: (kv[1], kv[0]))
        rank = {card: n for n, card in enumerate(order)}
        last = len(rank)
        return sorted(self._by_uid.items(), key=lambda kv: (rank.get(kv[1], last), kv[1], kv[0]))

    def to_csv(self, order: Sequence[str] | None = None) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(HEADER)
        writer.writerows(self.items(order))
        return out.getvalue()

    def save(self) -> None:
        if self.path is None:
            return
        write_atomically(self.path, self.to_csv())

    def __len__(self) -> int:
        return len(self._by_uid)

    def __repr__(self) -> str:
        return f"<TagRegistry {len(self._by_uid)} tags at {self.path}>"
