"""What every command shares: its config (``--config``), and argparse's pieces for a command line.

The command line's own words are in the user's language (``_`` of table/words/user.py).
"""

from __future__ import annotations

import argparse
import difflib
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn, TypeAlias

from cards.textfile import TextFileError
from table.cli.errors import os_reason
from table.config import Config, ConfigError, load_config
from table.words.user import _

# argparse's refusal of a value outside ``choices`` (a mistyped command, or a word such as 'validat').
INVALID_CHOICE = re.compile(r"argument (?P<argument>[^:]+): invalid choice: (?P<value>.*?) \(choose from (?P<choices>.*)\)$")


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    """``; did you mean 'x'?`` for the choice closest to ``word`` (as the script errors say), else ``""``."""
    close = difflib.get_close_matches(word.lower(), list(choices), n=1, cutoff=0.6)
    return "; " + _("did you mean {choice}?").format(choice=repr(close[0])) if close else ""


def _unquoted(text: str) -> str:
    return text.strip().strip("'\"")


class Parser(argparse.ArgumentParser):
    """argparse with a one-line answer to a bad command line (usage errors exit 2), which names the
    closest command or word to one mistyped."""

    def error(self, message: str) -> NoReturn:
        found = INVALID_CHOICE.match(message)
        if found:
            value = _unquoted(found.group("value"))
            choices = [_unquoted(c) for c in found.group("choices").split(",")]
            if found.group("argument").lower() == "command":
                message = _("unknown command {command}").format(command=repr(value))
            else:
                message = _("{argument}: unknown choice {value}").format(argument=found.group("argument"),
                                                                          value=repr(value))
            message += did_you_mean(value, choices) or "; " + _("the choices are {choices}").format(
                choices=", ".join(choices))
        see = _("see '{command} --help'").format(command=self.prog)
        self.exit(2, f"{self.prog}: {message}" + (f" ({see})\n" if message.endswith(("?", "？")) else f"; {see}\n"))


# What ``Parser.add_subparsers`` returns (argparse's _SubParsersAction, which is private).
Subparsers: TypeAlias = "argparse._SubParsersAction[Parser]"


def config_of(args: argparse.Namespace) -> Config:
    """The config the command line names (``--config FILE``), else the default one."""

    path = Path(args.config) if args.config else None
    try:
        config = load_config(path)
    except ConfigError as exc:
        unreadable = _os_error_under(exc)
        if unreadable is None:
            raise
        raise ConfigError(_("cannot read config {path}: {reason}").format(path=path, reason=os_reason(unreadable))) from exc
    state_dir = config.state_dir
    if state_dir.exists() and not state_dir.is_dir():
        raise ConfigError(f"{config.source}: [storage] state_dir = {str(state_dir)!r} is a file, not a folder; "
                          f"name a folder (it is made when missing)")
    return config


def _os_error_under(exc: ConfigError) -> OSError | None:
    """The file-system failure under a config that could not be read (ConfigError, from the
    TextFileError of cards/textfile.py, from the OSError), if that is what ``exc`` is."""
    text_error = exc.__cause__ or exc.__context__
    if not isinstance(text_error, TextFileError):
        return None
    os_error = text_error.__cause__ or text_error.__context__
    return os_error if isinstance(os_error, OSError) else None


def with_config(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``p`` with the ``--config FILE`` option every command takes."""
    p.add_argument("--config", metavar="FILE", help=_("config file (default /etc/munchkin-table/config.toml if present)"))
    return p


def whole_number(lowest: int, highest: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``lowest`` to ``highest``; anything else is a usage error."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(_("{text} is not a whole number").format(text=repr(text))) from None
        if not lowest <= value <= highest:
            raise argparse.ArgumentTypeError(_("{value} is not from {lowest} to {highest}").format(
                value=value, lowest=lowest, highest=highest))
        return value

    return parse
