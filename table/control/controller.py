"""The controller: reads input events in context and turns them into engine commands.

It is the only place that knows both what was tapped or pressed and what that means at this moment
of the game (who acts, what the screen asked for). The game itself, as the journal has it, is the
``GameSession``; each prompt family is its own module, reached through the tables ``PRESS`` and
``KEYS`` (``PromptKind`` -> handler). The engine says what is legal (``engine.legal``).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

from cards.tags import TagRegistry, is_player_token
from drivers.base import Clock, Feedback
from drivers.events import InputEvent, Press, ReaderStatus, Tap
from drivers.sim import NullFeedback
from engine import commands as c
from engine.cards import Catalog
from engine.game import legal_buttons
from engine.legal import Need, card_needs, may_sell, menu_holder
from engine.messages import PlayerRef, Seq, msg, word
from engine.players import default_name
from engine.events import GameEvent
from engine.results import Rejected
from engine.rules import Ruleset
from engine.state import GameState, Phase
from table.control import buttons, card_menu, choices, enrolment, explain, pads, player_menu, sale
from table.control import records as records_menu
from table.control.prompts import KEPT_OPEN, Desk, Keys, Message, Outcome, PlayerDefaults, Prompt, PromptKind, Shown
from table.control.state_json import can, standing_prompt, state_json
from table.session.describe import describe_events
from table.session.game import (RETRY_SECONDS, Damaged, EmptyButKept, GameSession, NothingToUndo, NotSaved,
                                ResumeNotice)
from table.session.history import History
from table.storage.journal import GameRecord, Journal
from table.session.facts import Records
from table.storage.facts import FactsStore
from table.storage.seats import SeatFile

log = logging.getLogger(__name__)

Handler = Callable[[Desk, Prompt, str], "Outcome | None"]

# A button while a prompt is open: its family answers; None means the button does nothing there.
PRESS: dict[PromptKind, Handler] = {
    PromptKind.CARD_MENU: card_menu.press, PromptKind.PLAYER_MENU: player_menu.press, PromptKind.SELL: sale.press,
    **{kind: choices.press for kind in (PromptKind.VALUE, PromptKind.MONSTER, PromptKind.SIDE, PromptKind.ITEM)},
    **{kind: records_menu.press for kind in records_menu.PROMPTS}}

# The soft keys while a prompt is open; None (or no entry): only UNDO, which cancels.
KEYS: dict[PromptKind, Callable[[Desk, Prompt], "Keys | None"]] = {
    PromptKind.CARD_MENU: card_menu.soft_keys, PromptKind.PLAYER_MENU: player_menu.soft_keys,
    PromptKind.SELL: sale.soft_keys,
    **{kind: choices.soft_keys for kind in (PromptKind.VALUE, PromptKind.MONSTER, PromptKind.SIDE, PromptKind.ITEM)},
    **{kind: records_menu.soft_keys for kind in records_menu.PROMPTS}}

class Controller:
    """Input in context -> commands; the ``Desk`` the prompt families act through.

    Long: it is the Desk (prompts.Desk) whole, and declares what the screen shows one attribute a line;
    what each prompt family does is in its own module already."""

    RETRY_SECONDS = RETRY_SECONDS       # how often a journal the disk refused is tried again
    # What the screen shows: setting any of these is a new revision (the run loop redraws).
    message: Shown[Message | None] = Shown()
    prompt: Shown[Prompt | None] = Shown()
    basket: Shown[list[str]] = Shown()
    acting_override: Shown[tuple[str, float] | None] = Shown()
    reader_online: Shown[bool | None] = Shown()
    reader_message: Shown[Any] = Shown()
    roll_against: Shown[int | None] = Shown()
    last_events: Shown[tuple[GameEvent, ...]] = Shown()
    pads: Shown[dict[str, pads.Pad]] = Shown()
    seats: Shown[dict[int, str]] = Shown()
    explaining: Shown[bool] = Shown()

    def __init__(self, catalog: Catalog, journal: Journal, registry: TagRegistry, clock: Clock, *,
                 ruleset: Ruleset | None = None, feedback: Feedback | None = None, token_seconds: float = 8.0,
                 players: PlayerDefaults | None = None, seed_source: Callable[[], int] | None = None,
                 wall: Callable[[], float] | None = None,
                 open_journal: Callable[[], Journal] | None = None, storage_fault: str | None = None,
                 seat_file: SeatFile | None = None) -> None:
        self.revision = 0
        self.catalog = catalog
        self.registry = registry
        self.clock = clock
        self.ruleset = ruleset or Ruleset()
        self.feedback: Feedback = feedback or NullFeedback()
        self.token_seconds = token_seconds
        self.players = players or PlayerDefaults()
        self.message: Message | None = None
        self.prompt: Prompt | None = None
        self.acting_override: tuple[str, float] | None = None
        self.forced_die: int | None = None
        self.reader_online: bool | None = None
        self.reader_message: Any = ""
        self.pads: dict[str, pads.Pad] = {}       # reader name -> its pad's state (seat, online, last tap)
        self.seat_file = seat_file
        self.seats: dict[int, str] = seat_file.load() if seat_file is not None else {}   # seat -> its pad's player
        self.seat_actor: str | None = None        # while a seat's tap is handled: the seat's player
        self.last_events: tuple[GameEvent, ...] = ()
        self.basket: list[str] = []           # items chosen for selling; NEXT sells them (never changed in place)
        self.roll_against: int | None = None       # running away: the monster the next ROLL is against
        self.explaining = False                    # the "what can I do now" panel is open (a long press of HELP)
        self.window_retry_at: float | None = None  # the window's close could not be saved: not again before this
        self.session = GameSession(catalog, journal, clock, ruleset=self.ruleset, wall=wall,
                                   seed_source=seed_source or (lambda: random.SystemRandom().randrange(2**31)),
                                   open_journal=open_journal, storage_fault=storage_fault)
        self._notice(self.session.begin())
        if not journal.read_only:       # a command that only looks shows the game, not the table's offer
            self._resume_notice()
        if storage_fault:
            self.say(msg("the game cannot be saved: {why}", why=storage_fault), "refusal")

    def _notice(self, notice: ResumeNotice | None) -> None:
        if isinstance(notice, Damaged):
            self.say(notice.report if not notice.read_only else
                     msg("{report}; 'munchkin-table run' repairs it and keeps the damaged copy", report=notice.report),
                     "refusal")
        elif isinstance(notice, EmptyButKept):
            self.say(msg("this journal holds no actions; an earlier game is kept as {file}: "
                         "'munchkin-table restore {path}' brings it back", file=notice.path.name, path=str(notice.path)),
                     "refusal")

    def _resume_notice(self) -> None:
        """The resumed game's notice, after (not instead of) what the journal had to say."""
        before = self.message
        records_menu.resume_notice(self, unclean=self.session.unclean_start)
        if before is not None and before.kind == "refusal" and self.message is not before and self.message is not None:
            self.say(Seq([before.text, self.message.text], "sentences"), "refusal")

    # ------------------------------------------------------------ the game, as the session has it

    @property
    def state(self) -> GameState:
        return self.session.state

    @property
    def game(self) -> GameRecord:
        return self.session.game

    @property
    def game_id(self) -> int:
        return self.session.game.id

    @property
    def history(self) -> History:
        return self.session.history

    @property
    def history_len(self) -> int:
        return len(self.session.history)

    @property
    def journal(self) -> Journal:
        return self.session.journal

    @property
    def records(self) -> Records:
        return self.session.facts()

    @property
    def records_store(self) -> FactsStore:
        return self.session.facts().store

    @property
    def storage_fault(self) -> Any:
        return self.session.storage_fault

    @property
    def journal_unwritable(self) -> bool:
        return self.session.unwritable

    @property
    def name_choices(self) -> list[str]:
        """The names the open name prompt steps through."""
        return list(self.prompt.choices) if self.prompt is not None else []

    @property
    def now(self) -> float:
        return self.session.now

    @property
    def token_actor(self) -> str | None:
        """The player whose token was tapped last, while their taps act for them (else None)."""
        return self.acting_override[0] if self.acting_override is not None else None

    def acting_player(self) -> str:
        if self.seat_actor is not None:
            return self.seat_actor
        if self.acting_override and self.acting_override[1] > self.now and self.state.has_player(self.acting_override[0]):
            return self.acting_override[0]
        return self.state.active_player or ""

    def token_name(self, token: str) -> Any:
        """A player token as a message names it: the player at the table, else the engine's default name."""
        if self.state.has_player(token):
            return PlayerRef(token, self.state.player(token).name)
        return PlayerRef(token, default_name(token))

    # ------------------------------------------------------------ messages

    def say(self, text: Any, kind: str = "info") -> Message:
        """Show ``text``, a ``Msg`` (translated when drawn), or a sentence from outside (a reader, a damaged file)."""
        self.message = Message(text, kind, self.now)
        if kind == "refusal":
            log.warning("refused: %s", text)
        else:
            log.info("%s", text)
        return self.message

    def refuse(self, text: Any) -> Outcome:
        message = self.say(text, "refusal")
        self.feedback.refused()
        return Outcome(False, message)

    def open(self, prompt: Prompt | None) -> None:
        """Open ``prompt`` (None: close what is open), saying nothing."""
        self.prompt = prompt

    def close(self) -> None:
        self.prompt = None

    def show(self, prompt: Prompt | None, text: Any = None, accepted: bool = True, kind: str = "info") -> Outcome:
        """Open ``prompt`` (None: close what is open) and say ``text`` (else the prompt's own)."""
        self.prompt = prompt
        said = text if text is not None else (prompt.text if prompt is not None else "")
        return Outcome(accepted, self.say(said, kind))

    def _reopened(self, reopened: bool) -> None:
        if reopened:
            self._notice(self.session.reopen_notice)
            self.say(msg("the game can be saved again and carries on"))

    # ------------------------------------------------------------ the session's outcomes as messages

    def reopen_journal(self) -> bool:
        """After a storage fault: try to open the journal for writing again; True once it works."""
        ok = self.session.reopen()
        self._reopened(ok)
        return ok

    def sync_failed(self, exc: OSError) -> bool:
        """The sync before a frame failed: the game is what the file holds (the session looks);
        whether it still is the game shown. A game taken back to what is stored says so."""
        said = self.session.sync_failed(exc)
        if said is None:
            return True
        self.prompt = None
        self.acting_override = None
        self.refuse(said)
        return False

    def start_new_game(self) -> None:
        started = self.session.start()
        if isinstance(started, NotSaved):
            self.refuse(msg("no new game: {why}", why=started.why))
            return
        self._reopened(started.reopened)
        self.prompt = None
        self.acting_override = None
        self.say(msg("new game: tap each player's token to join, then NEXT"))

    def submit(self, cmd: c.Command, *, keep_prompt: bool = False) -> Outcome:
        result = self.session.submit(cmd)
        if isinstance(result, Rejected):
            return self.refuse(result.message)
        if isinstance(result, NotSaved):
            return self.refuse(msg("not done: {why}", why=result.why))
        self._reopened(result.reopened)
        self.last_events = result.events
        text = describe_events(result.events, self.state, self.catalog)
        closed = self.prompt
        if closed is not None and closed.kind not in KEPT_OPEN and not keep_prompt:
            # an accepted action that did not answer the open prompt closes it, and says so
            self.prompt = None
            waiting = msg("no longer waiting: {prompt}", prompt=closed.text)
            text = Seq([text, waiting], "sentences") if text else waiting
        message = self.say(text, "event") if text else None
        self.feedback.accepted()
        return Outcome(True, message, result.events)

    def undo(self) -> Outcome:
        if self.prompt is not None and self.prompt.kind is PromptKind.SELL:
            self.basket = []
            return self.show(None, msg("no sale: the sales basket is empty again"))
        if self.prompt is not None:          # UNDO first closes what is open: a menu, a prompt
            return self.show(None, msg("cancelled"))
        if self.basket:
            self.basket = []
            return self.show(None, msg("the sales basket is empty again"))
        result = self.session.undo()
        if isinstance(result, NotSaved):
            if result.doctor:
                return self.refuse(msg("not undone: {why}; 'munchkin-table doctor' checks the journal", why=result.why))
            return self.refuse(msg("not undone: {why}", why=result.why))
        self._reopened(result.reopened)
        if isinstance(result, NothingToUndo):
            return self.refuse(msg("nothing to undo: this game has no actions yet"))
        self.acting_override = None
        self.feedback.accepted()
        message = self.say(msg("undone: the last action was taken back"))
        combat = self.state.combat
        if combat is not None and combat.window_until is not None:
            # The fight comes back as it was: the interference window open in full, not the window that
            # had run out (which would kill the monsters again at once). Journaled, so it lasts.
            reopened = self.submit(c.ReopenWindow(player=self.state.active_player or "", at=self.now))
            if reopened.accepted:
                message = self.say(msg("undone: the fight is back; the players win unless someone interferes "
                                       "within {seconds:g} s", seconds=self.state.ruleset.interference_seconds))
        return Outcome(True, message)

    # ------------------------------------------------------------ input

    def handle(self, event: InputEvent) -> Outcome | None:
        """React to one input event. Returns None for events that change nothing on screen.

        A fault of ours while handling it (a bug, not a player's mistake) is logged in full and
        answered like a refusal: the game stays as the journal has it, and the table keeps running.
        """
        try:
            return None if self.session.stale(event) else self._handle(event)     # made while a refused write waited
        except Exception:
            log.exception("internal error while handling %r", event)
            self.prompt = None
            self.session.as_stored()
            return self.refuse(msg("that did not work (an internal error, logged), the game is as last saved"))

    def _handle(self, event: InputEvent) -> Outcome | None:
        if isinstance(event, Tap):
            return self.handle_tap(event) if event.seat is None else pads.tap(self, event)
        if isinstance(event, Press):
            if event.held or self.explaining:
                return explain.press(self, event.button, held=event.held)
            return self.handle_press(event.button)
        if isinstance(event, ReaderStatus):
            return pads.status(self, event)
        return None             # a Release

    def handle_tap(self, tap: Tap) -> Outcome:
        self.explaining = False
        prompt = self.prompt
        if prompt is not None and prompt.kind is PromptKind.ENROLL:
            enrolled = enrolment.tap(self, prompt, tap)
            if enrolled is not None:
                return enrolled
        name = tap.card or self.registry.lookup(tap.uid)
        if name is None:
            return enrolment.unknown_tag(self, tap.uid)
        prompt = self.prompt
        if prompt is not None and prompt.kind in (PromptKind.STANDINGS, PromptKind.GAMES, PromptKind.RESUME):
            self.prompt = None          # a tap goes back to the game, and acts
        if prompt is not None and prompt.kind is PromptKind.NAME and not (
                is_player_token(name) and self.state.has_player(name)):
            self.prompt = None
        if is_player_token(name):
            return self.tap_token(name)
        if name not in self.catalog:
            return self.refuse(msg("tag {uid} names {name!r}, which is not in the card catalog", uid=tap.uid, name=name))
        return self.tap_card(name)

    def tap_token(self, token: str) -> Outcome:
        state = self.state
        if state.phase is Phase.SETUP:
            if state.has_player(token):
                return records_menu.open_names(self, token)       # choose the name from those seen before
            name, sex = self.players.names.get(token, ("", "male"))
            return self.submit(c.Join(player=token, at=self.now, name_=name, sex=sex))
        if not state.has_player(token):
            return self.refuse(msg("{token} is not in this game", token=token))
        if self.prompt is not None:
            answered = choices.tap_token(self, self.prompt, token)
            if answered is not None:
                return answered
        looted = choices.loot_from_hand(self, token)
        if looted is not None:
            return looted
        return player_menu.open_menu(self, token)

    def tap_card(self, card_id: str) -> Outcome:
        state = self.state
        card = self.catalog[card_id]
        if state.phase is Phase.GAME_OVER:
            return self.refuse(msg("the game is over; press NEXT for a new game"))
        if self.prompt is not None and self.prompt.kind is PromptKind.SELL:
            return sale.tap(self, card)       # selling on one's turn settles an item one can no longer carry too
        answered = choices.lose_item(self, card_id)
        if answered is None and self.prompt is not None:
            answered = choices.tap_card(self, self.prompt, card_id)
        if answered is None and self.prompt is None:
            answered = choices.flee_from(self, card_id)
        if answered is not None:
            return answered
        if self.prompt is not None and self.prompt.kind is PromptKind.PLAYER_MENU:
            self.prompt = None          # the menu's player plays this card (the token made them the actor)
        acting = self.acting_player()
        holder = menu_holder(state, self.catalog, acting, card_id)
        if holder is not None:
            return card_menu.open_menu(self, card_id, holder)
        self.acting_override = None
        need = card_needs(state, self.catalog, acting, card_id)
        if need is not Need.NOTHING:
            return choices.ask(self, card, acting, need)
        return self.submit(c.PlayCard(player=acting, card=card_id, at=self.now))

    # ------------------------------------------------------------ buttons

    def handle_press(self, button: str) -> Outcome:
        if button == "undo":
            return self.undo()
        if self.prompt is not None and self.prompt.kind is PromptKind.ENROLL:
            self.prompt = None          # a button means the players moved on: the unknown tag is dropped
        prompt = self.prompt
        if prompt is not None:
            handler = PRESS.get(prompt.kind)
            answered = handler(self, prompt, button) if handler is not None else None
            return answered if answered is not None else self.refuse(msg("{text}; UNDO cancels", text=prompt.text))
        free = buttons.FREE.get(button)
        if free is None:
            return self.refuse(msg("unknown button {button!r}", button=button))
        return free(self)

    def soft_keys(self) -> Keys:
        prompt = self.prompt
        if prompt is not None:
            keys = KEYS.get(prompt.kind)
            mine = keys(self, prompt) if keys is not None else None
            return mine if mine is not None else {"roll": "", "help": "", "run": "", "next": "", "undo": word("Cancel")}
        free = records_menu.setup_keys(self, legal_buttons(self.state, self.catalog))
        if not free["help"] and self.state.phase is not Phase.COMBAT and may_sell(self.state, self.state.active_player or ""):
            free = {**free, "help": "Sell"}
        return sale.with_basket(self, free)

    # ------------------------------------------------------------ time

    def deadline(self) -> float | None:
        """When the controller next needs ``tick`` even if nothing happens."""
        times = []
        if self.state.combat is not None and self.state.combat.window_until is not None:
            times.append(max(self.state.combat.window_until, self.window_retry_at or 0.0))
        if self.acting_override is not None:
            times.append(self.acting_override[1])
        if self.prompt is not None and self.prompt.until is not None:
            times.append(self.prompt.until)
        if self.session.retrying:
            times.append(self.session.retry_at)
        return min(times) if times else None

    def tick(self) -> Outcome | None:
        reopened = self.session.retry_due()
        if reopened is False:
            return None
        self._reopened(bool(reopened))
        now, outcome = self.now, None
        combat = self.state.combat
        if (combat is not None and combat.window_until is not None and now + 1e-9 >= combat.window_until
                and (self.window_retry_at is None or now + 1e-9 >= self.window_retry_at)):
            outcome = self.submit(c.ResolveCombat(player=self.state.active_player or "", at=now))
            # a close that was refused (the disk, say) is tried again on the fault's backoff, not every tick
            self.window_retry_at = None if outcome is not None and outcome.accepted else now + RETRY_SECONDS
        if self.acting_override is not None and self.acting_override[1] <= now:
            self.acting_override = None
        if self.prompt is not None and self.prompt.until is not None and self.prompt.until <= now:
            lapsed, self.prompt = self.prompt, None
            if lapsed.kind is PromptKind.ENROLL:
                self.say(msg("the unknown tag was not added"))
        return outcome

    # ------------------------------------------------------------ what the screen and the JSON read

    def state_json(self) -> dict[str, Any]:
        """The state JSON (design §4) with the open prompt, and the seats on a box with a pad at each."""
        return pads.with_seats(state_json(self, can(self)), self)

    def standing_prompt(self) -> tuple[str, Any]:
        """(kind, text) of what the game itself waits for when no prompt is open: an item to lose, a looter."""
        return standing_prompt(self)
