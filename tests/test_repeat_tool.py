"""tests/repeat.py: the tool that runs some tests again and again beside the rest of the suite."""

from __future__ import annotations

import pytest

from tests.repeat import main, passed, pytest as pytest_command


def test_wrong_arguments_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, said in ((["0", "tests/league"], "times: at least 1"),
                       (["3", "tests/no-such-folder"], "no such test file or folder: tests/no-such-folder"),
                       (["many", "tests/league"], "invalid int value")):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
        assert said in capsys.readouterr().err


def test_a_pass_says_how_many_tests_passed() -> None:
    assert passed("........ [100%]\n347 passed, 2 skipped in 91.02s (0:01:31)\n") == 347
    assert passed("1 failed, 12 passed in 3.1s") == 12
    assert passed("no tests ran in 0.01s") == 0


def test_each_session_has_its_own_temporary_folder_and_prints_its_summary() -> None:
    command = pytest_command(["-n", "2", "tests/league"], "/tmp/x")
    assert "--basetemp=/tmp/x/t" in command
    assert "-q" not in command      # the project's own -q alone: a second one hides the "N passed" line
