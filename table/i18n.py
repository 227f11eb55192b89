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
    # engine events (describe.py), the controller's prompts and soft keys, the engine's common refusals
    N_("{who} escapes {monster} without a roll"),
    N_("{card}: {bonus} for the {side}"),
    N_("{card} on {monster}"),
    N_("{who} uses {ability}"),
    N_("{who} uses {ability} ({count} discard(s))"),
    N_("{by}: {players} escape"),
    N_("{who} rolled {roll} for the bad stuff of {source}"),
    N_("{who} discards {card}"),
    N_("{who} attaches Cheat! to {card}"),
    N_("{who} loses their class"),
    N_("{who} loses their race"),
    N_("{who} loses {card}"),
    N_("{victim}'s {by} stop {card}"),
    N_("{by} lifts {card} from {who}"),
    N_("{source} finds nothing to take from {who}"),
    N_("Divine Intervention: every cleric goes up a level"),
    N_("{by}: {who} must roll again"),
    N_("{by}: {to} takes over the fight"),
    N_("{who} discards their whole hand"),
    N_("Illusion on {monster}: tap the monster that replaces it"),
    N_("{who} gives {card} to {to}"),
    N_("{who} takes {card} from {giver}"),
    N_("{who}: tap the item to lose ({source})"),
    N_("{who} takes off {card}"),
    N_("{who} had nothing to lose"),
    N_("{who} sells {cards} for {gold} gold: +{levels} level(s)"),
    N_("{card} will not fight {who}"),
    N_("{by} removes {card}"),
    N_("{card} replaces {old}"),
    N_("{by} kills {card}"),
    N_("{card}: the monsters are gone"),
    N_("{source} will hit {who} in the next combat"),
    N_("{who} left the game"),
    N_("{who} is now {what}"),
    N_("{who} loses the rest from their hand"),
    N_("{by}: the roll is taken again"),
    N_("{who} plays {card}"),
    N_("{who} rolled {roll} and steals {card} from {victim}"),
    N_("{who} rolled {roll}: the theft of {card} fails"),
    N_("{by}: {who} draws {n} more treasure(s)"),
    N_("Wandering Monster: tap the monster that joins the fight"),
    N_("draw {n} treasure(s)"),
    N_("{card} cannot be used by a {banned}"),
    N_("{card} is for {need} only"),
    N_("{who} already wears {card} as {slot}"),
    N_("{who}'s hands are full"),
    N_("{who} cannot carry {card}: already carrying the Big item {big}"),
    N_("the saved game was damaged after action {n}; resumed from there"),
    N_("the sales basket is empty again"),
    N_("reader back online"),
    N_("tag {uid} names {name}, which is not in the card catalog"),
    N_("unknown tag {uid}: tap an enrolled copy of the same card to add this tag to it"),
    N_("that is the unknown tag {uid} again: now tap a copy that is already enrolled"),
    N_("cannot add tag {uid}: {why}"),
    N_("tag {uid} is now {card}"),
    N_("{card} now has {count} tags for {copies} copy"),
    N_("{card} now has {count} tags for {copies} copies"),
    N_("tap it again to play it"),
    N_("UNDO cancels"),
    N_("UNDO goes back"),
    N_("{card}: tap the player's token"),
    N_("{card}: {who} is at level {n}, the lowest"),
    N_("{card} cannot take {who} to level {n}: the winning level comes only from a kill"),
    N_("{card}: tap the item"),
    N_("{card}: ROLL sets the number, NEXT uses it"),
    N_("{card}: {n}; NEXT uses it"),
    N_("{button} does nothing here: ROLL sets the number, NEXT uses it, UNDO cancels"),
    N_("{card} has no ability to use during {phase}"),
    N_("to sell: {cards}"),
    N_("NEXT sells, UNDO empties the basket"),
    N_("{card} taken out of the basket"),
    N_("{button} does nothing for {card}"),
    N_("the unknown tag was not added"),
    N_("cannot {tried} during {phase}; only during {allowed}"),
    N_("{who} cannot {tried}: it is {active}'s turn"),
    N_("{who} is not playing"),
    N_("{who} has already joined"),
    N_("the table is full ({n} players)"),
    N_("the game is over"),
    N_("{who} cannot leave during {phase}"),
    N_("{who} cannot leave: the game needs two players"),
    N_("tap at least two player tokens before rolling for who starts"),
    N_("cannot start with {n} player(s); tap at least {need} player tokens"),
    N_("cannot {tried} yet: {who} must first tap the item to lose ({kind}, for {source})"),
    N_("cards are played once the game has started; press NEXT to start"),
    N_("{card} is already in play with {who}"),
    N_("{who} is dead until the next turn and cannot play {card}"),
    N_("{card} ({kind}) is not played through the box"),
    N_("cannot play {card} while running away"),
    N_("{who} is already a {card}"),
    N_("{card} needs a {what} card in front of {who} first"),
    N_("{card} is played during a combat"),
    N_("cannot bring out {card} during {phase}: equipment is fixed in a fight"),
    N_("{card} only on your own turn"),
    N_("{card} needs a victim: tap a player's token"),
    N_("{card} cannot take {who} to the winning level"),
    N_("cannot {action} {card} during {phase}; equipment is fixed until the fight is over"),
    N_("a player cannot help themselves; tap another player's token"),
    N_("{who} is already helping; only one helper is allowed"),
    N_("{who} allows no helpers: fight alone or RUN"),
    N_("{who} is dead until the next turn"),
    N_("the fight is already won unless somebody interferes; wait"),
    N_("the fight is not won yet; press NEXT when the players win"),
    N_("others may still interfere for {t} s"),
    N_("nobody can run away from {card}: fight it, or play cards"),
    N_("nobody has to lose an item now"),
    N_("{who} chooses the item to lose, not {other}"),
    N_("tap the item {who} loses"),
    N_("{card} is not a {kind} item; tap a {kind2} item"),
    N_("the basket is empty (or names a card twice): add items with the card menu, then NEXT"),
    N_("{card} has no gold value and cannot be sold"),
    N_("{card} belongs to {who}"),
    N_("{names} are worth {total} gold; selling needs 1,000 gold per level"),
    N_("selling {names} would take {who} to level {n}; the winning level comes only from a kill"),
    N_("{who} is not fighting"),
    N_("Turning works only against Undead, and none is in this fight"),
    N_("cannot equip {card}: {why}"),
    N_("{card} is not equipped"),
    N_("{card} is not a carried item"),
    N_("cannot add {card} to the fight: play a Wandering Monster first (or an Undead beside an Undead)"),
    N_("{card} is played only after a combat"),
    N_("{card} is played only in your own combat"),
    N_("{card} is played right after a run-away roll"),
    N_("{card} goes on an item outside combat"),
    N_("{card} needs one of {who}'s items: tap the item"),
    N_("{card}: tap the token of the player to steal from"),
    N_("{ability}: discard at least one card"),
    N_("{who} has no run-away roll left"),
    N_("charm: discard your whole hand, at least 3 cards"),
    N_("the halfling re-roll comes right after a failed run-away roll"),
    N_("{who} is already at level {n}, the lowest"),
    N_("a correction cannot take {who} to level {n}: the winning level comes only from a kill"),
    N_("Sell {gold} gold"),
    N_("Use {n}"),
    N_("Sex: {sex}"),
    N_("{who} is dead and cannot loot their own body"),
    N_("{who} has had their pick from {who2}'s body"),
    N_("{who} does not loot {who2}'s body"),
    N_("{card} goes to the next looter, in order: {names} (tap the token, then the card)"),
    N_("{who} has too many Big items: tap the one to give up"),
    N_("looting {who}'s body: {who2} picks next (tap the token, then the item)"),
    N_("not done: {why}"),
    N_("not undone: {why}"),
    N_("the game could not be saved ({error}), check the disk at {path}"),
    N_("{who} cannot outrun {monster}: caught"),
    N_("no run-away roll is left"),
    N_("{who} cannot leave while the table waits for an item to be lost, tap it first"),
    N_("that did not work (an internal error, logged), the game is as last saved"),
    N_("Make {sex}"),
    N_("Leave: sure?"),
    # rules at the edges: giving, promising, selling from the hand, one-shots for either side
    N_("{card}: for the players (ROLL) or the monsters (RUN)?"),
    N_("{who} has too many Big items: tap the one that goes to the lowest-level player, or sell it"),
    N_("{who} rolls next against {card}: press ROLL"),
    N_("{who} has no roll left against that monster"),
    N_("the fight is back: the players win unless someone interferes within {seconds} s"),
    N_("undone: the fight is back"),
    N_("give {card} to whom? tap the receiver's token"),
    N_("promise {card} to whom, if the fight is won? tap the helper's token"),
    N_("{card} goes to the lowest-level player: tap the token of {names}"),
    N_("{card}: for the players (ROLL) or the monsters (RUN)? or tap a fighter's token or a monster"),
    N_("{who} is not in the fight: ROLL helps the players, RUN the monsters, or tap a fighter's token or a monster"),
    N_("selling: tap the items to sell, from the table or the hand"),
    N_("NEXT sells, UNDO cancels"),
    N_("the sales basket is empty: nothing sold"),
    N_("no sale: the sales basket is empty again"),
    N_("to sell: {cards} ({gold} gold)"),
    N_("the sales basket is empty: tap the items to sell, from the table or the hand"),
    N_("only the seller's cards are sold"),
    N_("{card} has no price"),
    N_("tap the items to sell, NEXT sells, UNDO cancels"),
    N_("HELP is for asking for help in a combat, or for selling on your own turn"),
    N_("no longer waiting: {why}"),
    N_("no need to run: the players win ({p} vs {m})"),
    N_("running away is for a fight the players cannot win"),
    N_("{who} discarded a Big item this turn: a Big item is not discarded to make room for another (sell it, trade it, lose it or spend it on an ability)"),
    N_("{card} is promised to a helper during a combat"),
    N_("outside a combat it is simply given"),
    N_("only {who}, who asks for help, promises items for it"),
    N_("only items on the table can be promised, not {card}"),
    N_("promise {card} to whom? tap the helper's token"),
    N_("{card} is already promised"),
    N_("{card} goes to the lowest-level player: {names}"),
    N_("{card} goes to one of the lowest-level players ({names}): tap their token"),
    N_("cannot {action} {card}"),
    N_("allowed: equip, unequip, discard, give, promise, escape"),
    N_("{who} promises {card} to {to} if the fight is won"),
    N_("{who}: {card} goes with the headgear"),
    N_("Give"),
    N_("Promise"),
    N_("For the players"),
    N_("For the monsters"),
    N_("Next monster"),
    N_("This one"),
    N_("{who}: tap a card to play it for {who2}, or use the buttons"),
    N_("{who} leaves the game? NEXT again to confirm, UNDO keeps them"),
    N_("{card}: tap the monster it is for, or ROLL to choose and NEXT ({monster}, {i} of {n})"),
    # the remembered games: names, standings, past games, an unfinished game (table/records_menu.py)
    N_("the player in seat {seat} is now called {who}"),
    N_("standings, page {n} of {total}: NEXT and ROLL turn the pages, RUN shows the past games, UNDO goes back"),
    N_("past games, page {n} of {total}: NEXT and ROLL turn the pages, HELP shows the standings, UNDO goes back"),
    N_("{who} → {name} ({i} of {n}); ROLL or the token: next name, RUN: previous, NEXT: take it, "
       "UNDO: keep the old"),
    N_("{who}: no other names seen yet (name the players in the config)"),
    N_("{button} does nothing here: ROLL and RUN choose the name, NEXT takes it, UNDO keeps the old"),
    N_("{who} keeps their name"),
    N_("game {n} resumed (turn {turn}, {players}): play on, or NEXT twice to abandon it and start a new game"),
    N_("abandon this game and start a new one? NEXT again to confirm, UNDO plays on"),
    N_("game {n} stays in the history as abandoned; new game: tap each player's token to join, then NEXT"),
    N_("a name has 1 to {n} characters"),
    N_("another player is already called {name}"),
    # the tag registry's damage report (cards/tags.py) and the journal's, shown once at start (table/wiring.py)
    N_("{file} was damaged: skipped {n} bad row(s), kept {count} tag(s)"),
    N_("the old file is kept as {file}"),
    N_("{file}: cannot read it ({error})"),
    N_("starting with no tags"),
    N_("the saved games were damaged"),
    N_("kept aside as {file}"),
    # the readers' reasons (drivers/pn532.py describe(), drivers/mfrc522_spi.py), after "reader offline: "
    N_("{port} does not exist (is the UART enabled and the reader plugged in?)"),
    N_("no permission to open {port} (add the user to the dialout group)"),
    N_("no PN532 answers on {port} ({detail})"),
    N_("check TX/RX wiring, power and the HSU mode switches"),
    N_("command {command}: {problem} after {tries} tries"),
    N_("command {command}: the PN532 answered with an error frame"),
    N_("PN532 (IC {ic}, firmware {firmware}) ready on {port}"),
    N_("cannot import the MFRC522 library ({error})"),
    N_("install it with 'pip install --no-deps mfrc522==0.0.7' plus spidev and rpi-lgpio (./go does this on a Pi)"),
    N_("RPi.GPIO is already in BOARD numbering"),
    N_("the MFRC522 reset pin BCM {pin} needs BCM"),
    N_("{device} does not exist: enable SPI (sudo raspi-config nonint do_spi 0, or dtparam=spi=on) and reboot"),
    N_("no permission to open {device} or the GPIO: add the user to the spi and gpio groups"),
    N_("SPI error on {device} while initialising the MFRC522: {error}"),
    N_("SPI error on {device} reading VersionReg: {error}"),
    N_("SPI error on {device}: {error}"),
    N_("MFRC522 on {device} reads VersionReg {version}, so nothing answers: check the wiring: SDA to {ce} "
       "(header pin {cs_pin}), SCK to pin 23, MOSI to pin 19, MISO to pin 21, RST to BCM {rst} (header pin {rst_pin}), "
       "3.3V (not 5V) and GND"),
    N_("the MFRC522 on {device} stopped answering (VersionReg {version})"),
    N_("check its cable and power"),
    N_("{kind} (VersionReg {version}) ready on {device}"),
]


