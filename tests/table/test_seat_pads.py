"""A reader at every seat (issue 26): a seat's tap acts for its player, tap@N in table scripts."""

from __future__ import annotations

import json
import queue
import tomllib
from pathlib import Path

import pytest

from drivers.base import ManualClock
from drivers.events import ReaderStatus
from drivers.seats import ReaderSet
from drivers.said import Said
from drivers.sim import SimReader
from table.app.drivers import open_pads
from table.cli import main
from table.config import Config, parse_config
from table.sim.harness import SimTable
from table.storage.seats import SeatFile
from table.sim.script import ScriptError, parse_script

SEATED = "tap@1 player-1\ntap@2 player-2\ntap@3 player-3\npress next\n"


def play(sim: SimTable, script: str) -> list[tuple[str, bool, str]]:
    """Each line's last outcome: (line, accepted, message)."""
    out = []
    for action in sim.parse(script):
        outcomes = sim.perform(action)
        last = outcomes[-1] if outcomes else None
        out.append((action.text, bool(last and last.accepted), str(last.message.text) if last and last.message else ""))
    return out


@pytest.fixture
def sim(tmp_path: Path):  # type: ignore[no-untyped-def]
    with SimTable(Config(), tmp_path, seed=3) as table:
        yield table


def test_a_token_tapped_on_a_free_seat_joins_and_takes_the_seat(sim: SimTable) -> None:
    assert all(ok for _, ok, _ in play(sim, SEATED))
    assert sim.controller.seats == {1: "player-1", 2: "player-2", 3: "player-3"}
    seats = sim.controller.state_json()["seats"]
    assert [(s["seat"], s["player"], s["reader"]) for s in seats] == [
        (1, "player-1", "seat-1"), (2, "player-2", "seat-2"), (3, "player-3", "seat-3")]


def test_a_card_on_a_seats_pad_acts_for_that_seats_player_without_a_token(sim: SimTable) -> None:
    play(sim, SEATED)
    play(sim, "tap@3 potion-of-general-studliness\n")        # not player 1's turn, no token first
    levels = {p["id"]: p["level"] for p in sim.controller.state_json()["players"]}
    assert levels == {"player-1": 1, "player-2": 1, "player-3": 2}


def test_the_shared_pad_still_acts_for_the_active_player(sim: SimTable) -> None:
    play(sim, SEATED + "tap potion-of-general-studliness\n")
    levels = {p["id"]: p["level"] for p in sim.controller.state_json()["players"]}
    assert levels["player-1"] == 2 and levels["player-3"] == 1


def test_a_seats_tap_for_what_only_the_active_player_may_do_is_refused_naming_the_seat(sim: SimTable) -> None:
    play(sim, SEATED)
    before = sim.controller.state_json()
    [(_, ok, why)] = play(sim, "tap@2 net-troll\n")
    assert not ok
    assert why.startswith("seat 2 (Player 2): ") and "Player 1's turn" in why      # the engine's reason, with the seat
    after = sim.controller.state_json()
    assert {k: v for k, v in after.items() if k != "seats"} == {k: v for k, v in before.items() if k != "seats"}


def test_a_card_on_a_seat_nobody_holds_is_refused_and_says_how_to_take_it(sim: SimTable) -> None:
    play(sim, SEATED)
    [(_, ok, why)] = play(sim, "tap@5 potion-of-general-studliness\n")
    assert not ok and "seat 5 has no player yet" in why
    assert all(p["level"] == 1 for p in sim.controller.state_json()["players"])


def test_choosing_a_players_token_on_a_held_pad_does_not_move_them(sim: SimTable) -> None:
    play(sim, SEATED + "tap@1 net-troll\npress help\n")
    play(sim, "tap@1 player-2\n")               # seat 1 asks player 2 for help: player 2 stays at seat 2
    assert sim.controller.seats == {1: "player-1", 2: "player-2", 3: "player-3"}
    assert sim.controller.state_json()["combat"]["fighters"] == ["player-1", "player-2"]


def test_an_undone_join_frees_the_seat(sim: SimTable) -> None:
    play(sim, "tap@1 player-1\ntap@2 player-2\npress undo\n")
    seats = {s["seat"]: s["player"] for s in sim.controller.state_json()["seats"]}
    assert seats == {1: "player-1", 2: None}
    play(sim, "tap@2 player-4\n")
    assert sim.controller.seats[2] == "player-4"


def test_a_box_with_only_the_shared_pad_has_no_seats_key(sim: SimTable) -> None:
    play(sim, "tap player-1\ntap player-2\n")
    assert "seats" not in sim.controller.state_json()


def test_a_seat_pad_going_offline_says_which_seat_and_the_others_go_on(sim: SimTable) -> None:
    play(sim, SEATED)
    ctl = sim.controller
    for seat in (1, 2, 3):
        ctl.handle(ReaderStatus(f"seat-{seat}", True, Said("ready"), 1.0))
    out = ctl.handle(ReaderStatus("seat-2", False, Said("reader offline: {why}", why="unplugged"), 2.0))
    assert out is not None and not out.accepted and str(out.message.text).startswith("seat 2: reader offline")
    assert ctl.reader_online is False
    assert [s["online"] for s in ctl.state_json()["seats"]] == [True, False, True]
    play(sim, "tap@3 potion-of-general-studliness\n")
    assert {p["id"]: p["level"] for p in ctl.state_json()["players"]}["player-3"] == 2
    back = ctl.handle(ReaderStatus("seat-2", True, Said("ready"), 3.0))
    assert back is not None and str(back.message.text) == "seat 2: reader back online" and ctl.reader_online


