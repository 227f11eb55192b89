"""The readers' own reasons (drivers/), in the screen's language.

The drivers import nothing of the engine's or the table's, so a reader's reason reaches the table
as an English sentence; this module finds its template among the few the drivers write and fills
the translated one. Everything else on the screen arrives as data (engine/messages.py).
"""

from __future__ import annotations

import logging
import re

from table.i18n import N_, _, language

log = logging.getLogger(__name__)

MESSAGE_TEMPLATES = [
    N_("reader offline: {why}"),
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
    """A reader's reason in the current language, where a template matches."""
    if language() == "en" or not text:
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


