"""The web view in a real browser: Debian's headless Chromium against a real `run --sim` table."""

from __future__ import annotations

import base64
import io
import json
import os
import time
from pathlib import Path

import pytest

from tests.web.conftest import KEY, http

ROOT = Path(__file__).resolve().parents[2]
JOIN = ("tap player-1", "tap player-2", "tap player-3", "press next")


def levels_on_page(driver) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return driver.execute_script(
        "const out = {}; document.querySelectorAll('#players .player, .player.mine').forEach("
        "  (p) => { out[p.dataset.player] = Number(p.querySelector('.lvl').dataset.level); }); return out;")


def wait_for(driver, script: str, timeout: float) -> float:  # type: ignore[no-untyped-def]
    """Seconds until ``script`` is true in the page; fails after ``timeout``."""
    start = time.monotonic()
    while not driver.execute_script(script):
        if time.monotonic() - start > timeout:
            raise AssertionError(f"not true within {timeout} s: {script}")
        time.sleep(0.01)
    return time.monotonic() - start


def test_the_board_shows_every_players_level(browser, running_table) -> None:
    table = running_table()
    table.send(*JOIN, "tap 1000-gold-pieces")              # player-1 goes up a level
    table.wait_state(lambda s: s["players"] and s["players"][0]["level"] == 2)
    browser.get(table.page("/"))
    wait_for(browser, "return document.querySelectorAll('#players .player').length === 3", 10)
    assert levels_on_page(browser) == {"player-1": 2, "player-2": 1, "player-3": 1}
    assert browser.find_element("id", "phase").get_attribute("data-phase") == "kick-open-the-door"
    assert "Player 1" in browser.find_element("id", "card-player-1").text


def test_a_tap_at_the_table_changes_the_open_page_within_a_second_without_a_reload(browser, running_table) -> None:
    table = running_table()
    table.send(*JOIN)
    table.wait_state(lambda s: s["phase"] == "kick-open-the-door")
    browser.get(table.page("/p/player-1"))
    wait_for(browser, "return !!document.querySelector('.player.mine')", 10)
    browser.execute_script("window.stillTheSamePage = true;")
    table.send("tap 1000-gold-pieces")                      # a first tap, so nothing is left to warm up
    wait_for(browser, "return document.querySelector('.player.mine .lvl').dataset.level === '2'", 5)
    table.send("tap 1000-gold-pieces")
    wait_for(browser, "return document.querySelector('.player.mine .lvl').dataset.level === '3'", 1.0)
    assert browser.execute_script("return window.stillTheSamePage === true")
    assert browser.execute_script("return document.querySelector('#players .player') !== null")


def test_the_phone_page_screenshot_for_the_readme(browser, running_table, tmp_path: Path) -> None:
    """The README's picture of a player's page during a fight, taken here so it stays true
    (into docs/ with MUNCHKIN_DOCS_SCREENSHOTS=1)."""
    table = running_table()
    table.send(*JOIN, "tap 1000-gold-pieces", "tap boots-of-butt-kicking", "tap net-troll")
    table.wait_state(lambda s: s["phase"] == "combat")
    browser.get(table.page("/p/player-1"))
    wait_for(browser, "return !!document.querySelector('#combat')", 10)
    browser.set_window_size(412, 915)
    png = browser.get_screenshot_as_png()
    if os.environ.get("MUNCHKIN_DOCS_SCREENSHOTS") != "1":      # a test run never changes the tree
        out = tmp_path / "web-phone.png"
    else:
        out = ROOT / "docs" / "web-phone.png"
    if not out.exists() or out.read_bytes() != png:
        out.parent.mkdir(exist_ok=True)
        out.write_bytes(png)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Net Troll" in browser.find_element("id", "combat").text


def test_the_overlay_has_a_transparent_background(browser, running_table) -> None:
    import pygame

    table = running_table()
    table.send(*JOIN)
    table.wait_state(lambda s: s["phase"] == "kick-open-the-door")
    browser.get(table.page("/overlay"))
    wait_for(browser, "return document.querySelectorAll('#players .player').length === 3", 10)
    assert browser.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
    assert browser.execute_script("return getComputedStyle(document.documentElement).backgroundColor") == "rgba(0, 0, 0, 0)"
    browser.execute_cdp_cmd("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
    try:
        shot = browser.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})
    finally:
        browser.execute_cdp_cmd("Emulation.setDefaultBackgroundColorOverride", {})
    image = pygame.image.load(io.BytesIO(base64.b64decode(shot["data"])), "shot.png")
    assert image.get_at((2, 2)).a == 0                       # the page itself: nothing
    rect = browser.execute_script("const r = document.getElementById('card-player-1').getBoundingClientRect();"
                                  "return [r.x + r.width / 2, r.y + r.height / 2, devicePixelRatio];")
    x, y, ratio = rect
    assert image.get_at((int(x * ratio), int(y * ratio))).a > 0    # a player's panel: drawn


