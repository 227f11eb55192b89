"""The package a stranger installs: a wheel built from a clean copy of the repository, installed alone
(no extras) into a fresh virtual environment, is the table and nothing of the developers' tools, knows
pyproject's version, and draws a Spanish table in Spanish (the wheel carries the compiled catalogs).

Slow (it builds a wheel and installs pygame-ce from the package index: tens of seconds), so
``./go test --quick`` leaves it out; ``./go test`` and CI run it.
"""

from __future__ import annotations

import fcntl
import gettext
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
DEVELOPERS_TOOLS = ("babel", "pytest", "pytest-xdist", "hypothesis", "selenium", "mypy", "fonttools")
EXTRAS_ONLY = ("starlette", "uvicorn", "segno", "paho-mqtt", "orjson")
# Words of the first frames of a game, in Spanish, and the English the screen must no longer show.
SPANISH = ("Jugador", "Turno", "partida")
ENGLISH = ("Player", "Turn", "strength", "the game starts", "NEXT", "UNDO")
SCRIPT = "tap player-1\ntap player-2\ntap player-3\npress next\n"

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("git") is None, reason="needs git")]


def _run(cmd: list[str], *, timeout: float = 600, **kw: object) -> subprocess.CompletedProcess[str]:
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)  # type: ignore[call-overload]
    assert out.returncode == 0, f"{' '.join(map(str, cmd))} -> {out.returncode}\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return out


def _clean_copy(dest: Path) -> Path:
    """The repository's tracked files as they are in the work tree: no .venv, no compiled .mo, no build/."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached"], cwd=ROOT, capture_output=True, check=False)
    if listed.returncode != 0:
        pytest.skip("not a git checkout: cannot tell the repository's own files from local ones")
    for name in filter(None, listed.stdout.decode().split("\0")):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    assert not list(dest.glob("table/locale/*/LC_MESSAGES/*.mo")), "compiled catalogs are not the repository's"
    return dest


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding only the wheel built from a clean copy, and what it depends on: built once
    per test run, by the first pytest-xdist worker to need it (the others wait on the lock, then use it)."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base     # the run's, above each worker's
    tmp = shared / "wheel-install"
    with (shared / "wheel-install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (tmp / "done").exists():
            shutil.rmtree(tmp, ignore_errors=True)
            _build_and_install(tmp)
            (tmp / "done").touch()
    return tmp / "venv"


def _build_and_install(tmp: Path) -> None:
    src = _clean_copy(tmp / "src")
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp / "dist"), str(src)])
    wheels = list((tmp / "dist").glob("munchkin_table-*.whl"))
    assert len(wheels) == 1, wheels
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    _run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheels[0])])


def _env(venv: Path, **extra: str) -> dict[str, str]:
    """The installed table's environment: its venv first on PATH, nothing of the repository on sys.path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}", SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy", LANGUAGE="C", LC_ALL="C.UTF-8", **extra)
    return env


def _site_table(venv: Path, tmp_path: Path) -> Path:
    out = _run([str(venv / "bin" / "python"), "-c", "import table; print(table.__file__)"],
               cwd=tmp_path, env=_env(venv))
    path = Path(out.stdout.strip()).parent
    assert venv in path.parents, f"the table came from {path}, not from the installed wheel"
    return path


def test_a_runtime_install_holds_none_of_the_developers_tools_nor_the_extras(installed: Path, tmp_path: Path) -> None:
    out = _run([str(installed / "bin" / "python"), "-m", "pip", "list", "--format=json"], cwd=tmp_path,
               env=_env(installed))
    names = {d["name"].lower().replace("_", "-") for d in json.loads(out.stdout)}
    assert "munchkin-table" in names and "pygame-ce" in names, names
    assert not names & set(DEVELOPERS_TOOLS), f"developers' tools in a runtime install: {sorted(names & set(DEVELOPERS_TOOLS))}"
    assert not names & set(EXTRAS_ONLY), f"the extras' packages without the extras: {sorted(names & set(EXTRAS_ONLY))}"


