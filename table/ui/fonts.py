"""Which font file the screen uses for a language.

Chinese, Japanese and Korean need a font with their own glyphs (the same code points are drawn
differently in each, so each language has its face): Noto Sans CJK SC, JP or KR (faces 2, 0 and 1 of
NotoSansCJK-*.ttc, from apt's fonts-noto-cjk), or another distribution font of that language
(WenQuanYi Micro Hei for Chinese, IPA Gothic or Takao for Japanese, Nanum Gothic or Un Dotum for
Korean); else the subset of Noto Sans SC, JP or KR that ships in table/assets/fonts (every character
of that language's catalog and card names, plus the common characters players' names use: GB 2312's
level-1 hanzi, the kana and JIS X 0208's level-1 kanji, the 2,350 Hangul syllables of KS X 1001),
under its licence, the SIL Open Font License (OFL.txt beside it). Every other language (Cyrillic,
Latin accents) is drawn with DejaVu Sans or another Latin font. A missing font is a log line and a
fallback, never a crash; ``lacking`` says which characters of a catalog a font would draw as boxes.

``python -m table.ui.fonts [LANG]`` prints the choice; ``--check LANG`` exits 1 when no font drawing
that language is found, ``--check-system LANG`` when no distribution font is (``./go`` uses it to
decide whether to install one); ``subset [LANG]`` rebuilds the shipped subsets (zh, ja, ko, or the
one named) from an installed Noto Sans CJK (needs fontTools, a development dependency).
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass
from pathlib import Path

from cards.names import shipped_path
from table.words.catalogs import po_path

log = logging.getLogger(__name__)

NOTO_CJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-{}.ttc"
# the face of NotoSansCJK-*.ttc (and NotoSerifCJK) that holds each language's glyph shapes
CJK_FACE = {"ja": 0, "ko": 1, "zh": 2}

# (path, face index) in order of preference, per language
CJK_FONTS = [
    (NOTO_CJK.format("Bold"), 2),
    (NOTO_CJK.format("Regular"), 2),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
]
JA_FONTS = [
    (NOTO_CJK.format("Bold"), 0),
    (NOTO_CJK.format("Regular"), 0),
    ("/usr/share/fonts/opentype/ipafont-gothic/ipagp.ttf", 0),
    ("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf", 0),
    ("/usr/share/fonts/truetype/takao-gothic/TakaoPGothic.ttf", 0),
]
KO_FONTS = [
    (NOTO_CJK.format("Bold"), 1),
    (NOTO_CJK.format("Regular"), 1),
    ("/usr/share/fonts/truetype/nanum/NanumGothicBold.ttf", 0),
    ("/usr/share/fonts/truetype/nanum/NanumGothic.ttf", 0),
    ("/usr/share/fonts/truetype/unfonts-core/UnDotumBold.ttf", 0),
]
LATIN_FONTS = [
    ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", 0),
    ("/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf", 0),
    ("/usr/share/fonts/truetype/freefont/FreeSansBold.ttf", 0),
]
ASSETS = Path(__file__).resolve().parents[1] / "assets" / "fonts"
SHIPPED = {
    "zh": (str(ASSETS / "NotoSansSC-Bold-subset.otf"), 0),
    "ja": (str(ASSETS / "NotoSansJP-Bold-subset.otf"), 0),
    "ko": (str(ASSETS / "NotoSansKR-Bold-subset.otf"), 0),
}
SHIPPED_CJK = SHIPPED["zh"]
# what to install when a language's font is missing
PACKAGES = {"zh": "fonts-noto-cjk (or fonts-wqy-microhei)", "ja": "fonts-noto-cjk (or fonts-ipafont-gothic)",
            "ko": "fonts-noto-cjk (or fonts-nanum)"}
LATIN_PACKAGE = "fonts-dejavu-core"
NAMES = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean"}


def is_cjk(language: str) -> bool:
    """Whether ``language`` needs a font of its own (Chinese, Japanese, Korean)."""
    return language in SHIPPED


def system_fonts(language: str) -> list[tuple[str, int]]:
    """The distribution fonts that may draw ``language`` (CJK languages only), in order of preference."""
    table = {"zh": CJK_FONTS, "ja": JA_FONTS, "ko": KO_FONTS}
    return list(table.get(language, []))


@dataclass(frozen=True)
class FontChoice:
    path: str | None        # None: pygame's built-in font (Latin only)
    index: int = 0
    has_cjk: bool = False   # it draws the Chinese, Japanese or Korean it was chosen for

    def __str__(self) -> str:
        if self.path is None:
            return "pygame's built-in font"
        return f"{self.path} (face {self.index})"


def cjk_candidates(language: str = "zh") -> list[tuple[str, int]]:
    """The installed fonts for ``language`` (zh, ja, ko), then the shipped subset if it is there."""
    found = system_cjk(language)
    shipped = SHIPPED.get(language)
    if shipped and Path(shipped[0]).exists():
        found.append(shipped)
    return found


def system_cjk(language: str = "zh") -> list[tuple[str, int]]:
    """The distribution's fonts for ``language`` that are installed."""
    return [(p, i) for p, i in system_fonts(language) if Path(p).exists()]


