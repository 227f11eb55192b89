"""What the screen shows, gathered from the controller into plain data for the display."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Catalog, Effect
from engine.events import FirstPlayerChosen, GameWon, RunAwayFailed, RunAwaySucceeded
from engine.messages import Msg, Seq, msg
from engine.run_away import roll_to_escape
from engine.selling import levels_for_gold
from engine.serialize import player_json, state_to_json
from engine.state import GameState, Phase, Player
from engine.strength import Part, fighter_parts, monster_parts
from table.control import pads, records as records_menu, sale
from table.control.controller import Controller
from table.control.prompts import Message, PromptKind
from table.control.state_json import can
from table.words import i18n
from table.words.i18n import _, text as translate_message

ROLL_EVENTS = (RunAwaySucceeded, RunAwayFailed, FirstPlayerChosen)      # the events that show the die rolling


@dataclass
class View:
    state: dict[str, Any]
    names: dict[str, str]                 # card id -> display name
    message: str = ""
    message_kind: str = "info"
    prompt: str = ""
    prompt_kind: str = ""                 # helper | victim | target | item | value | card-menu | player-menu | enroll | ""
    soft_keys: dict[str, str] = field(default_factory=dict)
    acting: str = ""
    reader_online: bool | None = None
    reader_message: str = ""
    window_left: float | None = None      # seconds of interference window left
    window_total: float = 0.0
    entry: str = ""                       # simulator: the card id being typed
    bonus: dict[str, int] = field(default_factory=dict)          # item in play -> its bonus
    monsters: dict[str, dict[str, Any]] = field(default_factory=dict)  # monster id -> level, treasures, bad stuff
    menu: dict[str, Any] | None = None    # the open card menu
    run_needs: dict[str, int] = field(default_factory=dict)      # fleeing player -> die roll needed
    actions: int = 0                      # accepted actions so far (changes with every one, and with undo)
    rolled: bool = False                  # the last accepted action rolled the die
    won: bool = False                     # the last accepted action won the game
    suggestions: list[tuple[str, str]] = field(default_factory=list)  # simulator picker: (id, label)
    pick: int = 0                         # simulator picker: highlighted suggestion
    first_player: str | None = None       # setup: the player the die chose
    basket: list[dict[str, Any]] = field(default_factory=list)   # items to sell: card, name, gold
    basket_gold: int = 0
    basket_levels: int = 0                # levels the basket buys (no change is given)
    player_menu: dict[str, Any] | None = None   # the open player menu: id, name, level, sex, alive
    breakdown: dict[str, list[tuple[str, str, int]]] = field(default_factory=dict)
    records: dict[str, Any] | None = None       # setup: the standings or past games page shown (records_menu)
    name_choice: dict[str, Any] | None = None   # setup: the name a token is choosing
    game_facts: dict[str, Any] | None = None    # game over: kills, deaths, the biggest fight, who helped whom
    # fighter -> what their combat strength is made of: ("level", "", n), ("item", name, bonus), ("other", "", n)
    web_url: str = ""                     # the web view's address with its key (for the QR code), when it runs
    pads: dict[str, tuple[int, bool | None, str]] = field(default_factory=dict)  # player -> their seat's pad:
                                          # (seat, online (None: not heard from), what it last read)
    pad_seat: int | None = None           # simulator: the seat whose pad typed taps go through (None: the shared pad)
    damage_notice: str = ""               # a damaged saved game's notice, whole (screens/notice.py), while it is said
    explain: list[tuple[str, str]] | None = None   # the "what can I do" panel, while open: (how, what) in words


def _levels(n: int) -> str:
    return _("lose 1 level") if n == 1 else _("lose {n} levels").format(n=n)


def _named(trait: str, catalog: Catalog) -> str:
    """A race or class a card names, as its card is called at this table."""
    return i18n.card_name(trait, catalog[trait].name) if trait in catalog else trait


# A bad-stuff step in words, by its op (engine/effects.py's vocabulary); an op not here is shown as itself.
EFFECT_WORDS: dict[str, Callable[[Effect, Catalog], str]] = {
    "lose-levels": lambda e, c: _levels(int(e.get("n", 1))),
    "lose-levels-vs": lambda e, c: _("{lose} for a {trait}").format(lose=_levels(int(e.get("n", 1))),
                                                                  trait=_named(str(e.get("trait", "")), c)),
    "set-level": lambda e, c: _("back to level {level}").format(level=e.get("level")),
    "drop-to-lowest-level": lambda e, c: _("down to the lowest level at the table"),
    "death": lambda e, c: _("death"),
    "death-or-lose-class": lambda e, c: _("death, unless a {cls}: then lose that class").format(cls=_named(str(e.get("cls", "")), c)),
    "roll-death-or-levels": lambda e, c: _("roll the die: {n} or less is death, more loses that many levels").format(
        n=e.get("death_max")),
    "lose-slot": lambda e, c: _("lose your {slot}").format(slot=_(str(e.get("slot", "")))),
    "lose-slot-or-levels": lambda e, c: _("lose your {slot}; without one, {lose}").format(
        slot=_(str(e.get("slot", ""))), lose=_levels(int(e.get("n", 1)))),
    "lose-big-items": lambda e, c: _("lose your Big items"),
    "lose-all-items": lambda e, c: _("lose all your items"),
    "lose-items-worth": lambda e, c: _("lose items worth {gold:,} gold").format(gold=int(e.get("gold", 0))),
    "roll-lose-items": lambda e, c: _("roll the die: lose that many items or cards from the hand"),
    "lose-race": lambda e, c: _("lose your race"),
    "lose-class": lambda e, c: _("lose your class"),
    "lose-class-or-levels": lambda e, c: (_("lose every class; without one, {lose}") if e.get("every", 0)
                                       else _("lose a class; without one, {lose}")).format(lose=_levels(int(e.get("n", 1)))),
    "discard-hand": lambda e, c: _("discard your hand"),
    "manual": lambda e, c: _(str(e.get("text", ""))),      # the card's instruction, from the catalogs (cards/data)
}


def describe_effect(effect: Effect, catalog: Catalog) -> str:
    """One bad-stuff step in words, for the combat screen."""
    words = EFFECT_WORDS.get(effect.op)
    return words(effect, catalog) if words is not None else effect.op.replace("-", " ")


def fighter_breakdown(state: Any, combat: Any, player: Any, catalog: Catalog, language: str) -> list[tuple[str, str, int]]:
    """A fighter's combat strength as the engine breaks it down: level, each counting item with a bonus,
    and the rest (curses, one-fight bonuses, backstabs) in one line, so the parts always add up to the total."""
    parts = fighter_parts(state, combat, player, catalog)
    shown: list[tuple[str, str, int]] = [("level", "", sum(p.value for p in parts if p.part is Part.LEVEL))]
    shown += [("item", catalog[p.card].name_in(language), p.value) for p in parts
              if p.part is Part.ITEM and p.card is not None and p.value]
    rest = sum(p.value for p in parts if p.part not in (Part.LEVEL, Part.ITEM))
    if rest:
        shown.append(("other", "", rest))
    return shown


def build_view(ctl: Controller, *, entry: str = "", language: str = "en") -> View:
    catalog = ctl.catalog
    i18n.use_catalog_names(catalog)
    state = ctl.state
    combat = state.combat
    window_left = None
    if combat is not None and combat.window_until is not None:
        window_left = max(0.0, combat.window_until - ctl.now)
    message = _message(ctl)
    prompt = ctl.prompt
    standing = ctl.standing_prompt()
    basket: list[dict[str, Any]] = [{"card": cid, "name": catalog[cid].name_in(language), "gold": catalog[cid].gold or 0}
                                    for cid in ctl.basket if cid in catalog]
    basket_gold = sale.basket_value(state, catalog, [item["card"] for item in basket])   # a Halfling's dearest twice
    state_json, bonus, (monsters, breakdown, run_needs) = _of_state(ctl, language)
    return View(
        state=state_json,
        names=catalog.names_in(language),
        message=translate_message(message.text) if message else "",
        message_kind=message.kind if message else "info",
        prompt=translate_message(prompt.text if prompt else standing[1]),
        prompt_kind=prompt.kind if prompt else standing[0],
        soft_keys=ctl.soft_keys(),
        acting=ctl.acting_player(),
        reader_online=ctl.reader_online,
        reader_message=ctl.reader_message,
        window_left=window_left,
        window_total=state.ruleset.interference_seconds,
        entry=entry,
        bonus=bonus,
        monsters=monsters,
        menu=_card_menu(ctl, language),
        run_needs=run_needs,
        actions=ctl.history_len,
        rolled=any(isinstance(e, ROLL_EVENTS) for e in ctl.last_events),
        won=any(isinstance(e, GameWon) for e in ctl.last_events),
        first_player=getattr(state, "first_player", None),
        basket=basket,
        basket_gold=basket_gold,
        basket_levels=levels_for_gold(basket_gold),
        player_menu=_player_menu(ctl),
        breakdown=breakdown,
        records=records_menu.screen_view(ctl),
        name_choice=records_menu.name_view(ctl),
        game_facts=ctl.records.summary(state, ctl.history_len) if state.phase is Phase.GAME_OVER else None,
        pads=_pads(ctl, language),
        damage_notice=_damage_notice(ctl, message),
        explain=[(item["how"], translate_message(item["what"])) for item in can(ctl)] if ctl.explaining else None,
    )


class _StateViews:
    """What the view derives from the game state alone (its JSON, the bonuses in play, the fight),
    made once per state: every accepted action makes a new state and none is changed in place,
    so the frames between two actions (a menu, a refusal, the die, the interference bar) reuse it."""

    def __init__(self) -> None:
        self.key: tuple[Any, ...] = ()
        self.made: Any = None
        self.made_count = 0          # how often it was made (for the tests)
        # each player's part of the JSON with the player it was made from: a player out of the fight
        # is only their own fields and the catalog, and an action changes one or two players of six
        self.players: dict[str, tuple[Player, Catalog, dict[str, Any]]] = {}
        self.players_made = 0

    def player(self, state: GameState, p: Player, catalog: Catalog) -> dict[str, Any]:
        kept = self.players.get(p.id)
        in_fight = state.combat is not None and p.id in state.combat.fighters
        if kept is not None and not in_fight and kept[1] is catalog and kept[0] == p:
            return kept[2]
        made = player_json(state, p, catalog)
        self.players_made += 1
        if not in_fight:
            self.players[p.id] = (p, catalog, made)
        return made

    def get(self, ctl: Controller, language: str) -> Any:
        state, catalog = ctl.state, ctl.catalog
        key = (state, catalog, language, i18n.language())     # (the fight's words are in the language shown)
        kept = self.key
        if not kept or kept[0] is not state or kept[1] is not catalog or kept[2:] != key[2:]:
            bonus = {cid: bonus for p in state.players for cid in [*p.equipped, *p.carried]
                     if cid in catalog and (bonus := catalog[cid].bonus)}
            self.key, self.made = key, (state_to_json(state, catalog, self.player), bonus, _fight(ctl, language))
            self.made_count += 1
        return self.made


_of_state_views = _StateViews()
_of_state = _of_state_views.get


def _pads(ctl: Controller, language: str) -> dict[str, tuple[int, bool | None, str]]:
    """Each seated player's pad for their panel: its seat, whether it is online, what it last read."""
    out: dict[str, tuple[int, bool | None, str]] = {}
    for player in ctl.state.players:
        pad, seat = pads.pad_of(ctl, player.id), pads.seat_of(ctl, player.id)
        if pad is None or seat is None:
            continue
        last = pad.last_card
        if last in ctl.catalog:
            last = ctl.catalog[last].name_in(language)
        elif ctl.state.has_player(last):
            last = ctl.state.player(last).name
        out[player.id] = (seat, pad.online, last)
    return out


