"""Random sequences of legal and illegal commands keep the game's invariants."""

import json

from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from cards.loader import load_catalog
from engine import commands as c
from engine.cards import Kind
from engine.game import replay
from engine.results import Rejected
from engine.rules import Ruleset
from engine.serialize import state_to_json
from engine.state import Phase
from engine.strength import big_limit
from tests.engine.scenario import apply_checked

CATALOG = load_catalog()
CARDS = sorted(CATALOG)
PLAYERS = ["player-1", "player-2", "player-3"]
RULESET = Ruleset(interference_seconds=0)

commands = st.one_of(
    st.builds(c.PlayCard, player=st.sampled_from(PLAYERS), card=st.sampled_from(CARDS),
              target=st.sampled_from(["", *PLAYERS]), monster=st.integers(-1, 2),
              item=st.sampled_from(["", *CARDS]), value=st.integers(0, 6)),
    st.builds(c.UseCard, player=st.sampled_from(PLAYERS), card=st.sampled_from(CARDS),
              action=st.sampled_from(["equip", "unequip", "discard", "give", "escape"]),
              target=st.sampled_from(["", *PLAYERS])),
    st.builds(c.AddHelper, player=st.sampled_from(PLAYERS), helper=st.sampled_from(PLAYERS)),
    st.builds(c.Fight, player=st.sampled_from(PLAYERS)),
    st.builds(c.RunAway, player=st.sampled_from(PLAYERS)),
    st.builds(c.Roll, player=st.sampled_from(PLAYERS), forced=st.one_of(st.none(), st.integers(1, 6))),
    st.builds(c.EndPhase, player=st.sampled_from(PLAYERS)),
    st.builds(c.AdjustLevel, player=st.sampled_from(PLAYERS), delta=st.integers(-3, 3)),
    st.builds(c.Sell, player=st.sampled_from(PLAYERS), cards=st.lists(st.sampled_from(CARDS), max_size=3).map(tuple)),
    st.builds(c.UseAbility, player=st.sampled_from(PLAYERS),
              ability=st.sampled_from(["berserk", "turning", "flight", "charm", "backstab", "theft", "chase", "reroll"]),
              count=st.integers(0, 4), target=st.sampled_from(["", *PLAYERS]), card=st.sampled_from(["", *CARDS])),
    st.builds(c.LoseItem, player=st.sampled_from(PLAYERS), card=st.sampled_from(["", *CARDS])),
)


class Game(RuleBasedStateMachine):
    @initialize()
    def start(self) -> None:
        self.commands: list[c.Command] = []
        for pid in PLAYERS:
            self.commands.append(c.Join(player=pid))
        self.commands.append(c.StartGame(player="player-1"))
        self.state = replay(CATALOG, RULESET, 11, self.commands)

    @rule(cmd=commands)
    def act(self, cmd: c.Command) -> None:
        previous = self.state
        result = apply_checked(self.state, cmd, CATALOG)
        if isinstance(result, Rejected):
            return
        self.commands.append(cmd)
        self.state = result.state
        won_by_kill = any(e.name in ("MonstersKilled", "DivineIntervention") for e in result.events)
        if self.state.winners:
            assert won_by_kill, f"{cmd} made a winner without a kill"
        # undo: the replay of commands[:-1] gives the state before
        assert replay(CATALOG, RULESET, 11, self.commands[:-1]) == previous

    @invariant()
    def levels_in_bounds(self) -> None:
        for p in self.state.players:
            assert 1 <= p.level <= RULESET.winning_level

    @invariant()
    def slots_and_big_items(self) -> None:
        for p in self.state.players:
            worn = [CATALOG[i] for i in p.equipped]
            for slot in ("headgear", "armor", "footgear"):
                assert sum(1 for w in worn if w.slot and w.slot.value == slot) <= 1
            hands = sum({"1-hand": 1, "2-hand": 2}.get(w.slot.value, 0) for w in worn if w.slot)
            assert hands <= 2
            limit = big_limit(p, CATALOG)
            bigs = sum(1 for i in [*p.equipped, *p.carried] if CATALOG[i].big)
            asked = self.state.pending_loss is not None and self.state.pending_loss.player == p.id
            assert limit is None or bigs <= limit or p.cheat_on or asked

    @invariant()
    def one_helper(self) -> None:
        if self.state.combat is not None:
            assert len(self.state.combat.fighters) <= 2

    @invariant()
    def json_round_trips(self) -> None:
        data = state_to_json(self.state, CATALOG)
        assert json.loads(json.dumps(data)) == data


Game.TestCase.settings = settings(max_examples=120, stateful_step_count=30, deadline=None,
                                  suppress_health_check=[HealthCheck.too_slow])
TestGame = Game.TestCase