@pytest.mark.parametrize("line, why", [("tap@7 net-troll", "tap@N with a seat from 1 to 6"),
                                       ("tap@ net-troll", "tap@N with a seat from 1 to 6"),
                                       ("tap@2 net-trol", "did you mean 'net-troll'"),
                                       ("tap@2", "'tap' takes exactly one argument")])
def test_a_bad_seat_tap_line_is_a_script_error_naming_the_line(sim: SimTable, line: str, why: str) -> None:
    with pytest.raises(ScriptError, match=f"game.txt:2: .*{why}"):
        parse_script(f"press next\n{line}\n", sim.table.catalog, source="game.txt")


def test_plain_tap_lines_mean_what_they_meant(sim: SimTable) -> None:
    [plain, seated] = parse_script("tap net-troll\ntap@4 net-troll\n", sim.table.catalog)
    assert (plain.verb, plain.arg, plain.seat) == ("tap", "net-troll", None)
    assert (seated.verb, seated.arg, seated.seat) == ("tap", "net-troll", 4)


def test_the_led_blinks_while_any_pad_is_offline(sim: SimTable) -> None:
    play(sim, SEATED)
    ctl = sim.controller
    feedback = ctl.feedback
    for seat in (1, 2):
        ctl.handle(ReaderStatus(f"seat-{seat}", True, Said("ready"), 1.0))
    ctl.handle(ReaderStatus("seat-1", False, Said("reader offline: {why}", why="unplugged"), 2.0))
    ctl.handle(ReaderStatus("seat-2", True, Said("ready"), 2.5))         # another pad's news: seat 1 is still off
    ctl.handle(ReaderStatus("seat-1", True, Said("ready"), 3.0))
    assert feedback.log[-3:] == ["offline", "offline", "online"]  # type: ignore[attr-defined]


def test_run_opens_a_simulated_pad_at_every_seat_and_enroll_one_shared_pad(tmp_path: Path) -> None:
    config = parse_config(tomllib.loads("".join(f'[[reader]]\ntype = "pn532"\nport = "/dev/ttyUSB{n}"\nseat = {n}\n'
                                                for n in range(1, 4))))
    sink: queue.Queue = queue.Queue()  # type: ignore[type-arg]
    pads = open_pads(config, sink, ManualClock(), sim=True)
    assert isinstance(pads, ReaderSet) and [(r.name, r.seat) for r in pads] == [  # type: ignore[attr-defined]
        ("seat-1", 1), ("seat-2", 2), ("seat-3", 3)]
    with pads:
        assert sorted(sink.get_nowait().reader for _ in range(3)) == ["seat-1", "seat-2", "seat-3"]
    one = open_pads(config, sink, ManualClock(), sim=True, seat_pads=False)
    assert isinstance(one, SimReader) and (one.name, one.seat) == ("pad", None)


def test_the_seats_are_kept_beside_the_journal_across_a_restart(tmp_path: Path) -> None:
    with SimTable(Config(), tmp_path, seed=3) as sim:
        play(sim, SEATED)
    assert (tmp_path / "seats.json").exists()
    with SimTable(Config(), tmp_path, seed=3) as again:            # the same state directory: a restart
        assert again.controller.seats == {1: "player-1", 2: "player-2", 3: "player-3"}
        play(again, "tap@3 potion-of-general-studliness\n")
        assert again.controller.state.player("player-3").level == 2


@pytest.mark.parametrize("damage", [b"{not json", b"[1, 2]", b'{"9": "player-1", "1": 5}', b"\xff\xfe"])
def test_a_damaged_seats_file_gives_no_seats_and_never_stops_the_table(tmp_path: Path, damage: bytes) -> None:
    (tmp_path / "seats.json").write_bytes(damage)
    with SimTable(Config(), tmp_path, seed=3) as sim:
        assert sim.controller.seats == {}
        assert all(ok for _, ok, _ in play(sim, SEATED))
        assert sim.controller.seats == {1: "player-1", 2: "player-2", 3: "player-3"}


def test_a_join_in_setup_takes_the_seat_it_is_tapped_at_even_if_held_last_game(tmp_path: Path) -> None:
    (tmp_path / "seats.json").write_text('{"3": "player-3"}')
    with SimTable(Config(), tmp_path, seed=3) as sim:
        play(sim, "tap player-3\ntap@3 player-5\n")     # player 3 sits elsewhere now; player 5 joins at seat 3
        assert sim.controller.seats == {3: "player-5"}


def test_a_read_only_seats_file_never_writes(tmp_path: Path) -> None:
    SeatFile(tmp_path / "seats.json", read_only=True).save({1: "player-1"})
    assert not (tmp_path / "seats.json").exists()
    SeatFile(tmp_path / "seats.json").save({1: "player-1"})
    assert SeatFile(tmp_path / "seats.json", read_only=True).load() == {1: "player-1"}


def test_simulate_plays_seat_taps_and_prints_the_seats(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    script = tmp_path / "s.txt"
    script.write_text(SEATED + "tap@2 net-troll\ntap@3 potion-of-general-studliness\n")
    assert main(["simulate", str(script)]) == 0
    out = capsys.readouterr()
    state = json.loads(out.out)
    assert [(s["seat"], s["player"]) for s in state["seats"]] == [(1, "player-1"), (2, "player-2"), (3, "player-3")]
    assert {p["id"]: p["level"] for p in state["players"]}["player-3"] == 2
    assert "rejected: 5: seat 2 (Player 2): Player 2 cannot fight Net Troll" in out.err     # line 5 of the script
    script.write_text("tap@9 net-troll\n")
    assert main(["simulate", str(script)]) == 2
    assert f"{script}:1: a seat's tap is tap@N" in capsys.readouterr().err
