"""UI: what the players see and hear; with the run loop, the only code that imports pygame.

Owns the view model built from the controller, the ``Display`` and the screens it draws, the
languages (i18n, the Babel catalogs), fonts, sound, the QR code and the simulator's picker.
Importing this package imports no pygame; a screen module does.

May import: engine, cards, drivers, table.config, table.storage, table.session and table.control.
"""
