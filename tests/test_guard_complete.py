"""One diagnosis, one fix that works: everything the cell trips on, in the user's names, no
innocent names, no two fixes that contradict each other (issue 10, items 1-3).

Through a real IPython shell, on ``meta`` (a real second device, with autograd) and fake
``cuda:N``: the post-mortem of a plain cell and the ``DeviceMismatchError`` of ``%%cuda_safe``.
Each test applies the printed fix once and runs the failing cell again.
"""

from __future__ import annotations

import re

import pytest
import torch
from torch import nn

from devicelens.guard import DeviceMismatchError
from tests.conftest import to_in_place

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(ip, capsys, cell: str, fake=None) -> tuple[BaseException | None, str]:
    capsys.readouterr()
    if fake is not None:
        with fake:
            err = ip.run_cell(cell, store_history=False).error_in_exec
    else:
        err = ip.run_cell(cell, store_history=False).error_in_exec
    out = ANSI.sub("", "".join(capsys.readouterr()))
    return err, out[out.index("devicelens: "):] if "devicelens: " in out else ""


def culprits(text: str) -> list[str]:
    return re.findall(r"^  culprit: (.+?) \(", text, re.M)


def fix_code(text: str) -> str:
    lines = text.splitlines()
    start = lines.index("  fix:") + 1
    body = []
    for ln in lines[start:]:
        if not ln.startswith("      "):
            break
        body.append(ln[6:])
    return "\n".join(body)


@pytest.fixture
def ns(ip):
    ip.run_cell("import torch\nfrom torch import nn\nimport torch.nn.functional as F\n",
                store_history=False)
    return ip.user_ns


TRAIN = """out = model(batch["x"])
loss = F.cross_entropy(out, batch["y"], weight=class_weights)
loss.backward()
opt.step()
"""


def _resumed_training(ns) -> None:
    """A model moved to the device after its optimizer took a step: its state stayed behind,
    and so did the labels and the class weights."""
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
    opt = torch.optim.Adam(model.parameters(), foreach=False)
    model(torch.randn(2, 8)).sum().backward()
    opt.step()
    opt.zero_grad()
    to_in_place(model, "meta")
    ns.update(model=model, opt=opt, class_weights=torch.tensor([1.0, 2.0, 1.0]),
              batch={"x": torch.randn(4, 8, device="meta"), "y": torch.tensor([0, 1, 2, 0])})


def test_post_mortem_covers_everything_the_cell_trips_on(ip, ns, capsys):
    _resumed_training(ns)
    err, text = run(ip, capsys, TRAIN)
    assert err is not None
    assert culprits(text) == ["batch['y']", "class_weights", "opt"]
    fix = fix_code(text)
    assert fix.splitlines()[:2] == [
        "batch['y'] = batch['y'].to(\"meta\")", "class_weights = class_weights.to(\"meta\")"]
    assert "for _p, _s in opt.state.items():" in fix
    assert ip.run_cell(fix, store_history=False).error_in_exec is None
    assert ip.run_cell(TRAIN, store_history=False).error_in_exec is None  # one fix: it runs


def test_cuda_safe_error_covers_everything_too(ip, ns, capsys):
    _resumed_training(ns)
    err, _ = run(ip, capsys, "%%cuda_safe --no-preflight\n" + TRAIN)
    assert isinstance(err, DeviceMismatchError)
    assert err.culprits == ("batch['y']", "class_weights", "opt")
    assert ip.run_cell(err.fix, store_history=False).error_in_exec is None
    assert ip.run_cell("%%cuda_safe\n" + TRAIN, store_history=False).error_in_exec is None


def test_the_assignment_target_of_the_failing_line_is_never_blamed(ip, ns, capsys):
    ns.update(model=to_in_place(nn.Linear(4, 2), "meta"), x=torch.randn(3, 4),
              out=torch.zeros(3, 2))  # a leftover of an earlier cell, on the cpu too
    err, text = run(ip, capsys, "out = model(x)\n")
    assert err is not None
    assert culprits(text) == ["x"]
    assert "out" not in re.findall(r"\w+", fix_code(text))


def test_only_what_the_failing_op_touched(ip, ns, capsys):
    ip.run_cell("def step(a, b, c):\n    unused = torch.zeros(3)\n    return a + b\n",
                store_history=False)
    ns.update(a=torch.ones(3, device="meta"), b=torch.ones(3), c=torch.ones(3))
    err, text = run(ip, capsys, "r = step(a, b, c)\n")
    assert err is not None
    assert culprits(text) == ["b"]  # never c, never `unused`
    assert fix_code(text) == 'b = b.to(a.device)'


def test_a_partly_moved_model_gets_one_direction(ip, ns, capsys):
    model = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))
    to_in_place(model[2], "meta")
    ns.update(model=model, x=torch.randn(2, 4))
    err, text = run(ip, capsys, "out = model(x)\n")
    assert err is not None
    fix = fix_code(text)
    # NB: never x.to("cpu") next to model.to("meta"): every fix moves to one device
    assert set(re.findall(r'\.to\("([^"]+)"\)', fix)) == {"meta"}
    assert "#" not in fix  # no comment where code should be
    assert ip.run_cell(fix, store_history=False).error_in_exec is None
    assert ip.run_cell("out = model(x)\n", store_history=False).error_in_exec is None
    assert ns["out"].device.type == "meta"


