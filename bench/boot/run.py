"""Boot the box's image and check it as a box builder would, from power-on (see run.sh).

Each check prints ``met`` or ``NOT MET`` with its time from power-on; the figures go to
bench/results.json under ``boot``; the exit code is 1 when any check is not met.
"""

from __future__ import annotations

import argparse
import base64
import json
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from bench import _report
from bench.boot import recipe
from bench.boot.guest import Machine, overlay, qemu_command
from bench.boot.pn532_socket import Pn532Socket
from bench.boot.screens import Difference, Image, centred, compare, from_xrgb, to_ppm
from table.config import Config, load_config
from table.sim.harness import SimTable
from table.sim.simulate import SIMULATION_SEED
from table.ui.display import Display, use_headless_drivers
from table.ui.view import build_view

ROOT = Path(__file__).resolve().parents[2]
TABLE = "/opt/munchkin-table/.venv/bin/munchkin-table"
AS_TABLE = f"runuser -u munchkin-table -- {TABLE}"
UNIT = "munchkin-table.service"
# Where the frames may differ from the dummy driver's: none on the screens this bench reaches (no
# clock is drawn in set-up); a box that shows the time adds its area here.
CLOCK_MASKS: list[tuple[int, int, int, int]] = []


@dataclass
class Check:
    name: str
    met: bool
    seconds: float                      # from this boot's power-on
    detail: str = ""
    boot: int = 1

    def line(self) -> str:
        return f"  [{'met' if self.met else 'NOT MET'}] {self.name} — boot {self.boot}, {self.seconds:6.1f} s from power-on: {self.detail}"


@dataclass
class Run:
    machine: Machine
    chip: Pn532Socket
    references: dict[str, Image]
    screen_path: str = "screendump"     # or: readback (the KMS framebuffer, read inside the guest)
    frames_shown: bool = False          # the first frame was seen: later checks look at the screen too
    boot: int = 1
    checks: list[Check] = field(default_factory=list)
    figures: dict[str, float] = field(default_factory=dict)

    def check(self, name: str, met: bool, detail: str, seconds: float | None = None) -> bool:
        c = Check(name, met, self.machine.since() if seconds is None else seconds, detail, self.boot)
        self.checks.append(c)
        print(c.line(), flush=True)
        return met

    def sh(self, command: str, timeout: float = 150) -> tuple[int, str]:
        return self.machine.agent.run(command, timeout=timeout)

    def unit(self) -> dict[str, str]:
        props = "ActiveState,SubState,MainPID,NRestarts,Result,ActiveEnterTimestampMonotonic,ControlGroup"
        _, out = self.sh(f"systemctl show {UNIT} -p {props}", timeout=30)
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    # ------------------------------------------------------------------ the screen

    def screen(self) -> Image:
        if self.screen_path == "screendump":
            return self.machine.screendump()
        return self.readback()

    def readback(self) -> Image:
        """The KMS framebuffer being scanned out, read inside the guest (fbgrab.py, as root)."""
        code, out = self.sh("python3 /usr/local/sbin/boot-bench-fbgrab", timeout=60)
        if code != 0:
            raise RuntimeError(f"framebuffer readback failed: {out.strip()[-300:]}")
        head, _, body = out.partition("\n")
        width, height, pitch = (int(v) for v in head.split())
        return from_xrgb(base64.b64decode(body), width, height, pitch)

    def wait_for_frame(self, name: str, timeout: float) -> tuple[bool, float, Difference | None, Image | None]:
        """Until the screen shows reference ``name``: (seen, seconds waited, last difference, last shot)."""
        reference = self.references[name]
        start = time.monotonic()
        last: Difference | None = None
        shot: Image | None = None
        while time.monotonic() - start < timeout:
            try:
                shot = self.screen()
            except (RuntimeError, OSError, TimeoutError, ValueError):
                time.sleep(1)
                continue
            last = compare(centred(shot, reference.width, reference.height), reference, masks=CLOCK_MASKS)
            if last.same:
                return True, time.monotonic() - start, last, shot
            time.sleep(0.5)
        return False, time.monotonic() - start, last, shot