# Placeholders that are a file or a device (no spaces), so "reader offline: /dev/ttyS0 does not exist (…)"
# matches "reader offline: {why}" and not "{port} does not exist (…)" with the prefix taken for the port.
NAME_GROUPS = {"port", "file", "device"}


def _template_regex(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"(?P<{part}>\\S+?)" if part in NAME_GROUPS else f"(?P<{part}>[^;]+?)")
        else:
            out.append(re.escape(part))
    return re.compile("".join(out))


def _literal_length(template: str) -> int:
    return len(re.sub(r"\{\w+\}", "", template))


# The most specific template first: "tag {uid} is now {card}" before "{who} is now {what}".
_COMPILED = sorted(((t, _template_regex(t)) for t in MESSAGE_TEMPLATES), key=lambda tr: -_literal_length(tr[0]))

# Placeholders whose values are words the catalogs translate (a phase, a sex, an ability),
# lists of names joined with "and", and reasons that are sentences of their own.
WORD_GROUPS = {"phase", "allowed", "tried", "side", "sex", "what", "ability", "kind", "kind2", "action", "slot", "button",
               "need", "banned", "problem"}
LIST_GROUPS = {"winners", "players", "names", "cards"}
SENTENCE_GROUPS = {"why", "detail"}


def translate_message(text: str) -> str:
    """A controller or engine sentence in the current language, where a template matches."""
    if _language == "en" or not text:
        return text
    whole = _translate_part(text)
    if whole is not None:
        return whole
    out = [_translate_part(part) or part for part in text.split("; ")]
    return _("; ").join(out)


def translate_label(text: str) -> str:
    """A soft-key label: a fixed word from the catalog, else a template ("Sell {gold} gold")."""
    translated = _(text)
    return translated if translated != text else translate_message(text)


def _translate_part(part: str) -> str | None:
    for template, regex in _COMPILED:
        m = regex.fullmatch(part)
        if m:
            values = {k: _translate_value(k, v) for k, v in m.groupdict().items()}
            try:
                return _(template).format(**values)
            except (KeyError, IndexError, ValueError):
                log.warning("translation of %r does not fit its placeholders", template)
                return None
    return None


def _translate_word(word: str) -> str:
    for candidate in (word, word.replace("-", " ")):
        translated = _(candidate)
        if translated != candidate:
            return translated
    return word


def _translate_value(group: str, value: str) -> str:
    if group in WORD_GROUPS:
        return _(" or ").join(_translate_word(w) for w in value.split(" or "))
    if group in LIST_GROUPS:
        return _(" and ").join(_(", ").join(value.split(", ")) for value in value.split(" and "))
    if group in SENTENCE_GROUPS:
        return translate_message(value)
    return value


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
