"""``%%cuda_safe --autofix``, and the guard's promise to never change what a cell computes."""

from __future__ import annotations

import pytest
import torch
from IPython.core.error import UsageError

from devicelens.guard import DeviceMismatchError
from tests.conftest import to_in_place

pytestmark = pytest.mark.filterwarnings("ignore:PyTorch was compiled without cuDNN")

LOOP = """%%cuda_safe --autofix --no-preflight
for step in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), labels)
    loss.backward()
    opt.step()
"""


def _meta_training(ns):
    model = to_in_place(torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(),
                                            torch.nn.Linear(16, 3)), "meta")
    ns.update(torch=torch, F=torch.nn.functional, model=model,
              opt=torch.optim.SGD(model.parameters(), lr=0.1), x=torch.randn(4, 8),
              labels=torch.tensor([0, 1, 2, 0]))
    return model


def test_autofix_moves_stray_arguments_and_reports_them(ip, capsys):
    model = _meta_training(ip.user_ns)
    weights = [p for p in model.parameters()]
    result = ip.run_cell(LOOP, store_history=False)
    assert result.error_in_exec is None
    out = capsys.readouterr().out
    assert "%%cuda_safe --autofix moved 2 op argument(s) while the cell ran:" in out
    assert "  x: cpu -> meta, 3x (linear, cell line 4)" in out
    assert "  labels: cpu -> meta, 3x (cross_entropy, cell line 4)" in out
    assert out.rstrip().endswith('To make it permanent:\n  x = x.to("meta")\n'
                                 '  labels = labels.to("meta")')
    ns = ip.user_ns
    assert str(ns["loss"].device) == "meta"  # the cell ran to the end, on the model's device
    assert str(ns["x"].device) == "cpu" and str(ns["labels"].device) == "cpu"  # ns untouched
    assert all(p is q and p.device.type == "meta" for p, q in zip(model.parameters(), weights,
                                                                   strict=True))


def test_autofix_never_moves_parameters(ip):
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 4),
                                torch.nn.Linear(4, 2))
    to_in_place(model[1], "meta")
    ip.user_ns.update(model=model, x=torch.randn(2, 4))
    err = ip.run_cell("%%cuda_safe --autofix --no-preflight\nout = model(x)\n",
                      store_history=False).error_in_exec
    assert isinstance(err, DeviceMismatchError)
    assert err.culprits == ("model.1.weight", "model.1.bias")
    assert "--autofix does not move module parameters silently" in str(err)
    assert err.fix == 'model.to("cpu")'
    assert model[1].weight.device.type == "meta"
    assert "out" not in ip.user_ns


def test_autofix_with_device_fake_cuda(ip, fake_cuda, capsys):
    ip.user_ns.update(F=torch.nn.functional, torch=torch, logits=fake_cuda.randn(2, 4),
                      labels=torch.tensor([1, 3]))
    with fake_cuda:
        result = ip.run_cell("%%cuda_safe --autofix --device cuda:0\nwith torch.no_grad():\n"
                             "    loss = F.cross_entropy(logits, labels)\n", store_history=False)
    assert result.error_in_exec is None
    assert str(ip.user_ns["loss"].device) == "cuda:0"
    out = capsys.readouterr().out
    assert "  labels: cpu -> cuda:0, 1x (cross_entropy, cell line 3)" in out
    assert "  labels = labels.to(logits.device)" in out


def test_unknown_device_is_a_usage_error(ip):
    with pytest.raises(UsageError, match="unknown device 'gpu7'"):
        ip.run_cell_magic("cuda_safe", "--autofix --device gpu7", "x = 1\n")


# --- the guard never changes results ------------------------------------------------------

STEPS = """
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Conv2d(1, 3, 3), torch.nn.BatchNorm2d(3), torch.nn.ReLU(),
                          torch.nn.Flatten(), torch.nn.Linear(3 * 6 * 6, 5))
opt = torch.optim.Adam(net.parameters(), lr=0.01)
xb, yb = torch.randn(4, 1, 8, 8), torch.tensor([0, 1, 4, 2])
losses = []
for _ in range(4):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(net(xb), yb)
    loss.backward()
    opt.step()
    losses.append(loss.detach())
torch.stack(losses)
"""


@pytest.mark.parametrize("flags", ["", "--dtype", "--autofix"])
def test_same_cell_same_results_with_and_without_guard(ip, flags):
    ip.user_ns["torch"] = torch
    plain = ip.run_cell(STEPS, store_history=False)
    plain_params = [p.detach().clone() for p in ip.user_ns["net"].parameters()]
    plain_stats = ip.user_ns["net"][1].running_mean.clone()
    guarded = ip.run_cell(f"%%cuda_safe {flags}\n{STEPS}", store_history=False)
    assert plain.error_in_exec is None and guarded.error_in_exec is None
    assert torch.equal(plain.result, guarded.result)
    assert guarded.result.shape == (4,) and guarded.result[0] > guarded.result[-1]
    for a, b in zip(plain_params, ip.user_ns["net"].parameters(), strict=True):
        assert torch.equal(a, b)
    assert torch.equal(plain_stats, ip.user_ns["net"][1].running_mean)


def test_guard_steps_aside_inside_torch_compile(ip):
    ip.user_ns["torch"] = torch
    cell = ("@torch.compile(backend='eager')\ndef f(a, b):\n    return (a @ b).relu() + 1\n"
            "a, b = torch.randn(4, 4), torch.randn(4, 4)\nf(a, b)\n")
    try:
        result = ip.run_cell(f"%%cuda_safe\n{cell}", store_history=False)
        assert result.error_in_exec is None
        a, b = ip.user_ns["a"], ip.user_ns["b"]
        assert torch.equal(result.result, (a @ b).relu() + 1)
    finally:
        ip.user_ns.pop("f", None)
        torch._dynamo.reset()  # NB: dynamo's caches hold the namespace; let them go now


def test_cpu_lengths_of_packed_sequences_and_ctc_are_allowed():
    from devicelens.guard._mode import _device_split, tensor_slots

    data, sizes = torch.ones(6, 4, device="meta"), torch.tensor([2, 2, 1])
    assert _device_split(torch._VF.lstm, tensor_slots((data, sizes, (data,)), {})) == []
    assert _device_split(torch._VF._pad_packed_sequence, tensor_slots((data, sizes), {})) == []
    bad = _device_split(torch._VF.lstm, tensor_slots((data, torch.ones(2, 4)), {}))
    assert [str(s.tensor.device) for s in bad] == ["meta", "cpu"]  # a float input still counts
    assert _device_split(torch.add, tensor_slots((data, sizes), {})) != []
