"""Who made the stray, in the user's names: the object whose method made it, the array a
temporary was converted from, the tuple that holds it, the tensor an op writes into.

Each test is the shape of a held-out bug the engine first missed (robotics RL, vision-language
models, point clouds): the culprit the user holds is named beside the edit, and the fix is one
that Python accepts and the rehearsal proves. Through a real IPython shell, post-mortem and
``%%cuda_safe`` both. Later ones: a model whose every weight is on the stray device (a
hypernetwork left on the cpu) moves whole; a tensor the failing line makes on the default device
is no data for the op's scalar to follow; a library object a moved model still holds on the cpu
is converted where the user's method reads it.
"""

from __future__ import annotations

import re

import pytest
import torch

from devicelens.guard import DeviceMismatchError
from tests._traces import VERIFIED

pytestmark = pytest.mark.filterwarnings("ignore:PyTorch was compiled without cuDNN")
ANSI = re.compile(r"\x1b\[[0-9;]*m")

NOISE = """
import torch
from torch import nn

class GaussianNoise:
    def __init__(self, std, device="cuda:0"):
        self.device = torch.device(device)
        self.distribution = torch.distributions.Normal(
            torch.tensor(0.0, device=self.device), torch.tensor(std, device=self.device),
            validate_args=False)
    def sample(self, size):
        return self.distribution.sample(size)

class Agent:
    def __init__(self, policy, noise):
        self.policy, self.noise = policy, noise
    def act(self, states):
        actions = self.policy(states)
        noises = self.noise.sample(actions.shape)
        return actions + noises
"""

TOWER = """
import torch
from torch import nn

class Inner(nn.Module):
    def __init__(self):
        super().__init__()
        self.tower = nn.Linear(4, 6)
        self.projector = nn.Linear(6, 3)

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = Inner()
    def get_model(self):
        return self.model
    def encode(self, images):
        features = self.get_model().tower(images)
        return self.get_model().projector(features)
"""


def run(ip, cell: str, fake=None):
    if fake is None:
        return ip.run_cell(cell, store_history=False).error_in_exec
    with fake:
        return ip.run_cell(cell, store_history=False).error_in_exec


def diagnosis(capsys) -> str:
    out = ANSI.sub("", capsys.readouterr().out)
    assert "devicelens: " in out, out[-2000:]
    return out[out.index("devicelens: "):]


def test_the_object_whose_method_made_the_stray_is_named(ip, capsys, fake_cuda):
    """skrl's exploration noise built on cuda:0 beside an agent on cuda:1: the noise object
    (it holds only cuda:0 tensors and a cuda:0 device) is named beside the edit."""
    assert run(ip, NOISE) is None
    with fake_cuda:
        ip.user_ns.update(agent=ip.user_ns["Agent"](
            fake_cuda.to(torch.nn.Linear(4, 2), "cuda:1"), ip.user_ns["GaussianNoise"](0.1)),
            states=fake_cuda.randn(3, 4, device="cuda:1"))
    capsys.readouterr()
    err = run(ip, "with torch.no_grad():\n    out = agent.act(states)\n", fake_cuda)
    assert err is not None
    text = diagnosis(capsys)
    assert "culprit: agent.noise (GaussianNoise, makes `noises` in Agent.act); expected cuda:1" \
        in text
    assert "note: `noises` is made by agent.noise, which is on cuda:0" in text
    assert "+ noises = self.noise.sample(actions.shape).to(" in text and VERIFIED in text


def test_the_module_a_getter_returns_is_followed_to_the_maker(ip, capsys, fake_cuda):
    """LLaVA's ``self.get_model().vision_tower(images)``: a method that only returns an
    attribute is read (never called), so the tower left on cuda:0 is named."""
    assert run(ip, TOWER) is None
    with fake_cuda:
        m = ip.user_ns["Model"]()
        fake_cuda.to(m, "cuda:1")
        fake_cuda.to(m.model.tower, "cuda:0")
        ip.user_ns.update(model=m, images=fake_cuda.randn(2, 4, device="cuda:0"))
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    f = model.encode(images)\n", fake_cuda)
    text = diagnosis(capsys)
    assert "culprit: model.model.tower (Linear, makes `features` in Model.encode); " \
           "expected cuda:1" in text


def test_an_object_holding_tensors_on_both_sides_is_not_named(ip, capsys, fake_cuda):
    """Nothing says the noise object made the stray when it holds a tensor on the expected
    device too: only the edit and its handle are named."""
    assert run(ip, NOISE) is None
    with fake_cuda:
        noise = ip.user_ns["GaussianNoise"](0.1)
        noise.scale = fake_cuda.randn(2, device="cuda:1")
        ip.user_ns.update(agent=ip.user_ns["Agent"](
            fake_cuda.to(torch.nn.Linear(4, 2), "cuda:1"), noise),
            states=fake_cuda.randn(3, 4, device="cuda:1"))
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    out = agent.act(states)\n", fake_cuda)
    text = diagnosis(capsys)
    assert "culprit: agent.noise" not in text and "culprit: agent (its Agent.act" in text


def test_a_temporary_converted_from_the_users_array_names_the_array(ip, capsys):
    """``policy(torch.as_tensor(obs))`` with MuJoCo's float64 ``obs``: the array is the
    culprit, and its own cast the fix."""
    import numpy as np

    ip.user_ns.update(policy=torch.nn.Sequential(torch.nn.Linear(5, 8), torch.nn.Tanh()),
                      obs=np.zeros(5), torch=torch, np=np)
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    action = policy(torch.as_tensor(obs)).numpy()\n"
                   "obs = obs + action.sum()\n")
    text = diagnosis(capsys)
    assert "culprit: obs (NumPy float64[5]), `input` in Linear.forward; expected float32" in text
    assert "fix:\n      obs = obs.astype('float32')\n" + VERIFIED in text
    assert ip.user_ns["obs"].dtype == np.float64  # NB: rehearsed on a copy, never applied


def test_a_named_tuple_field_is_replaced_not_assigned(ip, capsys):
    """cleanrl's replay samples are a NamedTuple: ``data.obs = ...`` raises, so the tuple is
    made again with the field replaced; the rehearsal completes it with the next field."""
    assert run(ip, "import torch\nfrom typing import NamedTuple\n"
                   "class Samples(NamedTuple):\n    obs: torch.Tensor\n"
                   "    next_obs: torch.Tensor\n") is None
    ip.user_ns.update(actor=torch.nn.Linear(3, 1), data=ip.user_ns["Samples"](
        torch.zeros(4, 3, dtype=torch.float64), torch.zeros(4, 3, dtype=torch.float64)))
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    a = actor(data.next_obs)\n    b = actor(data.obs)\n")
    text = diagnosis(capsys)
    assert ("fix:\n      data = data._replace(next_obs=data.next_obs.float())\n"
            "      data = data._replace(obs=data.obs.float())\n" + VERIFIED) in text


