"""Table scripts that bring the simulated table to each screen, for docs/make_screens.py and the tests.

Each scene is a table script (design §4); its last action leaves the screen worth showing.
PLAYER_MENU is not a script: it opens the "player-menu" prompt on the table scene (see
``open_player_menu``), for the menu a tapped token brings up.
"""

from __future__ import annotations

from table.control.controller import Controller
from table.ui.view import View, build_view


JOIN4 = """
tap player-1
tap player-2
tap player-3
tap player-4
"""

GEARED = JOIN4 + """
press next
tap elf
tap bow-with-ribbons
tap boots-of-butt-kicking
tap helm-of-courage
tap player-2
tap dwarf
tap player-2
tap hammer-of-kneecapping
tap player-2
tap bad-ass-bandana
tap player-3
tap wizard
tap player-3
tap staff-of-napalm
tap player-3
tap gentlemen-s-club
tap player-4
tap curse-chicken-on-your-head
tap player-4
wait 9
"""

SCENES: dict[str, str] = {
    "setup": JOIN4 + "die 3\npress roll\n",
    "table": GEARED,
    "refusal": GEARED + "press roll\n",
    "combat": GEARED + "tap net-troll\npress help\ntap player-2\n",
    "interference": GEARED + "tap gelatinous-octahedron\npress next\nwait 1.2\n",
    "helper-prompt": GEARED + "tap net-troll\npress help\n",
    "card-menu": GEARED + "tap boots-of-butt-kicking\n",
    "sales-basket": GEARED + "tap boots-of-butt-kicking\npress help\ntap bow-with-ribbons\npress help\ntap helm-of-courage\n",
    "run-away": GEARED + "tap net-troll\npress help\ntap player-2\ntap player-3\ntap ancient\npress run\ndie 2\npress roll\n",
    "charity": GEARED + "press next\npress next\n",
    "side-prompt": GEARED + "tap net-troll\ntap player-3\ntap magic-missile\n",
    "give-prompt": GEARED + "tap boots-of-butt-kicking\npress run\n",
    "sell-from-hand": GEARED + "press help\ntap helm-of-courage\ntap 1000-gold-pieces\ntap magic-missile\n",
    "game-over": JOIN4 + """
press next
tap 1000-gold-pieces
tap boil-an-anthill
tap bribe-gm-with-food
tap convenient-addition-error
tap invoke-obscure-rules
tap lame-goblin
press next
wait 3
tap mutilate-the-bodies
press next
tap player-2
tap whine-at-the-gm
press next
press next
press next
press next
press next
press next
tap player-4
tap 1000-gold-pieces
press next
press next
press next
tap potion-of-general-studliness
tap bow-with-ribbons
tap elf
tap lame-goblin
press next
wait 3
""",
}


# From the setup after a game: the standings (HELP), the past games (RUN), a token choosing its name.
AFTER_A_GAME = SCENES["game-over"] + "press next\n"
SCENES["standings"] = AFTER_A_GAME + "press help\n"
SCENES["past-games"] = AFTER_A_GAME + "press run\n"
SCENES["name-choice"] = AFTER_A_GAME + JOIN4 + "tap player-2\npress roll\n"


PLAYER_MENU = "player-menu"
def open_player_menu(ctl: Controller, language: str = "en", player: str = "player-2") -> View:
    """The View with ``player``'s menu open, as a tap of their token opens it."""

    ctl.tap_token(player)
    return build_view(ctl, language=language)
