"""The translation catalogs' toolchain, on Babel (a development dependency).

    python -m table.words.catalogs extract   write table/locale/munchkin_table.pot from the code
    python -m table.words.catalogs update [LANG...]
                                       extract, then merge the template into each language's .po
                                       (or only LANG's), creating a missing one from the template
    python -m table.words.catalogs compile   compile every .po to the .mo that gettext reads (./go does this)
    python -m table.words.catalogs check     exit 1 when a language has no catalog, a message has no translation, a translation's
                                       placeholders differ from the original's, or the code hands
                                       gettext an f-string (``_(f"...")``: Babel skips it, so it is
                                       never translated, and no catalog would match it anyway)

Messages are found where the code writes them: ``msg``/``nmsg`` (engine/messages.py), the engine's
``refuse``, ``word``, ``_``/``N_``/``ngettext``, the enrollment wizard's ``say``, and the words a
phase check names (``require_phase`` and friends). The cards' own instructions for the players (the
``text`` of a ``manual`` effect in cards/data) are messages too.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from cards.names import LANGUAGES     # the translated ones; English is the source

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

ROOT = Path(__file__).resolve().parents[2]
LOCALE_DIR = ROOT / "table" / "locale"
DOMAIN = "munchkin_table"
POT = LOCALE_DIR / f"{DOMAIN}.pot"
SOURCES = ("engine", "cards", "drivers", "table")
CARD_DATA = ROOT / "cards" / "data"

KEYWORDS = {
    "_": None, "N_": None, "gettext": None, "ngettext": (1, 2),
    "msg": None, "nmsg": (1, 2), "word": None, "say": None, "say_n": (1, 2), "Said": None,
    "refuse": (2,), "Refusal": (2,),
    "require_phase": (2,), "require_active": (3,), "require_no_pending_loss": (2,), "other_player": (4,),
}
COMMENT_TAGS = ["Translators:"]
PLACEHOLDER = re.compile(r"\{(\w+)(?:![rsa])?(?::[^}]*)?\}")


def placeholders(text: str) -> set[str]:
    """The named placeholders of a template: ``{card}``, ``{gold:,}`` -> {"card", "gold"}."""
    return set(PLACEHOLDER.findall(text.replace("{{", "").replace("}}", "")))


def _card_texts() -> Iterator[tuple[str, int, str]]:
    """(file, line, text) of each card's instruction to the players."""
    for path in sorted(CARD_DATA.glob("*.toml")):
        if path.name.startswith("names."):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        data = tomllib.loads("\n".join(lines))
        for card in data.get("card", []):
            for effect in [*card.get("effects", []), *card.get("bad_stuff", [])]:
                text = effect.get("text") if isinstance(effect, dict) else None
                if text:
                    number = next((i for i, line in enumerate(lines, 1) if text in line), 0)
                    yield str(path.relative_to(ROOT)), number, text


def extract() -> Catalog:
    """The template catalog: every message the code and the card data hold."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    catalog = Catalog(project="munchkin-table", domain=DOMAIN, charset="utf-8")
    for source in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
                ROOT / source, method_map=[("**.py", "python")], keywords=KEYWORDS,
                comment_tags=COMMENT_TAGS, strip_comment_tags=True):
            if isinstance(message, tuple) and any(m is None for m in message):
                continue
            if not message:
                continue
            catalog.add(message, None, [(f"{source}/{filename}", lineno)], auto_comments=comments, context=context)
    for filename, lineno, message in _calls_babel_misses():
        if message not in catalog:
            catalog.add(message, None, [(filename, lineno)])
    for filename, lineno, text in _card_texts():
        catalog.add(text, None, [(filename, lineno)], auto_comments=["A card's instruction to the players."])
    return catalog


def _keyword_calls(tree: ast.AST) -> Iterator[tuple[ast.Call, str, list[ast.expr]]]:
    """(call, keyword, its message arguments) of every call of a message keyword."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in KEYWORDS:
            spec = KEYWORDS[name]
            where = [0] if spec is None else [i - 1 for i in spec]
            yield node, name, [node.args[i] for i in where if i < len(node.args)]


