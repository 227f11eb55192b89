"""Every module path our code names in its docstrings and comments (``table/words/i18n.py``,
``engine/messages.py`` …) exists: a module moved or renamed leaves no stale pointer behind."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "cards", "drivers", "table", "bench")
# A path from one of our packages' roots, not the tail of a longer one (tests/table/x.py names a test).
NAMED = re.compile(r"(?<![\w./-])((?:engine|cards|drivers|table|bench)/[\w/]+\.py)\b")


def named_paths(text: str) -> list[str]:
    return NAMED.findall(text)


def test_the_pattern_finds_a_path_and_not_the_tail_of_a_longer_one() -> None:
    assert named_paths("see ``table/words/i18n.py`` and (engine/messages.py)") == ["table/words/i18n.py",
                                                                                "engine/messages.py"]
    assert named_paths("tests/table/test_x.py and /opt/table/x.py and my_table/x.py") == []


def test_every_module_path_named_in_our_code_exists() -> None:
    stale = []
    for package in PACKAGES:
        for source in sorted((ROOT / package).rglob("*.py")):
            for number, line in enumerate(source.read_text(encoding="utf-8").split("\n"), 1):
                stale += [f"{source.relative_to(ROOT)}:{number}: {path}" for path in named_paths(line)
                          if not (ROOT / path).is_file()]
    assert not stale, "paths to modules that do not exist:\n" + "\n".join(stale)
