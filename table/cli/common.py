"""What every command shares: its config (``--config``), and argparse's pieces for a command line."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn, TypeAlias

from table.config import Config, ConfigError, load_config


class Parser(argparse.ArgumentParser):
    """argparse with a one-line answer to a bad command line (usage errors exit 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}; see '{self.prog} --help'\n")


# What ``Parser.add_subparsers`` returns (argparse's _SubParsersAction, which is private).
Subparsers: TypeAlias = "argparse._SubParsersAction[Parser]"


def config_of(args: argparse.Namespace) -> Config:
    """The config the command line names (``--config FILE``), else the default one."""

    config = load_config(Path(args.config) if args.config else None)
    state_dir = config.state_dir
    if state_dir.exists() and not state_dir.is_dir():
        raise ConfigError(f"{config.source}: [storage] state_dir = {str(state_dir)!r} is a file, not a folder; "
                          f"name a folder (it is made when missing)")
    return config


def with_config(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``p`` with the ``--config FILE`` option every command takes."""
    p.add_argument("--config", metavar="FILE", help="config file (default /etc/munchkin-table/config.toml if present)")
    return p


def whole_number(lowest: int, highest: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``lowest`` to ``highest``; anything else is a usage error."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not lowest <= value <= highest:
            raise argparse.ArgumentTypeError(f"{value} is not from {lowest} to {highest}")
        return value

    return parse
