"""Screen text in English, Spanish or Chinese, through gettext.

The catalogs are ``table/locale/<lang>/LC_MESSAGES/munchkin_table.po``. ``./go``
compiles them to ``.mo`` with ``python -m table.i18n compile`` (a compact
msgfmt: no external tools needed); when a ``.mo`` is missing the ``.po`` is read
directly, so a fresh checkout still shows its language.

``_()`` translates a fixed string. Messages built by the controller and the
engine arrive as finished English sentences; ``translate_message`` matches them
against the templates below (the same wording as table/describe.py and the
controller's refusals) and fills the translated template. A message that
matches no template is shown in English.
"""

from __future__ import annotations

import ast
import gettext
import logging
import re
import struct
import sys
from pathlib import Path

log = logging.getLogger(__name__)

DOMAIN = "munchkin_table"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en", "es", "zh")

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def _(text: str) -> str:
    """The current language's version of ``text`` (itself when there is none)."""
    return _translation.gettext(text)


def N_(text: str) -> str:
    """Mark ``text`` for translation without translating it now."""
    return text


def language() -> str:
    return _language


class PoTranslations(gettext.NullTranslations):
    """A catalog read straight from a .po file, for when no .mo was compiled."""

    def __init__(self, messages: dict[str, str]) -> None:
        super().__init__()
        self._messages = messages

    def gettext(self, message: str) -> str:
        return self._messages.get(message) or message


def set_language(lang: str) -> None:
    """Switch every later ``_()`` to ``lang`` (en, es or zh)."""
    global _translation, _language
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    _language = lang
    if lang == "en":
        _translation = gettext.NullTranslations()
        return
    try:
        _translation = gettext.translation(DOMAIN, LOCALE_DIR, [lang])
    except OSError:
        po = po_path(lang)
        if not po.exists():
            log.error("no translation catalog for %r at %s; showing English", lang, po)
            _translation = gettext.NullTranslations()
            return
        log.info("%s not compiled; reading the .po directly", po.with_suffix(".mo").name)
        _translation = PoTranslations(parse_po(po.read_text(encoding="utf-8")))


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


# ------------------------------------------------------------------ .po -> .mo

class PoError(ValueError):
    """A .po file that this compiler cannot read; names the line."""


def parse_po(text: str, *, source: str = "<po>") -> dict[str, str]:
    """msgid -> msgstr for every translated, non-fuzzy entry (the header included)."""
    messages: dict[str, str] = {}
    entry: dict[str, str] = {}
    fuzzy = False
    field = ""

    def flush() -> None:
        nonlocal entry, fuzzy
        if "msgid" in entry and entry.get("msgstr") and not fuzzy:
            key = entry["msgid"] if "msgctxt" not in entry else f"{entry['msgctxt']}\x04{entry['msgid']}"
            messages[key] = entry["msgstr"]
        entry, fuzzy = {}, False

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            flush()
            continue
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
            continue
        if line.startswith("#"):
            continue
        keyword, _sep, rest = line.partition(" ")
        if line.startswith('"'):
            rest, keyword = line, ""
        elif keyword in ("msgctxt", "msgid", "msgstr"):
            if keyword in ("msgctxt", "msgid") and "msgstr" in entry:
                flush()
            field = keyword
        else:
            raise PoError(f"{source}:{number}: cannot read {keyword!r} (plural forms are not supported)")
        try:
            value = ast.literal_eval(rest)
        except (ValueError, SyntaxError):
            raise PoError(f"{source}:{number}: expected a quoted string, got {rest!r}") from None
        if not isinstance(value, str) or not field:
            raise PoError(f"{source}:{number}: expected a quoted string after msgid/msgstr")
        entry[field] = entry.get(field, "") + value
    flush()
    return messages


