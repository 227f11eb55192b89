"""[league] set without paho-mqtt installed (the extra): one line naming the install command, and the
table plays on without the league. paho is kept out by a None in sys.modules, as when it is missing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.league.rig import ANN_WINS, play_offline

ROOT = Path(__file__).resolve().parents[2]
NO_PAHO = "import sys; sys.modules['paho'] = None; from table.cli import main; sys.exit(main(sys.argv[1:]))"
INSTALL = "pip install 'munchkin-table[league]'"


def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "c.toml"
    path.write_text(f'[storage]\nstate_dir = "{tmp_path / "s"}"\n[league]\nbroker = "mqtt://127.0.0.1:1"\n'
                    f'league = "friday"\ntable = "table-a"\nusername = "table-a"\npassword = "x"\n'
                    f'[players]\nplayer-1 = {{ name = "Ann" }}\n')
    return path


def env() -> dict[str, str]:
    return dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))


def without_paho(*args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", NO_PAHO, *args], capture_output=True, text=True, env=env(), cwd=ROOT,
                          timeout=60, **kw)  # type: ignore[call-overload]


def test_a_table_with_league_set_and_no_paho_says_how_to_install_it_and_plays_on(tmp_path: Path) -> None:
    config = config_file(tmp_path)
    proc = subprocess.Popen([sys.executable, "-c", NO_PAHO, "run", "--sim", "--config", str(config)],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env(), cwd=ROOT)
    try:
        assert proc.stdin is not None
        proc.stdin.write(b"tap player-1\ntap player-2\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 30
        while True:                             # the table takes the taps: the state shows both players
            out = subprocess.run([sys.executable, "-m", "table", "state", "--config", str(config)], capture_output=True,
                                 text=True, env=env(), cwd=ROOT, timeout=30)
            if out.returncode == 0 and len(json.loads(out.stdout)["players"]) == 2:
                break
            assert time.monotonic() < deadline, out.stdout[-300:] + out.stderr[-300:]
            time.sleep(0.2)
    finally:
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=20)
    lines = [line for line in err.decode().splitlines() if "paho" in line]
    assert len(lines) == 1 and INSTALL in lines[0] and "without the league" in lines[0], err.decode()[-2000:]
    assert "Traceback" not in err.decode()


def test_the_league_commands_and_doctor_say_how_to_install_it(tmp_path: Path) -> None:
    config = config_file(tmp_path)
    out = without_paho("league", "standings", "--config", str(config))
    assert out.returncode == 2 and out.stderr.strip().count("\n") == 0 and INSTALL in out.stderr, out.stderr
    play_offline(tmp_path / "s", ANN_WINS)
    out = without_paho("league", "backfill", "--config", str(config))
    assert out.returncode == 2 and out.stderr.strip().count("\n") == 0 and INSTALL in out.stderr, out.stderr
    out = without_paho("league", "backfill", "--dry-run", "--config", str(config))    # needs no broker, no paho
    assert out.returncode == 0 and "1 game(s) would be sent" in out.stdout, out.stderr
    out = without_paho("doctor", "--config", str(config))
    line = [x for x in out.stdout.splitlines() if "league broker" in x]
    assert out.returncode == 1 and len(line) == 1 and "paho-mqtt is not installed" in line[0], out.stdout
    assert INSTALL in out.stdout and "Traceback" not in out.stderr
