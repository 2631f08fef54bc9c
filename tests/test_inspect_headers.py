"""The proof that plain tensors' headers are unchanged (:mod:`devicelens.inspect._headers`):
torch's guard, plus the view and leaf reads beside it, fails for every change a header can see,
holds for the changes it cannot (in-place ops, ``set_`` to an equal layout), never aborts the
process, and the sweep re-reads only the chunks it cannot prove.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable
from typing import Any, ClassVar

import pytest
import torch
from torch import nn

from devicelens.inspect import _headers, take_snapshot
from devicelens.inspect._live import Live
from devicelens.inspect._walk import _META
from tests.test_inspect_forest_watch import CHANGES, namespace


def _swap(t: torch.Tensor, other: torch.Tensor) -> None:
    torch.utils.swap_tensors(t, other)  # type: ignore[no-untyped-call]


def _non_leaf(t: torch.Tensor) -> None:
    w = torch.zeros(t.shape, requires_grad=True)
    _swap(t, w * 1)


SEEN: dict[str, Callable[[torch.Tensor], object]] = {
    "dtype by .data": lambda t: setattr(t, "data", t.data.double()),
    "shape by resize_": lambda t: t.resize_(3, 2),
    "rank by resize_": lambda t: t.resize_(6),
    "requires_grad_": lambda t: t.requires_grad_(),
    "device type (swap_tensors)": lambda t: _swap(t, torch.zeros(2, 3, device="meta")),
    "sparse (swap_tensors)": lambda t: _swap(t, torch.zeros(2, 3).to_sparse()),
    "sparse CSR (swap_tensors)": lambda t: _swap(t, torch.zeros(2, 3).to_sparse_csr()),
    "a view, same header (swap_tensors)": lambda t: _swap(t, torch.zeros(4, 3)[:2]),
    "a non-leaf (swap_tensors)": _non_leaf,
    "a Parameter (swap_tensors)": lambda t: _swap(t, nn.Parameter(torch.zeros(2, 3))),
}
UNSEEN: dict[str, Callable[[torch.Tensor], object]] = {
    "add_": lambda t: t.add_(1),
    "set_ to another storage": lambda t: t.set_(torch.ones(2, 3)),
    ".data to an equal header": lambda t: setattr(t, "data", torch.ones(2, 3)),
    "zero_ under no_grad": lambda t: t.zero_(),
}


def _guarded(n: int = 3, leaf: bool = True) -> tuple[list[torch.Tensor], _headers.Guard]:
    ts = [torch.zeros(2, 3) for _ in range(n)]
    g = _headers.guard(ts, leaf=leaf)
    assert g is not None
    return ts, g


@pytest.mark.parametrize("leaf", [True, False])
@pytest.mark.parametrize("change", sorted(SEEN))
def test_every_change_a_header_shows_fails_the_proof(change: str, leaf: bool) -> None:
    """Both kinds of guard: of parameters (leaves: ``is_leaf`` read too) and of loose tensors."""
    ts, g = _guarded(leaf=leaf)
    before = _META(ts[1])
    SEEN[change](ts[1])
    assert _META(ts[1]) != before  # NB: the change is real: the header reads differently
    assert not _headers.holds(g, ts)


@pytest.mark.parametrize("leaf", [True, False])
@pytest.mark.parametrize("change", sorted(UNSEEN))
def test_a_change_no_header_shows_keeps_the_proof(change: str, leaf: bool) -> None:
    ts, g = _guarded(leaf=leaf)
    before = _META(ts[1])
    UNSEEN[change](ts[1])
    assert _META(ts[1]) == before
    assert _headers.holds(g, ts)


def test_a_guard_of_leaves_fails_when_one_becomes_a_non_leaf_with_the_same_header() -> None:
    """Parameters' guards: a non-leaf that requires grad has the very header the guard checks
    (``requires_grad`` included); only ``is_leaf``, read beside it, tells them apart."""
    leaves = [torch.zeros(2, 3, requires_grad=True) for _ in range(3)]
    g = _headers.guard(leaves, leaf=True)
    assert g is not None and _headers.holds(g, leaves)
    w = torch.zeros(2, 3, requires_grad=True)
    _swap(leaves[1], w * 1)
    assert leaves[1].requires_grad and not leaves[1].is_leaf
    assert not _headers.holds(g, leaves)


def test_no_guard_where_it_cannot_prove() -> None:
    t = torch.zeros(2)
    assert _headers.guard([t, t]) is None  # NB: torch's guard fails a list holding one twice
    assert _headers.guard([torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)])]) is None


def test_a_nested_tensor_swapped_in_never_aborts_the_process() -> None:
    """torch's guard aborts on a tensor without sizes: the proof reads ``is_nested`` first. Run
    in a child process, so an abort fails this test instead of ending the run."""
    code = textwrap.dedent("""
        import torch
        from devicelens.inspect import _headers, take_snapshot
        from devicelens.inspect._live import Live
        ns = {f"t{i}": torch.zeros(2, 3) for i in range(600)}
        live = Live()
        live.update(ns)
        live.update(ns)
        nested = torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)])
        torch.utils.swap_tensors(ns["t300"], nested)
        csr = torch.zeros(2, 3).to_sparse_csr()
        torch.utils.swap_tensors(ns["t5"], csr)
        assert ns["t300"].is_nested
        assert live.update(ns).snapshot.objects == take_snapshot(ns).objects
        leaves = [torch.zeros(2, 3, requires_grad=True) for _ in range(3)]
        g = _headers.guard(leaves, leaf=True)  # NB: as of parameters
        torch.utils.swap_tensors(leaves[1], torch.nested.nested_tensor([torch.zeros(2)]))
        assert not _headers.holds(g, leaves)
        print("alive")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "alive"


