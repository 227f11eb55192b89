"""The engine as a reader meets it: short functions, and every import at the top of its module."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
MAX_FUNCTION_LINES = 60


def functions(path: Path) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def long_functions(root: Path, limit: int) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        for fn in functions(path):
            length = (fn.end_lineno or fn.lineno) - fn.lineno + 1
            if length > limit:
                found.append(f"{path.name}:{fn.lineno} {fn.name} ({length} lines)")
    return found


def test_no_engine_function_is_over_60_lines() -> None:
    assert long_functions(ENGINE, MAX_FUNCTION_LINES) == []


def test_the_length_check_sees_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    (tmp_path / "long.py").write_text(f"def long():\n{body}\n\n\ndef short():\n    return 1\n", encoding="utf-8")
    assert long_functions(tmp_path, MAX_FUNCTION_LINES) == [f"long.py:1 long ({MAX_FUNCTION_LINES + 1} lines)"]


def test_no_engine_function_imports_inside_its_body() -> None:
    """The engine loads nothing heavy: an import inside a function there would only dodge a cycle."""
    inside = [f"{path.name}:{node.lineno}" for path in sorted(ENGINE.rglob("*.py")) for fn in functions(path)
              for node in ast.walk(fn) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert inside == []
