"""Names bound to a plain tensor move as columns (issue 39, the move planner near the naive
loop): the plan, the report and the moved namespace are those of the general walk; a name whose
tensor anything else holds or shares a storage with leaves the columns; and a column move is
all or nothing like any other (out of memory at every allocation, a failing rebind, a name
rebound after planning)."""

from __future__ import annotations

import tracemalloc
from typing import Any

import pytest
import torch
from torch import nn

from devicelens import moves
from devicelens.moves import _apply as _moveapply
from devicelens.moves import _loose

from .test_moves_faults import FailAt, assert_same, fingerprint

NAMES = ["a", "b", "c", "d", "e", "f"]


class Loud(torch.Tensor):
    """A subclass whose ``.device`` is user code: whatever holds it is refused."""

    @property
    def device(self) -> Any:  # type: ignore[override]
        raise RuntimeError("boom")


def mixed(box: bool = False) -> dict[str, Any]:
    """Plain names among every way a name's tensor can be held or shared by something else;
    with ``box``, a list that is refused (it holds a Loud tensor) and a name on meta."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2))
    opt = torch.optim.Adam(model.parameters())
    model(torch.randn(5, 3)).sum().backward()
    opt.step()
    x, listed, on_meta = torch.randn(4, 3), torch.ones(2), torch.ones(2, device="meta")
    ns: dict[str, Any] = {"a": torch.ones(3)}
    ns.update(model=model, x=x, b=torch.zeros(2, 2), alias=x, view=x[1:], det=x.detach(),
              col=x[:, 0], c=torch.arange(4.0), opt=opt, lst=[listed, 3], listed=listed,
              g=model[0].weight.grad, state=opt.state[model[0].weight]["exp_avg"],
              d=torch.ones(1, dtype=torch.float16), leaf=torch.ones(2, requires_grad=True),
              wide=torch.ones(4, 4)[:, :2], e=torch.ones(5), f=torch.ones(2, dtype=torch.int64))
    if box:
        ns.update(on_meta=on_meta, box=[torch.ones(1).as_subclass(Loud), on_meta])
    ns["_private"] = torch.ones(2)
    return ns


def general(monkeypatch: Any) -> None:
    """Send every name the general way (the walk the columns must agree with)."""
    monkeypatch.setattr(_loose, "candidates", lambda torch, names, values, dev: _loose.Loose(
        dev, [], [], [False] * len(values)))


def relations(ns: dict[str, Any]) -> list[Any]:
    """What a move must keep: which names are one tensor, which share a storage, layouts."""
    names = [k for k, v in ns.items() if type(v) is torch.Tensor]
    ts = [ns[k] for k in names]
    return [(k, t.device.type, t.dtype, t.shape, t.stride(), t.storage_offset(),
             [m for m, u in zip(names, ts, strict=True) if u is t],
             [m for m, u in zip(names, ts, strict=True)
              if torch._C._storage_id(u) == torch._C._storage_id(t)])
            for k, t in zip(names, ts, strict=True)]


def test_columns_take_only_the_names_nothing_else_holds() -> None:
    ns = mixed()
    plan = moves.plan_move("meta", ns)
    assert plan.loose is not None and plan.loose.names == NAMES  # selection order
    assert all(e.unit not in NAMES for e in plan.entries)


@pytest.mark.parametrize("names", [None, ["c", "model", "x", "a", "listed", "box", "on_meta"]])
def test_the_report_is_the_general_walks_in_the_same_order(monkeypatch: Any,
                                                            names: list[str] | None) -> None:
    movable = [n for n in (names or mixed()) if n != "box" and n[0] != "_"]
    dry = moves.move_all("meta", mixed(True), names=names, dry_run=True)
    dry_movable = moves.move_all("meta", mixed(True), names=movable, dry_run=True)
    general(monkeypatch)
    assert moves.plan_move("meta", mixed()).loose is None
    assert dry == moves.move_all("meta", mixed(True), names=names, dry_run=True)
    assert dry_movable == moves.move_all("meta", mixed(True), names=movable, dry_run=True)
    assert not dry.ok and dry.refused[0][0] == "box"  # its Loud tensor
    assert dry.notes == ("on_meta is shared with a refused object and stayed where it was.",)
    # NB: a storage's names come together, where its first one is (x, then its views)
    order = (["model", "a", "x", "view", "det", "col", "b", "c", "lst", "g", "state", "d",
              "leaf", "wide", "e", "f", "opt"] if names is None
             else ["model", "c", "x", "a", "listed", "opt"])
    assert dry_movable.ok and [m.path for m in dry_movable.moved] == order


def test_the_report_rows_read_as_the_tuple_of_the_general_walk(monkeypatch: Any) -> None:
    """The rows of a column move are made as they are read (a million loose names would keep
    a million row tuples at the move's peak): every index, negative index and slice reads what
    the general walk's tuple holds there."""
    rows = moves.move_all("meta", mixed(), dry_run=True).moved
    general(monkeypatch)
    walked = moves.move_all("meta", mixed(), dry_run=True).moved
    assert type(walked) is tuple and type(rows) is not tuple
    assert len(rows) == len(walked) == 17 and tuple(rows) == walked and rows == walked
    assert [rows[i] for i in range(-17, 17)] == [*walked, *walked]
    for sl in (slice(None, 3), slice(2, 9), slice(5, None), slice(None, None, 2),
               slice(-4, None), slice(9, 2)):
        assert rows[sl] == walked[sl], sl
    assert hash(rows) == hash(walked)
    column = [m.path for m in walked].index("a")
    assert rows[column] == walked[column] and rows[column] is not rows[column]  # made as read
    with pytest.raises(IndexError):
        rows[17]


def test_a_column_move_keeps_what_the_general_walk_keeps(monkeypatch: Any) -> None:
    ns = mixed()
    report = moves.move_all("meta", ns)
    general(monkeypatch)
    walked_ns = mixed()
    walked = moves.move_all("meta", walked_ns)
    assert report.ok and report == walked
    assert relations(ns) == relations(walked_ns)
    assert ns["lst"][0] is ns["listed"] and ns["g"] is ns["model"][0].weight.grad
    assert ns["view"]._base is ns["x"] and ns["a"].device.type == "meta"
    assert ns["_private"].device.type == "cpu"  # never selected


def test_cpu_to_cpu_moves_nothing_and_walks_no_plain_name() -> None:
    ns = {f"t{i}": torch.ones(2) for i in range(50)}
    plan = moves.plan_move("cpu", ns)
    assert plan.loose is None and plan.entries == [] and plan.anchors == []
    assert moves.move_all("cpu", ns).moved == ()


def test_out_of_memory_at_every_allocation_changes_nothing() -> None:
    counter = FailAt(0)
    ns = mixed()
    with counter:
        assert moves.move_all("meta", ns, names=NAMES).ok
    assert counter.n >= len(NAMES)
    for k in range(1, counter.n + 1):
        ns = mixed()
        before = fingerprint(ns)
        with FailAt(k):
            report = moves.move_all("meta", ns, names=NAMES)
        assert (report.ok, report.moved) == (False, ()), k
        assert report.error.startswith("out of memory on meta while moving "), report.error
        assert report.error.split()[7].rstrip(":") in NAMES
        assert_same(before, fingerprint(ns))


def test_a_rebind_that_fails_half_way_is_undone(monkeypatch: Any) -> None:
    real = _moveapply.rebind
    calls = []

    def half(ns: dict[str, Any], names: list[str], values: list[Any]) -> None:
        calls.append(names)
        if len(calls) == 1:
            real(ns, names[:3], values[:3])
            raise RuntimeError("injected rebind failure")
        real(ns, names, values)

    ns = mixed()
    before = fingerprint(ns)
    monkeypatch.setattr(_moveapply, "rebind", half)
    report = moves.move_all("meta", ns)
    assert (report.ok, report.error) == (
        False, "the move failed and everything was restored: RuntimeError: injected rebind "
               "failure")
    assert len(calls) == 2  # the rebind, then its undo
    assert_same(before, fingerprint(ns))


def test_a_name_rebound_after_planning_makes_the_plan_stale() -> None:
    ns = mixed()
    plan = moves.plan_move("meta", ns, names=NAMES)
    ns["c"] = torch.zeros(1)
    before = fingerprint(ns)
    report = moves.apply_plan(plan)
    assert (report.ok, report.error) == (
        False, "c was changed or deleted after the move was planned; nothing was moved")
    assert_same(before, fingerprint(ns))


def test_progress_reaches_the_total_in_at_most_about_a_thousand_steps() -> None:
    ns = {f"t{i}": torch.ones(i % 7 + 1) for i in range(5_000)}
    seen: list[tuple[int, int]] = []
    report = moves.move_all("meta", ns, progress=lambda d, t: seen.append((d, t)))
    total = sum(4 * (i % 7 + 1) for i in range(5_000))
    assert report.ok and seen[0] == (0, total) and seen[-1] == (total, total)
    assert len(seen) <= 1_030 and [d for d, _ in seen] == sorted(d for d, _ in seen)


class Guarded(dict):  # type: ignore[type-arg]
    """A namespace whose own item methods are user code that must not run."""

    def __getitem__(self, key: Any) -> Any:
        raise AssertionError("user __getitem__ ran")

    def __setitem__(self, key: Any, value: Any) -> None:
        raise AssertionError("user __setitem__ ran")

    def get(self, key: Any, default: Any = None) -> Any:
        raise AssertionError("user get ran")

    def update(self, *args: Any, **kw: Any) -> None:
        raise AssertionError("user update ran")


def test_columns_run_no_method_of_a_namespace_subclass() -> None:
    ns = Guarded({f"t{i}": torch.ones(2) for i in range(20)})
    assert moves.plan_move("meta", ns).loose is not None
    report = moves.move_all("meta", ns)
    assert report.ok and {dict.__getitem__(ns, k).device.type for k in ns} == {"meta"}


def test_a_dry_run_leaves_nothing_on_the_tensors() -> None:
    """NB: reading a storage through ``untyped_storage()`` would leave a Python storage object
    on each tensor's storage for as long as it lives."""
    ns = {f"t{i}": torch.ones(2) for i in range(2_000)}
    moves.move_all("meta", {"w": torch.ones(2)}, dry_run=True)  # imports, first-call caches
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    report = moves.move_all("meta", ns, dry_run=True)
    assert report.ok and len(report.moved) == 2_000
    del report
    kept = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert kept < 2_000 * 8, kept
