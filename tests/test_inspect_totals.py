"""The totals a live snapshot keeps object by object (:mod:`devicelens.inspect._totals`): after
any sequence of objects added, removed and replaced (only the tensors that differ are
counted again), small and big, sharing storages or not, they equal a fresh count of the
objects present.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from devicelens.inspect._totals import RunningTotals, Share, entries, share_of
from devicelens.inspect.records import DeviceTotal, ObjectRecord, TensorRecord

DEVICES = ("cpu", "cuda:0", "meta")
#: a storage always lives on one device; several objects may reach it, at several extents.
#: Objects are drawn over the first 400; a rename moves a storage by a multiple of 3 (the same
#: device), often to one no object holds yet (new grads after a training step)
STORAGES = {s: DEVICES[s % 3] for s in range(400)}


def fresh(shares: list[Share]) -> tuple[DeviceTotal, ...]:
    """The totals counted from scratch: each storage once, at its largest extent."""
    objs: Counter[str] = Counter(d for s in shares for d in s.devices)
    count: Counter[str] = Counter(dev for s in shares for dev, _st, _n in entries(s))
    extent: dict[int, int] = {}
    for s in shares:
        for _dev, storage, n in entries(s):
            extent[storage] = max(extent.get(storage, 0), n)
    nbytes: Counter[str] = Counter()
    for storage, n in extent.items():
        nbytes[DEVICES[storage % 3]] += n
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


def renamed(share: Share, shift: int, every: int) -> Share:
    """``share`` with every ``every``-th tensor at a storage ``3 * shift`` further on (the same
    device and extent): new tensors in the old ones' places."""
    return Share(share.devices, tuple((d, s + 3 * shift, n) if i % every == 0 else (d, s, n)
                                      for i, (d, s, n) in enumerate(share.tensors)))


def swapped(share: Share, shift: int, every: int) -> Share:
    """``share`` with every ``every``-th tensor a new one of another extent, at a storage
    ``3 * shift`` further on (a cell rebinding names to tensors of another dtype)."""
    return Share(share.devices, tuple((d, s + 3 * shift, 12 - n) if i % every == 0
                                      else (d, s, n) for i, (d, s, n) in enumerate(share.tensors)))


CHANGES = {"replace": moved, "rename": renamed, "rename2": renamed, "swap": swapped,
           "swap2": swapped}