def test_a_zero_dim_cpu_tensor_written_into_is_a_culprit(ip, capsys, fake_cuda):
    """``total = torch.tensor(0.)`` then ``total += loss`` on the GPU (LaneNet, LCCNet): a 0-dim
    cpu tensor mixes with any device as an input only. The simulated GPU's own wording is read
    as the real one; the guard stops the write before it runs."""
    assert run(ip, "import torch\ndef val(target, pred):\n    total = torch.tensor(0.0)\n"
                   "    total += (target - pred).norm()\n    return total\n") is None
    with fake_cuda:
        ip.user_ns.update(t=fake_cuda.randn(3, device="cuda:0"),
                          p=fake_cuda.randn(3, device="cuda:0"))
    capsys.readouterr()
    err = run(ip, "with torch.no_grad():\n    err = val(t, p)\n", fake_cuda)
    assert "FakeTensor is wrapped to wrong device" in str(err)
    text = diagnosis(capsys)
    assert text.startswith("devicelens: tensors on different devices: cpu, cuda:0")
    assert "culprit: `total` in val (float32[] on cpu); expected cuda:0" in text
    assert "+ total = torch.tensor(0.0).to(target.device)" in text and VERIFIED in text
    with fake_cuda:
        err = run(ip, "%%cuda_safe --no-preflight\nwith torch.no_grad():\n    err = val(t, p)\n")
    assert isinstance(err, DeviceMismatchError)
    assert err.report.op == "Tensor.add_" and "`total` in val" in err.culprits[-1]


def test_a_zero_dim_cpu_input_still_mixes_with_the_gpu(ip, fake_cuda):
    """The other way round stays allowed: a 0-dim cpu tensor read by an op on the GPU."""
    with fake_cuda:
        ip.user_ns.update(x=fake_cuda.randn(3, device="cuda:0"), s=torch.tensor(2.0),
                          torch=torch)
        assert run(ip, "%%cuda_safe --no-preflight\nx += s\ny = x * s\n") is None


def test_a_half_loss_target_on_a_simulated_gpu_is_the_target(ip, capsys):
    """CLIP fine-tuning's ``ground_truth`` made ``.half()``: on meta, cross_entropy is
    decomposed into ``gather``, whose message speaks of an index; the loss's target is named,
    as a GPU's own "expected scalar type Long" would."""
    from tests.conftest import to_in_place

    ip.user_ns.update(loss_img=torch.nn.CrossEntropyLoss(), torch=torch,
                      logits=to_in_place(torch.nn.Linear(2, 4), "meta")(
                          torch.zeros(4, 2, device="meta")),
                      ground_truth=torch.arange(4).half().to("meta"))
    capsys.readouterr()
    assert run(ip, "loss = loss_img(logits, ground_truth)\n")
    text = diagnosis(capsys)
    assert text.startswith("devicelens: the loss target must hold int64 class indices")
    assert "culprit: ground_truth (float16[4] on meta), `target` in cross_entropy; " \
           "expected int64" in text
    assert "ground_truth = ground_truth.long()" in text


def test_the_owner_of_an_edit_alone_is_named_beside_held_culprits() -> None:
    """PaliGemma split over two GPUs: the inputs are right for the first half and wrong for
    the second, so the fix edits the model's code and leaves them where they are; whose code
    that is gets named too, after them. With a namespace fix for them, it is not."""
    from dataclasses import replace

    from devicelens.guard.diagnosis._blame import Named, Namer, Operand
    from devicelens.guard.diagnosis._edits import Edit
    from devicelens.guard.diagnosis._handle import with_handle
    from devicelens.guard.diagnosis._mismatch import MismatchReport

    ns = {"model": torch.nn.Linear(2, 2), "inputs": {"mask": torch.zeros(2)}}
    held = Operand("", Named("inputs['mask']", "inputs['mask']", "tensor", "inputs"), "cuda:0",
                   "float32", (2,))
    edit = Edit("cell In[1] line 9 (in M.forward)", ("return h + mask",),
                ("return h + mask.to(h.device)",), "<cell>", "M.forward", "model")
    report = MismatchReport("device", "", "cuda:1", (held,), (held,), edits=(edit,))
    out = with_handle(report, [], Namer(ns), lambda f: False)
    assert [c.named.name for c in out.culprits] == ["inputs['mask']", "model"]
    assert out.culprits[1].what == "its M.forward has the line to edit"
    moved = replace(report, fixes=("inputs['mask'] = inputs['mask'].to(\"cuda:1\")",))
    assert [c.named.name for c in with_handle(moved, [], Namer(ns), lambda f: False).culprits] \
        == ["inputs['mask']"]


def test_an_out_tensor_on_another_device_is_the_culprit(ip, capsys):
    """``torch.gather(..., out=buf)`` with ``buf`` left on the cpu (Isaac Lab's observation
    buffers): the message names the device the op needs, and ``buf`` goes there."""
    ip.user_ns.update(torch=torch, x=torch.randn(2, 5, device="meta"),
                      idx=torch.zeros(2, 3, dtype=torch.long, device="meta"),
                      buf=torch.empty(2, 3))
    capsys.readouterr()
    err = run(ip, "torch.gather(x, 1, idx, out=buf)\n")
    assert "Expected out tensor to have device meta, but got cpu instead" in str(err)
    text = diagnosis(capsys)
    assert "culprit: buf (float32[2, 3] on cpu)" in text and "expected meta" in text
    assert "fix:\n      buf = buf.to(x.device)\n" + VERIFIED in text


def test_a_model_a_plain_object_holds_deep_down_is_named(ip, capsys):
    """trafficgen's ``tg.init_model``, loaded on the cpu while the batch went to the GPU (here
    meta): the layer is named through the plain object, four steps down, and the model it
    belongs to moves."""
    assert run(ip, "import torch\nfrom torch import nn\nclass Gen:\n"
                   "    def __init__(self):\n"
                   "        self.init_model = nn.Sequential(nn.Sequential(nn.Sequential(\n"
                   "            nn.Linear(4, 4))))\n") is None
    ip.user_ns.update(tg=ip.user_ns["Gen"](), batch=torch.randn(2, 4, device="meta"))
    capsys.readouterr()
    assert run(ip, "out = tg.init_model(batch)\n")
    text = diagnosis(capsys)
    assert "culprit: tg.init_model[0][0][0].weight (float32[4, 4] on cpu)" in text
    assert "inside: tg.init_model[0][0][0] (Linear)" in text
    assert 'fix:\n      tg.init_model.to("meta")\n' + VERIFIED in text


def test_a_dict_a_method_unpacks_into_the_model_is_moved_item_by_item(ip, capsys, fake_cuda):
    """LMM-Engines' adapter hands a cpu dict to ``self.model.generate(**inputs)`` on the GPU.
    Its items are followed through the unpacking to where the adapter makes them, and made on
    the device of the model it holds, in one edit (where they come from code that has nothing
    to take a device from, the dict is moved at the call: tests/test_guard_reads.py)."""
    assert run(ip, "import torch\nfrom torch import nn\nclass M(nn.Module):\n"
                   "    def __init__(self):\n        super().__init__()\n"
                   "        self.emb = nn.Embedding(10, 4)\n"
                   "    def generate(self, ids, mask):\n        return self.emb(ids) * mask\n"
                   "class Adapter:\n    def __init__(self, model):\n        self.model = model\n"
                   "    def generate(self, n):\n"
                   "        inputs = {'ids': torch.zeros(1, n, dtype=torch.long),\n"
                   "                  'mask': torch.ones(1, n, 1)}\n"
                   "        return self.model.generate(**inputs)\n") is None
    with fake_cuda:
        ip.user_ns["adapter"] = ip.user_ns["Adapter"](fake_cuda.to(ip.user_ns["M"](), "cuda:0"))
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    out = adapter.generate(3)\n", fake_cuda)
    text = diagnosis(capsys)
    assert "culprit: adapter (its Adapter.generate has the line to edit); expected cuda:0" in text
    assert "+ inputs = {'ids': torch.zeros(1, n, dtype=torch.long, device=next(self.model" \
           ".parameters()).device),\n      +           'mask': torch.ones(1, n, 1, device=next(" \
           "self.model.parameters()).device)}" in text
    assert text.count("edit:") == 1 and VERIFIED in text


