"""The league board's screenshot for README: three simulated tables play into a Mosquitto started here
(on loopback, as the tests start it), and the board draws what the broker then holds.

    .venv/bin/python docs/make_league_board.py      # writes docs/league-board-800x480.png
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from table.config import parse_config  # noqa: E402
from table.league.watch import read_league  # noqa: E402
from table.ui.league_board import draw_league_board  # noqa: E402
from table.ui.screen import headless_display  # noqa: E402
from table.web.league import league_data  # noqa: E402
from tests.league.broker import Mosquitto, missing  # noqa: E402
from tests.league.conftest import USERS  # noqa: E402
from tests.league.rig import ANN_WINS, BOB_WINS, CY_WINS, MID_GAME, Box, league_config, until  # noqa: E402

NIGHT = {"table-a": [ANN_WINS, BOB_WINS, CY_WINS], "table-b": [CY_WINS, BOB_WINS, MID_GAME],
         "table-c": [BOB_WINS, ANN_WINS]}


def main() -> int:
    why = missing()
    if why:
        print(why, file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        broker = Mosquitto(Path(tmp) / "broker", USERS).start()
        boxes = []
        try:
            for table, scripts in NIGHT.items():
                box = Box(league_config(Path(tmp) / table, broker.url(), table))
                boxes.append(box)
                for n, script in enumerate(scripts):
                    if n:
                        box.new_game()
                    box.play(script)
            until(lambda: all(b.waiting() == 0 for b in boxes), what="every game acknowledged")
            league = read_league(league_config(Path(tmp) / "board", broker.url(), "board", password="pw-board").league)
            until(lambda: all(t.state for t in league.tables.values()))
        finally:
            for box in boxes:
                box.close()
            broker.stop()
    for language, name in (("en", "league-board-800x480.png"), ("zh", "league-board-zh-800x480.png")):
        display = headless_display(parse_config({"display": {"language": language}}))
        draw_league_board(display.painter, league_data(league), "friday", s=display.s)
        display.save(ROOT / "docs" / name)
        display.close()
        print(f"wrote docs/{name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
