"""``munchkin-table cards checklist [--html] [--json]``: every tag to enroll, in the order the
enrollment wizard asks for them (cards/enroll.py ``checklist``, the wizard's own ordering), one
row per physical copy: the six player tokens, then each copy of each card.

Sort the deck in this order before ``munchkin-table enroll`` and the wizard's prompts follow the
pile. ``--html`` is a page to print (self-contained, every name escaped); ``--json`` a list of rows.
"""

from __future__ import annotations

import html
import json
import sys

from cards.enroll import Step, checklist
from engine.cards import Catalog
from engine.state import PLAYER_TOKENS
from table.words.i18n import N_
from table.words.user import _, user_language

N_("player token")      # the kind of a token's row, beside the cards' kinds (monster, curse …) the catalogs hold


def _kind(catalog: Catalog, step: Step) -> str:
    return "player token" if step.card in PLAYER_TOKENS else catalog[step.card].kind.value


def _set(catalog: Catalog, step: Step) -> str:
    return "" if step.card in PLAYER_TOKENS else catalog[step.card].set_id


def _name(catalog: Catalog, step: Step, lang: str, for_people: bool) -> str:
    """A card by its name in the table's language (the deck's); a token in the user's language, for
    people (JSON stays the same whatever the locale)."""
    if step.card in PLAYER_TOKENS:
        return _("player token {n}").format(n=step.card.split("-")[1]) if for_people else step.name
    return catalog[step.card].name_in(lang)


def rows(catalog: Catalog, lang: str = "en", *, for_people: bool = True) -> list[dict[str, object]]:
    """The checklist as data: one dict per tag, in the wizard's order; card names in ``lang``."""
    return [{"number": s.number, "card": s.card, "name": _name(catalog, s, lang, for_people), "copy": s.copy,
             "copies": s.copies, "kind": _kind(catalog, s), "set": _set(catalog, s)} for s in checklist(catalog)]


def summary(steps: list[dict[str, object]]) -> str:
    tokens = sum(1 for s in steps if s["card"] in PLAYER_TOKENS)
    return _("{tags} tags: {copies} card copies and {tokens} player tokens").format(
        tags=len(steps), copies=len(steps) - tokens, tokens=tokens)


def as_text(steps: list[dict[str, object]]) -> str:
    width = max([len(str(s["name"])) for s in steps] + [4])
    lines = [f"{'#':>4}  {_('card'):{width}}  {_('copy'):>5}  {_('kind'):18}  id"]
    for s in steps:
        copy = f"{s['copy']}/{s['copies']}"
        lines.append(f"{s['number']:>4}  {s['name']!s:{width}}  {copy:>5}  {_(str(s['kind'])):18}  {s['card']}")
    lines.append(summary(steps))
    return "\n".join(lines) + "\n"


PAGE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font: 11pt/1.3 sans-serif; margin: 1.5cm; color: #000; }}
h1 {{ font-size: 16pt; margin: 0 0 .3em; }}
p {{ margin: 0 0 1em; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ border-bottom: 1px solid #999; padding: .15em .4em; text-align: left; vertical-align: top; }}
th {{ border-bottom: 2px solid #000; }}
td.n, td.c {{ text-align: right; white-space: nowrap; }}
td.box {{ width: 1.2em; }}
td.box::before {{ content: ""; display: inline-block; width: .9em; height: .9em; border: 1px solid #000; }}
tr.token td {{ font-weight: bold; }}
thead {{ display: table-header-group; }}
tr {{ page-break-inside: avoid; }}
code {{ font-size: 9pt; }}
</style>
</head>
<body>
<h1>{title}</h1>
<p>{intro}</p>
<table>
<thead><tr><th></th><th>#</th><th>{card}</th><th>{copy}</th><th>{kind}</th><th>{set}</th><th>id</th></tr></thead>
<tbody>
{rows}
</tbody>
</table>
<p>{summary}</p>
</body>
</html>
"""


def as_html(steps: list[dict[str, object]], lang: str) -> str:
    """A printable page: a box to tick per tag, in the wizard's order. Every text is escaped."""
    e = html.escape
    body = "\n".join(
        f'<tr class="{"token" if s["card"] in PLAYER_TOKENS else "card"}"><td class="box"></td>'
        f'<td class="n">{s["number"]}</td><td>{e(str(s["name"]))}</td><td class="c">{s["copy"]}/{s["copies"]}</td>'
        f'<td>{e(_(str(s["kind"])))}</td><td>{e(str(s["set"]))}</td><td><code>{e(str(s["card"]))}</code></td></tr>'
        for s in steps)
    return PAGE.format(
        lang=e(lang), title=e(_("Munchkin table: the tags to enroll, in the order the wizard asks")),
        intro=e(_("Sort the deck in this order, then run 'munchkin-table enroll': the wizard asks for "
                  "each tag in this order. Tick each row as its tag is enrolled.")),
        card=e(_("card")), copy=e(_("copy")), kind=e(_("kind")), set=e(_("set")), rows=body, summary=e(summary(steps)))


def print_checklist(catalog: Catalog, *, html_page: bool, as_json: bool, lang: str) -> int:
    steps = rows(catalog, lang, for_people=not as_json)
    if as_json:
        sys.stdout.write(json.dumps(steps, indent=2, ensure_ascii=False) + "\n")
    elif html_page:
        sys.stdout.write(as_html(steps, user_language()))     # the page's words are the user's
    else:
        sys.stdout.write(as_text(steps))
    return 0
