"""The TOML config (design §4): every key optional, unknown keys an error that names them."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from engine.errors import MunchkinError
from engine.rules import Ruleset
from engine.state import PLAYER_TOKENS

# The installed box's config; the tests point it elsewhere, so a box's own config cannot leak into them.
SYSTEM_CONFIG = Path(os.environ.get("MUNCHKIN_SYSTEM_CONFIG") or "/etc/munchkin-table/config.toml")
LANGUAGES = ("en", "es", "zh")


class ConfigError(MunchkinError, ValueError):
    """The config file is missing, unreadable or says something we cannot use."""


def is_raspberry_pi() -> bool:
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False


def default_state_dir() -> Path:
    if os.environ.get("STATE_DIRECTORY"):          # set by systemd's StateDirectory=
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    box = Path("/var/lib/munchkin-table")       # the installed box's (systemd's StateDirectory=)
    if is_raspberry_pi() and (os.geteuid() == 0 or os.access(box, os.W_OK)):
        return box
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "munchkin-table"


@dataclass
class ReaderConfig:
    type: str = ""              # mfrc522 | pn532 | sim; empty: mfrc522 on a Pi, sim elsewhere
    spi_bus: int = 0
    spi_device: int = 0
    reset_pin: int = 25
    port: str = "/dev/serial0"
    baudrate: int = 115200


@dataclass
class ButtonsConfig:
    roll: int = 5
    help: int = 6
    run: int = 13
    next: int = 19
    undo: int = 26
    bounce_ms: int = 50         # a press must hold this long to count (contact bounce)
    hold_seconds: float = 1.0   # a press held this long is also reported as held

    def pins(self) -> dict[str, int]:
        return {"roll": self.roll, "help": self.help, "run": self.run, "next": self.next, "undo": self.undo}


@dataclass
class FeedbackConfig:
    buzzer: int | bool = 12     # BCM pin, or false when there is no buzzer
    led: int | bool = 16        # BCM pin, or false when there is no LED

    def pin(self, name: str) -> int | None:
        value = getattr(self, name)
        return None if value is False or value is True else int(value)


@dataclass
class StorageConfig:
    state_dir: str = ""


@dataclass
class DisplayConfig:
    width: int = 800
    height: int = 480
    fullscreen: str = "auto"    # auto (on a Pi without a desktop) | yes | no
    language: str = "en"
    sound: bool = True
    font: str = ""              # a TTF/TTC for every language; empty: find one
    blank_screen: bool = False  # let the screen blank while the table runs


@dataclass
class TableConfig:
    token_seconds: float = 8.0  # a tapped player token acts for this long


@dataclass
class CardsConfig:
    sets: list[str] = field(default_factory=list)   # extra set files beside cards/data/*.toml

    def set_paths(self, relative_to: Path | None = None) -> list[Path]:
        """The extra set files; relative paths count from the config file's folder."""
        out = []
        for name in self.sets:
            path = Path(name).expanduser()
            if not path.is_absolute() and relative_to is not None:
                path = relative_to / path
            out.append(path)
        return out


@dataclass
class WebConfig:
    enabled: bool = False       # the live board for phones on the local network
    bind: str = "0.0.0.0"       # the address to listen on ("::" for IPv6 too, "127.0.0.1" for this box only)
    port: int = 8080            # 0: any free port
    key: str = ""               # empty: a random key, made once and kept in the state directory


@dataclass
class PlayerConfig:
    name: str = ""
    sex: str = "male"


SECTIONS: dict[str, type] = {
    "reader": ReaderConfig, "buttons": ButtonsConfig, "feedback": FeedbackConfig,
    "storage": StorageConfig, "display": DisplayConfig, "table": TableConfig,
    "cards": CardsConfig, "web": WebConfig,
}


