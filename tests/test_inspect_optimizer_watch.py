"""The watch that proves an optimizer unchanged without reading its token
(:mod:`devicelens.inspect._optimizer_watch`): it says "same" after a cell that changed nothing
(or only stepped), and "changed" after every change to its groups, state or tensors a cell can
make, including those that keep every identity. After each change the live snapshot also
equals a fresh one.
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any

import pytest
import torch
from torch import nn

from devicelens.inspect import _live, _tensor_list, take_snapshot
from devicelens.inspect._live import Live
from devicelens.inspect._optimizer_watch import OptimizerWatch, WrappedWatch
from devicelens.inspect._walk import Ctx


def namespace() -> dict[str, Any]:
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    opt = torch.optim.Adam(model.parameters())
    model(torch.zeros(4, 2)).sum().backward()
    opt.step()
    return {"model": model, "opt": opt}


def _state(ns: dict[str, Any], i: int = 0) -> dict[str, Any]:
    opt = ns["opt"]
    return opt.state[opt.param_groups[0]["params"][i]]  # type: ignore[no-any-return]


def _swap_state_for_a_view(ns: dict[str, Any]) -> None:
    t = _state(ns)["exp_avg"]
    torch.utils.swap_tensors(t, torch.zeros(t.numel() + 1)[1:].view(t.shape))


def _moved_to_another_model(ns: dict[str, Any]) -> None:
    ns["renamed"] = ns.pop("model")
    ns["opt"] = ns.pop("opt")  # NB: the optimizer stays after the models


CHANGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "a state tensor's data swapped": lambda ns: setattr(
        _state(ns)["exp_avg"], "data", _state(ns)["exp_avg"].data.double()),
    "a state tensor replaced": lambda ns: _state(ns).__setitem__(
        "exp_avg", torch.zeros(3, 2, dtype=torch.float16)),
    "a state tensor swapped for a view": _swap_state_for_a_view,
    "a state tensor that turns into a non-leaf": lambda ns: _state(ns)["exp_avg"].add_(
        torch.zeros(3, 2, requires_grad=True)),
    "a state entry deleted": lambda ns: ns["opt"].state.pop(ns["opt"].param_groups[0]
                                                           ["params"][0]),
    "the state replaced": lambda ns: setattr(ns["opt"], "state",
                                             collections.defaultdict(dict)),
    "a parameter's data swapped": lambda ns: setattr(
        ns["opt"].param_groups[0]["params"][1], "data",
        ns["opt"].param_groups[0]["params"][1].data.double()),
    "a grad dropped": lambda ns: ns["opt"].zero_grad(set_to_none=True),
    "a param group added": lambda ns: ns["opt"].add_param_group(
        {"params": [nn.Parameter(torch.zeros(2))]}),
    "a parameter appended in place": lambda ns: ns["opt"].param_groups[0]["params"].append(
        nn.Parameter(torch.zeros(2))),
    "a parameter replaced in place": lambda ns: ns["opt"].param_groups[0]["params"].__setitem__(
        0, nn.Parameter(torch.zeros(3, 2))),
    "the groups split in two": lambda ns: ns["opt"].param_groups.append(
        {**ns["opt"].param_groups[0], "params": [ns["opt"].param_groups[0]["params"].pop()]}),
    "the model renamed": _moved_to_another_model,
    "Module.to": lambda ns: ns["model"].to(torch.float64),
}


def _named(ns: dict[str, Any]) -> Live:
    live = Live()
    live.update(ns)
    live.update(ns)  # NB: the second push is the one the watch answers
    return live


def test_an_unchanged_optimizer_is_proven_the_same_without_its_token(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ns = namespace()
    live = _named(ns)
    assert live.entries["opt"].watch is not None
    tokens: list[str] = []
    real = _live.token

    def counted(ctx: Ctx, obj: Any) -> Any:
        tokens.append(type(obj).__name__)
        return real(ctx, obj)

    monkeypatch.setattr(_live, "token", counted)
    ns["model"](torch.zeros(4, 2)).sum().backward()  # NB: grads accumulate in place
    ns["opt"].step()  # NB: in place: every header, id and dict as it was
    update = live.update(ns)
    assert update.changed == frozenset()
    assert "Adam" not in tokens


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_every_change_is_seen(change: str) -> None:
    ns = namespace()
    live = _named(ns)
    watch = live.entries["opt"].watch
    assert watch is not None
    CHANGES[change](ns)
    update = live.update(ns)
    assert update.snapshot.objects == take_snapshot(ns).objects
    assert "opt" in update.changed or "renamed" in update.changed
    assert live.update(ns).snapshot.objects == take_snapshot(ns).objects


class Trainer:
    """A training-loop helper holding the optimizer (as Lightning Fabric's wrapper does); the
    optimizer has no name of its own."""

    def __init__(self, optimizer: torch.optim.Optimizer) -> None:
        self.optimizer = optimizer


class MemoryEfficientFP16Optimizer(torch.optim.Optimizer):
    """An ``Optimizer`` subclass that wraps another and never calls ``Optimizer.__init__``
    (fairseq's, ParlAI's): its ``param_groups`` are the inner optimizer's."""

    def __init__(self, optimizer: torch.optim.Optimizer) -> None:
        self.optimizer = optimizer

    @property
    def param_groups(self) -> Any:  # type: ignore[override]
        return self.optimizer.param_groups


def wrapped(wrapper: Callable[[Any], Any] = Trainer) -> dict[str, Any]:
    ns = namespace()
    return {"model": ns["model"], "trainer": wrapper(ns.pop("opt"))}


def _wrapped_state(ns: dict[str, Any]) -> dict[str, Any]:
    return _state({"opt": ns["trainer"].optimizer})


WRAPPED_CHANGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "a state tensor's data swapped": lambda ns: setattr(
        _wrapped_state(ns)["exp_avg"], "data", _wrapped_state(ns)["exp_avg"].data.double()),
    "another optimizer at its key": lambda ns: setattr(
        ns["trainer"], "optimizer", torch.optim.SGD(ns["model"].parameters())),
    "its optimizer under another key": lambda ns: ns["trainer"].__dict__.update(
        opt=ns["trainer"].__dict__.pop("optimizer")),
    "Module.to": lambda ns: ns["model"].to(torch.float64),
}


