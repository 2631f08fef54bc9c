"""A training step (``zero_grad(set_to_none=True)``, ``backward``, ``step``) makes every grad a
new tensor with the very header of the one before, and changes nothing else a record reads.
The live snapshot then moves those grads' records to their new storages instead of walking the
model and its optimizer again (:class:`devicelens.inspect._tensor_list.Regrad`); anything more
(another dtype, a view, a grad shared, one gone) is walked. Either way it equals a fresh one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn

from devicelens.inspect import _forest_watch, _live, _tensor_list, take_snapshot
from devicelens.inspect._live import Live
from devicelens.inspect._walk import Ctx
from devicelens.inspect.records import ObjectRecord, TensorRecord, grads_moved, owned_grads


def namespace() -> dict[str, Any]:
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 3), nn.Linear(3, 3))
    opt = torch.optim.Adam(model.parameters())
    ns = {"model": model, "opt": opt, "x": torch.zeros(4, 2)}
    step(ns)
    return ns


def step(ns: dict[str, Any]) -> None:
    ns["opt"].zero_grad()
    ns["model"](ns["x"]).sum().backward()
    ns["opt"].step()


def _walks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    names: list[str] = []
    real = _live.walk_object

    def counted(ctx: Ctx, name: str, obj: Any, *rest: Any) -> Any:
        names.append(name)
        return real(ctx, name, obj, *rest)

    monkeypatch.setattr(_live, "walk_object", counted)
    return names


def _ready(ns: dict[str, Any]) -> Live:
    live = Live()
    live.update(ns)
    live.update(ns)
    return live


def test_a_training_step_moves_the_grads_without_a_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    ns = namespace()
    live = _ready(ns)
    walks = _walks(monkeypatch)
    before = {p.grad for p in ns["model"].parameters()}
    step(ns)
    assert not before & {p.grad for p in ns["model"].parameters()}  # NB: every grad is new
    update = live.update(ns)
    assert walks == []
    assert update.changed == set(update.regraded) == {"model", "opt"}
    assert update.snapshot.objects == take_snapshot(ns).objects  # NB: storages included
    assert update.snapshot.totals == take_snapshot(ns).totals
    again = live.update(ns)
    assert again.changed == frozenset() and walks == []


def test_the_grads_places_are_found_once_across_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each step's records have their grads where the last step's had them: where they are is
    found once per name, and a name walked again (its layout changed) has them found anew."""
    ns = namespace()
    live = _ready(ns)
    found: list[int] = []
    real = _live.owned_grads

    def counted(o: ObjectRecord) -> list[int]:
        found.append(len(o.tensors))
        return real(o)

    monkeypatch.setattr(_live, "owned_grads", counted)
    for _ in range(3):
        step(ns)
        update = live.update(ns)
        assert update.changed == set(update.regraded) == {"model", "opt"}
        assert update.snapshot.objects == take_snapshot(ns).objects
        assert update.snapshot.totals == take_snapshot(ns).totals
    assert found == [12, 30]  # NB: the model's and the optimizer's, at the first step only
    ns["model"][1] = nn.Linear(3, 3)  # NB: a walk: the model's records have a new layout
    ns["model"](ns["x"]).sum().backward()
    live.update(ns)
    for _ in range(2):
        step(ns)
        update = live.update(ns)
        assert update.snapshot.objects == take_snapshot(ns).objects
        assert update.snapshot.totals == take_snapshot(ns).totals
    # NB: the model's 6 parameters and grads, the optimizer's 6 parameters, grads and 18
    # states; then the model's again, now with the new layer's 2 parameters and grads (the
    # optimizer's record read the same: its places stand)
    assert found == [12, 30, 16]


def _header_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many grads' headers are read whole, call by call."""
    reads: list[int] = []
    real = _tensor_list._grad_metas

    def counted(ctx: Ctx, grads: list[Any]) -> Any:
        reads.append(len(grads))
        return real(ctx, grads)

    monkeypatch.setattr(_tensor_list, "_grad_metas", counted)
    return reads


