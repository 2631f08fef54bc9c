"""Run every benchmark in this folder, one after another, then the corpus scorer; print tables.

``make bench`` calls this; the README quotes the last run. Timings live here, never in tests.
"""

from __future__ import annotations

import pathlib
import platform
import subprocess
import sys

HERE = pathlib.Path(__file__).parent


def main() -> int:
    import torch

    print(f"# devicelens benchmarks — Python {platform.python_version()}, torch "
          f"{torch.__version__}, {platform.machine()}, {len(__import__('os').sched_getaffinity(0))}"
          " cores\n")
    failed = 0
    for bench in sorted(HERE.glob("bench_*.py")):
        print(f"## {bench.stem}\n")
        proc = subprocess.run([sys.executable, str(bench)], capture_output=True, text=True)
        print(proc.stdout.rstrip())
        if proc.returncode:
            failed += 1
            print(f"(failed with exit code {proc.returncode})\n{proc.stderr[-2000:]}")
        print()
    print("## corpus (diagnosis accuracy, tests/corpus)\n")
    proc = subprocess.run([sys.executable, "-m", "tests.corpus.scorer"], cwd=HERE.parent,
                          capture_output=True, text=True)
    print(proc.stdout.rstrip())
    if proc.returncode:
        failed += 1
        print(f"(failed with exit code {proc.returncode})\n{proc.stderr[-2000:]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