def test_a_hidden_state_tuple_remade_by_a_method_is_mended_where_it_is_made(ip, capsys,
                                                                            fake_cuda):
    """A BiLSTM-CRF's ``self.hidden = self.init_hidden()`` at every call, a tuple of cpu
    tensors: moving the tuple fixes nothing, ``init_hidden`` is what to change."""
    assert run(ip, "import torch\nfrom torch import nn\nclass Tagger(nn.Module):\n"
                   "    def __init__(self):\n        super().__init__()\n"
                   "        self.lstm = nn.LSTM(4, 3, batch_first=True)\n"
                   "        self.hidden = self.init_hidden()\n"
                   "    def init_hidden(self):\n"
                   "        return (torch.randn(1, 2, 3), torch.randn(1, 2, 3))\n"
                   "    def features(self, x):\n        self.hidden = self.init_hidden()\n"
                   "        out, self.hidden = self.lstm(x, self.hidden)\n        return out\n"
                   ) is None
    with fake_cuda:
        ip.user_ns.update(model=fake_cuda.to(ip.user_ns["Tagger"](), "cuda:0"),
                          x=fake_cuda.randn(2, 5, 4, device="cuda:0"))
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    f = model.features(x)\n", fake_cuda)
    text = diagnosis(capsys)
    assert "culprit: model (its Tagger.init_hidden has the line to edit); expected cuda:0" in text
    assert "+ return (torch.randn(1, 2, 3, device=next(self.parameters()).device), " \
           "torch.randn(1, 2, 3, device=next(self.parameters()).device))" in text
    assert VERIFIED in text


def test_an_integer_class_weight_is_the_culprit_not_the_class_indices(ip, capsys):
    """``CrossEntropyLoss(weight=torch.LongTensor(...))``: "expected scalar type Float but
    found Long" quotes the weight's dtype; int64 class indices are what the loss wants."""
    ip.user_ns.update(torch=torch, loss=torch.nn.CrossEntropyLoss(weight=torch.tensor([1, 2, 3])),
                      logits=torch.randn(4, 3), target=torch.tensor([0, 1, 2, 1]))
    capsys.readouterr()
    assert run(ip, "out = loss(logits, target)\n")
    text = diagnosis(capsys)
    assert "culprit: loss.weight (int64[3] on cpu), `weight` in cross_entropy; expected float32" \
        in text and "culprit: target" not in text
    assert "fix:\n      loss.weight = loss.weight.float()\n" + VERIFIED in text


def test_tensors_trained_by_hand_are_cast_in_place_and_named_as_the_code_reads_them(ip, capsys):
    """Dive into DL's MLP from scratch: ``W1`` made from a float64 NumPy array and stepped by
    hand through ``params``. ``W1`` is what the failing function reads (not ``params[0]``), and
    ``.data`` keeps it the leaf the update loop holds: rebinding it would step the old one."""
    import numpy as np

    assert run(ip, "import torch\nimport numpy as np\n"
                   "W1 = torch.tensor(np.random.normal(0, 0.01, (4, 3)), requires_grad=True)\n"
                   "b1 = torch.zeros(3, requires_grad=True)\nparams = [W1, b1]\n"
                   "def net(X):\n    return torch.matmul(X, W1) + b1\n"
                   "def train(net, params, lr):\n    X = torch.randn(2, 4)\n"
                   "    net(X).sum().backward()\n    for p in params:\n"
                   "        p.data -= lr * p.grad\n") is None
    capsys.readouterr()
    assert run(ip, "train(net, params, 0.1)\n")
    text = diagnosis(capsys)
    assert "culprit: W1 (float64[4, 3] on cpu); expected float32" in text
    assert "fix:\n      W1.data = W1.data.float()\n" + VERIFIED in text
    assert ip.user_ns["W1"].dtype == torch.float64 and np is not None




def test_an_attribute_named_like_a_global_is_no_read_of_that_global(ip, capsys, fake_cuda):
    """CLAM's ``self.instance_loss_fn(...)`` with a global ``instance_loss_fn`` holding the same
    object: the cell reaches it through ``model``, so it is named there; the method's attribute
    of the same name reads no global."""
    assert run(ip, "import torch\nfrom torch import nn\nclass SVM(nn.Module):\n"
                   "    def __init__(self):\n        super().__init__()\n"
                   "        self.labels = torch.arange(2)\n"
                   "    def forward(self, y):\n"
                   "        return torch.ne(y.unsqueeze(1), self.labels)\n"
                   "class Clam(nn.Module):\n    def __init__(self, loss_fn):\n"
                   "        super().__init__()\n        self.fc = nn.Linear(2, 2)\n"
                   "        self.loss_fn = loss_fn\n"
                   "    def forward(self, x, y):\n        return self.fc(x), self.loss_fn(y)\n")\
        is None
    with fake_cuda:
        loss_fn = ip.user_ns["SVM"]()
        ip.user_ns.update(loss_fn=loss_fn, model=fake_cuda.to(ip.user_ns["Clam"](loss_fn),
                                                               "cuda:0"),
                          x=fake_cuda.randn(3, 2, device="cuda:0"),
                          y=torch.zeros(3, dtype=torch.long, device="cuda:0"))
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    out = model(x, y)\n", fake_cuda)
    text = diagnosis(capsys)
    assert "culprit: model.loss_fn.labels (int64[2] on cpu)" in text


SAMPLER = """
import torch
from torch import nn

def batch(coords, device=None):
    return coords.to(device) if device is not None else coords

class Sampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 4)
    def sample(self, coords, device=None):
        x = batch(coords, device=device)
        mask = torch.ones(1, 3)
        return self.proj(x).sum(-1) * mask
"""


def test_a_maker_is_fixed_with_the_device_its_function_was_handed(ip, capsys, fake_cuda):
    """ESM-IF's ``model.sample(coords, device=device)``: the method moves the coordinates
    itself and makes its token buffer without a device. The maker takes the ``device`` the
    caller handed over, not the device of a tensor argument, which would need that argument
    moved first (the cell's ``coords`` is on the cpu, as the method expects)."""
    assert run(ip, SAMPLER) is None
    with fake_cuda:
        ip.user_ns.update(model=fake_cuda.to(ip.user_ns["Sampler"](), "cuda:0"),
                          coords=torch.randn(1, 3, 3), device=torch.device("cuda:0"))
    capsys.readouterr()
    err = run(ip, "with torch.no_grad():\n    out = model.sample(coords, device=device)\n",
              fake_cuda)
    assert err is not None
    text = diagnosis(capsys)
    assert "culprit: `mask` in Sampler.sample (float32[1, 3] on cpu)" in text
    assert "+ mask = torch.ones(1, 3, device=device)" in text and VERIFIED in text
    assert "coords" not in text.split("culprit:", 1)[1].split("\n")[0]
    assert "coords = coords.to(" not in text


