"""Table scripts (design §4): one action a line, run through the simulated drivers.

    tap CARD_ID | tap player-2 | tap uid:04A1B2C3D4E5F6
    tap@3 CARD_ID  # the same taps on seat 3's pad (a box with a reader at every seat)
    press roll|help|run|next|undo
    hold help      # a long press (HELP: the "what can I do now" panel)
    die N          # the next die roll shows N (simulation only)
    wait SECONDS   # advance the simulated clock

A script may start with the header ``export`` writes, comment lines that ``simulate`` reads (every
other reader skips comments); both the writing and the reading of it are here:

    # seed: 1234
    # ruleset: {"starting_hand": 4, ...}
    # players: {"player-1": ["Ann", "female"], ...}
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cards.tags import is_player_token
from cards.textfile import TextFileError, read_text, split_lines
from drivers.events import BUTTONS, normalise_uid
from drivers.sim import SimButtons, SimReader
from engine.cards import Catalog
from engine.errors import MunchkinError
from engine.rules import Ruleset
from table.config import Config, PlayerConfig, check_player, check_rules


class ScriptError(MunchkinError, ValueError):
    """A table script line that cannot be understood."""


ACTIONS = ("tap", "press", "hold", "die", "wait")
SEAT_TAP = re.compile(r"tap@([1-6])", re.ASCII)     # tap@N: a tap on seat N's pad
DIE_FACE = re.compile(r"[1-6]", re.ASCII)
MAX_WAIT = 86400.0                  # a day: longer is a typo
SHOWN = 60                          # a quoted line is cut to this many characters


def _quoted(raw: str) -> str:
    text = raw.strip()
    return repr(text if len(text) <= SHOWN else text[:SHOWN] + "…")


@dataclass(frozen=True)
class ScriptNotice:
    """A script line the running table could not take: its words go on the screen's message line."""

    text: str


@dataclass(frozen=True)
class Action:
    line: int
    verb: str
    arg: str
    text: str
    seat: int | None = None         # tap@N: the seat whose pad it is tapped on; None: the shared pad


def _did_you_mean(arg: str, catalog: Catalog) -> str:
    close = difflib.get_close_matches(arg.lower(), list(catalog), n=1, cutoff=0.75)
    return f"; did you mean {close[0]!r}?" if close else "; 'munchkin-table cards' lists the card ids"


def parse_script(text: str, catalog: Catalog, *, source: str = "<script>", first_line: int = 1) -> list[Action]:
    """The actions of a table script; raises ScriptError naming ``source`` and the line.

    ``first_line`` numbers the first line of ``text`` (a line read from a pipe on its own).
    """
    actions = []
    for n, raw in enumerate(split_lines(text), first_line):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        verb, args = parts[0].lower(), parts[1:]

        def fail(why: str) -> ScriptError:
            return ScriptError(f"{source}:{n}: {why}: {_quoted(raw)}")

        seat = None
        if verb.startswith("tap@"):
            found = SEAT_TAP.fullmatch(verb)
            if found is None:
                raise fail("a seat's tap is tap@N with a seat from 1 to 6, like 'tap@3 net-troll'")
            verb, seat = "tap", int(found.group(1))
        if verb not in ACTIONS:
            raise fail(f"unknown action {verb!r}; actions are tap, press, hold, die, wait (and tap@N for seat N's pad)")
        if verb == "tap" and args and args[0].lower().startswith("uid:"):
            args = ["".join(args)]          # a UID written in bytes: tap uid:04 A1 B2 C3
        if len(args) != 1:
            joined = "-".join(args).lower()
            if verb == "tap" and joined in catalog:
                raise fail(f"'tap' takes one card id, written with dashes: did you mean 'tap {joined}'?")
            raise fail(f"'{verb}' takes exactly one argument")
        arg = args[0]
        if verb == "tap":
            if arg.lower().startswith("uid:"):
                try:
                    arg = "uid:" + normalise_uid(arg[4:])
                except ValueError as exc:
                    raise fail(str(exc)) from None
            elif arg.lower() in catalog or is_player_token(arg.lower()):
                arg = arg.lower()           # card ids are lowercase; TAP NET-TROLL means net-troll
            else:
                raise fail(f"no card or player token {arg!r}{_did_you_mean(arg, catalog)}")
        elif verb in ("press", "hold"):
            arg = arg.lower()
            if arg not in BUTTONS:
                raise fail(f"no button {arg!r}; buttons are {', '.join(BUTTONS)}")
        elif verb == "die":
            if not DIE_FACE.fullmatch(arg):       # not str.isdigit: it takes '²', which int() refuses
                raise fail("a die shows 1 to 6, like 'die 4'")
        elif verb == "wait":
            try:
                seconds = float(arg)
            except ValueError:
                raise fail("wait takes a number of seconds, like 'wait 3' or 'wait 0.5'") from None
            if not 0 <= seconds <= MAX_WAIT:        # also refuses nan and inf
                raise fail(f"wait takes 0 to {MAX_WAIT:.0f} seconds")
        else:
            raise fail(f"unknown action {verb!r}; actions are tap, press, hold, die, wait")
        actions.append(Action(n, verb, arg, raw.strip(), seat))
    return actions


