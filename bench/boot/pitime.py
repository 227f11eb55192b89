"""Pi-class time: the booted box's own speed on the cores it will run on, in the guest's time.

``bench/boot/run.sh --pi-time`` boots the appliance image under ``qemu-system-aarch64 -M virt
-cpu cortex-a53 -icount shift=N``: instruction counting, the guest's clock (CLOCK_MONOTONIC, the
one the table and systemd read) advancing 2^N ns for each instruction the guest executes. So a time
taken inside the guest is a time on a core of that speed: shift=1, a 1 GHz core retiring one
instruction every two cycles (the Zero 2 W's class on interpreter code), at 800x480; shift=0, one
instruction a nanosecond (the Pi 4's class, conservatively), at 1920x1080. It does not model
caches or memory bandwidth; see docs/benchmarks.md ("Pi-class time") for the method and caveats.

What it measures, each in the guest's time:

- unit start -> first frame: systemd's start of munchkin-table.service
  (``InactiveExitTimestampMonotonic``) to the first frame pushed, at boot (cold: nothing of the
  table in the page cache) and again at a restart (warm);
- tap -> frame pushed, p50 and p99: from the moment the PN532 driver has read a tag's answer off
  the guest's serial line (the ``Tap`` event's time) to the end of the push of the frame that
  shows it, for every tap of the game below;
- idle CPU of the table against a plain ``clock.tick(60)`` pygame loop run beside it in the guest
  (the design's idle bar: 20x less), per-thread schedstat over the same window;
- memory: VmHWM (peak) and VmRSS (now) of the table's process after the game.

The times come from the table's frame trace (table/app/frametrace.py), which the guest kernel's
command line turns on for this bench alone (``systemd.setenv=MUNCHKIN_FRAME_TRACE=...``).

The game: the host benches' (bench/_games.py) as far as a PN532 can play it. The six tokens join
by tap; NEXT, the only press, is given by ``munchkin-table simulate`` on the table's own game with
the table stopped (the box has no buttons under QEMU; the restart is the warm start above); then
the deal of ~40 cards round the table, tap by tap, and a fight against the Net Troll in which each
player in turn taps their token and a race or class card (journaled, moved to them), with a card
in play tapped now and then (its menu opened).

``-icount sleep=on``: with ``sleep=off`` (the issue's first try) the guest's clock jumps to its
next timer whenever the guest waits on the host, so the PN532's answers come "late" (``no ACK
after 3 tries`` in the journal, ~1 poll in 5) and every disk wait (the journal's fsync) costs up to
the next timer's distance (~100 ms); ``--sleep off`` runs it so anyway. With sleep=on the guest's
clock runs with the host's while the guest waits (I/O at this machine's speed, not an SD card's)
and by instructions while it runs.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench import _report
from bench._games import GEAR, ITEMS, geared_script
from bench.boot import recipe
from bench.boot.guest import Machine, overlay, qemu_command
from bench.boot.pn532_socket import Pn532Socket

TABLE = "/opt/munchkin-table/.venv/bin/munchkin-table"
PYTHON = "/opt/munchkin-table/.venv/bin/python"
UNIT = "munchkin-table.service"
TRACE = "/run/munchkin-table/frames.trace"      # the unit's RuntimeDirectory: gone when it stops
FRAME_MS = 16.7
# The guest's disk is a copy-on-write overlay in the host's memory (/dev/shm): a flush costs the guest
# kernel's own work (ext4's journal, virtio) on the emulated core and no device's latency. On this
# machine's disk it had cost that disk's fsync in real time (sleep=on), a figure of this machine
# and not of the box, which another machine could not reproduce. The commit's sync runs beside the
# frame's drawing (table/app/syncahead.py), so an SD card whose flush ends within the drawing adds
# nothing to a tap and a slower one adds its excess; ``--disk-dir DIR`` puts the overlay on DIR's disk.
DISK_NOTE = "the guest's disk in host memory: no device latency"
PLAY_TAPS = 170            # after the 6 joins and the deal's ~86: ~260 taps timed in all
HOLD_S, GAP_S = 0.5, 0.7   # host seconds a tag rests on the pad, and off it (0.35 s of absence is a new tap)
IDLE_WINDOW_S, IDLE_SETTLE_S = 60, 10    # host seconds; the window is read in the guest
IDLE_RATIO = 20            # design §5: idle uses >= 20x less CPU than a plain clock.tick(60) loop
RACES_CLASSES = ["elf", "dwarf", "halfling", "cleric", "thief", "warrior", "wizard"]
PLAIN_LOOP = ("import pygame\npygame.display.init()\nscreen = pygame.display.set_mode((800, 480))\n"
              "clock = pygame.time.Clock()\nwhile True:\n    pygame.event.pump()\n    clock.tick(60)\n")


@dataclass(frozen=True)
class PiClass:
    key: str
    name: str
    size: tuple[int, int]
    shift: int
    memory_mb: int
    first_frame_s: float | None         # targets; None: measured, no target set
    rss_mb: float | None
    p99_ms: float = FRAME_MS

    @property
    def size_text(self) -> str:
        return f"{self.size[0]}x{self.size[1]}"


CLASSES = {
    "zero2w": PiClass("zero2w", "Zero 2 W class", (800, 480), 1, 512, first_frame_s=8.0, rss_mb=120.0),
    "pi4": PiClass("pi4", "Pi 4 class", (1920, 1080), 0, 2048, first_frame_s=None, rss_mb=None),
}


# ---------------------------------------------------------------------- pure helpers (tests/test_boot_pitime.py)

def tap_game(play_taps: int = PLAY_TAPS, seed: int = 1) -> tuple[list[str], list[str]]:
    """The game as taps: (the joins, what follows NEXT). After NEXT: the host benches' deal (its
    taps; its presses and waits are not a PN532's), the Net Troll, then ``play_taps`` taps of a
    fight that never ends: a token, then a race or class card for that player (moved to them),
    and three times in ten a card in play (its menu)."""
    deal = [line.split()[1] for line in geared_script() if line.startswith("tap ")]
    joins, rest = deal[:6], deal[6:]
    rng = random.Random(seed)
    play: list[str] = ["player-1", "net-troll"]        # the token first: the deal's last token acts for 8 s
    n = 0
    while len(play) < play_taps + 2:
        n += 1
        play += [f"player-{(n - 1) % 6 + 1}", rng.choice(RACES_CLASSES)]
        if rng.random() < 0.3:
            play.append(rng.choice(ITEMS))
    return joins, rest + play[:play_taps + 2]


@dataclass
class Trace:
    first: float | None = None          # the first frame pushed, guest seconds
    latencies: list[float] = field(default_factory=list)     # each tap -> its frame pushed, seconds
    # the same, less what its pass waited for (wall - the main thread's CPU: the fsync, other threads)
    own: list[float] = field(default_factory=list)
    unshown: int = 0                    # taps handled in a pass that drew no frame
    bad_lines: int = 0
    # each timed tap's pass, step by step (the trace's steps line): (its latency, {step: (wall, CPU)})
    steps: list[tuple[float, dict[str, tuple[float, float]]]] = field(default_factory=list)


def parse_trace(text: str) -> Trace:
    """The frame trace (table/app/frametrace.py) read back; lines it cannot read are counted."""
    trace = Trace()
    shown: list[float] = []             # the last frame line's latencies, for its pass line
    last: list[float] = []              # and for its steps line
    for line in text.splitlines():
        parts = line.split()
        try:
            numbers = [float(p) for p in (parts[2::3] + parts[3::3] if parts[:1] == ["steps"] else parts[1:])]
        except ValueError:
            trace.bad_lines += 1
            continue
        if parts[:1] == ["first"] and len(numbers) == 1:
            trace.first = numbers[0] if trace.first is None else trace.first
        elif parts[:1] == ["frame"] and len(numbers) >= 2:
            shown = [numbers[0] - at for at in numbers[1:]]
            last = list(shown)
            trace.latencies += shown
        elif parts[:1] == ["pass"] and len(numbers) == 2 and shown:
            waited = max(0.0, numbers[0] - numbers[1])
            trace.own += [latency - waited for latency in shown]
            shown = []
        elif parts[:1] == ["steps"] and len(parts) % 3 == 1 and last:
            named = {parts[i]: (float(parts[i + 1]), float(parts[i + 2])) for i in range(1, len(parts), 3)}
            trace.steps += [(latency, named) for latency in last]
            last = []
        elif parts[:1] == ["unshown"] and numbers:
            trace.unshown += len(numbers)
        elif parts:
            trace.bad_lines += 1
    return trace


STEPS = ("handled", "viewed", "drawn", "synced", "pushed")


def step_split(steps: list[tuple[float, dict[str, tuple[float, float]]]], slowest: float = 0.02,
               cards: list[str] | None = None) -> list[str]:
    """Where the taps' time went, step by step (the trace's steps lines): the mean over every tap,
    and over its slowest share ``slowest`` (at least three): the wait from the tap to the loop's
    wake-up, then each step's wall / CPU ms (handled: the tap's handling and the journal's commit;
    viewed: build_view; drawn: the frame composed; synced: the wait for the journal's sync; pushed:
    the push). Empty without steps."""
    if not steps:
        return []
    ordered = sorted(steps, key=lambda s: s[0])
    out = []
    for label, chosen in (("every tap", ordered), (f"the slowest {max(3, int(len(ordered) * slowest))}",
                                                    ordered[-max(3, int(len(ordered) * slowest)):])):
        n = len(chosen)
        woke = sum(lat - sum(w for w, _c in named.values()) for lat, named in chosen) / n
        parts = [f"to the wake-up {woke * 1000:.2f}"]
        for step in STEPS:
            wall = sum(named.get(step, (0.0, 0.0))[0] for _lat, named in chosen) / n
            cpu = sum(named.get(step, (0.0, 0.0))[1] for _lat, named in chosen) / n
            parts.append(f"{step} {wall * 1000:.2f}/{cpu * 1000:.2f}")
        mean = sum(lat for lat, _n in chosen) / n
        out.append(f"{label} ({n}, mean {mean * 1000:.2f} ms), ms wall/CPU: " + ", ".join(parts))
    if cards is not None and len(cards) == len(steps):      # the slowest taps by card, in the game's order
        tail = sorted(range(len(steps)), key=lambda i: steps[i][0])[-max(3, int(len(steps) * slowest)):]
        out.append("the slowest, by tap: " + ", ".join(
            f"#{i} {cards[i]} {steps[i][0] * 1000:.1f} ms (drawn {steps[i][1].get('drawn', (0.0, 0.0))[0] * 1000:.1f})"
            for i in sorted(tail)))
    return out


def percentile(values: list[float], q: float) -> float:
    """The value below which a share ``q`` of ``values`` lie (nearest rank, as bench/latency.py)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def systemd_props(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def cpu_sample(text: str) -> dict[str, float]:
    """``name value`` lines (the guest's readings) as numbers; others skipped."""
    out: dict[str, float] = {}
    for line in text.splitlines():
        match = re.fullmatch(r"\s*([\w-]+)\s+(-?[0-9.]+)\s*", line)
        if match:
            out[match.group(1)] = float(match.group(2))
    return out


@dataclass(frozen=True)
class ThreadTime:
    who: str            # "table" or "plain"
    tid: int
    run_ns: int         # time on a CPU (schedstat's first field)
    slices: int         # time slices run: about its wake-ups (schedstat's third)
    wchan: str          # where it sleeps


def thread_times(text: str) -> tuple[float | None, dict[tuple[str, int], ThreadTime]]:
    """One reading of the guest (``now SECONDS`` and ``thread WHO TID RUN_NS SLICES WCHAN`` lines):
    its time and each thread's; lines it cannot read are skipped (a thread that ended mid-read)."""
    now: float | None = None
    threads: dict[tuple[str, int], ThreadTime] = {}
    for line in text.splitlines():
        parts = line.split()
        try:
            if parts[:1] == ["now"] and len(parts) == 2:
                now = float(parts[1])
            elif parts[:1] == ["thread"] and len(parts) >= 5:
                who, tid, run, slices = parts[1], int(parts[2]), int(parts[3]), int(parts[4])
                threads[(who, tid)] = ThreadTime(who, tid, run, slices, parts[5] if len(parts) > 5 else "?")
        except ValueError:
            continue
    return now, threads


def idle_figures(first: str, last: str) -> dict[str, float | str]:
    """The idle window between two readings (``thread_times``): each side's share of one core (its
    threads' time on a CPU over the window, those alive at both ends), and each thread's share,
    wake-ups a second and where it sleeps. ValueError when a reading lacks its time or either side."""
    t0, a = thread_times(first)
    t1, b = thread_times(last)
    if t0 is None or t1 is None or t1 <= t0:
        raise ValueError(f"idle readings without their times: {first[:80]!r} / {last[:80]!r}")
    window = t1 - t0
    out: dict[str, float | str] = {"window_s": window, "by_schedstat": 1.0}
    for who in ("table", "plain"):
        both = sorted(k for k in a.keys() & b.keys() if k[0] == who)
        if not both:
            raise ValueError(f"idle readings have no thread of the {who} at both ends")
        out[f"{who}_share"] = sum(b[k].run_ns - a[k].run_ns for k in both) / 1e9 / window
        out[f"{who}_wakeups_per_s"] = sum(b[k].slices - a[k].slices for k in both) / window
        out[f"{who}_threads"] = float(len(both))
        for n, k in enumerate(both):       # the main thread first: its tid is the process's
            out[f"{who}_thread{n}_share"] = (b[k].run_ns - a[k].run_ns) / 1e9 / window
            out[f"{who}_thread{n}_wakeups_per_s"] = (b[k].slices - a[k].slices) / window
            out[f"{who}_thread{n}_sleeps_in"] = b[k].wchan
    return out


def verdict(value: float, target: float | None) -> str:
    return "no target" if target is None else ("met" if value <= target else "not met")


# ---------------------------------------------------------------------- the guest

class PiRun:
    """One power-on of the image at one class's speed, and what was read in it."""

    def __init__(self, machine: Machine, chip: Pn532Socket, tags: dict[str, str]) -> None:
        self.machine, self.chip, self.tags = machine, chip, tags
        self.notes: list[str] = []

    def sh(self, command: str, timeout: float = 300) -> tuple[int, str]:
        return self.machine.agent.run(command, timeout=timeout)

    def unit(self) -> dict[str, str]:
        props = "ActiveState,MainPID,InactiveExitTimestampMonotonic,ExecMainStartTimestampMonotonic,NRestarts"
        return systemd_props(self.sh(f"systemctl show {UNIT} -p {props}", timeout=120)[1])

    def wait_active(self, timeout: float) -> dict[str, str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            unit = self.unit()
            if unit.get("ActiveState") in ("active", "failed"):
                return unit
            time.sleep(3)
        raise TimeoutError(f"{UNIT} not active after {timeout:.0f} s")

    def guest_now(self) -> float:
        return float(self.sh("cut -d' ' -f1 /proc/uptime", timeout=120)[1].split()[0])

    def trace(self) -> Trace:
        code, out = self.sh(f"cat {TRACE}", timeout=120)
        if code != 0:
            raise RuntimeError(f"no frame trace in the guest: {out.strip()[:200]}")
        return parse_trace(out)

    def tap(self, cards: list[str]) -> float:
        """Each card's tag on the pad for HOLD_S, then off it for GAP_S; the host seconds it took."""
        start = time.monotonic()
        for card in cards:
            self.chip.emulator.present(self.tags[card])
            time.sleep(HOLD_S)
            self.chip.emulator.present(None)
            time.sleep(GAP_S)
        return time.monotonic() - start

    def press_next(self) -> None:
        """NEXT, the one press of the game: ``simulate`` on the table's own game, the table stopped."""
        self.sh(f"systemctl stop {UNIT}", timeout=300)
        code, out = self.sh(f"cd / && echo 'press next' | runuser -u munchkin-table -- {TABLE} simulate "
                            f"--config /etc/munchkin-table/config.toml - >/dev/null", timeout=600)
        if code != 0:
            raise RuntimeError(f"simulate 'press next' failed: {out.strip()[-300:]}")
        self.sh(f"systemctl start --no-block {UNIT}", timeout=120)

    def idle(self, pid: str) -> dict[str, float | str]:
        """The table's CPU and a plain clock.tick(60) loop's, started beside it, over the same window
        of guest time (the guest's own readings at both ends; the host only waits in between): each
        thread's time on a CPU in ns (schedstat), its wake-ups (time slices) and what it sleeps in."""
        _, out = self.sh(f"SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1 "
                         f"setsid {PYTHON} -c '{PLAIN_LOOP}' >/dev/null 2>&1 < /dev/null & echo loop $!", timeout=120)
        loop = str(int(cpu_sample(out)["loop"]))
        reading = (f"echo now $(cut -d' ' -f1 /proc/uptime); "
                   f"for who in table:{pid} plain:{loop}; do for t in /proc/${{who#*:}}/task/*; do "
                   f"echo thread ${{who%%:*}} ${{t##*/}} $(cut -d' ' -f1,3 $t/schedstat) $(cat $t/wchan); done; done")
        time.sleep(IDLE_SETTLE_S)
        a = self.sh(reading, timeout=120)[1]
        time.sleep(IDLE_WINDOW_S)
        b = self.sh(reading, timeout=120)[1]
        self.sh(f"kill {loop}", timeout=120)
        return idle_figures(a, b)

    def memory(self, pid: str) -> dict[str, float]:
        _, out = self.sh(f"grep -E '^(VmHWM|VmRSS):' /proc/{pid}/status", timeout=120)
        return {k: float(v.split()[0]) / 1024 for k, v in (line.split(":", 1) for line in out.splitlines() if ":" in line)}


def measure(run: PiRun, cls: PiClass, boot_timeout: float) -> dict[str, object]:
    """Long: the whole measurement of one class, in the order the guest lives it."""
    fig: dict[str, object] = {}
    wall0 = time.monotonic()
    if not run.machine.agent.wait_up(time.monotonic() + boot_timeout):
        raise TimeoutError(f"no answer from the guest in {boot_timeout:.0f} s")
    unit = run.wait_active(boot_timeout)
    fig["wall_to_unit_active_s"] = time.monotonic() - wall0
    if unit.get("ActiveState") != "active":
        raise RuntimeError(f"{UNIT} {unit.get('ActiveState')}: {run.sh(f'journalctl -b -u {UNIT} | tail -n 20')[1]}")
    started = int(unit["InactiveExitTimestampMonotonic"]) / 1e6
    trace = run.trace()
    if trace.first is None:
        raise RuntimeError("the frame trace has no first frame")
    fig["unit_start_guest_s"] = started
    fig["first_frame_cold_s"] = trace.first - started
    fig["exec_to_first_frame_cold_s"] = trace.first - int(unit["ExecMainStartTimestampMonotonic"]) / 1e6
    print(f"    unit started at {started:.2f} s of guest time; first frame {fig['first_frame_cold_s']:.2f} s later "
          f"(cold); {fig['wall_to_unit_active_s']:.0f} s of host time to the unit ready", flush=True)
    time.sleep(5)
    joins, rest = tap_game()
    guest0, host0 = run.guest_now(), time.monotonic()
    run.tap(joins)
    joined = run.trace()
    run.press_next()
    unit = run.wait_active(boot_timeout)
    warm = run.trace()
    fig["first_frame_warm_s"] = (warm.first or 0.0) - int(unit["InactiveExitTimestampMonotonic"]) / 1e6
    print(f"    {len(joined.latencies)} joins timed; NEXT by simulate, restarted: first frame "
          f"{fig['first_frame_warm_s']:.2f} s after the unit's start (warm)", flush=True)
    time.sleep(5)
    host_taps = run.tap(rest)
    time.sleep(3)
    played = run.trace()
    guest1, host1 = run.guest_now(), time.monotonic()
    fig["guest_per_host_second"] = (guest1 - guest0) / (host1 - host0)
    latencies = joined.latencies + played.latencies
    own = joined.own + played.own
    if own:
        fig["own_p50_ms"] = percentile(own, 0.5) * 1000
        fig["own_p99_ms"] = percentile(own, 0.99) * 1000
        fig["own_taps"] = len(own)
    for line in step_split(joined.steps + played.steps, cards=joins + rest):
        print(f"    steps, {line}", flush=True)
    fig["taps_presented"] = len(joins) + len(rest)
    fig["taps_timed"] = len(latencies)
    fig["taps_unshown"] = joined.unshown + played.unshown
    fig["host_s_for_the_taps"] = host_taps
    fig["p50_ms"] = percentile(latencies, 0.5) * 1000
    fig["p99_ms"] = percentile(latencies, 0.99) * 1000
    fig["max_ms"] = max(latencies) * 1000
    print(f"    {len(latencies)} of {fig['taps_presented']} taps timed ({fig['taps_unshown']} drew no frame) in "
          f"{host_taps:.0f} s of host time: p50 {fig['p50_ms']:.2f} ms, p99 {fig['p99_ms']:.2f} ms, "
          f"max {fig['max_ms']:.2f} ms; less what each pass waited for: p50 {fig.get('own_p50_ms', -1):.2f} ms, "
          f"p99 {fig.get('own_p99_ms', -1):.2f} ms", flush=True)
    pid = unit["MainPID"]
    _, state = run.sh(f"cd / && runuser -u munchkin-table -- {TABLE} state | head -c 300", timeout=300)
    fig["state_head"] = " ".join(state.split())[:200]
    fig.update({f"memory_{k}_mb": v for k, v in run.memory(pid).items()})
    print(f"    memory after the game: {fig}", flush=True)
    fig.update({f"idle_{k}": v for k, v in run.idle(pid).items()})
    fig.update({f"memory_after_idle_{k}_mb": v for k, v in run.memory(pid).items()})
    _, warns = run.sh(f"journalctl -b -u {UNIT} --no-pager -o cat | grep -c 'no ACK' ; "
                      f"journalctl -b -u {UNIT} --no-pager -o cat | grep -c Traceback", timeout=120)
    counts = warns.split()
    fig["pn532_no_ack_lines"], fig["tracebacks"] = (int(c) for c in (counts + ["-1", "-1"])[:2])
    fig["wall_s"] = time.monotonic() - wall0
    return fig


def lines(cls: PiClass, fig: dict[str, object]) -> list[tuple[str, float, str, str]]:
    """(figure, value, unit, verdict) for the printout and results.json."""
    f = {k: v for k, v in fig.items() if isinstance(v, float | int)}
    idle_ratio = f["idle_plain_share"] / f["idle_table_share"] if f["idle_table_share"] else float("inf")
    rows = [
        ("tap -> frame pushed p99", f["p99_ms"], "ms", f"<= {cls.p99_ms} ms", verdict(f["p99_ms"], cls.p99_ms)),
        ("tap -> frame pushed p50", f["p50_ms"], "ms", "none (p99 is the target)", "no target"),
        ("tap -> frame pushed p99 less what each pass waited for (the journal's sync, other threads and "
         "processes on the one instruction counter)", f.get("own_p99_ms", -1.0), "ms", "none (the main thread's own work, to tell it "
         "from the waits)", "no target"),
        ("unit start -> first frame (cold, at boot)", f["first_frame_cold_s"], "s",
         f"<= {cls.first_frame_s} s" if cls.first_frame_s else "none for this class",
         verdict(f["first_frame_cold_s"], cls.first_frame_s)),
        ("unit start -> first frame (warm, a restart)", f["first_frame_warm_s"], "s",
         f"<= {cls.first_frame_s} s" if cls.first_frame_s else "none for this class",
         verdict(f["first_frame_warm_s"], cls.first_frame_s)),
        ("peak RSS (VmHWM)", f["memory_after_idle_VmHWM_mb"], "MB",
         f"<= {cls.rss_mb} MB" if cls.rss_mb else "none for this class",
         verdict(f["memory_after_idle_VmHWM_mb"], cls.rss_mb)),
        ("RSS now (VmRSS)", f["memory_after_idle_VmRSS_mb"], "MB", "none (the peak is the target)", "no target"),
        ("idle CPU, % of one core", f["idle_table_share"] * 100, "%",
         f"a plain clock.tick(60) loop beside it >= {IDLE_RATIO}x (it used {f['idle_plain_share'] * 100:.3f}%: "
         f"{idle_ratio:.1f}x; wake-ups a second {f['idle_table_wakeups_per_s']:.1f} against "
         f"{f['idle_plain_wakeups_per_s']:.1f}; schedstat over {f['idle_window_s']:.0f} s of guest time)",
         "met" if idle_ratio >= IDLE_RATIO else "not met"),
    ]
    return [(name, float(value), unit, f"target {target}: {v}") for name, value, unit, target, v in rows]


def report(cls: PiClass, fig: dict[str, object], sleep: str) -> bool:
    rows = lines(cls, fig)
    print(f"{cls.name} (cortex-a53, icount shift={cls.shift},sleep={sleep}: 2^{cls.shift} ns an instruction; "
          f"{cls.size_text}; {cls.memory_mb} MB; {fig.get('disk', '')}):")
    for name, value, unit, target in rows:
        print(f"  {cls.name}: {name}: {value:.{4 if unit == '%' else 2}f} {unit} | {target}")
    counted = [r for r in rows if "no target" not in r[3]]
    met = all(r[3].endswith(": met") for r in counted)
    print(f"{cls.name} line: {'met' if met else 'not met'} "
          f"({sum(r[3].endswith(': met') for r in counted)} of {len(counted)} targets); "
          f"{fig['taps_timed']} taps, {fig['wall_s']:.0f} s of host time, guest ran {fig['guest_per_host_second']:.2f} s "
          f"a host second while tapped", flush=True)
    details = {k: v for k, v in fig.items() if k not in ("p99_ms",)}
    details.update({"cpu": "cortex-a53", "icount": f"shift={cls.shift},sleep={sleep}", "memory_mb": cls.memory_mb})
    figures = [_report.figure(f"{cls.name}: {name}, {cls.size_text}, guest time", value, unit,
                              baseline=float(fig["p50_ms"]) if unit == "ms" else 0.0,
                              baseline_is="tap -> frame p50 in the same run" if unit == "ms" else "none: guest time has no in-run baseline but the figures beside it",
                              target=target.split(": ")[0].removeprefix("target "),
                              met=not target.endswith("not met"), details=details if i == 0 else {})
               for i, (name, value, unit, target) in enumerate(rows)]
    _report.report(f"boot-pi-time-{cls.key}", figures, quiet=True,
                   command=f"sudo bench/boot/run.sh --pi-time --only {cls.key}")
    return met


PROFILE = "/var/lib/munchkin-table/run.prof"
PROFILE_DROP_IN = f"""[Service]
ExecStart=
ExecStart={PYTHON} -m cProfile -o {PROFILE} {TABLE} run
WatchdogSec=0
"""


def profile(run: PiRun, boot_timeout: float, taps: int) -> str:
    """The table run under cProfile in the guest (its clock is the guest's: instructions), through
    the same game's first ``taps`` taps after NEXT; the top of the profile by own and by
    cumulative time, from the start (imports, fonts, the first frame) to the stop."""
    if not run.machine.agent.wait_up(time.monotonic() + boot_timeout):
        raise TimeoutError(f"no answer from the guest in {boot_timeout:.0f} s")
    run.wait_active(boot_timeout)
    joins, rest = tap_game()
    run.tap(joins)
    drop_in = f"/run/systemd/system/{UNIT}.d"
    run.sh(f"mkdir -p {drop_in} && printf '%s' '{PROFILE_DROP_IN}' > {drop_in}/profile.conf && systemctl daemon-reload")
    run.press_next()
    run.wait_active(boot_timeout)
    time.sleep(5)
    run.tap(rest[:taps])
    run.sh(f"systemctl stop {UNIT}", timeout=600)
    show = (f"import pstats; s = pstats.Stats('{PROFILE}'); s.sort_stats('tottime').print_stats(35); "
            f"s.sort_stats('cumulative').print_stats(60)")
    return run.sh(f"cd /root/munchkin-table 2>/dev/null; {PYTHON} -c \"{show}\"", timeout=600)[1]


def run_class(cls: PiClass, cache: Path, sleep: str, boot_timeout: float, profile_taps: int = 0,
              disk_dir: Path | None = Path("/dev/shm")) -> bool:
    disk = cache / f"disk-{cls.size_text}.img"
    if not disk.exists():
        print(f"pi-time: no image {disk}: bench/boot/build.sh --size {cls.size_text} first", file=sys.stderr)
        return False
    work = Path(tempfile.mkdtemp(prefix=f"munchkin-pitime-{cls.key}-", dir="/var/tmp"))
    print(f"{cls.name}: {disk}, work files in {work}", flush=True)
    # the guest's disk in the host's memory (DISK_NOTE); with --disk-dir elsewhere, that disk's own latency
    writes = tempfile.TemporaryDirectory(prefix=f"munchkin-pitime-{cls.key}-", dir=disk_dir or work)
    with writes as where, Pn532Socket(str(work / "pn532.sock")) as chip:
        command = qemu_command(cache=cache, disk=overlay(disk, Path(where)), work=work, size=cls.size, pn532=work / "pn532.sock",
                               web_port=None, cpu="cortex-a53", memory_mb=cls.memory_mb,
                               icount=f"shift={cls.shift},sleep={sleep}",
                               kernel_extra=f"systemd.setenv=MUNCHKIN_FRAME_TRACE={TRACE}")
        machine = Machine(command, work)
        run = PiRun(machine, chip, recipe.game_tags())
        try:
            machine.power_on()
            if profile_taps:
                print(profile(run, boot_timeout, profile_taps), flush=True)
                return True
            fig = measure(run, cls, boot_timeout)
            fig["disk"] = DISK_NOTE if disk_dir == Path("/dev/shm") else f"the guest's disk on {disk_dir}'s own disk"
        except (OSError, TimeoutError, ConnectionError, RuntimeError, KeyError, ValueError) as exc:
            print(f"{cls.name} line: not met: the bench did not run to its end: {type(exc).__name__}: {exc}", flush=True)
            return False
        finally:
            machine.cut()
    return report(cls, fig, sleep)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="run.sh --pi-time")
    parser.add_argument("--pi-time", action="store_true")
    parser.add_argument("--cache", type=Path, default=Path("/var/cache/munchkin-table-boot"))
    parser.add_argument("--only", choices=sorted(CLASSES), action="append")
    parser.add_argument("--sleep", choices=("on", "off"), default="on", help="icount's sleep (see the docstring)")
    parser.add_argument("--boot-timeout", type=float, default=1800)
    parser.add_argument("--disk-dir", type=Path, default=Path("/dev/shm"),
                        help="where the guest disk's overlay goes: host memory by default (see DISK_NOTE)")
    parser.add_argument("--profile", type=int, default=0, metavar="TAPS",
                        help="instead of the figures: the table under cProfile in the guest through TAPS taps")
    args = parser.parse_args(argv)
    if not args.disk_dir.is_dir():
        print(f"pi-time: --disk-dir {args.disk_dir}: no such folder", file=sys.stderr)
        return 2
    met = True
    for key in args.only or list(CLASSES):
        met = run_class(CLASSES[key], args.cache, args.sleep, args.boot_timeout, args.profile, args.disk_dir) and met
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
