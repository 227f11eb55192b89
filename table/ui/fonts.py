"""Which font file the screen uses for a language.

Chinese needs a font with Simplified Chinese glyphs: Noto Sans CJK SC (face 2
of NotoSansCJK-*.ttc, from apt's fonts-noto-cjk) or WenQuanYi Micro Hei (apt's
fonts-wqy-microhei), which ``./go`` installs where it may use apt; else the
subset of Noto Sans SC that ships in table/assets/fonts (every character of the
catalogs and the card names, and the common hanzi of GB 2312 for players' names),
under its licence, the SIL Open Font License (OFL.txt beside it).
A missing font is a log line and a fallback, never a crash.

``python -m table.ui.fonts [LANG]`` prints the choice; ``--check zh`` exits 1 when
no CJK font is found, ``--check-system zh`` when no distribution font is
(``./go`` uses it to decide whether to install one); ``subset`` rebuilds the
shipped subset from an installed Noto Sans CJK (needs fontTools, a development
dependency).
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass
from pathlib import Path

from cards.names import shipped_path
from table.words.catalogs import po_path

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
ASSETS = Path(__file__).resolve().parents[1] / "assets" / "fonts"
SHIPPED_CJK = (str(ASSETS / "NotoSansSC-Bold-subset.otf"), 0)


@dataclass(frozen=True)
class FontChoice:
    path: str | None        # None: pygame's built-in font (Latin only)
    index: int = 0
    has_cjk: bool = False

    def __str__(self) -> str:
        if self.path is None:
            return "pygame's built-in font"
        return f"{self.path} (face {self.index})"


def cjk_candidates() -> list[tuple[str, int]]:
    found = [(p, i) for p, i in CJK_FONTS if Path(p).exists()]
    if Path(SHIPPED_CJK[0]).exists():
        found.append(SHIPPED_CJK)
    return found


def system_cjk() -> list[tuple[str, int]]:
    """The distribution's CJK fonts that are installed."""
    return [(p, i) for p, i in CJK_FONTS if Path(p).exists()]


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
        log.error("no Chinese font found (tried %s and the shipped %s); "
                  "Chinese text will show as boxes: run ./go or apt-get install fonts-wqy-microhei",
                  ", ".join(p for p, _i in CJK_FONTS), SHIPPED_CJK[0])
    for latin, index in LATIN_FONTS:
        if Path(latin).exists():
            return FontChoice(latin, index)
    return FontChoice(None)


def subset_text() -> str:
    """Every character the Chinese screen may need: the zh catalog, the zh card names, ASCII, GB 2312's common hanzi."""
    chars = set(po_path("zh").read_text(encoding="utf-8")) | set(shipped_path("zh").read_text(encoding="utf-8"))
    chars |= {chr(c) for c in range(0x20, 0x7F)}
    chars |= set("，。、：；？！（）「」『』《》“”‘’…—·→←↑↓✓✗×÷−＋－％￥")
    for row in range(0xB0, 0xD8):                 # GB 2312 level 1: the 3,755 most common hanzi
        for cell in range(0xA1, 0xFF):
            try:
                chars.add(bytes([row, cell]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return "".join(sorted(c for c in chars if c.isprintable()))


def build_subset(source: str, index: int, target: Path) -> Path:
    """Write the subset of ``source`` (a Noto Sans CJK .ttc, SC face) that ``subset_text`` needs."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(source, fontNumber=index, lazy=False)
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=subset_text())
    subsetter.subset(font)
    target.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(target))
    return target


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["subset"]:
        source = next(((p, i) for p, i in CJK_FONTS if "NotoSansCJK-Bold" in p and Path(p).exists()), None)
        if source is None:
            print("fonts: subset needs NotoSansCJK-Bold.ttc (apt-get install fonts-noto-cjk)", file=sys.stderr)
            return 1
        out = build_subset(*source, Path(SHIPPED_CJK[0]))
        print(f"wrote {out} ({out.stat().st_size // 1024} KiB)")
        return 0
    if args[:1] == ["--check-system"]:
        return 0 if system_cjk() else 1
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