def build_mo(messages: dict[str, str]) -> bytes:
    """The GNU .mo bytes for ``messages`` (no hash table, which readers do not need)."""
    keys = sorted(messages)
    ids = [k.encode("utf-8") for k in keys]
    strs = [messages[k].encode("utf-8") for k in keys]
    n = len(keys)
    originals_at = 28
    translations_at = originals_at + 8 * n
    data_at = translations_at + 8 * n
    table_o, table_t, blob = [], [], b""
    for raw in ids:
        table_o.append((len(raw), data_at + len(blob)))
        blob += raw + b"\0"
    for raw in strs:
        table_t.append((len(raw), data_at + len(blob)))
        blob += raw + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, n, originals_at, translations_at, 0, data_at)
    tables = b"".join(struct.pack("<2I", *p) for p in table_o + table_t)
    return header + tables + blob


def compile_all(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    written = []
    for po in sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        messages = parse_po(po.read_text(encoding="utf-8"), source=str(po))
        mo = po.with_suffix(".mo")
        mo.write_bytes(build_mo(messages))
        written.append(mo)
    return written


# ------------------------------------------------------------------ finished sentences

MESSAGE_TEMPLATES = [
    N_("{who} joined (seat {seat})"),
    N_("the die chose {who} to start"),
    N_("the game starts: {who} kicks open the door"),
    N_("turn {turn}: {who} kicks open the door"),
    N_("{who} killed the monsters: +{levels} level(s), draw {treasures} treasure(s)"),
    N_("{who} rolled {roll} and escaped {monster}"),
    N_("{who} rolled {roll}: caught by {monster}"),
    N_("{who} died and loses all items"),
    N_("{who} carries {card} (no bonus: {why})"),
    N_("{who} equips {card}"),
    N_("{who}: level {old} → {new}"),
    N_("game over: {winners} won!"),
    N_("the players win unless someone interferes within {seconds} s"),
    N_("running away: press ROLL for each roll (5 or more escapes)"),
    N_("{who} loots the room: draw a Door card face down"),
    N_("{who} may look for trouble (tap a monster) or loot the room (NEXT)"),
    N_("{card} joins the fight"),
    N_("{card} hits {victim}"),
    N_("{who} fights {card}"),
    N_("{who} helps"),
    N_("new game: tap each player's token to join, then NEXT"),
    N_("{who} has already joined; NEXT starts the game"),
    N_("{token} is not in this game"),
    N_("{who} acts: tap a card for {who2}"),
    N_("the game is over; press NEXT for a new game"),
    N_("{card}: choose with the buttons"),
    N_("{card}: tap the victim's token"),
    N_("{button} does nothing in the card menu; UNDO goes back"),
    N_("ROLL does nothing during {phase}"),
    N_("HELP is for asking for help in a combat"),
    N_("{who} is already helping"),
    N_("tap the token of the player who helps"),
    N_("tap the helper's token"),
    N_("RUN is for running away from a combat"),
    N_("cancelled"),
    N_("nothing to undo: this game has no actions yet"),
    N_("undone: the last action was taken back"),
    N_("unknown tag {uid}: it is not enrolled; run 'munchkin-table enroll' to add it"),
    N_("reader offline: {why}"),
    N_("no card or player token {typed}"),
    N_("cannot win yet: players {players} vs monsters {monsters}; play cards, ask for help or RUN"),
]


def _template_regex(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    out = []
    for i, part in enumerate(parts):
        out.append(f"(?P<{part}>[^;]+?)" if i % 2 else re.escape(part))
    return re.compile("".join(out))


_COMPILED = [(t, _template_regex(t)) for t in MESSAGE_TEMPLATES]


def translate_message(text: str) -> str:
    """A controller or engine sentence in the current language, where a template matches."""
    if _language == "en" or not text:
        return text
    whole = _translate_part(text)
    if whole is not None:
        return whole
    out = [_translate_part(part) or part for part in text.split("; ")]
    return _("; ").join(out)


def _translate_part(part: str) -> str | None:
    for template, regex in _COMPILED:
        m = regex.fullmatch(part)
        if m:
            try:
                return _(template).format(**m.groupdict())
            except (KeyError, IndexError, ValueError):
                log.warning("translation of %r does not fit its placeholders", template)
                return None
    return None


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] != ["compile"]:
        print("usage: python -m table.i18n compile", file=sys.stderr)
        return 2
    try:
        for mo in compile_all():
            print(f"compiled {mo.relative_to(LOCALE_DIR.parent.parent)}")
    except PoError as exc:
        print(f"i18n: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