def test_without_the_key_the_browser_gets_403_and_sees_no_game(browser, running_table) -> None:
    table = running_table()
    table.send(*JOIN)
    table.wait_state(lambda s: s["phase"] == "kick-open-the-door")
    browser.delete_all_cookies()
    browser.get(table.page("/", key=None))
    assert "forbidden" in browser.find_element("tag name", "body").text
    assert "Player 1" not in browser.page_source
    assert http(table.page("/", key=None))[0] == 403
    assert http(table.page("/", key="wrong-key-1"))[0] == 403
    for path in ("/p/player-1", "/overlay", "/api/state", "/events", "/static/board.js"):
        assert http(table.page(path, key=None))[0] == 403, path


def test_a_post_from_the_browser_is_405_and_changes_nothing(browser, running_table) -> None:
    table = running_table()
    table.send(*JOIN)
    before = table.wait_state(lambda s: s["phase"] == "kick-open-the-door")
    browser.get(table.page("/"))
    statuses = browser.execute_async_script(
        "const done = arguments[arguments.length - 1]; const key = arguments[0];"
        "Promise.all(['/', '/api/state', '/events', '/p/player-1'].map((p) =>"
        "  fetch(p + '?key=' + key, {method: 'POST', body: 'press next'}).then((r) => r.status))).then(done);", KEY)
    assert statuses == [405, 405, 405, 405]
    status, headers, _ = http(table.page("/api/state"), method="POST")
    assert status == 405 and headers.get("allow") == "GET, HEAD"
    time.sleep(0.3)
    assert table.state() == before


def test_the_board_speaks_the_tables_language(browser, running_table) -> None:
    table = running_table(language="es")
    table.send(*JOIN)
    table.wait_state(lambda s: s["phase"] == "kick-open-the-door")
    browser.get(table.page("/"))
    wait_for(browser, "return !!document.getElementById('phase')", 10)
    assert browser.find_element("tag name", "html").get_attribute("lang") == "es"
    from table.words.i18n import set_language, _

    set_language("es")
    try:
        assert browser.find_element("id", "phase").text == _("Kick") != "Kick"
    finally:
        set_language("en")
    assert json.loads(browser.find_element("id", "config").get_attribute("textContent"))["language"] == "es"


def test_the_fight_shows_both_sides_the_margin_and_the_interference_window(browser, running_table) -> None:
    table = running_table()
    table.send(*JOIN, "tap 1000-gold-pieces")
    table.wait_state(lambda s: s["players"] and s["players"][0]["level"] == 2)
    browser.get(table.page("/"))
    wait_for(browser, "return document.querySelectorAll('#players .player').length === 3", 10)
    table.send("tap lame-goblin")
    wait_for(browser, "return !!document.getElementById('combat')", 5)
    # read in one script: the board may be drawn again between two calls of the driver
    combat, margin = browser.execute_script(
        "return [document.getElementById('combat').innerText, document.getElementById('margin').innerText]")
    assert "Lame Goblin" in combat and "Player 1" in combat
    assert margin == "PLAYERS WIN by 1"
    table.send("press next")                                    # the interference window opens
    wait_for(browser, "return !!document.querySelector('.window-text')", 2)
    said = browser.execute_script("const w = document.querySelector('.window-text'); return w && w.innerText")
    assert said.startswith("interfere now!")
    wait_for(browser, "return !document.getElementById('combat')", 10)   # it closed; the kill counted
    assert levels_on_page(browser)["player-1"] == 3