def _record(dev: str, storage: int, n: int) -> TensorRecord:
    return TensorRecord(f"m.t{storage}", (), "grad", "m", dev, "float32", (n // 4,), n // 4, n,
                        False, True, "strided", "dense", storage)


def backed(share: Share, old: Share | None = None, rewalk: bool = False) -> Share:
    """``share`` as a walked object's: its records (from :func:`share_of`). Where ``old`` is
    one, its records are kept, as the very objects, wherever the entry is the same (a
    training step's records: only the grads' are new); ``rewalk``: every record new."""
    ts = list(map(_record, *zip(*share.tensors, strict=True))) if share.tensors else []
    if old is not None and old.records and not rewalk:
        olds = old.tensors
        ts = [olds[i] if i < len(olds) and (olds[i].device, olds[i].storage, olds[i].nbytes)
              == entry else t for i, (t, entry) in enumerate(zip(ts, share.tensors,
                                                                 strict=True))]
    got = share_of(ObjectRecord("m", "module", "M", tuple(ts), (), share.devices))
    assert got.records and list(entries(got)) == list(share.tensors)
    return got


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(st.lists(st.tuples(st.sampled_from(["add", "remove", *CHANGES]),
                          shares(), st.integers(0, 10), st.integers(1, 399),
                          st.integers(1, 3), st.sampled_from(["entries", "records", "rewalk"])),
                max_size=25))
def test_running_totals_equal_a_fresh_count(
        steps: list[tuple[str, Share, int, int, int, str]]) -> None:
    """``rename2``/``swap2``: two objects changed at once (a model's grads and its optimizer's
    view of them; two names rebound). Shares as entries (a compact row's) or as records (a
    walked object's: after a change, its unchanged records the very same objects, or, after a
    ``rewalk``, every one new), mixed."""
    totals = RunningTotals()
    present: list[Share] = []
    for op, share, pick, shift, every, kind in steps:
        if op == "add" or not present:
            share = share if kind == "entries" else backed(share)
            totals.add(share)
            present.append(share)
        elif op == "remove":
            totals.remove(present.pop(pick % len(present)))
        else:
            picks = sorted({pick % len(present), (pick + 1) % len(present)}
                           if op.endswith("2") else {pick % len(present)})
            change = CHANGES[op]
            pairs = []
            for i in picks:
                old = present[i]
                new = change(Share(old.devices, tuple(entries(old))), shift, every)
                pairs.append((old, new if kind == "entries" else backed(
                    new, old, rewalk=kind == "rewalk")))
            totals.replace(pairs)
            for i, (_old, new) in zip(picks, pairs, strict=True):
                present[i] = new
        assert totals.result() == fresh(present)
    at_once = RunningTotals()  # NB: a first snapshot's shares, added all at once
    at_once.add_all(present)
    assert at_once.result() == fresh(present)


def test_compact_rows_shares_read_from_the_columns_are_their_records_shares() -> None:
    """A first update takes the compact rows' shares from the columns, without their records."""
    import torch

    from devicelens.inspect import take_snapshot
    from devicelens.inspect._totals import loose_share, loose_shares

    x = torch.zeros(3, 2)
    ns = {"x": x, "alias": x, "scalar": torch.tensor(2.5, dtype=torch.float64),
          "flags": torch.ones(5, dtype=torch.bool), "z": torch.zeros(2, dtype=torch.complex64),
          "half": torch.ones(7, dtype=torch.bfloat16), "empty": torch.empty(0, 4),
          "big": torch.empty(2**20, 3, device="meta"), "ids": torch.arange(9),
          "q": torch.quantize_per_tensor(torch.ones(4), 0.1, 0, torch.qint8)}
    loose = take_snapshot(ns)._loose
    assert {"x", "alias", "scalar", "big", "q"} <= set(loose.names)
    got = loose_shares(loose)
    assert got == [loose_share(loose.record(i)) for i in range(len(loose))]
    assert got[loose.names.index("big")].tensors == (("meta", id(ns["big"]), 2**20 * 3 * 4),)
    at_once, one_by_one = RunningTotals(), RunningTotals()
    at_once.add_all(got)
    for share in got:
        one_by_one.add(share)
    assert at_once.result() == one_by_one.result()
    assert [(t.device, t.objects, t.tensors) for t in at_once.result()] == [
        ("cpu", 9, 9), ("meta", 1, 1)]


def test_storages_renamed_in_two_objects_move_their_entries_and_keep_the_totals() -> None:
    """A training step: every grad a new tensor with the old one's header, seen in the model
    and in its optimizer. Renamed where nothing else holds the old storages or the new."""
    model = Share(("cpu",), (("cpu", 1, 16), ("cpu", 2, 8), ("cpu", 3, 4)))
    opt = Share(("cpu",), (("cpu", 2, 8), ("cpu", 3, 4)))
    totals = RunningTotals()
    totals.add(model)
    totals.add(opt)
    before = totals.result()
    model2 = Share(("cpu",), (("cpu", 1, 16), ("cpu", 20, 8), ("cpu", 30, 4)))
    opt2 = Share(("cpu",), (("cpu", 20, 8), ("cpu", 30, 4)))
    totals.replace([(model, model2), (opt, opt2)])
    assert totals.result() == before
    assert totals.extents == {1: 16, 20: {8: 2}, 30: {4: 2}}  # NB: seen once: just its bytes
    assert {s: totals.home_of(s) for s in totals.extents} == dict.fromkeys((1, 20, 30), "cpu")
    assert totals.home == {}  # NB: every storage on the first device seen: none kept
    model3 = Share(("cpu",), (("cpu", 1, 16), ("cpu", 30, 8), ("cpu", 20, 4)))
    opt3 = Share(("cpu",), (("cpu", 30, 8), ("cpu", 20, 4)))
    totals.replace([(model2, model3), (opt2, opt3)])  # NB: new grads at each other's addresses
    assert totals.result() == before
    assert totals.extents == {1: 16, 30: {8: 2}, 20: {4: 2}}
    totals.replace([(model3, model)])  # NB: 20 and 30 stay in opt3: counted one by one
    assert totals.extents == {1: 16, 2: 8, 3: 4, 30: 8, 20: 4}
    assert totals.result() == (DeviceTotal("cpu", 2, 5, 16 + 2 * (8 + 4)),)


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


def _one_by_one(totals: RunningTotals, pairs: list[tuple[Share, Share]]) -> RunningTotals:
    """What ``replace`` must equal: every old share removed, then every new one added."""
    out = copy.deepcopy(totals)
    for old, _new in pairs:
        out.remove(old)
    for _old, new in pairs:
        out.add(new)
    return out


CPU, META = ("cpu",), ("meta",)
#: storages as in :data:`STORAGES` (a cpu one is a multiple of 3)
RENAMES = {
    "two storages to one": ([Share(CPU, (("cpu", 3, 4), ("cpu", 6, 4)))],
                            [Share(CPU, (("cpu", 15, 4), ("cpu", 15, 4)))]),
    "one storage to two": ([Share(CPU, (("cpu", 3, 4), ("cpu", 3, 4)))],
                           [Share(CPU, (("cpu", 15, 4), ("cpu", 18, 4)))]),
    # NB: one storage seen on two devices, its home the second's: kept by the one-by-one path
    "a new storage another object holds": (
        [Share(CPU, (("cpu", 3, 4),)), Share(CPU, (("cpu", 6, 4),))],
        [Share(CPU, (("cpu", 6, 4),)), Share(CPU, (("cpu", 6, 4),))]),
    "sightings on two devices": ([Share(META, (("meta", 1, 4),)), Share(CPU, (("cpu", 1, 4),))],
                                 [Share(META, (("meta", 5, 4),)), Share(CPU, (("cpu", 5, 4),))]),
}


@pytest.mark.parametrize("case", sorted(RENAMES))
def test_what_is_no_plain_rename_is_counted_one_by_one(case: str) -> None:
    olds, news = RENAMES[case]
    totals = RunningTotals()
    for share in olds:
        totals.add(share)
    pairs = list(zip(olds, news, strict=True))[::-1]  # NB: the cpu sighting re-added first
    want = _one_by_one(totals, pairs)
    totals.replace(pairs)
    assert (totals.result(), totals.extents, totals.home) == (
        want.result(), want.extents, want.home)
    if case != "sightings on two devices":
        assert totals.result() == fresh(news)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.lists(shares(), max_size=8))
