"""The rules of Munchkin as a pure library: no I/O, no clock, no randomness of its own.

The game is the fold of its commands: ``replay(catalog, ruleset, seed, commands)``.
"""

from engine.cards import Catalog, CardDef, Effect, Kind, Slot
from engine.commands import Command, command_from_dict, command_to_dict
from engine.game import apply, legal_buttons, new_game, next_command, replay
from engine.results import Accepted, Event, Rejected, RejectCode
from engine.rules import Ruleset
from engine.state import GameState, Phase, Player

__all__ = [
    "Accepted", "CardDef", "Catalog", "Command", "Effect", "Event", "GameState", "Kind", "Phase",
    "Player", "RejectCode", "Rejected", "Ruleset", "Slot", "apply", "command_from_dict",
    "command_to_dict", "legal_buttons", "new_game", "next_command", "replay",
]
