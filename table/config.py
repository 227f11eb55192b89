"""The TOML config (design §4): every key optional, unknown keys an error that names them."""

from __future__ import annotations

import dataclasses
import math
import os
import re
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from cards.loader import set_files
from cards.names import LANGUAGES as TRANSLATED
from cards.textfile import TextFileError, read_text
from drivers.events import DEFAULT_BUTTON_PINS
from drivers.seats import ReaderSpec
from engine.errors import MunchkinError
from engine.rules import Ruleset
from engine.state import PLAYER_TOKENS

# The installed box's config; the tests point it elsewhere, so a box's own config cannot leak into them.
SYSTEM_CONFIG = Path(os.environ.get("MUNCHKIN_SYSTEM_CONFIG") or "/etc/munchkin-table/config.toml")
LANGUAGES = ("en", *TRANSLATED)    # English, and the languages the catalogs and card names come in


class ConfigError(MunchkinError, ValueError):
    """The config file is missing, unreadable or says something we cannot use."""

    def __init__(self, message: str, *, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems if problems is not None else [message]


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
    roll: int = DEFAULT_BUTTON_PINS["roll"]
    help: int = DEFAULT_BUTTON_PINS["help"]
    run: int = DEFAULT_BUTTON_PINS["run"]
    next: int = DEFAULT_BUTTON_PINS["next"]
    undo: int = DEFAULT_BUTTON_PINS["undo"]
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
    # where frames go (table/ui/fbdev.py): sdl (SDL's choice) | fbdev (the framebuffer, no GL) | auto
    output: str = "sdl"
    framebuffer: str = "/dev/fb0"


@dataclass
class VoiceConfig:
    enabled: bool = False       # announcements spoken through espeak-ng (turns, fights, levels, deaths, the winner)
    volume: float = 0.8         # 0 (mute) to 1
    rate: int = 150             # words a minute (espeak-ng's -s)


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
    url: str = ""               # the address phones open, when not this box's own (a DNS name, a forwarded port)
    proxy: str = ""             # the reverse proxy in front, whose X-Forwarded-For is believed; empty: none


# ---- [league] (issue 25): this box publishes to a league's MQTT broker; off while broker is empty.
LEAGUE_NAME = r"[A-Za-z0-9_-]{1,40}"        # one MQTT topic level: no '/', '+', '#' or spaces
LEAGUE_BROKER = r"(mqtts?)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?/?"


@dataclass
class LeagueConfig:
    broker: str = ""            # mqtt://host:1883 or mqtts://host:8883; empty: no league
    league: str = ""            # the league's name: munchkin/<league>/...
    table: str = ""             # this box's name in the league
    username: str = ""
    password: str = ""
    cert: str = ""              # a client certificate (PEM) instead of, or beside, a password
    key: str = ""               # its private key (PEM)
    ca: str = ""                # the CA that signed the broker's certificate; empty: the system's
    state_per_second: float = 4.0   # the state topic at most this often (latest wins)

    @property
    def enabled(self) -> bool:
        return bool(self.broker)


def _check_league(league: LeagueConfig, problems: list[str]) -> None:
    if not league.broker:
        return
    if not re.fullmatch(LEAGUE_BROKER, league.broker):
        problems.append(f"[league] broker must be an address such as \"mqtt://broker.lan:1883\" or "
                        f"\"mqtts://broker.lan:8883\", got {league.broker!r}")
    for key in ("league", "table"):
        value = getattr(league, key)
        if not re.fullmatch(LEAGUE_NAME, value):
            problems.append(f"[league] {key} must be 1-40 letters, digits, '-' or '_' (it is part of every topic), "
                            f"got {value!r}")
    if bool(league.cert) != bool(league.key):
        problems.append("[league] cert and key go together: give both files, or neither")
    if league.cert and league.broker.startswith("mqtt://"):
        problems.append("[league] a client certificate needs TLS: use an mqtts:// broker")
    if league.password and not league.username:
        problems.append("[league] password without username: give the username the broker knows this table by")
# ---- end of [league]


@dataclass
class PlayerConfig:
    name: str = ""
    sex: str = "male"


SECTIONS: dict[str, type] = {
    "reader": ReaderConfig, "buttons": ButtonsConfig, "feedback": FeedbackConfig,
    "storage": StorageConfig, "display": DisplayConfig, "table": TableConfig,
    "cards": CardsConfig, "web": WebConfig,
    "league": LeagueConfig, "voice": VoiceConfig,
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
    league: LeagueConfig = field(default_factory=LeagueConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    rules: Ruleset = field(default_factory=Ruleset)
    players: dict[str, PlayerConfig] = field(default_factory=dict)
    source: str = "(defaults)"
    readers: list[SeatedReaderConfig] = field(default_factory=list)    # [[reader]] entries; empty: [reader]

    @property
    def state_dir(self) -> Path:
        return Path(self.storage.state_dir).expanduser() if self.storage.state_dir else default_state_dir()

    def card_set_files(self) -> list[Path]:
        """Every card set file to load: cards/data/*.toml plus the [cards] sets."""
        base = Path(self.source).parent if self.source not in ("(defaults)", "(text)") else None
        return set_files(self.cards.set_paths(base))

    def reader_type(self, *, sim: bool) -> str:
        if sim:
            return "sim"
        return self.reader.type or ("mfrc522" if is_raspberry_pi() else "sim")

    def reader_specs(self, *, sim: bool) -> list[ReaderSpec]:
        """Every reader: the ``[[reader]]`` entries (simulated pads at their seats with ``sim``), else the one
        ``[reader]`` as the shared pad, named "pad" as it always was."""
        if not self.readers:
            r = self.reader
            return [ReaderSpec(self.reader_type(sim=sim), None, r.spi_bus, r.spi_device, r.reset_pin, r.port,
                               r.baudrate, name="pad")]
        specs = [entry.spec(sim=sim, default=self.reader_type(sim=sim) if not entry.type else "")
                 for entry in self.readers]
        shared = [i for i, spec in enumerate(specs) if spec.seat is None]
        for n, i in enumerate(shared[1:], 2):          # two shared pads: table, table-2, ...
            specs[i] = dataclasses.replace(specs[i], name=f"table-{n}")
        return specs


# Numbers a section may hold: section -> key -> (lowest, highest), both included. A new section
# adds its own entry; every int or float key is also checked to be finite.
RANGES: dict[str, dict[str, tuple[float, float]]] = {
    "reader": {"spi_bus": (0, 6), "spi_device": (0, 3), "reset_pin": (0, 27), "baudrate": (1200, 4_000_000)},
    "buttons": {"roll": (0, 27), "help": (0, 27), "run": (0, 27), "next": (0, 27), "undo": (0, 27),
                "bounce_ms": (0, 1000), "hold_seconds": (0.1, 60)},
    "feedback": {"buzzer": (0, 27), "led": (0, 27)},
    "display": {"width": (160, 7680), "height": (120, 4320)},
    "table": {"token_seconds": (0, 600)},
    "web": {"port": (0, 65535)},
    "league": {"state_per_second": (0.1, 50)},
    "voice": {"volume": (0, 1), "rate": (80, 450)},
    "rules": {"starting_hand": (1, 10), "winning_level": (2, 99), "min_players": (2, 6), "max_players": (2, 6),
              "hand_limit": (1, 99), "interference_seconds": (0, 60), "level_floor": (1, 1)},
}
CHOICES: dict[str, dict[str, tuple[str, ...]]] = {
    "reader": {"type": ("", "mfrc522", "pn532", "sim")},
    "display": {"fullscreen": ("auto", "yes", "no"), "language": LANGUAGES, "output": ("sdl", "fbdev", "auto")},
    "rules": {"halfling_run_away": ("penalty", "reroll")},
}
HINTS = {
    ("rules", "halfling_run_away"): "\"penalty\" (-1 to run away, the base-set card) or \"reroll\" (the later printing)",
    ("rules", "level_floor"): "1: every official text keeps a level at 1 or more (only combat strength goes negative)",
    ("rules", "interference_seconds"): "0-60 seconds (0 turns the window off)",
    ("web", "port"): "1-65535 (0: any free port)",
}
MAX_NAME = 40


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


TYPE_WORDS = {bool: "true or false", int: "a whole number", float: "a number", str: "text in quotes",
              list: "a list like [\"a\", \"b\"]"}


def _type_words(ok: tuple[type, ...]) -> str:
    if ok == (int, float):
        return "a number"
    return " or ".join(TYPE_WORDS.get(t, t.__name__) for t in ok)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "…"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _number_problem(where: str, key: str, value: Any) -> str | None:
    """Why the number ``value`` of [where] key is not allowed, or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    span = RANGES.get(where.split(".")[0], {}).get(key)
    if isinstance(value, float) and not math.isfinite(value):
        allowed = f"{_num(span[0])}-{_num(span[1])}" if span else "a finite number"
        return f"[{where}] {key} = {value} is not a number we can use; give {allowed}"
    if span is not None and not span[0] <= value <= span[1]:
        hint = HINTS.get((where, key)) or ("a BCM GPIO pin (0-27)" if span == (0, 27) else f"{_num(span[0])}-{_num(span[1])}")
        return f"[{where}] {key} = {_shown(value)} is out of range: it must be {hint}"
    return None


def _home_of(key: str) -> str | None:
    """The section that has a key of this name, if exactly one does."""
    homes = [name for name, cls in {**SECTIONS, "rules": Ruleset}.items() if key in {f.name for f in fields(cls)}]
    return homes[0] if len(homes) == 1 else None


def _section(cls: type, data: Any, where: str, problems: list[str]) -> Any:
    """The section's dataclass from ``data``; every problem is appended, the bad keys keep their defaults."""
    if not isinstance(data, dict):
        problems.append(f"[{where}] must be a table (a [{where}] header and key = value lines), got {_shown(data)}")
        return cls()
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        elsewhere = [f"{key} belongs in [{_home_of(key)}]" for key in unknown if _home_of(key)]
        problems.append(f"unknown key(s) in [{where}]: {', '.join(unknown)}; known keys: {', '.join(known)}"
                        + (f" ({'; '.join(elsewhere)})" if elsewhere else ""))
    defaults = cls()
    good: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known:
            continue
        default = getattr(defaults, key)
        ok = _expected_type(default)
        if cls is FeedbackConfig:
            ok = (int, bool)
        if not isinstance(value, ok) or (isinstance(value, bool) and bool not in ok):
            words = "a BCM pin (0-27) or false" if cls is FeedbackConfig else _type_words(ok)
            problems.append(f"[{where}] {key} must be {words}, got {_shown(value)}")
            continue
        if cls is FeedbackConfig and value is True:
            problems.append(f"[{where}] {key} must be a BCM pin (0-27) or false, got true")
            continue
        problem = _number_problem(where, key, value)
        choices = CHOICES.get(where, {}).get(key)
        if problem is None and choices is not None and value not in choices:
            hint = HINTS.get((where, key)) or " or ".join(f"\"{c}\"" for c in choices if c)
            problem = f"[{where}] {key} must be {hint}, got {_shown(value)}"
        if problem is None and isinstance(value, str) and "\x00" in value:
            problem = f"[{where}] {key} has a NUL character in it"
        if problem is None and isinstance(value, list) and not all(isinstance(v, str) and v and "\x00" not in v
                                                                   for v in value):
            problem = f"[{where}] {key} must be a list of file paths, like [\"extra/my-set.toml\"]"
        if problem is not None:
            problems.append(problem)
            continue
        good[key] = value
    return cls(**good)


def check_rules(data: Any, where: str = "rules") -> tuple[Ruleset, list[str]]:
    """The Ruleset of a ``[rules]``-like table and every problem with it (bad keys keep their defaults)."""
    problems: list[str] = []
    rules = _section(Ruleset, data, where, problems)
    if not problems and rules.min_players > rules.max_players:
        problems.append(f"[{where}] min_players = {rules.min_players} is more than max_players = "
                        f"{rules.max_players}; players must satisfy 2 <= min_players <= max_players <= 6")
    return rules, problems


def check_player(token: str, entry: Any) -> tuple[PlayerConfig, list[str]]:
    """A ``[players.player-N]`` table and every problem with it."""
    if token not in PLAYER_TOKENS:
        return PlayerConfig(), [f"[players.{token}]: players are named player-1 … player-6"]
    problems: list[str] = []
    player = _section(PlayerConfig, entry, f"players.{token}", problems)
    if player.sex not in ("male", "female"):
        problems.append(f"[players.{token}] sex must be \"male\" or \"female\", got {_shown(player.sex)}")
    if len(player.name) > MAX_NAME or not player.name.isprintable():
        problems.append(f"[players.{token}] name must be at most {MAX_NAME} printable characters on one line, "
                        f"got {_shown(player.name)}")
    return player, problems


def parse_config(data: dict[str, Any], source: str = "(text)") -> Config:
    """The Config for the parsed TOML ``data``; raises one ConfigError that names every problem."""
    problems: list[str] = []
    top = set(SECTIONS) | {"rules", "players"}
    unknown = sorted(set(data) - top)
    loose = [name for name in unknown if not isinstance(data[name], dict)]
    for name in loose:                  # key = value above every [section]
        home = _home_of(name)
        problems.append(f"{name} = {_shown(data[name])} is outside any section; "
                        + (f"put it under [{home}]" if home else f"sections are {', '.join(sorted(top))}"))
    unknown = [name for name in unknown if name not in loose]
    if unknown:
        problems.append(f"unknown section(s) {', '.join(f'[{u}]' for u in unknown)}; known: "
                        f"{', '.join(sorted(top))}")
    readers: list[SeatedReaderConfig] = []
    if isinstance(data.get("reader"), list):            # [[reader]] entries, one per pad
        readers = check_readers(data["reader"], problems)
        data = {k: v for k, v in data.items() if k != "reader"}
    parts = {name: _section(cls, data.get(name, {}), name, problems) for name, cls in SECTIONS.items()}
    rules = _section(Ruleset, data["rules"], "rules", problems) if "rules" in data else Ruleset()
    players: dict[str, PlayerConfig] = {}
    raw_players = data.get("players", {})
    if not isinstance(raw_players, dict):
        problems.append("[players] must hold tables like [players.player-1] with name and sex")
        raw_players = {}
    for token, entry in raw_players.items():
        player, wrong = check_player(token, entry)
        problems += wrong
        if not wrong:
            players[token] = player
    cfg = Config(**parts, rules=rules, players=players, source=source, readers=readers)
    _check(cfg, data, problems)
    if readers:
        _check_reader_pins(cfg, problems)
    if problems:
        raise ConfigError("\n".join(f"{source}: {p}" for p in problems), problems=problems)
    return cfg


def _check(cfg: Config, data: dict[str, Any], problems: list[str]) -> None:
    """The checks across keys; only keys that were fine on their own are compared."""
    _check_web(cfg.web, problems)
    _check_league(cfg.league, problems)
    pins = cfg.buttons.pins()
    if len(set(pins.values())) != len(pins):
        shared: dict[int, list[str]] = {}
        for name, pin in pins.items():
            shared.setdefault(pin, []).append(name)
        clash = "; ".join(f"{' and '.join(names)} on BCM {pin}" for pin, names in shared.items() if len(names) > 1)
        problems.append(f"[buttons] two buttons share a pin: {clash}")
    for name in ("buzzer", "led"):
        wired = cfg.feedback.pin(name)
        taken = [button for button, used in pins.items() if used == wired]
        if wired is not None and taken:
            problems.append(f"[feedback] {name} = {wired} is the pin of the {taken[0]} button; give it a pin of its own")
    rules = cfg.rules
    if rules.min_players > rules.max_players:
        problems.append(f"[rules] min_players = {rules.min_players} is more than max_players = {rules.max_players}; "
                        f"players must satisfy 2 <= min_players <= max_players <= 6")


def _check_web(web: WebConfig, problems: list[str]) -> None:
    import ipaddress

    try:
        ipaddress.ip_address(web.bind)
    except ValueError:
        problems.append(f"[web] bind must be an IP address such as \"0.0.0.0\" (every network), "
                        f"\"::\" or \"127.0.0.1\", got {web.bind!r}")
    if web.key and not re.fullmatch(r"[A-Za-z0-9_-]{16,128}", web.key):
        problems.append("[web] key must be 16-128 letters, digits, '-' or '_' (it goes in a URL, and a shorter "
                        "one can be guessed), or empty for a random one")
    if web.url and not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", web.url):
        problems.append(f"[web] url must be an address such as \"http://munchkin.lan:8080/\" (no key, no query), "
                        f"or empty for this box's own, got {web.url!r}")
    if web.proxy and not _addresses(web.proxy):
        problems.append(f"[web] proxy must be the reverse proxy's IP address (or several, or networks, comma-separated, "
                        f"such as \"192.168.1.2\" or \"10.0.0.0/24, ::1\"), or empty to believe no X-Forwarded-For, "
                        f"got {web.proxy!r}")


def _addresses(text: str) -> bool:
    """Whether the text is a comma-separated list of IP addresses or networks (no '*': that is everyone)."""
    import ipaddress

    try:
        for item in text.split(","):
            ipaddress.ip_network(item.strip(), strict=False)
    except ValueError:
        return False
    return True


# ------------------------------------------------------------------ [[reader]]: a pad at every seat

# The pins an SPI bus takes on the 40-pin header (BCM): SCLK, MOSI, MISO, then CE0, CE1, CE2. SPI3-SPI6
# are the Pi 4's and Pi 5's extra buses (dtoverlay=spi3-1cs ...), with the pins of their overlays.
SPI_PINS = {0: (11, 10, 9), 1: (21, 20, 19), 3: (3, 2, 1), 4: (7, 6, 5), 5: (15, 14, 13), 6: (21, 20, 19)}
SPI_CE_PINS = {0: (8, 7), 1: (18, 17, 16), 3: (0, 24), 4: (4, 25), 5: (12, 26), 6: (18, 27)}
SEAT_WORDS = "a seat number 1-6, or \"table\" for a shared pad"


@dataclass
class SeatedReaderConfig(ReaderConfig):
    """One ``[[reader]]`` entry: a reader as ``[reader]`` has it, and the seat whose pad it is."""

    seat: int | None = None     # 1-6; None: "table", the shared pad

    def spec(self, *, sim: bool, default: str) -> ReaderSpec:
        kind = "sim" if sim else (self.type or default)
        return ReaderSpec(kind, self.seat, self.spi_bus, self.spi_device, self.reset_pin, self.port, self.baudrate)


def _seat(value: Any, n: int, problems: list[str]) -> int | None:
    if value == "table":
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6:
        return value
    problems.append(f"[[reader]] {n} seat must be {SEAT_WORDS}, got {_shown(value)}")
    return None


def check_readers(entries: list[Any], problems: list[str]) -> list[SeatedReaderConfig]:
    """The ``[[reader]]`` entries; each problem names the entry (``[[reader]] 2``) and what is wrong."""
    readers: list[SeatedReaderConfig] = []
    if len(entries) > 8:
        problems.append(f"[[reader]]: {len(entries)} readers; a table has at most 6 seats and a shared pad or two")
    for n, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            problems.append(f"[[reader]] {n} must be a table of keys (type, spi_bus, ..., seat), got {_shown(entry)}")
            continue
        if "seat" not in entry:
            problems.append(f"[[reader]] {n} has no seat: give each pad {SEAT_WORDS}")
        seat = _seat(entry.get("seat", "table"), n, problems)
        keys = {k: v for k, v in entry.items() if k != "seat"}
        wrong: list[str] = []
        reader = _section(ReaderConfig, keys, "reader", wrong)
        problems += [p.replace("[reader]", f"[[reader]] {n}").replace("known keys: ", "known keys: seat, ") for p in wrong]
        readers.append(SeatedReaderConfig(**{f.name: getattr(reader, f.name) for f in fields(ReaderConfig)}, seat=seat))
    _check_reader_clashes(readers, problems)
    return readers


def _clashes(readers: list[SeatedReaderConfig], key: Any) -> dict[Any, list[int]]:
    """Entry numbers (from 1) grouped by ``key(entry)``, only the groups of two or more."""
    groups: dict[Any, list[int]] = {}
    for n, reader in enumerate(readers, 1):
        k = key(reader)
        if k is not None:
            groups.setdefault(k, []).append(n)
    return {k: ns for k, ns in groups.items() if len(ns) > 1}


def _entries(ns: list[int]) -> str:
    return " and ".join(f"[[reader]] {n}" for n in ns)


def _check_reader_clashes(readers: list[SeatedReaderConfig], problems: list[str]) -> None:
    """Two pads for one seat, two chips on one chip select or reset line, two PN532s on one port."""
    for seat, ns in _clashes(readers, lambda r: r.seat).items():
        problems.append(f"{_entries(ns)} are both for seat {seat}: each seat has one pad")
    for (bus, device), ns in _clashes(readers, lambda r: (r.spi_bus, r.spi_device) if r.type in ("", "mfrc522") else None).items():
        problems.append(f"{_entries(ns)} are both on SPI{bus} CE{device}: each MFRC522 needs its own chip select")
    for pin, ns in _clashes(readers, lambda r: r.reset_pin if r.type in ("", "mfrc522") else None).items():
        problems.append(f"{_entries(ns)} share the reset pin BCM {pin}: give each MFRC522 its own reset line "
                        f"(one reader reconnecting would reset the others)")
    for port, ns in _clashes(readers, lambda r: r.port if r.type == "pn532" else None).items():
        problems.append(f"{_entries(ns)} are both on {port}: each PN532 needs its own serial port")
    for n, reader in enumerate(readers, 1):
        ces = SPI_CE_PINS.get(reader.spi_bus)
        if reader.type in ("", "mfrc522") and ces is not None and reader.spi_device >= len(ces):
            problems.append(f"[[reader]] {n}: SPI{reader.spi_bus} has chip selects CE0-CE{len(ces) - 1}, "
                            f"not CE{reader.spi_device}")


def _check_reader_pins(cfg: Config, problems: list[str]) -> None:
    """A reset line or an SPI bus's pins on a button's or the buzzer's or LED's pin (SPI1 takes BCM 19,
    the NEXT button's default, and its CE2 is BCM 16, the LED's)."""
    taken: dict[int, str] = {pin: f"the {name} button" for name, pin in cfg.buttons.pins().items()}
    for name in ("buzzer", "led"):
        wired = cfg.feedback.pin(name)
        if wired is not None:
            taken.setdefault(wired, f"the {name}")
    spi_users: dict[int, str] = {}
    chips = [(n, r) for n, r in enumerate(cfg.readers, 1) if r.type in ("", "mfrc522")]
    for _, reader in chips:
        ces = SPI_CE_PINS.get(reader.spi_bus, ())
        for pin in (*SPI_PINS.get(reader.spi_bus, ()), *ces[reader.spi_device:reader.spi_device + 1]):
            spi_users.setdefault(pin, f"SPI{reader.spi_bus}")
    for n, reader in chips:
        owner = taken.get(reader.reset_pin) or (f"{spi_users[reader.reset_pin]}" if reader.reset_pin in spi_users else None)
        if owner is not None:
            problems.append(f"[[reader]] {n}: reset_pin = {reader.reset_pin} is a pin of {owner}")
    for pin, bus in sorted(spi_users.items()):
        if pin in taken:
            problems.append(f"{bus} uses BCM {pin}, the pin of {taken[pin]}: move it in the config "
                            f"(docs/wiring.md has a layout for six pads)")


def load_config(path: Path | None) -> Config:
    """The config at ``path``; without one, /etc/munchkin-table/config.toml if present, else defaults."""
    if path is None:
        if not SYSTEM_CONFIG.exists():
            return Config()
        path = SYSTEM_CONFIG

    try:
        text = read_text(path, what="config", limit=1024 * 1024)
    except TextFileError as exc:
        raise ConfigError(str(exc)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", str(exc))
        where, why = (f"{path}:{found.group(2)}", f"{found.group(1)} (column {found.group(3)})") if found else (str(path), str(exc))
        raise ConfigError(f"{where}: not valid TOML: {why}; see systemd/config.example.toml") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid TOML: arrays or tables nested too deeply; "
                          f"see systemd/config.example.toml") from None
    return parse_config(data, str(path))