def test_a_first_snapshots_totals_equal_a_fresh_count(present: list[Share]) -> None:
    """The one-shot count of a first snapshot (:class:`devicelens.inspect._count.Totals`):
    storages reached by several objects, at one extent or two (a view and its base), each
    counted once at its largest."""
    from devicelens.inspect._count import Totals

    totals = Totals()
    for share in present:
        totals.add(share.devices, list(map(_record, *zip(*share.tensors, strict=True))))
    assert totals.result() == fresh(present)


def test_only_a_storage_off_the_first_device_seen_keeps_its_device() -> None:
    """A big namespace's storages mostly share one device: only the others keep an entry in
    ``home`` (a second dict entry per storage was a fifth of what its panel kept), and bytes
    still go where each storage lives, through sightings added, seen twice and removed."""
    cpu = Share(("cpu",), (("cpu", 3, 16), ("cpu", 6, 8)))
    meta = Share(("meta",), (("meta", 2, 4), ("meta", 5, 4)))
    both = Share(("cpu", "meta"), (("cpu", 6, 8), ("meta", 5, 4)))
    totals = RunningTotals()
    for share in (cpu, meta, both):
        totals.add(share)
    assert totals.home == {2: "meta", 5: "meta"}
    assert [totals.home_of(s) for s in (3, 6, 2, 5)] == ["cpu", "cpu", "meta", "meta"]
    assert totals.result() == fresh([cpu, meta, both])
    totals.remove(meta)
    assert totals.home == {5: "meta"} and totals.result() == fresh([cpu, both])
    totals.remove(both)
    totals.remove(cpu)
    assert (totals.home, totals.extents, totals.result()) == ({}, {}, ())
    # NB: a rename of a storage never seen is no rename (nothing to move), on the default device
    assert totals.default == "cpu" and not totals._renamed([("cpu", 99, 4)], [("cpu", 98, 4)])
