"""The command line a stranger meets: ``--version``, the closest command to one mistyped, help for
every argument, and the traceback of a bug in the log while the terminal keeps one line."""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from table.cli import build_parser, main
from table.cli.errors import LogLines, log_handlers, stderr_is_the_journal

ROOT = Path(__file__).resolve().parents[1]



def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_version_prints_pyprojects_version(capsys: pytest.CaptureFixture[str]) -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    code, out, err = run(capsys, "--version")
    assert code == 0 and out == f"munchkin-table {version}\n" and err == ""


@pytest.mark.parametrize(("argv", "answer"), [
    (["simulat"], "munchkin-table: unknown command 'simulat'; did you mean 'simulate'? (see 'munchkin-table --help')"),
    (["doctr"], "munchkin-table: unknown command 'doctr'; did you mean 'doctor'?"),
    (["cards", "validat"], "munchkin-table cards: action: unknown choice 'validat'; did you mean 'validate'?"),
    (["tags", "exprt"], "did you mean 'export'?"),
])
def test_a_mistyped_command_names_the_closest_one_in_one_line_exit_2(capsys: pytest.CaptureFixture[str],
                                                                     argv: list[str], answer: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and answer in err


def test_a_word_far_from_every_command_gets_the_list_instead(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "cards", "xyzzy")
    assert code == 2 and "did you mean" not in err and "the choices are validate, search, names, checklist" in err


def _walk(parser: argparse.ArgumentParser, path: str) -> list[str]:
    """Every argument of ``parser`` and its subcommands with no help text, named by its command path."""
    missing = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helped = {choice.dest for choice in action._choices_actions if choice.help}
            missing += [f"{path} {name} (the command itself)" for name in action.choices if name not in helped]
            for name, sub in action.choices.items():
                missing += _walk(sub, f"{path} {name}")
        elif not action.help or action.help == argparse.SUPPRESS and not isinstance(action, argparse._HelpAction):
            missing += [f"{path} {'/'.join(action.option_strings) or action.dest}"]
    return missing


def test_every_argument_of_every_command_has_help() -> None:
    assert _walk(build_parser(), "munchkin-table") == []


def test_the_walk_finds_an_argument_without_help() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub.choices["tags"].add_argument("--bare")
    assert _walk(parser, "munchkin-table") == ["munchkin-table tags --bare"]


# ---------------------------------------------------------------- a bug: the log keeps the traceback


def _boom(monkeypatch: pytest.MonkeyPatch) -> None:
    import table.cli.game

    def broken(args: argparse.Namespace) -> int:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(table.cli.game, "cmd_state", broken)


def test_a_bug_is_logged_at_error_with_its_traceback(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                                     caplog: pytest.LogCaptureFixture) -> None:
    _boom(monkeypatch)
    with caplog.at_level(logging.ERROR, logger="table.cli"):
        code, _, err = run(capsys, "state")
    assert code == 1 and "unexpected error (ZeroDivisionError: a bug)" in err
    [record] = [r for r in caplog.records if r.name == "table.cli"]
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert record.exc_info[0] is ZeroDivisionError


def _record() -> logging.LogRecord:
    try:
        raise ZeroDivisionError("a bug")
    except ZeroDivisionError:
        return logging.LogRecord("table.cli", logging.ERROR, __file__, 1, "unexpected error", (), sys.exc_info())


def test_the_terminal_gets_one_line_and_the_journal_or_v_the_traceback() -> None:
    record = _record()
    terminal = LogLines("%(levelname)s %(message)s", tracebacks=False).format(record)
    journal = LogLines("%(levelname)s %(message)s", tracebacks=True).format(_record())
    assert terminal == "ERROR unexpected error"
    assert journal.startswith("ERROR unexpected error\nTraceback") and "ZeroDivisionError: a bug" in journal
    assert record.exc_info is not None         # the one line does not take the traceback from other handlers


def test_stderr_is_the_journal_only_where_journal_stream_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "journal"
    with target.open("w") as fh:
        monkeypatch.setattr(sys, "stderr", fh)
        info = os.fstat(fh.fileno())
        monkeypatch.setenv("JOURNAL_STREAM", f"{info.st_dev}:{info.st_ino}")
        assert stderr_is_the_journal()
        [stream, *_] = log_handlers(verbose=False)
        assert isinstance(stream.formatter, LogLines) and stream.formatter.tracebacks
        monkeypatch.setenv("JOURNAL_STREAM", f"{info.st_dev}:{info.st_ino + 1}")
        assert not stderr_is_the_journal()
        monkeypatch.delenv("JOURNAL_STREAM")
        assert not stderr_is_the_journal()
        [stream, *_] = log_handlers(verbose=False)
        assert isinstance(stream.formatter, LogLines) and not stream.formatter.tracebacks
        bug = _record()
        bug.terminal = False
        assert not stream.filter(bug) and stream.filter(_record())     # a bug's record stays off the terminal


BUGGY = """
import sys, table.cli, table.cli.game
def broken(args):
    raise ZeroDivisionError("a bug")
table.cli.game.cmd_state = broken
sys.exit(table.cli.main(["state"]))
"""


@pytest.mark.parametrize("journal", [True, False])
def test_under_systemd_the_journal_gets_the_traceback_on_a_terminal_one_line(tmp_path: Path, journal: bool) -> None:
    """A real process: stderr is a file, which JOURNAL_STREAM names (as systemd does) or not."""
    err = tmp_path / "stderr"
    env = {k: v for k, v in os.environ.items() if k != "JOURNAL_STREAM"} | {"LANG": "C.UTF-8"}
    env.pop("LANGUAGE", None)
    env.pop("LC_ALL", None)
    with err.open("w") as fh:
        if journal:
            info = os.fstat(fh.fileno())
            env["JOURNAL_STREAM"] = f"{info.st_dev}:{info.st_ino}"
        done = subprocess.run([sys.executable, "-c", BUGGY], stderr=fh, stdout=subprocess.PIPE, env=env,
                              cwd=tmp_path, timeout=60)
    text = err.read_text(encoding="utf-8")
    assert done.returncode == 1
    assert "munchkin-table: unexpected error (ZeroDivisionError: a bug)" in text
    if journal:
        assert "ERROR table.cli: unexpected error in 'state'\nTraceback (most recent call last)" in text
        assert 'File "<string>", line 4, in broken' in text and "\nZeroDivisionError: a bug\n" in text
    else:
        assert text == "munchkin-table: unexpected error (ZeroDivisionError: a bug); run it again with -v for the details\n"