def _calls_babel_misses() -> Iterator[tuple[str, int, str | tuple[str, str]]]:
    """Messages written inside an f-string (``f"<a>{_('Game')}</a>"``): Babel's extractor does not look
    inside f-strings, so they were never in the catalogs and stayed English on every page."""
    for source in SOURCES:
        for path in sorted((ROOT / source).rglob("*.py")):
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"))
            except (OSError, SyntaxError, UnicodeDecodeError):
                continue
            for fstring in ast.walk(tree):
                if not isinstance(fstring, ast.JoinedStr):
                    continue
                for call, _name, args in _keyword_calls(fstring):
                    texts = [a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                    if texts and len(texts) == len(args):
                        message = texts[0] if len(texts) == 1 else (texts[0], texts[1])
                        yield str(path.relative_to(ROOT)), call.lineno, message


def read(lang: str) -> Catalog:
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


def write(catalog: Catalog, path: Path) -> None:
    from babel.messages.pofile import write_po

    with path.open("wb") as fh:
        write_po(fh, catalog, width=100, sort_output=False, include_previous=False, ignore_obsolete=True)


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def new_catalog(lang: str, template: Catalog) -> Catalog:
    """A catalog for ``lang`` with no translations yet (what ``pybabel init`` makes): Babel's CLDR
    plural forms for the language, every message of the template, every msgstr empty."""
    from babel.messages.catalog import Catalog

    catalog = Catalog(locale=lang, domain=DOMAIN, project="munchkin-table", charset="utf-8", fuzzy=False)
    catalog.update(template, no_fuzzy_matching=True)
    return catalog


def update(langs: tuple[str, ...] | list[str] = LANGUAGES) -> list[Path]:
    """Extract the template, then merge it into ``langs``' catalogs, creating the ones missing."""
    unknown = [lang for lang in langs if lang not in LANGUAGES]
    if unknown:
        raise ValueError(f"not a language of the table: {', '.join(unknown)} (one of {', '.join(LANGUAGES)})")
    template = extract()
    write(template, POT)
    written = [POT]
    for lang in langs:
        path = po_path(lang)
        if path.exists():
            catalog = read(lang)
            catalog.update(template, no_fuzzy_matching=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = new_catalog(lang, template)
        write(catalog, path)
        written.append(path)
    return written


def present() -> list[str]:
    """The languages that have a catalog directory, sorted."""
    return sorted(po.parent.parent.name for po in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def _shown(path: Path) -> Path:
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def check_all(template: Catalog) -> list[str]:
    """Every problem of every catalog: each language of the table and each catalog on disk; a
    language of the table without a catalog is one."""
    found = []
    for lang in sorted(set(LANGUAGES) | set(present()), key=lambda l: (l not in LANGUAGES, l)):
        if not po_path(lang).exists():
            found.append(f"{lang}: no catalog at {_shown(po_path(lang))} "
                         f"(python -m table.words.catalogs update {lang} makes one)")
            continue
        if lang not in LANGUAGES:
            found.append(f"{lang}: {_shown(po_path(lang))} is not a language of the table "
                         f"(cards/names.py LANGUAGES)")
        found += problems(template, read(lang), lang)
    return found


def compile_all(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=po.parent.parent.name, domain=DOMAIN)
        mo = po.with_suffix(".mo")
        with mo.open("wb") as fh:
            write_mo(fh, catalog, use_fuzzy=False)
        written.append(mo)
    return written


def _texts(value: str | list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    """A message's id or string as its forms (one, or singular and plurals); "" for none."""
    if isinstance(value, (tuple, list)):
        return tuple(value)
    return (value or "",)


def problems(template: Catalog, catalog: Catalog, lang: str) -> list[str]:
    """What is wrong with ``catalog`` (``lang``'s) against the code: untranslated messages, placeholders that differ."""
    found = []
    for message in template:
        if not message.id:
            continue
        entry = catalog.get(message.id)
        ids = _texts(message.id)
        strings = _texts(entry.string if entry is not None else None)
        if entry is None or entry.fuzzy or not all(strings):
            found.append(f"{lang}: no translation for {ids[0]!r}")
            continue
        want: set[str] = set().union(*(placeholders(i) for i in ids))
        for string in strings:
            if placeholders(string) != want:
                found.append(f"{lang}: {ids[0]!r} -> {string!r}: placeholders {sorted(placeholders(string))}, "
                             f"expected {sorted(want)}")
    return found


def f_string_messages(roots: tuple[Path, ...] | None = None) -> list[str]:
    """``file:line: _(f"...")`` for each call of a message keyword whose message is an f-string."""
    found = []
    for root in roots or tuple(ROOT / source for source in SOURCES):
        for path in sorted(root.rglob("*.py")) if root.is_dir() else [root]:
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"))
            except (OSError, SyntaxError, UnicodeDecodeError):
                continue
            for node, name, args in _keyword_calls(tree):
                if any(isinstance(a, ast.JoinedStr) and any(isinstance(v, ast.FormattedValue) for v in a.values)
                       for a in args):
                    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                    found.append(f"{shown}:{node.lineno}: {name}(f\"...\") cannot be translated: "
                                 f"write {name}(\"... {{value}} ...\").format(value=...) instead")
    return found


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else ""
    try:
        if command == "extract":
            write(extract(), POT)
            print(f"wrote {POT.relative_to(ROOT)}")
        elif command == "update":
            for path in update(args[1:] or LANGUAGES):
                print(f"wrote {path.relative_to(ROOT)}")
        elif command == "compile":
            for mo in compile_all():
                print(f"compiled {mo.relative_to(ROOT)}")
        elif command == "check":
            template = extract()
            found = f_string_messages() + check_all(template)
            for line in found:
                print(line)
            return 1 if found else 0
        else:
            print("usage: python -m table.words.catalogs extract|update|compile|check", file=sys.stderr)
            return 2
    except ValueError as exc:
        print(f"catalogs: {exc}", file=sys.stderr)
        return 2
    except ImportError:
        print("catalogs: Babel is not installed (pip install -e '.[dev]')", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
