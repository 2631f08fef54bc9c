"""``torchrun --nproc-per-node N -m devicelens run SCRIPT``: the real launcher
(``torch.distributed.run``), real gloo process groups on the CPU, buggy scripts in
``tests/train/``. Two launches in all (each pays for starting PyTorch in every process).

Simulated GPUs: the scripts make their tensors inside a ``FakeTensorMode``, which gives them real
``cuda:N`` metadata and raises PyTorch's real device errors on this CPU-only machine. NCCL (cuda
tensors only) is simulated by a "cuda:gloo" group: it has no backend for cpu tensors either and
raises the very error NCCL raises.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[1]
TRAIN = ROOT / "tests" / "train"


def torchrun(folder: Path, nproc: int, script: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CUDA_VISIBLE_DEVICES"}
    env.update(PYTHONPATH=f"{ROOT / 'src'}{os.pathsep}{ROOT}", OMP_NUM_THREADS="1",
               DEVICELENS_TEST_SYNC=str(folder))  # see tests/train/_exit_sync.py
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node",
           str(nproc), "-m", "devicelens", "run", str(TRAIN / script)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env, cwd=folder)


def tags(out: str) -> list[str]:
    return re.findall(r"^devicelens (\[rank \d/\d, local_rank \d\]): ", out, re.M)


def report(out: str, tag: str) -> str:
    """One rank's report: its tagged headline and the indented lines after it."""
    m = re.search(rf"^devicelens {re.escape(tag)}: .*\n(?:  .*\n)*", out, re.M)
    assert m is not None, out[-3000:]
    return m.group(0)


def line(script: str, text: str) -> str:
    """``script line N: text`` as the report cites the script's line holding ``text``."""
    lines = (TRAIN / script).read_text().splitlines()
    n = next(i for i, src in enumerate(lines, 1) if src.strip().startswith(text))
    return f"{script} line {n}: {lines[n - 1].strip()}"


@pytest.fixture(scope="module")
def every_rank_on_cuda0(tmp_path_factory):
    return torchrun(tmp_path_factory.mktemp("cuda0"), 2, "rank_gpus.py")


@pytest.fixture(scope="module")
def three_bugs(tmp_path_factory):
    return torchrun(tmp_path_factory.mktemp("bugs"), 3, "rank_bugs.py")


def test_only_the_failing_rank_reports_and_the_exit_status_is_torchruns(every_rank_on_cuda0):
    p = every_rank_on_cuda0
    assert p.returncode == 1, (p.stdout + p.stderr)[-3000:]
    assert tags(p.stderr) == ["[rank 1/2, local_rank 1]"] and tags(p.stdout) == []
    # rank 0, right by accident, ran to the end with its output untouched; gloo took cpu tensors
    assert sorted(p.stdout.splitlines()) == [
        "rank 0: 2 ranks answered", "rank 0: step done", "rank 1: 2 ranks answered"]
    assert "FakeTensorDeviceMismatchError: Expected all tensors to be on the same device" \
        in p.stderr  # the original traceback, before the report
    assert re.search(r"rank\s+: 1 \(local_rank: 1\)\n\s+exitcode\s+: 1 ", p.stderr)


def test_every_rank_on_cuda0_blames_the_model_in_every_ranks_terms(every_rank_on_cuda0):
    assert report(every_rank_on_cuda0.stderr, "[rank 1/2, local_rank 1]") == (
        "devicelens [rank 1/2, local_rank 1]: tensors on different devices: cuda:0, cuda:1\n"
        "  culprit: model[0].weight (float32[16, 8] on cuda:0), Linear.weight; expected cuda:1\n"
        "  culprit: model[0].bias (float32[16] on cuda:0), Linear.bias; expected cuda:1\n"
        "  inside: model[0] (Linear)\n"
        f"  at: {line('rank_gpus.py', 'out = model(x)')}\n"
        "  note: model is on cuda:0 on every rank: the code does not use LOCAL_RANK, so all "
        "ranks of this node share one GPU (with NCCL: \"Duplicate GPU detected\"); this process "
        "is local_rank 1 of 2, whose GPU is cuda:1.\n"
        "  fix:\n"
        # NB: never a literal "cuda:1": that would be wrong on every other rank
        "      model.to(f\"cuda:{local_rank}\")\n"
        "  not verified: a rank of a distributed run is not rehearsed\n")


