"""A driver's sentence as data: its English template and values, for the screen's language.

The drivers import nothing of the engine's or the table's, so they cannot use the engine's message
type; a ``Said`` is the same idea in their own words. It is a ``str`` (the English sentence, for logs
and tests) that also keeps ``template`` and ``values``; the table turns it into a message of its own
and translates it. A value may be a ``Said`` itself (a reason inside "reader offline: {why}").
"""

from __future__ import annotations

from typing import Any


class Said(str):
    template: str
    values: dict[str, Any]

    def __new__(cls, template: str, /, **values: Any) -> Said:
        obj = super().__new__(cls, template.format(**values))
        obj.template = template
        obj.values = values
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.template, self.values))


def _rebuild(template: str, values: dict[str, Any]) -> Said:
    return Said(template, **values)


def reason(exc: BaseException) -> str:
    """What an exception says: its ``Said`` where it was raised with one, else its text."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Said) else str(exc)