def test_game_over_shows_the_winner_and_the_level_chart(browser, running_table) -> None:
    from table.ui.scenes import SCENES

    table = running_table()
    browser.get(table.page("/"))
    wait_for(browser, "return !!document.getElementById('phase')", 10)
    table.send(*[line for line in SCENES["game-over"].splitlines() if line.strip()])
    table.wait_state(lambda s: s["phase"] == "game-over", timeout=60)
    wait_for(browser, "return !!document.getElementById('game-over')", 5)
    over = browser.find_element("id", "game-over")
    winners = table.state()["winners"]
    assert winners and over.find_element("css selector", ".winners").text.endswith("won!")
    lines = browser.execute_script(
        "return [...document.querySelectorAll('#game-over polyline')].map((l) => [l.dataset.player,"
        " l.getAttribute('points').split(' ').length]);")
    state = table.state()
    assert {pid: n for pid, n in lines} == {p["id"]: len(p["level_history"]) for p in state["players"]}


def test_the_board_links_to_past_games_and_standings(browser, running_table) -> None:
    table = running_table()
    table.send(*JOIN)
    table.wait_state(lambda s: s["phase"] == "kick-open-the-door")
    browser.get(table.page("/"))
    wait_for(browser, "return !!document.querySelector('nav.records a')", 10)
    link = browser.find_element("link text", "Past games")
    # the board is drawn again under the finger (a card tapped at the table): the link it held stays
    updates = browser.execute_script("return Number(document.documentElement.dataset.updates)")
    table.send("tap lame-goblin")
    wait_for(browser, f"return Number(document.documentElement.dataset.updates) > {updates}", 10)
    link.click()
    wait_for(browser, "return location.pathname === '/history' && !!document.querySelector('h1')", 10)
    assert "Player 1, Player 2, Player 3" in browser.find_element("tag name", "table").text
    color = browser.execute_script("return getComputedStyle(document.querySelector('h1')).color")
    assert color == "rgb(255, 200, 60)"                 # its own style sheet applies
    browser.find_element("link text", "Standings").click()
    wait_for(browser, "return location.pathname === '/stats'", 10)
    assert "Player 1" in browser.find_element("tag name", "body").text


def _hold_streams(url: str, n: int) -> list:  # type: ignore[type-arg]
    """n raw event-stream connections that have each been answered 200 (and so hold a place), each from
    a loopback address of its own (one device holds only a few streams; the browser is 127.0.0.1)."""
    import socket

    host, port = url.removeprefix("http://").rstrip("/").split(":")
    held = []
    for i in range(n):
        s = socket.create_connection((host, int(port)), timeout=5, source_address=(f"127.0.1.{i + 1}", 0))
        s.sendall(f"GET /events?key={KEY} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert s.recv(12) == b"HTTP/1.1 200"
        held.append(s)
    return held


def test_the_33rd_follower_sees_the_board_and_a_notice_then_joins_when_a_place_frees(browser, running_table) -> None:
    table = running_table()
    table.send(*JOIN)
    table.wait_state(lambda s: s["phase"] == "kick-open-the-door")
    held = _hold_streams(table.url, 32)
    try:
        browser.get(table.page("/"))
        wait_for(browser, "return document.querySelectorAll('#players .player').length === 3", 10)
        assert browser.execute_script("return document.documentElement.dataset.snapshot") == "1"
        wait_for(browser, "return !document.getElementById('status').hidden", 10)
        assert browser.find_element("id", "status").text == "The table is busy; trying again…"
        assert browser.execute_script("return document.documentElement.dataset.status") == "busy"
        held.pop().close()                                  # a place frees
        wait_for(browser, "return document.documentElement.dataset.status === 'live'", 40)
        assert browser.execute_script("return document.getElementById('status').hidden")
        table.send("tap 1000-gold-pieces")                  # and now it follows the game
        wait_for(browser, "return document.querySelector('#card-player-1 .lvl').dataset.level === '2'", 10)
    finally:
        for s in held:
            s.close()


FITS = """
const out = [];
const page = document.documentElement;
if (page.scrollWidth > window.innerWidth) out.push('page ' + page.scrollWidth + ' px wide in ' + window.innerWidth);
document.querySelectorAll('.name, th, td:first-child, .who, .line').forEach((e) => {
  const words = (e.textContent.trim().match(/\\S+/g) || []).length;
  const range = document.createRange();
  range.selectNodeContents(e);
  const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom))).size;
  const cjk = /[\\u3400-\\u9fff]/.test(e.textContent);
  if (!cjk && words && lines > words) out.push(e.className + ' "' + e.textContent + '" on ' + lines + ' lines');
  if (cjk && e.tagName === 'TH' && lines > 1) out.push('header "' + e.textContent + '" on ' + lines + ' lines');
  if (e.scrollWidth > e.clientWidth + 1) out.push(e.className + ' "' + e.textContent + '" overflows');
});
return out;
"""


# player-1 keeps its default name ("Player 1" broke over two lines at 390 px); two long ones beside it
LONG_NAMES = '[players.player-2]\nname = "Maximiliano"\n[players.player-3]\nname = "María Fernanda de los Ángeles"\n'


@pytest.mark.parametrize("language", ["en", "es", "zh"])
def test_every_page_fits_a_phone_from_320_to_430_px_and_a_desktop(browser, running_table, language: str,
                                                                   tmp_path: Path) -> None:
    """No sideways scrolling, no name broken inside a word, no header one character a line: at 320,
    390 and 1280 px, in each language, during a fight (the widest board). Screenshots go to the test's
    own folder, and to docs/web/ with MUNCHKIN_DOCS_SCREENSHOTS=1 (a test run never changes the tree)."""
    shots = ROOT / "docs" / "web" if os.environ.get("MUNCHKIN_DOCS_SCREENSHOTS") == "1" else tmp_path
    table = running_table(language=language, extra=LONG_NAMES)
    table.send(*JOIN, "tap 1000-gold-pieces", "tap boots-of-butt-kicking", "tap net-troll")
    table.wait_state(lambda s: s["phase"] == "combat")
    problems = []
    try:
        for width in (320, 360, 390, 1280):
            browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width < 700})
            for path in ("/", "/p/player-1", "/history", "/stats"):
                browser.get(table.page(path))
                ready = "!!document.querySelector('#combat')" if path in ("/", "/p/player-1") else "!!document.querySelector('h1')"
                wait_for(browser, "return " + ready, 10)
                problems += [f"{language} {width} px {path}: {p}" for p in browser.execute_script(FITS)]
                if width in (320, 390) and path != "/history":      # its dates change with every run
                    png = browser.get_screenshot_as_png()
                    name = "board" if path == "/" else path.strip("/").replace("/", "-")
                    out = shots / f"{name}-{language}-{width}.png"
                    if not out.exists() or out.read_bytes() != png:
                        out.parent.mkdir(parents=True, exist_ok=True)
                        out.write_bytes(png)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert not problems, "\n".join(problems)


