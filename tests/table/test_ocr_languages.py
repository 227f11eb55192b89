"""The table in each language, read at the glass: a scripted game's frames, saved by
``munchkin-table simulate --screenshot`` (SDL's dummy driver) at the 7" panel's 800x480, read back by tesseract in that language, hold words of the language's catalog and none
of the screen's English vocabulary (the English messages' words, but for card names, which stay
English where a deck has no translated name, and words the language itself uses).

Needs tesseract and its language pack (Debian: tesseract-ocr-deu, -fra, -ita, -por, -rus, -pol,
-jpn, -kor, -spa, -chi-sim); a language without one is skipped, saying which package is missing.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pygame
import pytest

from cards.loader import load_catalog
from table.cli import main
from table.config import LANGUAGES
from table.ui.scenes import SCENES
from table.words import catalogs

from tests.table.test_screens_language import catalog_texts

TESSERACT = {"es": "spa", "zh": "chi_sim", "de": "deu", "fr": "fra", "it": "ita", "pt": "por",
             "ru": "rus", "pl": "pol", "ja": "jpn", "ko": "kor"}
NOT_LATIN = ("zh", "ja", "ko")            # written without Latin letters: read by characters, not words
# The 7" panel: where the type is smallest and the words must fit (the screens at every size are held
# to the same words, drawn, by tests/table/test_screens_language.py and test_display_i18n.py).
SIZES = [(800, 480)]
GAME = ("run-away", "sales-basket", "charity", "game-over")     # joining, gear, a fight, running, selling, the end
PER_SCENE = 4                              # frames read of each scene, spread over it, its last among them


@cache
def _installed() -> frozenset[str]:
    if shutil.which("tesseract") is None:
        return frozenset()
    listed = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True, check=False)
    return frozenset(line.strip() for line in (listed.stdout + listed.stderr).splitlines()[1:])


def _words(text: str, lang: str) -> set[str]:
    """The words (lower case, 4 letters or more) of ``text``, placeholders left out; for a language
    without Latin letters, its two-character runs instead."""
    text = re.sub(r"\{[^}]*\}", " ", text)
    if lang in NOT_LATIN:
        runs = re.findall(r"[^\W\d_A-Za-z]{2,}", text)
        return {run[i:i + 2] for run in runs for i in range(len(run) - 1)}
    return {w.lower() for w in re.findall(r"[^\W\d_]{4,}", text)}


@cache
def _vocabulary(lang: str) -> tuple[frozenset[str], frozenset[str]]:
    """(words of ``lang``'s catalog, English words of the screen that ``lang`` never uses)."""
    own: set[str] = set()
    english: set[str] = set()
    for ids, strings in catalog_texts(lang):
        for text in ids:
            english |= {w.lower() for w in re.findall(r"[A-Za-z]{4,}", re.sub(r"\{[^}]*\}", " ", text))}
        for text in strings:
            own |= _words(text, lang)
    cards = load_catalog()
    names = {w.lower() for card in cards.values() for w in re.findall(r"[A-Za-z]+", f"{card.name} {card.id}")}
    latin_own = {w for w in own if re.fullmatch(r"[a-z]+", w)}
    technical = {"uart", "gpio", "ntag", "mfrc522", "pn532"}
    return frozenset(own - english), frozenset(english - latin_own - names - technical)


def _frames(tmp_path: Path, lang: str, size: tuple[int, int]) -> list[Path]:
    config = tmp_path / f"{lang}-{size[0]}.toml"
    config.write_text(f'[display]\nlanguage = "{lang}"\nwidth = {size[0]}\nheight = {size[1]}\nsound = false\n',
                      encoding="utf-8")
    frames: list[Path] = []
    for scene in GAME:
        script = tmp_path / f"{scene}.txt"
        script.write_text(SCENES[scene], encoding="utf-8")
        shots = tmp_path / f"{lang}-{size[0]}x{size[1]}" / scene
        assert main(["simulate", str(script), "--screenshot", str(shots), "--config", str(config)]) == 0
        taken = sorted(shots.glob("*.png"))
        assert taken, f"simulate saved no frame of {scene}"
        step = max(1, len(taken) // PER_SCENE)
        frames += sorted({*taken[step - 1::step][:PER_SCENE - 1], taken[-1]})
    return frames


def _dark_on_light(png: Path) -> Path:
    """The frame inverted, as tesseract reads best: it then reads the same words as from the frame
    itself (checked on de, ja and ru) in 3.4 s instead of 5.7, without trying each line inverted."""
    frame = pygame.image.load(str(png))
    inverted = pygame.Surface(frame.get_size())
    inverted.fill((255, 255, 255))
    inverted.blit(frame, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    out = png.with_name(f"{png.stem}-inverted.png")
    pygame.image.save(inverted, str(out))
    return out


SURE = 50      # tesseract's confidence (0-100) below which a word is noise: "does" read out of a small card name at 2


def _read(pngs: list[Path], lang: str, tmp_path: Path) -> dict[Path, str]:
    """The words tesseract reads in each of ``pngs`` with some confidence, one line each: one tesseract
    for them all (its language model loaded once), its TSV rows told apart by their page number."""
    listing = tmp_path / f"frames-{lang}.txt"
    listing.write_text("".join(f"{_dark_on_light(png)}\n" for png in pngs), encoding="utf-8")
    # One thread: OpenMP's threads make a frame take ~7 s instead of ~1 s on a busy machine.
    done = subprocess.run(["tesseract", str(listing), "-", "-l", TESSERACT[lang], "tsv"], capture_output=True, text=True,
                          check=False, timeout=600, env={**os.environ, "OMP_THREAD_LIMIT": "1"})
    assert done.returncode == 0, done.stderr
    words: dict[Path, list[str]] = {png: [] for png in pngs}
    for row in done.stdout.splitlines()[1:]:
        cells = row.split("\t")
        if len(cells) == 12 and cells[11].strip() and float(cells[10]) >= SURE:
            words[pngs[int(cells[1]) - 1]].append(cells[11])
    return {png: "\n".join(read) for png, read in words.items()}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_glass_in_each_language_holds_its_words_and_no_english(tmp_path: Path, capsys, lang: str) -> None:
    if not catalogs.po_path(lang).exists():
        pytest.skip(f"no {lang} catalog in this tree (the catalogs check fails for it)")
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed (apt-get install tesseract-ocr)")
    if TESSERACT[lang] not in _installed():
        pytest.skip(f"tesseract cannot read {lang}: apt-get install tesseract-ocr-{TESSERACT[lang].replace('_', '-')}")
    own, english = _vocabulary(lang)
    assert len(own) > 200 and len(english) > 200
    for size in SIZES:
        frames = _frames(tmp_path, lang, size)
        capsys.readouterr()                         # the state JSON simulate prints
        seen: set[str] = set()
        found: dict[str, list[str]] = {}
        for png, read in _read(frames, lang, tmp_path).items():
            seen |= _words(read, lang) & own
            latin = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", read)}
            for word in sorted(latin & english):
                found.setdefault(word, []).append(f"{png.parent.name}/{png.name}")
        assert len(frames) >= 3 * len(GAME)
        assert len(seen) >= 25, f"{lang} {size}: only {sorted(seen)} of the catalog's words read in {len(frames)} frames"
        assert not found, f"{lang} {size}: English words on the screen: {found}"
