"""The tap pads: which reader is online, who sits at each seat, and a tap routed by its seat.

A box with one reader has one shared pad (``Tap.seat`` is None) and works as it always did: a tap acts
for the active player unless a token was tapped in the last few seconds. A box with a reader at every
seat (``[[reader]]`` entries) reports each tap with its seat:

* a token tapped on a seat's pad that nobody holds yet takes the seat for that token's player (and
  joins them in setup, as a token tap does); in setup, a join tapped on a pad takes that seat even if
  someone held it last game; otherwise a token on a held pad is a token tap as on the shared pad (a
  helper, a victim, the player's own menu), so choosing someone never moves them;
* a card tapped there acts for the seat's player: no token needed first;
* a refusal of such a tap names the seat: the engine's reason (a one-shot only on your own turn, a
  monster from the hand out of turn), given by the engine when it refuses the command, with the seat
  in front. No rule is copied here.

The seats are the table's, not the game's: they are kept beside the journal (``table.storage.seats``),
so a restart keeps them, and from game to game a token's seat stays its own. Undoing a join frees the
seat; a file the disk lost gives no seats, and each player taps their token on their pad again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol

from cards.tags import is_player_token
from drivers.events import ReaderStatus, Tap
from engine.messages import msg
from engine.state import Phase
from table.control.prompts import Desk, Outcome, PromptKind
from table.control.said import from_driver
from table.storage.seats import SeatFile


@dataclass(frozen=True)
class Pad:
    """What the screen shows of one reader: online or not (None: not heard from yet) and its last tap."""

    reader: str
    seat: int | None = None
    online: bool | None = None
    why: Any = ""
    last_tap: float | None = None
    last_card: str = ""


class SeatDesk(Desk, Protocol):
    """The controller as the pads see it: the Desk, the seats and pads, and its own tap and refusal."""

    pads: dict[str, Pad]
    seats: dict[int, str]
    seat_actor: str | None
    seat_file: SeatFile | None
    reader_online: bool | None
    reader_message: Any

    def handle_tap(self, tap: Tap) -> Outcome: ...


def seated(desk: SeatDesk, seat: int) -> str | None:
    """The player who holds ``seat``'s pad in this game, or None."""
    player = desk.seats.get(seat)
    return player if player is not None and desk.state.has_player(player) else None


def seat_of(desk: SeatDesk, player: str) -> int | None:
    return next((seat for seat, p in desk.seats.items() if p == player), None)


def _pad(desk: SeatDesk, reader: str, seat: int | None) -> Pad:
    return desk.pads.get(reader) or Pad(reader, seat)


def _noted(desk: SeatDesk, tap: Tap, name: str | None) -> None:
    pad = _pad(desk, tap.reader, tap.seat)
    desk.pads = {**desk.pads, tap.reader: replace(pad, seat=tap.seat, last_tap=tap.at, last_card=name or tap.uid)}


def tap(desk: SeatDesk, event: Tap) -> Outcome:
    """A tap on a seat's pad (``event.seat`` is not None)."""
    seat = event.seat
    assert seat is not None
    name = event.card or desk.registry.lookup(event.uid)
    _noted(desk, event, name)
    player = seated(desk, seat)
    if name is not None and is_player_token(name):
        # a free seat is taken by the token tapped there; in setup a join takes the seat it is tapped at
        takes = player is None or (desk.state.phase is Phase.SETUP and not desk.state.has_player(name))
        before = desk.seats
        if takes:
            desk.seats = {**{s: p for s, p in desk.seats.items() if p != name}, seat: name}
        outcome = desk.handle_tap(event)
        if takes and not desk.state.has_player(name):
            desk.seats = before                     # the join was refused: nobody took the seat
        if desk.seat_file is not None and desk.seats != before:
            desk.seat_file.save(desk.seats)
        return outcome
    if player is None and name is not None and not (desk.prompt is not None and desk.prompt.kind is PromptKind.ENROLL):
        return desk.refuse(msg("seat {seat} has no player yet: tap your token on this pad to take the seat", seat=seat))
    desk.seat_actor = player
    try:
        outcome = desk.handle_tap(event)
    finally:
        desk.seat_actor = None
    if not outcome.accepted and outcome.message is not None and outcome.message.kind == "refusal" and player:
        why = outcome.message.text
        outcome = Outcome(False, desk.say(msg("seat {seat} ({who}): {why}", seat=seat, who=desk.state.player(player),
                                              why=why), "refusal"), outcome.events)
    return outcome


def status(desk: SeatDesk, event: ReaderStatus) -> Outcome:
    """A reader went online or offline: its pad, the top bar's reader light (every pad online) and the message."""
    pad = _pad(desk, event.reader, None)
    was_online = pad.online
    reason = from_driver(event.message)
    desk.pads = {**desk.pads, event.reader: replace(pad, online=event.online, why=reason)}
    desk.reader_online = all(p.online is not False for p in desk.pads.values())
    desk.reader_message = reason
    desk.feedback.reader_online(desk.reader_online)    # the LED blinks while any pad is offline
    seat = pad.seat if pad.seat is not None else _seat_named(event.reader)
    if not event.online:
        text = reason if str(reason).startswith("reader offline") else msg("reader offline: {why}", why=reason)
        return Outcome(False, desk.say(text if seat is None else msg("seat {seat}: {why}", seat=seat, why=text),
                                       "refusal"))
    if was_online is False:
        back = msg("reader back online")
        return Outcome(True, desk.say(back if seat is None else msg("seat {seat}: {why}", seat=seat, why=back)))
    return Outcome(True, None)


def _seat_named(reader: str) -> int | None:
    """The seat of a reader named as ``drivers.seats.ReaderSpec`` names them (seat-N), before its first tap."""
    head, _, number = reader.partition("-")
    return int(number) if head == "seat" and number.isdigit() else None


def _pad_seat(pad: Pad) -> int | None:
    return pad.seat if pad.seat is not None else _seat_named(pad.reader)


def _pad_at(desk: SeatDesk, seat: int) -> Pad | None:
    return next((p for p in desk.pads.values() if _pad_seat(p) == seat), None)


def pad_of(desk: SeatDesk, player: str) -> Pad | None:
    """The pad at ``player``'s seat, for their panel; None when they hold no seat."""
    seat = seat_of(desk, player)
    if seat is None or seated(desk, seat) != player:
        return None
    return _pad_at(desk, seat) or Pad(f"seat-{seat}", seat)


def seats_json(desk: SeatDesk) -> list[dict[str, Any]] | None:
    """The state JSON's ``seats`` key: each seat pad and each seat held, in seat order; None on a box
    with only the shared pad (the key is then left out)."""
    seats = sorted({*desk.seats, *(s for p in desk.pads.values() if (s := _pad_seat(p)) is not None)})
    if not seats:
        return None
    out = []
    for seat in seats:
        pad = _pad_at(desk, seat)
        out.append({"seat": seat, "player": seated(desk, seat), "reader": pad.reader if pad else None,
                    "online": pad.online if pad else None,
                    "last_tap": ({"at": round(pad.last_tap, 3), "tag": pad.last_card}
                                 if pad is not None and pad.last_tap is not None else None)})
    return out


def with_seats(data: dict[str, Any], desk: SeatDesk) -> dict[str, Any]:
    """``data`` (the state JSON) with its ``seats`` key, where there are seats."""
    seats = seats_json(desk)
    if seats is not None:
        data["seats"] = seats
    return data
