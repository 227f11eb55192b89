"""``league standings|tables`` and doctor's broker check against a real Mosquitto; one line and exit 2 when
it cannot be read."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from table.cli import main
from tests.league.rig import ANN_WINS, BOB_WINS, Box, league_config, until


def write_config(path: Path, state: Path, broker: str, table: str, password: str, extra: str = "") -> Path:
    path.write_text(f'[storage]\nstate_dir = "{state}"\n[league]\nbroker = "{broker}"\nleague = "friday"\n'
                    f'table = "{table}"\nusername = "{table}"\npassword = "{password}"\n{extra}')
    return path


def played(tmp_path: Path, broker) -> list[Box]:
    boxes = [Box(league_config(tmp_path / t, broker.url(), t)) for t in ("table-a", "table-b")]
    boxes[0].play(ANN_WINS)
    boxes[1].play(BOB_WINS)
    until(lambda: all(b.waiting() == 0 for b in boxes), what="both games acknowledged")
    return boxes


def test_standings_and_tables_in_json_csv_and_text(tmp_path: Path, broker, capsys) -> None:
    boxes = played(tmp_path, broker)
    try:
        config = write_config(tmp_path / "board.toml", tmp_path / "board", broker.url(), "board", "pw-board")
        capsys.readouterr()
        assert main(["league", "standings", "--json", "--config", str(config)]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["games"] == 2
        assert {p["name"]: (p["games"], p["wins"], p["kills"]) for p in data["players"]} == {
            "Ann": (2, 1, 1), "Bob": (2, 1, 1), "Cy": (2, 0, 0)}
        assert main(["league", "standings", "--csv", "--config", str(config)]) == 0
        rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
        assert rows[0][:3] == ["name", "games", "wins"] and {r[0] for r in rows[1:4]} == {"Ann", "Bob", "Cy"}
        assert main(["league", "standings", "--config", str(config)]) == 0
        text = capsys.readouterr().out
        assert text.startswith("league friday: 2 table(s)\n") and "Ann" in text and "2 game(s)" in text
        until(lambda: main(["league", "tables", "--json", "--config", str(config)]) == 0
              and len(json.loads(capsys.readouterr().out)) == 2, what="both tables")
        assert main(["league", "tables", "--json", "--config", str(config)]) == 0
        tables = {r["table"]: r for r in json.loads(capsys.readouterr().out)}
        assert tables["table-a"]["online"] is True and tables["table-a"]["phase"] == "game-over"
        assert tables["table-b"]["leaders"] == ["Bob"] and tables["table-b"]["games"] == 1
        assert main(["league", "tables", "--config", str(config)]) == 0
        assert "table-a" in capsys.readouterr().out
    finally:
        for box in boxes:
            box.close()


def test_a_league_that_cannot_be_read_is_one_line_and_exit_2(tmp_path: Path, broker, capsys) -> None:
    config = write_config(tmp_path / "c.toml", tmp_path / "s", broker.url(), "board", "wrong")
    capsys.readouterr()
    assert main(["league", "standings", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "wrong username or password" in err
    down = write_config(tmp_path / "d.toml", tmp_path / "s", "mqtt://127.0.0.1:1", "board", "pw-board")
    assert main(["league", "tables", "--config", str(down)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "refused the connection" in err
    off = tmp_path / "off.toml"
    off.write_text(f'[storage]\nstate_dir = "{tmp_path / "s"}"\n')
    assert main(["league", "standings", "--config", str(off)]) == 2
    assert "no [league] broker" in capsys.readouterr().err


def test_doctor_checks_the_broker(tmp_path: Path, broker, capsys) -> None:
    good = write_config(tmp_path / "g.toml", tmp_path / "s", broker.url("tls"), "table-a", "pw-a",
                        f'ca = "{broker.ca[0]}"\n')
    capsys.readouterr()
    main(["doctor", "--config", str(good)])
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("[") and "league broker" in x)
    assert line.startswith("[ok]") and "TLS verified" in line and "test publish" in line
    cases = {
        "wrong username or password": write_config(tmp_path / "p.toml", tmp_path / "s", broker.url(), "table-a", "no"),
        "certificate is not trusted": write_config(tmp_path / "t.toml", tmp_path / "s", broker.url("tls"), "table-a",
                                                   "pw-a"),
        "refused a test publish": write_config(tmp_path / "a.toml", tmp_path / "s", broker.url(), "table-b", "pw-a"),
        "refused the connection": write_config(tmp_path / "r.toml", tmp_path / "s", "mqtt://127.0.0.1:1", "table-a",
                                               "pw-a"),
    }
    # table-b's name with table-a's login: the ACL refuses it its own topic
    (tmp_path / "a.toml").write_text((tmp_path / "a.toml").read_text().replace('username = "table-b"',
                                                                               'username = "table-a"'))
    for words, path in cases.items():
        assert main(["doctor", "--config", str(path)]) == 1
        out = capsys.readouterr().out
        line = next(x for x in out.splitlines() if "league broker" in x)
        assert line.startswith("[FAIL]") and words in line, (words, out)
    off = tmp_path / "off.toml"
    off.write_text(f'[storage]\nstate_dir = "{tmp_path / "s"}"\n')
    main(["doctor", "--config", str(off)])
    assert "league" not in capsys.readouterr().out


def test_the_league_is_read_whole_however_many_games_the_broker_holds(tmp_path: Path, broker) -> None:
    """More retained games than the broker's QoS 1 in-flight window (20) are all read before the marker."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from table.league.standings import standings
    from tests.league.rig import read

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="many-games", protocol=mqtt.MQTTv5)
    client.username_pw_set("table-a", "pw-a")
    client.max_inflight_messages_set(100)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        game = {"history": {"status": "finished"}, "tally": {"per_player": [{"name": "Ann", "won": True, "kills": 1,
                "deaths": 0, "runs": 0, "escaped": 0, "highest_level": 2, "helped": 0}], "monsters": {}}}
        infos = [client.publish(f"munchkin/friday/games/table-a/{n}", json.dumps(game), qos=1, retain=True)
                 for n in range(1, 46)]
        for info in infos:
            info.wait_for_publish(10)
    finally:
        client.disconnect()
        client.loop_stop()
    league = read(_board(tmp_path, broker))
    assert len(league.games) == 45 and standings(league)["games"] == 45


def _board(tmp_path: Path, broker):  # type: ignore[no-untyped-def]
    return league_config(tmp_path / "board", broker.url(), "board", password="pw-board")
