"""A rule machine that plays plausible games: fights with several monsters, helpers, enhancers,
running away with modifiers, curses from the hand, selling, losses and looting.

Each step draws a command that makes sense at the table now (it may still break a rule). After every
step: a rejected command changed nothing; nobody wins except by a kill or Divine Intervention; the
replay of the log without the last command gives the state before it (undo); and the invariants.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from cards.loader import load_catalog
from engine import commands as c
from engine.cards import Kind
from engine.game import replay
from engine.results import Accepted, Rejected
from engine.rules import Ruleset
from engine.serialize import state_to_json
from engine.state import GameState, Phase
from engine.strength import big_limit, players_win, restriction_problem
from tests.engine.scenario import apply_checked

CATALOG = load_catalog()
PLAYERS = ["player-1", "player-2", "player-3", "player-4"]
RULESET = Ruleset(interference_seconds=0)
SEED = 5


def of_kind(*kinds: Kind) -> list[str]:
    return sorted(i for i, card in CATALOG.items() if card.kind in kinds)


MONSTERS = of_kind(Kind.MONSTER)
WEAK_MONSTERS = [m for m in MONSTERS if (CATALOG[m].level or 0) <= 4]
ENHANCERS = of_kind(Kind.MONSTER_ENHANCER)
CURSES = of_kind(Kind.CURSE)
ITEMS = of_kind(Kind.ITEM)
ONE_SHOTS = sorted(i for i in of_kind(Kind.ONE_SHOT) if CATALOG[i].bonus is not None and not CATALOG[i].effects)
LEVEL_UPS = of_kind(Kind.GO_UP_A_LEVEL)
RACES_AND_CLASSES = of_kind(Kind.RACE, Kind.CLASS)
players = st.sampled_from(PLAYERS)
dice = st.integers(1, 6)


class Table(RuleBasedStateMachine):
    @initialize()
    def start(self) -> None:
        self.commands: list[c.Command] = [c.Join(player=p) for p in PLAYERS]
        self.commands.append(c.StartGame(player="player-1"))
        self.state: GameState = replay(CATALOG, RULESET, SEED, self.commands)
        self.accepted: list[str] = []

    # ------------------------------------------------------------ one step, checked

    def act(self, cmd: c.Command) -> bool:
        previous = self.state
        result = apply_checked(self.state, cmd, CATALOG)
        if isinstance(result, Rejected):
            return False
        assert isinstance(result, Accepted)
        self.commands.append(cmd)
        self.state = result.state
        self.accepted.append(cmd.name)
        if isinstance(cmd, c.RunAway):         # running away is for a fight the players cannot win
            assert previous.combat is not None and not players_win(previous, previous.combat, CATALOG)
        if self.state.winners and not previous.winners:
            assert any(e.name in ("MonstersKilled", "DivineIntervention") for e in result.events), \
                f"{cmd} made a winner without a kill"
        assert replay(CATALOG, RULESET, SEED, self.commands[:-1]) == previous
        return True

    @property
    def active(self) -> str:
        return self.state.active_player or ""

    def in_phase(self, *phases: Phase) -> bool:
        return self.state.phase in phases

    # ------------------------------------------------------------ out of combat

    @rule(player=players, card=st.sampled_from(ITEMS + RACES_AND_CLASSES + LEVEL_UPS + ["half-breed", "super-munchkin"]))
    def bring_into_play(self, player: str, card: str) -> None:
        self.act(c.PlayCard(player=player, card=card))

    @rule(player=players, cards=st.lists(st.sampled_from(LEVEL_UPS), min_size=1, max_size=9))
    def go_up_levels(self, player: str, cards: list[str]) -> None:
        for card in cards:
            self.act(c.PlayCard(player=player, card=card))

    @rule()
    def next_phase(self) -> None:
        self.act(c.EndPhase(player=self.active))

    @precondition(lambda self: self.state.phase in (Phase.KICK_OPEN_THE_DOOR, Phase.LOOK_FOR_TROUBLE))
    @rule(monster=st.one_of(st.sampled_from(WEAK_MONSTERS), st.sampled_from(MONSTERS)))
    def fight_a_monster(self, monster: str) -> None:
        self.act(c.PlayCard(player=self.active, card=monster))

    @rule(by=players, victim=st.one_of(st.just(""), players), curse=st.sampled_from(CURSES))
    def curse(self, by: str, victim: str, curse: str) -> None:
        self.act(c.PlayCard(player=by, card=curse, target=victim))

    @rule(data=st.data())
    def sell(self, data: st.DataObject) -> None:
        me = self.state.player(self.active)
        mine = [i for i in [*me.equipped, *me.carried] if CATALOG[i].gold]
        basket = data.draw(st.lists(st.sampled_from(mine or ITEMS), max_size=3, unique=True))
        self.act(c.Sell(player=self.active, cards=tuple(basket)))

    @rule(data=st.data(), player=players)
    def cheat(self, data: st.DataObject, player: str) -> None:
        me = self.state.player(player)
        items = [*me.equipped, *me.carried]
        self.act(c.PlayCard(player=player, card="cheat", item=data.draw(st.sampled_from(items or ITEMS))))

    @rule(data=st.data(), action=st.sampled_from(["equip", "unequip", "discard", "give", "promise"]))
    def card_menu(self, data: st.DataObject, action: str) -> None:
        owner = self.state.player(data.draw(players))
        cards = owner.in_play()
        if cards:
            self.act(c.UseCard(player=owner.id, card=data.draw(st.sampled_from(cards)), action=action,
                               target=data.draw(players)))

    # ------------------------------------------------------------ combat

    @precondition(lambda self: self.state.phase is Phase.COMBAT)
    @rule(by=players, monster=st.sampled_from(MONSTERS), wandering=st.booleans())
    def another_monster(self, by: str, monster: str, wandering: bool) -> None:
        if wandering:
            self.act(c.PlayCard(player=by, card="wandering-monster"))
        self.act(c.PlayCard(player=by, card=monster))

    @precondition(lambda self: self.state.phase is Phase.COMBAT)
    @rule(by=players, card=st.sampled_from(ENHANCERS + ["mate"]), index=st.integers(-1, 2))
    def enhance(self, by: str, card: str, index: int) -> None:
        self.act(c.PlayCard(player=by, card=card, monster=index))

    @precondition(lambda self: self.state.phase is Phase.COMBAT)
    @rule(by=players, card=st.sampled_from(ONE_SHOTS), side=st.sampled_from(["", "players", "monsters"]))
    def one_shot(self, by: str, card: str, side: str) -> None:
        self.act(c.PlayCard(player=by, card=card, side=side))

    @precondition(lambda self: self.state.phase is Phase.COMBAT)
    @rule(helper=players)
    def ask_for_help(self, helper: str) -> None:
        self.act(c.AddHelper(player=self.active, helper=helper))

    @precondition(lambda self: self.state.phase is Phase.COMBAT)
    @rule(shots=st.lists(st.sampled_from(ONE_SHOTS), max_size=3), by=players)
    def fight(self, shots: list[str], by: str) -> None:
        for shot in shots:
            self.act(c.PlayCard(player=by, card=shot, side="players"))
        self.act(c.Fight(player=self.active))

    @precondition(lambda self: self.state.phase is Phase.COMBAT)
    @rule()
    def run_away(self) -> None:
        self.act(c.RunAway(player=self.active))

    @precondition(lambda self: self.state.phase in (Phase.KICK_OPEN_THE_DOOR, Phase.LOOK_FOR_TROUBLE))
    @rule(monster=st.sampled_from(["bullrog", "squidzilla", "3872-orcs", "face-sucker"]),
          helper=st.one_of(st.just(""), players), die=dice)
    def a_deadly_fight(self, monster: str, helper: str, die: int) -> None:
        if self.act(c.PlayCard(player=self.active, card=monster)):
            if helper:
                self.act(c.AddHelper(player=self.active, helper=helper))
            self.act(c.RunAway(player=self.active))
            for _ in range(12):         # the same die each time: looters tied at a level would tie for ever
                if self.state.flight is None or not self.state.flight.pending or self.state.pending_loss is not None:
                    break
                if not self.act(c.Roll(player=self.state.flight.pending[0][0], forced=die)):
                    break

    @precondition(lambda self: self.state.phase is Phase.RUN_AWAY)
    @rule(die=dice, flight=st.integers(0, 2), monster=st.integers(-1, 2))
    def roll(self, die: int, flight: int, monster: int) -> None:
        if flight and self.state.flight and self.state.flight.pending:
            self.act(c.UseAbility(player=self.state.flight.pending[0][0], ability="flight", count=flight))
        roller = self.state.flight.pending[0][0] if self.state.flight and self.state.flight.pending else self.active
        self.act(c.Roll(player=roller, forced=die, monster=monster))

    # ------------------------------------------------------------ what the box asks for

    @precondition(lambda self: self.state.pending_loss is not None)
    @rule(data=st.data())
    def lose_an_item(self, data: st.DataObject) -> None:
        loss = self.state.pending_loss
        assert loss is not None
        owner = self.state.player(loss.player)
        card = data.draw(st.sampled_from(["", *owner.equipped, *owner.carried]))
        self.act(c.LoseItem(player=loss.player, card=card, target=data.draw(st.one_of(st.just(""), players))))

    @precondition(lambda self: self.state.looting is not None and self.state.looting["items"])
    @rule(data=st.data(), looter=players)
    def loot(self, data: st.DataObject, looter: str) -> None:
        assert self.state.looting is not None
        self.act(c.PlayCard(player=looter, card=data.draw(st.sampled_from(self.state.looting["items"]))))

    # ------------------------------------------------------------ invariants

    @invariant()
    def levels_in_bounds(self) -> None:
        for p in self.state.players:
            assert 1 <= p.level <= RULESET.winning_level
            if p.level == RULESET.winning_level:
                assert p.id in self.state.winners

    @invariant()
    def slots_and_big_items(self) -> None:
        for p in self.state.players:
            worn = [CATALOG[i] for i in p.equipped if i != p.cheat_on]     # Cheat! lifts the limits
            for i in p.equipped:                # an item its wearer cannot use is carried, not worn
                assert restriction_problem(CATALOG[i], p) is None
            for slot in ("headgear", "armor", "footgear"):
                assert sum(1 for w in worn if w.slot and w.slot.value == slot) <= 1
            assert sum({"1-hand": 1, "2-hand": 2}.get(w.slot.value, 0) for w in worn if w.slot) <= 2
            limit = big_limit(p, CATALOG)
            bigs = sum(1 for i in [*p.equipped, *p.carried] if CATALOG[i].big and i != p.cheat_on)
            asked = self.state.pending_loss is not None and self.state.pending_loss.player == p.id
            assert limit is None or bigs <= limit or asked

    @invariant()
    def one_helper_and_living_fighters(self) -> None:
        combat = self.state.combat
        if combat is not None:
            assert len(combat.fighters) <= 2 and len(set(combat.fighters)) == len(combat.fighters)
            assert all(self.state.player(f).alive for f in combat.fighters[1:])

    @invariant()
    def dead_players_carry_nothing(self) -> None:
        for p in self.state.players:
            if not p.alive:
                assert p.equipped == [] and p.carried == []

    @invariant()
    def every_card_is_in_one_place(self) -> None:
        seen = [i for p in self.state.players for i in [*p.equipped, *p.carried]]
        seen += self.state.looting["items"] if self.state.looting else []
        assert len(seen) == len(set(seen))

    @invariant()
    def json_round_trips(self) -> None:
        data = state_to_json(self.state, CATALOG)
        assert json.loads(json.dumps(data)) == data

    def teardown(self) -> None:
        # the machine reached the interesting places, not just rejections
        assert self.state.turn >= 1


Table.TestCase.settings = settings(max_examples=150, stateful_step_count=40, deadline=None,
                                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
TestTable = Table.TestCase
