"""Which font file the screen uses for a language.

Chinese needs a font with Simplified Chinese glyphs: Noto Sans CJK SC (face 2
of NotoSansCJK-*.ttc, from apt's fonts-noto-cjk), WenQuanYi Micro Hei (apt's
fonts-wqy-microhei), or the same Micro Hei from the PyPI package
paperang-p2-fonts-cjk, which ``./go`` installs when apt is not available.
A missing font is a log line and a fallback, never a crash.

``python -m table.fonts [LANG]`` prints the choice; ``--check zh`` exits 1 when
no CJK font is found (``./go`` uses it to decide whether to install one).
"""

from __future__ import annotations

import importlib.util
import logging
import sys
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

# (path, face index) in order of preference
CJK_FONTS = [
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", 2),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
]
LATIN_FONTS = [
    ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", 0),
    ("/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf", 0),
    ("/usr/share/fonts/truetype/freefont/FreeSansBold.ttf", 0),
]
PYPI_CJK = ("paperang_p2_fonts_cjk", "fonts/wqy-microhei.ttc", 0)


@dataclass(frozen=True)
class FontChoice:
    path: str | None        # None: pygame's built-in font (Latin only)
    index: int = 0
    has_cjk: bool = False

    def __str__(self) -> str:
        if self.path is None:
            return "pygame's built-in font"
        return f"{self.path} (face {self.index})"


def _pypi_cjk() -> tuple[str, int] | None:
    spec = importlib.util.find_spec(PYPI_CJK[0])
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / PYPI_CJK[1]
    return (str(path), PYPI_CJK[2]) if path.exists() else None


def cjk_candidates() -> list[tuple[str, int]]:
    found = [(p, i) for p, i in CJK_FONTS if Path(p).exists()]
    pypi = _pypi_cjk()
    if pypi:
        found.append(pypi)
    return found


def find_font(language: str, configured: str = "") -> FontChoice:
    """The font for ``language``: the configured file if it exists, else the best one installed."""
    if configured:
        path = Path(configured).expanduser()
        if path.exists():
            # a .ttc from Noto CJK holds SC at face 2
            index = 2 if "NotoSansCJK" in path.name or "NotoSerifCJK" in path.name else 0
            return FontChoice(str(path), index, has_cjk=language == "zh")
        log.error("configured font %s does not exist; looking for another", path)
    if language == "zh":
        found = cjk_candidates()
        if found:
            return FontChoice(found[0][0], found[0][1], has_cjk=True)
        log.error("no Chinese font found (tried %s and the paperang-p2-fonts-cjk package); "
                  "Chinese text will show as boxes: run ./go or apt-get install fonts-wqy-microhei",
                  ", ".join(p for p, _i in CJK_FONTS))
    for path, index in LATIN_FONTS:
        if Path(path).exists():
            return FontChoice(path, index)
    return FontChoice(None)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--check"]:
        lang = args[1] if len(args) > 1 else "zh"
        choice = find_font(lang)
        ok = choice.has_cjk if lang == "zh" else True
        print(f"{lang}: {choice}" if ok else f"{lang}: no suitable font")
        return 0 if ok else 1
    for lang in args or ["en", "es", "zh"]:
        print(f"{lang}: {find_font(lang)}")
    return 0


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    sys.exit(main())