def test_a_module_holding_no_tensor_runs_where_the_cells_input_is(ip, capsys, fake_cuda):
    """A traced forward written out (PyTorch issue 43767): ``torch.randn_like(x,
    device=torch.device("cuda:0"))`` was recorded with the trace's cuda input, and the module,
    which holds no tensor, is then called with a cpu input. The cell's input decides where it
    runs; the device the module's code spells out is the stray, edited to follow ``x``."""
    assert run(ip, "import torch\nclass Noisy(torch.nn.Module):\n"
                   "    def forward(self, x):\n"
                   "        return x + torch.randn_like(x, device=torch.device('cuda:0'))\n"
                   "module = Noisy()\n") is None
    ip.user_ns["cpu_input"] = torch.zeros(3)
    capsys.readouterr()
    err = run(ip, "with torch.no_grad():\n    out = module(cpu_input)\n", fake_cuda)
    assert err is not None
    text = diagnosis(capsys)
    assert "culprit: module (made on cuda:0), a temporary; expected cpu" in text
    assert "+ return x + torch.randn_like(x, device=x.device)" in text and VERIFIED in text
    assert "cpu_input = cpu_input.to(" not in text
    # NB: a module that keeps a tensor as a plain attribute (OpenMM's ``self.r0``, made on the
    # device it was given) does say where it runs: the cpu input is the stray
    assert run(ip, "class Anchored(torch.nn.Module):\n    def __init__(self, r0):\n"
                   "        super().__init__()\n        self.r0 = r0\n"
                   "    def forward(self, x):\n        return x - self.r0\n") is None
    with fake_cuda:
        ip.user_ns["anchored"] = ip.user_ns["Anchored"](fake_cuda.randn(3, device="cuda:0"))
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    out = anchored(cpu_input)\n", fake_cuda)
    text = diagnosis(capsys)
    assert "culprit: cpu_input (float32[3] on cpu); expected cuda:0" in text


ROTARY = """
import torch
from torch import nn

def rotary(n, dim=4):
    angles = torch.outer(torch.arange(n).float(), torch.ones(dim))
    return angles.cos(), angles.sin()

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
    def forward(self, x, freqs):
        cos, sin = freqs
        q = self.proj(x)
        return q * cos + q * sin

def sample(model, x, device):
    cos_t, sin_t = rotary(x.shape[0])
    return model(x, (cos_t, sin_t))
"""


def test_a_tuple_a_deviceless_helper_returns_is_moved_where_it_is_unpacked(ip, capsys,
                                                                          fake_cuda):
    """HunyuanLoom's rotary embeddings: a helper with nothing to take a device from returns
    ``cos, sin`` on the cpu, unpacked in the sampling function and handed to the model on the
    GPU. Both elements are moved on one line right after the unpacking (one edit), where a
    move of one operand at a time at the failing line never got the cell to run."""
    assert run(ip, ROTARY) is None
    with fake_cuda:
        ip.user_ns.update(model=fake_cuda.to(ip.user_ns["Block"](), "cuda:0"),
                          x=fake_cuda.randn(3, 4, device="cuda:0"), device="cuda:0")
    capsys.readouterr()
    err = run(ip, "with torch.no_grad():\n    out = sample(model, x, device)\n", fake_cuda)
    assert err is not None
    text = diagnosis(capsys)
    assert "culprit: `cos_t` in sample (float32[3, 4] on cpu)" in text
    assert "+ cos_t, sin_t = rotary(x.shape[0])\n      + cos_t, sin_t = cos_t.to(device), " \
           "sin_t.to(device)" in text
    assert VERIFIED in text and text.count("edit:") == 1


CODEBOOK = """
import torch
from torch import nn

class Codebook(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("embed", torch.randn(5, 4))
    def forward(self, x):
        x = x.float()
        return x @ self.embed.t()

class Wrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.codebook = Codebook()
    def forward(self, h):
        return self.codebook(self.proj(h))
"""


def test_a_cast_in_a_module_of_buffers_only_follows_its_own_buffer(ip, capsys):
    """voicebox's vector quantizer: ``x.float()`` against codebooks halved with the model. The
    quantizer holds buffers only, so no parameter of its own gives the dtype; its codebook does."""
    assert run(ip, CODEBOOK) is None
    ip.user_ns.update(model=ip.user_ns["Wrapper"]().to(torch.bfloat16),
                      x=torch.randn(2, 3, 4, dtype=torch.bfloat16))
    capsys.readouterr()
    err = run(ip, "with torch.no_grad():\n    out = model(x)\n")
    assert err is not None
    text = diagnosis(capsys)
    assert "culprit: model.codebook (its Codebook.forward has the line to edit); expected " \
           "bfloat16" in text
    assert "- x = x.float()\n      + x = x.to(self.embed.dtype)" in text and VERIFIED in text


GROUP_STATS = """
import torch

def group_sums(scores, gidx, n, device=None):
    sums = torch.zeros(n, dtype=scores.dtype, device=device)
    sums.index_add_(0, gidx, scores)
    return sums

def advantage(scores, gidx):
    return scores - group_sums(scores, gidx, 2).index_select(0, gidx)
"""


def test_a_device_parameter_left_to_none_takes_the_datas_device(ip, capsys, fake_cuda):
    """verl's ``group_mean_std(..., device=None)``: ``torch.zeros(n, device=device)`` lands on
    the default device when the caller passes none. The factory takes the data's device where
    the caller made no choice, and the caller's where it did: ``device=device or ...``."""
    assert run(ip, GROUP_STATS) is None
    with fake_cuda:
        ip.user_ns.update(scores=fake_cuda.randn(4, device="cuda:0"),
                          gidx=fake_cuda.to(torch.tensor([0, 1, 0, 1]), "cuda:0"))
    capsys.readouterr()
    err = run(ip, "with torch.no_grad():\n    adv = advantage(scores, gidx)\n", fake_cuda)
    assert err is not None
    text = diagnosis(capsys)
    assert "culprit: `sums` in group_sums (float32[2] on cpu); expected cuda:0" in text
    assert "+ sums = torch.zeros(n, dtype=scores.dtype, device=device or scores.device)" in text
    assert VERIFIED in text


HYPERNET = """
import torch
from torch import nn
import torch.nn.functional as F

class Main(nn.Module):  # no weights of its own: a hypernetwork gives them
    def forward(self, x, weights):
        h = x
        for i in range(len(weights) // 2):
            h = F.linear(h, weights[2 * i], weights[2 * i + 1])
        return h

class Hyper(nn.Module):
    def __init__(self, shapes):
        super().__init__()
        self.shapes = shapes
        self.embs = nn.Parameter(torch.randn(8))
        self.heads = nn.ModuleList([nn.Linear(8, int(torch.Size(s).numel())) for s in shapes])
    def forward(self, cond_id):
        h = self.embs * (cond_id + 1)
        return [head(h).view(*s) for head, s in zip(self.heads, self.shapes)]

device = "cuda:0"
"""

