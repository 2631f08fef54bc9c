"""An optimizer's state read in columns (``inspect/_optimizer_columns.py``) gives the per-tensor
walk's very records.

The per-tensor walk (:func:`._objects._optimizer` with the columns refused) is the reference:
every optimizer here is snapshotted both ways and the object records, totals, truncation and
the budget left compared. Optimizers the columns do not take must be refused (and walked); the
plain ones must be taken, or the comparison would prove nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch
from torch import nn

from devicelens.inspect import _objects, take_snapshot


def both(ns: dict[str, Any], max_nodes: int = 100_000) -> tuple[bool, Any, Any]:
    """(columns taken for every optimizer?, fast snapshot, reference snapshot)."""
    taken: list[bool] = []
    real = _objects.read_state

    def spy(*a: Any) -> bool:
        got = real(*a)
        taken.append(got)
        return got

    try:
        _objects.read_state = spy
        fast = take_snapshot(ns, max_nodes=max_nodes)
        _objects.read_state = lambda *a: False
        slow = take_snapshot(ns, max_nodes=max_nodes)
    finally:
        _objects.read_state = real
    return bool(taken) and all(taken), fast, slow


def same(fast: Any, slow: Any) -> bool:
    return (fast.objects == slow.objects and fast.totals == slow.totals
            and fast.truncated == slow.truncated)


def stepped(opt_type: Any, model: nn.Module, **kw: Any) -> Any:
    opt = opt_type(model.parameters(), **kw)
    for p in model.parameters():
        p.grad = torch.ones_like(p)
    opt.step()
    return opt


def model() -> nn.Module:
    return nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))


@pytest.mark.parametrize("make", [
    lambda m: stepped(torch.optim.Adam, m),
    lambda m: stepped(torch.optim.AdamW, m, amsgrad=True),
    lambda m: stepped(torch.optim.SGD, m, lr=0.1, momentum=0.9),
    lambda m: stepped(torch.optim.RMSprop, m),
], ids=["adam", "adamw-amsgrad", "sgd-momentum", "rmsprop"])
@pytest.mark.parametrize("with_model", [True, False], ids=["after-model", "alone"])
def test_plain_optimizer_state_is_taken_and_read_as_the_walk_reads_it(make: Any,
                                                                      with_model: bool) -> None:
    m = model()
    opt = make(m)
    ns = {"model": m, "opt": opt} if with_model else {"opt": opt}
    taken, fast, slow = both(ns)
    assert taken
    assert same(fast, slow)
    states = [t for t in fast["opt"].tensors if t.role == "state"]
    assert len(states) == sum(len(s) for s in opt.state.values()) > 0
    first = next(iter(opt.state.values()))
    assert states[0].path.startswith("opt.state[") and first  # NB: the state's own order
    if with_model:
        assert fast["opt"].tensors[0].owner == "model.0.weight"


def test_two_param_groups_and_a_wrapped_optimizer_agree() -> None:
    m = model()
    opt = torch.optim.Adam([{"params": m[0].parameters()},
                            {"params": m[2].parameters(), "lr": 1e-4}])
    for p in m.parameters():
        p.grad = torch.ones_like(p)
    opt.step()

    class Fabric:
        def __init__(self, o: Any) -> None:
            self.optimizer = o

    taken, fast, slow = both({"model": m, "opt": opt, "wrapped": Fabric(opt)})
    assert taken and same(fast, slow)
    assert any(t.path.startswith("opt.param_groups[1].params[1]") for t in fast["opt"].tensors)


def test_an_optimizer_subclass_that_wraps_another_is_read_through_it() -> None:
    # NB: fairseq's and ParlAI's MemoryEfficientFP16Optimizer subclass Optimizer but keep no
    # ``param_groups`` or ``state`` of their own: read as a plain wrapper is, the state of the
    # optimizer inside is shown and judged (before, the wrapper held nothing to show)
    m = model()
    inner = torch.optim.Adam(m.parameters())
    for p in m.parameters():
        p.grad = torch.ones_like(p)
    inner.step()

    class MemoryEfficientFP16Optimizer(torch.optim.Optimizer):
        def __init__(self, optimizer: Any) -> None:
            self.optimizer = optimizer

    snap = take_snapshot({"model": m, "optimizer": MemoryEfficientFP16Optimizer(inner)})
    rec = snap["optimizer"]
    assert rec.kind == "optimizer"
    states = [t.path for t in rec.tensors if t.role == "state"]
    assert "optimizer.optimizer.state[model.0.weight]['exp_avg']" in states
    assert len(states) == 3 * len(list(m.parameters()))


def test_state_the_columns_do_not_take_is_walked_as_before() -> None:
    m = model()
    uneven = torch.optim.Adam(m.parameters())
    m[0].weight.grad = torch.ones_like(m[0].weight)  # NB: one parameter stepped, the rest not
    uneven.step()
    m2 = model()
    sub = stepped(torch.optim.SGD, m2, lr=0.1, momentum=0.9)

    class Marked(torch.Tensor):
        pass

    key = next(iter(sub.state))
    sub.state[key]["momentum_buffer"] = sub.state[key]["momentum_buffer"].as_subclass(Marked)
    fresh = torch.optim.Adam(model().parameters())  # NB: no state at all
    for ns in ({"model": m, "opt": uneven}, {"model": m2, "opt": sub}, {"opt": fresh}):
        taken, fast, slow = both(ns)
        assert not taken
        assert same(fast, slow)


def test_a_budget_too_small_for_the_state_is_refused_and_truncated_as_the_walk_is() -> None:
    m = model()
    opt = stepped(torch.optim.Adam, m)
    n_params = len(list(m.parameters()))
    enough = n_params * 4 + n_params * 2  # NB: parameters + grads + state, generously
    taken, fast, slow = both({"opt": opt}, max_nodes=enough * 2)
    assert taken and same(fast, slow) and not fast.truncated
    taken, fast, slow = both({"opt": opt}, max_nodes=n_params + 3)
    assert not taken and same(fast, slow) and fast.truncated


def test_parameters_relabelled_in_columns_keep_each_grad_where_it_is() -> None:
    """The relabel of a model's parameters in columns: some grads gone, all gone, a parameter
    no walked model holds (read from its header), and a state key with braces in its name."""
    m = model()
    opt = stepped(torch.optim.Adam, m)
    m[0].bias.grad = None
    taken, fast, slow = both({"model": m, "opt": opt})
    assert taken and same(fast, slow)
    roles = [t.role for t in fast["opt"].tensors[:6]]
    assert roles == ["opt_param", "grad", "state", "state", "state", "opt_param"]
    assert fast["opt"].tensors[5].path == "opt.param_groups[0].params[1]"
    opt.zero_grad()
    taken, fast, slow = both({"model": m, "opt": opt})
    assert taken and same(fast, slow)
    assert [t.role for t in fast["opt"].tensors].count("grad") == 0

    extra = nn.Parameter(torch.ones(2))
    mixed = torch.optim.SGD([*m.parameters(), extra], lr=0.1, momentum=0.9)
    for p in mixed.param_groups[0]["params"]:
        p.grad = torch.ones_like(p)
    mixed.step()
    for s in mixed.state.values():
        s["odd{x}"] = torch.zeros(1)
    taken, fast, slow = both({"model": m, "opt": mixed})
    assert taken and same(fast, slow)
    odd = [t.path for t in fast["opt"].tensors if t.path.endswith("['odd{x}']")]
    assert odd[0] == "opt.state[model.0.weight]['odd{x}']" and len(odd) == len(mixed.state)
    assert fast["opt"].tensors[-4].path == "opt.param_groups[0].params[6]"  # NB: extra, read
