"""docs/build.md, the box builder's guide: its wiring drawings are what docs/make_wiring.py makes from
the pins the table uses (so they cannot drift), and its troubleshooting table names every check
``munchkin-table doctor`` can print."""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from cards.enroll import checklist
from cards.loader import load_catalog

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "build.md"
# Where doctor's checks are made (drivers' hardware checks, the screen's, the journal's, the web view's, the league's).
DOCTOR_SOURCES = ("drivers/doctor.py", "table/cli/checks.py", "table/cli/doctor.py", "table/web/checks.py",
                  "table/league/doctor.py")
# Check names made of other checks' names (``seat 3: reader answers``): their parts are in the table.
COMPOSED = {"{spec.seat_label}: {check.name}"}


def make_wiring() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_wiring", ROOT / "docs" / "make_wiring.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_wiring"] = module         # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- the drawings


def test_the_committed_drawings_are_what_the_generator_makes_now() -> None:
    drawings = make_wiring().drawings()
    assert set(drawings) == {"wiring-mfrc522.svg", "wiring-pn532.svg", "wiring-buttons.svg"}
    for name, svg in drawings.items():
        committed = ROOT / "docs" / name
        assert committed.is_file(), f"docs/{name} is missing: run .venv/bin/python docs/make_wiring.py"
        assert committed.read_text(encoding="utf-8") == svg, f"docs/{name} is stale: run docs/make_wiring.py"
        ET.fromstring(svg)          # well-formed: a browser shows it


def test_the_drawings_follow_the_configs_pins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another default reset pin or button pin in table/config.py draws another wire."""
    wiring = make_wiring()
    before = wiring.drawings()
    assert "pin 22: BCM 25 (reset_pin)" in before["wiring-mfrc522.svg"]
    assert "pin 35: BCM 19" in before["wiring-buttons.svg"]

    class Moved(wiring.ReaderConfig):  # type: ignore[name-defined,misc]
        def __init__(self) -> None:
            super().__init__(reset_pin=24)

    class Buttons(wiring.ButtonsConfig):  # type: ignore[name-defined,misc]
        def __init__(self) -> None:
            super().__init__(next=27)

    monkeypatch.setattr(wiring, "ReaderConfig", Moved)
    monkeypatch.setattr(wiring, "ButtonsConfig", Buttons)
    after = wiring.drawings()
    assert "pin 18: BCM 24 (reset_pin)" in after["wiring-mfrc522.svg"] and "BCM 25" not in after["wiring-mfrc522.svg"]
    assert "pin 13: BCM 27" in after["wiring-buttons.svg"] and "BCM 19" not in after["wiring-buttons.svg"]


def test_the_wires_match_the_tables_of_wiring_md() -> None:
    """The header pins drawn for the MFRC522 and the PN532 are the ones docs/wiring.md's tables give."""
    wiring = make_wiring()
    _, mfrc = wiring.mfrc522_wires()
    _, pn = wiring.pn532_wires()
    assert {w.part_pin: w.header for w in mfrc} == {"SDA": 24, "SCK": 23, "MOSI": 19, "MISO": 21, "IRQ": 0, "GND": 20,
                                                    "RST": 22, "3.3V": 17}
    assert {w.part_pin: w.header for w in pn} == {"TXD": 10, "RXD": 8, "GND": 6, "VCC": 1}
    table = (ROOT / "docs" / "wiring.md").read_text(encoding="utf-8")
    for part, pin in (("SDA (SS)", 24), ("SCK", 23), ("MOSI", 19), ("MISO", 21), ("RST", 22), ("TXD", 10), ("RXD", 8)):
        assert re.search(rf"\| {re.escape(part)} \| pin {pin}\b", table), (part, pin)


def test_the_guide_shows_every_drawing() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    for name in make_wiring().drawings():
        assert f"]({name})" in guide


# ---------------------------------------------------------------- what it says


