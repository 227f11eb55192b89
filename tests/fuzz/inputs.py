"""Generated inputs for every file, line, number, path and pipe the project reads, and the harness
that feeds them through the real entry points in-process.

Used by the fuzz tests (a few thousand cases in ``./go test``) and by ``bench/soak_inputs.py``
(tens of thousands). A case passes when its command exits 0 or 2, prints no traceback, says
something on stderr when it exits 2, logs no internal error, and prints state JSON that is JSON
(no NaN or Infinity). Everything happens in a temporary directory: generated paths point only
there or at places nobody can write (``/proc``).
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

KINDS = ("script", "stdin", "config", "tags", "cards", "argv")

# ------------------------------------------------------------------ building blocks

SEPARATORS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\r", "\r\n", "\t", "\x00"]
ODD_TEXT = ["²", "٣", "６", "Ⅻ", "½", "🂡", "\u202e", "\ufeff", "\u00a0", "é", "中文", "\ud7ff", "𝟘", "⁴", "∞",
            "NaN", "-0", "0x10", "1_0", "1e308", "-1e308", "1e-320", "inf", "-inf", "nan", "+3", "3.", ".5", "",
            " ", "#", "\\", "\"", "'", ",", "uid:", "player-", "player-0", "player-7", "Player-1", "../..", "~"]
BAD_BYTES = [b"\xff", b"\xfe\xff", b"\xb2", b"\xc3", b"\xc3(", b"\xe2\x82", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80",
             b"\xc0\xaf", b"\x80", b"\xef\xbb\xbf"]
NUMBERS = ["0", "1", "2", "3", "6", "7", "-1", "0.5", "2.6", "nan", "inf", "-inf", "+inf", "1e308", "1e309", "-1e308",
           "9223372036854775807", "-9223372036854775808", "99999999999999999999", "0x1F", "0o17", "0b101", "1_000",
           "3.14e-5", "-0.0", "1e-320"]
BUTTON_NAMES = ["roll", "help", "run", "next", "undo"]


def mutate_bytes(rng: random.Random, data: bytes, times: int = 1) -> bytes:
    """Byte-level damage: flips, bad UTF-8, separators, truncation, duplication."""
    out = bytearray(data)
    for _ in range(times):
        how = rng.randrange(7)
        at = rng.randrange(len(out) + 1)
        if how == 0 and out:
            out[min(at, len(out) - 1)] = rng.randrange(256)
        elif how == 1:
            out[at:at] = rng.choice(BAD_BYTES)
        elif how == 2:
            out[at:at] = rng.choice(SEPARATORS).encode("utf-8", "surrogatepass")
        elif how == 3:
            del out[at:]
        elif how == 4 and out:
            j = rng.randrange(len(out))
            out[at:at] = out[j:j + rng.randrange(1, 40)]
        elif how == 5:
            out[at:at] = rng.choice(ODD_TEXT).encode("utf-8", "surrogatepass")
        else:
            out[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 6)))
    return bytes(out)


def odd(rng: random.Random) -> str:
    return rng.choice(ODD_TEXT + SEPARATORS + [rng.choice(NUMBERS)])


def random_uid(rng: random.Random, *, good: bool = True) -> str:
    if good:
        digits = "".join(rng.choice("0123456789abcdefABCDEF") for _ in range(2 * rng.choice((4, 7, 10))))
        sep = rng.choice(["", "", ":", "-", " "])
        return sep.join(digits[i:i + 2] for i in range(0, len(digits), 2)) if sep else digits
    return rng.choice(["04A1B2", "04A1B2C3D", "ZZZZZZZZ", "", "٠٤A1B2C3", "04A1B2C3D4E5F6071829304A",
                       "0x04A1B2C3", "04a1b2c3 04", "０４A1B2C3"])


# ------------------------------------------------------------------ table scripts and piped lines


def script_line(rng: random.Random, cards: list[str], *, valid: float = 0.7) -> str:
    """One table-script line, usually meaningful, sometimes wrong in one of many ways."""
    if rng.random() < valid:
        verb = rng.choices(["tap", "press", "die", "wait"], weights=[6, 5, 1, 1])[0]
        if verb == "tap":
            arg = rng.choice([rng.choice(cards), f"player-{rng.randint(1, 6)}", f"uid:{random_uid(rng)}"])
        elif verb == "press":
            arg = rng.choice(BUTTON_NAMES)
        elif verb == "die":
            arg = str(rng.randint(1, 6))
        else:
            arg = rng.choice(["0", "1", "3", "2.7", "0.1"])
        line = f"{verb} {arg}"
        if rng.random() < 0.2:
            line = line.upper() if rng.random() < 0.5 else f"  {line}\t"
        if rng.random() < 0.15:
            line += f"  # {odd(rng)} comment {odd(rng)}"
        return line
    how = rng.randrange(10)
    if how == 0:
        return f"{rng.choice(['tap', 'press', 'die', 'wait'])} {odd(rng)}"
    if how == 1:
        return f"die {rng.choice(['²', '٣', '６', '0', '7', '-1', '1.5', '', '1 2', '⁴', '𝟘'])}"
    if how == 2:
        return f"wait {rng.choice(NUMBERS + ['²', '', 'soon', '1 2'])}"
    if how == 3:
        return f"{rng.choice(['jump', 'TAP', 'tapp', 'roll', '#', '', 'press'])} {rng.choice(cards)} {odd(rng)}"
    if how == 4:
        return f"tap uid:{random_uid(rng, good=False)}"
    if how == 5:
        return f"tap {rng.choice(cards)}{rng.choice(SEPARATORS)}tap player-{rng.randint(1, 6)}"
    if how == 6:
        return "# " + "".join(odd(rng) for _ in range(rng.randrange(1, 5)))
    if how == 7:
        return "tap " + "x" * rng.choice([1, 100, 5000])
    if how == 8:
        return f"press {rng.choice(['jump', 'ROLL', 'roll roll', '', odd(rng)])}"
    return "".join(odd(rng) for _ in range(rng.randrange(1, 8)))


def game_start(rng: random.Random) -> list[str]:
    players = rng.randint(2, 6)
    return [f"tap player-{n}" for n in range(1, players + 1)] + ["press next"]


def gen_script(rng: random.Random, cards: list[str]) -> bytes:
    """A whole table script: a game that mostly makes sense, sometimes damaged."""
    lines = game_start(rng) if rng.random() < 0.8 else []
    if rng.random() < 0.1:                  # the header an exported game starts with
        header = [f"# seed: {rng.choice(NUMBERS + ['²', '42'])}",
                  "# ruleset: " + rng.choice(['{"winning_level": 3}', '{"interference_seconds": NaN}',
                                              '{"starting_hand": "4"}', '{"nope": 1}', "[]", "{", '{"hand_limit": 1e999}']),
                  "# players: " + rng.choice(['{"player-1": ["Ann", "female"]}', '{"player-1": ["Ann"]}',
                                              '{"player-7": ["A", "male"]}', '{"player-2": ["x", "other"]}', "null"])]
        lines = rng.sample(header, rng.randint(1, 3)) + lines
    valid = rng.choice([1.0, 1.0, 1.0, 0.99, 0.95, 0.7])
    lines += [script_line(rng, cards, valid=valid) for _ in range(rng.randrange(0, 60))]
    text = "\n".join(lines) + rng.choice(["\n", "", "\r\n", "\n\n"])
    if rng.random() < 0.1:
        text = text.replace("\n", "\r\n")
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.1:
        data = b"\xef\xbb\xbf" + data
    if rng.random() < 0.15:
        data = mutate_bytes(rng, data, rng.randint(1, 3))
    return data


def gen_stdin(rng: random.Random, cards: list[str]) -> bytes:
    """Lines piped to ``run`` in simulator mode."""
    lines = game_start(rng) if rng.random() < 0.5 else []
    lines += [script_line(rng, cards, valid=0.6) for _ in range(rng.randrange(1, 25))]
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    if rng.random() < 0.4:
        data = mutate_bytes(rng, data, rng.randint(1, 4))
    return data


# ------------------------------------------------------------------ config TOML

CONFIG_KEYS: dict[str, dict[str, Any]] = {
    "reader": {"type": ["mfrc522", "pn532", "sim", ""], "spi_bus": [0, 1], "spi_device": [0, 1], "reset_pin": [25],
               "port": ["/dev/serial0"], "baudrate": [115200, 9600]},
    "buttons": {"roll": [5], "help": [6], "run": [13], "next": [19], "undo": [26], "bounce_ms": [50],
                "hold_seconds": [1.0, 2]},
    "feedback": {"buzzer": [12, False], "led": [16, False]},
    "storage": {"state_dir": ["STATE"]},
    "display": {"width": [800, 1920], "height": [480, 1080], "fullscreen": ["auto", "yes", "no"],
                "language": ["en", "es", "zh"], "sound": [True, False], "font": [""], "blank_screen": [False]},
    "table": {"token_seconds": [8, 2.5]},
    "cards": {"sets": [[]]},
    "web": {"enabled": [True, False], "bind": ["127.0.0.1", "::", "0.0.0.0"], "port": [0, 8080],
            "key": ["", "tablekey-1234567"]},
    "rules": {"starting_hand": [4, 2], "winning_level": [10, 20], "min_players": [3, 2], "max_players": [6],
              "hand_limit": [5], "interference_seconds": [2.6, 0], "death_keeps_race_and_class": [True, False],
              "halfling_run_away": ["penalty", "reroll"], "level_floor": [1]},
}


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if isinstance(value, float) and value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        if value.startswith("RAW:"):
            return value[4:]
        return json.dumps(value)       # TOML basic strings escape the way JSON does
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    return json.dumps(str(value))


def bad_value(rng: random.Random) -> Any:
    return rng.choice([
        float("nan"), float("inf"), float("-inf"), 1e308, -1e308, 2 ** 63 - 1, -(2 ** 63), -1, 0, 1e-320, 99999,
        "RAW:1979-05-27T07:32:00Z", "RAW:07:32:00", "", "²", "x" * 300, "a\nb", "\x00", "\u2028", [1, "a"],
        {"a": 1}, True, False, [], [[]], "RAW:+nan", "RAW:-0.0", "RAW:0x7FFFFFFFFFFFFFFF", 3.5, "/proc/x",
    ])


def gen_config(rng: random.Random, state: Path) -> bytes:
    """A config file: known sections and keys with good and bad values, unknown ones, broken TOML."""
    lines: list[str] = []
    sections = rng.sample(list(CONFIG_KEYS), rng.randrange(0, len(CONFIG_KEYS) + 1))
    bad_rate = rng.choice([0, 0, 0, 0.05, 0.2, 0.5])
    if rng.random() < 0.08:
        sections.append(rng.choice(["raeder", "screen", "web", "players", "Reader", "rules.extra", "x y"]))
    for section in sections:
        keys = CONFIG_KEYS.get(section, {"name": ["x"], "type": ["sim"]})
        head = section if section.replace("-", "").replace("_", "").isalnum() else json.dumps(section)
        if section == "players":
            token = rng.choice(["player-1", "player-6", "player-7", "player-0", "bob"])
            lines.append(f'[players."{token}"]')
            lines.append(f"name = {toml_value(rng.choice(['Ana', '', 'x' * 60, 'a' + chr(10) + 'b', '中文', bad_value(rng)]))}")
            lines.append(f"sex = {toml_value(rng.choice(['male', 'female', 'other', 1]))}")
            continue
        lines.append(f"[{head}]")
        for key in rng.sample(list(keys), rng.randrange(0, len(keys) + 1)):
            roll = rng.random()
            if roll >= bad_rate:
                value = rng.choice(keys[key])
            elif roll < bad_rate * 0.8:
                value = bad_value(rng)
            else:
                value = rng.randint(-100, 10000)
            if value == "STATE":
                value = rng.choice([str(state), str(state / "sub"), "/proc/munchkin-fuzz", "relative/dir",
                                    str(state / "file.txt"), "~/mt-state"])
            lines.append(f"{key} = {toml_value(value)}")
        if rng.random() < 0.03:
            lines.append(f"{rng.choice(['typo', 'spi_bsu', 'Roll', 'web', ''])} = 1")
    if rng.random() < 0.02:
        depth = rng.choice([50, 3000])
        lines.insert(0, "deep = " + rng.choice(["[" * depth + "]" * depth, "{a=" * depth + "1" + "}" * depth]))
    text = "\n".join(lines) + "\n"
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.08:
        data = mutate_bytes(rng, data, rng.randint(1, 3))
    return data


# ------------------------------------------------------------------ tags CSV


def gen_tags_csv(rng: random.Random, cards: list[str]) -> bytes:
    rows: list[str] = []
    header = rng.choices(["uid,card", "UID, Card", "card,uid", "", "uid;card", "uid,card,extra", "uid,cards", "#c"],
                         weights=[30, 2, 2, 2, 1, 1, 1, 1])[0]
    bad_rate = rng.choice([0, 0, 0.05, 0.3])
    if header:
        rows.append(header)
    for _ in range(rng.randrange(0, 20)):
        roll = rng.random()
        if roll >= bad_rate:
            uid = random_uid(rng)
            card = rng.choice([rng.choice(cards), f"player-{rng.randint(1, 6)}"])
            rows.append(f"{uid},{card}" if rng.random() < 0.9 else f'"{uid}" , "{card}"')
        elif roll < bad_rate / 3:
            rows.append(rng.choice(["", "# a comment", "   ", ",", ",,", '"', '"unclosed,elf', "a\x00b,elf"]))
        else:
            rows.append(f"{rng.choice([random_uid(rng, good=False), random_uid(rng), odd(rng)])},"
                        f"{rng.choice([rng.choice(cards), odd(rng), 'no-such-card', 'player-9', ''])}"
                        + rng.choice(["", ",x", ',"a,b"']))
    text = rng.choice(["\n", "\r\n"]).join(rows) + rng.choice(["\n", ""])
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.1:
        data = b"\xef\xbb\xbf" + data
    if rng.random() < 0.1:
        data = mutate_bytes(rng, data, rng.randint(1, 3))
    return data


# ------------------------------------------------------------------ card files

CARD_TEMPLATES = [
    {"id": "fuzz-monster", "name": "Fuzz Monster", "deck": "door", "kind": "monster", "level": 4, "treasures": 2,
     "bad_stuff": [{"op": "lose-levels", "n": 1}]},
    {"id": "fuzz-sword", "name": "Fuzz Sword", "deck": "treasure", "kind": "item", "slot": "1-hand", "bonus": 2,
     "gold": 400},
    {"id": "fuzz-curse", "name": "Curse! Fuzz", "deck": "door", "kind": "curse", "effects": [{"op": "lose-levels", "n": 1}]},
    {"id": "fuzz-potion", "name": "Fuzz Potion", "deck": "treasure", "kind": "one-shot", "bonus": 3, "gold": 100},
]
CARD_KEYS = ["id", "name", "deck", "kind", "slot", "level", "treasures", "levels_gained", "bonus", "gold", "copies",
             "big", "undead", "requires", "note", "vs", "bad_stuff", "effects", "name_es", "name_zh", "colour"]


def gen_card_file(rng: random.Random) -> bytes:
    lines = []
    if rng.random() < 0.9:
        lines += ["[set]", f"id = {toml_value(rng.choice(['fuzz', 'fuzz-set', '', bad_value(rng)]))}",
                  f"name = {toml_value(rng.choice(['Fuzz', bad_value(rng)]))}"]
        if rng.random() < 0.1:
            lines.append("colour = 'red'")
    for _ in range(rng.randrange(0, 5)):
        card = dict(rng.choice(CARD_TEMPLATES))
        if rng.random() < 0.5:
            card["id"] = f"{card['id']}-{rng.randrange(5)}"
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2, 3])):
            key = rng.choice(CARD_KEYS)
            roll = rng.random()
            if roll < 0.3:
                card.pop(key, None)
            elif roll < 0.8:
                card[key] = bad_value(rng)
            else:
                card[key] = rng.choice([{"op": rng.choice(["lose-levels", "death", "nope", ""]), "n": bad_value(rng)}],
                                       ) if key in ("bad_stuff", "effects") else rng.choice(
                    ["monster", "item", "curse", "race", "class", "door", "treasure", "head", "2-hands", "big", "x"])
        lines.append("")
        lines.append("[[card]]")
        for key, value in card.items():
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                lines.append(f"{key} = [{', '.join(toml_value(v) for v in value)}]")
            else:
                lines.append(f"{key} = {toml_value(value)}")
    if rng.random() < 0.05:
        lines.append("[[card]]\nid = 1\n[card.x]")
    if rng.random() < 0.02:
        depth = rng.choice([50, 3000])
        lines.append("note = " + rng.choice(["[" * depth + "]" * depth, "{a=" * depth + "1" + "}" * depth]))
    data = ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")
    if rng.random() < 0.1:
        data = mutate_bytes(rng, data, rng.randint(1, 3))
    return data


# ------------------------------------------------------------------ command lines

READ_ONLY_COMMANDS = {"simulate", "state", "cards", "tags", "export", "history", "stats"}   # executed; others parsed only


def gen_argv(rng: random.Random, paths: dict[str, str], commands: list[str]) -> list[str]:
    """A command line: a real or misspelt command, good and bad options, paths of every kind."""
    words: list[str] = []
    if rng.random() < 0.2:
        words.append(rng.choice(["-v", "--verbose", "--help", "-h", "--nope"]) if rng.random() < 0.3 else "-v")
    command = rng.choice(commands + ["simulat", "", "stat", "--config", "tags import", odd(rng)])
    words.append(command)
    pool = [
        "--config", paths["good_config"], "--config", paths["bad_config"], "--config", paths["missing"],
        "--config", paths["dir"], "--json", "--sim", "-v", "--screenshot", paths["shots"], "--screenshot", "/proc/x",
        "--screenshot", paths["file_as_dir"], paths["script"], paths["bad_script"], paths["missing"], paths["dir"],
        "-", "--", "validate", "search", "import", "export", paths["tags"], paths["bad_tags"], paths["export_to"],
        "/no/such/dir/x.csv", paths["cards"], "dragon", "", " ", odd(rng), "--set", "base", "--card", "elf",
        "--no-tokens", "--seed", str(rng.choice(NUMBERS)), "-x", "--json=1", "--config=" + paths["good_config"],
        "--game", rng.choice(["1", "2", "0", "-1", "99999999999999999999", "x", "1e3"]), "--csv",
        "--config", paths["good_config"], "--config", paths["good_config"],
    ]
    for _ in range(rng.randrange(0, 5)):
        words.append(rng.choice(pool))
    return [w.replace("\x00", "") for w in words]


# ------------------------------------------------------------------ the harness


@dataclass
class Failure:
    kind: str
    problem: str
    case: str


@dataclass
class Harness:
    """Runs generated cases through the real entry points, in-process, in ``root`` (a temporary folder)."""

    root: Path
    counts: Counter[str] = field(default_factory=Counter)
    codes: Counter[int] = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)
    internal_errors: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.state = self.root / "state"
        self.paths = self._fixtures()
        self._table: Any = None
        self._table_uses = 0
        from cards.loader import load_catalog

        self.catalog = load_catalog()
        self.cards = sorted(self.catalog)
        from table.cli import build_parser

        sub = next(a for a in build_parser()._actions if a.dest == "command")
        self.commands = sorted(sub.choices)     # type: ignore[arg-type]

    # -- setup
    def _fixtures(self) -> dict[str, str]:
        r = self.root
        (r / "dir").mkdir(exist_ok=True)
        (r / "file").write_text("")
        (r / "good.toml").write_text(f'[storage]\nstate_dir = "{self.state}"\n[display]\nsound = false\n')
        (r / "bad.toml").write_bytes(b"[rules]\ninterference_seconds = nan\n[raeder]\n\xff\n")
        (r / "script.txt").write_text("tap player-1\ntap player-2\ntap player-3\npress next\ntap net-troll\npress run\n")
        (r / "bad-script.txt").write_bytes(b"tap player-1\ndie \xc2\xb2\n")
        (r / "tags.csv").write_text("uid,card\n04A1B2C3,player-1\n04A1B2C4,elf\n")
        (r / "bad-tags.csv").write_text("card,uid\nelf,04A1B2C3\n")
        (r / "cards.toml").write_text('[set]\nid = "fuzz"\nname = "Fuzz"\n[[card]]\nid = "fuzz-x"\nname = "X"\n'
                                      'deck = "door"\nkind = "curse"\n')
        return {"good_config": str(r / "good.toml"), "bad_config": str(r / "bad.toml"), "missing": str(r / "none"),
                "dir": str(r / "dir"), "file_as_dir": str(r / "file" / "x"), "shots": str(r / "shots"),
                "script": str(r / "script.txt"), "bad_script": str(r / "bad-script.txt"), "tags": str(r / "tags.csv"),
                "bad_tags": str(r / "bad-tags.csv"), "export_to": str(r / "export.csv"), "cards": str(r / "cards.toml")}

    @contextlib.contextmanager
    def environment(self) -> Iterator[None]:
        """Headless drivers, a home and state inside root, temporary folders on tmpfs when there is one,
        the catalog parsed once, and a log handler that catches internal errors."""
        import cards.loader
        import table.cli  # noqa: F401

        saved_env = dict(os.environ)
        saved_cwd = os.getcwd()
        saved_tempdir = tempfile.tempdir
        saved_loader = cards.loader.load_catalog
        cache: dict[tuple[str, ...], Any] = {}
        real = saved_loader

        def cached(paths=None):  # type: ignore[no-untyped-def]
            files = list(paths) if paths is not None else cards.loader.set_files()
            if any(Path(p).resolve().parent != cards.loader.DATA_DIR for p in files):
                return real(files)                      # a generated set: parsed every time
            key = tuple(str(p) for p in files)
            if key not in cache:
                cache[key] = real(files)
            return cache[key]

        handler = _InternalErrors(self.internal_errors)
        shm = Path("/dev/shm")
        fast = tempfile.mkdtemp(prefix="munchkin-fuzz-", dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None)
        root_logger = logging.getLogger()
        try:
            os.environ.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", HOME=str(self.root),
                              XDG_STATE_HOME=str(self.root / "xdg"), PYGAME_HIDE_SUPPORT_PROMPT="1")
            os.environ.pop("STATE_DIRECTORY", None)
            os.chdir(self.root)
            tempfile.tempdir = fast
            cards.loader.load_catalog = cached
            root_logger.addHandler(handler)
            yield
        finally:
            root_logger.removeHandler(handler)
            cards.loader.load_catalog = saved_loader
            tempfile.tempdir = saved_tempdir
            os.chdir(saved_cwd)
            os.environ.clear()
            os.environ.update(saved_env)
            if self._table is not None:
                self._table.journal.close()
                self._table = None
            import shutil

            shutil.rmtree(fast, ignore_errors=True)

    # -- checks
    def _fail(self, kind: str, problem: str, case: Any) -> None:
        self.failures.append(Failure(kind, problem, repr(case)[:400]))

    def cli(self, kind: str, argv: list[str], case: Any, *, stdin: bytes = b"") -> int | None:
        """``main(argv)`` with captured streams; records any way the answer is not clear."""
        from table.cli import main

        out, err = io.StringIO(), io.StringIO()
        saved_stdin = sys.stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
        before = len(self.internal_errors)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code: int | None = main(argv)
                except SystemExit as exc:      # argparse: --help, or a usage error said in one line
                    code = exc.code if isinstance(exc.code, int) else -1
        except BaseException as exc:   # anything else escaping main is a traceback for the user
            self._fail(kind, f"{type(exc).__name__} escaped: {exc}", (argv, case))
            return None
        finally:
            sys.stdin = saved_stdin
        self.codes[code if isinstance(code, int) else -1] += 1
        said = err.getvalue()
        if code not in (0, 2):
            self._fail(kind, f"exit {code}: {said.strip()[-300:]}", (argv, case))
        elif "Traceback" in said or "Traceback" in out.getvalue():
            self._fail(kind, f"a traceback: {said[-300:]}", (argv, case))
        elif code == 2 and not said.strip():
            self._fail(kind, "exit 2 without a word", (argv, case))
        if len(self.internal_errors) > before:
            self._fail(kind, f"internal error logged: {self.internal_errors[-1][:300]}", (argv, case))
        text = out.getvalue()
        if code == 0 and text.startswith("{"):
            try:
                json.loads(text, parse_constant=_refuse_constant)
            except ValueError as exc:
                self._fail(kind, f"stdout is not JSON: {exc}", (argv, case))
        return code

    # -- one case of each kind
    def write(self, name: str, data: bytes) -> str:
        path = self.root / name
        path.write_bytes(data)
        return str(path)

    def run_script(self, data: bytes) -> None:
        self.counts["script"] += 1
        if data and len(data) % 7 == 0:
            self.cli("script", ["simulate", "-"], data, stdin=data)
        else:
            self.cli("script", ["simulate", self.write("case-script.txt", data)], data)

    def run_stdin(self, data: bytes) -> None:
        """Lines piped to ``run`` (through its stdin reader into the controller, as its main loop does),
        then the same bytes typed on the simulator's keyboard."""
        from drivers.base import ManualClock
        from drivers.sim import SimButtons, SimReader
        from table.app.run import pipe_script
        from table.config import Config, StorageConfig
        from table.sim.script import ScriptNotice
        from table.control.assembly import build_table

        self.counts["stdin"] += 1
        if self._table is None or self._table_uses >= 40:
            if self._table is not None:
                self._table.journal.close()
            state = Path(tempfile.mkdtemp(prefix="run-", dir=tempfile.tempdir))
            clock = ManualClock()
            self._table = build_table(Config(storage=StorageConfig(state_dir=str(state))), clock, seed_source=lambda: 1)
            self._reader = SimReader(self._table.events, clock=clock)
            self._buttons = SimButtons(self._table.events, clock=clock)
            self._clock = clock
            self._table_uses = 0
        self._table_uses += 1
        table, ctl = self._table, self._table.controller
        before = len(self.internal_errors)
        try:
            pipe_script(io.BytesIO(data), self._reader, self._buttons, table, sleep=self._clock.advance)
            self._type_keys(data)
            for item in table.events.drain():
                if isinstance(item, ScriptNotice):
                    ctl.refuse(item.text)
                else:
                    ctl.handle(item)
            ctl.tick()
            from engine.serialize import state_to_json

            json.dumps(state_to_json(ctl.state, table.catalog), allow_nan=False)
        except BaseException as exc:
            self._fail("stdin", f"{type(exc).__name__}: {exc}", data)
            self._table = None
            return
        if len(self.internal_errors) > before:
            self._fail("stdin", f"internal error logged: {self.internal_errors[-1][:300]}", data)

    def _type_keys(self, data: bytes) -> None:
        """The simulator's keyboard: the same bytes typed as keys (and Enter at each newline)."""
        import pygame

        from table.app.run import _key
        from table.ui.picker import Picker

        picker = Picker()
        ctl = self._table.controller
        for ch in data[:200].decode("utf-8", errors="replace"):
            if ch == "\n":
                event = SimpleNamespace(key=pygame.K_RETURN, unicode="\r")
            else:
                event = SimpleNamespace(key=ord(ch) if ord(ch) < 0x110000 else 0, unicode=ch)
            _key(event, picker, self._reader, self._buttons, ctl)

    def run_config(self, data: bytes, rng: random.Random) -> None:
        self.counts["config"] += 1
        path = self.write("case-config.toml", data)
        argv = rng.choice([["state", "--config", path], ["cards", "--config", path], ["tags", "export", "--config", path],
                           ["simulate", self.paths["script"], "--config", path]])
        self.cli("config", argv, data)

    def run_tags(self, data: bytes, rng: random.Random) -> None:
        self.counts["tags"] += 1
        if self.counts["tags"] % 25 == 0:
            import shutil

            shutil.rmtree(self.state, ignore_errors=True)
        path = self.write("case-tags.csv", data)
        self.cli("tags", ["tags", "import", path, "--config", self.paths["good_config"]], data)
        if rng.random() < 0.1:
            self.cli("tags", ["tags", "export", "--config", self.paths["good_config"]], data)

    def run_cards(self, data: bytes, rng: random.Random) -> None:
        self.counts["cards"] += 1
        path = self.write("case-set.toml", data)
        if rng.random() < 0.8:
            self.cli("cards", ["cards", "validate", path], data)
        else:
            config = self.write("case-cards-config.toml",
                                f'[storage]\nstate_dir = "{self.state}"\n[cards]\nsets = ["{path}"]\n'.encode())
            self.cli("cards", [rng.choice(["state", "cards"]), "--config", config], data)

    def run_argv(self, argv: list[str], rng: random.Random) -> None:
        from table.cli import build_parser

        self.counts["argv"] += 1
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                command = build_parser().parse_args(argv).command
        except SystemExit:
            command = None          # a usage error: main answers it without running anything
        except BaseException as exc:
            self._fail("argv", f"{type(exc).__name__} escaped the parser: {exc}", argv)
            return
        if command is not None and command not in READ_ONLY_COMMANDS:
            return                  # run, enroll, doctor, … open screens and hardware: parsed only
        stdin = gen_script(rng, self.cards) if "-" in argv else b""
        self.cli("argv", argv, argv, stdin=stdin)

    def run_case(self, kind: str, rng: random.Random) -> None:
        if kind == "script":
            self.run_script(gen_script(rng, self.cards))
        elif kind == "stdin":
            self.run_stdin(gen_stdin(rng, self.cards))
        elif kind == "config":
            self.run_config(gen_config(rng, self.state), rng)
        elif kind == "tags":
            self.run_tags(gen_tags_csv(rng, self.cards), rng)
        elif kind == "cards":
            self.run_cards(gen_card_file(rng), rng)
        else:
            self.run_argv(gen_argv(rng, self.paths, self.commands), rng)

    def run_seeded(self, seed: int, per_kind: dict[str, int], *, progress: Callable[[str, int], None] | None = None) -> None:
        """``per_kind`` cases of each kind from one seeded generator (the same seed, the same cases)."""
        rng = random.Random(seed)
        for kind, n in per_kind.items():
            for i in range(n):
                self.run_case(kind, random.Random(rng.getrandbits(64)))
                if progress is not None:
                    progress(kind, i + 1)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def report(self) -> str:
        lines = [f"{self.total} cases: " + ", ".join(f"{k} {self.counts[k]}" for k in KINDS),
                 "exit codes: " + ", ".join(f"{c}: {n}" for c, n in sorted(self.codes.items())),
                 f"failures: {len(self.failures)}"]
        for f in self.failures[:10]:
            lines.append(f"  [{f.kind}] {f.problem}\n      input: {f.case}")
        return "\n".join(lines)


class _InternalErrors(logging.Handler):
    """Collects log records that carry a traceback or speak of an internal error: a bug behind a polite answer."""

    def __init__(self, sink: list[str]) -> None:
        super().__init__(level=logging.DEBUG)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if record.exc_info or "internal error" in message or "unexpected error" in message:
            self.sink.append(f"{record.name}: {message}")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
