"""Scripted games for the benchmarks: a plausible mix of taps and presses."""

from __future__ import annotations

import random

MONSTERS = ["wannabe-vampire", "net-troll"]  # stronger than any player here: they run, roll, lose levels
ITEMS = ["boots-of-butt-kicking", "helm-of-courage", "leather-armor", "buckler-of-swashing", "spiky-knees"]
# every race and class, most of the deck's items and a few curses, dealt round the table
GEAR = ["elf", "dwarf", "halfling", "cleric", "thief", "warrior", "wizard",
        "bad-ass-bandana", "boots-of-butt-kicking", "boots-of-running-really-fast", "bow-with-ribbons", "broad-sword",
        "buckler-of-swashing", "chainsaw-of-bloody-dismemberment", "cheese-grater-of-peace", "cloak-of-obscurity",
        "dagger-of-treachery", "eleven-foot-pole", "flaming-armor", "gentlemen-s-club", "hammer-of-kneecapping",
        "helm-of-courage", "horny-helmet", "huge-rock", "kneepads-of-allure", "leather-armor", "mace-of-sharpness",
        "mithril-armor", "pantyhose-of-giant-strength", "pointy-hat-of-power", "rapier-of-unfairness", "rat-on-a-stick",
        "really-impressive-title", "sandals-of-protection", "shield-of-ubiquity", "short-wide-armor",
        "singing-and-dancing-sword", "sneaky-bastard-sword", "spiky-knees", "staff-of-napalm", "stepladder",
        "swiss-army-polearm", "tuba-of-charm", "curse-chicken-on-your-head"]


def geared_script(players: int = 6) -> list[str]:
    """A game of ``players`` started, with about 40 cards in play dealt round the table."""
    lines = [f"tap player-{n}" for n in range(1, players + 1)] + ["press next"]
    for i, card in enumerate(GEAR):
        lines += [f"tap {card}", f"tap player-{i % players + 1}"]
    lines += ["wait 9"]                      # the last card's interference window closes
    return lines


def long_script(actions: int, *, players: int = 6, seed: int = 1, geared: bool = False) -> list[str]:
    """At least ``actions`` script lines of a ``players``-player game that never reaches level 10
    (after the deal of ``geared_script`` when ``geared``)."""
    rng = random.Random(seed)
    lines = geared_script(players) if geared else [f"tap player-{n}" for n in range(1, players + 1)] + ["press next"]
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
