"""All or nothing: injected out-of-memory errors at every allocation, failures while committing,
bad devices and names, and objects that change between planning and applying."""

from __future__ import annotations

import sys
import weakref
from collections import namedtuple
from typing import Any

import pytest
import torch
from torch import nn
from torch.utils._python_dispatch import TorchDispatchMode

from devicelens import moves
from devicelens.inspect import take_snapshot
from devicelens.inspect._tree import resolve
from devicelens.moves import _apply as _moveapply

Batch = namedtuple("Batch", "x y")


class FailAt(TorchDispatchMode):
    """Raises ``torch.OutOfMemoryError`` at the ``k``-th aten op (every op counts, so every
    allocation is among them); ``k=0`` only counts."""

    def __init__(self, k: int) -> None:
        super().__init__()
        self.k = k
        self.n = 0

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        self.n += 1
        if self.n == self.k:
            raise torch.OutOfMemoryError(f"injected: out of memory at op {self.k} ({func})")
        return func(*args, **(kwargs or {}))


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 8)
        self.norm = nn.BatchNorm1d(8)
        self.out = nn.Linear(8, 2)
        self.mask = torch.ones(8)
        self.extra = [nn.Linear(2, 2)]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.extra[0](self.out(self.norm(self.fc(x)) * self.mask))


def realistic() -> dict[str, Any]:
    """model + Adam with state + a batch dict + aliases + a view + tuples + a graph leaf."""
    torch.manual_seed(0)
    model = Net()
    opt = torch.optim.Adam([*model.parameters(), *model.extra[0].parameters()], lr=1e-2)
    batch = {"x": torch.randn(6, 4), "y": torch.randn(6, 2)}
    model(batch["x"]).sum().backward()
    opt.step()
    leaf = torch.randn(3, requires_grad=True)
    (leaf * 3).sum().backward()
    return {"model": model, "opt": opt, "batch": batch, "w": model.fc.weight, "x": batch["x"],
            "rows": batch["x"][2:], "pair": (batch["y"], "label"),
            "nt": Batch(batch["x"], [batch["y"]]), "leaf": leaf, "step": 3}


def fingerprint(ns: dict[str, Any]) -> dict[str, Any]:
    """Identity of every name and holder, and device/layout/values of every tensor."""
    out: dict[str, Any] = {f"name:{k}": id(v) for k, v in ns.items()}
    for rec in take_snapshot(ns).tensors():
        t = resolve(ns, rec.ref)
        holders = tuple(id(resolve(ns, rec.ref[:i])) for i in range(1, len(rec.ref)))
        out[rec.path] = (id(t), holders, str(t.device), t.dtype, t.shape, t.stride(),
                         t.storage_offset(), t.untyped_storage()._cdata,
                         None if t._base is None else id(t._base), t.requires_grad,
                         None if not t.is_leaf or t.grad is None else id(t.grad),
                         t.detach().clone())
    return out


def assert_same(before: dict[str, Any], after: dict[str, Any]) -> None:
    assert before.keys() == after.keys()
    for key, b in before.items():
        a = after[key]
        if isinstance(b, tuple):
            assert a[:-1] == b[:-1], key
            assert torch.equal(a[-1], b[-1]), key
        else:
            assert a == b, key


def test_out_of_memory_at_every_allocation_changes_nothing() -> None:
    counter = FailAt(0)
    ns = realistic()
    with counter:
        assert moves.move_all("meta", ns).ok
    total = counter.n
    assert total > len(moves.plan_move("cpu", ns).groups)  # more ops than allocations
    for k in range(1, total + 1):
        ns = realistic()
        before = fingerprint(ns)
        with FailAt(k):
            report = moves.move_all("meta", ns)
        assert not report.ok and report.moved == (), k
        assert "out of memory" in report.error, (k, report.error)
        assert_same(before, fingerprint(ns))
    ns = realistic()
    assert moves.move_all("meta", ns).ok  # and without injection the same namespace moves