CONTRAST = """
import torch

class Contrast:
    def __init__(self, nk):
        self.nk = nk
    def __call__(self, x):
        vmin, vmax = x.min(), x.max()
        mu = torch.rand(self.nk) * (vmax - vmin) + vmin
        return (x.reshape(-1, 1) - mu).abs().mean()
"""


def _hypernet(ip, fake_cuda) -> None:
    assert run(ip, HYPERNET) is None
    ns = ip.user_ns
    with fake_cuda:
        ns.update(mnet=fake_cuda.to(ns["Main"](), "cuda:0"),
                  hnet=ns["Hyper"]([[6, 4], [6], [3, 6], [3]]),
                  x=fake_cuda.randn(5, 4, device="cuda:0"))


CELL = "with torch.no_grad():\n    W = hnet(0)\n    y = mnet(x, W)\n"


def test_the_hypernetwork_that_made_the_weights_is_moved(ip, capsys, fake_cuda):
    """hypnettorch's tutorial run with the hypernetwork left on the cpu: the weights the cell
    makes with it (``W``) are no fix, the cell makes them again; ``hnet``, every weight of it on
    the cpu, made them, and it moves to the user's configured device."""
    _hypernet(ip, fake_cuda)
    capsys.readouterr()
    assert run(ip, CELL, fake_cuda) is not None
    text = diagnosis(capsys)
    assert "culprit: hnet.embs (float32[8] on cpu); expected cuda:0" in text
    assert 'fix:\n      hnet.to("cuda:0")\n' in text
    assert "W[0] = " not in text
    assert VERIFIED in text


def test_cuda_safe_moves_the_hypernetwork_too(ip, fake_cuda):
    _hypernet(ip, fake_cuda)
    err = run(ip, "%%cuda_safe --no-preflight\n" + CELL, fake_cuda)
    assert isinstance(err, DeviceMismatchError), repr(err)
    assert "culprit: hnet.embs (float32[8] on cpu), argument 2; expected cuda:0" in str(err)
    assert 'hnet.to("cuda:0")' in str(err)


def test_cuda_safe_does_not_follow_a_tensor_the_line_makes_on_the_default_device(ip, fake_cuda):
    """cornucopia's random contrast: ``torch.rand(self.nk)`` (cpu, 16 numbers) times a 0-dim
    statistic of the GPU image. The op's arguments are both temporaries; the bigger one is no
    data a scalar must follow when the line itself makes it on the default device: the image
    stays, the factory gets its device."""
    assert run(ip, CONTRAST) is None
    with fake_cuda:
        ip.user_ns.update(xform=ip.user_ns["Contrast"](16),
                          img=fake_cuda.randn(2, 8, device="cuda:0"))
    err = run(ip, "%%cuda_safe --no-preflight\nwith torch.no_grad():\n    v = xform(img)\n",
              fake_cuda)
    assert isinstance(err, DeviceMismatchError), repr(err)
    text = str(err)
    assert "expected cuda:0" in text and "expected cpu" not in text, text
    assert "+ mu = torch.rand(self.nk, device=x.device) * (vmax - vmin) + vmin" in text
    assert 'img = img.to("cpu")' not in text


TRUNK = """
class Trunked(nn.Module):  # hypnettorch's HMLP: a torch trunk, then one head per weight
    def __init__(self, shapes):
        super().__init__()
        self.shapes = shapes
        self.trunk = nn.Sequential(nn.Linear(8, 8), nn.ReLU())
        self.heads = nn.ModuleList([nn.Linear(8, int(torch.Size(s).numel())) for s in shapes])
    def forward(self, cond):
        h = self.trunk(cond)
        return [head(h).view(*s) for head, s in zip(self.heads, self.shapes)]
"""


def test_a_model_whose_every_weight_is_on_the_stray_device_is_moved_whole(ip, capsys,
                                                                         fake_cuda):
    """The trail reaches ``self.trunk(cond)``, a torch module of ``hnet``'s; every weight of
    ``hnet`` is on the cpu, so ``hnet`` moves, not its trunk alone (its heads would stay)."""
    import torch

    _hypernet(ip, fake_cuda)
    assert run(ip, TRUNK) is None
    ip.user_ns.update(hnet=ip.user_ns["Trunked"]([[6, 4], [6], [3, 6], [3]]),
                      cond=torch.randn(8))
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    W = hnet(cond)\n    y = mnet(x, W)\n",
               fake_cuda) is not None
    text = diagnosis(capsys)
    assert "culprit: hnet (Trunked, makes W[0]); expected cuda:0" in text
    assert "note: hnet makes it with its own weights, every one on cpu" in text
    # NB: the rehearsal finds what the moved model then meets: its cpu input
    assert 'fix:\n      hnet.to("cuda:0")\n      cond = cond.to("cuda:0")\n' in text
    assert "hnet.trunk.to(" not in text
    assert VERIFIED in text


PRIOR = """
import torch
from torch import nn
from torch.distributions import HalfCauchy

class Prior(nn.Module):  # GPyTorch's HalfCauchyPrior: a distribution built from a buffer
    def __init__(self, scale):
        super().__init__()
        self.register_buffer("_scale", torch.as_tensor(scale))
        self._dist = HalfCauchy(self._scale, validate_args=False)
    def rsample(self, shape=torch.Size()):
        return self._dist.rsample(shape)
"""


def test_a_distribution_the_moved_object_still_holds_on_the_cpu_is_converted_where_read(
        ip, capsys, fake_cuda):
    """``prior.to("cuda:0")`` moved its buffer, not the distribution built from it: its
    samples are made on the cpu. The prior's own method converts them to its buffer's device
    (the edit GPyTorch's issue asks for), not the cell's line that takes them."""
    import torch

    assert run(ip, PRIOR) is None
    with fake_cuda:
        ip.user_ns.update(prior=fake_cuda.to(ip.user_ns["Prior"](torch.ones(2)), "cuda:0"),
                          raw=fake_cuda.randn(2, device="cuda:0"))
    capsys.readouterr()
    assert run(ip, "samples = prior.rsample()\nlengthscale = raw.exp() + samples\n",
               fake_cuda) is not None
    text = diagnosis(capsys)
    assert "culprit: prior (its Prior.rsample has the line to edit); expected cuda:0" in text
    assert "+ return self._dist.rsample(shape).to(self._scale.device)" in text
    assert "samples = samples.to(" not in text and '.to("cuda:0")' not in text
    assert VERIFIED in text


POINTS = """
import torch

class Vector2:
    def __init__(self, data):
        self._data = data

    @property
    def data(self):
        return self._data

    @property
    def x(self):
        return self._data[..., 0]

class Projection:
    def unproject(self, points, depth):
        depth = torch.Tensor([depth])
        return points.x * depth

proj = Projection()
points = Vector2(torch.tensor([[1.0, 2.0]], device="meta"))
"""