def _damage_notice(ctl: Controller, message: Message | None) -> str:
    """What the damage notice says: the message when it tells of a damaged saved game, or, while
    the journal could not be opened at all, that the game is not lost (not an empty setup)."""
    if message is not None and _says_damage(message.text):
        return translate_message(message.text)
    session = ctl.session
    if session.journal.db is None and session.game.id == 0 and ctl.storage_fault:
        return translate_message(msg("the saved game cannot be read now: {why}; the table tries again every 2 "
                                     "seconds and shows the game as soon as it can", why=ctl.storage_fault))
    return ""


DAMAGE_WORDS = ("the saved game was damaged (", "'munchkin-table doctor' checks the journal")


def _says_damage(text: Any) -> bool:
    """Whether a message (its templates, nested ones too) tells of a damaged saved game: the start's
    repair or report, an undo refused over a damaged row. Those are too long for the message line."""
    if isinstance(text, Msg):
        return any(w in text.id for w in DAMAGE_WORDS) or any(_says_damage(v) for v in text.values.values())
    return isinstance(text, Seq) and any(_says_damage(item) for item in text.items)


def _message(ctl: Controller) -> Message | None:
    """The message line: while the game cannot be saved, it says so whatever else happened."""
    message = ctl.message
    fault = ctl.storage_fault
    if fault and (message is None or fault not in message.text):
        return Message(msg("the game cannot be saved: {why}", why=fault), "refusal")
    return message


