"""The game session (the game as the journal has it), the one replay fold, and the controller's
typed prompts and revision."""

from __future__ import annotations

from pathlib import Path

from drivers.base import ManualClock
from drivers.events import Press, Tap
from engine import commands as c
from engine.game import new_game
from engine.results import Rejected
from engine.rules import Ruleset
from table.config import Config, StorageConfig
from table.control.assembly import build_table
from table.control.controller import KEYS, PRESS
from table.control.prompts import EXPECTS, PromptKind
from table.session.game import GameSession, NothingToUndo, NotSaved, Saved, Undone
from table.session.history import replayed
from table.storage.journal import Journal


def session_at(path: Path, catalog, **kw) -> GameSession:  # type: ignore[no-untyped-def]
    session = GameSession(catalog, Journal(path / "journal.sqlite3"), ManualClock(), ruleset=Ruleset(),
                          seed_source=lambda: 5, **kw)
    session.begin()
    return session


def test_replayed_stops_at_the_first_refused_command(catalog) -> None:  # type: ignore[no-untyped-def]
    start = new_game(1, Ruleset())
    good = [c.Join(player="player-1"), c.Join(player="player-2")]
    steps = list(replayed(start, [*good, c.Join(player="player-1"), c.Join(player="player-3")], catalog))
    assert [cmd for cmd, _state in steps] == good                      # the repeated join stops it
    assert [p.id for p in steps[-1][1].players] == ["player-1", "player-2"]
    assert start.players == []                                         # states are never mutated


def test_submit_stores_before_the_state_changes_and_undo_takes_back(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    session = session_at(tmp_path, catalog)
    saved = session.submit(c.Join(player="player-1"))
    assert isinstance(saved, Saved) and [e.name for e in saved.events]
    assert session.journal.count(session.game.id) == 1 and len(session.history) == 1
    refused = session.submit(c.Join(player="player-1"))
    assert isinstance(refused, Rejected) and session.journal.count(session.game.id) == 1
    undone = session.undo()
    assert isinstance(undone, Undone) and undone.last == c.Join(player="player-1")
    assert session.state.players == [] and session.journal.count(session.game.id) == 0
    assert isinstance(session.undo(), NothingToUndo)
    session.journal.close()


def test_a_journal_that_cannot_be_written_is_not_saved_to(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    session_at(tmp_path, catalog).journal.close()                       # a game on disk
    looking = GameSession(catalog, Journal(tmp_path / "journal.sqlite3", read_only=True), ManualClock(),
                          ruleset=Ruleset(), seed_source=lambda: 5)
    looking.begin()
    result = looking.submit(c.Join(player="player-1"))
    assert isinstance(result, NotSaved) and looking.state.players == []
    assert isinstance(looking.undo(), NotSaved) and isinstance(looking.start(), NotSaved)
    looking.journal.close()


def test_a_resumed_session_replays_the_stored_game(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    first = session_at(tmp_path, catalog)
    for n in (1, 2, 3):
        assert isinstance(first.submit(c.Join(player=f"player-{n}", at=float(n))), Saved)
    first.journal.close()
    again = session_at(tmp_path, catalog)
    assert [p.id for p in again.state.players] == ["player-1", "player-2", "player-3"]
    assert again.game.id == first.game.id and again.now >= 3.0       # the table clock goes on
    again.journal.close()


def test_prompt_kinds_keep_their_strings_and_every_family_is_dispatched() -> None:
    assert PromptKind.CARD_MENU == "card-menu" and PromptKind.PLAYER_MENU.value == "player-menu"
    assert {k.value for k in PromptKind} == {
        "helper", "victim", "target", "give", "promise", "receiver", "item", "monster", "value", "side",
        "card-menu", "player-menu", "sell", "enroll", "standings", "games", "name", "resume"}
    # prompts with buttons of their own answer through the tables; the rest wait for a tap
    assert set(PRESS) == set(KEYS)
    assert all(kind in PRESS or EXPECTS.get(kind) in ("player-token", "item", "tag") for kind in PromptKind)


def test_the_revision_follows_what_the_screen_shows(tmp_path: Path) -> None:
    clock = ManualClock()
    table = build_table(Config(storage=StorageConfig(state_dir=str(tmp_path))), clock, seed_source=lambda: 1)
    ctl = table.controller
    seen = ctl.revision
    for event in (Tap("", 0.0, card="player-1"), Tap("", 0.0, card="player-2"), Press("help", 0.0),
                  Press("next", 0.0), Press("undo", 0.0)):
        ctl.handle(event)
        assert ctl.revision > seen, event
        seen = ctl.revision
    assert ctl.prompt is None
    ctl.records.close()
    table.journal.close()


def test_the_state_json_prompt_kind_is_a_plain_string(tmp_path: Path) -> None:
    import json

    table = build_table(Config(storage=StorageConfig(state_dir=str(tmp_path))), ManualClock(), seed_source=lambda: 1)
    ctl = table.controller
    ctl.handle(Tap("", 0.0, card="player-1"))
    ctl.handle(Press("help", 0.0))                 # the standings
    data = json.loads(json.dumps(ctl.state_json()))
    assert data["prompt"]["kind"] == "standings" and type(data["prompt"]["kind"]) is str
    ctl.records.close()
    table.journal.close()
