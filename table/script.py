"""Table scripts (design §4): one action a line, run through the simulated drivers.

    tap CARD_ID | tap player-2 | tap uid:04A1B2C3D4E5F6
    press roll|help|run|next|undo
    die N          # the next die roll shows N (simulation only)
    wait SECONDS   # advance the simulated clock
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cards.tags import is_player_token
from drivers.events import BUTTONS, normalise_uid
from drivers.sim import SimButtons, SimReader
from engine.cards import Catalog
from engine.errors import MunchkinError


class ScriptError(MunchkinError, ValueError):
    """A table script line that cannot be understood."""


@dataclass(frozen=True)
class Action:
    line: int
    verb: str
    arg: str
    text: str


def parse_script(text: str, catalog: Catalog, *, source: str = "<script>") -> list[Action]:
    actions = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        verb, args = parts[0].lower(), parts[1:]

        def fail(why: str) -> ScriptError:
            return ScriptError(f"{source}:{n}: {why}: {raw.strip()!r}")

        if verb not in ("tap", "press", "die", "wait"):
            raise fail(f"unknown action {verb!r}; actions are tap, press, die, wait")
        if len(args) != 1:
            raise fail(f"'{verb}' takes exactly one argument")
        arg = args[0]
        if verb == "tap":
            if arg.lower().startswith("uid:"):
                try:
                    arg = "uid:" + normalise_uid(arg[4:])
                except ValueError as exc:
                    raise fail(str(exc)) from None
            elif not (is_player_token(arg) or arg in catalog):
                raise fail(f"no card or player token {arg!r}")
        elif verb == "press":
            arg = arg.lower()
            if arg not in BUTTONS:
                raise fail(f"no button {arg!r}; buttons are {', '.join(BUTTONS)}")
        elif verb == "die":
            if not arg.isdigit() or not 1 <= int(arg) <= 6:
                raise fail("a die shows 1 to 6")
        elif verb == "wait":
            try:
                seconds = float(arg)
            except ValueError:
                raise fail("wait takes a number of seconds") from None
            if not 0 <= seconds < 86400:
                raise fail("wait takes 0 or more seconds")
        else:
            raise fail(f"unknown action {verb!r}; actions are tap, press, die, wait")
        actions.append(Action(n, verb, arg, raw.strip()))
    return actions


def read_script(path: Path, catalog: Catalog) -> list[Action]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScriptError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return parse_script(text, catalog, source=str(path))


def tap_or_press(action: Action, reader: SimReader, buttons: SimButtons) -> bool:
    """Carry out a ``tap`` or ``press`` through the simulated drivers; False for other actions."""
    if action.verb == "tap":
        if action.arg.startswith("uid:"):
            reader.scan(action.arg[4:])
        else:
            reader.scan_card(action.arg)
        return True
    if action.verb == "press":
        buttons.press(action.arg)
        return True
    return False
