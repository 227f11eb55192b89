"""The table's screens, one module each, drawn by ``table.display.Display``.

- ``kit``: colours, fitted text (``Painter``), panels and the die, shared by every screen
- ``bars``: the top bar, message line, soft keys and simulator strip around every screen
- ``setup``, ``table``, ``combat``, ``run_away``, ``game_over``: the body of each phase
- ``menus``: the prompt banner and the card and player menus drawn over the body
- ``enroll``: the enrollment wizard's screen

A screen is a module of functions taking the Display first (``draw_setup(d, view, body)``):
it draws with ``d.t`` / ``d.painter`` into ``d.window`` and records its panels in ``d.panels``
and its touch targets in ``d.hits``. A panel that should stay on the screen while its data stays
is drawn through ``d.cached(key, rect, draw)``, the key naming everything it shows; whatever is
drawn each frame over such panels clears its own area first (``d.clear``). This package imports no
pygame itself, so importing a screen module is what brings pygame in.
"""