@pytest.mark.parametrize("target", ["swap_tensors", "write_slot"])
def test_a_failure_while_committing_is_undone(monkeypatch: Any, target: str) -> None:
    """Phase 2 allocates nothing, but if an assignment or a swap still fails, all is undone."""
    calls = {"n": 0}
    module = torch.utils if target == "swap_tensors" else _moveapply
    real = getattr(module, target)
    for fail_at in (1, 3, 7):
        ns = realistic()
        before = fingerprint(ns)
        calls["n"] = 0

        def flaky(*args: Any, _real: Any = real, _k: int = fail_at) -> Any:
            calls["n"] += 1
            if calls["n"] == _k:
                raise RuntimeError("injected commit failure")
            return _real(*args)

        monkeypatch.setattr(module, target, flaky)
        report = moves.move_all("meta", ns)
        monkeypatch.setattr(module, target, real)
        assert not report.ok and "everything was restored" in report.error
        assert "injected commit failure" in report.error
        assert_same(before, fingerprint(ns))


def test_a_parameter_that_cannot_be_swapped_stops_the_move_before_it_starts() -> None:
    ns = realistic()
    ref = weakref.ref(ns["w"])  # swap_tensors refuses weakly referenced tensors
    before = fingerprint(ns)
    report = moves.move_all("meta", ns)
    assert not report.ok and "weak reference" in report.error and "model.fc.weight" in report.error
    assert_same(before, fingerprint(ns))
    assert ref() is ns["w"]


def test_an_impossible_copy_is_refused_up_front_and_changes_nothing() -> None:
    """meta tensors have no data to copy to the CPU: the plan refuses it, even in a dry run."""
    ns = {"a": torch.ones(3, device="meta"), "m": torch.ones(2, device="meta"),
          "b": torch.ones(2)}
    a = ns["a"]
    for dry in (True, False):
        report = moves.move_all("cpu", ns, dry_run=dry)
        assert not report.ok and report.moved == () and report.dry_run is dry
        assert [p for p, _ in report.refused] == ["a", "m"]
        assert report.refused[0][1].startswith("is on meta, which holds no data, so it cannot "
                                               "be copied to cpu (a)")
    assert ns["a"] is a and ns["m"].device.type == "meta"


# --- bad input ------------------------------------------------------------------------------

BAD_DEVICES = {
    "cuda:99": "no such device: 'cuda:99' (this machine has 0 CUDA devices)",
    # NB: torch keeps indices in a few bits: torch.device("cuda:257") is cuda:1
    "cuda:257": "no such device: 'cuda:257' (torch addresses device indices up to 127)",
    "cuda:999": "no such device: 'cuda:999' (torch addresses device indices up to 127)",
    "cuda:-1": "no such device: 'cuda:-1' (device indices start at 0)",
    "cuda:00": "not a device: 'cuda:00' (try 'cpu', 'cuda:0', 'mps' or 'meta')",
    "gpu": "unsupported device: 'gpu' (devicelens moves to cpu, cuda:N, xpu:N, mps or meta)",
    "hpu": "unsupported device: 'hpu' (devicelens moves to cpu, cuda:N, xpu:N, mps or meta)",
    "": "not a device: '' (try 'cpu', 'cuda:0', 'mps' or 'meta')",
    "cpu:1": "no such device: 'cpu:1' (cpu has no index)",
    "cuda": "no such device: 'cuda' (this machine has 0 CUDA devices)",
    3: "not a device: 3 (expected a string such as 'cuda:0')",
    None: "not a device: None (expected a string such as 'cuda:0')",
}


@pytest.mark.parametrize("dry_run", [True, False])
@pytest.mark.parametrize("bad", list(BAD_DEVICES))
def test_bad_devices_are_reports_quoting_the_value(bad: Any, dry_run: bool) -> None:
    ns = realistic()
    before = fingerprint(ns)
    report = moves.move_all(bad, ns, dry_run=dry_run)
    assert (report.ok, report.dry_run, report.error) == (False, dry_run, BAD_DEVICES[bad])
    assert report.moved == () and report.bytes_by_device == {}
    assert_same(before, fingerprint(ns))


def test_parse_device_validates_indices_before_torch_wraps_them(fake_cuda: Any) -> None:
    assert str(moves.parse_device(" meta ")) == "meta"
    assert str(moves.parse_device(torch.device("cpu", 0))) == "cpu"
    with pytest.raises(ValueError, match="this machine has 0 CUDA devices"):
        moves.parse_device("cuda:1")
    with fake_cuda:  # the mode simulates any device torch can address, and only those
        assert str(moves.parse_device("cuda:127")) == "cuda:127"
        with pytest.raises(ValueError, match="up to 127"):
            moves.parse_device("cuda:257")


