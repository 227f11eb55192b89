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
from typing import Callable

from cards.tags import TagRegistry, is_player_token
from drivers.base import Clock, Feedback
from drivers.events import InputEvent, Press, ReaderStatus, Release, Tap
from drivers.sim import NullFeedback
from engine import commands as c
from engine.card_menu import big_item_receivers
from engine.cards import Catalog, CardDef, Kind
from engine.items import BIG_LIMIT
from engine.game import apply, legal_buttons, next_command
from engine.results import Accepted, Event, Rejected, RejectCode
from engine.serialize import standing_prompt_json, state_to_json
from engine.state import GameState, Phase
from engine.rules import Ruleset
from table.describe import describe_events
from table.history import SNAPSHOT_EVERY, Commands, History, encode_state, fingerprint
from table.journal import GameRecord, Journal, JournalError, kept_copies
from table import records_menu
from table.records import Records

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
        self._resume_notice()
        if storage_fault:
            self.retry_at = self.now + self.RETRY_SECONDS
            self.say(f"the game cannot be saved: {storage_fault}", "refusal")

    def _resume_notice(self) -> None:
        """The resumed game's notice, after (not instead of) what the journal had to say."""
        before = self.message
        records_menu.resume_notice(self)
        if before is not None and before.kind == "refusal" and self.message is not before:
            self.say(f"{before.text}; {self.message.text}", "refusal")

    def _open_records(self) -> None:
        """The per-game facts, kept in the journal file as it is now (after any repair)."""
        import sqlite3

        journal = self.journal
        if self.records is not None and self.records.db is not None and self.records.db is not journal.db:
            self.records.db.close()
        shared = None
        if journal.read_only:       # looking only: share the read-only connection, write nothing
            shared = journal.db if journal.db is not None else sqlite3.connect(":memory:")
        self.records = Records(journal.path, self.catalog, wall=self.wall, db=shared)

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
            self.say(journal.damage.report() if not journal.read_only else
                     journal.damage.report() + "; 'munchkin-table run' repairs it and keeps the damaged copy",
                     "refusal")
        elif not commands:
            copies = kept_copies(journal.path)
            if copies:
                self.say(f"this journal holds no actions; an earlier game is kept as {copies[-1].name}: "
                         f"'munchkin-table restore {copies[-1]}' brings it back", "refusal")
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
            self.storage_fault = str(exc)
            return False
        old, self.journal = self.journal, journal
        old.close()
        self.storage_fault = None
        self._resume()
        self.say("the game can be saved again and carries on")
        return True

    @property
    def history_len(self) -> int:
        return len(self.history)

    @property
    def journal_unwritable(self) -> bool:
        return self.journal.read_only or self.journal.db is None

    def start_new_game(self) -> None:
        if self.journal_unwritable and not self.reopen_journal():
            self.refuse(f"no new game: {self.storage_fault}")
            return
        try:
            game = self.journal.new_game(self.seed_source(), self.ruleset)
        except JournalError as exc:
            self.refuse(f"no new game: {exc}")
            return
        self.records.leaving(self.state, len(self.history))    # an unfinished game stays listed, as abandoned
        self.game = game
        self.records.begin(game)
        self.history = History(self.catalog, self.game.seed, self.game.ruleset)
        self.state = self.history.state
        self.prompt = None
        self.acting_override = None
        self.say("new game: tap each player's token to join, then NEXT")

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
            return self.refuse(f"not done: {self.storage_fault}")
        seq = len(self.history) + 1
        snapshot = None
        if seq % SNAPSHOT_EVERY == 0:
            snapshot = (seq, fingerprint(self.catalog), encode_state(result.state))
        try:
            self.journal.append(self.game.id, cmd, snapshot)      # durable before anything shows it
        except JournalError as exc:
            self.storage_fault = str(exc)
            self.retry_at = self.now + self.RETRY_SECONDS
            return self.refuse(f"not done: {exc}")
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
            text = f"{text}; no longer waiting: {closed.text}" if text else f"no longer waiting: {closed.text}"
        message = self.say(text, "event") if text else None
        self.feedback.accepted()
        return Outcome(True, message, result.events)

    def undo(self) -> Outcome:
        if self.prompt is not None and self.prompt.kind == "sell":
            self.prompt = None
            self.basket = []
            self.revision += 1
            return Outcome(True, self.say("no sale: the sales basket is empty again"))
        if self.prompt is not None:          # UNDO first closes what is open: a menu, a prompt
            self.prompt = None
            self.revision += 1
            return Outcome(True, self.say("cancelled"))
        if self.basket:
            self.basket = []
            self.revision += 1
            return Outcome(True, self.say("the sales basket is empty again"))
        if self.journal_unwritable and not self.reopen_journal():
            return self.refuse(f"not undone: {self.storage_fault}")
        while True:
            try:
                if len(self.history):
                    self.history.prepare_pop()
            except JournalError as exc:
                return self.refuse(f"not undone: {exc}; 'munchkin-table doctor' checks the journal")
            try:
                popped = self.journal.pop(self.game.id)
            except JournalError as exc:
                return self.refuse(f"not undone: {exc}")
            if not popped:
                return self.refuse("nothing to undo: this game has no actions yet")
            last = self.history.commands[-1]
            self.state = self.history.pop()
            self.records.undone(len(self.history), self.state)
            # a reopened window belongs to the UNDO that made it: the next UNDO takes back what came before
            if not isinstance(last, c.ReopenWindow) or not self.history.commands:
                break
        self.acting_override = None
        self.feedback.accepted()
        message = self.say("undone: the last action was taken back")
        combat = self.state.combat
        if combat is not None and combat.window_until is not None:
            # The fight comes back as it was: the interference window open in full, not the window that
            # had run out (which would kill the monsters again at once). Journaled, so it lasts.
            reopened = self.submit(c.ReopenWindow(player=self.state.active_player or "", at=self.now))
            if reopened.accepted:
                message = self.say("undone: the fight is back; the players win unless someone interferes "
                                   f"within {self.state.ruleset.interference_seconds:g} s")
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
            return self.refuse("that did not work (an internal error, logged), the game is as last saved")

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
            self.reader_message = event.message
            self.feedback.reader_online(event.online)
            self.revision += 1
            if not event.online:
                text = event.message if event.message.startswith("reader offline") else f"reader offline: {event.message}"
                return Outcome(False, self.say(text, "refusal"))
            if was_online is False:
                return Outcome(True, self.say("reader back online"))
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
            return self.refuse(f"tag {tap.uid} names {name!r}, which is not in the card catalog")
        return self.tap_card(name)

    # ------------------------------------------------------------ enrolling a tag during play

    ENROLL_SECONDS = 20.0

    def unknown_tag(self, uid: str) -> Outcome:
        """An unknown tag opens a prompt: tapping an enrolled copy of the same card binds it to that card."""
        text = f"unknown tag {uid}: tap an enrolled copy of the same card to add this tag to it; UNDO cancels"
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
            return Outcome(False, self.say(f"that is the unknown tag {new_uid} again: now tap a copy that is "
                                           "already enrolled; UNDO cancels", "refusal"))
        name = tap.card or self.registry.lookup(tap.uid)
        if name is None:
            return self.unknown_tag(tap.uid)
        if not (is_player_token(name) or name in self.catalog):
            return self.refuse(f"tag {tap.uid} names {name!r}, which is not in the card catalog")
        self.prompt = None
        try:
            self.registry.bind(new_uid, name)
        except (ValueError, OSError) as exc:
            return self.refuse(f"cannot add tag {new_uid}: {exc}")
        label = self.catalog[name].name if name in self.catalog else name
        count = len(self.registry.uids_of(name))
        copies = self.catalog[name].copies if name in self.catalog else 1
        extra = f"; {label} now has {count} tags for {copies} {'copy' if copies == 1 else 'copies'}" if count > 1 else ""
        self.feedback.accepted()
        return Outcome(True, self.say(f"tag {new_uid} is now {label}{extra}; tap it again to play it"))

    def tap_token(self, token: str) -> Outcome:
        state = self.state
        if state.phase is Phase.SETUP:
            if state.has_player(token):
                return records_menu.open_names(self, token)       # choose the name from those seen before
            name, sex = self.players.names.get(token, ("", "male"))
            return self.submit(c.Join(player=token, at=self.now, name_=name, sex=sex))
        if not state.has_player(token):
            return self.refuse(f"{token} is not in this game")
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
            return self.refuse(f"{state.player(token).name} is not in the fight: ROLL helps the players, "
                               f"RUN the monsters, or tap a fighter's token or a monster")
        until = self.now + self.token_seconds
        self.acting_override = (token, until)
        name = state.player(token).name
        self.prompt = Prompt("player-menu", f"{name}: tap a card to play it for {name}, or use the buttons",
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
                return Outcome(True, self.say(f"{self.state.player(token).name} leaves the game? NEXT again to confirm, "
                                              f"UNDO keeps them"))
            self.prompt = None
            self.acting_override = None
            return self.submit(c.Leave(player=token, at=now))
        return self.refuse(f"unknown button {button!r}")

    def tap_card(self, card_id: str) -> Outcome:
        state = self.state
        card = self.catalog[card_id]
        acting = self.acting_player()
        if state.phase is Phase.GAME_OVER:
            return self.refuse("the game is over; press NEXT for a new game")
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
                return Outcome(True, self.say(f"{state.player(roller).name} rolls next against {card.name}: "
                                              f"press ROLL"))
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
            self.prompt = Prompt("card-menu", f"{card.name} ({holder.name})", card=card_id, player=holder.id)
            self.revision += 1
            return Outcome(True, self.say(f"{card.name}: choose with the buttons"))
        self.acting_override = None
        if card.kind is Kind.CURSE and not (state.phase is Phase.KICK_OPEN_THE_DOOR and acting == state.active_player):
            self.prompt = Prompt("victim", f"{card.name}: tap the victim's token", card=card_id, player=acting)
            self.revision += 1
            return Outcome(True, self.say(f"{card.name}: tap the victim's token"))
        need = self.ask_for_what(card, acting)
        if need is not None:
            return need
        if self.needs_side(card, acting):
            self.prompt = Prompt("side", f"{card.name}: for the players (ROLL) or the monsters (RUN)?",
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
            return self.refuse(f"{card.name} belongs to {holder.name}; only the seller's cards are sold")
        if card.kind not in (Kind.ITEM, Kind.ONE_SHOT) or card.gold is None:
            return self.refuse(f"{card.name} has no price; tap the items to sell, NEXT sells, UNDO cancels")
        if card.id in self.basket:
            self.basket.remove(card.id)
        else:
            self.basket.append(card.id)
        self.revision += 1
        return Outcome(True, self.say(self.basket_text()))

    def basket_text(self) -> str:
        if not self.basket:
            return "the sales basket is empty: tap the items to sell, from the table or the hand"
        gold = sum(self.catalog[i].gold or 0 for i in self.basket)
        return (f"to sell: {', '.join(self.catalog[i].name for i in self.basket)} ({gold} gold); "
                f"NEXT sells, UNDO empties the basket")

    def ask_for_what(self, card: CardDef, acting: str) -> Outcome | None:
        """A prompt for the token, item or number that ``card`` needs, or None when it needs nothing."""
        ops = {e.op for e in card.effects}
        combat = self.state.combat
        if (combat is not None and len(combat.monsters) > 1
                and (card.kind is Kind.MONSTER_ENHANCER or ops & NEEDS_MONSTER)):
            self.prompt = Prompt("monster", "", card=card.id, player=acting, value=len(combat.monsters) - 1)
            self.prompt.text = self.monster_prompt_text()
        elif ops & NEEDS_TARGET:
            self.prompt = Prompt("target", f"{card.name}: tap the player's token", card=card.id, player=acting)
        elif ops & NEEDS_ITEM:
            self.prompt = Prompt("item", f"{card.name}: tap the item", card=card.id, player=acting)
        elif ops & NEEDS_VALUE:
            self.prompt = Prompt("value", f"{card.name}: ROLL sets the number, NEXT uses it", card=card.id,
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
            name = state.player(loss.player).name
            if loss.source == "big-item-limit":
                return "loss", f"{name} has too many Big items: tap the one that goes to the lowest-level player, or sell it"
            source = self.catalog[loss.source].name if loss.source in self.catalog else loss.source
            return "loss", f"{name}: tap the item to lose ({source})"
        loot = state.looting
        if loot and loot.get("waiting") and loot.get("items"):
            body = state.player(loot["body"]).name if state.has_player(loot["body"]) else loot["body"]
            nxt = loot["waiting"][0]
            who = state.player(nxt).name if state.has_player(nxt) else nxt
            return "looting", f"looting {body}'s body: {who} picks next (tap the token, then the item)"
        return "", ""

    def monster_prompt_text(self) -> str:
        prompt, combat = self.prompt, self.state.combat
        assert prompt is not None and combat is not None
        chosen = self.catalog[combat.monsters[prompt.value].card].name
        return (f"{self.catalog[prompt.card].name}: tap the monster it is for, or ROLL to choose and NEXT "
                f"({chosen}, {prompt.value + 1} of {len(combat.monsters)})")

    def press_in_monster_prompt(self, button: str) -> Outcome:
        prompt, combat = self.prompt, self.state.combat
        assert prompt is not None
        if combat is None:
            self.prompt = None
            return self.refuse("the combat is over")
        if button == "roll":
            prompt.value = (prompt.value + 1) % len(combat.monsters)
            prompt.text = self.monster_prompt_text()
            return Outcome(True, self.say(prompt.text))
        if button == "next":
            self.prompt = None
            return self.submit(c.PlayCard(player=prompt.player, card=prompt.card, monster=prompt.value, at=self.now))
        return self.refuse(f"{button.upper()} does nothing here: ROLL chooses the monster, NEXT confirms, UNDO cancels")

    def press_in_value_prompt(self, button: str) -> Outcome:
        prompt = self.prompt
        assert prompt is not None
        if button == "roll":
            prompt.value = prompt.value % 6 + 1
            self.revision += 1
            return Outcome(True, self.say(f"{self.catalog[prompt.card].name}: {prompt.value}; NEXT uses it"))
        if button == "next":
            self.prompt = None
            return self.submit(c.PlayCard(player=prompt.player, card=prompt.card, value=prompt.value, at=self.now))
        return self.refuse(f"{button.upper()} does nothing here: ROLL sets the number, NEXT uses it, UNDO cancels")

    def soft_keys(self) -> dict[str, str]:
        if self.prompt is not None and self.prompt.kind == "card-menu":
            player = self.state.player(self.prompt.player)
            card = self.catalog[self.prompt.card]
            toggle = "Unequip" if card.id in player.equipped else ("Equip" if card.id in player.carried else "")
            help_label = ""
            if card.kind in (Kind.RACE, Kind.CLASS):
                ability = self.ABILITY_BY_PHASE.get((card.id, self.state.phase), "")
                help_label = ability.capitalize()
            elif card.kind in (Kind.ITEM, Kind.ONE_SHOT) and card.id not in self.basket:
                help_label = "Sell"
            run_label = "Don't sell" if card.id in self.basket else ""
            if not run_label and card.kind is Kind.ITEM:
                run_label = self.give_action(player.id).capitalize()
            return {"roll": toggle, "help": help_label, "run": run_label, "next": "Discard", "undo": "Back"}
        if self.prompt is not None and self.prompt.kind == "value":
            return {"roll": f"{self.prompt.value % 6 + 1}", "help": "", "run": "", "next": f"Use {self.prompt.value}",
                    "undo": "Cancel"}
        if self.prompt is not None and self.prompt.kind == "monster":
            return {"roll": "Next monster", "help": "", "run": "", "next": "This one", "undo": "Cancel"}
        if self.prompt is not None and self.prompt.kind == "side":
            return {"roll": "For the players", "help": "", "run": "For the monsters", "next": "", "undo": "Cancel"}
        if self.prompt is not None and self.prompt.kind == "sell":
            gold = sum(self.catalog[c_].gold or 0 for c_ in self.basket)
            return {"roll": "", "help": "", "run": "", "next": f"Sell {gold} gold", "undo": "Cancel"}
        if self.prompt is not None and self.prompt.kind == "player-menu" and self.state.has_player(self.prompt.player):
            p = self.state.player(self.prompt.player)
            leave = "Leave: sure?" if self.prompt.value else "Leave game"
            return {"roll": "Make " + ("female" if p.sex == "male" else "male"), "help": "Level +1",
                    "run": "Level −1", "next": leave, "undo": "Back"}
        mine = records_menu.soft_keys(self)
        if mine is not None:
            return mine
        if self.prompt is not None:
            return {"roll": "", "help": "", "run": "", "next": "", "undo": "Cancel"}
        keys = records_menu.setup_keys(self, legal_buttons(self.state, self.catalog))
        if not keys["help"] and self.state.phase is not Phase.COMBAT and self.may_sell(self.state.active_player or ""):
            keys = {**keys, "help": "Sell"}
        if self.basket:
            gold = sum(self.catalog[c_].gold or 0 for c_ in self.basket)
            keys = {**keys, "next": f"Sell {gold} gold", "undo": "Empty basket"}
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
                return self.refuse("the sales basket is empty: nothing sold")
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
                return self.refuse(f"{button.upper()} does nothing in the card menu; UNDO goes back")
            self.prompt = None
            return self.submit(c.UseCard(player=player.id, card=prompt.card, action=action, at=now))
        if self.prompt is not None:
            return self.refuse(f"{self.prompt.text}; UNDO cancels")
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
                return self.refuse(waiting or "no run-away roll is left")     # what the table waits for
            self.forced_die = forced
            return self.refuse(f"ROLL does nothing during {state.phase.value.replace('-', ' ')}")
        if button == "help":
            if state.phase is not Phase.COMBAT and self.may_sell(state.active_player or ""):
                self.prompt = Prompt("sell", "selling: tap the items to sell, from the table or the hand",
                                     player=state.active_player or "")
                self.revision += 1
                return Outcome(True, self.say(self.prompt.text))
            if state.phase is not Phase.COMBAT:
                return self.refuse("HELP is for asking for help in a combat, or for selling on your own turn")
            if state.combat and state.combat.helper:
                return self.refuse(f"{state.player(state.combat.helper).name} is already helping")
            self.prompt = Prompt("helper", "tap the helper's token")
            self.revision += 1
            return Outcome(True, self.say("tap the token of the player who helps"))
        if button == "run":
            if state.phase is not Phase.COMBAT:
                return self.refuse("RUN is for running away from a combat")
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
        return self.refuse(f"unknown button {button!r}")

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
                names = ", ".join(self.state.player(r).name for r in receivers)
                self.prompt = Prompt("receiver", f"{self.catalog[card_id].name} goes to the lowest-level player: "
                                                 f"tap the token of {names}", card=card_id, player=player.id)
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
                return self.refuse(f"{card.name} has no ability to use during {self.state.phase.value}")
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
            return Outcome(True, self.say(f"to sell: {', '.join(self.catalog[i].name for i in self.basket)}; "
                                          f"NEXT sells, UNDO empties the basket"))
        if button == "run" and prompt.card in self.basket:
            self.basket.remove(prompt.card)
            self.prompt = None
            self.revision += 1
            return Outcome(True, self.say(f"{card.name} taken out of the basket"))
        if button == "run" and card.kind is Kind.ITEM:
            action = self.give_action(prompt.player)
            if action == "promise":
                text = f"promise {card.name} to whom, if the fight is won? tap the helper's token"
            else:
                text = f"give {card.name} to whom? tap the receiver's token"
            self.prompt = Prompt(action, text, card=card.id, player=prompt.player)
            self.revision += 1
            return Outcome(True, self.say(text))
        return self.refuse(f"{button.upper()} does nothing for {card.name}; UNDO goes back")

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
                self.say("the unknown tag was not added")
            else:
                self.revision += 1
        return outcome
