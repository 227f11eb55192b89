"""Card names in the table's language.

Two sources, the later winning card by card, and English where neither has a name:
1. ``cards/data/names/<lang>.toml``, shipped with the catalog: the names of the published
   editions (Spanish: Edge's; Chinese: 矮人快跑; German: Pegasus Spiele's; French: Edge's;
   Italian: Raven's; Brazilian Portuguese: Galápagos'), filled in only where they are known
   for sure; a language without such a file has only the names a group imports.
2. ``names.<lang>.csv`` in the state directory: what a group typed for its own printing, through
   ``munchkin-table cards names export --lang es`` and ``cards names import FILE``.

The CSV has the header ``card,english,<lang>``: the card id, its English name (for the person
typing; not read back), and the name in that language (empty: show the English one). An import
is checked whole, every bad line named, and stored only when no line is bad.
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import io
import tomllib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cards.files import write_atomically
from cards.textfile import csv_rows
from engine.cards import Catalog
from engine.errors import CatalogError

LANGUAGES = ("es", "zh", "de", "fr", "it", "pt", "ru", "pl", "ja", "ko")    # pt: Brazilian Portuguese
NAMES_DIR = Path(__file__).parent / "data" / "names"
MAX_NAME = 80


@dataclass(frozen=True)
class NameProblem:
    line: int
    message: str


def shipped_path(lang: str) -> Path:
    return NAMES_DIR / f"{lang}.toml"


def imported_path(state_dir: Path, lang: str) -> Path:
    return Path(state_dir) / f"names.{lang}.csv"


@functools.lru_cache(maxsize=32)
def _parsed(shown: str, text: str) -> dict[str, object]:
    """The ``[names]`` table of a shipped file, parsed once for the same text (every start and every
    command reads all ten languages)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{shown}: {exc}") from None
    names = data.get("names", {})
    return dict(names) if isinstance(names, dict) else {}


def read_shipped(lang: str, known: Iterable[str]) -> dict[str, str]:
    """The published names in ``lang`` that are filled in; raises CatalogError on a card that does not exist."""
    path = shipped_path(lang)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise CatalogError(f"{path}: {exc}") from None
    table = _parsed(str(path), text)
    known = set(known)
    names = {}
    for card, name in table.items():
        if card not in known:
            raise CatalogError(f"{path}: no card {card!r} in the catalog")
        if not isinstance(name, str):
            raise CatalogError(f"{path}: the name of {card!r} must be text, got {name!r}")
        if name.strip():
            names[card] = name.strip()
    return names


def parse_names_csv(text: str, known: Iterable[str]) -> tuple[str, dict[str, str], list[NameProblem]]:
    """(language, card id -> name, problems) of a ``card,english,<lang>`` CSV. Every bad line is a problem."""
    known = set(known)
    problems: list[NameProblem] = []
    names: dict[str, str] = {}
    first: dict[str, int] = {}
    lang = ""
    for number, line, cells, unreadable in csv_rows(text):
        if cells is None:
            problems.append(NameProblem(number, unreadable or ""))
            continue
        if not lang:
            if len(cells) == 3 and [c.lower() for c in cells[:2]] == ["card", "english"] and cells[2] in LANGUAGES:
                lang = cells[2]
                continue
            problems.append(NameProblem(number, "expected the header 'card,english,LANG' first, with LANG one of "
                                                f"{', '.join(LANGUAGES)}; got {line[:60]!r}"))
            return "", {}, problems
        if len(cells) != 3:
            problems.append(NameProblem(number, f"expected 3 columns 'card,english,{lang}', got {len(cells)}"))
            continue
        card, _english, name = cells
        if card not in known:
            problems.append(NameProblem(number, f"no card {card!r} in the catalog"))
            continue
        if card in first:
            problems.append(NameProblem(number, f"{card} is named again (first on line {first[card]})"))
            continue
        first[card] = number
        bad = next((ch for ch in name if unicodedata.category(ch).startswith("C")), None)
        if bad is not None:
            problems.append(NameProblem(number, f"the name of {card} holds a control character {bad!r}"))
            continue
        if len(name) > MAX_NAME:
            problems.append(NameProblem(number, f"the name of {card} is {len(name)} characters long; at most {MAX_NAME}"))
            continue
        if name:
            names[card] = name
    if not lang and not problems:
        problems.append(NameProblem(1, "the file is empty; expected the header 'card,english,LANG'"))
    return lang, names, problems


def names_csv(catalog: Catalog, lang: str, names: dict[str, str]) -> str:
    """Every card of the catalog as ``card,english,<lang>``, with the name it has now in ``lang`` (or empty)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["card", "english", lang])
    for card in catalog.values():
        writer.writerow([card.id, card.name, names.get(card.id, "")])
    return out.getvalue()


def read_imported(state_dir: Path, lang: str, known: Iterable[str]) -> tuple[dict[str, str], list[NameProblem]]:
    path = imported_path(state_dir, lang)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return {}, []
    except OSError as exc:
        return {}, [NameProblem(0, f"{path}: cannot read it ({exc.strerror or exc})")]
    file_lang, names, problems = parse_names_csv(text, known)
    if problems or file_lang != lang:
        return {}, problems or [NameProblem(1, f"{path} holds {file_lang!r} names, not {lang!r}")]
    return names, []


def store_imported(state_dir: Path, lang: str, names: dict[str, str], catalog: Catalog) -> Path:
    path = imported_path(state_dir, lang)
    write_atomically(path, names_csv(Catalog(c for c in catalog.values() if c.id in names), lang, names))
    return path


def names_in(catalog: Catalog, lang: str, state_dir: Path | None = None) -> dict[str, str]:
    """Card id -> name in ``lang``: the published names, then the group's own over them."""
    names = read_shipped(lang, catalog)
    if state_dir is not None:
        mine, _problems = read_imported(state_dir, lang, catalog)
        names.update(mine)
    return names


def with_names(catalog: Catalog, state_dir: Path | None = None) -> Catalog:
    """The catalog with each card's names in every language (inline names in the set files come first)."""
    per_lang = {lang: names_in(catalog, lang, state_dir) for lang in LANGUAGES}
    cards = []
    for card in catalog.values():
        extra = {lang: per_lang[lang][card.id] for lang in LANGUAGES if card.id in per_lang[lang]}
        cards.append(dataclasses.replace(card, names={**card.names, **extra}) if extra else card)
    return Catalog(cards)
