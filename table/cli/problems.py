"""One way to answer a file that is refused whole: each bad line named, then what was not done."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Protocol

from table.words.user import _


class LineProblem(Protocol):
    """A bad line of a file (cards.tags.ImportProblem, cards.names.NameProblem): read only."""

    @property
    def line(self) -> int: ...

    @property
    def message(self) -> str: ...


def report_bad_lines(source: str, problems: Iterable[LineProblem]) -> int:
    """Print ``FILE:LINE: problem`` for each, then that nothing was imported; the CLI's exit code (2)."""
    problems = list(problems)
    for problem in problems:
        print(f"{source}:{problem.line}: {problem.message}", file=sys.stderr)
    print(_("nothing imported: {n} bad line(s) in {source}").format(n=len(problems), source=source), file=sys.stderr)
    return 2
