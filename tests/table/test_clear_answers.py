"""Every input gets a clear answer: one line saying what is wrong and what to do, exit 2, never a traceback."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from table.cli import main

ROOT = Path(__file__).resolve().parents[2]
START = "tap player-1\ntap player-2\ntap player-3\npress next\n"


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:           # argparse's usage errors end the process, as always
        code = exc.code
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


# ---------------------------------------------------------------- table scripts


def test_a_script_that_is_not_utf8_names_the_line(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.txt"
    script.write_bytes(b"tap player-1\ndie \xb2\n")
    code, out, err = run_cli(capsys, "simulate", str(script))
    assert code == 2 and out == ""
    assert one_line(err) == f"script error: {script}:2: not UTF-8 text (byte 0xb2 at column 5); save the file as UTF-8"


@pytest.mark.parametrize("face", ["²", "٣", "0", "7", "+3", "3.0", "", "1 2"])
def test_a_die_face_that_is_not_1_to_6_is_a_script_error(tmp_path: Path, capsys, face: str) -> None:
    script = tmp_path / "s.txt"
    script.write_text(f"tap player-1\ndie {face}\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "simulate", str(script))
    assert code == 2
    line = one_line(err)
    assert line.startswith(f"script error: {script}:2: ") and ("a die shows 1 to 6" in line or "exactly one argument" in line)


@pytest.mark.parametrize("sep", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_lines_are_split_on_newline_only(tmp_path: Path, capsys, sep: str) -> None:
    script = tmp_path / "s.txt"
    # the separator sits inside a comment: it must neither end the comment nor shift the line numbers
    script.write_text(f"tap player-1 # one{sep}tap nope\ntap player-2\ntap jump\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "simulate", str(script))
    assert code == 2
    assert one_line(err) == (f"script error: {script}:3: no card or player token 'jump'; "
                             f"'munchkin-table cards' lists the card ids: 'tap jump'")


@pytest.mark.parametrize("seconds", ["nan", "inf", "-inf", "1e308", "-1", "86401"])
def test_wait_takes_a_finite_number_of_seconds_up_to_a_day(tmp_path: Path, capsys, seconds: str) -> None:
    script = tmp_path / "s.txt"
    script.write_text(f"wait {seconds}\n")
    code, _, err = run_cli(capsys, "simulate", str(script))
    assert code == 2 and "wait takes" in one_line(err)


def test_a_script_that_is_a_folder_or_missing_is_one_line(tmp_path: Path, capsys) -> None:
    code, _, err = run_cli(capsys, "simulate", str(tmp_path))
    assert code == 2 and "name a file, not a folder" in one_line(err)
    code, _, err = run_cli(capsys, "simulate", str(tmp_path / "none.txt"))
    assert code == 2 and "No such file or directory" in one_line(err)


def test_simulate_dash_reads_the_script_from_stdin(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(START.encode())))
    code, out, err = run_cli(capsys, "simulate", "-")
    assert code == 0 and err == ""
    assert json.loads(out)["phase"] == "kick-open-the-door"


def test_simulate_dash_names_stdin_in_its_errors(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"tap player-1\npress jump\n")))
    code, _, err = run_cli(capsys, "simulate", "-")
    assert code == 2 and one_line(err).startswith("script error: <stdin>:2: no button 'jump'; buttons are roll")


def test_simulate_v_tells_the_story_in_words(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.txt"
    script.write_text(START + "tap boots-of-butt-kicking\ntap lame-goblin   # from the door\npress next\nwait 3\npress run\n")
    code, out, err = run_cli(capsys, "simulate", "-v", str(script))
    assert code == 0 and json.loads(out)["players"][0]["level"] == 2
    lines = err.splitlines()
    assert lines[0].split() == ["1", "tap", "player-1", "Player", "1", "joined", "(seat", "1)"]
    assert "tap lame-goblin" in lines[5] and "Player 1 fights Lame Goblin" in lines[5] and "#" not in lines[5]
    assert "wait 3" in lines[7] and "killed the monsters" in lines[7]
    assert lines[8] == "rejected: 9: RUN is for running away from a combat"     # the contract line, in its place
    assert lines[9] == "end: turn 1, charity; Player 1 level 2, Player 2 level 1, Player 3 level 1"
    assert len(lines) == 10


def test_simulate_without_v_says_nothing_on_stderr(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.txt"
    script.write_text(START)
    code, _, err = run_cli(capsys, "simulate", str(script))
    assert code == 0 and err == ""


def test_screenshots_to_a_folder_that_cannot_be_made(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.txt"
    script.write_text(START)
    blocker = tmp_path / "file"
    blocker.write_text("")
    for target in ("/proc/x", str(blocker / "shots")):
        code, out, err = run_cli(capsys, "simulate", str(script), "--screenshot", target)
        assert code == 2 and out == ""
        assert f"cannot use {target} for screenshots" in one_line(err)


# ---------------------------------------------------------------- config


def config_file(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "config.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e308", "61", "-0.5"])
def test_interference_seconds_must_be_finite_and_in_range(tmp_path: Path, capsys, value: str) -> None:
    path = config_file(tmp_path, f"[rules]\ninterference_seconds = {value}\n")
    code, out, err = run_cli(capsys, "state", "--config", str(path))
    assert code == 2 and out == ""
    line = one_line(err)
    assert line.startswith(f"munchkin-table: {path}: [rules] interference_seconds = ") and "0-60" in line


@pytest.mark.parametrize("section, key, value", [
    ("table", "token_seconds", "nan"), ("buttons", "hold_seconds", "inf"), ("display", "width", "100000"),
    ("reader", "baudrate", "0"), ("reader", "spi_bus", "-1"), ("buttons", "bounce_ms", "1e9"),
    ("feedback", "led", "40"), ("rules", "hand_limit", "1000"),
])
def test_every_number_is_finite_and_in_range(tmp_path: Path, section: str, key: str, value: str) -> None:
    from table.config import ConfigError, load_config

    with pytest.raises(ConfigError) as caught:
        load_config(config_file(tmp_path, f"[{section}]\n{key} = {value}\n"))
    assert caught.value.problems == [caught.value.problems[0]] and f"[{section}] {key}" in caught.value.problems[0]


def test_every_config_problem_is_named_in_one_go(tmp_path: Path, capsys) -> None:
    path = config_file(tmp_path, "[raeder]\n[screen]\n[reader]\ntyp = 'sim'\nspi_buss = 1\n[buttons]\nroll = 99\n"
                                 "[display]\nwidth = 5\nlanguage = 'nl'\n[rules]\ninterference_seconds = nan\n")
    code, _, err = run_cli(capsys, "state", "--config", str(path))
    assert code == 2
    lines = err.splitlines()
    assert all(line.startswith(f"munchkin-table: {path}: ") for line in lines)
    text = "\n".join(lines)
    assert "unknown section(s) [raeder], [screen]" in text
    assert "unknown key(s) in [reader]: spi_buss, typ" in text
    assert "[buttons] roll = 99 is out of range" in text and "[display] width = 5 is out of range" in text
    assert "[display] language must be" in text and "[rules] interference_seconds = nan" in text
    assert len(lines) == 6
    for fine in ("help", "run", "next", "undo", "height", "winning_level"):   # keys that were fine are not named
        assert f"] {fine} " not in text


def test_a_range_error_names_the_key_that_is_wrong(tmp_path: Path) -> None:
    from table.config import ConfigError, load_config

    with pytest.raises(ConfigError) as caught:
        load_config(config_file(tmp_path, "[rules]\nstarting_hand = 50\n"))
    assert caught.value.problems == ["[rules] starting_hand = 50 is out of range: it must be 1-10"]


def test_a_config_that_is_not_utf8_names_the_line(tmp_path: Path, capsys) -> None:
    path = config_file(tmp_path, b"[reader]\ntype = '\xff'\n")
    code, _, err = run_cli(capsys, "state", "--config", str(path))
    assert code == 2
    assert one_line(err) == f"munchkin-table: {path}:2: not UTF-8 text (byte 0xff at column 9); save the file as UTF-8"


def test_a_config_that_is_a_folder_is_one_line(tmp_path: Path, capsys) -> None:
    code, _, err = run_cli(capsys, "state", "--config", str(tmp_path))
    assert code == 2 and "cannot read config" in one_line(err)


def test_nan_never_reaches_the_state_json(tmp_path: Path, capsys) -> None:
    path = config_file(tmp_path, "[rules]\ninterference_seconds = 2.0\n")
    code, out, _ = run_cli(capsys, "state", "--config", str(path))
    assert code == 0 and json.loads(out)["ruleset"]["interference_seconds"] == 2.0
    assert "NaN" not in out and "Infinity" not in out


# ---------------------------------------------------------------- tags CSV


@pytest.fixture()
def cfg(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[storage]\nstate_dir = "{tmp_path / "state"}"\n')
    return path


@pytest.mark.parametrize("text, says", [
    ("card,uid\nplayer-1,04A1B2C3\n", "the columns are swapped"),
    ("04A1B2C3,player-1\n", "no header: the first line must be 'uid,card'"),
    ("", "the file is empty"),
    ("uid,cards\n04A1B2C3,player-1\n", "the header must be 'uid,card'"),
])
def test_a_tags_csv_header_that_is_wrong_or_missing_says_so(cfg: Path, tmp_path: Path, capsys, text: str, says: str) -> None:
    csv_file = tmp_path / "in.csv"
    csv_file.write_text(text)
    code, out, err = run_cli(capsys, "tags", "import", str(csv_file), "--config", str(cfg))
    assert code == 2 and out == ""
    assert err.splitlines()[0].startswith(f"{csv_file}:1: ") and says in err
    assert "is not a tag UID" not in err
    assert not (tmp_path / "state" / "tags.csv").exists()


def test_a_tags_csv_that_is_not_utf8_is_one_line(cfg: Path, tmp_path: Path, capsys) -> None:
    csv_file = tmp_path / "in.csv"
    csv_file.write_bytes(b"uid,card\n04A1B2C3,player-1\n04A1B2C4,\xe9lf\n")
    code, _, err = run_cli(capsys, "tags", "import", str(csv_file), "--config", str(cfg))
    assert code == 2 and one_line(err).endswith(f"{csv_file}:3: not UTF-8 text (byte 0xe9 at column 10); save the file as UTF-8")


def test_tags_export_to_a_path_that_cannot_be_written(cfg: Path, tmp_path: Path, capsys) -> None:
    code, out, err = run_cli(capsys, "tags", "export", str(tmp_path / "no" / "such" / "x.csv"), "--config", str(cfg))
    assert code == 2 and out == ""
    assert "cannot write" in one_line(err) and "No such file or directory" in err


# ---------------------------------------------------------------- card files


def test_a_card_file_that_is_not_utf8_names_the_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "set.toml"
    path.write_bytes(b'[set]\nid = "mine"\nname = "Mine"\n\n[[card]]\nid = "x"\nname = "\xc3"\n')
    code, _, err = run_cli(capsys, "cards", "validate", str(path))
    assert code == 2
    assert f"{path}:7: not UTF-8 text (byte 0xc3 at column 9); save the file as UTF-8" in err


def test_card_file_line_numbers_count_newlines_only(tmp_path: Path, capsys) -> None:
    path = tmp_path / "set.toml"
    path.write_text('[set]\nid = "mine"\nname = "Mine"\nnote = "a\\u000bb"\n# a \x85 comment\n\n[[card]]\nid = "x"\n'
                    'name = "X"\ndeck = "door"\nkind = "curse"\nbonus = "two"\n', encoding="utf-8")
    code, _, err = run_cli(capsys, "cards", "validate", str(path))
    assert code == 2 and f"{path}:12: card 'x': bonus must be a whole number" in err


# ---------------------------------------------------------------- the command line itself


@pytest.mark.parametrize("argv", [["bogus"], ["simulate"], ["tags", "import", "a", "b"], ["state", "--nope"],
                                  ["cards", "--json", "frobnicate"], []])
def test_a_bad_command_line_is_one_line_and_exit_2(capsys, argv: list[str]) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    assert one_line(err).startswith("munchkin-table")


def test_an_unexpected_error_is_one_line_too(monkeypatch, capsys) -> None:
    import table.cli.game

    def broken(args):  # type: ignore[no-untyped-def]
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(table.cli.game, "cmd_state", broken)
    code, _, err = run_cli(capsys, "state")
    assert code == 1 and "unexpected error (ZeroDivisionError: a bug); run it again with -v" in one_line(err)


class ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_closed_pipe_ends_quietly(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert main(["state"]) == 0
    assert capsys.readouterr().err == ""


def test_state_into_head_ends_quietly(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    out = subprocess.run(f"'{sys.executable}' -m table state | head -c 1", shell=True, capture_output=True,
                         text=True, env=env, cwd=ROOT, timeout=60)
    assert out.stdout == "{" and out.stderr == ""


# ---------------------------------------------------------------- the running table


def test_run_without_a_desktop_or_a_driver_says_so_and_exits_2(monkeypatch, capsys, tmp_path: Path) -> None:
    from table.ui.screen import no_screen_reason
    from table.config import Config, StorageConfig

    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("table.ui.screen.is_raspberry_pi", lambda: False)
    monkeypatch.setattr(sys, "platform", "linux")
    config = Config(storage=StorageConfig(state_dir=str(tmp_path / "state")))
    from table.app.run import run

    assert run(config, sim=True) == 2
    assert "no screen to draw on: no desktop session" in one_line(capsys.readouterr().err)
    assert not (tmp_path / "state").exists()            # nothing was created
    assert "invisible 'offscreen'" in no_screen_reason(fullscreen=False, asked_driver=None, driver="offscreen")
    assert no_screen_reason(fullscreen=False, asked_driver=None, driver="x11") is None
    assert no_screen_reason(fullscreen=False, asked_driver="dummy", driver="dummy") is None     # asked for: meant


def test_piped_lines_that_are_wrong_are_shown_and_later_lines_still_act(tmp_path: Path) -> None:
    from drivers.base import ManualClock
    from drivers.sim import SimButtons, SimReader
    from table.app.run import pipe_script
    from table.config import Config, StorageConfig
    from table.sim.script import ScriptNotice
    from table.control.assembly import build_table

    clock = ManualClock()
    table = build_table(Config(storage=StorageConfig(state_dir=str(tmp_path))), clock, seed_source=lambda: 1)
    try:
        reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
        piped = b"tap player-1\ndie \xc2\xb2\ntap \xff\xfe\ntap player-2\x0btap player-3\ndie 3\ntap player-2\nwait nan\ntap player-3\n"
        assert pipe_script(io.BytesIO(piped), reader, buttons, table, sleep=lambda s: None) == 8
        notices, taps = [], []
        for item in table.events.drain():
            if isinstance(item, ScriptNotice):
                notices.append(item.text)
                table.controller.refuse(item.text)
            else:
                taps.append(item)
                table.controller.handle(item)
        assert [n.split(": ")[0] for n in notices] == [f"<stdin>:{n}" for n in (2, 3, 4, 5, 7)]
        assert "a die shows 1 to 6" in notices[0] and "not UTF-8" in notices[1] and "'die' works in simulate only" in notices[3]
        assert [p.id for p in table.controller.state.players] == ["player-1", "player-2", "player-3"]
    finally:
        table.journal.close()


def test_a_typed_superscript_digit_does_not_stop_the_simulator(tmp_path: Path) -> None:
    import pygame

    from drivers.base import ManualClock
    from drivers.sim import SimButtons, SimReader
    from table.app.run import _key
    from table.ui.picker import Picker
    from table.config import Config, StorageConfig
    from table.control.assembly import build_table

    clock = ManualClock()
    table = build_table(Config(storage=StorageConfig(state_dir=str(tmp_path))), clock, seed_source=lambda: 1)
    try:
        reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
        picker = Picker()
        _key(SimpleNamespace(key=ord("2"), unicode="²"), picker, reader, buttons, table.controller)
        assert _key(SimpleNamespace(key=pygame.K_RETURN, unicode="\r"), picker, reader, buttons, table.controller)
        assert "no card or player token" in table.controller.message.text
    finally:
        table.journal.close()


def test_native_library_noise_on_fd_2_goes_to_the_debug_log(capfd, caplog) -> None:
    from table.ui.sound import native_stderr_to_log

    with caplog.at_level(logging.DEBUG, logger="table.ui.sound"), native_stderr_to_log():
        os.write(2, b"ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n")
    assert capfd.readouterr().err == ""
    assert "Unknown PCM default" in caplog.text
    os.write(2, b"after\n")
    assert capfd.readouterr().err == "after\n"


# ---------------------------------------------------------------- the state JSON


def test_run_away_names_each_monster_by_card_and_index_in_pending_and_results(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.txt"
    script.write_text(START + "tap net-troll\npress help\ntap player-2\npress run\ndie 6\npress roll\n")
    code, out, _ = run_cli(capsys, "simulate", str(script))
    flight = json.loads(out)["run_away"]
    assert code == 0 and flight["results"] and flight["pending"]
    for entry in flight["pending"]:
        assert entry["monster"] == entry["monster_card"] == "net-troll" and entry["monster_index"] == 0
    for entry in flight["results"]:
        assert entry["monster"] == entry["monster_index"] == 0 and entry["monster_card"] == "net-troll"


def test_a_state_dir_that_is_a_file_is_named_as_such(tmp_path: Path, capsys) -> None:
    (tmp_path / "afile").write_text("")
    path = config_file(tmp_path, f'[storage]\nstate_dir = "{tmp_path / "afile"}"\n')
    for argv in (["state"], ["tags", "export"], ["simulate", str(path)]):
        code, _, err = run_cli(capsys, *argv, "--config", str(path))
        assert code == 2 and "is a file, not a folder" in one_line(err)


def test_a_terminal_that_cannot_show_every_character_gets_escapes(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("tap player-1\n")
    config = config_file(tmp_path, "[players.player-1]\nname = 'Ana → 安娜'\n")
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path), PYTHONPATH=str(ROOT), PYTHONIOENCODING="ascii")
    out = subprocess.run([sys.executable, "-m", "table", "simulate", str(script), "--config", str(config)],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert out.returncode == 0 and "Traceback" not in out.stderr
    assert json.loads(out.stdout)["players"][0]["name"] == "Ana → 安娜"        # \u escapes are still JSON


def test_a_near_miss_card_id_gets_a_suggestion(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.txt"
    for line, says in (("tap net troll", "did you mean 'tap net-troll'?"), ("tap net-trol", "did you mean 'net-troll'?"),
                       ("TAP NET-TROLL\ntap zzzz", "'munchkin-table cards' lists the card ids")):
        script.write_text(START + line + "\n")
        code, _, err = run_cli(capsys, "simulate", str(script))
        assert code == 2 and says in one_line(err)


def test_a_utf16_file_is_named_as_such(tmp_path: Path, capsys) -> None:
    script = tmp_path / "s.txt"
    script.write_bytes(START.encode("utf-16"))
    code, _, err = run_cli(capsys, "simulate", str(script))
    assert code == 2 and one_line(err) == f"script error: {script}:1: the file is UTF-16 text; save it as UTF-8"


def test_config_keys_in_the_wrong_place_say_where_they_belong(tmp_path: Path) -> None:
    from table.config import ConfigError, load_config

    with pytest.raises(ConfigError) as caught:
        load_config(config_file(tmp_path, "language = 'es'\n[display]\ninterference_seconds = 3\n"))
    assert caught.value.problems[0] == "language = 'es' is outside any section; put it under [display]"
    assert caught.value.problems[1].endswith("(interference_seconds belongs in [rules])")


def test_a_semicolon_separated_tags_csv_says_so(cfg: Path, tmp_path: Path, capsys) -> None:
    csv_file = tmp_path / "in.csv"
    csv_file.write_text("uid;card\n04A1B2C3;elf\n")
    code, _, err = run_cli(capsys, "tags", "import", str(csv_file), "--config", str(cfg))
    assert code == 2 and "the columns are separated by semicolons; separate them with a comma" in err


def test_tags_export_to_dash_is_stdout(cfg: Path, capsys) -> None:
    code, out, _ = run_cli(capsys, "tags", "export", "-", "--config", str(cfg))
    assert code == 0 and out.startswith("uid,card")


@pytest.mark.parametrize("value", ["[" * 3000 + "]" * 3000, "{a=" * 3000 + "1" + "}" * 3000])
def test_toml_nested_too_deeply_is_one_line_not_a_recursion_error(tmp_path: Path, capsys, value: str) -> None:
    path = config_file(tmp_path, f"deep = {value}\n")
    code, _, err = run_cli(capsys, "state", "--config", str(path))
    assert code == 2 and "nested too deeply" in one_line(err)
    code, _, err = run_cli(capsys, "cards", "validate", str(path))
    assert code == 2 and f"{path}:1: not valid TOML: arrays or tables nested too deeply" in err


def test_a_piped_line_too_long_to_be_a_script_line_is_skipped_whole(tmp_path: Path) -> None:
    from drivers.base import ManualClock
    from drivers.sim import SimButtons, SimReader
    from table.app.run import MAX_PIPED_LINE, pipe_script
    from table.config import Config, StorageConfig
    from table.sim.script import ScriptNotice
    from table.control.assembly import build_table

    clock = ManualClock()
    table = build_table(Config(storage=StorageConfig(state_dir=str(tmp_path))), clock, seed_source=lambda: 1)
    try:
        reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
        piped = b"tap player-1\n" + b"tap " + b"x" * (3 * MAX_PIPED_LINE) + b"\ntap player-2\n"
        assert pipe_script(io.BytesIO(piped), reader, buttons, table, sleep=lambda s: None) == 3
        items = table.events.drain()
        notices = [i.text for i in items if isinstance(i, ScriptNotice)]
        assert notices == ["<stdin>:2: a line longer than 64 KB; ignored"] and len(items) == 3
    finally:
        table.journal.close()


def test_feedback_on_a_button_pin_and_big_ranges_read_plainly(tmp_path: Path) -> None:
    from table.config import ConfigError, load_config

    with pytest.raises(ConfigError) as caught:
        load_config(config_file(tmp_path, "[reader]\nbaudrate = 0\n[feedback]\nbuzzer = 5\nled = 'x'\n"))
    assert caught.value.problems == ["[reader] baudrate = 0 is out of range: it must be 1200-4000000",
                                     "[feedback] led must be a BCM pin (0-27) or false, got 'x'",
                                     "[feedback] buzzer = 5 is the pin of the roll button; give it a pin of its own"]


class FullDisk(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(28, "No space left on device")


def test_output_to_a_full_disk_is_one_line_and_exit_2(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdout", FullDisk())
    assert main(["cards"]) == 2
    assert one_line(capsys.readouterr().err) == "munchkin-table: No space left on device; make room and try again"


@pytest.mark.parametrize("header, says", [
    ('# ruleset: {"interference_seconds": NaN}', "interference_seconds = nan is not a number we can use"),
    ('# ruleset: {"winning_level": "ten"}', "winning_level must be a whole number"),
    ('# ruleset: {"min_players": 5, "max_players": 4}', "min_players = 5 is more than max_players = 4"),
    ('# players: {"player-1": ["Ana", "other"]}', 'sex must be "male" or "female"'),
    ('# players: {"player-9": ["Ana", "female"]}', "players are named player-1 … player-6"),
    ("# seed: ²", "bad 'seed' line"),
])
def test_a_script_header_gets_the_config_checks(tmp_path: Path, capsys, header: str, says: str) -> None:
    script = tmp_path / "s.txt"
    script.write_text(header + "\n" + START, encoding="utf-8")
    code, out, err = run_cli(capsys, "simulate", str(script))
    assert code == 2 and out == ""
    line = one_line(err)
    assert line.startswith(f"script error: {script}:1: bad ") and says in line


@pytest.mark.parametrize("game, says", [("99999999999999999999", "is not from 1 to"), ("x", "is not a whole number")])
def test_export_game_ids_outside_what_the_journal_holds_are_usage_errors(capsys, game: str, says: str) -> None:
    code, out, err = run_cli(capsys, "export", "--game", game)
    assert code == 2 and out == "" and says in one_line(err)


def test_enroll_without_a_desktop_or_a_driver_says_so_and_exits_2(monkeypatch, capsys, tmp_path: Path) -> None:
    from table.config import Config, StorageConfig
    from table.app.enroll import enroll

    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("table.ui.screen.is_raspberry_pi", lambda: False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert enroll(Config(storage=StorageConfig(state_dir=str(tmp_path / "state"))), sim=True) == 2
    assert "munchkin-table enroll: no screen to draw on" in one_line(capsys.readouterr().err)


def test_the_stdin_reader_reads_lines_from_the_descriptor_itself() -> None:
    from table.app.run import FdLines

    read_end, write_end = os.pipe()
    os.write(write_end, b"tap player-1\npress next\n" + b"x" * 10 + b"\nlast")
    os.close(write_end)
    lines = FdLines(read_end)
    try:
        assert lines.readline(100) == b"tap player-1\n" and lines.readline() == b"press next\n"
        assert lines.readline(4) == b"xxxx" and lines.readline(100) == b"xxxxxx\n"
        assert lines.readline(100) == b"last" and lines.readline(100) == b""
    finally:
        os.close(read_end)
