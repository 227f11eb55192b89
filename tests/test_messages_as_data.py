"""Messages are data until the screen: no refusal, notice, prompt or message template is an f-string,
and every refusal the engine makes along a game names its values."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Calls whose text argument is a message template (or a message): (name, index of that argument).
MESSAGE_CALLS = {"refuse": None, "Refusal": 1, "msg": 0, "nmsg": 0, "say": 0, "Said": 0, "word": 0, "Prompt": 1,
                 "Message": 0, "JournalError": 0, "Damage": 0}
# f-string messages still waiting to become templates, by file: none now (the journal's damage reasons
# and the practice-game warning are templates). The test fails on any new one, and on one of these once
# it is gone, so this list only shrinks.
NOT_YET: dict[str, set[str]] = {}


def _f_string_messages(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if (name == "append" and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute)
                and func.value.attr == "warnings"):
            name, where = "warnings.append", 0         # state.warnings: words the screen and `state` show
        elif name in MESSAGE_CALLS:
            where = MESSAGE_CALLS[name]
        else:
            continue
        args = node.args
        for arg in args[:2] if where is None else args[where:where + 1]:
            if isinstance(arg, ast.JoinedStr) and any(isinstance(v, ast.FormattedValue) for v in arg.values):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}(f\"...\")")
    return found


def test_no_message_is_built_as_an_f_string() -> None:
    files = [p for d in ("engine", "table", "cards", "drivers") for p in sorted((ROOT / d).rglob("*.py"))]
    found = [line for path in files for line in _f_string_messages(path)]
    new = [line for line in found
           if line.split(" ")[1].split("(")[0] not in NOT_YET.get(line.split(":")[0], set())]
    assert not new, "write a template and its values instead:\n" + "\n".join(new)
    fixed = {(f, n) for f, names in NOT_YET.items() for n in names
             if not any(line.startswith(f + ":") and line.split(" ")[1].startswith(n + "(") for line in found)}
    assert not fixed, f"these are templates now: take them off NOT_YET: {sorted(fixed)}"


def test_the_check_sees_the_message_types_and_the_warnings(tmp_path: Path) -> None:
    bad = ROOT / "table" / "_probe_for_test.py"
    try:
        bad.write_text('def f(fault, state, exc):\n'
                       '    state.warnings.append(f"{fault} happened")\n'
                       '    x = Message(f"the game cannot be saved: {fault}", "refusal")\n'
                       '    y = Damage(f"unreadable: {exc}", 0, 0)\n'
                       '    raise JournalError(f"damaged ({exc})")\n', encoding="utf-8")
        assert _f_string_messages(bad) == ['table/_probe_for_test.py:2: warnings.append(f"...")',
                                           'table/_probe_for_test.py:3: Message(f"...")',
                                           'table/_probe_for_test.py:4: Damage(f"...")',
                                           'table/_probe_for_test.py:5: JournalError(f"...")']
    finally:
        bad.unlink()


def test_the_check_sees_an_f_string_refusal(tmp_path: Path) -> None:
    bad = ROOT / "engine" / "_probe_for_test.py"
    try:
        bad.write_text('def f(card):\n    raise refuse(RejectCode.ILLEGAL_PLAY, f"{card.name} is not equipped")\n',
                       encoding="utf-8")
        assert _f_string_messages(bad) == ["engine/_probe_for_test.py:2: refuse(f\"...\")"]
    finally:
        bad.unlink()


def test_every_refusal_along_a_game_is_a_template_with_its_values(tmp_path: Path) -> None:
    from drivers.base import ManualClock
    from drivers.sim import SimButtons, SimReader
    from engine.messages import Msg
    from table.config import parse_config
    from table.sim.script import parse_script
    from table.sim.harness import perform
    from table.control.assembly import build_table
    from tests.table.test_display_i18n import MIXED

    table = build_table(parse_config({}), ManualClock(), state_dir=tmp_path, seed_source=lambda: 1)
    ctl = table.controller
    reader, buttons = SimReader(table.events, clock=ctl.clock), SimButtons(table.events, clock=ctl.clock)
    refusals = []
    try:
        for action in parse_script(MIXED, table.catalog, source="mixed"):
            perform(action, table, reader, buttons, ctl.clock)
            if ctl.message is not None and ctl.message.kind == "refusal":
                refusals.append(ctl.message.text)
    finally:
        table.journal.close()
    assert len(refusals) >= 10
    for text in refusals:
        assert isinstance(text, Msg), text
        names = {field for _lit, field, _spec, _conv in string.Formatter().parse(text.id) if field}
        assert names <= set(text.values), text


def test_simulate_says_its_rejections_in_english_whatever_the_table_speaks(tmp_path: Path) -> None:
    import io

    from table.words import i18n
    from table.config import parse_config
    from table.sim.simulate import simulate

    script = tmp_path / "game.txt"
    script.write_text("tap player-1\ntap player-2\ntap player-3\npress next\npress roll\ntap net-troll\n"
                      "press help\ntap player-1\n", encoding="utf-8")
    err = io.StringIO()
    i18n.set_language("zh")                    # as a Chinese screen has it
    try:
        code = simulate(script, parse_config({"display": {"language": "zh"}}), out=io.StringIO(), err=err,
                        screenshots=tmp_path / "shots")
    finally:
        i18n.set_language("en")
    assert code == 0
    assert err.getvalue().splitlines() == [
        "rejected: 5: ROLL does nothing during kick open the door",
        "rejected: 8: a player cannot help themselves; tap another player's token",
    ]
