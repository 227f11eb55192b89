"""The state topic (table/league/publisher.py): what the league reads of a table, through paho's own
publish, retained, and only when it changed. Read back by a subscriber of its own, as a board would."""

from __future__ import annotations

import ast
import dataclasses
import time
from pathlib import Path

from engine.state import Phase
from table.league.publisher import league_state
from tests.league.rig import MID_GAME, Box, Subscriber, league_config, until

STATE = "munchkin/friday/tables/table-a/state"
LEAGUE = Path(__file__).resolve().parents[2] / "table" / "league"


def test_the_state_topic_holds_what_the_league_reads_and_is_retained(tmp_path: Path, broker) -> None:
    box = Box(league_config(tmp_path / "a", broker.url(), "table-a"))
    try:
        box.play(MID_GAME)
        until(lambda: box.publisher.problem is None and box.publisher.connected, what="connected")
        state = box.table.controller.state
        sub = Subscriber(broker, STATE)
        try:
            until(lambda: sub.payloads() and sub.payloads()[-1]["turn"] == state.turn, what="the retained state")
            first = sub.messages[0]
            assert first.retain
            got = sub.payloads()[-1]
            assert got == league_state(state)
            assert got == {"phase": state.phase.value, "turn": state.turn, "active_player": "player-2",
                           "players": [{"id": "player-1", "name": "Ann", "level": state.players[0].level},
                                       {"id": "player-2", "name": "Bob", "level": 1},
                                       {"id": "player-3", "name": "Cy", "level": 1}], "winners": []}
            assert len(first.payload) < 400                 # not the whole state JSON (3-4 KB mid-game)
        finally:
            sub.close()
    finally:
        box.close()


def test_a_state_that_changes_nothing_the_league_reads_is_not_sent(tmp_path: Path, broker) -> None:
    box = Box(league_config(tmp_path / "a", broker.url(), "table-a", state_per_second=50))
    try:
        box.play(MID_GAME)
        state = box.table.controller.state
        sub = Subscriber(broker, STATE)
        try:
            until(lambda: sub.payloads() and sub.payloads()[-1]["turn"] == state.turn, what="the retained state")
            seen = len(sub.messages)
            for n in range(5):                      # new states, the same for the league (a die rolled, say)
                box.publisher.state(dataclasses.replace(state, rolls=state.rolls + n + 1))
                time.sleep(0.05)                    # (past the rate limit: were they sent, they would go now)
            box.publisher.state(dataclasses.replace(state, turn=state.turn + 1))     # then one it reads
            # one connection, in order: anything sent for the five would come before the turn
            until(lambda: sub.payloads()[-1]["turn"] == state.turn + 1, what="the next turn")
            assert [p["turn"] for p in sub.payloads()[seen:]] == [state.turn + 1]
        finally:
            sub.close()
    finally:
        box.close()


def test_the_same_state_handed_again_costs_nothing_with_no_seats_or_the_same(tmp_path: Path, broker, monkeypatch) -> None:
    """The run loop hands the state over on every new revision, most of them (a message, a prompt) with
    the same state: the league's view of it is not made again, whether the box has seats ({}) or not."""
    import table.league.publisher as publisher_module

    made = []
    real = publisher_module.league_key
    monkeypatch.setattr(publisher_module, "league_key", lambda *args: made.append(args) or real(*args))
    box = Box(league_config(tmp_path / "a", broker.url(), "table-a"))
    try:
        box.play(MID_GAME)
        state = box.table.controller.state
        box.publisher.state(state)
        made.clear()
        for seats in ({}, None, {}, {1: "player-1"}, {1: "player-1"}):
            box.publisher.state(state, seats)
        # {} and None are the same seats as the hand-over before; the seat is new once
        assert len(made) == 1, made
    finally:
        box.close()