def test_a_steps_new_grads_are_proven_by_the_last_ones_guard(monkeypatch: pytest.MonkeyPatch,
                                                            ) -> None:
    """The guard compares values, not objects: the new grads, with the very headers of the old
    ones, are proven by the old grads' guard, and no header is read."""
    ns = namespace()
    live = _ready(ns)
    reads = _header_reads(monkeypatch)
    for _ in range(2):
        step(ns)
        update = live.update(ns)
        assert update.changed == set(update.regraded) == {"model", "opt"}
        assert update.snapshot.objects == take_snapshot(ns).objects
    assert reads == []


def test_new_grads_with_other_strides_are_read_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Grads of the same shape, dtype and device but other strides fail the guard (it compares
    strides): their headers are read, which a record does not keep, so the grads only moved;
    the next step's plain grads fail the new guard the same way, and every update equals a
    fresh snapshot."""
    ns = namespace()
    live = _ready(ns)
    reads = _header_reads(monkeypatch)
    w = ns["model"][0].weight
    assert w.shape == (3, 2)
    w.grad = torch.empty_strided((3, 2), (1, 3))
    assert w.grad.stride() != (2, 1) and w.grad._base is None
    update = live.update(ns)
    assert "model" in update.regraded
    assert update.snapshot.objects == take_snapshot(ns).objects
    assert update.snapshot.totals == take_snapshot(ns).totals
    assert reads == [6]  # NB: the model's grads, once: the optimizer's come from the forest
    step(ns)
    update = live.update(ns)
    assert update.changed == set(update.regraded) == {"model", "opt"}
    assert update.snapshot.objects == take_snapshot(ns).objects
    assert reads == [6, 6]


def _swap_grads(ns: dict[str, Any]) -> None:
    """Two grads trade places (each moves to the other's storage), a third is made anew."""
    w2, w3 = ns["model"][2].weight, ns["model"][3].weight
    w2.grad, w3.grad = w3.grad, w2.grad
    ns["model"][0].bias.grad = torch.zeros(3)  # NB: its old grad is freed: its id may return


REGRADS: dict[str, Callable[[dict[str, Any]], None]] = {
    "two grads swapped, one made anew": _swap_grads,
    "a grad kept by a name of its own": lambda ns: (
        ns.__setitem__("g", ns["model"][0].weight.grad), step(ns)),
}


@pytest.mark.parametrize("change", sorted(REGRADS))
def test_grads_replaced_in_other_ways_equal_a_fresh_snapshot(change: str) -> None:
    ns = namespace()
    live = _ready(ns)
    REGRADS[change](ns)
    update = live.update(ns)
    assert update.regraded and set(update.regraded) <= {"model", "opt"}  # NB: never a loose name
    assert update.snapshot.objects == take_snapshot(ns).objects
    assert update.snapshot.totals == take_snapshot(ns).totals


def _grad_of(ns: dict[str, Any], make: Callable[[torch.Tensor], torch.Tensor]) -> None:
    w = ns["model"][0].weight
    w.grad = make(w)


WALKED: dict[str, Callable[[dict[str, Any]], None]] = {
    "a grad of another dtype": lambda ns: (
        setattr(ns["model"][0].weight, "grad_dtype", None),
        _grad_of(ns, lambda w: torch.zeros(w.shape, dtype=torch.float64))),
    "a grad that is a view": lambda ns: _grad_of(
        ns, lambda w: torch.zeros(w.numel() + 1)[1:].view(w.shape)),
    "two parameters given one grad": lambda ns: setattr(
        ns["model"][3].weight, "grad", ns["model"][2].weight.grad),
    "a grad gone": lambda ns: setattr(ns["model"][2].bias, "grad", None),
}


@pytest.mark.parametrize("change", sorted(WALKED))
def test_what_is_no_mere_regrad_is_walked(change: str, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    ns = namespace()
    live = _ready(ns)
    walks = _walks(monkeypatch)
    WALKED[change](ns)
    update = live.update(ns)
    assert "model" in walks
    assert "model" in (update.changed or ()) and "model" not in update.regraded
    assert update.snapshot.objects == take_snapshot(ns).objects
    assert update.snapshot.totals == take_snapshot(ns).totals


def test_after_a_regrad_old_tokens_never_vouch_for_the_moved_records(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The tokens read before the step hold the old grads' ids. Put the old grads back while
    the watch cannot answer: an old token would then read equal and keep records that point
    at the new grads."""
    ns = namespace()
    live = _ready(ns)
    old = [p.grad for p in ns["model"].parameters()]
    step(ns)
    live.update(ns)  # NB: the grads moved, no walk
    for p, g in zip(ns["model"].parameters(), old, strict=True):
        p.grad = g
    monkeypatch.setattr(_forest_watch.ForestWatch, "same", lambda *_a: False)
    update = live.update(ns)
    assert update.snapshot.objects == take_snapshot(ns).objects


def test_an_old_grad_kept_as_an_attribute_stays_where_it_is() -> None:
    """Only grads' records move: a module attribute holding the old grad still holds it."""
    ns = namespace()
    ns["model"][0].__dict__["kept"] = ns["model"][0].weight.grad
    live = _ready(ns)
    step(ns)
    update = live.update(ns)
    assert update.snapshot.objects == take_snapshot(ns).objects
    assert update.snapshot.totals == take_snapshot(ns).totals


def test_an_attribute_sharing_a_parameters_old_grad_keeps_it() -> None:
    """An attribute tensor whose grad is the parameter's grad object: the step gives the
    parameter a new grad, and the attribute keeps the old one (its record must not move)."""
    ns = namespace()
    w = ns["model"][0].weight
    shadow = torch.zeros(w.shape, requires_grad=True)
    shadow.grad = w.grad
    ns["model"][0].__dict__["shadow"] = shadow
    live = _ready(ns)
    step(ns)
    assert shadow.grad is not w.grad
    update = live.update(ns)
    assert update.snapshot.objects == take_snapshot(ns).objects
    assert update.snapshot.totals == take_snapshot(ns).totals


_ROLES = ("parameter", "buffer", "opt_param", "grad", "state", "attribute", "trapped")


def _moved_by_rule(o: ObjectRecord, moved: dict[int, int]) -> ObjectRecord:
    """What :func:`grads_moved` states, record by record: a grad whose storage moved, owned by a
    parameter, buffer or optimizer parameter of ``o``, takes the new storage."""
    owners = {t.path for t in o.tensors if t.role in ("parameter", "buffer", "opt_param")}
    return o._replace(tensors=tuple(
        t._replace(storage=moved[t.storage])
        if t.role == "grad" and t.storage in moved and t.owner in owners else t
        for t in o.tensors))


@st.composite
def _records(draw: st.DrawFn) -> tuple[ObjectRecord, dict[int, int]]:
    paths = [f"m.{i}" for i in range(6)]
    tensors = tuple(
        TensorRecord(draw(st.sampled_from(paths)), (), draw(st.sampled_from(_ROLES)),
                     draw(st.sampled_from([*paths, "", "elsewhere"])), "cpu", "float32", (2,), 2,
                     8, False, True, "strided", "dense", draw(st.integers(0, 7)))
        for _ in range(draw(st.integers(0, 12))))
    moved = draw(st.dictionaries(st.integers(0, 9), st.integers(5, 12), max_size=6))
    return ObjectRecord("m", "module", "Sequential", tensors), moved


@settings(max_examples=400, deadline=None)
@given(_records(), st.dictionaries(st.integers(0, 12), st.integers(0, 12), max_size=6))
def test_grads_moved_moves_exactly_the_owned_grads(case: tuple[ObjectRecord, dict[int, int]],
                                                   then: dict[int, int]) -> None:
    """Against the rule written record by record, on records of every role, owners inside and
    outside the object, and storages shared across roles; the very record comes back where
    no grad's storage moved (the memo and the frame's caches key on it). A second step on the
    moved record, given the places found in the first (as the live snapshot keeps them),
    follows the rule too."""
    o, moved = case
    got = grads_moved(o, moved)
    want = _moved_by_rule(o, moved)
    assert got == want
    assert [type(t) for t in got.tensors] == [TensorRecord] * len(o.tensors)
    if not any(t.role == "grad" and t.storage in moved for t in o.tensors):
        assert got is o
    assert grads_moved(got, then, owned_grads(o)) == _moved_by_rule(want, then)