def test_a_wrapped_optimizer_is_watched_through_its_wrapper(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ns = wrapped()
    live = _named(ns)
    assert isinstance(live.entries["trainer"].watch, WrappedWatch)
    tokens: list[str] = []
    real = _live.token

    def counted(ctx: Ctx, obj: Any) -> Any:
        tokens.append(type(obj).__name__)
        return real(ctx, obj)

    monkeypatch.setattr(_live, "token", counted)
    ns["model"](torch.zeros(4, 2)).sum().backward()
    ns["trainer"].optimizer.step()
    update = live.update(ns)
    assert update.changed == frozenset() and tokens == []
    assert update.snapshot.objects == take_snapshot(ns).objects


@pytest.mark.parametrize("wrapper", [Trainer, MemoryEfficientFP16Optimizer])
@pytest.mark.parametrize("change", sorted(WRAPPED_CHANGES))
def test_every_change_to_a_wrapped_optimizer_is_seen(change: str, wrapper: Any) -> None:
    ns = wrapped(wrapper)
    live = _named(ns)
    assert isinstance(live.entries["trainer"].watch, WrappedWatch)
    WRAPPED_CHANGES[change](ns)
    update = live.update(ns)
    assert "trainer" in update.changed
    assert update.snapshot.objects == take_snapshot(ns).objects
    assert live.update(ns).snapshot.objects == take_snapshot(ns).objects


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_the_watch_itself_says_changed(change: str) -> None:
    ns = namespace()
    live = _named(ns)
    ctx = Ctx(torch, 10_000)
    ctx.param_paths.update(live.forest_kept.regs if live.forest_kept else {})
    watch = OptimizerWatch.remember(ctx, ns["opt"])
    assert watch is not None and watch.same(ctx, ns["opt"])
    CHANGES[change](ns)
    if change == "the model renamed":
        ctx.param_paths.update({k: v.replace("model", "renamed")
                                for k, v in ctx.param_paths.items()})
    assert not watch.same(ctx, ns["opt"])


def test_a_learning_rate_change_is_walked_once_then_watched_again() -> None:
    """A group's version changes with its learning rate, which no record reads: the watch
    fails, the optimizer is walked again (its token is never read), its record is the very
    same one, and the next cell is proven by the new watch."""
    ns = namespace()
    live = _named(ns)
    first = live.entries["opt"]
    ns["opt"].param_groups[0]["lr"] = 0.5
    assert live.update(ns).changed == frozenset()
    second = live.entries["opt"]
    assert second.watch is not None and second.watch is not first.watch
    assert second.record is first.record and second.tok is None
    assert live.update(ns).changed == frozenset()
    assert live.entries["opt"] is second


def test_what_the_watch_does_not_cover_keeps_no_watch() -> None:
    ns = namespace()
    _state(ns)["note"] = 1.0  # NB: a state value that is no tensor: the token reads it
    live = _named(ns)
    assert live.entries["opt"].watch is None
    _state(ns)["note"] = 2.0
    assert live.update(ns).snapshot.objects == take_snapshot(ns).objects


def test_a_change_made_while_the_entry_is_read_shows_at_the_next_update(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A cell on another thread can change the optimizer while its entry is read: whatever
    is read first (the watch, then the token) must vouch for what is read after it."""
    ns = namespace()
    live = Live()
    real = _live.walk_object
    done: list[int] = []

    def racing(ctx: Ctx, name: str, obj: Any, *rest: Any) -> Any:
        got = real(ctx, name, obj, *rest)
        if name == "opt" and not done:  # NB: right after the walk read it
            done.append(1)
            _state(ns)["exp_avg"] = torch.zeros(3, 2, dtype=torch.float64)
        return got

    monkeypatch.setattr(_live, "walk_object", racing)
    live.update(ns)
    assert done == [1]
    assert live.update(ns).snapshot.objects == take_snapshot(ns).objects


def test_a_parameter_moved_between_groups_is_seen() -> None:
    """Lists have no version: two groups that trade a parameter in place keep every dict's
    version and the order of all parameters; only how many each group lists changes."""
    model = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1))
    opt = torch.optim.Adam([{"params": list(model[0].parameters())},
                            {"params": list(model[1].parameters()), "lr": 0.1}])
    model(torch.zeros(4, 2)).sum().backward()
    opt.step()
    ns = {"model": model, "opt": opt}
    live = _named(ns)
    watch = live.entries["opt"].watch
    assert watch is not None
    opt.param_groups[1]["params"].insert(0, opt.param_groups[0]["params"].pop())
    ctx = Ctx(torch, 10_000)
    ctx.param_paths.update(live.forest_kept.regs if live.forest_kept else {})
    assert not watch.same(ctx, opt)
    update = live.update(ns)
    assert "opt" in update.changed
    assert update.snapshot.objects == take_snapshot(ns).objects


def test_a_parameter_replaced_by_an_equal_one_is_seen() -> None:
    """No grads, and a new parameter with the very header and module path of the one it
    replaces in the model and in the group's list: only its identity tells them apart."""
    ns = namespace()
    ns["opt"].zero_grad(set_to_none=True)
    live = _named(ns)
    assert live.entries["opt"].watch is not None
    params = ns["opt"].param_groups[0]["params"]
    params[0] = ns["model"][0].weight = nn.Parameter(torch.zeros(params[0].shape))
    update = live.update(ns)
    assert "opt" in update.changed
    assert update.snapshot.objects == take_snapshot(ns).objects


def _checked_lists(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The ids of every list of tensors the watches check from now on, one list per check."""
    checked: list[list[int]] = []
    real = _tensor_list.check

    def counted(ctx: Ctx, values: list[Any], *args: Any, **kw: Any) -> Any:
        checked.append(list(map(id, values)))
        return real(ctx, values, *args, **kw)

    monkeypatch.setattr(_tensor_list, "check", counted)
    return checked


def test_parameters_the_forest_watch_proved_are_not_read_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A model's parameters and grads are most of its optimizer's tensors: where the forest
    watch has just proved them, the optimizer's watch only compares the two readings."""
    ns = namespace()
    live = _named(ns)
    params = [id(p) for p in ns["model"].parameters()]
    checked = _checked_lists(monkeypatch)
    assert live.update(ns).changed == frozenset()
    assert params in checked  # NB: by the forest watch, once
    assert checked.count(params) == 1
    ns["opt"].param_groups[0]["params"][1].data = torch.zeros(3, dtype=torch.float64)
    update = live.update(ns)
    assert update.changed == {"model", "opt"}
    assert update.snapshot.objects == take_snapshot(ns).objects


@pytest.mark.parametrize("change", ["a parameter's dtype", "a grad dropped", "a grad replaced",
                                    "a grad resized in place"])
def test_readings_that_disagree_prove_nothing(change: str) -> None:
    """The forest's reading is trusted for the optimizer's parameters only where the two
    readings agree: here the optimizer's watch is older than the forest's."""
    ns = namespace()
    ctx = Ctx(torch, 10_000)
    watch = OptimizerWatch.remember(ctx, ns["opt"])
    assert watch is not None
    p = ns["opt"].param_groups[0]["params"][0]
    if change == "a parameter's dtype":
        p.data = p.data.double()
    elif change == "a grad dropped":
        p.grad = None
    elif change == "a grad resized in place":  # NB: the same grad, read with another header
        p.grad.resize_(p.grad.numel())
    else:
        p.grad = p.grad.clone()
    ctx = Ctx(torch, 10_000)
    ctx.proven = _tensor_list.remember(ctx, list(ns["model"].parameters()))
    assert ctx.proven is not None
    assert not watch.same(ctx, ns["opt"])
    assert watch.compared is not None and watch.compared == (ctx.proven, False)


def test_a_training_step_moves_the_optimizers_grads_without_reading_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every grad new after a step: the forest watch finds them moved, and the optimizer's
    watch takes the same moves where its reading agrees, reading none of them again."""
    ns = namespace()
    live = _named(ns)
    params = [id(p) for p in ns["model"].parameters()]
    checked = _checked_lists(monkeypatch)
    for _ in range(2):
        ns["opt"].zero_grad()
        ns["model"](torch.ones(4, 2)).sum().backward()
        ns["opt"].step()
        update = live.update(ns)
        assert update.changed == {"model", "opt"}  # NB: the grads' storages are new
        assert update.snapshot.objects == take_snapshot(ns).objects
        assert checked.count(params) == 1  # NB: by the forest watch only
        checked.clear()
    assert live.update(ns).changed == frozenset()
    assert checked.count(params) == 1


def test_moved_grads_are_not_taken_where_the_readings_disagree() -> None:
    ns = namespace()
    ctx = Ctx(torch, 10_000)
    watch = OptimizerWatch.remember(ctx, ns["opt"])
    assert watch is not None
    params = list(ns["model"].parameters())
    old = [id(p.grad) for p in params]
    for p in params:
        p.grad = p.grad.clone()
    params[1].data = params[1].data.double()  # NB: what the forest read, and this watch did not
    ctx = Ctx(torch, 10_000)
    ctx.proven = _tensor_list.remember(ctx, params)
    ctx.moved = {a: id(p.grad) for a, p in zip(old, params, strict=True)}
    assert watch.check(ctx, ns["opt"]) is False


def test_a_training_step_moves_only_the_parameters_own_grads() -> None:
    """After a step every parameter's grad is new; an old grad that another tensor still holds
    (a trap attribute given the same grad, optimizer state kept pointing at it) stays at its
    storage in the records, as a fresh walk reads it."""
    ns = namespace()
    model, opt = ns["model"], ns["opt"]
    w = model[0].weight
    extra = torch.zeros(w.shape, requires_grad=True)
    extra.grad = w.grad
    model[0].__dict__["extra"] = extra
    opt.state[w]["last_grad"] = w.grad
    live = _named(ns)
    old = id(w.grad)
    for p in model.parameters():
        p.grad = p.grad.clone()  # NB: new grads with the very same headers
    update = live.update(ns)
    assert update.changed == {"model", "opt"}
    assert update.snapshot.objects == take_snapshot(ns).objects
    held = [t for o in update.snapshot.objects for t in o.tensors
            if t.path.endswith(("extra.grad", "['last_grad']"))]
    assert len(held) == 2 and {t.storage for t in held} == {old}
