"""``%%cuda_safe``'s guard through a real IPython shell: one realistic cell per mismatch family.

Simulated GPUs: ``FakeTensorMode`` gives ``cuda:0``/``cuda:1`` metadata and the real errors (no
autograd on fake cuda: those cells run under ``torch.no_grad()``); ``cpu``/``meta`` is a real
second device, with autograd. Each test asserts the culprit's name, the cell line and the fix.
"""

from __future__ import annotations

import pytest
import torch

from devicelens.guard import DeviceMismatchError

pytestmark = pytest.mark.filterwarnings("ignore:PyTorch was compiled without cuDNN")

SETUP = """
import torch
from torch import nn
import torch.nn.functional as F

class PositionalEncoding(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.pos_emb = torch.randn(16, d)   # a plain attribute: Module.to() leaves it behind
    def forward(self, x):
        return x + self.pos_emb[: x.size(1)]

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = PositionalEncoding(8)
        self.proj = nn.Linear(8, 4)
    def forward(self, x):
        return self.proj(self.encoder(x))

class RNNModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = 6
        self.rnn = nn.GRU(4, 6, batch_first=True)
        self.head = nn.Linear(6, 3)
    def forward(self, x):
        h0 = torch.zeros(1, x.size(0), self.hidden)
        out, h = self.rnn(x, h0)
        return self.head(out[:, -1])
"""


def run(ip, cell: str):
    result = ip.run_cell(cell, store_history=False)
    return result.error_in_exec


def mismatch(ip, cell: str) -> DeviceMismatchError:
    err = run(ip, cell)
    assert isinstance(err, DeviceMismatchError), repr(err)
    assert isinstance(err, RuntimeError)
    return err


@pytest.fixture
def ns(ip):
    assert run(ip, SETUP) is None
    return ip.user_ns


# --- simulated cuda:N ---------------------------------------------------------------------

def test_labels_not_moved_fake_cuda(ip, ns, fake_cuda):
    ns.update(model=fake_cuda.to(torch.nn.Linear(8, 4), "cuda:0"), fc=fake_cuda,
              x=fake_cuda.randn(2, 8), labels=torch.tensor([0, 1]))
    with fake_cuda:
        err = mismatch(ip, "%%cuda_safe --no-preflight\nwith torch.no_grad():\n"
                           "    logits = model(x)\n    loss = F.cross_entropy(logits, labels)\n")
    rep = err.report
    assert rep.op == "cross_entropy" and rep.expected == "cuda:0"
    assert err.culprits == ("labels",)
    assert "culprit: labels (int64[2] on cpu), argument 2; expected cuda:0" in str(err)
    assert "at: cell line 4: loss = F.cross_entropy(logits, labels)" in str(err)
    # NB: not labels.to(logits.device): the failing cell itself makes `logits`
    assert err.fix == 'labels = labels.to("cuda:0")'


def test_loss_weight_on_wrong_device_fake_cuda(ip, ns, fake_cuda):
    ns.update(model=fake_cuda.to(torch.nn.Linear(8, 3), "cuda:0"), x=fake_cuda.randn(2, 8),
              labels=fake_cuda.randn(2).long(),
              criterion=torch.nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 1.0])))
    with fake_cuda:
        err = mismatch(ip, "%%cuda_safe --no-preflight\nwith torch.no_grad():\n"
                           "    loss = criterion(model(x), labels)\n")
    assert err.culprits == ("criterion.weight",)
    assert err.report.module == "criterion (CrossEntropyLoss)"
    assert "inside: criterion (CrossEntropyLoss)" in str(err)
    assert "at: cell line 3: loss = criterion(model(x), labels)" in str(err)
    assert err.fix == 'criterion.to("cuda:0")'


def test_positional_encoding_attribute_fake_cuda(ip, ns, fake_cuda):
    ns.update(model=fake_cuda.to(ns["Encoder"](), "cuda:0"), x=fake_cuda.randn(2, 5, 8))
    with fake_cuda:
        err = mismatch(ip, "%%cuda_safe --no-preflight\nwith torch.no_grad():\n"
                           "    out = model(x)\n")
    assert err.culprits == ("model.encoder.pos_emb",)  # the attribute, not the slice used
    assert "culprit: model.encoder.pos_emb (float32[16, 8] on cpu), argument 2" in str(err)
    assert err.report.module == "model.encoder (PositionalEncoding)"
    lines = err.report.lines
    assert lines[0].endswith("(in PositionalEncoding.forward): "
                             "return x + self.pos_emb[: x.size(1)]")
    assert lines[1] == "cell line 3: out = model(x)"
    assert err.fix == ('_t = model.encoder.pos_emb\ndel model.encoder.pos_emb\n'
                       'model.encoder.register_buffer("pos_emb", _t.to("cuda:0"), '
                       'persistent=False)')
    (edit,) = err.report.edits  # and the code, so that the next model.to() moves it
    assert edit.where.endswith("line 8 (in PositionalEncoding.__init__)")
    assert edit.old == ("        self.pos_emb = torch.randn(16, d)   # a plain attribute: "
                        "Module.to() leaves it behind",)
    assert edit.new == ('        self.register_buffer("pos_emb", torch.randn(16, d), '
                        'persistent=False)   # a plain attribute: Module.to() leaves it behind',)


