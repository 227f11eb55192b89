"""The live board's pages: their words in the table's language, and the shell board.js draws into.

The board itself is drawn in the phone's browser from the event stream; a page is this shell with
its words, the card names and the key.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field

from engine.cards import Catalog
from table.words.i18n import _


@dataclass
class PageContext:
    """What every page needs besides the state: the language, its words and the card names."""

    language: str = "en"
    labels: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    title: str = "Munchkin table"



def page_context(catalog: Catalog, language: str) -> PageContext:
    """The page's words in the table's language (the screen's own where it has them) and the card names."""
    labels = {
        "setup": _("Setup"), "kick-open-the-door": _("Kick"), "look-for-trouble": _("Trouble / Loot"),
        "combat": _("Combat"), "run-away": _("Running away"), "charity": _("Charity"), "game-over": _("Game over"),
        "turn": _("Turn {n}"), "level": _("level"), "strength": _("strength"), "human": _("Human"),
        "dead": _("DEAD"), "carried": _("(carried)"), "players": _("Players"), "monsters": _("Monsters"),
        "players_win": _("PLAYERS WIN by {n}"), "players_tie": _("PLAYERS WIN (tie)"),
        "monsters_win": _("MONSTERS WIN by {n}"), "monsters_tie": _("MONSTERS WIN (tie)"),
        "interfere": _("interfere now! {t:.1f} s"), "won": _("{names} won!"), "turns": _("turns"),
        "helper": _("helper"), "acting": _("acting"), "bad_stuff": _("Bad stuff: {text}"),
        "treasures": _("treasures {t} · +{l} level"), "seats": _("Seats"), "empty": _("(empty seat)"),
        "join": _("Tap your player token to join ({lo}–{hi} players)"), "gear": _("Gear"), "curses": _("Curses"),
        "offline": _("Connection to the table lost; reconnecting…"),
        "busy": _("The table is busy; trying again…"),
        "rekey": _("This page's key was changed: scan the code on the table's screen again"), "title": _("Munchkin table"),
        "history": _("Past games"), "stats": _("Standings"),
        "can": _("What can you do now?"), "seat": _("seat {n}"),
        "button_roll": _("ROLL"), "button_help": _("HELP"), "button_run": _("RUN"), "button_next": _("NEXT"),
        "button_undo": _("UNDO"),
    }
    names = {cid: card.name_in(language) for cid, card in catalog.items()}
    return PageContext(language=language, labels=labels, names=names, title=labels["title"])


def render_page(context: PageContext, key: str, mode: str, player: str = "") -> str:
    """The page shell: the board is drawn by board.js from the event stream."""

    config = {"mode": mode, "player": player, "key": key, "language": context.language,
              "labels": context.labels, "names": context.names}
    data = json.dumps(config, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    k = html.escape(key, quote=True)
    title = html.escape(context.title)
    return f"""<!doctype html>
<html lang="{html.escape(context.language)}" class="mode-{mode}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<title>{title}</title>
<link rel="stylesheet" href="/static/board.css?key={k}">
</head>
<body class="mode-{mode}">
<div id="status" class="status" role="status" hidden></div>
<main id="board" aria-live="polite"></main>
<script id="config" type="application/json">{data}</script>
<script src="/static/board.js?key={k}"></script>
</body>
</html>
"""
