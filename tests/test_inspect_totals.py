"""The totals a live snapshot keeps object by object (:mod:`devicelens.inspect._totals`): after
any sequence of objects added, removed and replaced (only the tensors that differ are
counted again), small and big, sharing storages or not, they equal a fresh count of the
objects present.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from devicelens.inspect._totals import RunningTotals, Share
from devicelens.inspect.records import DeviceTotal

DEVICES = ("cpu", "cuda:0", "meta")
#: a storage always lives on one device; several objects may reach it, at several extents
STORAGES = {s: DEVICES[s % 3] for s in range(400)}


def fresh(shares: list[Share]) -> tuple[DeviceTotal, ...]:
    """The totals counted from scratch: each storage once, at its largest extent."""
    objs: Counter[str] = Counter(d for s in shares for d in s.devices)
    count: Counter[str] = Counter(dev for s in shares for dev, _st, _n in s.tensors)
    extent: dict[int, int] = {}
    for s in shares:
        for _dev, storage, n in s.tensors:
            extent[storage] = max(extent.get(storage, 0), n)
    nbytes: Counter[str] = Counter()
    for storage, n in extent.items():
        nbytes[STORAGES[storage]] += n
    order = {d: i for i, d in enumerate(DEVICES)}
    return tuple(DeviceTotal(d, objs.get(d, 0), c, nbytes.get(d, 0))
                 for d, c in sorted(count.items(), key=lambda kv: order[kv[0]]) if c > 0)


@st.composite
def shares(draw: Any) -> Share:
    """An object, small or big: its storages mostly its own (a range of fresh ones), sometimes
    shared with others, at one of two extents."""
    size = draw(st.sampled_from([1, 3, 65, 192]))
    start = draw(st.integers(0, 400 - size))
    storages = list(range(start, start + size))
    if draw(st.booleans()):  # NB: a repeat inside one object (a view of its own tensor)
        storages[-1] = storages[0]
    tensors = tuple((STORAGES[s], s, draw(st.sampled_from([4, 8])) if s % 5 == 0 else 4)
                    for s in storages)
    return Share(tuple(sorted({d for d, _s, _n in tensors})), tensors)


def moved(share: Share, shift: int, every: int) -> Share:
    """``share`` with every ``every``-th tensor at another storage (its grads replaced, say)."""
    tensors = tuple((STORAGES[(s + shift) % 400], (s + shift) % 400, n) if i % every == 0
                    else (d, s, n) for i, (d, s, n) in enumerate(share.tensors))
    return Share(tuple(sorted({d for d, _s, _n in tensors})), tensors)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.lists(st.tuples(st.sampled_from(["add", "remove", "replace"]), shares(),
                          st.integers(0, 10), st.integers(1, 399), st.integers(1, 3)),
                max_size=25))
def test_running_totals_equal_a_fresh_count(steps: list[tuple[str, Share, int, int, int]]
                                            ) -> None:
    totals = RunningTotals()
    present: list[Share] = []
    for op, share, pick, shift, every in steps:
        if op == "add" or not present:
            totals.add(share)
            present.append(share)
        elif op == "remove":
            totals.remove(present.pop(pick % len(present)))
        else:
            i = pick % len(present)
            new = moved(present[i], shift, every)
            totals.replace([(present[i], new)])
            present[i] = new
        assert totals.result() == fresh(present)


def test_a_storage_shared_by_two_objects_moves_device_with_both() -> None:
    """``Module.to("meta")`` moves a parameter in place (same object, same storage key) that a
    second object reaches too: both records change, and the storage's bytes go to meta."""
    model = Share(("cpu",), (("cpu", 1, 16), ("cpu", 2, 8)))
    box = Share(("cpu",), (("cpu", 1, 16),))
    totals = RunningTotals()
    totals.add(model)
    totals.add(box)
    model2 = Share(("meta",), (("meta", 1, 16), ("meta", 2, 8)))
    box2 = Share(("meta",), (("meta", 1, 16),))
    totals.replace([(model, model2), (box, box2)])
    assert totals.result() == (DeviceTotal("meta", 2, 3, 24),)