def test_a_hostile_device_argument_is_named_by_its_type_only() -> None:
    class Loud:
        def __repr__(self) -> str:
            raise AssertionError("user code ran")

    report = moves.move_all(Loud(), {"x": torch.ones(1)})
    assert (report.ok, report.target, report.error) == (
        False, "a Loud", "not a device: a Loud (expected a string such as 'cuda:0')")


def test_unknown_names_are_reports() -> None:
    ns = realistic()
    before = fingerprint(ns)
    report = moves.move_all("meta", ns, names=["model", "nope"])
    assert (report.ok, report.error) == (False, "no such name(s) in the namespace: 'nope'")
    report = moves.move_all("meta", ns, names="model")
    assert report.error == "names must be a list of names, not the string 'model'"
    assert_same(before, fingerprint(ns))


def test_no_namespace_outside_ipython_is_a_report(monkeypatch: Any) -> None:
    monkeypatch.setitem(sys.modules, "IPython", None)  # NB: other tests leave a shell around
    report = moves.move_all("meta")
    assert not report.ok and "not running inside IPython" in report.error


@pytest.mark.parametrize("change", ["delete", "rebind", "container", "grad"])
def test_objects_that_change_between_plan_and_apply(change: str) -> None:
    ns = realistic()
    plan = moves.plan_move("meta", ns)
    if change == "delete":
        del ns["x"]
    elif change == "rebind":
        ns["model"] = Net()
    elif change == "container":
        ns["batch"]["x"] = torch.zeros(1)
    else:
        ns["model"].fc.weight.grad = None
    before = fingerprint(ns)
    report = moves.apply_plan(plan)
    assert not report.ok and "after the move was planned; nothing was moved" in report.error
    assert_same(before, fingerprint(ns))


def test_a_plan_is_applied_once() -> None:
    ns = {"x": torch.ones(2)}
    plan = moves.plan_move("meta", ns)
    assert moves.apply_plan(plan).ok
    with pytest.raises(ValueError, match="already applied"):
        moves.apply_plan(plan)


def test_hostile_containers_are_moved_without_running_their_code() -> None:
    class Trap(dict):  # type: ignore[type-arg]
        def __getitem__(self, k: Any) -> Any:
            raise AssertionError("user code ran")

        def __setitem__(self, k: Any, v: Any) -> None:
            raise AssertionError("user code ran")

        def items(self) -> Any:
            raise AssertionError("user code ran")

    class TrapList(list):  # type: ignore[type-arg]
        def __iter__(self) -> Any:
            raise AssertionError("user code ran")

        def __setitem__(self, k: Any, v: Any) -> None:
            raise AssertionError("user code ran")

    d = Trap()
    dict.__setitem__(d, "t", torch.ones(2))
    lst = TrapList([torch.ones(1)])
    ns = {"d": d, "lst": lst}
    assert moves.move_all("meta", ns).ok
    assert dict.__getitem__(d, "t").device.type == "meta"
    assert list.__getitem__(lst, 0).device.type == "meta"


class Recorder(FailAt):
    """FailAt that also keeps a weak reference to every tensor an op returns."""

    def __init__(self, k: int) -> None:
        super().__init__(k)
        self.made: list[weakref.ref[torch.Tensor]] = []

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        out = super().__torch_dispatch__(func, types, args, kwargs)
        if isinstance(out, torch.Tensor):
            self.made.append(weakref.ref(out))
        return out


def test_a_failed_move_frees_its_copies_at_once() -> None:
    """No reference cycle keeps half-made copies (device memory, on a GPU) alive after a failure:
    they are gone when move_all returns, without waiting for the garbage collector."""
    import gc

    ns = realistic()
    gc.collect()
    gc.disable()
    try:
        for k in (5, 40, 70):
            rec = Recorder(k)
            with rec:
                assert not moves.move_all("meta", ns).ok
            assert len(rec.made) > 0 and [r for r in rec.made if r() is not None] == []
    finally:
        gc.enable()
