"""drivers/ imports neither engine nor table, and hardware-only packages only lazily."""

from __future__ import annotations

import ast
import pathlib

import pytest

DRIVERS = pathlib.Path(__file__).resolve().parents[2] / "drivers"
FORBIDDEN = {"engine", "table"}
HARDWARE_ONLY = {"mfrc522", "spidev", "RPi", "lgpio"}


def imports(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node, node.module.split(".")[0]


@pytest.mark.parametrize("path", sorted(DRIVERS.rglob("*.py")), ids=lambda p: str(p.relative_to(DRIVERS)))
def test_a_driver_module_keeps_its_import_boundaries(path):
    tree = ast.parse(path.read_text(), str(path))
    top_level = {id(n) for n in tree.body}
    for node, name in imports(tree):
        assert name not in FORBIDDEN, f"{path.name} imports {name}"
        if name in HARDWARE_ONLY:
            assert id(node) not in top_level, f"{path.name} imports {name} at module level; import it where it is needed"