def _fight(ctl: Controller, language: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, int]]:
    """The monsters as the combat screen shows them, each fighter's strength part by part, and the
    roll each fleeing player needs next."""
    state, catalog = ctl.state, ctl.catalog
    combat = state.combat
    monsters: dict[str, Any] = {}
    breakdown: dict[str, Any] = {}
    run_needs: dict[str, int] = {}
    if combat is None:
        return monsters, breakdown, run_needs
    fighters = [state.player(f) for f in combat.fighters if state.has_player(f)]
    for m in combat.monsters:
        card = catalog[m.card]
        monsters[m.card] = {
            "level": card.level, "treasures": card.treasures or 0, "levels": card.levels_gained or 1,
            "bad_stuff": "; ".join(t for t in (describe_effect(e, catalog) for e in card.bad_stuff) if t),
            "enhancers": [(catalog[e].name_in(language), catalog[e].bonus or 0) for e in m.enhancers if e in catalog],
            # what the level and enhancers leave unexplained: bonuses against these fighters, the floor of 1
            "rest": sum(p.value for p in monster_parts(m, fighters, catalog) if p.part not in (Part.MONSTER, Part.ENHANCER)),
        }
    for player in fighters:
        breakdown[player.id] = fighter_breakdown(state, combat, player, catalog, language)
    if state.flight is not None:
        for pid, index in reversed(state.flight.pending):        # the first one left: each player's next roll
            run_needs[pid] = roll_to_escape(state, state.player(pid), combat.monsters[index], catalog)
    return monsters, breakdown, run_needs


def _card_menu(ctl: Controller, language: str) -> dict[str, Any] | None:
    prompt, state = ctl.prompt, ctl.state
    if prompt is None or prompt.kind != PromptKind.CARD_MENU or not state.has_player(prompt.player):
        return None
    card = ctl.catalog[prompt.card]
    holder = state.player(prompt.player)
    return {"card": card.id, "name": card.name_in(language), "kind": card.kind.value,
            "holder": holder.name, "holder_id": holder.id, "bonus": card.bonus, "gold": card.gold,
            "equipped": card.id in holder.equipped,
            "slot": card.slot.value if card.slot is not None else None, "big": card.big}


def _player_menu(ctl: Controller) -> dict[str, Any] | None:
    prompt, state = ctl.prompt, ctl.state
    if prompt is None or prompt.kind != PromptKind.PLAYER_MENU or not state.has_player(prompt.player):
        return None
    p = state.player(prompt.player)
    return {"id": p.id, "name": p.name, "level": p.level, "sex": p.sex, "alive": p.alive}
