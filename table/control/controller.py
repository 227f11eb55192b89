"""The controller: reads input events in context and turns them into engine commands.

It is the only place that knows both what was tapped or pressed and what that
means at this moment of the game (who acts, what the screen asked for). Every
accepted command is written to the journal before the state changes, so what
the screen shows has always been stored.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from cards.tags import TagRegistry, is_player_token
from drivers.base import Clock, Feedback
from drivers.events import InputEvent, Press, ReaderStatus, Release, Tap
from drivers.said import Said
from drivers.sim import NullFeedback
from engine import commands as c
from engine.card_menu import big_item_receivers
from engine.cards import Catalog, CardDef, Kind
from engine.items import BIG_LIMIT
from engine.game import apply, legal_buttons, next_command
from engine.messages import Msg, PlayerRef, Seq, msg, nmsg, word
from engine.results import Accepted, Event, Rejected, RejectCode
from engine.serialize import standing_prompt_json, state_to_json
from engine.state import GameState, Phase
from engine.rules import Ruleset
from table.session.describe import describe_events
from table.session.history import SNAPSHOT_EVERY, Commands, History, encode_state, fingerprint
from table.control.said import from_driver
from table.storage.faults import JournalError
from table.storage.journal import GameRecord, Journal
from table.storage.repair import kept_copies
from table.control import records as records_menu
from table.session.facts import Records
from table.storage.facts import FactsStore

log = logging.getLogger(__name__)


@dataclass
class Message:
    text: str
    kind: str = "info"          # info | refusal | event
    at: float = 0.0


@dataclass
class Prompt:
    """The screen is waiting for a particular tap (a helper, a victim) or shows a card menu."""

    kind: str                   # "helper" | "victim" | "target" | "item" | "value" | "card-menu" | "enroll"
    text: str
    card: str = ""
    player: str = ""
    until: float | None = None  # the prompt lapses at this time (enroll prompts only)
    value: int = 0              # "value" prompts: the number chosen so far


# The card menu's RUN label for an item: give it, or promise it to a helper.
GIVE_LABELS = {"give": word("Give"), "promise": word("Promise")}

# The card menu's HELP label for each ability.
ABILITY_LABELS = {"berserk": word("Berserk"), "turning": word("Turning"), "charm": word("Charm"), "flight": word("Flight"),
                  "backstab": word("Backstab"), "reroll": word("Reroll")}


def reader_reason(event: ReaderStatus) -> str:
    """A reader's reason as a message: the driver's ``Said`` keeps its template and values beside the English."""
    return from_driver(event.message)


def reason_of(exc: BaseException) -> Any:
    """What an error says: the message it was raised with, else its text."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, (Msg, Said)) else str(exc)


# Prompts an accepted action leaves open: the tapped player's own menu (it names who acts) and a tag
# being enrolled (it is about the tags, not the game).
KEPT_OPEN = ("player-menu", "enroll")

# What each prompt waits for, for the state JSON (``prompt.expects``).
EXPECTS = {"helper": "player-token", "victim": "player-token", "target": "player-token", "give": "player-token",
           "promise": "player-token", "receiver": "player-token", "item": "item", "monster": "monster",
           "value": "number", "side": "side", "card-menu": "button", "player-menu": "card-or-button",
           "sell": "card-or-next", "enroll": "tag"}

# What a card needs besides being tapped, by the effect that needs it: a player's token,
# an item in play, or a number chosen with the buttons.
NEEDS_TARGET = {"steal-level", "transfer-fight"}
NEEDS_ITEM = {"take-item", "cheat"}
NEEDS_VALUE = {"set-last-roll"}
NEEDS_MONSTER = {"duplicate-monster", "replace-monster", "remove-monster"}   # when there are several


@dataclass
class Outcome:
    accepted: bool
    message: Message | None = None
    events: tuple[Event, ...] = ()


@dataclass
class PlayerDefaults:
    names: dict[str, tuple[str, str]] = field(default_factory=dict)   # token -> (name, sex)


