"""``league backfill [--dry-run]`` (issue 44): the games a box played before [league] was set, listed
without a write, then sent; bad arguments one line and exit 2."""

from __future__ import annotations

import os
from pathlib import Path

from table.cli import main
from table.league.standings import standings
from tests.league.rig import ANN_WINS, BOB_WINS, Box, league_config, play_offline, read, received, until
from tests.league.test_commands import write_config


def files_of(state: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(state.iterdir())}


def test_a_dry_run_lists_the_games_never_sent_and_writes_nothing(tmp_path: Path, broker, capsys) -> None:
    state = tmp_path / "a"
    first, second = play_offline(state, ANN_WINS, games=2)
    config = write_config(tmp_path / "a.toml", state, broker.url(), "table-a", "pw-a")
    before = files_of(state)
    capsys.readouterr()
    assert main(["league", "backfill", "--dry-run", "--config", str(config)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"game {first}: won by Ann") and out[1].startswith(f"game {second}: won by Ann")
    assert out[2].startswith("2 game(s) would be sent to league friday") and "nothing written" in out[2]
    assert files_of(state) == before                                 # not a byte, not a -wal file
    assert read(league_config(state, broker.url(), "table-a")).games == {}
    assert received(broker, "munchkin/friday/games/table-a") == 0


def test_backfill_sends_them_once_and_the_standings_count_them(tmp_path: Path, broker, capsys) -> None:
    state = tmp_path / "a"
    first, second = play_offline(state, ANN_WINS, games=2)
    config = write_config(tmp_path / "a.toml", state, broker.url(), "table-a", "pw-a")
    capsys.readouterr()
    assert main(["league", "backfill", "--config", str(config)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == ("2 game(s) sent to league friday on "
                                                        f"{broker.url()} as table table-a")
    league = read(league_config(state, broker.url(), "table-a"))
    assert sorted(league.games) == [("table-a", first), ("table-a", second)]
    assert {p["name"]: p["wins"] for p in standings(league)["players"]} == {"Ann": 2, "Bob": 0, "Cy": 0}
    assert main(["league", "backfill", "--config", str(config)]) == 0      # again: nothing left to send
    assert capsys.readouterr().out.startswith("nothing to send")
    box = Box(league_config(state, broker.url(), "table-a"))             # the box itself sends nothing again
    try:
        box.new_game()
        box.play(BOB_WINS)
        until(lambda: box.waiting() == 0 and box.publisher.looks > 0, what="the box's game and its look")
        assert box.publisher.resent == 0
        assert received(broker, f"munchkin/friday/games/table-a/{first}") == 1
    finally:
        box.close()


def test_a_broker_that_cannot_be_reached_leaves_the_games_in_the_outbox_for_the_table(tmp_path: Path, broker,
                                                                                      capsys) -> None:
    state = tmp_path / "a"
    (game,) = play_offline(state, ANN_WINS)
    config = write_config(tmp_path / "a.toml", state, broker.url(), "table-a", "pw-a")
    broker.stop()
    capsys.readouterr()
    assert main(["league", "backfill", "--timeout", "2", "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "wait in the outbox" in err[0]
    broker.start()
    box = Box(league_config(state, broker.url(), "table-a"))
    try:
        until(lambda: ("table-a", game) in read(box.config).games, timeout=20, what="sent by the table")
    finally:
        box.close()


def test_bad_arguments_and_no_league_are_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    plain = tmp_path / "plain.toml"
    plain.write_text(f'[storage]\nstate_dir = "{tmp_path / "s"}"\n')
    for argv in (["league", "backfill", "--dry-run", "--config", str(plain)],
                 ["league", "backfill", "--timeout", "soon"],
                 ["league", "backfill", "--timeout", "-1"],
                 ["league", "backfill", "--dryrun"]):
        try:
            code = main(argv)
        except SystemExit as exc:               # argparse's own exit
            code = int(exc.code or 0)
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(err) == 1, (argv, err)
    assert not (tmp_path / "s").exists() or not os.listdir(tmp_path / "s")