def references(config_path: Path, work: Path, web_url: str = "") -> dict[str, Image]:
    """The frames this version draws under SDL's dummy driver for the states the bench reaches:
    the simulated table (as ``munchkin-table simulate`` plays it), with its reader answering as
    the box's does, so the status line says "reader ok" there too (simulate's reader says nothing),
    and with the web view on, the box's own address and key in the QR code (``web_url``)."""
    config = load_config(config_path)
    use_headless_drivers()
    taps = list(recipe.TAGS)
    scripts = {"setup": ["wait 1"], **{f"tap{i + 1}": [f"tap {card}" for card in taps[:i + 1]] for i in range(len(taps))}}
    frames = {}
    for name, lines in scripts.items():
        with tempfile.TemporaryDirectory(prefix="boot-ref-", dir=work) as tmp:
            frames[name] = reference(config, Path(tmp), lines, web_url)
            if name == "tap3":      # a restart or a power cut later: the same state read back, no last message
                frames["resumed"] = reference(config, Path(tmp), [], web_url)
    return frames


def reference(config: Config, state_dir: Path, lines: list[str], web_url: str = "") -> Image:
    """The frame of the simulated table on ``state_dir`` (resumed from what is there) after ``lines``."""
    size, language = (config.display.width, config.display.height), config.display.language
    with SimTable(config, state_dir, SIMULATION_SEED, wall_start=time.time()) as sim:
        sim.controller.reader_online = True
        for action in sim.parse("".join(f"{line}\n" for line in lines)):
            sim.perform(action)
        display = Display(size, language=language, font=config.display.font)
        try:
            view = build_view(sim.controller, language=language)
            view.web_url = web_url          # as the running table sets it (table/app/run.py)
            display.render(view)
            return Image(size[0], size[1], pygame.image.tobytes(display.screen, "RGB"))
        finally:
            display.close()


def save_shot(image: Image | None, path: Path) -> str:
    if image is None:
        return "no capture"
    path.write_bytes(to_ppm(image))
    return str(path)


# ---------------------------------------------------------------------- the checks, in order

def boot_to_ready(run: Run, timeout: float) -> bool:
    """Power-on → the agent answers → the unit active (Type=notify: only after READY=1)."""
    m = run.machine
    if not m.agent.wait_up(time.monotonic() + timeout):
        return run.check("the guest's userspace answers on /dev/hvc0", False, f"no answer in {timeout:.0f} s")
    run.figures.setdefault(f"boot {run.boot} → userspace", m.since())
    deadline = time.monotonic() + timeout
    unit: dict[str, str] = {}
    while time.monotonic() < deadline:
        unit = run.unit()
        if unit.get("ActiveState") == "active":
            guest = int(unit.get("ActiveEnterTimestampMonotonic", "0")) / 1e6
            run.figures[f"boot {run.boot} → unit ready"] = m.since()
            return run.check(f"{UNIT} active after READY=1", True,
                             f"Type=notify, {unit.get('SubState')}, pid {unit.get('MainPID')}; "
                             f"{guest:.1f} s after the guest's kernel started")
        if unit.get("ActiveState") == "failed":
            break
        time.sleep(1)
    _, log = run.sh(f"journalctl -b -u {UNIT} --no-pager | tail -n 15")
    return run.check(f"{UNIT} active after READY=1", False, f"{unit.get('ActiveState')}/{unit.get('SubState')}:\n{log}")