def find_font(language: str, configured: str = "") -> FontChoice:
    """The font for ``language``: the configured file if it exists, else the best one installed."""
    if configured:
        path = Path(configured).expanduser()
        if path.exists():
            # a .ttc from Noto CJK holds each language at its own face
            cjk_ttc = "NotoSansCJK" in path.name or "NotoSerifCJK" in path.name
            index = CJK_FACE.get(language, 2) if cjk_ttc else 0
            return FontChoice(str(path), index, has_cjk=is_cjk(language))
        log.error("configured font %s does not exist; looking for another", path)
    if is_cjk(language):
        found = cjk_candidates(language)
        if found:
            return FontChoice(found[0][0], found[0][1], has_cjk=True)
        log.error("no %s font found (tried %s and the shipped %s); %s text will show as boxes: "
                  "run ./go or apt-get install %s", NAMES[language],
                  ", ".join(p for p, _i in system_fonts(language)), SHIPPED[language][0], NAMES[language],
                  PACKAGES[language])
    for latin, index in LATIN_FONTS:
        if Path(latin).exists():
            return FontChoice(latin, index)
    return FontChoice(None)


def install_hint(language: str) -> str:
    """The distribution package that draws ``language``."""
    return PACKAGES.get(language, LATIN_PACKAGE)


def catalog_characters(language: str) -> set[str]:
    """Every character the translations of ``language``'s catalog use (none without a catalog)."""
    path = po_path(language)
    if not path.exists():
        return set()
    chars: set[str] = set()
    in_msgstr = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("msgstr"):
            in_msgstr = True
            line = line.partition(" ")[2]
        elif not line.startswith('"'):
            in_msgstr = False
        if in_msgstr and line.startswith('"'):
            chars.update(line[1:-1].replace('\\"', '"').replace("\\n", "").replace("\\\\", "\\"))
    return {c for c in chars if c.isprintable()}


def lacking(choice: FontChoice, characters: set[str]) -> str:
    """The characters of ``characters`` that ``choice`` has no glyph for (they would show as boxes)."""
    import pygame.freetype           # only when asked: the choice itself needs no font loaded

    if not pygame.freetype.get_init():
        pygame.freetype.init()
    try:
        font = pygame.freetype.Font(choice.path, 16, font_index=choice.index)
    except (OSError, pygame.error):
        return "".join(sorted(c for c in characters if not c.isspace()))
    return "".join(sorted(c for c in characters if not c.isspace() and font.get_metrics(c)[0] is None))


def _common(language: str) -> set[str]:
    """The characters players' names most often use beyond the catalog, by language."""
    chars: set[str] = set()
    if language == "zh":
        rows, encoding = range(0xB0, 0xD8), "gb2312"      # GB 2312 level 1: the 3,755 most common hanzi
        chars |= set("，。、：；？！（）「」『』《》“”‘’…—·→←↑↓✓✗×÷−＋－％￥")
    elif language == "ja":
        rows, encoding = range(0xB0, 0xD0), "euc_jp"      # JIS X 0208 level 1: 2,965 kanji
        chars |= {chr(c) for c in range(0x3041, 0x3097)} | {chr(c) for c in range(0x30A1, 0x30FF)}
        chars |= set("、。・ー〜「」『』（）！？：；…―→←↑↓×％￥　")
    else:
        rows, encoding = range(0xB0, 0xC9), "euc_kr"      # KS X 1001: the 2,350 Hangul syllables
        chars |= {chr(c) for c in range(0x3131, 0x318F)}  # the compatibility jamo
        chars |= set("·…→←↑↓×％「」『』（）！？：；～")
    for row in rows:
        for cell in range(0xA1, 0xFF):
            try:
                chars.add(bytes([row, cell]).decode(encoding))
            except UnicodeDecodeError:
                pass
    return chars


def subset_text(language: str = "zh") -> str:
    """Every character the ``language`` screen may need: its catalog and card names, ASCII, common characters."""
    chars = catalog_characters(language) | _common(language) | {chr(c) for c in range(0x20, 0x7F)}
    names = shipped_path(language)
    if names.exists():
        chars |= set(names.read_text(encoding="utf-8"))
    return "".join(sorted(c for c in chars if c.isprintable()))


def build_subset(source: str, index: int, target: Path, language: str = "zh") -> Path:
    """Write the subset of ``source`` (a Noto Sans CJK .ttc, ``language``'s face) that ``subset_text`` needs."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(source, fontNumber=index, lazy=False)
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=subset_text(language))
    subsetter.subset(font)
    target.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(target))
    return target


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["subset"]:
        source = NOTO_CJK.format("Bold")
        if not Path(source).exists():
            print("fonts: subset needs NotoSansCJK-Bold.ttc (apt-get install fonts-noto-cjk)", file=sys.stderr)
            return 1
        for lang in args[1:] or list(SHIPPED):
            out = build_subset(source, CJK_FACE[lang], Path(SHIPPED[lang][0]), lang)
            print(f"wrote {out} ({out.stat().st_size // 1024} KiB)")
        return 0
    if args[:1] == ["--check-system"]:
        return 0 if system_cjk(args[1] if len(args) > 1 else "zh") else 1
    if args[:1] == ["--check"]:
        lang = args[1] if len(args) > 1 else "zh"
        choice = find_font(lang)
        ok = choice.has_cjk if is_cjk(lang) else True
        print(f"{lang}: {choice}" if ok else f"{lang}: no suitable font")
        return 0 if ok else 1
    for lang in args or ["en", "es", "zh", "ja", "ko"]:
        print(f"{lang}: {find_font(lang)}")
    return 0


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    sys.exit(main())
