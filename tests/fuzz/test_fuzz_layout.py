"""Fuzz: generated views of generated bases (slices with steps, transposes, ``expand``s,
``as_strided`` windows, ``diagonal``s), moved to meta or cast by a fix (issue 38 items 8 and 9).
Whatever the layout: every tensor keeps its shape and strides, tensors that shared a storage
still share one, views of a base that moves stay its views, a cast keeps the values, and a move
never copies more bytes than the storages it reads hold."""

from __future__ import annotations

import types
from typing import Any

import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from devicelens import moves
from devicelens.analysis import Action
from devicelens.inspect._tree import Step

from .checks import SCALE

VIEWS = ("slice", "transpose", "expand", "window", "diagonal", "same")


@st.composite
def layouts(draw: Any) -> tuple[list[int], list[tuple[str, int, int]], list[bool]]:
    """(base shape, views as (kind, a, b), which of them have names in the namespace)."""
    shape = draw(st.lists(st.integers(1, 5), min_size=1, max_size=3))
    views = draw(st.lists(st.tuples(st.sampled_from(VIEWS), st.integers(0, 7),
                                    st.integers(0, 7)), max_size=5))
    named = draw(st.lists(st.booleans(), min_size=len(views) + 1, max_size=len(views) + 1))
    return shape, views, named


def view(base: torch.Tensor, kind: str, a: int, b: int) -> torch.Tensor:
    n = base.numel()
    if kind == "slice" and base.dim():
        d = a % base.dim()
        return base.narrow(d, 0, max(1, base.shape[d] - b % 2))[(slice(None),) * d
                                                                 + (slice(None, None, 1 + b % 3),)]
    if kind == "transpose" and base.dim() > 1:
        return base.transpose(0, base.dim() - 1)
    if kind == "expand":
        return base.reshape(-1)[: 1 + a % n].unsqueeze(0).expand(2 + b % 4, 1 + a % n)
    if kind == "window":  # overlapping rows over the flat storage
        size = 1 + a % n
        rows = 1 + max(0, n - size) // (1 + b % 2)
        return base.reshape(-1).as_strided((rows, size), (1 + b % 2, 1))
    if kind == "diagonal" and base.dim() > 1:
        return base.diagonal(dim1=0, dim2=1)
    return base[...]


def build(shape: list[int], views: list[tuple[str, int, int]], named: list[bool],
          dtype: torch.dtype) -> dict[str, Any]:
    base = torch.arange(float(torch.Size(shape).numel()), dtype=dtype).reshape(shape).clone()
    made = [base] + [view(base, *v) for v in views]
    return {f"t{i}": t for i, t in enumerate(made) if named[i]}


def key(t: torch.Tensor) -> int:
    return int(t.untyped_storage()._cdata)


def check_layouts(old: dict[str, torch.Tensor], ns: dict[str, Any]) -> None:
    for k, t in old.items():
        new = ns[k]
        assert (tuple(new.shape), new.stride()) == (tuple(t.shape), t.stride()), k
        assert new.untyped_storage().nbytes() <= t.untyped_storage().nbytes() // (
            t.element_size()) * new.element_size(), k
    for a in old:  # NB: shared before, shared after; apart before, apart after
        for b in old:
            assert (key(old[a]) == key(old[b])) == (key(ns[a]) == key(ns[b])), (a, b)
    base = old.get("t0")
    for k, t in old.items():
        if base is not None and t._base is base:
            assert ns[k]._base is ns["t0"], k


@settings(max_examples=150 * SCALE, deadline=None, database=None, derandomize=SCALE == 1,
          suppress_health_check=list(HealthCheck))
@given(layout=layouts())
def test_a_move_keeps_every_layout(layout: Any) -> None:
    ns = build(*layout, dtype=torch.float32)
    if not ns:
        return
    old = dict(ns)
    read = sum({key(t): t.untyped_storage().nbytes() for t in old.values()}.values())
    dry = moves.move_all("meta", ns, dry_run=True)
    report = moves.move_all("meta", ns)
    assert report.ok and dry.bytes_by_device == report.bytes_by_device, report
    assert sum(report.bytes_by_device.values()) <= read  # never more than the storages hold
    assert all(t.device.type == "meta" for t in ns.values())
    check_layouts(old, ns)


@settings(max_examples=100 * SCALE, deadline=None, database=None, derandomize=SCALE == 1,
          suppress_health_check=list(HealthCheck))
@given(layout=layouts())
def test_a_cast_of_the_base_takes_its_views_and_keeps_the_values(layout: Any) -> None:
    shape, views, named = layout
    named[0] = True  # the base is what the fix names
    ns = build(shape, views, named, dtype=torch.float64)
    old = dict(ns)
    values = {k: t.clone() for k, t in old.items()}
    fix = types.SimpleNamespace(action=Action("to_dtype", ((Step("name", "t0"),),),
                                              dtype="float32"))
    report = moves.apply_plan(moves.plan_fixes([fix], ns))
    assert report.ok, report
    assert report.bytes_by_device == {"cpu": old["t0"].untyped_storage().nbytes() // 2}
    for k, t in ns.items():
        assert t.dtype == torch.float32 and torch.equal(t, values[k].float()), k
    check_layouts(old, ns)
