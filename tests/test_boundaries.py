"""The dependency direction is one way: table → drivers, cards, engine; cards → engine."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OURS = {"engine", "cards", "drivers", "table"}


def imports_of(package: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_engine_imports_only_the_standard_library_and_itself() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    bad = {f: sorted(n - stdlib - {"engine"}) for f, n in imports_of("engine").items() if n - stdlib - {"engine"}}
    assert bad == {}


def test_engine_imports_no_io_modules() -> None:
    io_modules = {"sqlite3", "socket", "os", "subprocess", "time", "threading", "pathlib"}
    bad = {f: sorted(n & io_modules) for f, n in imports_of("engine").items() if n & io_modules}
    assert bad == {}


def test_drivers_import_neither_engine_nor_table() -> None:
    bad = {f: sorted(n & {"engine", "table", "cards"}) for f, n in imports_of("drivers").items()
           if n & {"engine", "table", "cards"}}
    assert bad == {}


def test_cards_do_not_import_table_or_drivers() -> None:
    bad = {f: sorted(n & {"table", "drivers"}) for f, n in imports_of("cards").items() if n & {"table", "drivers"}}
    assert bad == {}


def test_the_walker_sees_imports(tmp_path: Path) -> None:
    # The check above is only worth something if the walker finds imports at all.
    assert "engine" in imports_of("table")["table/controller.py"]
