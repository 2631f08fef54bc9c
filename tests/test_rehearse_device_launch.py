"""``python -m devicelens rehearse`` the ways training is launched: ``-m package.module``, every
rank under ``torchrun``, and a model split over two GPUs by accelerate's ``dispatch_model``.

Each script also runs on this CPU-only machine without error (it falls back to the cpu when
there is no GPU), so only the rehearsal, as on the GPUs, finds its bug. The rehearsal's exit
status is 1 with the diagnosis when the GPU run would fail, 0 when it would not.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VERIFIED = "verified: rehearsed on {}, the code goes past this line with this fix"


def run(args: list[str], cwd: Path, path: Path | None = None,
        timeout: int = 300) -> subprocess.CompletedProcess[str]:
    extra = [str(path)] if path is not None else []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*extra, str(ROOT / "src")])}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=timeout)


def lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines()]


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text))


# --- -m package.module ------------------------------------------------------------------------

NET = '''\
import torch
from torch import nn

from .config import HIDDEN


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(8, HIDDEN, batch_first=True)

    def forward(self, x):
        h0 = torch.zeros(1, x.size(0), HIDDEN{device})
        out, _ = self.gru(x, h0)
        return out
'''
TRAIN = '''\
import argparse

import torch

from .config import HIDDEN
from .net import Encoder

parser = argparse.ArgumentParser()
parser.add_argument("--batch", type=int, default=4)
args = parser.parse_args()
device = "cuda" if torch.cuda.is_available() else "cpu"
enc = Encoder().to(device)
out = enc(torch.randn(args.batch, 5, 8, device=device))
assert out.shape == (args.batch, 5, HIDDEN), out.shape
'''


@pytest.fixture
def package(tmp_path):
    """``pkg.train`` in a folder on PYTHONPATH (not the working directory), with arguments of
    its own; its model is in ``pkg.net``, which it imports itself (relative imports)."""
    lib, work = tmp_path / "lib", tmp_path / "work"
    work.mkdir()
    write(lib, {"pkg/__init__.py": "", "pkg/config.py": "HIDDEN = 16\n", "pkg/train.py": TRAIN})
    return lib, work


@pytest.mark.parametrize("fixed", [False, True])
def test_a_module_is_rehearsed_with_its_package_and_arguments(package, fixed):
    """The fix is an edit of ``pkg/net.py``, which the module imports: each round imports it
    edited, so the fix is verified there too."""
    lib, work = package
    write(lib, {"pkg/net.py": NET.format(device=", device=x.device" if fixed else "")})
    assert run(["-m", "pkg.train", "--batch", "2"], work, lib).returncode == 0  # cpu: runs
    done = run(["-m", "devicelens", "rehearse", "--device", "cuda:0", "-m", "pkg.train",
                "--batch", "2"], work, lib)
    out = lines(done.stdout)
    if fixed:
        assert done.returncode == 0, done.stdout + done.stderr[-2000:]
        assert out == ["rehearsed on cuda:0: no device or dtype mismatch"]
        return
    assert done.returncode == 1, done.stdout + done.stderr[-2000:]
    assert out[:2] == ["rehearsed on cuda:0: the GPU run would hit 1 mismatch",
                       "1. gru() got tensors on different devices: cpu, cuda:0"]
    for want in ["inside: enc.gru (GRU)",
                 "at: net.py line 14 (in Encoder.forward): out, _ = self.gru(x, h0)",
                 "edit: in `enc` (Encoder.forward, net.py line 13)",
                 "- h0 = torch.zeros(1, x.size(0), HIDDEN)",
                 "+ h0 = torch.zeros(1, x.size(0), HIDDEN, device=x.device)",
                 VERIFIED.format("cuda:0")]:
        assert want in out, done.stdout
    assert sorted(p.name for p in work.iterdir()) == []
    assert (lib / "pkg" / "net.py").read_text() == NET.format(device="")  # edited in memory


def test_a_module_that_is_not_there_is_a_usage_error(tmp_path):
    done = run(["-m", "devicelens", "rehearse", "--device", "cuda:0", "-m", "nopkg.train"],
               tmp_path)
    assert done.returncode == 2
    assert "devicelens rehearse: No module named nopkg.train" in done.stderr


# --- torchrun ---------------------------------------------------------------------------------

DDP = '''\
import gc
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

local_rank = int(os.environ["LOCAL_RANK"])
gpu = torch.cuda.is_available()
dist.init_process_group("nccl" if gpu else "gloo")
device = torch.device("cuda", local_rank) if gpu else torch.device("cpu")
if gpu:
    torch.cuda.set_device(device)
model = DDP(nn.Linear(8, 4).to(device), device_ids=[local_rank] if gpu else None)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(16, 8, device=device)
if dist.get_rank() == 0:
    scale = torch.ones(4, device=device)
else:
    scale = torch.ones(4, device="cuda:0" if gpu else "cpu")
loss = (model(x) * scale).sum()
loss.backward()
opt.step()
del model, opt  # NB: DDP's reducer goes before its process group (gloo aborts otherwise)
gc.collect()
dist.barrier()
dist.destroy_process_group()
'''


def torchrun(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run(["-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2", *args],
               tmp_path)


def by_rank(text: str) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {0: [], 1: []}
    for ln in text.splitlines():
        for rank in out:
            tag = f"[rank {rank}/2, local_rank {rank}] "
            if ln.startswith(tag):
                out[rank].append(ln[len(tag):].strip())
    return out


def test_under_torchrun_each_rank_rehearses_its_own_gpu(tmp_path):
    """Rank 1 makes ``scale`` on ``cuda:0``, hard-coded, while its model is on ``cuda:1``; rank
    0 is right. The same script runs for real under torchrun on the cpu (gloo) first."""
    write(tmp_path, {"train.py": DDP})
    real = torchrun(tmp_path, "train.py")
    assert real.returncode == 0, real.stderr[-3000:]
    done = torchrun(tmp_path, "-m", "devicelens", "rehearse", "--device", "cuda:0", "train.py")
    assert done.returncode != 0  # torchrun: a rank failed
    ranks = by_rank(done.stdout)
    assert ranks[0] == [
        "this rank's GPU: cuda:0",
        "rehearsed on cuda:0,cuda:1: no device or dtype mismatch",
        "not rehearsed: train.py line 23: `loss.backward()`: autograd does not run on a "
        "simulated GPU in a CPU build of torch; each trained parameter got a zero gradient on "
        "its own device"], done.stdout
    assert ranks[1][:5] == [
        "this rank's GPU: cuda:1",
        "rehearsed on cuda:0,cuda:1: the GPU run would hit 1 mismatch",
        "1. Tensor.mul() got tensors on different devices: cuda:0, cuda:1",
        "culprit: scale (float32[4] on cuda:0), argument 2; expected cuda:1",
        "at: train.py line 22: loss = (model(x) * scale).sum()"], done.stdout
    assert "scale = scale.to(device)" in ranks[1]  # NB: in every rank's terms, no literal
    assert VERIFIED.format("cuda:0,cuda:1") in ranks[1]
    assert "exitcode  : 1" in done.stderr and "rank      : 1 (local_rank: 1)" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.py"]


# --- accelerate: a model split over two GPUs --------------------------------------------------

SPLIT = '''\
import torch
from accelerate import dispatch_model
from torch import nn

GPUS = torch.cuda.device_count()


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 16)

    def forward(self, h):
        gate = torch.ones(16, device={gate})
        return torch.relu(self.proj(h)) * gate


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(100, 16)
        self.block1 = Block()
        self.block2 = Block()
        self.head = nn.Linear(16, 4)

    def forward(self, ids):
        return self.head(self.block2(self.block1(self.embed(ids))))


model = Net()
split = {{"embed": 0, "block1": 0, "block2": 1, "head": 1}}
model = dispatch_model(model, device_map=split if GPUS > 1 else {{"": "cpu"}})
assert model.hf_device_map == (split if GPUS > 1 else {{"": "cpu"}})
logits = model(torch.randint(0, 100, (2, 8)))
'''
NO_SMI = ("not rehearsed: split.py line 32: `model = dispatch_model(model, device_map=split if "
          'GPUS > 1 else {"": "cpu"})`: nvidia-smi was not run (a simulated GPU has none): the '
          "code was told it is not found")


@pytest.mark.parametrize("fixed", [False, True])
def test_an_accelerate_split_is_checked_before_it_is_paid_for(tmp_path, fixed):
    """accelerate's own ``dispatch_model`` (its ``AlignDevicesHook`` moves each block's inputs
    to the block's GPU); ``Block.forward`` makes ``gate`` on ``cuda:0``, hard-coded, which is
    wrong for ``block2`` on ``cuda:1``. Fixed, ``gate`` follows ``h``."""
    pytest.importorskip("accelerate")
    gate = "h.device" if fixed else '"cuda:0" if GPUS else "cpu"'
    write(tmp_path, {"split.py": SPLIT.format(gate=gate)})
    assert run(["split.py"], tmp_path).returncode == 0  # cpu: runs
    done = run(["-m", "devicelens", "rehearse", "--device", "cuda:0,cuda:1", "split.py"],
               tmp_path)
    out = lines(done.stdout)
    if fixed:
        assert done.returncode == 0, done.stdout + done.stderr[-2000:]
        assert out == ["rehearsed on cuda:0,cuda:1: no device or dtype mismatch", NO_SMI]
        return
    assert done.returncode == 1, done.stdout + done.stderr[-2000:]
    assert out[:5] == [
        "rehearsed on cuda:0,cuda:1: the GPU run would hit 1 mismatch",
        "1. Tensor.mul() got tensors on different devices: cuda:0, cuda:1",
        "culprit: `gate` in Block.forward (float32[16] on cuda:0), argument 2; expected cuda:1",
        "inside: model.block2 (Block)",
        "at: split.py line 15 (in Block.forward): return torch.relu(self.proj(h)) * gate"]
    assert "+ return torch.relu(self.proj(h)) * gate.to(next(self.parameters()).device)" in out
    assert VERIFIED.format("cuda:0,cuda:1") in out and NO_SMI in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["split.py"]


MAGIC_DEFS = SPLIT.split("model = Net()")[0].replace("{gate}", '"cuda:0"').replace(
    "{{", "{").replace("}}", "}") + "model = Net()\nids = torch.randint(0, 100, (2, 8))\n"


def test_the_magic_checks_a_dispatch_before_it_is_paid_for(ip, capsys):
    """``%%cuda_safe --rehearse cuda:0,cuda:1`` on a notebook cell that dispatches the user's
    model: the split is checked, and the model, the namespace and accelerate's hooks stay as
    they were (the cell ran in the sandbox only)."""
    pytest.importorskip("accelerate")
    ip.run_cell(MAGIC_DEFS, store_history=True)
    model = ip.user_ns["model"]
    capsys.readouterr()
    cell = ('from accelerate import dispatch_model\n'
            'model = dispatch_model(model, device_map={"embed": 0, "block1": 0, "block2": 1, '
            '"head": 1})\nlogits = model(ids)\n')
    result = ip.run_cell(f"%%cuda_safe --rehearse cuda:0,cuda:1\n{cell}", store_history=True)
    assert result.error_in_exec is None
    out = lines(capsys.readouterr().out)
    assert out[:2] == ["rehearsed on cuda:0,cuda:1: the GPU run would hit 1 mismatch",
                       "1. Tensor.mul() got tensors on different devices: cuda:0, cuda:1"]
    assert "inside: model.block2 (Block)" in out
    assert "+ gate = torch.ones(16, device=h.device)" in out
    assert VERIFIED.format("cuda:0,cuda:1") in out
    assert ip.user_ns["model"] is model and not hasattr(model, "hf_device_map")
    assert not hasattr(model.block2, "_hf_hook") and "logits" not in ip.user_ns
    assert all(p.device.type == "cpu" for p in model.parameters())


ONE_GPU = '''\
import torch
from accelerate import dispatch_model
from torch import nn

GPUS = torch.cuda.device_count()
model = nn.Sequential(nn.Embedding(100, 16), nn.Linear(16, 4))
model = dispatch_model(model, device_map={"": 1} if GPUS > 1 else {"": "cpu"})
logits = model(torch.randint(0, 100, (2, 8)))
'''


def test_a_one_gpu_device_map_moves_the_model_and_not_its_inputs(tmp_path):
    """With every module on one GPU, ``dispatch_model`` is ``model.to(1)`` and adds no hooks, so
    a batch left on the cpu fails on the GPU: ``1`` is read as ``cuda:1`` there, as on the
    machine (``Module.to`` parses it in C++)."""
    pytest.importorskip("accelerate")
    write(tmp_path, {"one.py": ONE_GPU})
    assert run(["one.py"], tmp_path).returncode == 0  # cpu: runs
    done = run(["-m", "devicelens", "rehearse", "--device", "cuda:0,cuda:1", "one.py"],
               tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr[-2000:]
    out = lines(done.stdout)
    assert out[:2] == ["rehearsed on cuda:0,cuda:1: the GPU run would hit 1 mismatch",
                       "1. embedding() got tensors on different devices: cpu, cuda:1"], out
    assert "+ logits = model(torch.randint(0, 100, (2, 8)).to(\"cuda:1\"))" in out
    assert VERIFIED.format("cuda:0,cuda:1") in out


def test_an_auto_device_map_stops_where_it_asks_the_gpus_memory(tmp_path):
    """``device_map="auto"`` places by each GPU's free memory, which a simulated GPU does not
    have: the rehearsal stops there (exit 3) rather than check the all-cpu placement accelerate
    falls back to when the question fails, which the real run never makes."""
    pytest.importorskip("accelerate")
    script = SPLIT.format(gate="h.device").replace(
        "model = dispatch_model(", "split = infer_auto_device_map(model)\n"
                                   "model = dispatch_model(").replace(
        "from accelerate import dispatch_model",
        "from accelerate import dispatch_model, infer_auto_device_map")
    write(tmp_path, {"auto.py": script.split("assert model.hf_device_map")[0]})
    done = run(["-m", "devicelens", "rehearse", "--device", "cuda:0,cuda:1", "auto.py"],
               tmp_path)
    assert done.returncode == 3, done.stdout + done.stderr[-2000:]
    assert lines(done.stdout)[:2] == [
        "on cuda:0,cuda:1, rehearsed up to auto.py line 32: `split = "
        "infer_auto_device_map(model)`",
        "stopped: the code asks how much memory cuda:0 has free (torch.cuda.mem_get_info), "
        "which a simulated GPU does not know (for accelerate: give max_memory, or a "
        "device_map); what follows was not rehearsed"], done.stdout
