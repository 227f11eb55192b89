"""Overlays: the prompt banner, a card's menu (with the holder's gear or the sales basket) and a
player token's menu."""

from __future__ import annotations


import pygame

from drivers.events import BUTTONS
from engine.selling import gold_left_over, gold_short_of_a_level
from table.words.i18n import _, ngettext, shown_name, text as translate_label
from table.ui.screens.join import draw_join, join_room
from table.ui.screens.kit import ACTIVE, BG, BUTTON_COLORS, DIM, GOOD, PANEL_HI, TEXT, player_color

from table.ui.frame import Frame
from table.ui.view import View


def draw_prompt_banner(f: Frame, view: View, body: pygame.Rect) -> None:
    s = f.s
    # portrait: at the foot of the body, clear of the combat's verdict and totals
    top = body.bottom - int(96 * s) if f.portrait else body.y + int(body.h * 0.3)
    band = pygame.Rect(body.x + int(body.w * 0.1), top, int(body.w * 0.8), int(84 * s))
    f.painter.panel(band, ACTIVE)
    f.overlay(band)
    f.panels["prompt"] = band
    inner = band.inflate(-int(24 * s), -int(12 * s))
    f.t(view.prompt, 34, BG, inner, y=inner.y + (inner.h - f.painter.line_height(int(34 * s))) // 2, align="center",
           shrink=0.5)


def menu_rect(f: Frame, body: pygame.Rect, *, tall: bool = False) -> pygame.Rect:
    """Where a card or player menu goes. In portrait a ``tall`` menu (the card menu, with the
    holder's gear or the basket under it) takes most of the body."""
    if f.portrait and tall:
        return pygame.Rect(body.x + int(body.w * 0.03), body.y + int(body.h * 0.04), int(body.w * 0.94), int(body.h * 0.92))
    if f.portrait:
        return pygame.Rect(body.x + int(body.w * 0.03), body.y + int(body.h * 0.1), int(body.w * 0.94), int(body.h * 0.64))
    return pygame.Rect(body.x + int(body.w * 0.12), body.y + int(body.h * 0.04), int(body.w * 0.76), int(body.h * 0.92))


def menu_box(f: Frame, body: pygame.Rect, name: str, *, tall: bool = False) -> pygame.Rect:
    """The panel of a card or player menu, framed; returns its inner rect."""
    s = f.s
    box = menu_rect(f, body, tall=tall)
    f.painter.panel(box, PANEL_HI, border=ACTIVE, width=int(3 * s))
    f.overlay(box)
    f.panels[name] = box
    return box.inflate(-int(28 * s), -int(20 * s))


