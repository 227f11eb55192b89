"""Reading the text files a person writes (table scripts, config, tags CSV, card sets).

Every problem becomes one ``TextFileError`` line that names the file (and the line, for bytes
that are not UTF-8) and says what to do; never a traceback. Lines are split on newline only:
``str.splitlines()`` also breaks on ``\\x0b``, ``\\x1c``, ``\\x85``, U+2028 … and would shift every
line number after one of them.
"""

from __future__ import annotations

import csv
import sys
from collections.abc import Iterator
from pathlib import Path

from engine.errors import MunchkinError

MAX_BYTES = 16 * 1024 * 1024     # no file we read by hand is this big; /dev/zero must not eat the memory
STDIN = "-"


class TextFileError(MunchkinError, ValueError):
    """A text file that cannot be read, or whose bytes are not UTF-8 text."""


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, split on ``\\n`` only (a ``\\r`` before it is dropped)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def decode_text(raw: bytes, source: str, *, first_line: int = 1) -> str:
    """``raw`` as UTF-8 (a leading BOM is dropped); raises TextFileError naming the line and column.

    ``first_line`` is the number of the first line of ``raw`` (a line read from a pipe on its own).
    """
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise TextFileError(f"{source}:1: the file is UTF-16 text; save it as UTF-8")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = exc.start
        line = raw.count(b"\n", 0, start) + first_line
        column = start - (raw.rfind(b"\n", 0, start) + 1) + 1
        raise TextFileError(f"{source}:{line}: not UTF-8 text (byte 0x{raw[start]:02x} at column {column}); "
                            f"save the file as UTF-8") from None


def read_bytes(path: Path | str, *, what: str = "file", limit: int = MAX_BYTES) -> bytes:
    """The bytes of ``path`` (``-`` is standard input); raises TextFileError with one clear line."""
    shown = str(path)
    if shown == STDIN:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            if sys.stdin is None:
                raise TextFileError(f"cannot read the {what} from standard input: there is none")
            return sys.stdin.read(limit + 1).encode("utf-8", errors="surrogateescape")[: limit + 1]
        raw = stream.read(limit + 1)
    else:
        try:
            with open(path, "rb") as fh:
                raw = fh.read(limit + 1)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            hint = "; name a file, not a folder" if isinstance(exc, IsADirectoryError) else ""
            raise TextFileError(f"cannot read {what} {shown}: {reason}{hint}") from None
        except ValueError as exc:           # an embedded NUL in the path
            raise TextFileError(f"cannot read {what} {shown!r}: {exc}") from None
    if len(raw) > limit:
        raise TextFileError(f"{what} {shown} is larger than {limit // (1024 * 1024)} MB; is it the right file?")
    return bytes(raw)


def read_text(path: Path | str, *, what: str = "file", limit: int = MAX_BYTES) -> str:
    """The UTF-8 text of ``path`` (``-`` is standard input), or a TextFileError with one clear line."""
    shown = "<stdin>" if str(path) == STDIN else str(path)
    return decode_text(read_bytes(path, what=what, limit=limit), shown)


def csv_rows(text: str, *, skipinitialspace: bool = False) -> Iterator[tuple[int, str, list[str] | None, str | None]]:
    """The lines of a small CSV file that say something: ``(number, line, cells, None)``, or
    ``(number, line, None, why)`` for a line the csv module refuses. Blank lines and ``#`` comments
    are skipped. Lines are split on newlines only (str.splitlines() also breaks on \\x0b, \\x1c …
    and would shift the line numbers); cells are stripped."""
    for number, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        try:
            row = next(csv.reader([line], skipinitialspace=skipinitialspace), [])
        except csv.Error as exc:
            yield number, line, None, f"not a CSV row ({exc}): {line[:40]!r}"
            continue
        cells = [cell.strip() for cell in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        yield number, line, cells, None
