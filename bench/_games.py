"""Long scripted games for the benchmarks: a plausible mix of taps and presses."""

from __future__ import annotations

import random

MONSTERS = ["lame-goblin", "potted-plant", "maul-rat", "flying-frogs", "large-angry-chicken", "pit-bull",
            "net-troll", "gazebo"]
ITEMS = ["boots-of-butt-kicking", "helm-of-courage", "leather-armor", "buckler-of-swashing", "spiky-knees"]


def long_script(actions: int, *, players: int = 6, seed: int = 1) -> list[str]:
    """At least ``actions`` script lines of a 6-player game that never reaches level 10."""
    rng = random.Random(seed)
    lines = [f"tap player-{n}" for n in range(1, players + 1)] + ["press next"]
    while len(lines) < actions:
        turn = []
        if rng.random() < 0.3:
            turn += [f"tap {rng.choice(ITEMS)}", "press undo"]   # a card menu opened by mistake is closed
        monster = rng.choice(MONSTERS)
        turn += [f"tap {monster}", "press run"]
        turn += ["press roll"]              # one fleeing player, one monster
        turn += ["press next"]              # charity: end the turn
        turn += ["press undo", "press next"] if rng.random() < 0.1 else []
        lines += turn
    return lines