def test_a_rotated_key_shuts_out_the_open_page_and_it_says_so(browser, running_table, tmp_path) -> None:
    import subprocess
    import sys

    table = running_table(key="")
    key = (tmp_path / "state-0" / "web.key").read_text().strip()
    table.send(*JOIN)
    browser.get(table.page("/", key=key))
    wait_for(browser, "return document.documentElement.dataset.status === 'live'", 10)
    subprocess.run([sys.executable, "-m", "table", "web", "key", "--rotate", "--config", str(table.config)],
                   cwd=ROOT, check=True, capture_output=True)
    new = (tmp_path / "state-0" / "web.key").read_text().strip()
    assert new != key
    wait_for(browser, "return !document.getElementById('status').hidden && "
                      "document.getElementById('status').textContent.includes('scan the code')", 30)
    assert http(table.page("/api/state", key=key))[0] == 403
    assert http(table.page("/api/state", key=new))[0] == 200


def test_the_page_of_the_player_whose_turn_it_is_says_what_they_can_do(browser, running_table) -> None:
    table = running_table(language="zh")
    table.send(*JOIN, "tap net-troll")
    state = table.wait_state(lambda s: s["phase"] == "combat")
    hows = [item["how"] for item in state["can"]]
    assert "press run" in hows and "press help" in hows
    browser.get(table.page(f"/p/{state['active_player']}"))
    wait_for(browser, "return !!document.querySelector('#can li[data-how=\"press run\"]')", 10)
    run = browser.execute_script("return document.querySelector('#can li[data-how=\"press run\"]').textContent")
    assert "逃跑" in run and "5" in run            # the button's name and what it does, in the table's language
    other = next(p["id"] for p in state["players"] if p["id"] != state["active_player"])
    browser.get(table.page(f"/p/{other}"))
    wait_for(browser, "return !!document.querySelector('.player.mine')", 10)
    assert browser.execute_script("return document.querySelector('#can') === null")      # not their turn
