"""Load card sets (TOML, one file per set) into the engine's card types, checking every field.

Each problem is reported with its file, line and field, so a person editing a
set file can find it: ``base.toml:812: card 'huge-rock': bonus must be a whole number``.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cards.textfile import TextFileError, read_text, split_lines
from engine.cards import Catalog, CardDef, Effect, Kind, Slot, VsModifier
from engine.effects import check_effect
from engine.errors import CatalogError

DATA_DIR = Path(__file__).with_name("data")
BASE_SET = DATA_DIR / "base.toml"
SET_FIELDS = {"id", "name", "name_es", "name_zh", "note"}
CARD_HEADER = re.compile(r"^\s*\[\[\s*card\s*\]\]\s*(?:#.*)?$")

INT_FIELDS = ("copies", "level", "treasures", "levels_gained", "bonus", "gold")
STR_FIELDS = ("id", "name", "deck", "kind", "slot", "requires", "note")
BOOL_FIELDS = ("big", "undead")
LIST_FIELDS = ("vs", "bad_stuff", "effects")
NAME_FIELDS = ("name_es", "name_zh")
CARD_FIELDS = set(INT_FIELDS + STR_FIELDS + BOOL_FIELDS + LIST_FIELDS + NAME_FIELDS)
DECKS = ("door", "treasure")
ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class CatalogProblem:
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        if self.line == 0:          # the whole file: it could not be read
            return self.message if self.path in self.message else f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"


class _Lines:
    """Finds the line of the n-th ``[[card]]`` table and of a key inside it."""

    def __init__(self, text: str) -> None:
        self.lines = split_lines(text)       # newline only, as TOML counts lines
        self.starts = [i for i, line in enumerate(self.lines) if CARD_HEADER.match(line)]

    def card(self, n: int) -> int:
        return self.starts[n] + 1 if n < len(self.starts) else 1

    def key(self, n: int, key: str) -> int:
        if n >= len(self.starts):
            return 1
        end = self.starts[n + 1] if n + 1 < len(self.starts) else len(self.lines)
        pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
        for i in range(self.starts[n], end):
            if pattern.match(self.lines[i]):
                return i + 1
        return self.starts[n] + 1


def _parse_card(raw: dict[str, Any], n: int, where: _Lines, path: str, set_id: str,
                problems: list[CatalogProblem]) -> CardDef | None:
    label = f"card {raw.get('id')!r}" if isinstance(raw.get("id"), str) else f"card #{n + 1}"

    def bad(key: str, message: str) -> None:
        problems.append(CatalogProblem(path, where.key(n, key), f"{label}: {message}"))

    before = len(problems)
    for key in sorted(set(raw) - CARD_FIELDS):
        bad(key, f"unknown key {key!r}; known keys: {', '.join(sorted(CARD_FIELDS))}")
    for key in ("id", "name", "deck", "kind"):
        if key not in raw:
            problems.append(CatalogProblem(path, where.card(n), f"{label}: missing {key!r}"))
    for key in INT_FIELDS:
        if key in raw and (not isinstance(raw[key], int) or isinstance(raw[key], bool)):
            bad(key, f"{key} must be a whole number, got {raw[key]!r}")
    for key in STR_FIELDS + NAME_FIELDS:
        if key in raw and not isinstance(raw[key], str):
            bad(key, f"{key} must be text, got {raw[key]!r}")
    for key in BOOL_FIELDS:
        if key in raw and not isinstance(raw[key], bool):
            bad(key, f"{key} must be true or false, got {raw[key]!r}")
    if isinstance(raw.get("id"), str) and not ID_PATTERN.match(raw["id"]):
        bad("id", f"id must be a lowercase slug like 'plutonium-dragon', got {raw['id']!r}")
    if isinstance(raw.get("deck"), str) and raw["deck"] not in DECKS:
        bad("deck", f"deck must be door or treasure, got {raw['deck']!r}")
    kind = None
    if isinstance(raw.get("kind"), str):
        try:
            kind = Kind(raw["kind"])
        except ValueError:
            bad("kind", f"unknown kind {raw['kind']!r}; kinds: {', '.join(k.value for k in Kind)}")
    slot = None
    if isinstance(raw.get("slot"), str):
        try:
            slot = Slot(raw["slot"])
        except ValueError:
            bad("slot", f"unknown slot {raw['slot']!r}; slots: {', '.join(s.value for s in Slot)}")
    if kind is Kind.MONSTER:
        for key in ("level", "treasures"):
            if key not in raw:
                problems.append(CatalogProblem(path, where.card(n), f"{label}: a monster needs {key!r}"))
    if isinstance(raw.get("copies"), int) and raw["copies"] < 1:
        bad("copies", f"copies must be at least 1, got {raw['copies']}")

    def effects(key: str) -> tuple[Effect, ...]:
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
            bad(key, f"{key} must be a list of tables like {{ op = \"lose-levels\", n = 1 }}")
            return ()
        found = []
        for item in value:
            item = dict(item)
            op = item.pop("op", None)
            if not isinstance(op, str):
                bad(key, f"every entry of {key} needs op = \"...\"")
                continue
            effect = Effect(op, item)
            problem = check_effect(effect)
            if problem:
                bad(key, problem)
            found.append(effect)
        return tuple(found)

    vs: list[VsModifier] = []
    raw_vs = raw.get("vs", [])
    if not isinstance(raw_vs, list):
        bad("vs", "vs must be a list like [{ target = \"elf\", bonus = 4 }]")
    else:
        for item in raw_vs:
            if (not isinstance(item, dict) or set(item) != {"target", "bonus"}
                    or not isinstance(item["target"], str) or not isinstance(item["bonus"], int)):
                bad("vs", f"each vs entry needs target (text) and bonus (whole number), got {item!r}")
            else:
                vs.append(VsModifier(item["target"], item["bonus"]))
    bad_stuff, card_effects = effects("bad_stuff"), effects("effects")
    if len(problems) > before or kind is None:
        return None
    names = {lang: raw[f"name_{lang}"] for lang in ("es", "zh") if f"name_{lang}" in raw}
    return CardDef(
        id=raw["id"], name=raw["name"], kind=kind, deck=raw["deck"], copies=raw.get("copies", 1),
        level=raw.get("level"), treasures=raw.get("treasures"), levels_gained=raw.get("levels_gained"),
        bonus=raw.get("bonus"), gold=raw.get("gold"), slot=slot, big=raw.get("big", False),
        requires=raw.get("requires"), undead=raw.get("undead", False), vs=tuple(vs),
        bad_stuff=bad_stuff, effects=card_effects, note=raw.get("note", ""), names=names, set_id=set_id,
    )


def read_set(path: Path, problems: list[CatalogProblem]) -> list[tuple[CardDef, int]]:
    """The cards of one set file with the line each starts on; problems are appended."""
    shown = str(path)
    try:
        text = read_text(path, what="card set")
    except TextFileError as exc:
        found = re.match(rf"{re.escape(shown)}:(\d+): (.*)", str(exc))
        line, message = (int(found.group(1)), found.group(2)) if found else (0, str(exc))
        problems.append(CatalogProblem(shown, line, message))
        return []
    cards, found_problems = _parsed_set(shown, path.stem, text)
    problems.extend(found_problems)
    return list(cards)


@functools.lru_cache(maxsize=16)
def _parsed_set(shown: str, stem: str, text: str) -> tuple[tuple[tuple[CardDef, int], ...], tuple[CatalogProblem, ...]]:
    """A set file's text parsed and checked, once for the same text: every start, command and check
    loads the catalog (the cards are frozen; each catalog is built afresh from them)."""
    problems: list[CatalogProblem] = []
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return (), (CatalogProblem(shown, _toml_error_line(str(exc), text), f"not valid TOML: {exc}"),)
    except RecursionError:
        return (), (CatalogProblem(shown, 1, "not valid TOML: arrays or tables nested too deeply"),)
    where = _Lines(text)
    for key in sorted(set(data) - {"set", "card"}):
        problems.append(CatalogProblem(shown, _top_line(text, key), f"unknown top-level key {key!r}; expected [set] and [[card]]"))
    header = data.get("set", {})
    set_id = stem
    if not isinstance(header, dict):
        problems.append(CatalogProblem(shown, _top_line(text, "set"), "set must be a table: [set] with id and name"))
    else:
        for key in sorted(set(header) - SET_FIELDS):
            problems.append(CatalogProblem(shown, _top_line(text, "set"),
                                           f"[set]: unknown key {key!r}; known keys: {', '.join(sorted(SET_FIELDS))}"))
        if isinstance(header.get("id"), str):
            set_id = header["id"]
    raw_cards = data.get("card", [])
    if not isinstance(raw_cards, list) or not all(isinstance(r, dict) for r in raw_cards):
        problems.append(CatalogProblem(shown, _top_line(text, "card"), "cards must be tables written as [[card]]"))
        return (), tuple(problems)
    cards = []
    for n, raw in enumerate(raw_cards):
        card = _parse_card(raw, n, where, shown, set_id, problems)
        if card is not None:
            cards.append((card, where.card(n)))
    return tuple(cards), tuple(problems)


def _toml_error_line(message: str, text: str) -> int:
    """The line a TOML error points at; 'end of document' is the last line."""
    found = re.search(r"line (\d+)", message)
    if found:
        return int(found.group(1))
    return max(1, len(split_lines(text)))


def _top_line(text: str, key: str) -> int:
    pattern = re.compile(rf"^\s*(\[+\s*)?{re.escape(key)}\b")
    for i, line in enumerate(split_lines(text)):
        if pattern.match(line):
            return i + 1
    return 1


def set_files(extra: Iterable[Path | str] = ()) -> list[Path]:
    """Every set file the table loads: the base set, the other files in cards/data/, then ``extra``."""
    files = [BASE_SET, *sorted(p for p in DATA_DIR.glob("*.toml") if p != BASE_SET)]
    for path in extra:
        path = Path(path).expanduser()
        if path.resolve() not in {f.resolve() for f in files}:
            files.append(path)
    return files


def validate_files(paths: Sequence[Path]) -> tuple[list[CardDef], list[CatalogProblem]]:
    problems: list[CatalogProblem] = []
    seen: dict[str, str] = {}
    cards: list[CardDef] = []
    for path in paths:
        for card, line in read_set(path, problems):
            if card.id in seen:
                problems.append(CatalogProblem(str(path), line, f"card {card.id!r}: duplicate id (first in {seen[card.id]})"))
                continue
            seen[card.id] = f"{path}:{line}"
            cards.append(card)
    return cards, problems


def load_catalog(paths: Iterable[Path] | None = None) -> Catalog:
    """The catalog from the given set files (every file in cards/data/ by default); raises CatalogError."""
    files = list(paths) if paths is not None else set_files()
    cards, problems = validate_files(files)
    if problems:
        raise CatalogError("invalid card data:\n" + "\n".join(str(p) for p in problems))
    return Catalog(cards)