def key_row(f: Frame, button: str, label: str, row: pygame.Rect, size: float, what: str = "") -> None:
    """One soft key in a menu: its colour, its name and label, and what it does (dimmed, at the right)."""
    s = f.s
    lh = row.h
    pygame.draw.circle(f.window, BUTTON_COLORS[button], (row.x + lh // 2, row.y + lh // 2), lh // 3)
    text_box = pygame.Rect(row.x + lh + int(4 * s), row.y, row.w - lh - int(4 * s), row.h)
    if what:
        half = int(text_box.w * 0.5)
        f.t(what, size * 0.85, DIM, pygame.Rect(text_box.x + half, row.y, text_box.w - half, row.h),
               y=row.y + (lh - f.painter.line_height(int(size * 0.85 * s))) // 2, align="right")
        text_box = pygame.Rect(text_box.x, row.y, half - int(8 * s), row.h)
    f.t(f"{_(button.upper())}: {translate_label(label)}", size, TEXT, text_box,
           y=row.y + (lh - f.painter.line_height(int(size * s))) // 2)


def draw_card_menu(f: Frame, view: View, body: pygame.Rect) -> None:
    """A tapped card's menu: what it is, who holds it, what each soft key does. Without a sales
    basket and in landscape (no holder's gear under it) it shows the menu's facts and keys alone,
    so the Frame keeps it once drawn (``Frame.kept_overlay``), as a player's menu."""
    menu = view.menu
    assert menu is not None
    if view.basket or f.portrait:
        _draw_card_menu(f, view, body)
        return
    box = menu_rect(f, body, tall=True)
    key = ("card-menu", tuple(sorted(menu.items())), tuple(view.soft_keys.items()))
    f.kept_overlay(key, box, lambda: _draw_card_menu(f, view, body),
                   lambda: f.painter.panel_corners(box, PANEL_HI, border=ACTIVE, width=int(3 * f.s)))


def _draw_card_menu(f: Frame, view: View, body: pygame.Rect) -> None:
    s, menu = f.s, view.menu
    assert menu is not None
    inner = menu_box(f, body, "card-menu", tall=True)
    basket_box = None
    if view.basket:
        if f.portrait:
            basket_box = pygame.Rect(inner.x, inner.y + int(inner.h * 0.5), inner.w, inner.h - int(inner.h * 0.5))
            inner = pygame.Rect(inner.x, inner.y, inner.w, basket_box.y - inner.y - int(8 * s))
        else:
            split = int(inner.w * 0.54)
            basket_box = pygame.Rect(inner.x + split + int(12 * s), inner.y, inner.w - split - int(12 * s), inner.h)
            inner = pygame.Rect(inner.x, inner.y, split, inner.h)
    title = 42 if f.portrait else 32
    f.t(menu["name"], title, ACTIVE, inner)
    y = inner.y + f.painter.line_height(int(title * s))
    facts = [_("held by {name}").format(name=shown_name(menu["holder"])),
             _("equipped") if menu["equipped"] else _("carried (no bonus)")]
    if menu.get("bonus"):
        facts.append(_("bonus {n:+d}").format(n=menu["bonus"]))
    if menu.get("gold"):
        facts.append(_("worth {n} gold").format(n=menu["gold"]))
    if menu.get("big"):
        facts.append(_("Big"))
    size = (28 if not basket_box else 24) if f.portrait else 20 if not basket_box else 18
    lh = f.painter.line_height(int(size * s))
    keys = [b for b in BUTTONS if view.soft_keys.get(b)]
    # the keys are what the players need most: facts give way when the panel is short
    room = max(0, (inner.bottom - y - int(8 * s)) // lh - len(keys))
    for fact in facts[:room]:
        f.t(fact, size, TEXT, inner, y=y)
        y += lh
    y += int(8 * s)
    # portrait has the height: the key rows spread out, easier to tell apart across the table
    row_h = max(lh, int(min((inner.bottom - y) / max(1, len(keys)), lh * 1.5))) if f.portrait else lh
    for button in keys:
        key_row(f, button, view.soft_keys[button], pygame.Rect(inner.x, y, inner.w, row_h), size)
        y += row_h
    if f.portrait and basket_box is None:
        draw_holder_gear(f, view, pygame.Rect(inner.x, y + int(12 * s), inner.w, inner.bottom - y - int(12 * s)))
    if basket_box is not None:
        if f.portrait:
            pygame.draw.line(f.window, DIM, (basket_box.x, basket_box.y - int(4 * s)),
                             (basket_box.right, basket_box.y - int(4 * s)), 1)
        else:
            pygame.draw.line(f.window, DIM, (basket_box.x - int(6 * s), basket_box.y),
                             (basket_box.x - int(6 * s), basket_box.bottom), 1)
        draw_basket(f, view, basket_box)


def draw_holder_gear(f: Frame, view: View, r: pygame.Rect) -> None:
    """Under a portrait card menu: the holder's strength and what each of their items adds,
    the menu's card marked, so the table sees what unequipping or selling it changes."""
    s, menu = f.s, view.menu
    assert menu is not None
    p = next((p for p in view.state["players"] if p["id"] == menu.get("holder_id")), None)
    if p is None or r.h <= 0:
        return
    f.panels["holder-gear"] = r
    pygame.draw.line(f.window, DIM, (r.x, r.y), (r.right, r.y), 1)
    y = r.y + int(8 * s)
    head = _("{name}: strength {n}").format(name=shown_name(p["name"]), n=p["combat_strength"])
    f.t(head, 26, TEXT, r, y=y)
    y += f.painter.line_height(int(26 * s)) + int(4 * s)
    size = 22
    lh = f.painter.line_height(int(size * s))
    rows = [(_("level"), str(p["level"]), DIM)]
    for cid in p["equipped"]:
        bonus = view.bonus.get(cid)
        rows.append((view.names.get(cid, cid), f"{bonus:+d}" if bonus else "", ACTIVE if cid == menu["card"] else TEXT))
    for cid in p["carried"]:
        rows.append((f"{view.names.get(cid, cid)} {_('(carried)')}", "", ACTIVE if cid == menu["card"] else DIM))
    room = max(0, (r.bottom - y) // lh)
    if len(rows) > room and room > 1:
        rows = rows[:room - 1] + [(_("+{n} more").format(n=len(rows) - room + 1), "", DIM)]
    for text, value, color in rows[:room]:
        left = r
        if value:
            vr = f.t(value, size, GOOD if value.startswith("+") else color, r, y=y, align="right")
            left = pygame.Rect(r.x, y, max(0, vr.x - r.x - int(10 * s)), lh)
        f.t(text, size, color, left, x=r.x + int(16 * s), y=y)
        y += lh


def basket_summary(f: Frame, view: View) -> tuple[str, list[str], tuple[int, int, int]]:
    """The basket's total, and what it buys (and the gold it wastes) or how much it lacks."""
    total = _("{n} gold").format(n=f"{view.basket_gold:,}")
    if view.basket_levels == 0:
        return total, [_("{n} gold short of a level").format(n=f"{gold_short_of_a_level(view.basket_gold):,}")], DIM
    buys = [ngettext("buys {n} level", "buys {n} levels", view.basket_levels).format(n=view.basket_levels)]
    rest = gold_left_over(view.basket_gold)
    if rest:
        buys.append(_("{n} gold left over (no change)").format(n=rest))
    return total, buys, GOOD


def draw_basket(f: Frame, view: View, r: pygame.Rect) -> None:
    """The sales basket: each item and its gold, the total and the levels it buys."""
    s = f.s
    f.panels["basket"] = r
    head, size = (28, 24) if f.portrait else (22, 18)
    f.t(_("Sales basket"), head, ACTIVE, r)
    lh = f.painter.line_height(int(size * s))
    total, buys, color = basket_summary(f, view)
    summary_h = lh * 3 + int(6 * s)
    y = r.y + f.painter.line_height(int(head * s))
    items = view.basket
    room = max(0, (r.bottom - summary_h - y) // lh)
    if len(items) > room and room > 0:
        items = items[:room - 1]
    for item in items:
        gold = f"{item['gold']:,}"
        gr = f.t(gold, size, TEXT, r, y=y, align="right")
        f.t(item["name"], size, TEXT, pygame.Rect(r.x, y, max(0, gr.x - r.x - int(8 * s)), lh), y=y)
        y += lh
    if len(items) < len(view.basket):
        f.t(_("+{n} more").format(n=len(view.basket) - len(items)), size, DIM, r, y=y)
    y = r.bottom - summary_h + int(6 * s)
    pygame.draw.line(f.window, DIM, (r.x, y - int(3 * s)), (r.right, y - int(3 * s)), 1)
    f.t(total, size * 1.15, TEXT, r, y=y, align="right")
    y += lh + int(2 * s)
    small = f.painter.line_height(int(size * 0.9 * s))
    for line in buys:
        f.t(line, size * 0.9, color, r, y=y)
        y += small


def draw_player_menu(f: Frame, view: View, body: pygame.Rect) -> None:
    """A tapped token's own menu: who it is, and what each soft key would change. Kept by the Frame
    once drawn (``Frame.kept_overlay``): it comes back unchanged while the player's level and sex
    and the keys stay."""
    pm = view.player_menu
    assert pm is not None
    box = menu_rect(f, body)
    key = ("player-menu", tuple(sorted(pm.items())), tuple(view.soft_keys.items()), view.web_url,
           player_color(view.state, pm["id"]))
    f.kept_overlay(key, box, lambda: _draw_player_menu(f, view, body),
                   lambda: f.painter.panel_corners(box, PANEL_HI, border=ACTIVE, width=int(3 * f.s)))


def _draw_player_menu(f: Frame, view: View, body: pygame.Rect) -> None:
    s, pm = f.s, view.player_menu
    assert pm is not None
    inner = menu_box(f, body, "player-menu")
    if view.web_url:        # the player's own page, for their phone, at the menu's right
        room_w = join_room(f, view, int(inner.w * 0.3), int(inner.h * 0.7))
        if room_w:
            draw_join(f, view, pygame.Rect(inner.right - room_w, inner.y, room_w, int(inner.h * 0.7)), player=pm["id"])
            inner = pygame.Rect(inner.x, inner.y, inner.w - room_w - int(12 * s), inner.h)
    color = player_color(view.state, pm["id"])
    pygame.draw.rect(f.window, color, (inner.x, inner.y + int(4 * s), int(6 * s), f.painter.line_height(int(32 * s))
                                          - int(8 * s)), border_radius=3)
    head = pygame.Rect(inner.x + int(14 * s), inner.y, inner.w - int(14 * s), inner.h)
    f.t(shown_name(pm["name"]), 32, ACTIVE, head)
    y = inner.y + f.painter.line_height(int(32 * s))
    size = 20
    lh = f.painter.line_height(int(size * s))
    facts = f"{_('level {n}').format(n=pm['level'])} · {_(pm['sex'])}" + ("" if pm["alive"] else f" · {_('DEAD')}")
    f.t(facts, size, TEXT, inner, y=y)
    y += lh + int(8 * s)
    other = "female" if pm["sex"] == "male" else "male"
    what = {"roll": _("switch to {sex}").format(sex=_(other)),
            "help": _("level {a} → {b}").format(a=pm["level"], b=pm["level"] + 1),
            "run": _("level {a} → {b}").format(a=pm["level"], b=pm["level"] - 1),     # shown while the engine takes it
            "next": _("{name} leaves the game").format(name=shown_name(pm["name"])),
            "undo": _("close this menu")}
    row_h = max(lh, int(min((inner.bottom - y) / 5, lh * 1.6)))
    for button in BUTTONS:
        label = view.soft_keys.get(button, "")
        if not label:
            continue
        key_row(f, button, label, pygame.Rect(inner.x, y, inner.w, row_h), size, what[button])
        y += row_h
