"""The enrollment wizard's screen: what to tap, where we are in the deck, the last result.

``draw_enroll`` draws on the table's Frame (its fonts, the CJK one in Chinese, its fitted text that
records what went where, its colours, panels and soft-key bar) from ``EnrollShown``: what the
wizard (table.app.enroll) hands it. The screen knows nothing of the wizard, its drivers or the
Display.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pygame

from cards.enroll import EnrollmentSession, Say, SingleCardSession
from engine.cards import CardDef
from table.words.i18n import _, text as i18n_text
from table.ui.screens import bars
from table.ui.screens.kit import ACTIVE, BAD, BG, DIM, GOOD, KEY_OFF, PANEL, REFUSAL, TEXT

from table.ui.frame import Frame


@dataclass(frozen=True)
class EnrollShown:
    """What the wizard's screen shows: the session, the last result, the reader, the keys."""

    session: EnrollmentSession | SingleCardSession
    catalog: Mapping[str, CardDef]
    says: Say                           # the last result, or what to do
    kind: str                           # info | good | refusal
    soft_keys: dict[str, str]           # button -> its English label
    reader_online: bool | None = None
    sim: bool = False                   # the simulated reader: a UID is typed, so the hint shows
    entry: str = ""                     # the UID being typed


def draw_enroll(f: Frame, shown: EnrollShown) -> None:
    """The wizard's frame, in the table's bands: a top bar, the body, the soft keys."""
    w, h = f.size
    s = f.s
    top = int((76 if f.portrait else 40) * s)
    keys_h = int((80 if f.portrait else 62) * s)
    draw_top(f, shown, pygame.Rect(0, 0, w, top))
    body = pygame.Rect(int(8 * s), top, w - int(16 * s), h - top - keys_h - int(6 * s))
    draw_body(f, shown, body)
    bars.draw_soft_keys(f, shown.soft_keys, pygame.Rect(0, h - keys_h, w, keys_h))


