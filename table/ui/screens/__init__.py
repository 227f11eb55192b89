"""The table's screens, one module each, drawn on a ``table.ui.frame.Frame``.

- ``kit``: colours, fitted text (``Painter``) and panels, shared by every screen
- ``die``: the die and its tumble
- ``bars``: the top bar, message line, soft keys and simulator strip around every screen
- ``setup``, ``table``, ``combat``, ``run_away``, ``game_over``: the body of each phase
- ``menus``: the prompt banner and the card and player menus drawn over the body
- ``enroll``: the enrollment wizard's screen
- ``notice``: the damage notice, drawn whole over the top of the body while it is said

A screen is a module of functions taking the Frame first (``draw_setup(f, view, body)``); it never
sees the Display. It draws with ``f.t`` / ``f.painter`` into ``f.window`` and records its panels in
``f.panels`` and its touch targets in ``f.hits``. A panel that should stay on the screen while its
data stays is drawn through ``f.cached(key, rect, draw)``, the key naming everything it shows
and ``draw`` depending on the key and the size of ``rect`` alone, not its place (a panel drawn
before comes back from the Frame's store, blitted wherever it goes now); a panel that changes in
part (the fight: its verdict, each side, its foot) is better drawn as a few panels that tile it;
whatever is drawn each frame over such panels clears its own area first (``f.clear``) or says
where it drew (``f.mark``: the moving interference bar), since a frame pushes to the glass only
the rectangles it drew. Something drawn over the panels for one frame (the die, a menu, the
banner) calls ``f.overlay(rect)``: the next frame puts back what is under it. The die's face and
tumble are ``f.die``. Screens import ``table.ui.frame`` for its type only, never the
Display, so the display imports the screens one way. This package imports no
pygame itself, so importing a screen module is what brings pygame in.
"""
