"""The league (issue 25): 50 tables into one local Mosquitto, a box's extra CPU per tap, tap -> frame.

1. **50 tables x 6 players**, each box its own journal on a real disk and its own publisher, one
   Mosquitto on loopback (the tests' fixture: password file, the documented ACL, persistence). The
   broker is paused (SIGSTOP) while every table plays its game to the end, so each game waits in its
   box's outbox; then it is let go (SIGCONT), and the figure is the time until a board's watch has
   the complete standings (50 games, 300 player-games). Baseline, in the same run: the same 50
   payloads published by one plain paho client and read by one subscriber. Broker CPU (from
   /proc) and the publishers' CPU (their threads' schedstat) over the same spans.
2. **A box's extra CPU per tap**: two tables play the same 6-player script (~40 cards in play) tap
   by tap, interleaved, one with the league on (every state handed to the publisher; states at up
   to 50 a second, so that every tap is sent), one off. CPU per tap: the table thread's
   (``thread_time`` around handling, drawing and the hand-over) plus, with the league on, the
   publisher's and paho's threads. Target: on / off <= 1.05.
3. **Tap -> frame** (wall clock, from the driver's event to the end of the frame), the same taps:
   p50 and p99 with the league on / off. Target: ratio <= 1.05.

    ./go shell python bench/league.py          # all three (skipped, and said, without mosquitto)
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import logging  # noqa: E402

import paho.mqtt.client as mqtt  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402

from bench._games import geared_script, long_script  # noqa: E402
from bench._report import disk_dir, figure, filesystem_of, report, thread_cpu_ns  # noqa: E402
from cards.loader import load_catalog  # noqa: E402
from drivers.base import ManualClock  # noqa: E402
from drivers.sim import SimButtons, SimReader  # noqa: E402
from table.config import parse_config  # noqa: E402
from table.control.assembly import build_table  # noqa: E402
from table.league.publisher import attach  # noqa: E402
from table.league.standings import standings  # noqa: E402
from table.league.watch import LeagueWatch  # noqa: E402
from table.sim.script import parse_script  # noqa: E402
from table.ui.display import Display  # noqa: E402
from table.ui.view import build_view  # noqa: E402
from tests.league.broker import Mosquitto, missing  # noqa: E402

TABLES = 50
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu", "Mo", "Ned", "Oz",
         "Pia", "Quin", "Ray", "Sue", "Tom", "Uma", "Vic", "Wes", "Xia", "Yan", "Zoe"]
GAME = "\n".join([f"tap player-{n}" for n in range(1, 7)]
                 + ["press next", "tap boots-of-butt-kicking", "tap lame-goblin", "press next"])
TAP_ACTIONS = 900
STATES_PER_SECOND = 50.0
EXTRA_CPU_TARGET = 1.05
LATENCY_TARGET = 1.05


def cpu_ticks(pid: int) -> float:
    """Seconds of CPU the process ``pid`` has used, all its threads (schedstat: nanoseconds, not ticks)."""
    return sum(thread_cpu_ns(pid).values()) / 1e9


def thread_seconds(tids: list[int]) -> float:
    total = 0
    for tid in tids:
        try:
            total += int(Path(f"/proc/self/task/{tid}/schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue
    return total / 1e9


def publisher_tids(publishers: list[Any]) -> list[int]:
    out = []
    for pub in publishers:
        for thread in (pub._thread, getattr(pub._client, "_thread", None)):
            if thread is not None and thread.native_id is not None:
                out.append(thread.native_id)
    return out


def league_cfg(state: Path, broker: Mosquitto, table: str, password: str, players: dict[str, Any] | None = None,
               **league: Any) -> Any:
    return parse_config({"storage": {"state_dir": str(state)}, "players": players or {},
                         "rules": {"winning_level": 2, "interference_seconds": 0},
                         "league": {"broker": broker.url(), "league": "friday", "table": table, "username": table,
                                    "password": password, **league}})


def until(test: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            sys.exit(f"bench: {what} not within {timeout:g} s")
        time.sleep(0.005)


def fifty_tables(broker: Mosquitto, state: Path, catalog: Any) -> list[Any]:
    """Figure 1: the standings of 50 tables complete after the broker comes back; the plain baseline."""
    rng = random.Random(25)
    boxes = []
    for n in range(1, TABLES + 1):
        names = rng.sample(NAMES, 6)
        players = {f"player-{i + 1}": {"name": name} for i, name in enumerate(names)}
        config = league_cfg(state / f"t{n}", broker, f"table-{n:02d}", f"pw-{n}", players)
        clock = ManualClock()
        table = build_table(config, clock, catalog=catalog, seed_source=lambda: 1)
        publisher = attach(config, table)
        boxes.append((config, clock, table, publisher))
    board = LeagueWatch(league_cfg(state / "board", broker, "board", "pw-board").league).follow()
    until(lambda: board.ready and all(b[3].connected for b in boxes), 30, "every publisher connected")
    assert broker.proc is not None
    broker.proc.send_signal(signal.SIGSTOP)          # every game now waits in its box's outbox
    for config, clock, table, _pub in boxes:
        reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
        for action in parse_script(GAME, table.catalog):
            clock.advance(1.0)
            (reader.scan_card if action.verb == "tap" else buttons.press)(action.arg)
            for event in table.events.drain():
                table.controller.handle(event)
        assert table.controller.state.phase.value == "game-over"
    rows = [(pub, row) for _c, _k, _t, pub in boxes for row in pub.outbox.waiting()]
    waiting = len(rows)
    payloads = [(f"munchkin/friday/games/table-01/{10000 + i}", pub._payload(row)) for i, (pub, row) in enumerate(rows)]
    tids = publisher_tids([b[3] for b in boxes])
    cpu0, broker0 = thread_seconds(tids), cpu_ticks(broker.proc.pid)
    t0 = time.perf_counter()
    broker.proc.send_signal(signal.SIGCONT)
    until(lambda: standings(board.snapshot())["games"] == TABLES, 60, "the complete standings")
    took = time.perf_counter() - t0
    cpu_ours, broker_ours = thread_seconds(tids) - cpu0, cpu_ticks(broker.proc.pid) - broker0
    until(lambda: sum(b[3].outbox.count() for b in boxes) == 0, 30, "every outbox empty")
    result = standings(board.snapshot())
    player_games = sum(p["games"] for p in result["players"])
    base_took, base_broker = plain_baseline(broker, payloads)
    for _config, _clock, table, publisher in boxes:
        publisher.close()
        table.journal.close()
    board.close()
    complete = result["games"] == TABLES and player_games == TABLES * 6 and waiting == TABLES
    details = {"tables": TABLES, "players_per_table": 6, "player_games": player_games, "names": len(result["players"]),
               "outbox_rows_waiting_at_release": waiting, "publishers_cpu_s": round(cpu_ours, 4),
               "broker_cpu_s": round(broker_ours, 4), "baseline_broker_cpu_s": round(base_broker, 4),
               "state_filesystem": filesystem_of(state), "load": os.getloadavg()}
    return [figure("league: 50 tables x 6 players, broker back -> complete standings", took * 1000, "ms",
                   baseline=base_took * 1000, baseline_is="the same 50 payloads from one plain paho client to one "
                   "subscriber", target="complete (50 games, 300 player-games)", met=complete, details=details),
            figure("league: broker CPU for the 50 games", broker_ours * 1000, "ms", baseline=base_broker * 1000,
                   baseline_is="broker CPU for the plain client's 50", target="(reported)", met=True,
                   details={"publishers_cpu_ms": round(cpu_ours * 1000, 2)})]


def plain_baseline(broker: Mosquitto, payloads: list[tuple[str, str]]) -> tuple[float, float]:
    """One client publishing the 50 payloads (QoS 1, retained, all in flight at once), one subscriber:
    (seconds, broker CPU seconds)."""
    got = threading.Event()
    seen: set[str] = set()

    def on_message(_c: Any, _u: Any, message: Any) -> None:
        seen.add(message.topic)
        if len(seen) == len(payloads):
            got.set()

    sub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-sub", protocol=mqtt.MQTTv5)
    sub.username_pw_set("board", "pw-board")
    sub.on_message = on_message
    sub.connect("127.0.0.1", broker.port)
    sub.loop_start()
    sub.subscribe("munchkin/friday/games/table-01/+", 1)
    pub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-pub", protocol=mqtt.MQTTv5)
    pub.username_pw_set("table-01", "pw-1")
    pub.max_inflight_messages_set(len(payloads))
    pub.connect("127.0.0.1", broker.port)
    pub.loop_start()
    time.sleep(0.5)
    assert broker.proc is not None
    broker0 = cpu_ticks(broker.proc.pid)
    t0 = time.perf_counter()
    for topic, body in payloads:
        pub.publish(topic, body, qos=1, retain=True)
    got.wait(30)
    took = time.perf_counter() - t0
    used = cpu_ticks(broker.proc.pid) - broker0
    for c in (pub, sub):
        c.disconnect()
        c.loop_stop()
    return took, used


def per_tap(broker: Mosquitto, state: Path, catalog: Any) -> list[Any]:
    """Figures 2 and 3: the same taps on a table with the league on and one with it off, interleaved."""
    # the same rules on both (the default ones: this game never ends), the league the only difference
    on_cfg = parse_config({"storage": {"state_dir": str(state / "on")},
                           "league": {"broker": broker.url(), "league": "friday", "table": "table-01",
                                      "username": "table-01", "password": "pw-1",
                                      "state_per_second": STATES_PER_SECOND}})
    off_cfg = parse_config({"storage": {"state_dir": str(state / "off")}})
    assert on_cfg.rules == off_cfg.rules
    display = Display((800, 480))
    rigs = {}
    for name, config in (("on", on_cfg), ("off", off_cfg)):
        clock = ManualClock()
        table = build_table(config, clock, catalog=catalog, seed_source=lambda: 1)
        publisher = attach(config, table)
        rigs[name] = {"clock": clock, "table": table, "publisher": publisher, "cpu": [], "wall": [],
                      "reader": SimReader(table.events, clock=clock), "buttons": SimButtons(table.events, clock=clock),
                      "script": parse_script("\n".join(long_script(TAP_ACTIONS, geared=True)), table.catalog)}
    until(lambda: rigs["on"]["publisher"].connected, 10, "the publisher connected")
    deal = len(parse_script("\n".join(geared_script()), catalog))
    tids = publisher_tids([rigs["on"]["publisher"]])
    order = random.Random(7)
    threads0 = thread_seconds(tids)
    states0 = rigs["on"]["publisher"].states_sent
    for n in range(len(rigs["on"]["script"])):
        for name in order.sample(["on", "off"], 2):
            tap(rigs[name], n, measured=n >= deal, display=display)
            # taps come apart, as at a table: every state may go (the rate limit is not what saves CPU),
            # and the publisher's work for one tap is not in the next one's frame
            time.sleep(1.0 / STATES_PER_SECOND)
    until(lambda: rigs["on"]["publisher"].states_sent > states0, 5, "states sent")
    time.sleep(0.2)
    threads = thread_seconds(tids) - threads0
    sent = rigs["on"]["publisher"].states_sent - states0
    measured_taps = len(rigs["on"]["cpu"])
    # the publisher's threads worked for every tap of the run, the deal too: spread over all of them
    all_taps = len([a for a in rigs["on"]["script"] if a.verb in ("tap", "press")])
    on_cpu = sum(rigs["on"]["cpu"]) / measured_taps + threads / all_taps
    off_cpu = sum(rigs["off"]["cpu"]) / len(rigs["off"]["cpu"])

    def pct(values: list[float], q: float) -> float:
        values = sorted(values)
        return values[min(len(values) - 1, int(q * len(values)))]

    figures = [figure("league: a box's CPU per tap, league on (states at up to 50/s)", on_cpu * 1000, "ms",
                      baseline=off_cpu * 1000, baseline_is="the same taps with the league off, interleaved",
                      target=f"ratio <= {EXTRA_CPU_TARGET}", met=on_cpu / off_cpu <= EXTRA_CPU_TARGET,
                      details={"taps": measured_taps, "states_sent": sent,
                               "table_thread_ratio": round(sum(rigs["on"]["cpu"]) / measured_taps / off_cpu, 4),
                               "publisher_threads_ms_per_tap": round(threads / all_taps * 1000, 4),
                               "load": os.getloadavg()})]
    for q, label in ((0.5, "p50"), (0.99, "p99")):
        on, off = pct(rigs["on"]["wall"], q), pct(rigs["off"]["wall"], q)
        figures.append(figure(f"league: tap -> frame {label} at 800x480, league on", on * 1000, "ms",
                              baseline=off * 1000, baseline_is="league off, the same taps interleaved",
                              target=f"ratio <= {LATENCY_TARGET}", met=on / off <= LATENCY_TARGET))
    for rig in rigs.values():
        if rig["publisher"] is not None:
            rig["publisher"].close()
        rig["table"].journal.close()
    display.close()
    return figures


def tap(rig: dict[str, Any], n: int, *, measured: bool, display: Display) -> None:
    """Action ``n`` of the rig's script as the run loop takes it: handle, draw, hand the state over."""
    action = rig["script"][n]
    table, clock = rig["table"], rig["clock"]
    ctl = table.controller
    clock.advance(3.0)
    shown = ctl.revision
    ctl.tick()
    if ctl.revision != shown or display.wants_frame():
        display.render(build_view(ctl))
    if action.verb not in ("tap", "press"):
        return
    t0 = time.perf_counter()
    (rig["reader"].scan_card if action.verb == "tap" else rig["buttons"].press)(action.arg)
    for event in table.events.drain():
        cpu0 = time.thread_time()
        ctl.handle(event)
        display.render(build_view(ctl))
        done = time.perf_counter()
        if rig["publisher"] is not None:
            rig["publisher"].state(ctl.state)        # after the frame, as the loop does
        if measured:
            rig["wall"].append(done - t0)
            rig["cpu"].append(time.thread_time() - cpu0)


def main() -> int:
    logging.basicConfig(level=logging.ERROR)
    why = missing()
    if why:
        print(f"league: {why}")
        return 0
    state = disk_dir("league")
    users = {f"table-{n:02d}": f"pw-{n}" for n in range(1, TABLES + 1)} | {"board": "pw-board"}
    broker = Mosquitto(state / "broker", users).start()
    try:
        catalog = load_catalog(parse_config({}).card_set_files())
        print(f"league: load {os.getloadavg()}", flush=True)
        figures = fifty_tables(broker, state, catalog)
        figures += per_tap(broker, state, catalog)
        report("league", figures)
        print(f"league: load {os.getloadavg()}", flush=True)
    finally:
        broker.stop()
        shutil.rmtree(state, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
