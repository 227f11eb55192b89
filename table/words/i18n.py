"""Screen text in English or any language of ``table.config.LANGUAGES``, through gettext.

The catalogs are ``table/locale/<lang>/LC_MESSAGES/munchkin_table.po``, kept up to date and
compiled to ``.mo`` by Babel (``python -m table.words.catalogs``, which ``./go`` runs at set-up).

The engine and the controller hand over messages as data (``engine.messages.Msg``: an English
template, which is the msgid, and named values). ``text()`` is the one place that turns such a
message into words in the current language: the template through gettext (``ngettext`` for a
plural), each value by what it is (a card by its name in this language, a player by their name,
a word through the catalog). A fixed string is looked up as it is.
"""

from __future__ import annotations

import gettext
import logging
from typing import Any

from drivers.said import Said
from engine.messages import CardRef, Msg, PlayerRef, Seq, Word, render_value
from engine.players import default_token, is_default_name, token_number
from table.config import LANGUAGES
from table.control.said import from_driver
from table.words.catalogs import DOMAIN, LOCALE_DIR, po_path

log = logging.getLogger(__name__)


_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"
_card_names: dict[str, dict[str, str]] = {}     # language -> card id -> name


def _(text: str) -> str:
    """The current language's version of ``text`` (itself when there is none)."""
    return _translation.gettext(text)


def N_(text: str) -> str:
    """Mark ``text`` for translation without translating it now."""
    return text


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)


def language() -> str:
    return _language


def set_language(lang: str) -> None:
    """Switch every later ``_()`` and ``text()`` to ``lang`` (one of ``LANGUAGES``)."""
    global _translation, _language
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    _language = lang
    _translation = translation_of(lang)


def translation_of(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang`` (English: none), read once; the screen's current language is not changed."""
    if lang not in _loaded:
        if lang == "en":
            _loaded[lang] = gettext.NullTranslations()
        else:
            try:
                _loaded[lang] = gettext.translation(DOMAIN, LOCALE_DIR, [lang])
            except OSError:
                _loaded[lang] = _read_po(lang)
    return _loaded[lang]


_loaded: dict[str, gettext.NullTranslations] = {}       # language -> its catalog, as read


def _read_po(lang: str) -> gettext.NullTranslations:
    """The .po itself when no .mo was compiled (through Babel, where it is installed), else English."""
    po = po_path(lang)
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
        import io

        with po.open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        buf = io.BytesIO()
        write_mo(buf, catalog)
        buf.seek(0)
        log.info("%s is not compiled; read the .po through Babel", po.with_suffix(".mo").name)
        return gettext.GNUTranslations(buf)
    except (ImportError, OSError, ValueError) as exc:
        log.error("no compiled catalog for %r (%s); showing English; run ./go to compile it", lang, exc)
        return gettext.NullTranslations()


def set_card_names(names: dict[str, dict[str, str]]) -> None:
    """Card names per language (language -> card id -> name), where a card has one in that language."""
    _names_of.clear()
    _card_names.clear()
    _card_names.update({lang: dict(by_id) for lang, by_id in names.items()})


_names_of: list[object] = []        # the catalog whose names are in use (by identity)


def use_catalog_names(catalog: Any) -> None:
    """The card names of ``catalog`` (cards with a name in a language of the table), unless they are in use already."""
    if _names_of and _names_of[0] is catalog:
        return
    set_card_names({lang: {c.id: c.names[lang] for c in catalog.values() if c.names.get(lang)}
                    for lang in LANGUAGES if lang != "en"})
    _names_of[:] = [catalog]


def card_name(card_id: str, english: str) -> str:
    return _card_names.get(_language, {}).get(card_id) or english


def player_name(player_id: str, name: str) -> str:
    """A player's own name as it is; the default "Player N" in the current language."""
    return _("Player {n}").format(n=token_number(player_id)) if is_default_name(player_id, name) else name


def shown_name(name: str) -> str:
    """A player's name as the screen shows it: their own as it is, the default "Player N" translated."""
    token = default_token(name)
    return _("Player {n}").format(n=token_number(token)) if token is not None else name


class _Current:
    """The current language, as engine.messages.Msg.render asks for it."""

    def gettext(self, message: str) -> str:
        return _translation.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return _translation.ngettext(singular, plural, n)

    def card(self, card_id: str, english: str) -> str:
        return card_name(card_id, english)

    def player(self, player_id: str, english: str) -> str:
        return player_name(player_id, english)


CURRENT = _Current()


def text(value: Any) -> str:
    """Any message, word, list, card, player or fixed string in the current language."""
    if value is None or value == "":
        return ""
    if isinstance(value, Said):
        value = from_driver(value)
    if isinstance(value, (Msg, Seq, CardRef, PlayerRef, Word)):
        return str(render_value(value, CURRENT))
    if isinstance(value, str):
        return _translation.gettext(value)
    return str(value)


# The joiners of engine.messages.Seq, and the default player names, for the catalogs.
N_(" and ")
N_(" or ")
N_(", ")
N_("; ")
N_("Player {n}")
# The buttons, as the soft keys and messages name them.
N_("ROLL")
N_("HELP")
N_("RUN")
N_("NEXT")
N_("UNDO")

# Words the screen looks up by value (a slot, a phase, a card kind, a menu action), and the few
# sentences from outside the engine (a reader's problem, the journal's): written out here for the catalogs.
for _word in (N_("headgear"), N_("armor"), N_("footgear"), N_("1-hand"), N_("2-hand"),
              N_("setup"), N_("kick open the door"), N_("look for trouble"), N_("combat"), N_("run away"),
              N_("charity"), N_("game over"),
              N_("monster"), N_("curse"), N_("race"), N_("class"), N_("monster-enhancer"), N_("wandering-monster"),
              N_("special"), N_("item"), N_("one-shot"), N_("go-up-a-level"), N_("human"), N_("door"), N_("treasure"),
              N_("equip"), N_("unequip"), N_("discard"), N_("give"), N_("escape"), N_("Player"), N_("level {n}"),
              N_("Skip"), N_("Stop"), N_("Done"), N_("Skipped"), N_("Enrolling tags"), N_("Tap this card:"),
              N_("no answer"), N_("no ACK"), N_("ACK but no answer"), N_("unknown MFRC522 variant"),
              N_("the game could not be saved ({error}), check the disk at {path}")):
    pass


def worded(state: dict[str, Any]) -> dict[str, Any]:
    """The state JSON with what can be done now (``can``) said in the current language; the rest, which
    machines read, as it is."""
    if "can" in state:
        state = {**state, "can": said(state["can"])}
    return state


def said(can: list[dict[str, Any]]) -> list[dict[str, str]]:
    """What can be done now (the state JSON's ``can``), each ``what`` in the current language."""
    return [{"how": item["how"], "what": text(item["what"])} for item in can]
