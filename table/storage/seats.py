"""Who holds which seat's pad (issue 26), kept beside the journal so that a restart keeps the seats.

A small JSON file, ``seats.json``: ``{"1": "player-6", "2": "player-5"}``. It is a convenience, not
the game: a file that is missing, unreadable or not what it should be gives no seats (the players tap
their tokens on their pads again) and is never a reason to stop; a write the disk refuses is logged
and the table plays on with the seats it has.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

SEATS_FILE = "seats.json"


class SeatFile:
    """The seats file of a state directory; ``read_only`` (commands that only look) never writes."""

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only

    def load(self) -> dict[int, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("seats not read from %s (%s): the players tap their tokens on their pads again", self.path, exc)
            return {}
        if not isinstance(data, dict):
            return {}
        return {int(seat): player for seat, player in data.items()
                if isinstance(seat, str) and seat in {"1", "2", "3", "4", "5", "6"} and isinstance(player, str)}

    def save(self, seats: dict[int, str]) -> None:
        if self.read_only:
            return
        tmp = self.path.with_name(self.path.name + ".new")
        try:
            tmp.write_text(json.dumps({str(seat): player for seat, player in sorted(seats.items())}), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            log.warning("seats not kept in %s (%s); they last until the table stops", self.path, exc)

    def __repr__(self) -> str:
        return f"<SeatFile {self.path}{' read-only' if self.read_only else ''}>"
