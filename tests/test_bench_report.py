"""The benches' shared reporting: every figure carries its value, in-run baseline, ratio, target and
verdict into bench/results.json; state goes on a real disk, never a memory filesystem."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bench import _report


def test_a_figure_has_its_ratio_target_and_verdict_in_the_results_file(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(_report, "RESULTS", tmp_path / "results.json")
    lat = _report.figure("tap -> frame p99, 800x480", 6.0, "ms", baseline=12.0, baseline_is="drawn in full",
                         target="<= 8 ms", met=True)
    idle = _report.figure("idle", 0.01, "%", baseline=1.0, baseline_is="plain loop", target="baseline / value >= 20",
                          ratio_is="baseline / value", met=True)
    _report.report("latency", [lat])
    _report.report("idle", [idle])
    _report.report("latency", [lat])                 # measured again: replaced, not added
    data = json.loads((tmp_path / "results.json").read_text())
    assert set(data["figures"]) == {"latency", "idle"}
    [saved] = data["figures"]["latency"]["figures"]
    assert saved["value"] == 6.0 and saved["baseline"] == 12.0 and saved["ratio"] == 0.5
    assert saved["target"] == "<= 8 ms" and saved["met"] is True
    assert data["figures"]["idle"]["figures"][0]["ratio"] == 100.0
    out = capsys.readouterr().out
    assert "baseline 12 ms (drawn in full) | ratio 0.5 (value / baseline) | target <= 8 ms | met" in out


def test_the_filesystem_of_a_path_is_its_longest_mount(tmp_path: Path, monkeypatch) -> None:
    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/vda / ext4 rw 0 0\ntmpfs /var/tmp tmpfs rw 0 0\n/dev/vdb /var/tmp/disk xfs rw 0 0\n")
    real_read = Path.read_text
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: real_read(mounts) if str(self) == "/proc/self/mounts"
                        else real_read(self, *a, **k))
    assert _report.filesystem_of(Path("/var/tmp/x")) == "tmpfs"
    assert _report.filesystem_of(Path("/var/tmp/disk/x")) == "xfs"
    assert _report.filesystem_of(Path("/home")) == "ext4"


def test_state_never_goes_on_a_memory_filesystem(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("BENCH_STATE_DIR", str(tmp_path))
    monkeypatch.setattr(_report, "filesystem_of", lambda path: "ext4")
    made = _report.disk_dir("latency")
    assert made.parent == tmp_path and made.is_dir()
    monkeypatch.setattr(_report, "filesystem_of", lambda path: "tmpfs")
    with pytest.raises(SystemExit, match="real disk"):
        _report.disk_dir("latency")


def test_per_thread_cpu_is_read_for_every_thread() -> None:
    import threading

    done = threading.Event()
    thread = threading.Thread(target=done.wait, daemon=True)
    thread.start()
    try:
        cpu = _report.thread_cpu_ns(os.getpid())
        assert os.getpid() in cpu and thread.native_id in cpu
        assert cpu[os.getpid()] > 0
    finally:
        done.set()


def test_each_bench_entry_says_which_machine_and_what_load_it_was_measured_on(tmp_path: Path, monkeypatch) -> None:
    """Machines of one kind differ in speed several times over: each bench's entry names the
    processor model and the load, not only the last run's architecture and cores."""
    monkeypatch.setattr(_report, "RESULTS", tmp_path / "results.json")
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\n\nprocessor\t: 1\n")
    assert "AMD EPYC 7B13" in _report.machine(cpuinfo)
    monkeypatch.setattr(_report, "machine", lambda: "x86_64, Test CPU 9000, 2 cores, Python 3.11.7")
    _report.report("latency", [_report.figure("f", 1.0, "ms", baseline=2.0, baseline_is="b", target="t", met=True)])
    entry = json.loads((tmp_path / "results.json").read_text())["figures"]["latency"]
    assert entry["machine"] == "x86_64, Test CPU 9000, 2 cores, Python 3.11.7"
    assert len(entry["load_average"]) == 3 and all(x >= 0 for x in entry["load_average"])
