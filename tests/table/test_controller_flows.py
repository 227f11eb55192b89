import json
from pathlib import Path

from table.cli import main


def run(tmp_path: Path, capsys, text: str) -> dict:
    script = tmp_path / "s.txt"
    script.write_text(text)
    assert main(["simulate", str(script)]) == 0
    return json.loads(capsys.readouterr().out)


START = "tap player-1\ntap player-2\ntap player-3\npress next\n"


def test_sell_basket_from_the_card_menu(tmp_path, capsys):
    state = run(tmp_path, capsys, START + "tap mithril-armor\ntap mithril-armor\npress help\n"
                "tap tuba-of-charm\ntap tuba-of-charm\npress help\npress next\n")
    assert state["players"][0]["level"] == 1   # 900 gold: refused
    state = run(tmp_path, capsys, START + "tap mithril-armor\ntap mithril-armor\npress help\n"
                "tap bow-with-ribbons\ntap bow-with-ribbons\npress help\npress next\n")
    assert state["players"][0]["level"] == 2 and state["players"][0]["equipped"] == []


def test_tap_the_item_to_lose(tmp_path, capsys):
    state = run(tmp_path, capsys, START + "tap huge-rock\ntap curse-lose-1-big-item\ntap huge-rock\n")
    assert state["players"][0]["equipped"] == [] and state["pending_loss"] is None


def test_class_card_menu_uses_the_ability(tmp_path, capsys):
    state = run(tmp_path, capsys, START + "tap warrior\ntap net-troll\ntap warrior\npress help\n"
                "tap warrior\npress help\n")
    assert state["combat"]["players_strength"] == 3
