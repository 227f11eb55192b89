"""The rules of Munchkin as a pure library: no I/O, no clock, no randomness of its own.

The game is the fold of its commands: ``replay(catalog, ruleset, seed, commands)``, or step by step
``replay_steps(catalog, state, commands)``. ``apply`` returns typed events (engine/events.py); the
table asks the engine what the rules say (strength part by part in engine/strength.py, the roll
that escapes in engine/run_away.py, the levels gold buys in engine/selling.py, a player's default
name in engine/players.py) rather than keeping a copy of a rule.

A new event: a frozen dataclass in engine/events.py, added to ``GameEvent``; mypy then names every
``match`` that has no case for it (table/session/describe.py first).
"""

from engine.cards import Catalog, CardDef, Effect, Kind, Slot
from engine.commands import Command, command_from_dict, command_to_dict
from engine.events import CombatEnd, Event, GameEvent
from engine.game import Step, apply, legal_buttons, new_game, next_command, replay, replay_steps
from engine.results import Accepted, Rejected, RejectCode
from engine.rules import Ruleset
from engine.state import GameState, Phase, Player

__all__ = [
    "Accepted", "CardDef", "Catalog", "CombatEnd", "Command", "Effect", "Event", "GameEvent", "GameState", "Kind",
    "Phase", "Player", "RejectCode", "Rejected", "Ruleset", "Slot", "Step", "apply", "command_from_dict",
    "command_to_dict", "legal_buttons", "new_game", "next_command", "replay", "replay_steps",
]
