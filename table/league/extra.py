"""The league's extra: paho-mqtt comes with ``pip install 'munchkin-table[league]'``, and a table whose
config sets ``[league]`` without it says so in one line and plays on without the league. Imports no
paho (it is what finds paho missing)."""

from __future__ import annotations

INSTALL = "pip install 'munchkin-table[league]'"
NO_PAHO = f"[league] is set but paho-mqtt is not installed: {INSTALL}"


def paho_missing(exc: ImportError) -> bool:
    """Whether ``exc`` is paho-mqtt not being installed (and not some other import failing)."""
    return (exc.name or "").split(".")[0] == "paho"