def test_a_maker_takes_the_device_from_an_argument_object_by_its_public_name(ip, capsys):
    """kornia's ``Z1Projection.unproject(points, depth)``: ``points`` is no tensor but holds one
    as ``self._data``, which its class exposes as the property ``data``. The maker's device is
    read as the class spells it (``points.data.device``), found from the getter's code, which
    never runs."""
    assert run(ip, POINTS) is None
    capsys.readouterr()
    assert run(ip, "out = proj.unproject(points, 3)\n") is not None
    text = diagnosis(capsys)
    assert "culprit: proj (its Projection.unproject has the line to edit); expected meta" in text
    assert "+ depth = torch.Tensor([depth]).to(points.data.device)" in text, text
    assert VERIFIED in text


FRAMES = """
import torch
from torch import nn

class Frame:
    def __init__(self, rotations, translations):
        self.rotations = rotations
        self.translations = translations

    @staticmethod
    def compose(a, b):
        return Frame(a.rotations @ b.rotations, a.translations + b.translations)

class Structure(nn.Module):
    def __init__(self):
        super().__init__()
        self.update = nn.Linear(4, 3)

    def step(self, frames, single):
        t = self.update(single)
        return Frame.compose(frames, Frame(t.unsqueeze(-1) * t.unsqueeze(-2), t))

    def forward(self, single):
        frames = Frame(
            rotations=torch.eye(3).repeat(single.shape[0], 1, 1),
            translations=torch.zeros(single.shape[0], 3),
        )
        return self.step(frames, single).translations

model = Structure().to("meta")
single = torch.randn(2, 4, device="meta")
"""


def test_an_attribute_a_user_class_keeps_from_its_argument_is_made_where_it_was_passed(
        ip, capsys):
    """nanofold's ``StructureModule``: the identity frames are ``Frame(rotations=torch.eye(3),
    ...)``, and ``Frame.__init__`` keeps each argument as its attribute. The stray is
    ``frames.rotations``, which no namespace path reaches: it is followed to the argument, and
    the factory gets the device (before, the fix was a comment)."""
    assert run(ip, FRAMES) is None
    capsys.readouterr()
    assert run(ip, "out = model(single)\n") is not None
    text = diagnosis(capsys)
    assert "culprit: model (its Structure.forward has the line to edit); expected meta" in text
    assert "culprit: `frames.rotations` in Structure.forward (float32[2, 3, 3] on cpu)" in text
    assert "+ rotations=torch.eye(3, device=single.device).repeat(single.shape[0], 1, 1)," \
        in text, text
    assert "+ translations=torch.zeros(single.shape[0], 3, device=single.device)," in text
    assert VERIFIED in text


KL_PRIOR = """
import torch
from torch import nn
from torch.distributions import MultivariateNormal, kl_divergence

class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 3)
        # NB: a batch of two, as the GP-VAE's: the first op meets temporaries of shape [2]
        self.prior = MultivariateNormal(torch.zeros(2, 3), scale_tril=torch.eye(3).repeat(2, 1, 1),
                                        validate_args=False)

    def forward(self, x):
        tril = torch.eye(3, device=x.device).repeat(2, 1, 1)
        q = MultivariateNormal(self.enc(x), scale_tril=tril, validate_args=False)
        return kl_divergence(q, self.prior)

model = VAE().to("meta")
x = torch.randn(2, 4, device="meta")
"""


def test_what_a_library_function_s_argument_holds_is_read_as_the_op_s_operands(ip, capsys):
    """PyPOTS's GP-VAE: the prior, a ``MultivariateNormal`` made in ``__init__``, stays on the
    cpu when the model moves (``.to()`` moves no distribution), and ``kl_divergence(q, prior)``
    fails inside torch on temporaries made of ``q.loc`` and ``q._unbroadcasted_scale_tril``.
    The tensors the failing line reads of the library function's arguments are its operands,
    as those of a method's ``self`` are: the prior's are named by the path the user holds
    (before: the mismatch on temporaries had no culprit, so the fix stopped half-way)."""
    assert run(ip, KL_PRIOR) is None
    capsys.readouterr()
    assert run(ip, "kl = model(x)\n") is not None
    text = diagnosis(capsys)
    assert "culprit: model.prior._unbroadcasted_scale_tril (float32[2, 3, 3] on cpu)" in text, \
        text
    assert "expected meta" in text and VERIFIED in text, text
    # NB: the guard sees the op's temporaries; it names what they were made of the same way
    err = run(ip, "%%cuda_safe --no-preflight\nkl = model(x)\n")
    assert isinstance(err, DeviceMismatchError), repr(err)
    assert "culprit: model.prior." in str(err) and "argument 1 (" not in str(err), str(err)


PAIRS = """
import torch
from torch import nn

class VICRegL(nn.Module):
    def forward(self, global_view_features):
        loss = torch.tensor(0.0)
        for a, b in global_view_features:
            loss += (a - b).pow(2).mean()
        return loss

criterion = VICRegL()
"""


def test_an_accumulator_takes_the_device_of_the_first_pair_handed_over(ip, capsys, fake_cuda):
    """lightly's VICRegL: ``loss = torch.tensor(0.0)`` then ``loss += ...`` over a list of
    (features, grid) pairs, in a loss with no weight of its own: the device is the first pair's
    first tensor's (before: no anchor, so the fix was a comment)."""
    assert run(ip, PAIRS) is None
    with fake_cuda:
        ip.user_ns["feats"] = [(fake_cuda.randn(2, 4, device="cuda:0"),
                                fake_cuda.randn(2, 4, device="cuda:0"))]
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    l = criterion(feats)\n", fake_cuda) is not None
    text = diagnosis(capsys)
    assert "culprit: `loss` in VICRegL.forward (float32[] on cpu); expected cuda:0" in text, text
    assert "+ loss = torch.tensor(0.0).to(global_view_features[0][0].device)" in text, text
    assert VERIFIED in text, text


LOADER = """
import torch
from torch import nn

class PromptProcessor:
    @staticmethod
    def spawn_func(prompts):
        text_encoder = nn.Linear(4, 4).to("meta")
        tokens = torch.randn(len(prompts), 4)
        return text_encoder(tokens)
"""


def test_a_static_method_loading_its_own_model_is_named_by_its_class(ip, capsys):
    """threestudio's ``StableDiffusionPromptProcessor.spawn_func``: a static method loads the
    text encoder onto the GPU itself and feeds it tokens made on the cpu. The device is the
    local model's (before: the edit went into the encoder's own ``forward``), and the class the
    user holds is named, as an object whose method has the line would be."""
    assert run(ip, LOADER) is None
    capsys.readouterr()
    assert run(ip, "out = PromptProcessor.spawn_func(['a cat', 'a dog'])\n") is not None
    text = diagnosis(capsys)
    assert ("culprit: PromptProcessor (a class: its PromptProcessor.spawn_func has the line to "
            "edit)") in text, text
    assert ("+ tokens = torch.randn(len(prompts), 4, "
            "device=next(text_encoder.parameters()).device)") in text, text
    assert VERIFIED in text, text


GIVER = """
import torch
from torch import nn

def prepare_inputs(images, prompts, device=None):
    data = {"images": images.to(device), "labels": torch.tensor(prompts).view(-1, 2)}
    if device == "cuda":   # NB: misses every other spelling of the device
        data["labels"] = data["labels"].to(device)
    return data

model = nn.Linear(2, 2).to("meta")
device = "meta"
"""