def first_frame(run: Run, work: Path) -> bool:
    """The set-up screen on KMS, by screendump; if every screendump stays black, by readback."""
    seen, waited, diff, shot = run.wait_for_frame("setup", 45)
    if not seen and (shot is None or shot.is_blank()):
        print(f"    screendump shows nothing ({shot!r}): reading the KMS framebuffer back inside the guest", flush=True)
        run.screen_path = "readback"
        seen, waited, diff, shot = run.wait_for_frame("setup", 30)
    where = save_shot(shot, work / "first-frame.ppm")
    run.frames_shown = seen
    if seen:
        run.figures["boot → first frame"] = run.machine.since()
    _, fb = run.sh("mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug; grep -m2 -E 'allocated by|size=' /sys/kernel/debug/dri/0/framebuffer 2>/dev/null | tr -s '\\t\\n' ' '")
    return run.check("first frame on the KMS screen equals the dummy driver's", seen,
                     f"by {run.screen_path}: {diff} (capture {shot!r} in {where}; scanned out: {fb.strip() or '?'})")


def joined(run: Run) -> list[str]:
    code, out = run.sh(f"{AS_TABLE} state", timeout=60)
    try:
        return [p["id"] for p in json.loads(out)["players"]] if code == 0 else []
    except (ValueError, KeyError, TypeError):
        return []


def taps(run: Run, work: Path) -> bool:
    """Three player tokens and a card through the emulated PN532: each must reach the table (its
    journal line) and, where the screen shows the table's frames, the screen."""
    ok = True
    lines = ["Player 1 joined", "Player 2 joined", "Player 3 joined", "Lose a Level"]
    for i, (card, uid) in enumerate(recipe.TAGS.items()):
        run.chip.emulator.present(uid)
        start = time.monotonic()
        took = False
        while time.monotonic() - start < 60 and not took:
            _, out = run.sh(f"journalctl -b -u {UNIT} --no-pager -o cat | grep -c '{lines[i]}'", timeout=30)
            took = out.strip() not in ("", "0")
        reached = time.monotonic() - start
        if took:
            run.figures["tap → the table took it (slowest of 4)"] = max(
                run.figures.get("tap → the table took it (slowest of 4)", 0.0), reached)
        seen, waited, diff, shot = (run.wait_for_frame(f"tap{i + 1}", 30) if run.frames_shown
                                    else (False, 0.0, None, None))
        run.chip.emulator.present(None)
        if seen:
            run.figures["tap → frame (slowest of 4)"] = max(run.figures.get("tap → frame (slowest of 4)", 0.0),
                                                            reached if waited < reached else waited)
        screen = (f"shown by {run.screen_path} {waited:.1f} s later: {diff}" if run.frames_shown
                  else "not checked on the screen: the table's frames never showed")
        ok &= run.check(f"tap {card} (uid {uid}) over /dev/ttyS0 → taken and shown", took and seen,
                        f"the journal says '{lines[i]}' {reached:.1f} s after the tag entered the field; {screen}"
                        if took else f"no '{lines[i]}' in the journal after {reached:.0f} s")
        time.sleep(1.0)                 # off the pad before the next one
    players = joined(run)
    return run.check("the game's state has the three players", players == list(recipe.TAGS)[:3],
                     f"state: {players}") and ok


def restarted(run: Run, signal: str, why: str, timeout: float) -> bool:
    """Send ``signal`` to the table; met when systemd has started a new one and it is active again."""
    before = run.unit()
    pid = before.get("MainPID", "0")
    run.sh(f"kill -{signal} {pid}; echo sent", timeout=60)
    start = time.monotonic()
    after = before
    while time.monotonic() - start < timeout:
        after = run.unit()
        if after.get("MainPID") not in (pid, "0") and after.get("ActiveState") == "active":
            waited = time.monotonic() - start
            run.figures[f"kill -{signal} → active again"] = waited
            _, log = run.sh(f"journalctl -b -u {UNIT} --no-pager | grep -E '{why}' | tail -n 1")
            return run.check(f"kill -{signal} of the table → restarted by systemd", bool(log.strip()),
                             f"pid {pid} → {after.get('MainPID')} in {waited:.1f} s, restarts {after.get('NRestarts')}; "
                             f"journal: {log.strip() or 'no line matching ' + repr(why)}")
        time.sleep(1)
    return run.check(f"kill -{signal} of the table → restarted by systemd", False,
                     f"still {after.get('ActiveState')}/{after.get('SubState')} pid {after.get('MainPID')} after {timeout:.0f} s")


