"""A player's default name is made in one place, and known for the default without parsing it."""

from __future__ import annotations

import pytest

from engine import commands as c
from engine.game import replay
from engine.players import DEFAULT_NAMES, default_name, default_token, is_default_name, token_number
from engine.rules import Ruleset
from engine.state import PLAYER_TOKENS


def test_each_token_has_its_number_and_default_name() -> None:
    assert [token_number(t) for t in PLAYER_TOKENS] == [1, 2, 3, 4, 5, 6]
    assert default_name("player-3") == "Player 3"
    assert {default_token(default_name(t)) for t in PLAYER_TOKENS} == set(PLAYER_TOKENS)
    assert len(DEFAULT_NAMES) == len(PLAYER_TOKENS)


def test_a_chosen_name_is_not_a_default_one_even_when_it_looks_like_one() -> None:
    assert default_token("Ann") is None
    assert default_token("Player 7") is None          # typed by someone: no token has it
    assert default_token("player 1") is None
    assert is_default_name("player-2", "Player 2") and not is_default_name("player-2", "Player 1")
    assert not is_default_name("nobody", "Player 1")
    with pytest.raises(ValueError):
        token_number("player-7")


def test_a_player_who_joins_unnamed_gets_the_default_name(catalog) -> None:  # type: ignore[no-untyped-def]
    state = replay(catalog, Ruleset(), 1, [c.Join(player="player-4"), c.Join(player="player-2", name_="Bo")])
    assert [(p.id, p.name) for p in state.players] == [("player-4", "Player 4"), ("player-2", "Bo")]
    assert [is_default_name(p.id, p.name) for p in state.players] == [True, False]
