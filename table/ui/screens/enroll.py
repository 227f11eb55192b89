"""The enrollment wizard's screen: what to tap, where we are in the deck, the last result.

It draws through the table's Display (its fonts, fitted text, colours, panels and soft keys);
pygame is imported only when a screen is opened, so the enroll command's other paths stay light.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from drivers.sim import SimReader
from table.config import Config

if TYPE_CHECKING:
    import pygame

    from table.app.enroll import EnrollApp


class EnrollScreen:
    """Draws the wizard: what to tap, where we are in the deck, the last result, the soft keys.

    The table's Display does the work: its fonts (the CJK one in Chinese), its fitted text
    that records what went where, its colours, panels and soft-key bar.
    """

    def __init__(self, size: tuple[int, int], *, fullscreen: bool = False, language: str = "en", font: str = "") -> None:
        from table.ui.display import Display

        self.display = Display(size, fullscreen=fullscreen, title="munchkin-table: enroll", language=language, font=font)
        self.frames = 0

    @classmethod
    def for_config(cls, config: Config, *, fullscreen: bool = False) -> EnrollScreen:
        return cls((config.display.width, config.display.height), fullscreen=fullscreen,
                   language=config.display.language, font=config.display.font)

    @property
    def drawn(self) -> list[Any]:
        return self.display.drawn

    def render(self, app: EnrollApp) -> None:
        import pygame

        from table.ui.screens import bars
        from table.ui.screens.kit import BG
        from table.ui.view import View

        d = self.display
        d.painter.drawn = []
        d.hits = []
        d.panels = {}
        w, h = d.size
        s = d.s
        d.window.fill(BG)
        # the table's bands: a top bar, the body, the soft keys
        top = int((76 if d.portrait else 40) * s)
        keys_h = int((80 if d.portrait else 62) * s)
        self.draw_top(app, pygame.Rect(0, 0, w, top))
        body = pygame.Rect(int(8 * s), top, w - int(16 * s), h - top - keys_h - int(6 * s))
        self.draw_body(app, body)
        bars.draw_soft_keys(d, View(state={}, names={}, soft_keys=app.soft_keys()), pygame.Rect(0, h - keys_h, w, keys_h))
        pygame.display.flip()
        self.frames += 1

    def draw_top(self, app: EnrollApp, bar: pygame.Rect) -> None:
        import pygame

        from table.ui.screens.kit import BAD, DIM, TEXT
        from table.ui.i18n import _

        d, s, session = self.display, self.display.s, app.session
        x = int(10 * s)
        if d.portrait:
            row = bar.h // 2
            title = pygame.Rect(x, 0, bar.w - 2 * x, row)
            status = pygame.Rect(x, row, bar.w - 2 * x, row)
        else:
            title = pygame.Rect(x, 0, int(bar.w * 0.45) - x, bar.h)
            status = pygame.Rect(int(bar.w * 0.45), 0, int(bar.w * 0.55) - x, bar.h)
        d.panels["title"], d.panels["status"] = title, status
        d.t(_("Enroll the deck"), 22, TEXT, title, y=title.y + (title.h - d.painter.line_height(int(22 * s))) // 2)
        text = _("{done} / {total} enrolled").format(done=session.done, total=session.total)
        if session.skipped_count:
            text += " · " + _("{n} skipped").format(n=session.skipped_count)
        align = "left" if d.portrait else "right"
        if app.reader_online is False:
            r = d.t(_("READER OFFLINE"), 18, BAD, status, y=status.y + (status.h - d.painter.line_height(int(18 * s))) // 2,
                    align=align)
            if d.portrait:
                status = pygame.Rect(r.right + int(12 * s), status.y, max(0, status.right - r.right - int(12 * s)), status.h)
            else:
                status = pygame.Rect(status.x, status.y, max(0, r.x - status.x - int(12 * s)), status.h)
        d.t(text, 20, DIM, status, y=status.y + (status.h - d.painter.line_height(int(20 * s))) // 2, align=align)

    def draw_body(self, app: EnrollApp, body: pygame.Rect) -> None:
        import pygame

        from table.ui.screens.kit import ACTIVE, BG, DIM, GOOD, KEY_OFF, PANEL, REFUSAL, TEXT
        from table.ui.i18n import _, text as i18n_text

        d, p, s, session = self.display, self.display.painter, self.display.s, app.session
        gap = int((16 if d.portrait else 8) * s)
        # heights, top to bottom: what to tap, the progress bar, the last result, the simulator's hint
        step = session.current()
        name = i18n_text(step.title) if step is not None else ""
        name_size = 56 if d.portrait else 64
        name_lines = 1
        room = body.w - int(48 * s)
        if d.portrait and p.width(name, int(name_size * s)) > room:
            name_lines = 2                          # a long name on a narrow screen: two lines, not an ellipsis
            while name_size > 36 and p.width(name, int(name_size * s)) > 1.6 * room:
                name_size -= 4
        sizes = (24, name_size, 24)
        content = (p.line_height(int(sizes[0] * s)) + name_lines * p.line_height(int(sizes[1] * s))
                   + int(6 * s) + p.line_height(int(sizes[2] * s)))
        if step is None:
            content = 3 * p.line_height(int(30 * s))
        result_size, result_lines = (24, 4) if d.portrait else (22, 3)
        lh = p.line_height(int(result_size * s))
        result_h = result_lines * lh + int(14 * s)
        bar_h = int(30 * s)
        hint_text = _("simulator: type a tag UID in hex and press Enter; F4 = NEXT, F5 = UNDO, F3 = RUN")
        # the simulator's hint on two lines where one would need tiny type (a narrow screen, a longer language)
        hint_lines = 1 if p.width(hint_text, int(16 * s)) <= body.w - int(12 * s) else 2
        hint_h = hint_lines * p.line_height(int(16 * s)) if isinstance(app.reader, SimReader) else 0
        rest = bar_h + result_h + 2 * gap + (hint_h + gap if hint_h else 0)
        card_h = body.h - rest - int(4 * s)
        y = body.y + int(4 * s)
        if d.portrait:                              # a tall screen: the panels together, in the middle
            card_h = min(card_h, content + int(120 * s))
            y = body.y + max(int(4 * s), (body.h - rest - card_h) // 2)

        # what to tap now
        card_box = pygame.Rect(body.x, y, body.w, card_h)
        p.panel(card_box)
        d.panels["card"] = card_box
        inner = card_box.inflate(-int(24 * s), -int(16 * s))
        ty = inner.y + max(0, (inner.h - content) // 2)
        if step is None:
            p.wrap(i18n_text(session.prompt_says()), 30 * s, GOOD, inner, y=ty, max_lines=3)
        else:
            detail = [_("{n} of {total}").format(n=step.number, total=session.total)]
            if step.copies > 1:
                detail.append(_("copy {i} of {n}").format(i=step.copy, n=step.copies))
            if step.card in app.catalog:
                card = app.catalog[step.card]
                detail += [_(card.deck), _(card.kind.value)]
                if card.set_id != "base":
                    detail.append(_("{set} set").format(set=card.set_id))
            d.t(_("tap"), sizes[0], DIM, inner, y=ty)
            ty += p.line_height(int(sizes[0] * s))
            if name_lines == 2:
                ty = p.wrap(name, sizes[1] * s, ACTIVE, inner, y=ty, max_lines=2)
            else:
                d.t(name, sizes[1], ACTIVE, inner, y=ty, shrink=0.45)
                ty += p.line_height(int(sizes[1] * s))
            d.t(" · ".join(detail), sizes[2], TEXT, inner, y=ty + int(6 * s))

        # the progress bar: enrolled in green, skipped in grey
        bar = pygame.Rect(body.x, card_box.bottom + gap, body.w, bar_h)
        d.panels["progress"] = bar
        radius = int(8 * s)
        pygame.draw.rect(d.window, KEY_OFF, bar, border_radius=radius)
        total = max(1, session.total)
        done_w = int(bar.w * min(session.done, total) / total)
        skip_w = min(int(bar.w * session.skipped_count / total), bar.w - done_w)
        if done_w:
            pygame.draw.rect(d.window, GOOD, (bar.x, bar.y, done_w, bar.h), border_radius=radius)
        if skip_w:
            pygame.draw.rect(d.window, DIM, (bar.x + done_w, bar.y, skip_w, bar.h))
        d.t(f"{int(100 * session.progress)}%", 18, BG if session.progress > 0.5 else TEXT, bar,
            y=bar.y + (bar.h - p.line_height(int(18 * s))) // 2, align="center")

        # the last result: what the tap did, or why it was refused (on the table's refusal red)
        result = pygame.Rect(body.x, bar.bottom + gap, body.w, result_h)
        kind = app.line.kind
        p.panel(result, REFUSAL if kind == "refusal" else PANEL)
        d.panels["result"] = result
        text = i18n_text(app.line.says)
        if kind == "refusal" and p.has_glyph("✗", int(result_size * s)):
            text = "✗ " + text                      # the CJK font has no ✗: no box instead of it
        inner = result.inflate(-int(20 * s), -int(14 * s))
        p.wrap(text, result_size * s, GOOD if kind == "good" else TEXT, inner, y=inner.y, max_lines=result_lines)

        if hint_h:
            hint = pygame.Rect(body.x + int(6 * s), result.bottom + gap, body.w - int(12 * s), hint_h)
            d.panels["hint"] = hint
            if app.entry:
                d.t(_("tag: {entry}_").format(entry=app.entry), 16, ACTIVE, hint)
            else:
                p.wrap(hint_text, 16 * s, DIM, hint, y=hint.y, max_lines=hint_lines)

    def save(self, path: Path) -> None:
        self.display.save(path)

    def close(self) -> None:
        self.display.close()