def test_one_module_is_moved_once_whatever_its_names(ip, ns, capsys, fake_cuda):
    net = fake_cuda.to(nn.Sequential(nn.Linear(4, 2)), "cuda:1")
    dp = nn.DataParallel(net)
    dp.device_ids, dp.src_device_obj, dp.output_device = [0, 1], torch.device("cuda:0"), 0
    ns.update(net=net, dp=dp, x=fake_cuda.randn(2, 4))
    err, text = run(ip, capsys, "with torch.no_grad():\n    out = dp(x)\n", fake_cuda)
    assert err is not None
    moves = [ln for ln in fix_code(text).splitlines()
             if re.match(r"(net|dp|dp\.module)\.to\(", ln)]
    # NB: one move, whichever name it takes (dp moves its module): not also net.to(...)
    assert len(moves) == 1 and moves[0] in ('dp.to("cuda:0")', 'dp.module.to("cuda:0")',
                                            'net.to("cuda:0")'), moves


class Pipeline(nn.Module):
    """Two stages on two GPUs, activations handed over by hand: deliberate model parallelism."""

    def __init__(self) -> None:
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.b = nn.Linear(4, 2)

    def forward(self, x):
        return self.b(self.a(x).to("cuda:1"))


def test_a_deliberate_pipeline_is_never_undone(ip, ns, capsys, fake_cuda):
    pipe = Pipeline()
    fake_cuda.to(pipe.a, "cuda:0")
    fake_cuda.to(pipe.b, "cuda:1")
    ns.update(pipe=pipe, x=torch.randn(3, 4))
    err, text = run(ip, capsys, "with torch.no_grad():\n    y = pipe(x)\n", fake_cuda)
    assert err is not None
    assert culprits(text) == ["x"]
    fix = fix_code(text)
    assert fix == 'x = x.to("cuda:0")'  # the first stage's device; the model is left alone
    assert "pipe" not in fix and "pipe.to" not in text


def test_every_tensor_left_behind_in_a_part_is_named_when_the_op_met_some(
        ip, capsys, fake_cuda) -> None:
    """NNI's QAT wrapper registers three observer buffers after ``model.to()``; the update that
    fails meets two of them. The third is left behind as well, and named as such (the fix, the
    whole model moved, covers it)."""
    from tests.test_guard_messages import _run

    setup = ("import torch\nfrom torch import nn\n"
             "class Observed(nn.Module):\n"
             "    def __init__(self):\n        super().__init__()\n"
             "        self.fc = nn.Linear(4, 4)\n"
             "    def forward(self, x):\n"
             "        self.lo.copy_(self.lo * self.decay + x.min())\n"
             "        return self.fc(x)\n"
             "model = nn.Sequential(Observed(), nn.ReLU()).to('cuda:0')\n"
             "for name in ('lo', 'hi', 'decay'):\n"
             "    model[0].register_buffer(name, torch.zeros(1))\n"
             "x = torch.randn(2, 4, device='cuda:0')\n")
    assert _run(ip, setup, fake_cuda) is None
    capsys.readouterr()
    assert _run(ip, "with torch.no_grad():\n    y = model(x)\n", fake_cuda) is not None
    text = "".join(capsys.readouterr())
    names = re.findall(r"^\s*culprit: (\S+) \(", text, re.M)
    assert sorted(names) == ["model[0].decay", "model[0].hi", "model[0].lo"], text
    assert 'model.to("cuda:0")' in text, text


def test_the_same_buffer_in_the_other_layers_is_named_and_cast_on_its_own(ip, capsys) -> None:
    """CodeGen loaded with every buffer cast to float16: each layer's causal mask stopped being
    bool. The first layer fails; the next would fail in its turn. Each mask is named and cast
    back itself: never ``model.to(torch.bool)``, which would cast every weight."""
    setup = ("import torch\nfrom torch import nn\n"
             "class Att(nn.Module):\n"
             "    def __init__(self):\n        super().__init__()\n"
             "        self.register_buffer('causal_mask', torch.ones(1, 4, 4, dtype=torch.bool))\n"
             "        self.proj = nn.Linear(4, 4)\n"
             "    def forward(self, x):\n"
             "        return torch.where(self.causal_mask, self.proj(x), x * 0)\n"
             "class Net(nn.Module):\n"
             "    def __init__(self):\n        super().__init__()\n"
             "        self.h = nn.ModuleList([Att() for _ in range(3)])\n"
             "    def forward(self, x):\n"
             "        for layer in self.h:\n            x = layer(x)\n        return x\n"
             "net = Net()\n"
             "for layer in net.h:\n    layer.causal_mask = layer.causal_mask.half()\n"
             "x = torch.randn(1, 4, 4)\n")
    assert ip.run_cell(setup, store_history=False).error_in_exec is None
    capsys.readouterr()
    assert ip.run_cell("y = net(x)\n", store_history=False).error_in_exec is not None
    text = "".join(capsys.readouterr())
    names = re.findall(r"^\s*culprit: (\S+) \(", text, re.M)
    assert names == [f"net.h[{i}].causal_mask" for i in range(3)], text
    fix = [f"      net.h[{i}].causal_mask = net.h[{i}].causal_mask.bool()" for i in range(3)]
    assert "  fix:\n" + "\n".join(fix) + "\n" in text, text
    assert "torch.bool)" not in text
    assert "  verified: rehearsed on a copy of this kernel's state" in text, text
