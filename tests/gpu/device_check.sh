#!/usr/bin/env bash
# The one prepared device check, for a session whose task is lent a GPU machine (device tool):
#   run: bash tests/gpu/device_check.sh      (timeout_s ~ 420; the log comes back under $OUT)
# The machine's own python3 has torch, pytest, pytest-timeout and hypothesis; devicelens runs
# from source (PYTHONPATH=src), so nothing is installed there.
set -uo pipefail
OUT=${OUT:-/tmp/devicelens-gpu}
mkdir -p "$OUT"
export PYTHONPATH=src PYTHONUNBUFFERED=1
{
  nvidia-smi -L
  python3 -c "import torch; print('torch', torch.__version__, 'cuda devices:', torch.cuda.device_count())"
  python3 -m pytest -q -p no:cacheprovider -o addopts="" tests/gpu
  echo "pytest exit: $?"
  python3 benchmarks/bench_moves_gpu.py
} 2>&1 | tee "$OUT/gpu-check.log"
