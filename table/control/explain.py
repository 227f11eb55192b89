"""The "what can I do now?" panel: a long press of HELP opens it, any press closes it.

What it lists is the state JSON's ``can`` (``state_json.can``): the engine's own answers, and the
open prompt's. A real button reports a long press as the press (which acts at once, as every press
does) and then the hold; a prompt that first press of HELP opened (asking for a helper, the sales
basket) is closed again, since the player wanted the panel.
"""

from __future__ import annotations

from table.control.prompts import Desk, Outcome, PromptKind

# The prompts a press of HELP opens.
HELP_OPENS = frozenset({PromptKind.HELPER, PromptKind.SELL})


def press(desk: Desk, button: str, *, held: bool) -> Outcome | None:
    """A held button, or any press while the panel is open: HELP held opens the panel; any other hold
    does nothing more (its press acted already); a press while it is open closes it, and only that."""
    if not held:
        desk.explaining = False
        return Outcome(True, None, ())
    if button != "help":
        return None
    if desk.prompt is not None and desk.prompt.kind in HELP_OPENS:
        desk.close()
        desk.message = None             # it asked for what that prompt wanted
    desk.explaining = True
    return Outcome(True, None, ())