def read_script(path: Path | str, catalog: Catalog) -> list[Action]:
    """The actions of the script at ``path`` (``-``: standard input); raises ScriptError."""
    source = "<stdin>" if str(path) == "-" else str(path)
    try:
        text = read_text(path, what="script")
    except TextFileError as exc:
        raise ScriptError(str(exc)) from None
    return parse_script(text, catalog, source=source)


def tap_or_press(action: Action, reader: SimReader, buttons: SimButtons) -> bool:
    """Carry out a ``tap`` or ``press`` through the simulated drivers; False for other actions.

    A ``tap@N`` goes through seat N's simulated pad (on ``reader``'s queue and clock)."""
    if action.verb == "tap":
        if action.seat is not None:
            reader = SimReader(reader.sink, clock=reader.clock, name=f"seat-{action.seat}", seat=action.seat)
        if action.arg.startswith("uid:"):
            reader.scan(action.arg[4:])
        else:
            reader.scan_card(action.arg)
        return True
    if action.verb == "press":
        buttons.press(action.arg)
        return True
    if action.verb == "hold":
        buttons.hold(action.arg)
        return True
    return False


# ------------------------------------------------------------------ the header: seed, ruleset, players

SEED_RANGE = (0, 2**63 - 1)  # what the journal stores
HEADER_KEYS = ("seed", "ruleset", "players")


@dataclass
class ScriptSettings:
    """What a script's header says: the game's seed, its ruleset and its players' names and sexes."""

    seed: int | None = None
    ruleset: Ruleset | None = None
    players: dict[str, tuple[str, str]] | None = None

    def apply(self, config: Config) -> Config:
        """``config`` with the script's ruleset and player names, where the script gives them."""
        changes: dict[str, Any] = {}
        if self.ruleset is not None:
            changes["rules"] = self.ruleset
        if self.players is not None:
            changes["players"] = {token: PlayerConfig(name, sex) for token, (name, sex) in self.players.items()}
        return dataclasses.replace(config, **changes) if changes else config


def check_seed(seed: int) -> int:
    """``seed`` when the journal can store it; raises ScriptError otherwise."""
    if not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        raise ScriptError(f"a seed is a whole number from 0 to {SEED_RANGE[1]}, not {seed}")
    return seed


def script_header(title: str, settings: ScriptSettings) -> list[str]:
    """The comment lines that start a script: ``title``, then what ``read_settings`` reads back."""
    lines = [f"# {title}"]
    if settings.seed is not None:
        lines.append(f"# seed: {settings.seed}")
    if settings.ruleset is not None:
        lines.append(f"# ruleset: {json.dumps(settings.ruleset.to_dict(), sort_keys=True)}")
    if settings.players is not None:
        players = {k: list(v) for k, v in settings.players.items()}
        lines.append(f"# players: {json.dumps(players, ensure_ascii=False)}")
    return lines


def _ruleset(value: str) -> Ruleset:
    data = json.loads(value)
    if not isinstance(data, dict):
        raise ValueError("the ruleset is a JSON object")
    rules, problems = check_rules(data, "ruleset")      # the config's ranges: no nan, no strings
    if problems:
        raise ValueError("; ".join(problems))
    return rules


def _players(value: str) -> dict[str, tuple[str, str]]:
    data = json.loads(value)
    if not isinstance(data, dict) or not all(
            isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) for x in v) for v in data.values()):
        raise ValueError('players are {"player-1": ["name", "male|female"], ...}')
    problems = [p for k, v in data.items() for p in check_player(str(k), {"name": v[0], "sex": v[1]})[1]]
    if problems:
        raise ValueError("; ".join(problems))
    return {str(k): (v[0], v[1]) for k, v in data.items()}


def read_settings(text: str, *, source: str = "<script>") -> ScriptSettings:
    """The ``# seed:``, ``# ruleset:`` and ``# players:`` lines at the top of a script."""
    settings = ScriptSettings()
    for n, raw in enumerate(split_lines(text), 1):          # newline only, as the script's own lines
        line = raw.strip()
        if not line:
            continue
        if not line.startswith("#"):
            break                                   # the header ends at the first action
        key, sep, value = line[1:].strip().partition(":")
        key, value = key.strip(), value.strip()
        if not sep or key not in HEADER_KEYS:
            continue
        try:
            if key == "seed":
                settings.seed = check_seed(int(value))
            elif key == "ruleset":
                settings.ruleset = _ruleset(value)
            else:
                settings.players = _players(value)
        except (ValueError, TypeError) as exc:      # ScriptError is a ValueError: a bad seed is named here too
            raise ScriptError(f"{source}:{n}: bad '{key}' line: {exc}") from None
    return settings