def test_three_ranks_three_distributed_bugs(three_bugs):
    p = three_bugs
    assert p.returncode == 1, (p.stdout + p.stderr)[-3000:]
    assert sorted(tags(p.stderr)) == [f"[rank {r}/3, local_rank {r}]" for r in range(3)]


def test_ddp_device_ids_with_the_module_on_cpu(three_bugs):
    """Issue 36 harm 7: on a machine without the GPU, ``model.to(f"cuda:{local_rank}")`` cannot
    work; dropping ``device_ids`` is the fix that does (a cpu module trains under DDP)."""
    head = ("devicelens [rank 0/3, local_rank 0]: DistributedDataParallel(device_ids=[0]) got a "
            "module on cpu\n")
    at = f"  at: {line('rank_bugs.py', 'ddp_model = ')}\n"
    if torch.cuda.is_available():  # NB: on a machine with a GPU
        assert report(three_bugs.stderr, "[rank 0/3, local_rank 0]") == (
            head + "  culprit: model.weight (float32[2, 8] on cpu), parameter of model; "
            "expected cuda:0\n  inside: model (Linear)\n" + at +
            "  note: DistributedDataParallel does not move the module: with device_ids=[0] it "
            "must already be on cuda:0 (or drop device_ids to train on the cpu)\n"
            "  fix:\n      model = model.to(f\"cuda:{local_rank}\")  # before wrapping it\n"
            "  not verified: a rank of a distributed run is not rehearsed\n")
        return
    assert report(three_bugs.stderr, "[rank 0/3, local_rank 0]") == (
        head + "  inside: model (Linear)\n" + at +
        "  note: this machine has no GPU cuda:0: DistributedDataParallel trains a cpu module "
        "only without device_ids (and output_device)\n"
        "  edit: rank_bugs.py line 27\n"
        "      - ddp_model = nn.parallel.DistributedDataParallel(model, device_ids=[local_rank])\n"
        "      + ddp_model = nn.parallel.DistributedDataParallel(model)\n"
        "  not verified: a rank of a distributed run is not rehearsed\n")


def test_a_cpu_tensor_in_a_cuda_only_collective(three_bugs):
    assert "RuntimeError: No backend type associated with device type cpu" in three_bugs.stderr
    assert report(three_bugs.stderr, "[rank 1/3, local_rank 1]") == (
        "devicelens [rank 1/3, local_rank 1]: all_reduce() got a tensor on cpu, which the "
        "process group cannot send\n"
        "  culprit: loss (float32[] on cpu), `tensor` in all_reduce; expected cuda:1\n"
        f"  at: {line('rank_bugs.py', 'dist.all_reduce(loss')}\n"
        "  note: the process group (cuda:gloo) has no backend for cpu tensors: NCCL sends cuda "
        "tensors only (gloo also takes cpu ones)\n"
        "  fix:\n"
        "      loss = loss.to(f\"cuda:{local_rank}\")\n"
        "  not verified: a rank of a distributed run is not rehearsed\n")


def test_a_batch_on_another_ranks_gpu(three_bugs):
    text = report(three_bugs.stderr, "[rank 2/3, local_rank 2]")
    assert text.splitlines()[:2] == [
        "devicelens [rank 2/3, local_rank 2]: tensors on different devices: cuda:0, cuda:2",
        "  culprit: x (float32[4, 8] on cuda:0), `input` in Linear.forward; expected cuda:2"]
    assert "  note: x is on cuda:0 on every rank: the code does not use LOCAL_RANK" in text
    # the line that hard-codes rank 0's GPU is what to change, in terms right on every rank
    assert text.endswith(
        '  fix:\n      x = x.to(f"cuda:{local_rank}")\n'
        f"  edit: rank_bugs.py line {line('rank_bugs.py', 'x = ').split()[2][:-1]}\n"
        '      - x = torch.randn(4, 8, device="cuda:0")\n'
        '      + x = torch.randn(4, 8, device=f"cuda:{local_rank}")\n'
        "  not verified: a rank of a distributed run is not rehearsed\n")
