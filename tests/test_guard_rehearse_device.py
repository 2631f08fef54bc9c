"""``%%cuda_safe --rehearse cuda:0`` and ``devicelens rehearse``: the GPU run's mismatches found on
this CPU-only machine, each named and fixed, through a real IPython shell and the command line.

The issue's cases: an ``h0`` made without a device in ``forward``, a ``CrossEntropyLoss`` weight
never moved, an ``arange`` index in ``forward``, a positional table built from NumPy, a
model-parallel split missing a ``.to()`` between stages, and a correct training cell that
rehearses clean. The user's namespace, files and random state are as they were afterwards.
NB: each case also runs on the cpu without error, so only the rehearsal can find its bug.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
import torch

pytestmark = pytest.mark.filterwarnings("ignore:PyTorch was compiled without cuDNN")

ROOT = Path(__file__).resolve().parents[1]

DEFS = '''
import numpy as np
import torch
from torch import nn
torch.manual_seed(0)
class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(8, 16, batch_first=True)
    def forward(self, x):
        h0 = torch.zeros(1, x.size(0), 16)
        out, _ = self.gru(x, h0)
        return out
class PosModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(100, 16)
        self.pos = nn.Embedding(32, 16)
        self.head = nn.Linear(16, 4)
    def forward(self, ids):
        positions = torch.arange(ids.size(1))
        return self.head(self.tok(ids) + self.pos(positions))
class PE(nn.Module):
    def __init__(self, d=16, n=64):
        super().__init__()
        table = np.array([[p / 10000 ** (2 * (i // 2) / d) for i in range(d)] for p in range(n)])
        self.table = torch.from_numpy(table).float()
        self.proj = nn.Linear(d, d)
    def forward(self, x):
        return self.proj(x + self.table[: x.size(1)])
class TwoStage(nn.Module):
    def __init__(self):
        super().__init__()
        self.stage1 = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
        self.stage2 = nn.Linear(16, 4)
    def forward(self, x):
        h = self.stage1(x.to("cuda:0"))
        return self.stage2(h)
enc, posm, pe, net = Encoder(), PosModel(), PE(), TwoStage()
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x, ids, feats = torch.randn(4, 5, 8), torch.randint(0, 100, (4, 5)), torch.randn(4, 5, 16)
xb, yb = torch.randn(4, 8), torch.randint(0, 3, (4,))
'''

CLEAN = """\
device = "cuda" if torch.cuda.is_available() else "cpu"
model.to(device)
criterion = nn.CrossEntropyLoss()
for step in range(3):
    loss = criterion(model(xb.to(device)), yb.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
torch.save(model.state_dict(), "ckpt.pt")
"""

#: name -> (devices, cell, the lines the report must hold)
CASES = {
    "h0": ("cuda:0", "enc = enc.cuda()\nout = enc(x.cuda())\n", [
        "1. gru() got tensors on different devices: cpu, cuda:0",
        "inside: enc.gru (GRU)",
        "- h0 = torch.zeros(1, x.size(0), 16)",
        "+ h0 = torch.zeros(1, x.size(0), 16, device=x.device)"]),
    "loss_weight": ("cuda:0", "model.to('cuda')\n"
                    "criterion = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5]))\n"
                    "loss = criterion(model(xb.cuda()), yb.cuda())\n", [
        "1. cross_entropy() got tensors on different devices: cpu, cuda:0",
        "culprit: criterion.weight (float32[3] on cpu), weight=; expected cuda:0",
        'criterion.to("cuda:0")']),
    "arange": ("cuda:0", "posm.cuda()\nlogits = posm(ids.cuda())\n", [
        "1. embedding() got tensors on different devices: cpu, cuda:0",
        "inside: posm.pos (Embedding)",
        "- positions = torch.arange(ids.size(1))",
        "+ positions = torch.arange(ids.size(1), device=ids.device)"]),
    "numpy_table": ("cuda:0", "pe.to('cuda:0')\ny = pe(feats.to('cuda:0'))\n", [
        "1. Tensor.add() got tensors on different devices: cpu, cuda:0",
        "culprit: pe.table (float32[64, 16] on cpu), argument 2; expected cuda:0",
        'pe.register_buffer("table", _t.to("cuda:0"), persistent=False)']),
    "split": ("cuda:0,cuda:1",
              "net.stage1.to('cuda:0')\nnet.stage2.to('cuda:1')\nout = net(xb)\n", [
        "1. linear() got tensors on different devices: cuda:0, cuda:1",
        "culprit: `h` in TwoStage.forward (float32[4, 16] on cuda:0), argument 1; expected "
        "cuda:1",
        "inside: net.stage2 (Linear)",
        "- return self.stage2(h)",
        "+ return self.stage2(h.to(next(self.stage2.parameters()).device))"]),
}
VERIFIED = "verified: rehearsed on {}, the code goes past this line with this fix"


@pytest.fixture
def user(ip, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ip.run_cell(DEFS, store_history=False)
    return ip


def rehearse(ip, capsys, devices: str, cell: str, steps: int = 0) -> str:
    capsys.readouterr()
    extra = f" --steps {steps}" if steps else ""
    result = ip.run_cell(f"%%cuda_safe --rehearse {devices}{extra}\n{cell}", store_history=False)
    assert result.error_in_exec is None, result.error_in_exec
    return capsys.readouterr().out


def lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines()]


@pytest.mark.parametrize("case", sorted(CASES))
def test_magic_finds_the_gpu_only_bug_with_its_fix(user, capsys, case):
    devices, cell, expected = CASES[case]
    on_cpu = (DEFS + cell).replace("cuda:1", "cpu").replace("cuda:0", "cpu")
    exec(on_cpu.replace(".cuda()", "").replace("'cuda'", "'cpu'"), {})  # NB: runs on the cpu
    out = rehearse(user, capsys, devices, cell)
    assert lines(out)[0] == f"rehearsed on {devices}: the GPU run would hit 1 mismatch"
    for want in expected:
        assert want in lines(out), out
    assert VERIFIED.format(devices) in lines(out) and "stopped" not in out


def test_a_correct_training_cell_rehearses_clean_and_changes_nothing(user, capsys, tmp_path):
    ns = user.user_ns
    model, optimizer = ns["model"], ns["optimizer"]
    params = [p.detach().clone() for p in model.parameters()]
    ids_before = {k: id(v) for k, v in ns.items() if not k.startswith("_")}
    rng = torch.get_rng_state(), random.getstate(), np.random.get_state()[1].copy()
    out = rehearse(user, capsys, "cuda:0", CLEAN)
    assert lines(out) == [
        "rehearsed on cuda:0: no device or dtype mismatch",
        "not rehearsed: cell line 8: `loss.backward()`: autograd does not run on a simulated "
        "GPU in a CPU build of torch; each trained parameter got a zero gradient on its own "
        "device",
        'not rehearsed: cell line 10: `torch.save(model.state_dict(), "ckpt.pt")`: nothing is '
        "written in a rehearsal"]
    # the namespace: same objects, nothing added, the model's values and devices unchanged
    assert {k: id(v) for k, v in ns.items() if not k.startswith("_")} == ids_before
    assert "device" not in ns and "loss" not in ns and "criterion" not in ns
    assert all(p.device.type == "cpu" and torch.equal(p, q)
               for p, q in zip(model.parameters(), params, strict=True))
    assert optimizer.state == {} and all(p.grad is None for p in model.parameters())
    # files and random state
    assert list(tmp_path.iterdir()) == []
    assert torch.equal(torch.get_rng_state(), rng[0]) and random.getstate() == rng[1]
    assert (np.random.get_state()[1] == rng[2]).all()


def test_the_same_cell_run_for_real_does_change_the_state(user, capsys, tmp_path):
    """The test above can fail: the cell it rehearses writes, steps and binds for real."""
    user.run_cell(CLEAN.replace("optimizer.zero_grad()", "optimizer.zero_grad()"),
                  store_history=False)
    assert [p.name for p in tmp_path.iterdir()] == ["ckpt.pt"]
    assert user.user_ns["optimizer"].state != {} and "loss" in user.user_ns


def test_a_step_run_for_real_first_does_not_stop_the_rehearsal(user, capsys):
    """A real cpu step leaves ``loss`` holding its graph, which holds every trained parameter
    once more; a GPU's ``Module.to`` does not mind, so the rehearsal's must not either."""
    user.run_cell(CLEAN.replace('"cuda" if torch.cuda.is_available() else "cpu"', '"cpu"')
                  .replace("torch.save", "pass  # "), store_history=False)
    assert user.user_ns["loss"].grad_fn is not None
    # NB: a new optimizer: the stepped one's state stays on the cpu, which is a real bug
    cell = CLEAN.replace("model.to(device)\n", "model.to(device)\n"
                         "optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)\n")
    out = rehearse(user, capsys, "cuda:0", cell)
    assert lines(out)[0] == "rehearsed on cuda:0: no device or dtype mismatch", out
    assert user.user_ns["loss"].grad_fn is not None  # NB: let go in the child only


def test_a_weight_held_elsewhere_does_not_stop_the_rehearsal(user, capsys):
    """A weak reference to a weight (a cache, a hook registry) and a view that keeps it as its
    base: ``Module.to`` on a GPU does not mind either; torch's ``swap_tensors`` refuses both,
    so the rehearsal swaps without those checks (nothing runs backward there)."""
    import weakref

    weight = user.user_ns["model"][0].weight
    user.user_ns.update(cache=weakref.ref(weight), row=weight.detach()[0])
    assert weakref.getweakrefcount(weight) >= 1
    cell = CLEAN.replace("model.to(device)\n", "model.to(device)\n"
                         "optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)\n")
    out = rehearse(user, capsys, "cuda:0", cell)
    assert lines(out)[0] == "rehearsed on cuda:0: no device or dtype mismatch", out
    assert user.user_ns["model"][0].weight is weight and weight.device.type == "cpu"


class _NoGraph(torch.Tensor):
    """A tensor subclass that cannot say its graph (as some wrappers cannot)."""

    @property
    def grad_fn(self):  # type: ignore[override]
        raise RuntimeError("no graph here")


def test_a_tensor_that_cannot_say_its_graph_does_not_stop_the_rehearsal(user, capsys):
    """Letting go of a real step's graph scans every tensor of the kernel: one whose
    ``grad_fn`` raises (left by earlier work, not even in the namespace) is passed over."""
    user.run_cell(CLEAN.replace('"cuda" if torch.cuda.is_available() else "cpu"', '"cpu"')
                  .replace("torch.save", "pass  # "), store_history=False)
    kept = [torch.Tensor._make_subclass(_NoGraph, torch.zeros(2))]
    cell = CLEAN.replace("model.to(device)\n", "model.to(device)\n"
                         "optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)\n")
    out = rehearse(user, capsys, "cuda:0", cell)
    assert lines(out)[0] == "rehearsed on cuda:0: no device or dtype mismatch", out
    assert len(kept) == 1


def test_values_stop_the_rehearsal_where_they_are_needed(user, capsys):
    cell = CLEAN.replace('torch.save(model.state_dict(), "ckpt.pt")\n',
                         "if loss.item() < 0.5:\n    print('good')\n")
    out = rehearse(user, capsys, "cuda:0", cell)
    assert lines(out)[:2] == [
        "on cuda:0, rehearsed up to cell line 10: `if loss.item() < 0.5:`",
        "stopped: the cell then needs tensor values that a simulated device does not have "
        "(aten._local_scalar_dense.default); what follows was not rehearsed"]
    assert "no device or dtype mismatch" not in out


def test_steps_end_a_training_loop(user, capsys):
    out = rehearse(user, capsys, "cuda:0", CLEAN.replace("range(3)", "range(10**6)"), steps=2)
    assert lines(out)[0] == "rehearsed on cuda:0: no device or dtype mismatch"
    assert "stopped after 2 training steps (--steps), at cell line 9: what follows was not " \
           "rehearsed" in lines(out)


def test_a_crash_of_the_sandbox_is_reported_and_the_kernel_lives(user, capsys):
    out = rehearse(user, capsys, "cuda:0", "import os\nos.abort()\n")
    assert "stopped: the rehearsal's process crashed (signal 6)" in out
    assert "no device or dtype mismatch" not in out
    assert user.run_cell("1 + 1", store_history=False).result == 2


def test_code_that_never_reaches_the_gpu_is_not_called_clean_silently(user, capsys):
    out = rehearse(user, capsys, "cuda:0", "y = model(xb)\n")
    assert lines(out) == [
        "rehearsed on cuda:0: no device or dtype mismatch",
        "note: no tensor reached cuda:0: the code kept everything on the cpu (a device chosen "
        "in an earlier cell, on this machine?)"]


@pytest.mark.parametrize("bad", ["cpu", "cuda:1", "cuda:0,cuda:0", "tpu:0"])
def test_devices_that_cannot_be_rehearsed_are_a_usage_error(user, capsys, bad):
    from IPython.core.error import UsageError

    with pytest.raises(UsageError, match=re.escape("%%cuda_safe --rehearse: ")):
        user.run_cell_magic("cuda_safe", f"--rehearse {bad}", "x = 1\n")


# --- the command line --------------------------------------------------------------------------

def cli(tmp_path: Path, devices: str, body: str, *extra: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "train.py"
    script.write_text(DEFS + textwrap.dedent(body))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "devicelens", "rehearse", "--device", devices,
                           *extra, str(script)], capture_output=True, text=True, cwd=tmp_path,
                          env=env, timeout=300)


@pytest.mark.parametrize("case", sorted(CASES))
def test_cli_finds_the_same_bug_and_exits_1(tmp_path, case):
    devices, cell, expected = CASES[case]
    done = cli(tmp_path, devices, cell)
    assert done.returncode == 1, done.stderr[-2000:]
    out = lines(done.stdout)
    assert out[0] == f"rehearsed on {devices}: the GPU run would hit 1 mismatch"
    for want in expected:
        assert want in out, done.stdout
    assert VERIFIED.format(devices) in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.py"]


def test_cli_passes_a_correct_script_with_exit_0_and_writes_nothing(tmp_path):
    done = cli(tmp_path, "cuda:0", CLEAN, "--steps", "2")
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    assert lines(done.stdout)[0] == "rehearsed on cuda:0: no device or dtype mismatch"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.py"]


def test_cli_exits_3_when_it_stops_short(tmp_path):
    done = cli(tmp_path, "cuda:0", CLEAN + "print(loss.item())\n")
    assert done.returncode == 3, done.stdout + done.stderr[-2000:]
    assert "stopped: the cell then needs tensor values" in done.stdout


def test_cli_usage_errors_exit_2(tmp_path):
    done = cli(tmp_path, "cpu", "x = 1\n")
    assert done.returncode == 2
    assert "devicelens rehearse: cannot rehearse on 'cpu'" in done.stderr