def test_the_guide_counts_the_tags_the_checklist_prints() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    steps = checklist(load_catalog())
    tokens = sum(1 for s in steps if s.card.startswith("player-"))
    assert (len(steps), tokens) == (174, 6)
    assert f"**{len(steps)} tags: {len(steps) - tokens} card copies and {tokens} player tokens**" in guide
    for needed in ("NTAG213", "munchkin-table cards checklist --html", "munchkin-table enroll", "journalctl -u munchkin-table",
                   "install-pi.sh --uninstall", "git pull", "[wiring.md](wiring.md"):
        assert needed in guide, needed


def _names_in(source: str) -> tuple[set[str], set[str]]:
    """The names of the checks a module makes (``Check(NAME, ...)``), and the f-string names it
    cannot resolve. A name is a literal, a variable bound to one (in the function or the module),
    or an f-string of a parameter whose callers in the module pass literals (``_node("SPI", ...)``)."""
    tree = ast.parse(source)
    module_names = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign)
                    for t in n.targets if isinstance(t, ast.Name) and isinstance(n.value, ast.Constant)}
    functions = {f.name: f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
    found, unresolved = set(), set()
    for function in functions.values():
        local = {t.id: n.value.value for n in ast.walk(function) if isinstance(n, ast.Assign)
                 for t in n.targets if isinstance(t, ast.Name) and isinstance(n.value, ast.Constant)}
        params = [a.arg for a in function.args.args + function.args.kwonlyargs]
        for call in ast.walk(function):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "Check"):
                continue
            first = call.args[0]
            if isinstance(first, ast.Constant):
                found.add(first.value)
            elif isinstance(first, ast.Name) and first.id in {**module_names, **local}:
                found.add({**module_names, **local}[first.id])
            elif isinstance(first, ast.JoinedStr):
                holes = [v.value for v in first.values if isinstance(v, ast.FormattedValue)]
                if len(holes) == 1 and isinstance(holes[0], ast.Name) and holes[0].id in params:
                    at = params.index(holes[0].id)
                    for caller in ast.walk(tree):
                        if (isinstance(caller, ast.Call) and isinstance(caller.func, ast.Name)
                                and caller.func.id == function.name and len(caller.args) > at
                                and isinstance(caller.args[at], ast.Constant)):
                            found.add("".join(caller.args[at].value if isinstance(v, ast.FormattedValue)
                                              else v.value for v in first.values))
                else:
                    unresolved.add(ast.unparse(first)[2:-1])
            else:
                unresolved.add(ast.unparse(first))
    # table/cli/doctor.py prints the config's and the catalog's lines itself.
    found |= set(re.findall(r'print\(f?"\[(?:ok|FAIL)\] ([a-z][a-z ]*):', source))
    return found, unresolved


def doctor_check_names() -> set[str]:
    names: set[str] = set()
    for path in DOCTOR_SOURCES:
        found, unresolved = _names_in((ROOT / path).read_text(encoding="utf-8"))
        assert unresolved <= COMPOSED, f"{path}: check names this test cannot read: {unresolved - COMPOSED}"
        names |= found
    return names


def test_the_check_names_are_found_where_doctor_makes_them() -> None:
    names = doctor_check_names()
    assert {"config", "catalog", "SPI enabled", "SPI permission", "UART enabled", "UART permission",
            "reader answers", "serial console off", "device groups", "buttons readable", "state directory writable",
            "screen", "font", "saved games", "web view", "league broker", "SPI in the boot config"} <= names


def test_the_troubleshooting_table_names_every_doctor_check() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    section = guide[guide.index("## Troubleshooting"):guide.index("\n## ", guide.index("## Troubleshooting") + 5)]
    rows = {m.group(1) for m in re.finditer(r"^\| `([^`]+)` \|[^|]+\|[^|]+\|$", section, re.MULTILINE)}
    missing = doctor_check_names() - rows
    assert not missing, f"docs/build.md's troubleshooting table has no row for: {sorted(missing)}"