def test_a_function_handed_the_device_that_gave_a_stray_is_named(ip, capsys):
    """VISTA's ``prepare_sam_val_input(..., device=device)`` gives its labels on the cpu (it
    moves them only where the device is spelt "cuda"): the function the cell handed the very
    device the culprit should be on is named after it; its code is the bug, and the printed
    move still makes the cell run. Handed no device, it is not named."""
    assert run(ip, GIVER) is None
    ip.user_ns.update(x=torch.randn(3, 2), y=[0.0, 1.0, 2.0, 3.0])
    capsys.readouterr()
    cell = "data = prepare_inputs(x, y, device=device)\nout = model(data['labels'])\n"
    assert run(ip, cell) is not None
    text = diagnosis(capsys)
    assert "culprit: data['labels'] (float32[2, 2] on cpu)" in text, text
    assert ("culprit: prepare_inputs (a function: the cell handed it device=meta, and what it "
            "gave (data) holds the stray: its code is what to change)") in text, text
    assert VERIFIED in text, text
    # NB: the guard reads the cell with its magic line blanked, as the post-mortem does
    err = run(ip, "%%cuda_safe --no-preflight\n" + cell)
    assert isinstance(err, DeviceMismatchError), repr(err)
    assert "culprit: prepare_inputs (a function: the cell handed it device=meta" in str(err)
    assert run(ip, "data = prepare_inputs(x.to('meta'), y)\nout = model(data['labels'])\n") \
        is not None
    text = diagnosis(capsys)
    assert "culprit: data['labels']" in text and "culprit: prepare_inputs" not in text, text


LEARNER = """
import torch
from torch import nn

class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
    def forward(self, x):
        return self.fc(x)

class Learner(nn.Module):
    def __init__(self, net, size):
        super().__init__()
        self.augment = nn.Identity()
        self.net = net
        self.head = Head()
        self.forward(torch.randn(2, size))
    def forward(self, x):
        view = self.augment(x)
        return self.head(self.net(view))

net = nn.Linear(4, 4).to("meta")
"""


def test_a_wrapper_that_runs_itself_while_it_is_built_is_edited_where_it_makes_its_parts(
        ip, capsys):
    """byol-pytorch's ``BYOL.__init__`` sends a mock batch made on the cpu through itself,
    beside the network it was handed on the GPU; the batch passes an augmentation that gives
    back its input (``nn.Identity``), and the object's own head is still on the cpu. No name
    of the user's holds the object yet. The batch's trail goes on through the other name the
    very tensor has (before: it stopped at the augmentation, and the fix printed moved the
    user's network to the cpu); the head is moved where ``__init__`` makes it."""
    assert run(ip, LEARNER) is None
    capsys.readouterr()
    assert run(ip, "learner = Learner(net, 4)\n") is not None
    text = diagnosis(capsys)
    assert "+ self.forward(torch.randn(2, size, device=next(net.parameters()).device))" \
        in text, text
    assert "culprit: `self.head` in Learner.__init__ (Head, cpu)" in text, text
    assert "+ self.head = Head().to(next(net.parameters()).device)" in text, text
    assert 'net.to("cpu")' not in text, text
    assert VERIFIED in text, text


REMOVER = """
import numpy as np
import torch
from torch import nn

net = nn.Linear(3, 2).to("meta")

def remove_bg(img):
    image = torch.from_numpy(img)
    image = image.type(torch.FloatTensor)
    return net(image)
"""


def test_a_legacy_type_cast_is_the_line_that_puts_a_tensor_on_the_cpu(ip, capsys):
    """U-2-Net's ``removeBg`` makes its image with ``torch.from_numpy`` and then casts it with
    ``.type(torch.FloatTensor)``, a type that names the cpu, before the notebook's ``net`` on
    the GPU reads it. The cast is the line to edit (before: the earlier line too, whose move
    the cast undoes), and the device is that of the model the function reads by its global
    name (before: no anchor there, so the edit went into the model's own ``forward``)."""
    assert run(ip, REMOVER) is None
    capsys.readouterr()
    assert run(ip, "pred = remove_bg(np.ones((2, 3)))\n") is not None
    text = diagnosis(capsys)
    assert "culprit: remove_bg (a function: the line to edit is in it)" in text, text
    assert ("+ image = image.type(torch.FloatTensor).to(next(net.parameters()).device)"
            in text), text
    assert "+ image = torch.from_numpy(img)." not in text, text
    assert VERIFIED in text, text


FLOW_SAMPLER = """
import torch
from torch import nn

class Pipeline:
    def __init__(self):
        self.models = {"flow": nn.Linear(4, 4).half()}
        self.device = torch.device("cpu")
    def sample(self, n):
        flow_model = self.models["flow"]
        noise = torch.randn(n, 4).to(self.device)
        return flow_model(noise)

pipeline = Pipeline()
"""


def test_a_move_to_a_device_keeps_the_dtype_its_factory_made(ip, capsys):
    """TRELLIS.2's sampler draws ``torch.randn(...).to(self.device)`` for a flow model it has
    cast to half: the move names a device only, so the factory's float32 is still the data's
    (before: the trail stopped at the move, as if it might have set a dtype), and the dtype is
    that of the model the method binds to a local before the line."""
    assert run(ip, FLOW_SAMPLER) is None
    capsys.readouterr()
    assert run(ip, "out = pipeline.sample(2)\n") is not None
    text = diagnosis(capsys)
    assert "culprit: pipeline (its Pipeline.sample has the line to edit)" in text, text
    assert ("+ noise = torch.randn(n, 4, dtype=next(flow_model.parameters()).dtype)"
            ".to(self.device)") in text, text
    assert VERIFIED in text, text


JOINED = """
import torch
from torch import nn

class Summarizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Linear(3, 4)
    def generate(self, input_ids):
        return self.shared(input_ids)

class Tokenizer:
    def encode(self, ids, return_tensors="pt"):
        return torch.tensor([ids])

t5_model = Summarizer().to("meta")
t5_tokenizer = Tokenizer()

def summarize(ids):
    input_tokenized = t5_tokenizer.encode(ids, return_tensors="pt")
    summary_task = torch.tensor([[2.0]])
    input_tokenized = torch.cat([summary_task, input_tokenized], dim=-1)
    return t5_model.generate(input_tokenized)
"""


def test_a_culprit_joined_from_two_strays_keeps_the_name_its_function_holds_it_under(
        ip, capsys):
    """A T5 summarizing app joins a task prefix and the tokenized text, each made on the cpu,
    and hands the result to the notebook's model on the GPU: both lines are edited, to the
    device of the model the function reads by its global name, and the culprit keeps the name
    the function holds it under (`input_tokenized`), not the one of the first line made
    (`summary_task`, two tokens where the culprit has all of them)."""
    assert run(ip, JOINED) is None
    capsys.readouterr()
    assert run(ip, "out = summarize([1.0, 2.0])\n") is not None
    text = diagnosis(capsys)
    assert "culprit: `input_tokenized` in summarize (float32[1, 3] on cpu)" in text, text
    assert "+ summary_task = torch.tensor([[2.0]], device=" in text, text
    assert ("+ input_tokenized = t5_tokenizer.encode(ids, return_tensors=\"pt\")"
            ".to(next(t5_model.parameters()).device)") in text, text
    assert VERIFIED in text, text


