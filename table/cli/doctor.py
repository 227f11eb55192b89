"""``munchkin-table doctor``: the config, the catalog, the devices (checks.py), the saved games and
the web view, each with what to fix."""

from __future__ import annotations

import argparse

from cards.loader import validate_files
from drivers.doctor import Check
from table.cli.checks import display_checks, hardware_checks
from table.cli.common import Subparsers, config_of, with_config
from table.config import ConfigError
from table.storage.doctor import check_journal
from table.storage.paths import JOURNAL_FILE
from table.ui.screen import wants_fullscreen
from table.ui.voice import voice_check
from table.web.checks import web_check
from table.words.user import _


def cmd_doctor(args: argparse.Namespace) -> int:
    """Check the config, the catalog, the devices and the state directory; say what to fix."""
    import warnings

    warnings.filterwarnings("ignore", module="gpiozero")   # its pin-factory fallbacks are reported below
    failures = 0
    try:
        config = config_of(args)
        print(f"[ok] config: {config.source}")
    except ConfigError as exc:
        print(f"[FAIL] config: {exc}\n       fix: correct the file, or start from systemd/config.example.toml")
        return 1
    _, problems = validate_files(config.card_set_files())
    if problems:
        failures += 1
        print(f"[FAIL] catalog: {len(problems)} problem(s), first: {problems[0]}")
    else:
        print("[ok] catalog: the card data is valid")

    checks = hardware_checks(config)
    checks += display_checks(config, needs_drm=wants_fullscreen(config))
    checks.append(Check("saved games", *check_journal(config.state_dir / JOURNAL_FILE)))
    checks.append(web_check(config))
    checks.append(voice_check(config.voice, config.display.language))
    if config.league.enabled:
        from table.league.doctor import league_check     # paho-mqtt is loaded only when [league] names a broker

        checks.append(league_check(config))
    for check in checks:
        print(check)
        failures += not check.ok
    print("all checks passed" if not failures else f"{failures} check(s) failed")
    return 0 if not failures else 1


def add_doctor(sub: Subparsers) -> None:
    p = with_config(sub.add_parser("doctor", help=_("check config, devices and permissions, and say what to fix")))
    p.set_defaults(func=cmd_doctor)