def test_rnn_hidden_state_without_device_fake_cuda(ip, ns, fake_cuda):
    ns.update(rnn=fake_cuda.to(ns["RNNModel"](), "cuda:1"), seq=fake_cuda.randn(2, 5, 4,
                                                                                 device="cuda:1"))
    with fake_cuda:
        err = mismatch(ip, "%%cuda_safe --no-preflight\nwith torch.no_grad():\n"
                           "    out = rnn(seq)\n")
    # whose code made it (the model's forward), then the local it made, as what it is
    assert err.culprits == ("rnn", "`h0` in RNNModel.forward")
    assert "culprit: rnn (its RNNModel.forward has the line to edit); expected cuda:1\n" \
           "  culprit: `h0` in RNNModel.forward (float32[1, 2, 6] on cpu); expected cuda:1" \
        in str(err), str(err)
    assert err.report.expected == "cuda:1"
    assert err.report.module == "rnn.rnn (GRU)"
    assert err.report.lines[0].endswith("(in RNNModel.forward): out, h = self.rnn(x, h0)")
    assert err.report.lines[1] == "cell line 3: out = rnn(seq)"
    assert err.fix == ""  # no namespace move helps: the code makes it again on every call
    (edit,) = err.report.edits
    assert edit.where.endswith("line 27 (in RNNModel.forward)")
    assert edit.old == ("        h0 = torch.zeros(1, x.size(0), self.hidden)",)
    assert edit.new == ("        h0 = torch.zeros(1, x.size(0), self.hidden, device=x.device)",)


def test_gather_index_on_cpu_fake_cuda1(ip, ns, fake_cuda):
    ns.update(logits=fake_cuda.randn(2, 4, device="cuda:1"), idx=torch.tensor([[0], [3]]))
    with fake_cuda:
        err = mismatch(ip, "%%cuda_safe\npicked = logits.gather(1, idx)\n")
    assert err.report.op == "Tensor.gather"
    assert err.culprits == ("idx",)
    assert err.report.lines == ("cell line 2: picked = logits.gather(1, idx)",)
    assert err.fix == "idx = idx.to(logits.device)"


def test_input_on_the_other_gpu_fake_cuda(ip, ns, fake_cuda):
    ns.update(model=fake_cuda.to(torch.nn.Sequential(torch.nn.Linear(8, 4)), "cuda:0"),
              batch={"x": fake_cuda.randn(2, 8, device="cuda:1")})
    with fake_cuda:
        err = mismatch(ip, "%%cuda_safe --no-preflight\nwith torch.no_grad():\n"
                           "    out = model(batch['x'])\n")
    assert err.culprits == ("batch['x']",)
    assert err.report.module == "model[0] (Linear)"
    assert err.fix == "batch['x'] = batch['x'].to(\"cuda:0\")"


def test_dtype_family_fake_cuda(ip, ns, fake_cuda):
    ns.update(model=fake_cuda.to(torch.nn.Linear(8, 4), "cuda:0"),
              x=fake_cuda.randn(2, 8, dtype=torch.float16))
    with fake_cuda:
        err = mismatch(ip, "%%cuda_safe --dtype --no-preflight\nwith torch.no_grad():\n"
                           "    out = model(x)\n")
    assert err.report.kind == "dtype" and err.report.expected == "float32"
    assert err.culprits == ("x",)
    assert "linear() got tensors on different dtypes: float16, float32" in str(err)
    assert err.fix == "x = x.float()"


def test_allowed_mixes_pass_fake_cuda(ip, ns, fake_cuda):
    ns.update(x=fake_cuda.randn(3), buf=torch.zeros(3))
    with fake_cuda:
        err = run(ip, "%%cuda_safe\ny = x * torch.tensor(2.0)\nz = x.to('cpu')\nbuf.copy_(x)\n"
                      "w = torch.zeros_like(x, device='cpu')\n")
    assert err is None
    assert str(ns["y"].device) == "cuda:0" and str(ns["z"].device) == "cpu"


