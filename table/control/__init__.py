"""Control: input in context turned into commands.

Owns the controller (who acts, which prompt is open), the typed prompts (``prompts``: ``PromptKind``,
``Prompt``, the ``Desk`` interface the families act through) and one module per prompt family
(``card_menu``, ``player_menu``, ``choices``, ``sale``, ``enrolment``, ``records``; ``buttons`` for
the buttons when no prompt is open), the tap pads (``pads``: each reader's state, who holds each seat's
pad, a seat's tap acting for its player), the state JSON (``state_json``), and assembling a table from
its config (catalog, registry, journal, controller). It asks the engine what is legal (``engine.legal``);
it keeps no copy of a rule. The game as stored is ``table.session.game.GameSession``.

A new prompt: a ``PromptKind`` member (its string is what the state JSON says), its ``EXPECTS`` entry,
a family module with ``press(desk, prompt, button)`` and ``soft_keys(desk, prompt)``, and those two
in the controller's ``PRESS`` and ``KEYS`` tables. Taps it waits for go in the family's ``tap_*``.

May import: engine, cards, drivers, table.config, table.storage and table.session.
"""