def test_the_sweep_rereads_only_the_chunk_of_a_rebound_name() -> None:
    n = 3 * _headers.CHUNK + 7
    ts = [torch.zeros(2) for _ in range(n)]
    sweep = _headers.Sweep()
    first, fresh = sweep.read(ts, list(map(id, ts)), 0)
    assert fresh == [(0, 256), (256, 512), (512, 768), (768, n)]
    again, fresh = sweep.read(ts, list(map(id, ts)), n)
    assert fresh == [] and again == first
    k = _headers.CHUNK + 3
    ts[k] = torch.zeros(2, dtype=torch.float16)
    ts[n - 1].data = torch.zeros(4)  # NB: same object, new header, in the last (short) chunk
    metas, fresh = sweep.read(ts, list(map(id, ts)), n)
    assert fresh == [(256, 512), (768, n)]
    assert metas == _headers.sweep(ts)
    assert metas[k][1] is torch.float16 and metas[n - 1][2] == (4,)
    reused = [metas[i] is again[i] for i in range(n)]
    assert reused.count(False) == _headers.CHUNK + 7  # NB: exactly the chunks read again
    ts.append(torch.zeros(3))  # NB: a name added last keeps every whole chunk before it
    metas, fresh = sweep.read(ts, list(map(id, ts)), n)
    assert fresh == [(768, n + 1)] and metas == _headers.sweep(ts)
    metas, fresh = sweep.read(ts, list(map(id, ts)), n + 1)
    assert fresh == []
    ts[3] = torch.zeros(2)  # NB: another tensor with an equal header: still a change of name
    metas, fresh = sweep.read(ts, list(map(id, ts)), n + 1)
    assert fresh == [(0, 256)] and metas == _headers.sweep(ts)


def test_no_proof_is_kept_under_another_dispatch_state() -> None:
    """torch's guard applies the thread's dispatch state to what it compares; a proof is kept
    only under the state it was built in, even where the guard alone would still hold."""
    ts, g = _guarded()
    with torch.inference_mode():
        assert not _headers.holds(g, ts)
    sparse = torch._C.DispatchKeySet(torch._C.DispatchKey.SparseCPU)
    with torch._C._ExcludeDispatchKeyGuard(sparse):
        assert g.check.check(*ts) is True  # NB: a key none of them has
        assert not _headers.holds(g, ts)
    assert _headers.holds(g, ts)


@pytest.fixture
def no_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a torch without the guard (or one that failed the probe)."""
    monkeypatch.setattr(_headers, "_make", None)
    monkeypatch.setattr(_headers, "_probed", True)


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_without_the_guard_the_live_snapshot_still_equals_a_fresh_one(
        no_guard: None, change: str) -> None:
    ns: dict[str, Any] = namespace()
    ns.update({f"t{i}": torch.zeros(2) for i in range(300)})
    live = Live()
    live.update(ns)
    live.update(ns)
    assert live.watch.seen is not None and live.watch.seen.tables[0].tensors.guard is None
    assert set(live.sweep.guards) == {None}
    CHANGES[change](ns)
    ns["t7"].data = ns["t7"].data.half()
    assert live.update(ns).snapshot.objects == take_snapshot(ns).objects


def test_while_a_cell_runs_no_guard_is_trusted_or_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cell running on another thread could swap a nested tensor in between the proof's
    two checks (and torch's guard would then abort): a live read proves nothing by guard."""
    from devicelens.inspect import _tensor_list

    ns: dict[str, Any] = namespace()
    ns.update({f"t{i}": torch.zeros(2) for i in range(300)})
    live = Live()
    live.update(ns)
    live.update(ns)
    assert live.watch.seen is not None and live.watch.seen.tables[0].tensors.guard is not None
    assert None not in live.sweep.guards
    calls: list[int] = []

    def trusting(*_args: Any) -> bool:  # NB: a proof that would hide every change
        calls.append(1)
        return True

    monkeypatch.setattr(_headers, "holds", trusting)
    monkeypatch.setattr(_tensor_list, "holds", trusting)
    ns["t3"].data = ns["t3"].data.half()
    ns["head"].weight.data = ns["head"].weight.data.double()
    assert live.update(ns, live=True).snapshot.objects == take_snapshot(ns).objects
    assert calls == []
    assert set(live.sweep.guards) == {None}


class Spy(torch.Tensor):
    """A tensor class whose header answers in Python: reading it would run user code."""

    reads: ClassVar[list[str]] = []

    @property
    def is_nested(self) -> bool:  # type: ignore[override]
        Spy.reads.append("is_nested")
        return False

    @property
    def _base(self) -> Any:  # type: ignore[override]
        Spy.reads.append("_base")
        return None


@pytest.mark.parametrize("where", ["grad", "parameter", "loose"])
def test_a_tensor_whose_class_changed_is_never_read_through_the_proof(where: str) -> None:
    ns: dict[str, Any] = namespace()
    ns["t"] = torch.zeros(2)
    ns["head"].weight.grad = torch.zeros(1, 3)
    live = Live()
    live.update(ns)
    live.update(ns)
    assert live.watch.seen is not None and live.watch.seen.tables[0].tensors.grad_guard is not None
    target = {"grad": ns["head"].weight.grad, "parameter": ns["head"].bias,
              "loose": ns["t"]}[where]
    Spy.reads.clear()
    target.__class__ = Spy
    live.update(ns)
    assert Spy.reads == []
