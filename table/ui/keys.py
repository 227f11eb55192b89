"""The simulator's keyboard: F1–F5 are the five buttons, in ``drivers.events.BUTTONS`` order; F7 holds HELP.

``FKEYS`` is the label each button's key has on the simulator's strip; ``KEYS`` is the button
for pygame's name of a key. One table, for the run loop, the enroll wizard and the strip.
"""

from __future__ import annotations

from drivers.events import BUTTONS

FKEYS = {button: f"F{n}" for n, button in enumerate(BUTTONS, 1)}    # button -> "F1"
KEYS = {key.lower(): button for button, key in FKEYS.items()}       # "f1" -> button
EXPLAIN_KEY = "f7"      # a long press of HELP: the "what can I do now" panel

__all__ = ["EXPLAIN_KEY", "FKEYS", "KEYS"]
