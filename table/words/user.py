"""The command line's language: the user's, found as gettext programs find it, apart from the screen's.

The screen and the phones follow the config's ``[display] language`` (``i18n.set_language``); the
``munchkin-table`` command's own words (its errors, its help) follow the person at the terminal:
``LANGUAGE``, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, the first one set deciding. ``LANGUAGE``
is a list (``fr:es``: the first with a catalog) and counts only when the locale is not ``C`` or
``POSIX``, as in GNU gettext. A language without a catalog is English. Reading this language never changes the screen's.

Machine-readable output (JSON, CSV, the ``rejected:`` lines, exit codes) never goes through here.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping

from table.config import LANGUAGES
from table.words.i18n import translation_of

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def _code(name: str) -> str:
    """``es_ES.UTF-8`` -> ``es``; ``zh_CN@pinyin`` -> ``zh``; ``C.UTF-8`` -> ``c``."""
    return name.split(".")[0].split("@")[0].split("_")[0].split("-")[0].strip().lower()


def user_language(environ: Mapping[str, str] | None = None) -> str:
    """The language (en, es, zh …) the user's environment asks for; English where none of ours fits."""
    env = os.environ if environ is None else environ
    locale = next((env[name] for name in LOCALE_VARIABLES if env.get(name)), "")
    if _code(locale) in ("c", "posix"):
        return "en"                     # GNU gettext ignores LANGUAGE under the C locale
    wishes = env["LANGUAGE"].split(":") if env.get("LANGUAGE") else [locale]
    for wish in wishes:
        code = _code(wish)
        if code in LANGUAGES:
            return code
    return "en"


def user_translation(environ: Mapping[str, str] | None = None) -> gettext.NullTranslations:
    """The catalog of the user's language (see ``user_language``)."""
    return translation_of(user_language(environ))


def _(text: str) -> str:
    """``text`` in the user's language (the command line's ``_``; the screen's is ``i18n._``)."""
    return user_translation().gettext(text)


def ngettext(singular: str, plural: str, n: int) -> str:
    return user_translation().ngettext(singular, plural, n)
