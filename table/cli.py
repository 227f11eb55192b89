"""The command line (design §4): run, simulate, state, cards, tags, enroll, doctor."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from engine.errors import MunchkinError


def _config(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from table.config import load_config

    return load_config(Path(args.config) if args.config else None)


def cmd_run(args: argparse.Namespace) -> int:
    from table.app import run

    return run(_config(args), sim=args.sim)


def cmd_simulate(args: argparse.Namespace) -> int:
    from table.simulate import simulate

    return simulate(Path(args.script), _config(args), screenshots=Path(args.screenshot) if args.screenshot else None)


def cmd_state(args: argparse.Namespace) -> int:
    from drivers.base import SystemClock
    from engine.serialize import state_to_json
    from table.wiring import build_table

    config = _config(args)
    table = build_table(config, SystemClock())
    print(json.dumps(state_to_json(table.controller.state, table.catalog), indent=2, ensure_ascii=False))
    table.journal.close()
    return 0


def cmd_cards(args: argparse.Namespace) -> int:
    from cards.loader import BASE_SET, load_catalog, validate_files

    if args.action == "validate":
        paths = [Path(p) for p in args.paths] or [BASE_SET]
        cards, problems = validate_files(paths)
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            return 1
        print(f"ok: {len(cards)} cards, {sum(c.copies for c in cards)} copies in {len(paths)} file(s)")
        return 0
    if args.action is not None:
        print(f"munchkin-table cards: unknown action {args.action!r}; try 'validate'", file=sys.stderr)
        return 2
    catalog = load_catalog()
    if args.json:
        print(json.dumps([{"id": c.id, "name": c.name, "kind": c.kind.value, "deck": c.deck, "copies": c.copies,
                           "level": c.level, "bonus": c.bonus, "gold": c.gold,
                           "slot": c.slot.value if c.slot else None} for c in catalog.values()],
                         indent=2, ensure_ascii=False))
    else:
        for c in catalog.values():
            print(f"{c.id:40} {c.kind.value:18} x{c.copies}  {c.name}")
    return 0


def cmd_tags(args: argparse.Namespace) -> int:
    from cards.tags import TagRegistry
    from table.wiring import TAGS_FILE

    config = _config(args)
    registry = TagRegistry(config.state_dir / TAGS_FILE)
    if args.action == "export":
        sys.stdout.write(registry.to_csv())
        return 0
    print("munchkin-table tags: expected 'import FILE.csv' or 'export'", file=sys.stderr)
    return 2


def cmd_doctor(args: argparse.Namespace) -> int:
    """Check the config, the catalog, the devices and the state directory; say what to fix."""
    from cards.loader import BASE_SET, validate_files
    from drivers.doctor import run_checks
    from table.config import ConfigError

    import warnings

    warnings.filterwarnings("ignore", module="gpiozero")   # its pin-factory fallbacks are reported below
    failures = 0
    try:
        config = _config(args)
        print(f"[ok] config: {config.source}")
    except ConfigError as exc:
        print(f"[FAIL] config: {exc}\n       fix: correct the file, or start from systemd/config.example.toml")
        return 1
    _, problems = validate_files([BASE_SET])
    if problems:
        failures += 1
        print(f"[FAIL] catalog: {len(problems)} problem(s), first: {problems[0]}")
    else:
        print("[ok] catalog: the card data is valid")
    reader_type = config.reader_type(sim=False)
    checks = run_checks(reader_type, spi_bus=config.reader.spi_bus, spi_device=config.reader.spi_device,
                        reset_pin=config.reader.reset_pin, port=config.reader.port, baudrate=config.reader.baudrate,
                        button_pins=config.buttons.pins(), state_dir=config.state_dir)
    for check in checks:
        print(check)
        failures += not check.ok
    print("all checks passed" if not failures else f"{failures} check(s) failed")
    return 0 if not failures else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="munchkin-table", description="The Munchkin bookkeeping table.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug detail")
    sub = parser.add_subparsers(dest="command", required=True)

    def with_config(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--config", metavar="FILE", help="config file (default /etc/munchkin-table/config.toml if present)")
        return p

    p = with_config(sub.add_parser("run", help="run the table"))
    p.add_argument("--sim", action="store_true", help="simulated reader and buttons (keyboard)")
    p.set_defaults(func=cmd_run)
    p = with_config(sub.add_parser("simulate", help="run a table script headless and print the state JSON"))
    p.add_argument("script", metavar="SCRIPT")
    p.add_argument("--screenshot", metavar="DIR", help="save a PNG of the screen after each action")
    p.set_defaults(func=cmd_simulate)
    p = with_config(sub.add_parser("state", help="print the state JSON of the current game"))
    p.set_defaults(func=cmd_state)
    p = sub.add_parser("cards", help="list the catalog, or 'cards validate [PATH...]'")
    p.add_argument("action", nargs="?", choices=["validate"])
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_cards)
    p = with_config(sub.add_parser("tags", help="'tags import FILE.csv' or 'tags export'"))
    p.add_argument("action", choices=["import", "export"])
    p.add_argument("file", nargs="?")
    p.set_defaults(func=cmd_tags)
    p = with_config(sub.add_parser("doctor", help="check config, devices and permissions, and say what to fix"))
    p.set_defaults(func=cmd_doctor)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    quiet = args.command in ("simulate", "state", "cards", "tags", "doctor")
    logging.basicConfig(level=logging.DEBUG if args.verbose else (logging.ERROR if quiet else logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    try:
        return int(args.func(args) or 0)
    except MunchkinError as exc:
        print(f"munchkin-table: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