def test_lists_of_tensors_are_checked_fake_cuda(ip, ns, fake_cuda):
    ns.update(a=fake_cuda.randn(3), b=torch.zeros(3))
    with fake_cuda:
        err = mismatch(ip, "%%cuda_safe\nc = torch.cat([a, b])\n")
    assert err.culprits == ("b",)
    assert err.report.culprits[0].where == "argument 1[1]"


# --- cpu / meta -----------------------------------------------------------------------------

TRAIN = """%%cuda_safe --no-preflight
opt.zero_grad()
loss = criterion(model(x), labels)
loss.backward()
opt.step()
"""


def _meta_setup(ns, weight_on_cpu: bool):
    from tests.conftest import to_in_place

    model = to_in_place(torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(),
                                            torch.nn.Linear(16, 3)), "meta")
    weight = torch.tensor([1.0, 2.0, 1.0])
    ns.update(model=model, opt=torch.optim.SGD(model.parameters(), lr=0.1),
              x=torch.randn(4, 8, device="meta"),
              criterion=torch.nn.CrossEntropyLoss(
                  weight=weight if weight_on_cpu else weight.to("meta")),
              labels=torch.tensor([0, 1, 2, 0]))


def test_training_step_labels_not_moved_meta(ip, ns):
    _meta_setup(ns, weight_on_cpu=False)
    err = mismatch(ip, TRAIN)
    assert err.culprits == ("labels",)
    assert err.report.expected == "meta"
    assert err.report.lines == ("cell line 3: loss = criterion(model(x), labels)",)
    assert err.fix == 'labels = labels.to("meta")'


def test_training_step_loss_weight_on_cpu_meta(ip, ns):
    _meta_setup(ns, weight_on_cpu=True)
    ns["labels"] = ns["labels"].to("meta")
    err = mismatch(ip, TRAIN)
    assert err.culprits == ("criterion.weight",)
    assert err.fix == 'criterion.to("meta")'


def test_optimizer_state_left_behind_meta(ip, ns):
    model = torch.nn.Linear(4, 2)
    opt = torch.optim.Adam(model.parameters(), foreach=False)
    model(torch.randn(3, 4)).sum().backward()
    opt.step()
    for state in opt.state.values():
        state["exp_avg"] = state["exp_avg"].to("meta")
    ns.update(model=model, opt=opt, x=torch.randn(3, 4))
    err = mismatch(ip, "%%cuda_safe --no-preflight\nmodel(x).sum().backward()\nopt.step()\n")
    assert err.report.lines[-1] == "cell line 3: opt.step()"
    assert err.culprits == ("opt",)  # its state tensors, as one culprit: one fix moves them
    assert "culprit: opt (1 tensor it holds on meta); expected cpu" in str(err)
    assert "for _p, _s in opt.state.items():" in err.fix


def test_dtype_family_cpu(ip, ns):
    ns.update(model=torch.nn.Sequential(torch.nn.Linear(8, 4)),
              x=torch.randn(2, 8, dtype=torch.float64))
    err = mismatch(ip, "%%cuda_safe --dtype --no-preflight\nout = model(x)\n")
    assert err.culprits == ("x",)
    assert err.report.module == "model[0] (Linear)"
    assert err.report.lines == ("cell line 2: out = model(x)",)
    assert err.fix == "x = x.float()"


def test_guard_as_a_context_manager_outside_ipython(tmp_path):
    import subprocess
    import sys

    script = tmp_path / "train.py"
    script.write_text(
        "import torch\nfrom devicelens.guard import DeviceGuard, DeviceMismatchError\n"
        "weights = torch.ones(2, device='meta')\n"
        "def step(batch):\n    return batch + weights\n"
        "try:\n    with DeviceGuard():\n        step(torch.ones(2))\n"
        "except DeviceMismatchError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert "Tensor.add() got tensors on different devices: cpu, meta" in out
    assert "culprit: `batch` in step (float32[2] on cpu), argument 1; expected meta" in out
    assert "at: train.py line 5 (in step): return batch + weights" in out
    assert "from: train.py line 8: step(torch.ones(2))" in out
    # the tensor was made without a device by the caller's line: the fix is that line
    assert out.rstrip().endswith("edit: train.py line 8\n"
                                 "      - step(torch.ones(2))\n"
                                 "      + step(torch.ones(2, device=weights.device))")
