#!/usr/bin/env bash
# The real-CUDA check, in one go, on a machine with a GPU:
#   bash tests/gpu/device_check.sh        (about 5 minutes; the log goes to $OUT/gpu-check.log)
# Needs a python3 with a CUDA build of torch, numpy, IPython, pytest, pytest-timeout and
# hypothesis; devicelens runs from source (PYTHONPATH=src), so nothing is installed.
set -uo pipefail
OUT=${OUT:-/tmp/devicelens-gpu}
mkdir -p "$OUT"
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
{
  nvidia-smi -L
  python3 -c "import torch; print('torch', torch.__version__, 'cuda devices:', torch.cuda.device_count())"
  python3 -m pytest -q -p no:cacheprovider -o addopts="" tests/gpu \
    --ignore=tests/gpu/test_rehearse_gpu.py
  echo "pytest exit: $?"
  # --rehearse cuda:0's verdicts against the real run of the same cells on this GPU
  python3 -m pytest -q -p no:cacheprovider -o addopts="" -rs tests/gpu/test_rehearse_gpu.py
  echo "rehearsal vs real run, pytest exit: $?"
  python3 benchmarks/bench_moves_gpu.py
} 2>&1 | tee "$OUT/gpu-check.log"
