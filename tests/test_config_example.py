"""systemd/config.example.toml is the defaults: every section and key of table/config.py, each with
the default's value and a word on what it does, so the file and the code cannot drift apart.

A key may stand commented (``# key = value``) only where the installer writes it ([storage]) or the
file shows an example of a repeated table ([[reader]], [players.player-N]); a commented default
still holds the default's value.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any

import pytest

from engine.rules import Ruleset
from table.config import SECTIONS, Config, PlayerConfig, SeatedReaderConfig, load_config

EXAMPLE = Path(__file__).resolve().parents[1] / "systemd" / "config.example.toml"
COMMENTED_SECTIONS = {"storage"}            # the installer appends the box's own [storage]
# Repeated tables, shown commented: their class, and the keys the example must show (the rest are [reader]'s).
EXAMPLES: dict[str, tuple[type, set[str]]] = {"[reader]": (SeatedReaderConfig, {"type", "seat"}),
                                              "players.player-1": (PlayerConfig, {"name", "sex"})}
HEADER = re.compile(r"^(#\s*)?\[(\[?)([\w.-]+)\]?\]\s*(#.*)?$")
KEY = re.compile(r"^(#\s*)?([a-z_]+)\s*=\s*(.+?)\s*$")


def _default(cls: type, name: str) -> Any:
    f = next(f for f in fields(cls) if f.name == name)
    return f.default_factory() if f.default is MISSING and f.default_factory is not MISSING else f.default


def _value_and_doc(text: str) -> tuple[Any, str]:
    """``8.0   # what it is`` -> (8.0, "what it is"): the TOML value, and its comment."""
    value = tomllib.loads(f"v = {text}")["v"]
    quoted = False
    for i, char in enumerate(text):
        if char == '"' and (i == 0 or text[i - 1] != "\\"):
            quoted = not quoted
        elif char == "#" and not quoted:
            return value, text[i + 1:].strip()
    return value, ""


def _entries() -> dict[str, dict[str, tuple[Any, bool, bool]]]:
    """section -> key -> (value, commented, documented): a key is documented by its own comment,
    by a comment line right above it, or by its section header's comment."""
    out: dict[str, dict[str, tuple[Any, bool, bool]]] = {}
    section, header_doc, above = "", False, False
    for line in EXAMPLE.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        header = HEADER.match(stripped)
        key = KEY.match(stripped)
        if header:
            section = f"[{header.group(3)}]" if header.group(2) else header.group(3)
            header_doc = bool(header.group(4)) or above
            out.setdefault(section, {})
            above = False
        elif key and section:
            value, doc = _value_and_doc(key.group(3))
            out[section][key.group(2)] = (value, bool(key.group(1)), bool(doc) or above or header_doc)
            above = False
        else:
            above = stripped.startswith("#")
    return out


def _sections() -> dict[str, type]:
    return {**SECTIONS, "rules": Ruleset}


def test_the_example_loads_and_is_the_config_of_no_config_at_all() -> None:
    example, defaults = load_config(EXAMPLE), Config()
    for name in _sections():
        assert getattr(example, name) == getattr(defaults, name), f"[{name}] of the example is not the defaults"
    assert example.players == {} and example.readers == []


@pytest.mark.parametrize("section", sorted(_sections()))
def test_every_key_of_the_section_is_in_the_example_with_its_default(section: str) -> None:
    cls = _sections()[section]
    entries = _entries()
    assert section in entries, f"no [{section}] in {EXAMPLE.name}"
    written = entries[section]
    keys = [f.name for f in fields(cls)]
    assert sorted(written) == sorted(keys), f"[{section}]: missing {sorted(set(keys) - set(written))}, " \
                                            f"not a key {sorted(set(written) - set(keys))}"
    for key in keys:
        value, commented, documented = written[key]
        assert value == _default(cls, key) and type(value) is type(_default(cls, key)), \
            f"[{section}] {key} = {value!r}, but the default is {_default(cls, key)!r}"
        assert commented == (section in COMMENTED_SECTIONS), f"[{section}] {key} should {'' if commented else 'not '}be commented"
        assert documented, f"[{section}] {key} says nothing of what it does"


@pytest.mark.parametrize("section", sorted(EXAMPLES))
def test_the_repeated_tables_are_shown_commented_with_their_own_keys(section: str) -> None:
    cls, own = EXAMPLES[section]
    written = _entries().get(section, {})
    assert own <= set(written) <= {f.name for f in fields(cls)}, f"{section}: {sorted(written)}"
    assert all(commented for _value, commented, _doc in written.values()), f"{section} is an example: commented"


def test_the_example_is_what_the_reader_comments_say_after_uncommenting() -> None:
    """The commented examples are valid config: uncommented, the file still loads."""
    text = EXAMPLE.read_text(encoding="utf-8")
    live = re.sub(r"^# (\[\[reader\]\]|\[players\.player-1\]|\[storage\]|[a-z_]+ = .*)$", r"\1", text, flags=re.M)
    live = live.replace("\n[reader]\n", "\n[reader-unused]\n", 1)   # [[reader]] takes [reader]'s place
    data = tomllib.loads(live)
    data.pop("reader-unused")
    from table.config import parse_config

    config = parse_config(data, str(EXAMPLE))
    assert config.readers[0].seat == 2 and config.players["player-1"].name == "Ana"
