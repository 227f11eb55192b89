"""The tag registry: which NFC tag UID stands for which card or player token.

Kept as a CSV file (``uid,card``) in the state directory and always replaced
atomically, so a power cut leaves either the old registry or the new one.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from engine.state import PLAYER_TOKENS

HEADER = ("uid", "card")
HEX = set("0123456789ABCDEF")


def parse_uid(text: str) -> str:
    """Upper-case hex of a 4-, 7- or 10-byte UID; raises ValueError naming the text."""
    cleaned = "".join(ch for ch in text.strip() if ch not in ": -").upper()
    if not cleaned or set(cleaned) - HEX or len(cleaned) not in (8, 14, 20):
        raise ValueError(f"{text!r} is not a tag UID (4, 7 or 10 bytes in hex, like 04A1B2C3D4E5F6)")
    return cleaned


def is_player_token(name: str) -> bool:
    return name in PLAYER_TOKENS


class TagRegistry:
    """UID → card id or player token; several UIDs may share a card id."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._by_uid: dict[str, str] = {}
        if path is not None and path.exists():
            self._by_uid = dict(self._read(path.read_text(encoding="utf-8")))

    @staticmethod
    def _read(text: str) -> Iterator[tuple[str, str]]:
        rows = csv.reader(io.StringIO(text))
        for n, row in enumerate(rows, 1):
            if n == 1 and tuple(c.strip() for c in row) == HEADER:
                continue
            if len(row) >= 2:
                yield parse_uid(row[0]), row[1].strip()

    def lookup(self, uid: str) -> str | None:
        return self._by_uid.get(uid)

    def uids_of(self, card: str) -> list[str]:
        return [u for u, c in self._by_uid.items() if c == card]

    def bind(self, uid: str, card: str) -> None:
        uid = parse_uid(uid)
        owner = self._by_uid.get(uid)
        if owner is not None and owner != card:
            raise ValueError(f"tag {uid} already belongs to {owner}")
        self._by_uid[uid] = card
        self.save()

    def unbind(self, uid: str) -> None:
        if self._by_uid.pop(uid, None) is not None:
            self.save()

    def items(self) -> list[tuple[str, str]]:
        return sorted(self._by_uid.items(), key=lambda kv: (kv[1], kv[0]))

    def to_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(HEADER)
        writer.writerows(self.items())
        return out.getvalue()

    def save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".tags-", suffix=".csv")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(self.to_csv())
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def __len__(self) -> int:
        return len(self._by_uid)

    def __repr__(self) -> str:
        return f"<TagRegistry {len(self._by_uid)} tags at {self.path}>"
