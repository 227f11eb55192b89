"""The [web] config section, the key kept in the state directory, and the hand-over hub."""

from __future__ import annotations

import asyncio
import os
import stat
import threading
from pathlib import Path

import pytest

from table.config import ConfigError, parse_config
from table.web import KEY_FILE, join_url, lan_address, web_key
from table.web.hub import Hub, TooManyClients


def test_the_web_view_is_off_by_default_with_the_documented_defaults() -> None:
    web = parse_config({}).web
    assert (web.enabled, web.bind, web.port, web.key) == (False, "0.0.0.0", 8080, "")


def test_the_web_section_is_read() -> None:
    web = parse_config({"web": {"enabled": True, "bind": "::", "port": 9000, "key": "abcdefgh-12345678", "url": "http://munchkin.lan:8080/"}}).web
    assert (web.enabled, web.bind, web.port, web.key, web.url) == (True, "::", 9000, "abcdefgh-12345678",
                                                                   "http://munchkin.lan:8080/")


@pytest.mark.parametrize("section, words", [
    ({"port": 70000}, "port = 70000 is out of range: it must be 1-65535"),
    ({"port": -1}, "port = -1 is out of range: it must be 1-65535"),
    ({"port": "80"}, "port must be a whole number"),
    ({"bind": "my-laptop"}, "bind must be an IP address"),
    ({"key": "short"}, "key must be 16-128"),
    ({"key": "fifteen-chars-x"}, "key must be 16-128"),
    ({"key": "has space in it but long"}, "key must be 16-128"),
    ({"url": "munchkin.lan"}, "url must be an address"),
    ({"url": "http://x.lan/?key=abc"}, "url must be an address"),
    ({"enabled": "yes"}, "enabled must be true or false"),
    ({"open": True}, "unknown key(s) in [web]: open"),
    ({"proxy": "*"}, "proxy must be the reverse proxy's IP address"),
    ({"proxy": "proxy.lan"}, "proxy must be the reverse proxy's IP address"),
    ({"proxy": "10.0.0.1,"}, "proxy must be the reverse proxy's IP address"),
    ({"proxy": 1}, "proxy must be"),
])
def test_a_bad_web_section_names_what_is_wrong(section: dict, words: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config({"web": section}, "box.toml")
    assert words in str(info.value) and "box.toml" in str(info.value)


def test_no_proxy_is_believed_by_default_and_a_named_one_is_read() -> None:
    assert parse_config({}).web.proxy == ""
    assert parse_config({"web": {"proxy": "192.168.1.2"}}).web.proxy == "192.168.1.2"
    assert parse_config({"web": {"proxy": "10.0.0.0/24, ::1"}}).web.proxy == "10.0.0.0/24, ::1"


def test_the_key_is_made_once_kept_private_and_reused(tmp_path: Path) -> None:
    first = web_key(tmp_path)
    assert len(first) >= 16 and first == web_key(tmp_path)
    assert stat.S_IMODE(os.stat(tmp_path / KEY_FILE).st_mode) == 0o600
    other = tmp_path / "other"
    assert web_key(other) != first                      # random, not derived


def test_a_configured_key_wins_and_writes_nothing(tmp_path: Path) -> None:
    assert web_key(tmp_path, "my-own-key-1234567") == "my-own-key-1234567"
    assert not (tmp_path / KEY_FILE).exists()


def test_a_damaged_key_file_is_replaced(tmp_path: Path) -> None:
    (tmp_path / KEY_FILE).write_bytes(b"\xff\xfe not a key\n")
    key = web_key(tmp_path)
    assert key and (tmp_path / KEY_FILE).read_text().strip() == key


def test_join_url_and_address() -> None:
    assert join_url("192.168.1.20", 8080, "k" * 16) == "http://192.168.1.20:8080/?key=" + "k" * 16
    assert join_url("fd00::5", 80, "abcdefgh").startswith("http://[fd00::5]:80/")
    assert lan_address("127.0.0.1") == "127.0.0.1"
    assert lan_address("0.0.0.0")                       # some address, loopback at worst


def test_publish_never_waits_and_each_client_holds_one_board() -> None:
    hub = Hub(max_clients=2)
    loop = asyncio.new_event_loop()
    hub.attach(loop)
    try:
        client = hub.join()
        for n in range(10_000):                         # no one reads: nothing piles up
            hub.publish({"n": n})
        loop.run_until_complete(asyncio.sleep(0))
        revision, event = hub.event()
        assert revision == 10_000 and event == b'id: 10000\ndata: {"n":9999}\n\n'
        assert hub.state_json() == '{\n  "n": 9999\n}'
        assert client.ready.is_set()
        hub.join()
        with pytest.raises(TooManyClients):
            hub.join()
        hub.leave(client)
        hub.join()
    finally:
        hub.detach()
        loop.close()


def test_publish_after_the_web_loop_closed_is_harmless() -> None:
    hub = Hub()
    loop = asyncio.new_event_loop()
    hub.attach(loop)
    loop.close()
    done = threading.Event()
    threading.Thread(target=lambda: (hub.publish({"n": 1}), done.set())).start()
    assert done.wait(5) and hub.event()[0] == 1


@pytest.mark.parametrize("language", ["es", "zh"])
def test_every_word_of_the_web_page_is_translated(catalog, language: str) -> None:
    from table.words.i18n import set_language
    from table.web.pages import page_context

    set_language("en")
    english = page_context(catalog, "en")
    set_language(language)
    try:
        translated = page_context(catalog, language)
    finally:
        set_language("en")
    assert [k for k in english.labels if english.labels[k] == translated.labels[k]] == []
    assert translated.names["boots-of-butt-kicking"] == catalog["boots-of-butt-kicking"].name_in(language)


def test_the_address_is_looked_up_again_when_the_network_comes_up(monkeypatch) -> None:
    import table.web as web_module
    from table.web import ADDRESS_EVERY, WebView

    from types import SimpleNamespace

    view = WebView(Hub(), server=SimpleNamespace(port=8080), key="abcdefgh", address="127.0.0.1", bind="0.0.0.0")
    monkeypatch.setattr(web_module, "lan_address", lambda bind: "192.168.1.20")
    start = view._looked
    assert not view.refresh_address(start + 1)                  # not yet time to look
    assert view.refresh_address(start + ADDRESS_EVERY + 1)      # Wi-Fi is up: a new address
    assert view.address == "192.168.1.20" and view.url == "http://192.168.1.20:8080/?key=abcdefgh"
    assert not view.refresh_address(start + 2 * ADDRESS_EVERY + 2)     # unchanged: nothing to redraw
    fixed = WebView(Hub(), server=None, key="abcdefgh", address="10.0.0.5", bind="10.0.0.5")
    assert not fixed.refresh_address(start + 100) and fixed.address == "10.0.0.5"


def test_a_short_key_file_from_before_is_replaced_by_a_long_one(tmp_path: Path) -> None:
    (tmp_path / KEY_FILE).write_text("eightchr\n")
    key = web_key(tmp_path)
    assert len(key) >= 16 and key != "eightchr"


def test_web_key_rotate_replaces_the_key_and_a_running_view_takes_it_up(tmp_path: Path, capsys) -> None:
    from table.cli import main
    from table.web import WebView, read_key

    state = tmp_path / "state"
    config = tmp_path / "c.toml"
    config.write_text(f'[storage]\nstate_dir = "{state}"\n[web]\nenabled = true\nport = 8123\n', encoding="utf-8")
    old = web_key(state)

    class Stub:
        key = old
        port = 8123
        app = None

    class Hub:
        ended = False
        clients: set = set()

        def end_all(self) -> None:
            self.ended = True

    server, hub = Stub(), Hub()
    server.app = Stub()
    view = WebView(hub, server, old, "192.168.4.1", bind="0.0.0.0", key_dir=state)
    assert main(["web", "key", "--config", str(config)]) == 0
    assert capsys.readouterr().out.strip().endswith(f":8123/?key={old}")
    assert main(["web", "key", "--rotate", "--config", str(config)]) == 0
    new = read_key(state)
    assert new != old and len(new) >= 16 and new in capsys.readouterr().out
    assert view.refresh_key() and view.key == new and server.app.key == new and hub.ended
    assert new in view.url and not view.refresh_key()


def test_a_rotated_key_is_taken_up_within_a_second_not_at_the_next_look_for_the_address(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from table.web import ADDRESS_EVERY, KEY_EVERY, WebView, read_key, rotate_key

    state = tmp_path / "state"
    old = web_key(state)
    ended: list[bool] = []
    server = SimpleNamespace(port=8123, app=SimpleNamespace(key=old))
    hub = SimpleNamespace(clients=set(), end_all=lambda: ended.append(True))
    view = WebView(hub, server, old, "10.0.0.5", bind="10.0.0.5", key_dir=state)
    start = view._key_looked
    rotate_key(state)
    assert not view.refresh_address(start + KEY_EVERY / 2) and view.key == old     # not yet time to look
    assert KEY_EVERY < ADDRESS_EVERY / 5
    assert view.refresh_address(start + KEY_EVERY + 0.01)       # the QR code is drawn again, with the new key
    assert view.key == read_key(state) == server.app.key and ended == [True]
    assert not view.refresh_address(start + 2 * KEY_EVERY + 0.02)


def test_web_key_rotate_with_the_key_in_the_config_is_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    from table.cli import main

    config = tmp_path / "c.toml"
    config.write_text(f'[storage]\nstate_dir = "{tmp_path / "s"}"\n[web]\nkey = "my-own-key-1234567"\n', encoding="utf-8")
    assert main(["web", "key", "--rotate", "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "[web] key" in err[0]
