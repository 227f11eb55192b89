"""The command line speaks the user's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext
programs do); the screen keeps the config's; JSON, CSV, the ``rejected:`` lines and exit codes never
change with the locale."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from table.words import i18n
from table.words.user import _, user_language, user_translation

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.mark.parametrize(("environ", "language"), [
    ({"LANG": "es_ES.UTF-8"}, "es"),
    ({"LANG": "zh_CN.UTF-8"}, "zh"),
    ({"LANG": "zh_TW"}, "zh"),
    ({"LANG": "nl_NL.UTF-8"}, "en"),                                    # a language the table does not speak
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "pt_BR.UTF-8"}, "pt"),
    ({}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_ALL": "es_MX.UTF-8", "LANG": "zh_CN.UTF-8"}, "es"),             # LC_ALL before LANG
    ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "es_ES.UTF-8"}, "zh"),        # LC_MESSAGES before LANG
    ({"LC_ALL": "es_ES.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "es"),      # LC_ALL before LC_MESSAGES
    ({"LANGUAGE": "zh:es", "LANG": "es_ES.UTF-8"}, "zh"),                 # LANGUAGE first
    ({"LANGUAGE": "nl:es", "LANG": "en_US.UTF-8"}, "es"),                 # its first language we have
    ({"LANGUAGE": "es", "LC_ALL": "C"}, "en"),                            # ignored under the C locale
    ({"LANGUAGE": "", "LANG": "es_ES.UTF-8"}, "es"),
])
def test_the_users_language_comes_from_the_variables_in_gettexts_order(environ: dict[str, str], language: str) -> None:
    assert user_language(environ) == language


def test_the_users_language_leaves_the_screens_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    before = i18n.language()
    i18n.set_language("zh")
    try:
        assert _("Permission denied") == "Permiso denegado"
        assert user_translation().gettext("charity") != "charity"
        assert i18n.language() == "zh" and i18n._("charity") == i18n.translation_of("zh").gettext("charity")
        assert i18n._("charity") != _("charity")
    finally:
        i18n.set_language(before)


def cli(tmp_path: Path, lang: str, *argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in LOCALE} | {"LANG": lang}
    return subprocess.run([sys.executable, "-m", "table", *argv], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120, input=stdin)


def test_a_missing_config_is_answered_in_spanish_with_exit_2(tmp_path: Path) -> None:
    spanish = cli(tmp_path, "es_ES.UTF-8", "state", "--config", "missing.toml")
    assert spanish.returncode == 2 and spanish.stdout == ""
    assert spanish.stderr == ("munchkin-table: no se puede leer la configuración missing.toml: "
                              "No existe el archivo o el directorio\n")
    english = cli(tmp_path, "C.UTF-8", "state", "--config", "missing.toml")
    assert english.returncode == 2
    assert english.stderr == "munchkin-table: cannot read config missing.toml: No such file or directory\n"


def test_a_mistyped_command_is_answered_in_chinese(tmp_path: Path) -> None:
    done = cli(tmp_path, "zh_CN.UTF-8", "simulat")
    assert done.returncode == 2 and "未知命令 'simulat'" in done.stderr and "'simulate'" in done.stderr


def test_help_is_in_the_users_language(tmp_path: Path) -> None:
    done = cli(tmp_path, "es_ES.UTF-8", "cards", "--help")
    assert done.returncode == 0 and "una página imprimible para ordenar el mazo" in " ".join(done.stdout.split())


SCRIPT = "tap player-1\ntap player-2\ntap player-3\npress next\npress roll\npress undo\npress roll\n"
LANGS = ("C", "es_ES.UTF-8", "zh_CN.UTF-8")


def _config(tmp_path: Path, name: str) -> str:
    config = tmp_path / f"{name}.toml"
    config.write_text(f'[storage]\nstate_dir = "{tmp_path / name}"\n\n[display]\nlanguage = "es"\n', encoding="utf-8")
    return str(config)


def test_a_simulated_games_json_and_rejected_lines_are_the_same_in_every_locale(tmp_path: Path) -> None:
    (tmp_path / "game.txt").write_text(SCRIPT, encoding="utf-8")
    runs = [cli(tmp_path, lang, "simulate", "--config", _config(tmp_path, f"state-{n}"), "game.txt")
            for n, lang in enumerate(LANGS)]
    rejected = [[line for line in run.stderr.splitlines() if line.startswith("rejected:")] for run in runs]
    assert runs[0].returncode == 0 and '"id": "player-3"' in runs[0].stdout
    assert rejected[0] == ["rejected: 5: ROLL does nothing during kick open the door"]
    for run, lines in zip(runs[1:], rejected[1:]):
        assert (run.returncode, run.stdout, lines) == (runs[0].returncode, runs[0].stdout, rejected[0])


@pytest.mark.parametrize("argv", [("state",), ("cards", "--json"), ("cards", "checklist", "--json"), ("tags", "export"),
                                  ("history", "--json"), ("stats", "--csv")])
def test_json_and_csv_are_the_same_in_every_locale(tmp_path: Path, argv: tuple[str, ...]) -> None:
    config = _config(tmp_path, "state")
    answers = [cli(tmp_path, lang, *argv, "--config", config) for lang in LANGS]
    assert answers[0].returncode == 0 and answers[0].stdout.strip(), answers[0].stderr
    for other in answers[1:]:
        assert (other.returncode, other.stdout) == (answers[0].returncode, answers[0].stdout)