def resumed(run: Run, work: Path) -> bool:
    """After a restart or a power cut: the game at the last acknowledged tap (three players)."""
    if run.frames_shown:
        seen, waited, diff, shot = run.wait_for_frame("resumed", 90)
        save_shot(shot, work / f"resumed-boot{run.boot}.ppm")
        screen = f"screen ({run.screen_path}): {diff}"
    else:
        seen, screen = True, "screen not checked (the table's frames never showed)"
    players = joined(run)
    good = seen and players == list(recipe.TAGS)[:3]
    if good and run.boot == 2:
        run.figures["power cut → resumed (second boot)"] = run.machine.since()
    return run.check("the game resumed at the last acknowledged tap (three players, no curse)", good,
                     f"{screen}; state: {players}")


def nobody_root(run: Run) -> bool:
    cgroup = run.unit().get("ControlGroup", "")
    code, out = run.sh(f"for p in $(cat /sys/fs/cgroup{cgroup}/cgroup.procs); do "
                       f"echo $p $(awk '/^Uid:/ {{print $2}}' /proc/$p/status) $(cat /proc/$p/comm); done")
    rows = [line.split() for line in out.splitlines() if line.strip()]
    root = [r for r in rows if len(r) >= 2 and r[1] == "0"]
    return run.check("nothing of the table runs as root", code == 0 and bool(rows) and not root,
                     f"{len(rows)} process(es) in {cgroup}: " + ", ".join(f"{r[-1]} uid {r[1]}" for r in rows if len(r) >= 3))


def stopped(run: Run, timeout: float) -> bool:
    """``systemctl stop`` without waiting on it in the agent; met when the unit is inactive."""
    start = time.monotonic()
    try:
        run.sh(f"systemctl stop --no-block {UNIT}", timeout=60)
    except TimeoutError as exc:    # seen: its answer never came though the stop went on; the unit's state says
        print(f"    {exc}; waiting for the unit's state instead", flush=True)
        run.machine.agent.resync()
    state = ""
    while time.monotonic() - start < timeout:
        state = run.unit().get("ActiveState", "")
        if state in ("inactive", "failed"):
            break
        time.sleep(2)
    took = time.monotonic() - start
    _, log = run.sh(f"journalctl -b -u {UNIT} --no-pager -o cat | grep -E 'Stopping|timed out|Killing|Stopped|Deactivated' | tail -n 4")
    done = state in ("inactive", "failed")
    if done:
        run.figures["systemctl stop → inactive"] = took
    return run.check("systemctl stop ends the table", done, f"{state} after {took:.1f} s; journal: {' | '.join(log.split(chr(10)))}")


def doctor(run: Run) -> bool:
    """doctor as the table's user, with the table stopped (it holds the reader's port and the screen)."""
    if not stopped(run, 240):
        return run.check("doctor inside passes (reader, screen, permissions)", False, "not run: the table did not stop")
    code, out = run.sh(f"cd / && {AS_TABLE} doctor", timeout=150)
    run.sh(f"systemctl start --no-block {UNIT}")
    lines = [line for line in out.splitlines() if line.startswith("[")]
    wanted = ("reader", "screen")
    found = {w: any(line.startswith("[ok]") and w in line for line in lines) for w in wanted}
    failed = [line for line in lines if line.startswith("[FAIL]")]
    return run.check("doctor inside passes (reader, screen, permissions)", code == 0 and all(found.values()) and not failed,
                     "; ".join(lines) or out.strip()[-300:])


def no_traceback(run: Run) -> bool:
    _, out = run.sh(f"journalctl -u {UNIT} --no-pager -o cat | grep -c 'Traceback (most recent call last)'; "
                    f"journalctl --list-boots --no-pager | wc -l")
    counts = out.split()
    tracebacks = int(counts[0]) if counts and counts[0].isdigit() else -1
    _, sample = run.sh(f"journalctl -u {UNIT} --no-pager -o cat | grep -A12 -m1 'Traceback' | head -n 14")
    return run.check("journald shows no traceback of the table", tracebacks == 0,
                     f"{tracebacks} traceback(s) over {counts[1] if len(counts) > 1 else '?'} boot(s) {sample.strip()[:600]}")


