"""Soak of every input the project reads: 24,000 generated table scripts, piped lines, configs, tags
CSVs, card files and command lines (target: at least 20,000, with 0 tracebacks and every exit 0 or 2).

The cases go through the real entry points in-process (``table.cli.main``, the stdin reader of
``run`` into the controller); a spot check runs some of the same kinds of case through
``python -m table`` in a process of its own, so the in-process harness is checked against the
real thing. Exits 1 when any case fails, printing the first failures with their input.

    .venv/bin/python bench/soak_inputs.py [--cases 24000] [--seed 1] [--processes 60]
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tests.fuzz.inputs import KINDS, Harness, gen_card_file, gen_config, gen_script, gen_tags_csv  # noqa: E402

TARGET_CASES = 20_000


def spot_check(root: Path, n: int, seed: int) -> list[str]:
    """``n`` generated files through ``python -m table`` in their own processes; the failures."""
    rng = random.Random(seed)
    env = dict(os.environ, XDG_STATE_HOME=str(root / "xdg"), HOME=str(root), PYTHONPATH=str(ROOT))
    config = root / "proc-config.toml"
    config.write_text(f'[storage]\nstate_dir = "{root / "proc-state"}"\n')
    from cards.loader import load_catalog

    cards = sorted(load_catalog())
    failures = []
    for i in range(n):
        kind = ("script", "config", "tags", "cards", "pipe")[i % 5]
        path = root / f"proc-{kind}"
        if kind == "script":
            path.write_bytes(gen_script(rng, cards))
            argv = ["simulate", str(path)]
        elif kind == "config":
            path.write_bytes(gen_config(rng, root / "proc-state"))
            argv = ["state", "--config", str(path)]
        elif kind == "tags":
            path.write_bytes(gen_tags_csv(rng, cards))
            argv = ["tags", "import", str(path), "--config", str(config)]
        elif kind == "cards":
            path.write_bytes(gen_card_file(rng))
            argv = ["cards", "validate", str(path)]
        else:
            argv = ["state", "--config", str(config)]
        command = [sys.executable, "-m", "table", *argv]
        if kind == "pipe":          # a reader that goes away after the first bytes
            shell = " ".join(f"'{a}'" for a in command) + " | head -c 10 >/dev/null"
            out = subprocess.run(shell, shell=True, capture_output=True, text=True, env=env, cwd=root, timeout=120)
            code = 0 if out.returncode == 0 else out.returncode
        else:
            out = subprocess.run(command, capture_output=True, text=True, env=env, cwd=root, timeout=120,
                                 stdin=subprocess.DEVNULL)
            code = out.returncode
        if code not in (0, 2) or "Traceback" in out.stderr or (code == 2 and not out.stderr.strip()):
            failures.append(f"{kind}: exit {code}: {out.stderr.strip()[-300:]}")
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=24_000, help="in-process cases, spread over the six kinds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=60, help="cases run as separate processes")
    args = parser.parse_args()
    per_kind = {kind: args.cases // len(KINDS) for kind in KINDS}
    with tempfile.TemporaryDirectory(prefix="munchkin-soak-") as tmp:
        harness = Harness(Path(tmp) / "in-process")
        start = time.perf_counter()
        last = [start]

        def progress(kind: str, done: int) -> None:
            if time.perf_counter() - last[0] > 30:
                last[0] = time.perf_counter()
                print(f"  … {kind} {done}/{per_kind[kind]}, {len(harness.failures)} failure(s) so far", flush=True)

        with harness.environment():
            harness.run_seeded(args.seed, per_kind, progress=progress)
        elapsed = time.perf_counter() - start
        proc_start = time.perf_counter()
        proc_failures = spot_check(Path(tmp), args.processes, args.seed)
        proc_elapsed = time.perf_counter() - proc_start
    cases = harness.total
    failures = len(harness.failures)
    print(f"soak: {cases} generated inputs ({', '.join(f'{k} {harness.counts[k]}' for k in KINDS)}), seed {args.seed}")
    print(f"  time: {elapsed:.1f} s in-process ({cases / elapsed:.0f} cases/s)")
    print(f"  exit codes: {', '.join(f'{c}: {n}' for c, n in sorted(harness.codes.items()))} "
          f"(the stdin cases have none: they feed the running table)")
    print(f"  cases: {cases} (target >= {TARGET_CASES}): {'met' if cases >= TARGET_CASES else 'not met'}")
    print(f"  tracebacks, other exit codes, silent exit 2s, internal errors: {failures} (target 0): "
          f"{'met' if failures == 0 else 'not met'}")
    print(f"  separate processes: {args.processes} cases through 'python -m table' in {proc_elapsed:.1f} s, "
          f"{len(proc_failures)} failure(s)")
    for failure in harness.failures[:10]:
        print(f"  [{failure.kind}] {failure.problem}\n      input: {failure.case}")
    for failure in proc_failures[:10]:
        print(f"  [process] {failure}")
    return 0 if failures == 0 and not proc_failures and cases >= TARGET_CASES else 1


if __name__ == "__main__":
    raise SystemExit(main())
