"""The application: wiring, event loop, controller, journal, display and CLI."""

import os as _os

_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # pygame must not print on stdout (state JSON)