def web_references(run: Run, work: Path) -> bool:
    """With the web view on, the screen's QR code holds the box's own address and key: the reference
    frames are drawn again with them (``munchkin-table web key`` in the guest says both)."""
    code, out = run.sh(f"{AS_TABLE} web key", timeout=60)
    url = out.strip().splitlines()[-1] if out.strip() else ""
    if code != 0 or "?key=" not in url:
        return run.check("the web view's address read in the guest", False, f"exit {code}: {out.strip()[:200]}")
    run.references.update(references(work / "config.toml", work, web_url=url))
    return run.check("the web view's address read in the guest", True, url.split("?")[0])


def web_board(run: Run, port: int) -> bool:
    """A phone's request from the host, through QEMU's forwarded port, gets the board: the page
    with the key, then the state it draws from (``/api/state?board=1``, which names the players;
    the page itself is drawn by its script)."""
    _, key = run.sh("cat /var/lib/munchkin-table/web.key 2>/dev/null")
    base = f"http://127.0.0.1:{port}/"
    start = time.monotonic()
    detail = ""
    while time.monotonic() - start < 60:
        try:
            with urllib.request.urlopen(f"{base}?key={key.strip()}", timeout=10) as page:
                html = page.read()
            with urllib.request.urlopen(f"{base}api/state?board=1&key={key.strip()}", timeout=10) as reply:
                body = reply.read().decode(errors="replace")
            if "player-1" in body:
                return run.check("the web view from the host gets the board", True,
                                 f"{base} → {page.status}, {len(html)} bytes; /api/state?board=1 → {reply.status}, "
                                 f"{len(body)} bytes naming the players")
            detail = f"/api/state?board=1 → {reply.status}, {len(body)} bytes without the players"
        except OSError as exc:
            detail = str(exc)
        time.sleep(2)
    return run.check("the web view from the host gets the board", False, detail)


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def attempt(run: Run, name: str, step: Callable[[], bool]) -> bool:
    """One check; a lost answer from the guest is that check's miss, and the run goes on."""
    try:
        return step()
    except (OSError, TimeoutError, ConnectionError, RuntimeError, ValueError) as exc:
        run.check(name, False, f"{type(exc).__name__}: {exc}")
        run.machine.agent.resync()
        if isinstance(exc, TimeoutError):
            stuck(run)
        return False


def stuck(run: Run) -> None:
    """What the guest is waiting on after an unanswered command (the agent answers each command in
    a thread of its own, so a quick one comes back while the slow one still runs)."""
    try:
        _, out = run.sh("ps -eo pid,user,stat,wchan:24,etime,args --sort=-etime | grep -v ' \\[' | tail -n 25; "
                        "uptime; free -m | head -n 2", timeout=30)
    except (OSError, TimeoutError) as exc:
        out = f"no answer either ({exc})"
    print("    the guest meanwhile:\n" + "\n".join(f"      {line}" for line in out.splitlines()), flush=True)


def first_boot(run: Run, work: Path, web_port: int | None) -> None:
    if not attempt(run, "boot to the unit ready", lambda: boot_to_ready(run, 600)):
        return
    if web_port:
        attempt(run, "the web view's address", lambda: web_references(run, work))
    attempt(run, "first frame", lambda: first_frame(run, work))
    attempt(run, "taps", lambda: taps(run, work))
    if web_port:
        attempt(run, "web view", lambda: web_board(run, web_port))
    attempt(run, "nobody root", lambda: nobody_root(run))
    if attempt(run, "kill -9", lambda: restarted(run, "9", "Main process exited|Failed with result|Scheduled restart", 150)):
        attempt(run, "resumed after kill -9", lambda: resumed(run, work))
    # a hung table (SIGSTOP: no more WATCHDOG=1) is what the watchdog is for
    if attempt(run, "watchdog", lambda: restarted(run, "STOP", "[Ww]atchdog timeout", 180)):
        attempt(run, "resumed after the watchdog", lambda: resumed(run, work))