class Controller:
    RETRY_SECONDS = 2.0         # how often a journal the disk refused is tried again
    def __init__(self, catalog: Catalog, journal: Journal, registry: TagRegistry, clock: Clock, *,
                 ruleset: Ruleset | None = None, feedback: Feedback | None = None,
                 token_seconds: float = 8.0,
                 players: PlayerDefaults | None = None, seed_source: Callable[[], int] | None = None,
                 wall: Callable[[], float] | None = None,
                 open_journal: Callable[[], Journal] | None = None, storage_fault: str | None = None) -> None:
        self.catalog = catalog
        self.journal = journal
        self.registry = registry
        self.clock = clock
        self.ruleset = ruleset or Ruleset()
        self.feedback = feedback or NullFeedback()
        self.token_seconds = token_seconds
        self.players = players or PlayerDefaults()
        self.seed_source = seed_source or (lambda: random.SystemRandom().randrange(2**31))
        self.message: Message | None = None
        self.prompt: Prompt | None = None
        self.acting_override: tuple[str, float] | None = None
        self.forced_die: int | None = None
        self.reader_online: bool | None = None
        self.reader_message = ""
        self.last_events: tuple[Event, ...] = ()
        self.basket: list[str] = []            # items chosen for selling; NEXT sells them
        self.roll_against: int | None = None   # running away: the monster the next ROLL is against
        self.revision = 0
        self.clock_offset = 0.0
        self.open_journal = open_journal
        self.storage_fault = storage_fault
        self.retry_at = 0.0
        self.wall = wall
        self.records: Records | None = None         # opened by _resume, on the journal as it ends up
        self.records_screen: dict[str, list] = {}      # the standings and past games, while shown
        self.name_choices: list[str] = []              # the names a token may take, while chosen
        self._resume()
        if not self.journal.read_only:       # a command that only looks shows the game, not the table's offer
            self._resume_notice()
        if storage_fault:
            self.retry_at = self.now + self.RETRY_SECONDS
            self.say(msg("the game cannot be saved: {why}", why=storage_fault), "refusal")

    def _resume_notice(self) -> None:
        """The resumed game's notice, after (not instead of) what the journal had to say."""
        before = self.message
        records_menu.resume_notice(self)
        if before is not None and before.kind == "refusal" and self.message is not before:
            self.say(Seq([before.text, self.message.text], "sentences"), "refusal")

    def _open_records(self) -> None:
        """The per-game facts, kept in the journal file as it is now (after any repair)."""
        journal = self.journal
        if self.records is not None:
            self.records.close()    # (a connection shared with the journal stays open)
        # looking only: share the read-only journal's connection, write nothing
        store = FactsStore.beside(journal.path, journal.db, read_only=journal.read_only)
        self.records = Records(store, self.catalog, wall=self.wall)

    # ------------------------------------------------------------ game lifecycle

    def _resume(self) -> None:
        journal = self.journal
        if journal.db is None:          # the disk refused at start: show the game read-only, retry later
            self.game = GameRecord(0, 0, self.ruleset)
            self.history = History(self.catalog, 0, self.ruleset)
            self.state = self.history.state
            self._open_records()
            return
        record = journal.latest_game()
        if record is None:
            if journal.read_only:
                record = GameRecord(0, 0, self.ruleset)
            else:
                record = journal.new_game(self.seed_source(), self.ruleset)
        self.game = record
        head, tail, total = journal.tail_commands(record.id)
        commands = Commands(tail, head, lambda: journal.head_commands(record.id, head))
        fp = fingerprint(self.catalog)
        stored = {s.seq: s.body for s in journal.snapshots(record.id, fp, len(commands))}
        self.history = History(self.catalog, record.seed, record.ruleset)
        try:
            kept = self.history.load(commands, stored)
        except JournalError as exc:        # an early action is damaged and no snapshot covers it
            log.error("%s", exc)
            journal.read_everything()
            head, tail, total = journal.tail_commands(record.id)      # now every row, checked
            commands = Commands(tail)
            self.history = History(self.catalog, record.seed, record.ruleset)
            kept = self.history.load(commands, stored)
        self.state = self.history.state
        if kept < total:
            why = f"action {kept + 1} no longer replays" if kept < len(commands) else "an action cannot be read"
            log.error("journal does not replay whole: keeping the first %d of %d actions", kept, total)
            journal.cut(record.id, kept, journal.damage.why if journal.damage else why)
        journal.forget_cache()
        if journal.damage is not None:
            report = journal.damage.report()
            self.say(report if not journal.read_only else
                     msg("{report}; 'munchkin-table run' repairs it and keeps the damaged copy", report=report),
                     "refusal")
        elif not commands:
            copies = kept_copies(journal.path)
            if copies:
                self.say(msg("this journal holds no actions; an earlier game is kept as {file}: "
                             "'munchkin-table restore {path}' brings it back", file=copies[-1].name, path=str(copies[-1])),
                         "refusal")
        # the table clock goes on from the journal's last action, whatever the machine's uptime now
        last_at = max((cmd.at for cmd in self.history.commands[-1:]), default=0.0)
        self.clock_offset = max(0.0, last_at - self.clock.monotonic())
        if not journal.read_only:
            newest = max(self.history.snapshots)
            if newest > 0 and newest not in stored:
                journal.store_snapshot(record.id, newest, fp, encode_state(self.history.snapshots[newest]))
        self._open_records()
        self.records.resume(record, self.history.commands, self.state)

    def reopen_journal(self) -> bool:
        """After a storage fault: try to open the journal for writing again; True once it works."""
        if self.open_journal is None:
            return False
        try:
            journal = self.open_journal()
        except JournalError as exc:
            self.storage_fault = reason_of(exc)
            return False
        old, self.journal = self.journal, journal
        old.close()
        self.storage_fault = None
        self._resume()
        self.say(msg("the game can be saved again and carries on"))
        return True

    @property
    def history_len(self) -> int:
        return len(self.history)

    @property
    def journal_unwritable(self) -> bool:
        return self.journal.read_only or self.journal.db is None

    def start_new_game(self) -> None:
        if self.journal_unwritable and not self.reopen_journal():
            self.refuse(msg("no new game: {why}", why=self.storage_fault))
            return
        try:
            game = self.journal.new_game(self.seed_source(), self.ruleset)
        except JournalError as exc:
            self.refuse(msg("no new game: {why}", why=reason_of(exc)))
            return
        self.records.leaving(self.state, len(self.history))    # an unfinished game stays listed, as abandoned
        self.game = game
        self.records.begin(game)
        self.history = History(self.catalog, self.game.seed, self.game.ruleset)
        self.state = self.history.state
        self.prompt = None
        self.acting_override = None
        self.say(msg("new game: tap each player's token to join, then NEXT"))

    # ------------------------------------------------------------ who acts

    @property
    def now(self) -> float:
        return self.clock.monotonic() + self.clock_offset

    def acting_player(self) -> str:
        if self.acting_override and self.acting_override[1] > self.now and self.state.has_player(self.acting_override[0]):
            return self.acting_override[0]
        return self.state.active_player or ""

    # ------------------------------------------------------------ messages

    def say(self, text: str, kind: str = "info") -> Message:
        """Show ``text``, a ``Msg`` (translated when drawn), or a sentence from outside (a reader, a damaged file)."""
        self.message = Message(text, kind, self.now)
        self.revision += 1
        if kind == "refusal":
            log.warning("refused: %s", text)
        else:
            log.info("%s", text)
        return self.message

    def refuse(self, text: str) -> Outcome:
        message = self.say(text, "refusal")
        self.feedback.refused()
        return Outcome(False, message)

    # ------------------------------------------------------------ applying commands

    def submit(self, cmd: c.Command, *, keep_prompt: bool = False) -> Outcome:
        result = apply(self.state, cmd, self.catalog)
        if isinstance(result, Rejected):
            return self.refuse(result.message)
        if self.journal_unwritable and not self.reopen_journal():
            return self.refuse(msg("not done: {why}", why=self.storage_fault))
        seq = len(self.history) + 1
        snapshot = None
        if seq % SNAPSHOT_EVERY == 0:
            snapshot = (seq, fingerprint(self.catalog), encode_state(result.state))
        try:
            self.journal.append(self.game.id, cmd, snapshot)      # durable before anything shows it
        except JournalError as exc:
            self.storage_fault = reason_of(exc)
            self.retry_at = self.now + self.RETRY_SECONDS
            return self.refuse(msg("not done: {why}", why=reason_of(exc)))
        if self.storage_fault is not None:
            self.storage_fault = None
            log.info("the journal can be written again")
        self.history.push(cmd, result.state)
        before, self.state = self.state, result.state
        self.records.accepted(len(self.history), before, result.events, self.state)
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
        if self.prompt is not None and self.prompt.kind == "sell":
            self.prompt = None
            self.basket = []
            self.revision += 1
            return Outcome(True, self.say(msg("no sale: the sales basket is empty again")))
        if self.prompt is not None:          # UNDO first closes what is open: a menu, a prompt
            self.prompt = None
            self.revision += 1
            return Outcome(True, self.say(msg("cancelled")))
        if self.basket:
            self.basket = []
            self.revision += 1
            return Outcome(True, self.say(msg("the sales basket is empty again")))
        if self.journal_unwritable and not self.reopen_journal():
            return self.refuse(msg("not undone: {why}", why=self.storage_fault))
        while True:
            try:
                if len(self.history):
                    self.history.prepare_pop()
            except JournalError as exc:
                return self.refuse(msg("not undone: {why}; 'munchkin-table doctor' checks the journal", why=reason_of(exc)))
            try:
                popped = self.journal.pop(self.game.id)
            except JournalError as exc:
                return self.refuse(msg("not undone: {why}", why=reason_of(exc)))
            if not popped:
                return self.refuse(msg("nothing to undo: this game has no actions yet"))
            last = self.history.commands[-1]
            self.state = self.history.pop()
            self.records.undone(len(self.history), self.state)
            # a reopened window belongs to the UNDO that made it: the next UNDO takes back what came before
            if not isinstance(last, c.ReopenWindow) or not self.history.commands:
                break
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
            return self._handle(event)
        except Exception:
            log.exception("internal error while handling %r", event)
            self.prompt = None
            self.state = self.history.state
            return self.refuse(msg("that did not work (an internal error, logged), the game is as last saved"))

    def _handle(self, event: InputEvent) -> Outcome | None:
        if isinstance(event, Tap):
            return self.handle_tap(event)
        if isinstance(event, Press):
            if event.held:
                # The press itself already acted when the button went down; holding it on
                # must not act a second time.
                return None
            return self.handle_press(event.button)
        if isinstance(event, ReaderStatus):
            was_online = self.reader_online
            self.reader_online = event.online
            self.reader_message = reader_reason(event)
            self.feedback.reader_online(event.online)
            self.revision += 1
            if not event.online:
                reason = reader_reason(event)
                text = reason if str(reason).startswith("reader offline") else msg("reader offline: {why}", why=reason)
                return Outcome(False, self.say(text, "refusal"))
            if was_online is False:
                return Outcome(True, self.say(msg("reader back online")))
            return Outcome(True, None)
        if isinstance(event, Release):
            return None
        return None

    def handle_tap(self, tap: Tap) -> Outcome:
        if self.prompt is not None and self.prompt.kind == "enroll":
            return self.enroll_tap(tap)
        name = tap.card or self.registry.lookup(tap.uid)
        if name is None:
            return self.unknown_tag(tap.uid)
        if self.prompt is not None and self.prompt.kind in ("standings", "games", "resume"):
            self.prompt = None          # a tap goes back to the game, and acts
        if self.prompt is not None and self.prompt.kind == "name" and not (
                is_player_token(name) and self.state.has_player(name)):
            self.prompt = None
        if is_player_token(name):
            return self.tap_token(name)
        if name not in self.catalog:
            return self.refuse(msg("tag {uid} names {name!r}, which is not in the card catalog", uid=tap.uid, name=name))
        return self.tap_card(name)

    # ------------------------------------------------------------ enrolling a tag during play

    ENROLL_SECONDS = 20.0

    def unknown_tag(self, uid: str) -> Outcome:
        """An unknown tag opens a prompt: tapping an enrolled copy of the same card binds it to that card."""
        text = msg("unknown tag {uid}: tap an enrolled copy of the same card to add this tag to it; UNDO cancels", uid=uid)
        self.prompt = Prompt("enroll", text, card=uid, until=self.now + self.ENROLL_SECONDS)
        self.revision += 1
        self.feedback.refused()
        return Outcome(False, self.say(text, "refusal"))

    def enroll_tap(self, tap: Tap) -> Outcome:
        """The tap after an unknown tag: a known card (or token) names what the new tag stands for."""
        prompt = self.prompt
        assert prompt is not None
        if prompt.until is not None and self.now > prompt.until:
            self.prompt = None
            self.revision += 1
            return self.handle_tap(tap)
        new_uid = prompt.card
        if tap.uid == new_uid:
            return Outcome(False, self.say(msg("that is the unknown tag {uid} again: now tap a copy that is already enrolled; UNDO cancels", uid=new_uid), "refusal"))
        name = tap.card or self.registry.lookup(tap.uid)
        if name is None:
            return self.unknown_tag(tap.uid)
        if not (is_player_token(name) or name in self.catalog):
            return self.refuse(msg("tag {uid} names {name!r}, which is not in the card catalog", uid=tap.uid, name=name))
        self.prompt = None
        try:
            self.registry.bind(new_uid, name)
        except (ValueError, OSError) as exc:
            return self.refuse(msg("cannot add tag {uid}: {why}", uid=new_uid, why=exc))
        label = self.catalog[name] if name in self.catalog else self.token_name(name)
        count = len(self.registry.uids_of(name))
        copies = self.catalog[name].copies if name in self.catalog else 1
        self.feedback.accepted()
        if count > 1:
            return Outcome(True, self.say(nmsg("tag {uid} is now {card}; {card} now has {count} tags for {copies} copy; "
                                               "tap it again to play it",
                                               "tag {uid} is now {card}; {card} now has {count} tags for {copies} copies; "
                                               "tap it again to play it", "copies",
                                               uid=new_uid, card=label, count=count, copies=copies)))
        return Outcome(True, self.say(msg("tag {uid} is now {card}; tap it again to play it", uid=new_uid, card=label)))

    def token_name(self, token: str) -> str:
        """A player token as a message names it: the player at the table, else "Player N"."""
        if self.state.has_player(token):
            return PlayerRef(token, self.state.player(token).name)
        return PlayerRef(token, f"Player {token.split('-')[-1]}")

    def tap_token(self, token: str) -> Outcome:
        state = self.state
        if state.phase is Phase.SETUP:
            if state.has_player(token):
                return records_menu.open_names(self, token)       # choose the name from those seen before
            name, sex = self.players.names.get(token, ("", "male"))
            return self.submit(c.Join(player=token, at=self.now, name_=name, sex=sex))
        if not state.has_player(token):
            return self.refuse(msg("{token} is not in this game", token=token))
        prompt = self.prompt
        if prompt is not None and prompt.kind == "helper":
            self.prompt = None
            return self.submit(c.AddHelper(player=state.active_player or "", helper=token, at=self.now))
        if prompt is not None and prompt.kind in ("victim", "target"):
            self.prompt = None
            return self.submit(c.PlayCard(player=prompt.player, card=prompt.card, target=token, at=self.now))
        if prompt is not None and prompt.kind in ("give", "promise"):
            self.prompt = None
            return self.submit(c.UseCard(player=prompt.player, card=prompt.card, action=prompt.kind, target=token,
                                         at=self.now))
        if prompt is not None and prompt.kind == "receiver":
            self.prompt = None
            return self.submit(c.LoseItem(player=prompt.player, card=prompt.card, target=token, at=self.now))
        if prompt is not None and prompt.kind == "side" and state.combat is not None:
            if token in state.combat.fighters:
                return self.play_on_side("players")
            return self.refuse(msg("{who} is not in the fight: ROLL helps the players, RUN the monsters, or tap a fighter's token "
                                   "or a monster", who=state.player(token)))
        until = self.now + self.token_seconds
        self.acting_override = (token, until)
        name = state.player(token).name
        self.prompt = Prompt("player-menu", msg("{who}: tap a card to play it for {who}, or use the buttons", who=state.player(token)),
                             player=token, until=until)
        self.revision += 1
        return Outcome(True, self.say(self.prompt.text))

    def press_in_player_menu(self, button: str) -> Outcome:
        """The tapped player's own menu: sex, a manual level correction, leaving the game."""
        prompt = self.prompt
        assert prompt is not None
        token, now = prompt.player, self.now
        prompt.until = now + self.token_seconds           # using the menu keeps it open
        self.acting_override = (token, prompt.until)
        if button == "roll":
            sex = "female" if self.state.player(token).sex == "male" else "male"
            return self.submit(c.SetSex(player=token, sex=sex, at=now))
        if button in ("help", "run"):
            return self.submit(c.AdjustLevel(player=token, delta=1 if button == "help" else -1, at=now))
        if button == "next":
            if not prompt.value:
                prompt.value = 1
                self.revision += 1
                return Outcome(True, self.say(msg("{who} leaves the game? NEXT again to confirm, UNDO keeps them", who=self.state.player(token))))
            self.prompt = None
            self.acting_override = None
            return self.submit(c.Leave(player=token, at=now))
        return self.refuse(msg("unknown button {button!r}", button=button))

    def tap_card(self, card_id: str) -> Outcome:
        state = self.state
        card = self.catalog[card_id]
        acting = self.acting_player()
        if state.phase is Phase.GAME_OVER:
            return self.refuse(msg("the game is over; press NEXT for a new game"))
        if self.prompt is not None and self.prompt.kind == "sell":
            return self.tap_in_sale(card)       # selling on one's turn settles an item one can no longer carry too
        loss = self.tap_item_to_lose(card_id)
        if loss is not None:
            return loss
        if self.prompt is not None and self.prompt.kind == "item":
            prompt, self.prompt = self.prompt, None
            return self.submit(c.PlayCard(player=prompt.player, card=prompt.card, item=card_id, at=self.now))
        if self.prompt is not None and self.prompt.kind == "monster" and state.combat is not None:
            fighting = [m.card for m in state.combat.monsters]
            if card_id in fighting:
                prompt, self.prompt = self.prompt, None
                return self.submit(c.PlayCard(player=prompt.player, card=prompt.card, monster=fighting.index(card_id),
                                              at=self.now))
        if self.prompt is not None and self.prompt.kind == "side" and state.combat is not None:
            if card_id in [m.card for m in state.combat.monsters]:
                return self.play_on_side("monsters")
        if (self.prompt is None and state.phase is Phase.RUN_AWAY and state.flight is not None
                and state.flight.pending and state.combat is not None):
            roller = state.flight.pending[0][0]
            left = [i for p, i in state.flight.pending if p == roller and state.combat.monsters[i].card == card_id]
            if left:        # the fleeing player chooses which monster the next roll is against
                self.roll_against = left[0]
                self.revision += 1
                return Outcome(True, self.say(msg("{who} rolls next against {card}: press ROLL", who=state.player(roller), card=card)))
        if self.prompt is not None and self.prompt.kind == "player-menu":
            self.prompt = None          # the menu's player plays this card (the token made them the actor)
        # The acting player's own copy comes first: with two Warriors at the table, each one's tap of
        # their Warrior opens their own card menu.
        mine = state.player(acting) if state.has_player(acting) else None
        if mine is not None and card_id in mine.in_play():
            holder = mine
        else:
            holder = next((p for p in state.players if card_id in p.in_play()), None)
        if holder is not None and card.copies > 1 and holder.id != acting:
            holder = None       # another copy of a card someone else has: it is played, not opened
        if holder is not None and card.kind is not Kind.GO_UP_A_LEVEL:
            self.prompt = Prompt("card-menu", msg("{card} ({who})", card=card, who=holder), card=card_id, player=holder.id)
            self.revision += 1
            return Outcome(True, self.say(msg("{card}: choose with the buttons", card=card)))
        self.acting_override = None
        if card.kind is Kind.CURSE and not (state.phase is Phase.KICK_OPEN_THE_DOOR and acting == state.active_player):
            self.prompt = Prompt("victim", msg("{card}: tap the victim's token", card=card), card=card_id, player=acting)
            self.revision += 1
            return Outcome(True, self.say(msg("{card}: tap the victim's token", card=card)))
        need = self.ask_for_what(card, acting)
        if need is not None:
            return need
        if self.needs_side(card, acting):
            self.prompt = Prompt("side", msg("{card}: for the players (ROLL) or the monsters (RUN)?", card=card),
                                 card=card_id, player=acting)
            self.revision += 1
            return Outcome(True, self.say(self.prompt.text))
        return self.submit(c.PlayCard(player=acting, card=card_id, at=self.now))

    def needs_side(self, card: CardDef, acting: str) -> bool:
        """A one-shot played by someone outside the fight may help either side: the table asks which."""
        combat = self.state.combat
        if self.state.phase is not Phase.COMBAT or combat is None or acting in combat.fighters:
            return False
        if card.kind is not Kind.ONE_SHOT or card.bonus is None:
            return False
        return not card.effects or card.effects[0].op == "kills-monster"

    def play_on_side(self, side: str) -> Outcome:
        prompt = self.prompt
        assert prompt is not None
        self.prompt = None
        return self.submit(c.PlayCard(player=prompt.player, card=prompt.card, side=side, at=self.now))

    def may_sell(self, player: str) -> bool:
        return (player == self.state.active_player
                and self.state.phase in (Phase.KICK_OPEN_THE_DOOR, Phase.LOOK_FOR_TROUBLE, Phase.CHARITY))

    def tap_in_sale(self, card: CardDef) -> Outcome:
        """While selling (HELP outside a combat): a card of the seller's, on the table or from the hand,
        goes into the basket, or out of it when tapped again."""
        state = self.state
        seller = state.active_player or ""
        mine = state.has_player(seller) and card.id in state.player(seller).in_play()
        holder = next((p for p in state.players if card.id in p.in_play()), None)
        if holder is not None and not mine and card.copies <= 1:
            return self.refuse(msg("{card} belongs to {who}; only the seller's cards are sold", card=card, who=holder))
        if card.kind not in (Kind.ITEM, Kind.ONE_SHOT) or card.gold is None:
            return self.refuse(msg("{card} has no price; tap the items to sell, NEXT sells, UNDO cancels", card=card))
        if card.id in self.basket:
            self.basket.remove(card.id)
        else:
            self.basket.append(card.id)
        self.revision += 1
        return Outcome(True, self.say(self.basket_text()))

    def basket_text(self) -> str:
        if not self.basket:
            return msg("the sales basket is empty: tap the items to sell, from the table or the hand")
        gold = sum(self.catalog[i].gold or 0 for i in self.basket)
        return msg("to sell: {cards} ({gold} gold); NEXT sells, UNDO empties the basket",
                   cards=Seq(self.catalog[i] for i in self.basket), gold=gold)

    def ask_for_what(self, card: CardDef, acting: str) -> Outcome | None:
        """A prompt for the token, item or number that ``card`` needs, or None when it needs nothing."""
        ops = {e.op for e in card.effects}
        combat = self.state.combat
        if (combat is not None and len(combat.monsters) > 1
                and (card.kind is Kind.MONSTER_ENHANCER or ops & NEEDS_MONSTER)):
            self.prompt = Prompt("monster", "", card=card.id, player=acting, value=len(combat.monsters) - 1)
            self.prompt.text = self.monster_prompt_text()
        elif ops & NEEDS_TARGET:
            self.prompt = Prompt("target", msg("{card}: tap the player's token", card=card), card=card.id, player=acting)
        elif ops & NEEDS_ITEM:
            self.prompt = Prompt("item", msg("{card}: tap the item", card=card), card=card.id, player=acting)
        elif ops & NEEDS_VALUE:
            self.prompt = Prompt("value", msg("{card}: ROLL sets the number, NEXT uses it", card=card), card=card.id,
                                 player=acting, value=6)
        else:
            return None
        self.revision += 1
        return Outcome(True, self.say(self.prompt.text))

    def prompt_json(self) -> dict | None:
        """What the table waits for, for the state JSON: the open prompt, else what the game itself waits
        for (an item to lose, a looter, a wandering monster), else None."""
        prompt = self.prompt
        if prompt is None or (prompt.until is not None and prompt.until <= self.now):
            return standing_prompt_json(self.state)
        data: dict = {"kind": prompt.kind, "player": prompt.player or self.acting_player() or None,
                      "card": prompt.card or None, "expects": EXPECTS.get(prompt.kind, "button"),
                      "text": prompt.text}
        if prompt.kind == "helper":
            data["player"] = self.state.active_player
        if prompt.kind == "enroll":
            data["card"] = None
            data["uid"] = prompt.card
        if prompt.kind in ("value", "monster"):
            data["value"] = prompt.value
        if prompt.kind == "sell":
            data["basket"] = list(self.basket)
        return data

    def state_json(self) -> dict:
        """The state JSON (design §4) with the open prompt."""
        data = state_to_json(self.state, self.catalog)
        data["prompt"] = self.prompt_json()
        return data

    def standing_prompt(self) -> tuple[str, str]:
        """(kind, text) of what the game itself waits for when no prompt is open: an item to lose, a looter."""
        state = self.state
        loss = state.pending_loss
        if loss is not None and state.has_player(loss.player):
            name = state.player(loss.player)
            if loss.source == "big-item-limit":
                return "loss", msg("{who} has too many Big items: tap the one that goes to the lowest-level player, "
                                   "or sell it", who=name)
            source = self.catalog[loss.source] if loss.source in self.catalog else loss.source
            return "loss", msg("{who}: tap the item to lose ({source})", who=name, source=source)
        loot = state.looting
        if loot and loot.get("waiting") and loot.get("items"):
            body = self.token_name(loot["body"])
            who = self.token_name(loot["waiting"][0])
            return "looting", msg("looting {who}'s body: {who2} picks next (tap the token, then the item)", who=body, who2=who)
        return "", ""

    def monster_prompt_text(self) -> str:
        prompt, combat = self.prompt, self.state.combat
        assert prompt is not None and combat is not None
        chosen = self.catalog[combat.monsters[prompt.value].card]
        return msg("{card}: tap the monster it is for, or ROLL to choose and NEXT ({monster}, {i} of {n})",
                   card=self.catalog[prompt.card], monster=chosen, i=prompt.value + 1, n=len(combat.monsters))

    def press_in_monster_prompt(self, button: str) -> Outcome:
        prompt, combat = self.prompt, self.state.combat
        assert prompt is not None
        if combat is None:
            self.prompt = None
            return self.refuse(msg("the combat is over"))
        if button == "roll":
            prompt.value = (prompt.value + 1) % len(combat.monsters)
            prompt.text = self.monster_prompt_text()
            return Outcome(True, self.say(prompt.text))
        if button == "next":
            self.prompt = None
            return self.submit(c.PlayCard(player=prompt.player, card=prompt.card, monster=prompt.value, at=self.now))
        return self.refuse(msg("{button} does nothing here: ROLL chooses the monster, NEXT confirms, UNDO cancels", button=word(button.upper())))

    def press_in_value_prompt(self, button: str) -> Outcome:
        prompt = self.prompt
        assert prompt is not None
        if button == "roll":
            prompt.value = prompt.value % 6 + 1
            self.revision += 1
            return Outcome(True, self.say(msg("{card}: {n}; NEXT uses it", card=self.catalog[prompt.card], n=prompt.value)))
        if button == "next":
            self.prompt = None
            return self.submit(c.PlayCard(player=prompt.player, card=prompt.card, value=prompt.value, at=self.now))
        return self.refuse(msg("{button} does nothing here: ROLL sets the number, NEXT uses it, UNDO cancels", button=word(button.upper())))

    def soft_keys(self) -> dict[str, str]:
        if self.prompt is not None and self.prompt.kind == "card-menu":
            player = self.state.player(self.prompt.player)
            card = self.catalog[self.prompt.card]
            toggle = word("Unequip") if card.id in player.equipped else (word("Equip") if card.id in player.carried else "")
            help_label = ""
            if card.kind in (Kind.RACE, Kind.CLASS):
                ability = self.ABILITY_BY_PHASE.get((card.id, self.state.phase), "")
                help_label = ABILITY_LABELS.get(ability, "")
            elif card.kind in (Kind.ITEM, Kind.ONE_SHOT) and card.id not in self.basket:
                help_label = word("Sell")
            run_label = word("Don't sell") if card.id in self.basket else ""
            if not run_label and card.kind is Kind.ITEM:
                run_label = GIVE_LABELS[self.give_action(player.id)]
            return {"roll": toggle, "help": help_label, "run": run_label, "next": word("Discard"), "undo": word("Back")}
        if self.prompt is not None and self.prompt.kind == "value":
            return {"roll": f"{self.prompt.value % 6 + 1}", "help": "", "run": "", "next": msg("Use {n}", n=self.prompt.value),
                    "undo": word("Cancel")}
        if self.prompt is not None and self.prompt.kind == "monster":
            return {"roll": word("Next monster"), "help": "", "run": "", "next": word("This one"), "undo": word("Cancel")}
        if self.prompt is not None and self.prompt.kind == "side":
            return {"roll": word("For the players"), "help": "", "run": word("For the monsters"), "next": "",
                    "undo": word("Cancel")}
        if self.prompt is not None and self.prompt.kind == "sell":
            gold = sum(self.catalog[c_].gold or 0 for c_ in self.basket)
            return {"roll": "", "help": "", "run": "", "next": msg("Sell {gold} gold", gold=gold), "undo": word("Cancel")}
        if self.prompt is not None and self.prompt.kind == "player-menu" and self.state.has_player(self.prompt.player):
            p = self.state.player(self.prompt.player)
            leave = word("Leave: sure?") if self.prompt.value else word("Leave game")
            make = word("Make female") if p.sex == "male" else word("Make male")
            return {"roll": make, "help": word("Level +1"), "run": word("Level −1"), "next": leave, "undo": word("Back")}
        mine = records_menu.soft_keys(self)
        if mine is not None:
            return mine
        if self.prompt is not None:
            return {"roll": "", "help": "", "run": "", "next": "", "undo": word("Cancel")}
        keys = records_menu.setup_keys(self, legal_buttons(self.state, self.catalog))
        if not keys["help"] and self.state.phase is not Phase.COMBAT and self.may_sell(self.state.active_player or ""):
            keys = {**keys, "help": "Sell"}
        if self.basket:
            gold = sum(self.catalog[c_].gold or 0 for c_ in self.basket)
            keys = {**keys, "next": msg("Sell {gold} gold", gold=gold), "undo": word("Empty basket")}
        return keys

    def handle_press(self, button: str) -> Outcome:
        state = self.state
        now = self.now
        if button == "undo":
            return self.undo()
        if self.prompt is not None and self.prompt.kind == "enroll":
            self.prompt = None          # a button means the players moved on: the unknown tag is dropped
        if self.prompt is not None and self.prompt.kind in records_menu.PROMPTS:
            return records_menu.press(self, button)
        if self.prompt is None and state.phase is Phase.SETUP and button in ("help", "run") and not self.basket:
            return records_menu.open_screen(self, "standings" if button == "help" else "games")
        if self.prompt is not None and self.prompt.kind == "value":
            return self.press_in_value_prompt(button)
        if self.prompt is not None and self.prompt.kind == "monster":
            return self.press_in_monster_prompt(button)
        if self.prompt is not None and self.prompt.kind == "player-menu":
            return self.press_in_player_menu(button)
        if self.prompt is not None and self.prompt.kind == "side" and button in ("roll", "run"):
            return self.play_on_side("players" if button == "roll" else "monsters")
        if self.prompt is not None and self.prompt.kind == "sell" and button == "next":
            self.prompt = None
            if not self.basket:
                return self.refuse(msg("the sales basket is empty: nothing sold"))
            return self.sell_basket()
        if self.prompt is not None and self.prompt.kind == "card-menu" and button in ("help", "run"):
            return self.card_menu_extra(button)
        if self.prompt is not None and self.prompt.kind == "card-menu":
            prompt = self.prompt
            player = state.player(prompt.player)
            if button == "roll":
                action = "unequip" if prompt.card in player.equipped else "equip"
            elif button == "next":
                action = "discard"
            else:
                return self.refuse(msg("{button} does nothing in the card menu; UNDO goes back", button=word(button.upper())))
            self.prompt = None
            return self.submit(c.UseCard(player=player.id, card=prompt.card, action=action, at=now))
        if self.prompt is not None:
            return self.refuse(msg("{text}; UNDO cancels", text=self.prompt.text))
        acting = self.acting_player()
        if button == "roll":
            forced, self.forced_die = self.forced_die, None
            if state.phase is Phase.SETUP:
                return self.submit(c.ChooseFirstPlayer(player=acting, at=now, forced=forced))
            if state.phase is Phase.RUN_AWAY and state.flight is not None and state.flight.pending:
                roller = state.flight.pending[0][0]
                against, self.roll_against = self.roll_against, None
                pending = state.flight.pending
                monster = against if against is not None and (roller, against) in pending else -1
                return self.submit(c.Roll(player=roller, at=now, forced=forced, monster=monster))
            if state.phase is Phase.RUN_AWAY:
                self.forced_die = forced
                waiting = self.standing_prompt()[1]
                return self.refuse(waiting or msg("no run-away roll is left"))     # what the table waits for
            self.forced_die = forced
            return self.refuse(msg("ROLL does nothing during {phase}", phase=state.phase))
        if button == "help":
            if state.phase is not Phase.COMBAT and self.may_sell(state.active_player or ""):
                self.prompt = Prompt("sell", msg("selling: tap the items to sell, from the table or the hand"),
                                     player=state.active_player or "")
                self.revision += 1
                return Outcome(True, self.say(self.prompt.text))
            if state.phase is not Phase.COMBAT:
                return self.refuse(msg("HELP is for asking for help in a combat, or for selling on your own turn"))
            if state.combat and state.combat.helper:
                return self.refuse(msg("{helper} is already helping", helper=state.player(state.combat.helper)))
            self.prompt = Prompt("helper", msg("tap the helper's token"))
            self.revision += 1
            return Outcome(True, self.say(msg("tap the token of the player who helps")))
        if button == "run":
            if state.phase is not Phase.COMBAT:
                return self.refuse(msg("RUN is for running away from a combat"))
            return self.submit(c.RunAway(player=state.active_player or "", at=now))
        if button == "next" and self.basket:
            return self.sell_basket()
        if button == "next" and state.pending_loss is not None:
            return self.submit(c.LoseItem(player=state.pending_loss.player, at=now))
        if button == "next":
            if state.phase is Phase.GAME_OVER:
                self.start_new_game()
                return Outcome(True, self.message)
            cmd = next_command(state, state.active_player or acting, now)
            if isinstance(cmd, Rejected):
                return self.refuse(cmd.message)
            return self.submit(cmd)
        return self.refuse(msg("unknown button {button!r}", button=button))

    # ------------------------------------------------------------ engine flows: loss prompt, abilities, selling

    ABILITY_BY_PHASE = {("warrior", Phase.COMBAT): "berserk", ("cleric", Phase.COMBAT): "turning",
                        ("wizard", Phase.COMBAT): "charm", ("wizard", Phase.RUN_AWAY): "flight",
                        ("thief", Phase.COMBAT): "backstab", ("halfling", Phase.RUN_AWAY): "reroll",
                        ("halfling", Phase.CHARITY): "reroll"}

    def tap_item_to_lose(self, card_id: str) -> Outcome | None:
        """While the screen asks "tap the item to lose", a tap of that player's item loses it."""
        loss = self.state.pending_loss
        if loss is None:
            return None
        player = self.state.player(loss.player)
        if card_id not in [*player.equipped, *player.carried]:
            return None
        if loss.source == BIG_LIMIT and self.catalog[card_id].big:
            receivers = big_item_receivers(self.state, player, self.catalog[card_id], self.catalog)
            if len(receivers) > 1:
                names = Seq((self.state.player(r) for r in receivers), "list")
                self.prompt = Prompt("receiver", msg("{card} goes to the lowest-level player: tap the token of {names}",
                                                     card=self.catalog[card_id], names=names),
                                     card=card_id, player=player.id)
                self.revision += 1
                return Outcome(True, self.say(self.prompt.text))
        return self.submit(c.LoseItem(player=player.id, card=card_id, at=self.now))

    def card_menu_extra(self, button: str) -> Outcome:
        """Card menu: HELP uses a race/class ability paying one discard (press again for more),
        or puts an item in the sales basket; RUN takes it out of the basket."""
        prompt = self.prompt
        assert prompt is not None
        card = self.catalog[prompt.card]
        if card.kind in (Kind.RACE, Kind.CLASS) and button == "help":
            ability = self.ABILITY_BY_PHASE.get((card.id, self.state.phase))
            if ability is None:
                return self.refuse(msg("{card} has no ability to use during {phase}", card=card, phase=self.state.phase))
            target = ""
            if ability == "backstab" and self.state.combat is not None:
                target = self.state.combat.fighters[0]
            return self.submit(c.UseAbility(player=prompt.player, ability=ability, count=1 if ability != "charm" else 3,
                                            target=target, at=self.now), keep_prompt=True)   # HELP again: one more
        if card.kind in (Kind.ITEM, Kind.ONE_SHOT) and button == "help":
            if prompt.card not in self.basket:
                self.basket.append(prompt.card)
            self.prompt = None
            self.revision += 1
            return Outcome(True, self.say(msg("to sell: {cards}; NEXT sells, UNDO empties the basket", cards=Seq(self.catalog[i] for i in self.basket))))
        if button == "run" and prompt.card in self.basket:
            self.basket.remove(prompt.card)
            self.prompt = None
            self.revision += 1
            return Outcome(True, self.say(msg("{card} taken out of the basket", card=card)))
        if button == "run" and card.kind is Kind.ITEM:
            action = self.give_action(prompt.player)
            if action == "promise":
                text = msg("promise {card} to whom, if the fight is won? tap the helper's token", card=card)
            else:
                text = msg("give {card} to whom? tap the receiver's token", card=card)
            self.prompt = Prompt(action, text, card=card.id, player=prompt.player)
            self.revision += 1
            return Outcome(True, self.say(text))
        return self.refuse(msg("{button} does nothing for {card}; UNDO goes back", button=word(button.upper()), card=card))

    def give_action(self, holder: str) -> str:
        """RUN in an item's card menu: give it (outside a combat), or promise it to a helper (the fighter)."""
        combat = self.state.combat
        if self.state.phase is Phase.COMBAT and combat is not None and combat.fighters[0] == holder:
            return "promise"
        return "give"

    def sell_basket(self) -> Outcome:
        cards, self.basket = tuple(self.basket), []
        return self.submit(c.Sell(player=self.state.active_player or "", cards=cards, at=self.now))

    # ------------------------------------------------------------ time

    def deadline(self) -> float | None:
        """When the controller next needs ``tick`` even if nothing happens."""
        times = []
        if self.state.combat is not None and self.state.combat.window_until is not None:
            times.append(self.state.combat.window_until)
        if self.acting_override is not None:
            times.append(self.acting_override[1])
        if self.prompt is not None and self.prompt.until is not None:
            times.append(self.prompt.until)
        if self.journal_unwritable and self.open_journal is not None:
            times.append(self.retry_at)
        return min(times) if times else None

    def tick(self) -> Outcome | None:
        now = self.now
        outcome = None
        if self.journal_unwritable and self.open_journal is not None and now >= self.retry_at:
            self.retry_at = now + self.RETRY_SECONDS
            if not self.reopen_journal():
                return None
        combat = self.state.combat
        if combat is not None and combat.window_until is not None and now + 1e-9 >= combat.window_until:
            outcome = self.submit(c.ResolveCombat(player=self.state.active_player or "", at=now))
        if self.acting_override is not None and self.acting_override[1] <= now:
            self.acting_override = None
            self.revision += 1
        if self.prompt is not None and self.prompt.until is not None and self.prompt.until <= now:
            lapsed, self.prompt = self.prompt, None
            if lapsed.kind == "enroll":
                self.say(msg("the unknown tag was not added"))
            else:
                self.revision += 1
        return outcome
