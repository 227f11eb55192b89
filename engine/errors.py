"""Programmer and data errors. Player mistakes are values (engine.results.Rejected)."""


class MunchkinError(Exception):
    """Root of every exception this project raises on purpose."""


class UnknownCardError(MunchkinError, KeyError):
    """A card id that the catalog does not hold."""

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0]) if self.args else "unknown card"


class CatalogError(MunchkinError, ValueError):
    """Card data that breaks the catalog's rules."""


class ReplayError(MunchkinError, ValueError):
    """A journal whose commands do not replay."""