@dataclass
class Config:
    reader: ReaderConfig = field(default_factory=ReaderConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    feedback: FeedbackConfig = field(default_factory=FeedbackConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    table: TableConfig = field(default_factory=TableConfig)
    cards: CardsConfig = field(default_factory=CardsConfig)
    web: WebConfig = field(default_factory=WebConfig)
    rules: Ruleset = field(default_factory=Ruleset)
    players: dict[str, PlayerConfig] = field(default_factory=dict)
    source: str = "(defaults)"

    @property
    def state_dir(self) -> Path:
        return Path(self.storage.state_dir).expanduser() if self.storage.state_dir else default_state_dir()

    def card_set_files(self) -> list[Path]:
        """Every card set file to load: cards/data/*.toml plus the [cards] sets."""
        from cards.loader import set_files

        base = Path(self.source).parent if self.source not in ("(defaults)", "(text)") else None
        return set_files(self.cards.set_paths(base))

    def reader_type(self, *, sim: bool) -> str:
        if sim:
            return "sim"
        return self.reader.type or ("mfrc522" if is_raspberry_pi() else "sim")


def _expected_type(default: Any) -> tuple[type, ...]:
    if isinstance(default, bool):
        return (bool,)
    if isinstance(default, list):
        return (list,)
    if isinstance(default, int):
        return (int,)
    if isinstance(default, float):
        return (int, float)
    return (str,)


def _section(cls: type, data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a table like [{where}], got {data!r}")
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigError(f"unknown key(s) in [{where}]: {', '.join(unknown)}; known keys: {', '.join(known)}")
    defaults = cls()
    for key, value in data.items():
        default = getattr(defaults, key)
        ok = _expected_type(default)
        if cls is FeedbackConfig:
            ok = (int, bool)
        if not isinstance(value, ok) or (isinstance(value, bool) and bool not in ok):
            names = " or ".join(t.__name__ for t in ok)
            raise ConfigError(f"[{where}] {key} must be {names}, got {value!r}")
    return cls(**data)


def parse_config(data: dict[str, Any], source: str = "(text)") -> Config:
    top = set(SECTIONS) | {"rules", "players"}
    unknown = sorted(set(data) - top)
    if unknown:
        raise ConfigError(f"{source}: unknown section(s) {', '.join(unknown)}; known: {', '.join(sorted(top))}")
    try:
        parts = {name: _section(cls, data.get(name, {}), name) for name, cls in SECTIONS.items()}
        rules = Ruleset()
        if "rules" in data:
            rules = _section(Ruleset, data["rules"], "rules")
        players: dict[str, PlayerConfig] = {}
        raw_players = data.get("players", {})
        if not isinstance(raw_players, dict):
            raise ConfigError("[players] must hold tables like [players.player-1]")
        for token, entry in raw_players.items():
            if token not in PLAYER_TOKENS:
                raise ConfigError(f"[players.{token}]: players are named player-1 … player-6")
            players[token] = _section(PlayerConfig, entry, f"players.{token}")
            if players[token].sex not in ("male", "female"):
                raise ConfigError(f"[players.{token}] sex must be \"male\" or \"female\"")
    except ConfigError as exc:
        raise ConfigError(f"{source}: {exc}") from None
    cfg = Config(**parts, rules=rules, players=players, source=source)
    _check(cfg, source)
    return cfg


def _check(cfg: Config, source: str) -> None:
    if cfg.reader.type not in ("", "mfrc522", "pn532", "sim"):
        raise ConfigError(f"{source}: [reader] type must be \"mfrc522\", \"pn532\" or \"sim\", got {cfg.reader.type!r}")
    if cfg.display.language not in LANGUAGES:
        raise ConfigError(f"{source}: [display] language must be one of {', '.join(LANGUAGES)}, got {cfg.display.language!r}")
    if cfg.display.fullscreen not in ("auto", "yes", "no"):
        raise ConfigError(f"{source}: [display] fullscreen must be \"auto\", \"yes\" or \"no\"")
    if not all(isinstance(p, str) and p for p in cfg.cards.sets):
        raise ConfigError(f"{source}: [cards] sets must be a list of file paths, like [\"extra/my-set.toml\"]")
    _check_web(cfg.web, source)
    pins = cfg.buttons.pins()
    if len(set(pins.values())) != len(pins):
        raise ConfigError(f"{source}: [buttons] two buttons share a pin: {pins}")
    for name, pin in pins.items():
        if not 0 <= pin <= 27:
            raise ConfigError(f"{source}: [buttons] {name} = {pin} is not a BCM GPIO pin (0-27)")
    rules = cfg.rules
    if rules.halfling_run_away not in ("penalty", "reroll"):
        raise ConfigError(f"{source}: [rules] halfling_run_away must be \"penalty\" (-1 to run away, the base-set "
                          f"card) or \"reroll\" (the later printing), got {rules.halfling_run_away!r}")
    if rules.level_floor != 1:
        raise ConfigError(f"{source}: [rules] level_floor must be 1: every official text keeps a level at 1 or "
                          f"more (only combat strength goes negative)")
    if not 2 <= rules.winning_level <= 99 or not 1 <= rules.starting_hand <= 10 or rules.hand_limit < 1:
        raise ConfigError(f"{source}: [rules] winning_level must be 2-99, starting_hand 1-10, hand_limit 1 or more")
    if rules.interference_seconds < 0:
        raise ConfigError(f"{source}: [rules] interference_seconds cannot be negative")
    if not 2 <= cfg.rules.min_players <= cfg.rules.max_players <= 6:
        raise ConfigError(f"{source}: [rules] players must satisfy 2 <= min_players <= max_players <= 6")


def _check_web(web: WebConfig, source: str) -> None:
    import ipaddress
    import re

    try:
        ipaddress.ip_address(web.bind)
    except ValueError:
        raise ConfigError(f"{source}: [web] bind must be an IP address such as \"0.0.0.0\" (every network), "
                          f"\"::\" or \"127.0.0.1\", got {web.bind!r}") from None
    if not 0 <= web.port <= 65535:
        raise ConfigError(f"{source}: [web] port must be 1-65535 (0: any free port), got {web.port}")
    if web.key and not re.fullmatch(r"[A-Za-z0-9_-]{8,128}", web.key):
        raise ConfigError(f"{source}: [web] key must be 8-128 letters, digits, '-' or '_' (it goes in a URL), "
                          f"or empty for a random one")


def load_config(path: Path | None) -> Config:
    """The config at ``path``; without one, /etc/munchkin-table/config.toml if present, else defaults."""
    if path is None:
        if not SYSTEM_CONFIG.exists():
            return Config()
        path = SYSTEM_CONFIG
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    return parse_config(data, str(path))
