"""What every figure bench prints and records: the value, a baseline measured in the same run, their
ratio, the target and whether it is met; the same goes into bench/results.json (one entry per figure,
replaced when the figure is measured again; ``./go bench`` starts the file afresh).

Also the helpers the benches share: a state directory on a real disk (never tmpfs, where an fsync
costs nothing) and per-thread CPU time from /proc (``schedstat``).
"""

from __future__ import annotations

import json
import os
import platform
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
RESULTS = BENCH / "results.json"
MEMORY_FILESYSTEMS = {"tmpfs", "ramfs", "devtmpfs", "overlay-tmpfs"}


@dataclass
class Figure:
    figure: str                 # what is measured, with its scene
    value: float
    unit: str
    baseline: float
    baseline_is: str            # what the baseline is (measured in the same run)
    target: str                 # the target, as text: "<= 16.7 ms", "ratio >= 20"
    met: bool
    ratio: float = 0.0          # value / baseline, or baseline / value where ``ratio_is`` says so
    ratio_is: str = "value / baseline"
    details: dict[str, Any] = field(default_factory=dict)

    def line(self) -> str:
        return (f"{self.figure}: {self.value:.4g} {self.unit} | baseline {self.baseline:.4g} {self.unit} "
                f"({self.baseline_is}) | ratio {self.ratio:.3g} ({self.ratio_is}) | target {self.target} | "
                f"{'met' if self.met else 'NOT MET'}")


def figure(figure: str, value: float, unit: str, *, baseline: float, baseline_is: str, target: str, met: bool,
           ratio_is: str = "value / baseline", details: dict[str, Any] | None = None) -> Figure:
    if ratio_is == "baseline / value":
        ratio = baseline / value if value else float("inf")
    else:
        ratio = value / baseline if baseline else float("inf")
    return Figure(figure, value, unit, baseline, baseline_is, target, met, ratio, ratio_is, details or {})


def report(bench: str, figures: list[Figure], *, quiet: bool = False, command: str = "") -> None:
    """Print the figures (unless the bench printed them its own way) and put them into
    bench/results.json under ``bench`` (``command``: how to run it again, when ``bench`` is not
    the script's name)."""
    for f in figures:
        if not quiet:
            print(f"  {f.line()}", flush=True)
    try:
        data = json.loads(RESULTS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    data.setdefault("figures", {})
    data["machine"] = machine()
    data["figures"][bench] = {"measured": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
                              "command": command or f"./go shell python bench/{bench}.py",
                              "machine": machine(), "load_average": _load(),
                              "figures": [_clean(asdict(f)) for f in figures]}
    RESULTS.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def machine(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The machine a figure was measured on: its architecture, processor model and cores, and the
    Python. Machines of one kind can differ several times over in speed (the same 2-core x86-64
    kind gave a 1080p baseline of 19 ms one day and 5 ms another), so each bench's entry says which."""
    model = platform.processor() or ""
    try:
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            name, _, value = line.partition(":")
            if name.strip() in ("model name", "Model", "Hardware") and value.strip():
                model = value.strip()
                break
    except OSError:
        pass
    return ", ".join(x for x in (platform.machine(), model, f"{os.cpu_count()} cores",
                                 f"Python {platform.python_version()}") if x)


def _load() -> list[float] | None:
    """The load averages (1, 5, 15 minutes) as the figure was recorded; None where there are none."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def _clean(value: Any) -> Any:
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def filesystem_of(path: Path) -> str:
    """The type of the filesystem ``path`` is on, from /proc/self/mounts (longest mount point wins)."""
    path = path.resolve()
    best, kind = "", "unknown"
    try:
        mounts = Path("/proc/self/mounts").read_text().splitlines()
    except OSError:
        return kind
    for line in mounts:
        parts = line.split()
        if len(parts) < 3:
            continue
        point = parts[1].replace("\\040", " ")
        if (str(path) == point or str(path).startswith(point.rstrip("/") + "/")) and len(point) >= len(best):
            best, kind = point, parts[2]
    return kind


def disk_dir(prefix: str) -> Path:
    """A fresh directory on a real disk for a bench's state: $BENCH_STATE_DIR, else /var/tmp, else bench/.
    Refuses a memory filesystem, where fsync is free and the figures would flatter."""
    candidates = [Path(os.environ["BENCH_STATE_DIR"])] if os.environ.get("BENCH_STATE_DIR") else [Path("/var/tmp"), BENCH]
    for base in candidates:
        if base.is_dir() and os.access(base, os.W_OK) and filesystem_of(base) not in MEMORY_FILESYSTEMS:
            return Path(tempfile.mkdtemp(prefix=f"munchkin-{prefix}-", dir=base))
    sys.exit(f"bench: no real disk to put the state on ({', '.join(map(str, candidates))} are in memory or not "
             f"writable); set BENCH_STATE_DIR to a directory on a disk")


def thread_cpu_ns(pid: int) -> dict[int, int]:
    """Nanoseconds on a CPU so far, per thread of ``pid`` (/proc/PID/task/TID/schedstat, first field)."""
    out = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out[int(task.name)] = int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue                    # the thread ended meanwhile
    return out


def thread_names(pid: int) -> dict[int, str]:
    names = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            names[int(task.name)] = (task / "comm").read_text().strip()
        except (OSError, ValueError):
            continue
    return names
