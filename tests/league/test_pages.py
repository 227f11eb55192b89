"""/league in the web view and the board-only screen, from what a real broker holds, in the table's language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from table.league.standings import standings
from table.league.watch import LeagueWatch
from table.words.i18n import set_language
from table.web.hub import Hub
from table.web.league import league_data, league_page
from table.web.pages import page_context
from table.web.server import WebApp, WebServer
from tests.league.rig import ANN_WINS, BOB_WINS, Box, league_config, until
from tests.web.conftest import KEY, http


@pytest.fixture
def language():  # type: ignore[no-untyped-def]
    yield set_language
    set_language("en")


@pytest.fixture
def league_night(tmp_path: Path, broker):  # type: ignore[no-untyped-def]
    boxes = [Box(league_config(tmp_path / t, broker.url(), t)) for t in ("table-a", "table-b")]
    boxes[0].play(ANN_WINS)
    boxes[1].play(BOB_WINS)
    until(lambda: all(b.waiting() == 0 for b in boxes), what="both games acknowledged")
    watch = LeagueWatch(league_config(tmp_path / "board", broker.url(), "board", password="pw-board").league).follow()
    until(lambda: watch.ready and len(watch.snapshot().games) == 2
          and all(t.state is not None for t in watch.snapshot().tables.values()), what="the watch has the league")
    yield boxes, watch
    watch.close()
    for box in boxes:
        box.close()


def test_the_league_page_and_its_json_follow_the_broker(league_night, language) -> None:
    boxes, watch = league_night
    server = WebServer(WebApp(Hub(), KEY, page_context(boxes[0].table.catalog, "en"), league=watch.snapshot,
                              league_name="friday"), "127.0.0.1", 0)
    server.start()
    try:
        base = f"http://127.0.0.1:{server.port}"
        status, headers, body = http(f"{base}/api/league?key={KEY}")
        assert status == 200 and headers["content-type"].startswith("application/json")
        data = json.loads(body)
        assert data["standings"] == json.loads(json.dumps(standings(watch.snapshot())))
        assert {t["table"] for t in data["tables"]} == {"table-a", "table-b"}
        status, _h, body = http(f"{base}/league?key={KEY}")
        page = body.decode()
        assert status == 200 and "League friday" in page and "Ann" in page and "table-b" in page
        assert http(f"{base}/league")[0] == 403             # the key, as every page
        boxes[0].new_game()
        boxes[0].play(BOB_WINS)                             # a third game: the page follows
        until(lambda: json.loads(http(f"{base}/api/league?key={KEY}")[2])["standings"]["games"] == 3,
              what="the third game on /api/league")
    finally:
        server.stop()


def test_without_a_league_there_is_no_league_page(tmp_path: Path, catalog) -> None:
    server = WebServer(WebApp(Hub(), KEY, page_context(catalog, "en")), "127.0.0.1", 0)
    server.start()
    try:
        assert http(f"http://127.0.0.1:{server.port}/league?key={KEY}")[0] == 404
    finally:
        server.stop()


@pytest.mark.parametrize("lang, title, word", [("es", "Liga friday", "partidas"), ("zh", "联赛 friday", "胜")])
def test_the_league_page_is_in_the_tables_language(league_night, language, lang: str, title: str, word: str) -> None:
    _boxes, watch = league_night
    language(lang)
    page = league_page(league_data(watch.snapshot()), "friday", lang)
    assert title in page and word in page and "League" not in page


def test_the_league_board_draws_the_standings_and_the_tables(league_night, language) -> None:
    from table.config import parse_config
    from table.ui.league_board import draw_league_board
    from table.ui.screen import headless_display

    _boxes, watch = league_night
    display = headless_display(parse_config({}))
    try:
        draw_league_board(display.painter, league_data(watch.snapshot()), "friday", s=display.s)
        shown = [d.text for d in display.painter.drawn]
        assert "League friday" in shown and "1. Ann" in shown or "1. Bob" in shown
        assert "table-a" in shown and "table-b" in shown and "2 tables · 2 games" in shown
        display.painter.drawn.clear()
        draw_league_board(display.painter, league_data(None), "friday", s=display.s)
        assert "waiting for the league broker" in [d.text for d in display.painter.drawn]
    finally:
        display.close()
