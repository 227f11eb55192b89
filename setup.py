"""The build hook: the wheel carries the compiled translation catalogs.

Everything else about the package is in pyproject.toml. gettext reads .mo files, and the repository
keeps only the .po sources, so building the package compiles each
table/locale/<lang>/LC_MESSAGES/*.po into the .mo beside it with Babel (a build requirement in
pyproject.toml, not a runtime one): a wheel installed alone draws every language. An editable
install (./go) compiles them in the source tree, where the table reads them.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

LOCALE = Path("table") / "locale"


def compile_catalogs(source: Path, target: Path) -> list[Path]:
    """Every ``source/<lang>/LC_MESSAGES/<domain>.po`` compiled to the same place under ``target``."""
    from babel.messages.mofile import write_mo      # a build requirement, present only while building
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(source.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=po.parent.parent.name, domain=po.stem)
        mo = target / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with mo.open("wb") as fh:
            write_mo(fh, catalog, use_fuzzy=False)
        written.append(mo)
    if not written:
        raise SystemExit(f"build: no translation catalogs under {source}")
    return written


class BuildPyWithCatalogs(build_py):
    """build_py, then the .mo files: into the build tree, or beside the .po files for an editable install."""

    def run(self) -> None:
        super().run()
        here = Path(__file__).resolve().parent
        target = here / LOCALE if self.editable_mode else Path(self.build_lib) / LOCALE
        for mo in compile_catalogs(here / LOCALE, target):
            self.announce(f"compiled {mo}", level=2)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = list(super().get_outputs(include_bytecode))
        if not self.editable_mode:
            here = Path(__file__).resolve().parent
            outputs += [str(Path(self.build_lib) / LOCALE / po.relative_to(here / LOCALE).with_suffix(".mo"))
                        for po in sorted((here / LOCALE).glob("*/LC_MESSAGES/*.po"))]
        return outputs


setup(cmdclass={"build_py": BuildPyWithCatalogs})