def draw_top(f: Frame, shown: EnrollShown, bar: pygame.Rect) -> None:
    """The wizard's title, and how far the deck is (and the reader's state)."""
    s, session = f.s, shown.session
    x = int(10 * s)
    if f.portrait:
        row = bar.h // 2
        title = pygame.Rect(x, 0, bar.w - 2 * x, row)
        status = pygame.Rect(x, row, bar.w - 2 * x, row)
    else:
        title = pygame.Rect(x, 0, int(bar.w * 0.45) - x, bar.h)
        status = pygame.Rect(int(bar.w * 0.45), 0, int(bar.w * 0.55) - x, bar.h)
    f.panels["title"], f.panels["status"] = title, status
    f.t(_("Enroll the deck"), 22, TEXT, title, y=title.y + (title.h - f.painter.line_height(int(22 * s))) // 2)
    text = _("{done} / {total} enrolled").format(done=session.done, total=session.total)
    if session.skipped_count:
        text += " · " + _("{n} skipped").format(n=session.skipped_count)
    align = "left" if f.portrait else "right"
    if shown.reader_online is False:
        r = f.t(_("READER OFFLINE"), 18, BAD, status, y=status.y + (status.h - f.painter.line_height(int(18 * s))) // 2,
                align=align)
        if f.portrait:
            status = pygame.Rect(r.right + int(12 * s), status.y, max(0, status.right - r.right - int(12 * s)), status.h)
        else:
            status = pygame.Rect(status.x, status.y, max(0, r.x - status.x - int(12 * s)), status.h)
    f.t(text, 20, DIM, status, y=status.y + (status.h - f.painter.line_height(int(20 * s))) // 2, align=align)


def draw_body(f: Frame, shown: EnrollShown, body: pygame.Rect) -> None:
    """What to tap, the progress bar, the last result, and the simulator's hint."""
    p, s, session = f.painter, f.s, shown.session
    gap = int((16 if f.portrait else 8) * s)
    # heights, top to bottom: what to tap, the progress bar, the last result, the simulator's hint
    step = session.current()
    name = i18n_text(step.title) if step is not None else ""
    name_size = 56 if f.portrait else 64
    name_lines = 1
    room = body.w - int(48 * s)
    if f.portrait and p.width(name, int(name_size * s)) > room:
        name_lines = 2                          # a long name on a narrow screen: two lines, not an ellipsis
        while name_size > 36 and p.width(name, int(name_size * s)) > 1.6 * room:
            name_size -= 4
    sizes = (24, name_size, 24)
    content = (p.line_height(int(sizes[0] * s)) + name_lines * p.line_height(int(sizes[1] * s))
               + int(6 * s) + p.line_height(int(sizes[2] * s)))
    if step is None:
        content = 3 * p.line_height(int(30 * s))
    result_size, result_lines = (24, 4) if f.portrait else (22, 3)
    lh = p.line_height(int(result_size * s))
    result_h = result_lines * lh + int(14 * s)
    bar_h = int(30 * s)
    hint_text = _("simulator: type a tag UID in hex and press Enter; F4 = NEXT, F5 = UNDO, F3 = RUN")
    # the simulator's hint on two lines where one would need tiny type (a narrow screen, a longer language)
    hint_lines = 1 if p.width(hint_text, int(16 * s)) <= body.w - int(12 * s) else 2
    hint_h = hint_lines * p.line_height(int(16 * s)) if shown.sim else 0
    rest = bar_h + result_h + 2 * gap + (hint_h + gap if hint_h else 0)
    card_h = body.h - rest - int(4 * s)
    y = body.y + int(4 * s)
    if f.portrait:                              # a tall screen: the panels together, in the middle
        card_h = min(card_h, content + int(120 * s))
        y = body.y + max(int(4 * s), (body.h - rest - card_h) // 2)

    card_box = pygame.Rect(body.x, y, body.w, card_h)
    _draw_step(f, shown, card_box, content, (name, name_lines, sizes))
    bar = pygame.Rect(body.x, card_box.bottom + gap, body.w, bar_h)
    _draw_progress(f, shown, bar)
    result = pygame.Rect(body.x, bar.bottom + gap, body.w, result_h)
    _draw_result(f, shown, result, result_size, result_lines)

    if hint_h:
        hint = pygame.Rect(body.x + int(6 * s), result.bottom + gap, body.w - int(12 * s), hint_h)
        f.panels["hint"] = hint
        if shown.entry:
            f.t(_("tag: {entry}_").format(entry=shown.entry), 16, ACTIVE, hint)
        else:
            p.wrap(hint_text, 16 * s, DIM, hint, y=hint.y, max_lines=hint_lines)


def _draw_step(f: Frame, shown: EnrollShown, card_box: pygame.Rect, content: int,
               name_fit: tuple[str, int, tuple[int, int, int]]) -> None:
    """What to tap now: the card's name (``name_fit``: the name, its lines, the three type sizes)
    and where it is in the deck; at the end, what is left to do."""
    p, s, session = f.painter, f.s, shown.session
    name, name_lines, sizes = name_fit
    step = session.current()
    p.panel(card_box)
    f.panels["card"] = card_box
    inner = card_box.inflate(-int(24 * s), -int(16 * s))
    ty = inner.y + max(0, (inner.h - content) // 2)
    if step is None:
        p.wrap(i18n_text(session.prompt_says()), 30 * s, GOOD, inner, y=ty, max_lines=3)
        return
    detail = [_("{n} of {total}").format(n=step.number, total=session.total)]
    if step.copies > 1:
        detail.append(_("copy {i} of {n}").format(i=step.copy, n=step.copies))
    if step.card in shown.catalog:
        card = shown.catalog[step.card]
        detail += [_(card.deck), _(card.kind.value)]
        if card.set_id != "base":
            detail.append(_("{set} set").format(set=card.set_id))
    f.t(_("tap"), sizes[0], DIM, inner, y=ty)
    ty += p.line_height(int(sizes[0] * s))
    if name_lines == 2:
        ty = p.wrap(name, sizes[1] * s, ACTIVE, inner, y=ty, max_lines=2)
    else:
        f.t(name, sizes[1], ACTIVE, inner, y=ty, shrink=0.45)
        ty += p.line_height(int(sizes[1] * s))
    f.t(" · ".join(detail), sizes[2], TEXT, inner, y=ty + int(6 * s))


def _draw_progress(f: Frame, shown: EnrollShown, bar: pygame.Rect) -> None:
    """The progress bar: enrolled in green, skipped in grey."""
    s, session = f.s, shown.session
    f.panels["progress"] = bar
    radius = int(8 * s)
    pygame.draw.rect(f.window, KEY_OFF, bar, border_radius=radius)
    total = max(1, session.total)
    done_w = int(bar.w * min(session.done, total) / total)
    skip_w = min(int(bar.w * session.skipped_count / total), bar.w - done_w)
    if done_w:
        pygame.draw.rect(f.window, GOOD, (bar.x, bar.y, done_w, bar.h), border_radius=radius)
    if skip_w:
        pygame.draw.rect(f.window, DIM, (bar.x + done_w, bar.y, skip_w, bar.h))
    f.t(f"{int(100 * session.progress)}%", 18, BG if session.progress > 0.5 else TEXT, bar,
        y=bar.y + (bar.h - f.painter.line_height(int(18 * s))) // 2, align="center")


def _draw_result(f: Frame, shown: EnrollShown, result: pygame.Rect, size: int, lines: int) -> None:
    """The last result: what the tap did, or why it was refused (on the table's refusal red)."""
    p, s, kind = f.painter, f.s, shown.kind
    p.panel(result, REFUSAL if kind == "refusal" else PANEL)
    f.panels["result"] = result
    text = i18n_text(shown.says)
    if kind == "refusal" and p.has_glyph("✗", int(size * s)):
        text = "✗ " + text                      # the CJK font has no ✗: no box instead of it
    inner = result.inflate(-int(20 * s), -int(14 * s))
    p.wrap(text, size * s, GOOD if kind == "good" else TEXT, inner, y=inner.y, max_lines=lines)
