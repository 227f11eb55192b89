"""The application: wiring, event loop, controller, journal, display and CLI."""

import os as _os

_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # pygame must not print on stdout (state JSON)


def version() -> str:
    """pyproject.toml's version, its one source: the installed package's metadata, else (a checkout
    run without installing) pyproject.toml itself, else "0+unknown"."""
    from importlib import metadata      # ~30 ms of imports: only when the version is asked for

    try:
        return metadata.version("munchkin-table")
    except metadata.PackageNotFoundError:
        pass
    import tomllib
    from pathlib import Path

    try:
        with (Path(__file__).resolve().parents[1] / "pyproject.toml").open("rb") as fh:
            return str(tomllib.load(fh)["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "0+unknown"


def __getattr__(name: str) -> str:
    """``table.__version__``, worked out on first use (PEP 562) so that importing the table stays quick."""
    if name == "__version__":
        value = version()
        globals()["__version__"] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
