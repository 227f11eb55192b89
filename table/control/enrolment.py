"""Enrolling a tag during play: an unknown tag opens a prompt, and tapping an enrolled copy of the
same card (or a token) binds the new tag to it."""

from __future__ import annotations

from cards.tags import is_player_token
from drivers.events import Tap
from engine.messages import msg, nmsg
from table.control.prompts import Desk, Outcome, Prompt, PromptKind

ENROLL_SECONDS = 20.0


def unknown_tag(desk: Desk, uid: str) -> Outcome:
    """An unknown tag opens a prompt: tapping an enrolled copy of the same card binds it to that card."""
    text = msg("unknown tag {uid}: tap an enrolled copy of the same card to add this tag to it; UNDO cancels", uid=uid)
    desk.feedback.refused()
    return desk.show(Prompt(PromptKind.ENROLL, text, card=uid, until=desk.now + ENROLL_SECONDS), text, accepted=False,
                     kind="refusal")


def tap(desk: Desk, prompt: Prompt, tap: Tap) -> Outcome | None:
    """The tap after an unknown tag: a known card (or token) names what the new tag stands for.
    None: the prompt had lapsed, and the tap acts as any other."""
    if prompt.until is not None and desk.now > prompt.until:
        desk.close()
        return None
    new_uid = prompt.card
    if tap.uid == new_uid:
        return desk.show(prompt, msg("that is the unknown tag {uid} again: now tap a copy that is already enrolled; "
                                     "UNDO cancels", uid=new_uid), accepted=False, kind="refusal")
    name = tap.card or desk.registry.lookup(tap.uid)
    if name is None:
        return unknown_tag(desk, tap.uid)
    if not (is_player_token(name) or name in desk.catalog):
        return desk.refuse(msg("tag {uid} names {name!r}, which is not in the card catalog", uid=tap.uid, name=name))
    desk.close()
    try:
        desk.registry.bind(new_uid, name)
    except (ValueError, OSError) as exc:
        return desk.refuse(msg("cannot add tag {uid}: {why}", uid=new_uid, why=exc))
    label = desk.catalog[name] if name in desk.catalog else desk.token_name(name)
    count = len(desk.registry.uids_of(name))
    copies = desk.catalog[name].copies if name in desk.catalog else 1
    desk.feedback.accepted()
    if count > 1:
        return desk.show(None, nmsg("tag {uid} is now {card}; {card} now has {count} tags for {copies} copy; "
                                    "tap it again to play it",
                                    "tag {uid} is now {card}; {card} now has {count} tags for {copies} copies; "
                                    "tap it again to play it", "copies",
                                    uid=new_uid, card=label, count=count, copies=copies))
    return desk.show(None, msg("tag {uid} is now {card}; tap it again to play it", uid=new_uid, card=label))
