"""UI: what the players see and hear; with the run loop, the only code that imports pygame.

Owns the view model built from the controller, the ``Display`` (the window, the frame loop, the
die) and the ``Frame`` the screens draw on (``screens/``, which never see the Display), opening the
screen for a config (``screen``), fonts, sound, the QR
code, the simulator's picker and keys. Importing this package imports no pygame; a screen module
does. A new screen goes in ``screens/`` (see ``table.ui.display``).

May import: engine, cards, drivers, table.config, table.storage, table.session, table.control and
table.words (the words shown) and table.league (the league board's data).
"""