BARE_FACTORY = """
import torch
from torch import tensor

def gaussian(window_size, sigma, *, mean=None, device=None):
    mean = float(window_size // 2) if mean is None else mean
    mean = tensor([[mean]], device=device)
    return (torch.arange(window_size, device=sigma.device) - mean).exp()

sigma = torch.ones(1, 1, device="meta")
"""


def test_a_factory_imported_by_its_bare_name_is_edited_as_torchs_own(ip, capsys):
    """kornia's ``gaussian`` makes its mean with ``tensor(...)``, imported as ``from torch
    import tensor``, on the device its caller did not pass: the line is edited to fall back on
    the device of the tensor it meets, as ``torch.tensor(...)`` would be (it used to get only a
    comment: a bare name was no torch factory)."""
    assert run(ip, BARE_FACTORY) is None
    capsys.readouterr()
    assert run(ip, "out = gaussian(3, sigma)\n") is not None
    text = diagnosis(capsys)
    assert "+ mean = tensor([[mean]], device=device or sigma.device)" in text, text
    assert VERIFIED in text, text


PASSED_ON = """
import torch

def apply_to_collection(data, function, *args, **kwargs):
    if isinstance(data, (list, tuple)):
        return type(data)([apply_to_collection(d, function, *args, **kwargs) for d in data])
    return function(data, *args, **kwargs)

class BootStrapper:
    def update(self, preds):
        sample_idx = torch.arange(preds.shape[0])
        return apply_to_collection((preds,), torch.index_select, dim=0, index=sample_idx)

boot = BootStrapper()
"""


def test_a_keyword_handed_on_through_kwargs_is_followed_to_the_caller_that_made_it(
        ip, capsys, fake_cuda):
    """torchmetrics' BootStrapper hands ``index=sample_idx`` to ``apply_to_collection``, which
    passes its ``**kwargs`` on, through itself, to ``torch.index_select``: the post-mortem reads
    the call's unpacked ``kwargs`` as operands and follows ``kwargs['index']`` back to the
    line that made ``sample_idx`` (it used to name nothing)."""
    assert run(ip, PASSED_ON) is None
    with fake_cuda:
        ip.user_ns.update(preds=fake_cuda.randn(4, 2, device="cuda:0"))
    capsys.readouterr()
    assert run(ip, "out = boot.update(preds)\n", fake_cuda) is not None
    text = diagnosis(capsys)
    assert "culprit: `sample_idx` in BootStrapper.update (int64[4] on cpu)" in text, text
    assert "+ sample_idx = torch.arange(preds.shape[0], device=preds.device)" in text, text
    assert VERIFIED in text, text


TILED = """
import torch
from torch import nn

def vae_dtype():
    return torch.float32

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
    def forward(self, x):
        return self.conv(x)

class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.quant_conv = nn.Conv2d(4, 4, 1)
    def encode(self, x):
        h = self.encoder(x)
        return self.quant_conv(h)

class VAEHook:
    def __init__(self, net):
        self.net = net
    def __call__(self, x):
        return self.tile_forward(x)
    @torch.no_grad()
    def tile_forward(self, z):
        result = self.net.original_forward(z)
        dtype = vae_dtype()
        return result.to(dtype=dtype) if result is not None else None

vae = VAE().to(torch.bfloat16)
vae.encoder.original_forward = vae.encoder.forward
encoder_hook = VAEHook(vae.encoder)
vae.encoder.forward = encoder_hook
image = torch.rand(1, 3, 8, 8, dtype=torch.bfloat16)
"""


def test_a_forward_replaced_on_the_module_is_followed_into_the_object_that_replaced_it(
        ip, capsys):
    """webui's Tiled VAE binds a ``VAEHook`` as the encoder's own ``forward``; its
    ``@torch.no_grad()`` method casts the result to a global VAE dtype that is not the VAE's:
    the trail goes into the hook (not the encoder class's ``forward``), through the decorator,
    past the conditional's test, to the cast, which takes the dtype of the data it was given
    (it used to convert the result where ``encode`` reads it)."""
    assert run(ip, TILED) is None
    capsys.readouterr()
    assert run(ip, "latent = vae.encode(image)\n") is not None
    text = diagnosis(capsys)
    assert "culprit: encoder_hook (its VAEHook.tile_forward has the line to edit)" in text, text
    assert "+ return result.to(dtype=z.dtype) if result is not None else None" in text, text
    assert "self.encoder(x).to(" not in text, text
    assert VERIFIED in text, text


PACKED = """
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence

class BiLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 3, bidirectional=True)
    def forward(self, embedded, seq_lengths):
        state = torch.zeros(2, seq_lengths.size(0), 3)
        packed = pack_padded_sequence(embedded, seq_lengths, batch_first=True)
        return self.lstm(packed, (state, state))

representation = BiLSTM().to("meta")
embedded = torch.randn(2, 5, 4, device="meta")
seq_lengths = torch.tensor([5, 3])
"""


def test_a_packed_sequences_batch_sizes_on_the_cpu_are_no_stray(ip, capsys):
    """PyText's BiLSTM makes its zero state on the cpu for an LSTM elsewhere, and packs its
    input with lengths kept on the cpu, as ``pack_padded_sequence`` wants: the state is the
    stray, edited where it is made, and the packed sequence's ``batch_sizes`` (on the cpu by
    design, a local of ``LSTM.forward``) are no culprit (their "fix" used to move the lengths,
    which packing refuses)."""
    assert run(ip, PACKED) is None
    capsys.readouterr()
    assert run(ip, "out = representation(embedded, seq_lengths)\n") is not None
    text = diagnosis(capsys)
    assert "culprit: `state` in BiLSTM.forward (float32[2, 2, 3] on cpu)" in text, text
    assert "batch_sizes" not in text and "seq_lengths.to(" not in text, text
    assert "+ state = torch.zeros(2, seq_lengths.size(0), 3, device=embedded.device)" in text, text
    assert VERIFIED in text, text


OFFLOADED = """
import torch
from torch import nn

class Pipeline:
    def __init__(self):
        self.unet = nn.Linear(4, 4)          # offloaded: on the cpu until its hook moves it
        self.head = nn.Linear(4, 4).to("meta")
    @property
    def device(self):
        return next(self.unet.parameters()).device
    def prepare_latents(self, latents, dtype, device):
        mean = torch.zeros(1, 4)
        mean = mean.to(device=self.device, dtype=dtype)
        return latents - mean
    def __call__(self, latents):
        return self.prepare_latents(latents, torch.float32, torch.device("meta"))

pipe = Pipeline()
latents = torch.ones(2, 4, device="meta")
"""


def test_a_move_to_a_device_that_reads_the_stray_is_edited_and_keeps_its_dtype(ip, capsys):
    """diffusers' img2img under model offload moves ``latents_mean`` to ``self.device``, the
    cpu there, where ``device``, the execution device, was meant: the move (the newest binding
    of the culprit, which the running frame holds on the stray device) takes the device its
    function was given, and keeps the ``dtype=`` it casts to."""
    assert run(ip, OFFLOADED) is None
    capsys.readouterr()
    assert run(ip, "out = pipe(latents)\n") is not None
    text = diagnosis(capsys)
    assert "+ mean = mean.to(device=device, dtype=dtype)" in text, text
    assert VERIFIED in text, text