def test_the_installed_table_knows_pyprojects_version(installed: Path, tmp_path: Path) -> None:
    out = _run([str(installed / "bin" / "python"), "-c", "import table; print(table.__version__)"],
               cwd=tmp_path, env=_env(installed))
    assert out.stdout.strip() == VERSION
    cli = _run([str(installed / "bin" / "munchkin-table"), "--version"], cwd=tmp_path, env=_env(installed))
    assert VERSION in cli.stdout.split(), cli.stdout


def test_the_wheel_carries_catalogs_that_speak_spanish(installed: Path, tmp_path: Path) -> None:
    locale = _site_table(installed, tmp_path) / "locale"
    mos = sorted(p.relative_to(locale).as_posix() for p in locale.glob("*/LC_MESSAGES/munchkin_table.mo"))
    assert mos == [f"{po.parent.parent.name}/LC_MESSAGES/munchkin_table.mo"
                   for po in sorted((ROOT / "table" / "locale").glob("*/LC_MESSAGES/munchkin_table.po"))]
    es = gettext.translation("munchkin_table", locale, ["es"])
    assert es.gettext("Player {n}") == "Jugador {n}"
    assert es.gettext("Turn {n}") == "Turno {n}"
    assert es.gettext("NEXT") == "SIGUIENTE"


def _frame_text(png: Path, tmp_path: Path) -> str:
    """The words on a frame, read by tesseract: the frame scaled up and inverted to dark on light first."""
    import pygame

    image = pygame.image.load(str(png))
    big = pygame.transform.smoothscale(image, (image.get_width() * 2, image.get_height() * 2))
    light = pygame.Surface(big.get_size())
    light.fill((255, 255, 255))
    light.blit(big, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    pygame.image.save(light, str(tmp_path / "ocr.png"))
    out = _run(["tesseract", str(tmp_path / "ocr.png"), "stdout", "-l", "spa+eng", "--psm", "11"], timeout=120)
    return out.stdout


def _simulate(venv: Path, tmp_path: Path, language: str) -> tuple[Path, subprocess.CompletedProcess[str]]:
    work = tmp_path / language
    work.mkdir()
    (work / "config.toml").write_text(f'[display]\nlanguage = "{language}"\n\n[storage]\nstate_dir = "{work / "state"}"\n',
                                      encoding="utf-8")
    (work / "game.txt").write_text(SCRIPT, encoding="utf-8")
    out = _run([str(venv / "bin" / "munchkin-table"), "simulate", "game.txt", "--config", "config.toml",
                "--screenshot", "shots"], cwd=work, env=_env(venv), timeout=120)
    frames = sorted((work / "shots").glob("*.png"))
    assert len(frames) == SCRIPT.count("\n"), frames
    return frames[-1], out


def test_a_spanish_table_draws_from_the_installed_catalog(installed: Path, tmp_path: Path) -> None:
    frame, out = _simulate(installed, tmp_path, "es")
    assert "catalog" not in out.stderr, out.stderr          # "no compiled catalog for 'es' ...; showing English"
    english_frame, _ = _simulate(installed, tmp_path, "en")
    assert frame.read_bytes() != english_frame.read_bytes()


def _has_spanish_ocr() -> bool:
    if shutil.which("tesseract") is None:
        return False
    langs = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True, check=False).stdout.split()
    return "spa" in langs and "eng" in langs


@pytest.mark.skipif(not _has_spanish_ocr(), reason="needs tesseract-ocr with tesseract-ocr-spa (.ci/run installs them)")
def test_a_spanish_tables_frame_read_back_holds_spanish_and_none_of_the_english(installed: Path, tmp_path: Path) -> None:
    frame, _ = _simulate(installed, tmp_path, "es")
    text = _frame_text(frame, tmp_path)
    words = set(re.findall(r"\w+", text))
    assert all(w in words for w in SPANISH), text
    shown = [w for w in ENGLISH if re.search(rf"\b{re.escape(w)}\b", text)]
    assert not shown, f"English on a Spanish table: {shown}\n{text}"
    english_frame, _ = _simulate(installed, tmp_path, "en")
    english = _frame_text(english_frame, tmp_path)
    assert english.count("Player") >= 3, english           # the same reading finds the English where it is
