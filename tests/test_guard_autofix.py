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
    assert "%%cuda_safe --autofix moved 2 op arguments while the cell ran:" in out
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
    # NB: a model split over the cpu and an accelerator is being moved there (as %devices says)
    assert err.culprits == ("model[2].weight", "model[2].bias")
    assert err.report.expected == "meta"
    assert "--autofix does not move module parameters silently" in str(err)
    assert err.fix == 'model.to("meta")'
    assert model[1].weight.device.type == "meta" and model[2].weight.device.type == "cpu"
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
    from devicelens.guard.running._mode import _device_split, tensor_slots

    data, sizes = torch.ones(6, 4, device="meta"), torch.tensor([2, 2, 1])
    assert _device_split(torch._VF.lstm, tensor_slots((data, sizes, (data,)), {})) == []
    assert _device_split(torch._VF._pad_packed_sequence, tensor_slots((data, sizes), {})) == []
    bad = _device_split(torch._VF.lstm, tensor_slots((data, torch.ones(2, 4)), {}))
    assert [str(s.tensor.device) for s in bad] == ["meta", "cpu"]  # a float input still counts
    assert _device_split(torch.add, tensor_slots((data, sizes), {})) != []


# --- ops that write into an argument (issue 12 A) ------------------------------------------

WRITES = {
    "method": "acc.add_(upd)",
    "operator": "acc += upd",
    "out": "torch.add(upd, upd, out=acc)",
}


@pytest.mark.parametrize("how", ["method", "operator", "out"])
def test_autofix_never_moves_the_tensor_an_op_writes_into(ip, capsys, how):
    acc, upd = torch.zeros(3), torch.ones(3, device="meta")
    ip.user_ns.update(torch=torch, acc=acc, upd=upd)
    version = acc._version
    err = ip.run_cell(f"%%cuda_safe --autofix --device meta --no-preflight\n{WRITES[how]}\n",
                      store_history=False).error_in_exec
    assert isinstance(err, DeviceMismatchError)
    assert "--autofix never moves a tensor an op writes into (acc, by " in str(err)
    assert "the write would go to a copy" in str(err) and err.culprits == ("acc",)
    assert ip.user_ns["acc"] is acc and acc.device.type == "cpu" and acc._version == version
    assert torch.equal(acc, torch.zeros(3))
    assert "--autofix moved" not in capsys.readouterr().out  # nothing was moved


def test_autofix_moves_the_other_operand_to_the_written_tensor(ip, capsys):
    acc, x = torch.zeros(3, device="meta"), torch.ones(3)
    ip.user_ns.update(torch=torch, acc=acc, x=x)
    version = acc._version
    result = ip.run_cell("%%cuda_safe --autofix --device meta --no-preflight\nacc.add_(x)\n"
                         "acc += x\n", store_history=False)
    assert result.error_in_exec is None
    assert acc._version == version + 2  # both writes went into acc itself, not into a copy
    assert ip.user_ns["acc"] is acc and x.device.type == "cpu"
    out = capsys.readouterr().out
    assert "  x: cpu -> meta, 1x (Tensor.add_, cell line 2)" in out


def test_without_device_the_written_tensor_decides_and_an_impossible_copy_raises(ip, capsys):
    acc, upd = torch.zeros(3), torch.ones(3, device="meta")
    ip.user_ns.update(torch=torch, acc=acc, upd=upd)
    err = ip.run_cell("%%cuda_safe --autofix --no-preflight\nacc.add_(upd)\n",
                      store_history=False).error_in_exec
    assert isinstance(err, DeviceMismatchError)
    assert "--autofix could not move upd to cpu: NotImplementedError" in str(err)
    assert err.culprits == ("upd",) and err.report.expected == "cpu"
    assert acc._version == 0 and torch.equal(acc, torch.zeros(3))
    assert "--autofix moved" not in capsys.readouterr().out


def test_autofix_on_fake_cuda_writes_into_the_cuda_accumulator(ip, fake_cuda, capsys):
    """On a (simulated) GPU: ``total.add_(x)`` with ``total`` on cuda:0 and ``x`` on the cpu
    moves ``x``, and the write lands in ``total``."""
    total = fake_cuda.randn(4)
    ip.user_ns.update(torch=torch, total=total, x=torch.ones(4))
    version = total._version
    with fake_cuda:
        result = ip.run_cell("%%cuda_safe --autofix --device cuda:0\nwith torch.no_grad():\n"
                             "    total.add_(x)\n", store_history=False)
    assert result.error_in_exec is None
    assert total._version == version + 1 and str(total.device) == "cuda:0"
    assert "  x: cpu -> cuda:0, 1x (Tensor.add_, cell line 3)" in capsys.readouterr().out


def test_running_statistics_are_never_replaced_by_copies(ip):
    rm, rv = torch.zeros(3), torch.ones(3)
    ip.user_ns.update(torch=torch, rm=rm, rv=rv, xb=torch.ones(4, 3, device="meta"))
    err = ip.run_cell("%%cuda_safe --autofix --device meta --no-preflight\n"
                      "torch.nn.functional.batch_norm(xb, rm, rv, training=True)\n",
                      store_history=False).error_in_exec
    assert isinstance(err, DeviceMismatchError)
    assert "--autofix never moves a tensor an op writes into (rm, rv, by batch_norm)" in str(err)
    assert rm._version == 0 and rv._version == 0


def test_written_slots_of_each_kind():
    from devicelens.guard.running._slots import _written, tensor_slots

    a, b, c = torch.ones(1), torch.ones(1), torch.ones(1)

    def written(func, args, kwargs):
        return [s.where for s in _written(func, args, kwargs, tensor_slots(args, kwargs))]

    assert written(torch.Tensor.add_, (a, b), {}) == ["argument 1"]
    assert written(torch.Tensor.__iadd__, (a, b), {}) == ["argument 1"]
    assert written(torch.add, (a, b), {"out": c}) == ["out="]
    assert written(torch.max, (a, 0), {"out": (b, c)}) == ["out=[0]", "out=[1]"]
    assert written(torch.nn.functional.relu, (a,), {"inplace": True}) == ["argument 1"]
    assert written(torch.add, (a, b), {}) == []
    assert written(torch.Tensor.__add__, (a, b), {}) == []