def second_boot(run: Run, work: Path) -> None:
    if not attempt(run, "boot to the unit ready", lambda: boot_to_ready(run, 600)):
        return
    attempt(run, "resumed after the power cut", lambda: resumed(run, work))
    attempt(run, "doctor", lambda: doctor(run))
    attempt(run, "no traceback", lambda: no_traceback(run))


def record(run: Run, size: str, total: float, web: bool) -> None:
    met = all(c.met for c in run.checks)
    baseline = run.figures.get("boot 1 → userspace", 0.0)
    figures = []
    for name, value in run.figures.items():
        figures.append(_report.figure(
            f"{name}, {size}{' web on' if web else ''}, QEMU TCG", value, "s", baseline=baseline,
            baseline_is="power-on → the guest's userspace answers (same boot)",
            target="the whole run <= 1200 s with a cached image", met=total <= 1200,
            details={"all_checks_met": met, "screen": run.screen_path, "checks_met": sum(c.met for c in run.checks), "checks": len(run.checks)}))
    figures.append(_report.figure(f"whole boot bench, {size}", total, "s", baseline=baseline,
                                  baseline_is="power-on → userspace, first boot", target="<= 1200 s",
                                  met=total <= 1200))
    _report.report(f"boot-{size}{'-web' if web else ''}", figures,
                   command=f"sudo bench/boot/run.sh --size {size}{' --web' if web else ''}")


def main(argv: list[str]) -> int:
    """Long: the two power-ons, in order, with the set-up each needs, read top to bottom."""
    parser = argparse.ArgumentParser(prog="run.sh")
    parser.add_argument("--cache", type=Path, default=Path("/var/cache/munchkin-table-boot"))
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--web", action="store_true")
    parser.add_argument("--gpu", default="virtio-gpu-pci", help="QEMU display device (virtio-gpu-pci, virtio-vga, ...)")
    args = parser.parse_args(argv)
    size = recipe.parse_size(args.size)
    disk = args.cache / f"disk-{args.size}{'-web' if args.web else ''}.img"
    if not disk.exists():
        print(f"run: no image {disk}: bench/boot/build.sh --size {args.size}{' --web' if args.web else ''} first", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="munchkin-boot-", dir="/var/tmp"))
    print(f"boot bench: {disk} at {args.size}, web {'on' if args.web else 'off'}; work files in {work}", flush=True)
    config = work / "config.toml"
    config.write_text(recipe.config_toml(port="/dev/ttyS0", size=size, web=False).split("[storage]")[0])
    refs = references(config, work)
    started = time.monotonic()
    web_port = free_port() if args.web else None
    with Pn532Socket(str(work / "pn532.sock")) as chip:
        command = qemu_command(cache=args.cache, disk=overlay(disk, work), work=work, size=size,
                               pn532=work / "pn532.sock", web_port=web_port, gpu=args.gpu)
        machine = Machine(command, work)
        run = Run(machine, chip, refs)
        try:
            machine.power_on()
            first_boot(run, work, web_port)
            print("  power cut: QEMU quits at once (nothing flushed)", flush=True)
            machine.cut()
            run.boot = 2
            machine.power_on()
            second_boot(run, work)
        except (OSError, TimeoutError, ConnectionError, RuntimeError) as exc:
            run.check("the bench ran to its end", False, f"{type(exc).__name__}: {exc}")
        finally:
            machine.cut()
        print(f"  PN532 socket: {chip!r}")
    total = time.monotonic() - started
    missed = [c for c in run.checks if not c.met]
    print(f"boot bench: {len(run.checks) - len(missed)} of {len(run.checks)} checks met in {total:.0f} s "
          f"(screen read by {run.screen_path}); console log {work / 'console.log'}")
    for name, value in run.figures.items():
        print(f"  {name}: {value:.1f} s")
    record(run, args.size, total, args.web)
    return 1 if missed or not run.checks else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