def test_a_change_of_the_phase_or_the_turn_waits_for_the_next_and_a_new_level_does_not_wait(
        tmp_path: Path, broker, monkeypatch) -> None:
    import table.league.publisher as publisher

    box = Box(league_config(tmp_path / "a", broker.url(), "table-a", state_per_second=50))
    try:
        box.play(MID_GAME)
        state = box.table.controller.state
        other = [p for p in Phase if p is not state.phase]
        first = state.players[0]

        def at(level: int, **changes: object) -> object:
            return dataclasses.replace(state, players=[dataclasses.replace(first, level=level), *state.players[1:]],
                                       **changes)

        sub = Subscriber(broker, STATE)
        try:
            # the game's own last turn waits its second, whenever the connection came during the game
            until(lambda: sub.payloads() and sub.payloads()[-1]["turn"] == state.turn, what="the retained state")
            monkeypatch.setattr(publisher, "PHASE_GAP_S", 60.0)    # from now on (no machine is that slow between two lines)
            box.publisher.state(at(first.level + 1))                                      # sent at once
            until(lambda: sub.payloads()[-1]["players"][0]["level"] == first.level + 1, what="the new level")
            seen = len(sub.messages)
            box.publisher.state(at(first.level + 1, phase=other[0]))                      # waits
            time.sleep(0.1)                     # (past the rate limit: were it not waiting, it would go now)
            box.publisher.state(at(first.level + 1, phase=other[1], turn=state.turn + 1,
                                   active_player="player-3"))                             # waits too
            time.sleep(0.1)
            box.publisher.state(at(first.level + 2, phase=other[1], turn=state.turn + 1,
                                   active_player="player-3"))                             # goes, with the turn
            until(lambda: sub.payloads()[-1]["players"][0]["level"] == first.level + 2, what="the level after")
            assert [(p["turn"], p["active_player"], p["phase"], p["players"][0]["level"])
                    for p in sub.payloads()[seen:]] == [(state.turn + 1, "player-3", other[1].value, first.level + 2)]
        finally:
            sub.close()
    finally:
        box.close()


def test_a_change_of_the_phase_alone_still_reaches_the_league(tmp_path: Path, broker) -> None:
    box = Box(league_config(tmp_path / "a", broker.url(), "table-a"))
    try:
        box.play(MID_GAME)
        state = box.table.controller.state
        sub = Subscriber(broker, STATE)
        try:
            until(lambda: sub.payloads() and sub.payloads()[-1]["turn"] == state.turn, what="the retained state")
            box.publisher.state(dataclasses.replace(state, turn=state.turn + 1))
            changed = dataclasses.replace(state, turn=state.turn + 1, phase=next(p for p in Phase if p is not state.phase))
            box.publisher.state(changed)
            until(lambda: sub.payloads()[-1]["phase"] == changed.phase.value, what="the phase")
        finally:
            sub.close()
    finally:
        box.close()


def test_states_handed_while_the_broker_is_down_send_the_latest_when_it_is_back(tmp_path: Path, broker) -> None:
    box = Box(league_config(tmp_path / "a", broker.url(), "table-a"))
    try:
        until(lambda: box.publisher.connected, what="connected")
        broker.kill()
        until(lambda: not box.publisher.connected, what="the box notices")
        state = box.table.controller.state
        for turn in (41, 42, 43):
            box.publisher.state(dataclasses.replace(state, turn=turn))
        broker.start()
        sub = Subscriber(broker, STATE)
        try:
            until(lambda: sub.payloads() and sub.payloads()[-1]["turn"] == 43, timeout=30, what="the latest state")
        finally:
            sub.close()
    finally:
        box.close()


def league_sources() -> dict[str, ast.Module]:
    return {p.name: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(LEAGUE.glob("*.py"))}


def test_no_module_of_the_league_writes_to_a_socket_or_touches_pahos_private_parts() -> None:
    found = []
    for name, tree in league_sources().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in ("send", "sendall", "sendto", "sendmsg", "PUBLISH"):
                found.append(f"{name}:{node.lineno} .{node.attr}")
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                found.append(f"{name}:{node.lineno} ._{node.attr[1:]} of another object")
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                found += [f"{name}:{node.lineno} imports {m}" for m in modules
                          if m == "struct"]
            if isinstance(node, ast.FunctionDef) and "packet" in node.name:
                found.append(f"{name}:{node.lineno} def {node.name}")
    assert found == []


def test_the_static_check_finds_a_socket_write_and_a_private_attribute(tmp_path: Path) -> None:
    tree = ast.parse("def publish_packet(c):\n    c._sock.send(b'x')\n")
    kinds = {type(n).__name__ for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr in ("send", "_sock")}
    assert kinds == {"Attribute"} and any(isinstance(n, ast.FunctionDef) and "packet" in n.name for n in ast.walk(tree))
