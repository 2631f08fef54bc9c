"""Per-device totals (objects, tensors, bytes), kept up to date object by object.

NB: each storage counts once, however many names reach it, with the largest extent seen of it;
a storage lives on one device, so which record saw that extent first never matters. Adding and
removing an object's contribution gives exactly the totals of a fresh count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import chain, compress, repeat
from operator import attrgetter, is_not, itemgetter, ne
from typing import Any, NamedTuple

from .records import DeviceTotal, Loose, LooseHeader, ObjectRecord, TensorRecord, device_key

_DEVICE, _STORAGE, _BYTES = itemgetter(0), itemgetter(1), itemgetter(2)
#: a TensorRecord's (device, storage, bytes): what a record-backed share's tensors count
_ENTRY = itemgetter(*map(TensorRecord._fields.index, ("device", "storage", "nbytes")))
_ROLE = attrgetter("role")
_DEVICES = itemgetter(0)  # of a Share

Entry = tuple[str, int, int]  # (device, storage, bytes)
_new = tuple.__new__  # NB: several times cheaper than a NamedTuple's generated __new__


class Share(NamedTuple):
    """What one object adds to the totals: its devices, and a (device, storage, bytes) per
    tensor, optimizer params aside. NB: a walked object's share holds its records themselves
    (``records``), read through :data:`_ENTRY`: a model's share then costs no tuple per
    tensor, and its records after a training step (only grads replaced, the other records
    the very same objects) differ where their identities do."""

    devices: tuple[str, ...]
    tensors: tuple[Any, ...]  # Entry each, or TensorRecord each where ``records``
    records: bool = False


def share_of(o: ObjectRecord) -> Share:
    ts = o.tensors
    if "opt_param" in map(_ROLE, ts):
        ts = tuple(compress(ts, map(ne, map(_ROLE, ts), repeat("opt_param"))))
    return _new(Share, (o.devices, ts, True))


def loose_share(o: ObjectRecord) -> Share:
    """:func:`share_of` a compact row's record (one tensor, never an optimizer's), as one
    entry: a big namespace keeps thousands of them, and no record."""
    t = o.tensors[0]
    return _new(Share, (o.devices, ((t.device, t.storage, t.nbytes),), False))


def header_share(h: LooseHeader) -> Share:
    """:func:`loose_share` of a compact row, from its header."""
    return _new(Share, ((h.device,), ((h.device, h.storage, h.nbytes),), False))


def loose_shares(loose: Loose) -> list[Share]:
    """:func:`loose_share` of every compact row, from its header: no record is built (a
    panel's first snapshot of 10k loose tensors reads no record of them). NB: at C speed."""
    heads = loose.headers()
    devices = list(map(_HEAD_DEVICE, heads))
    tensors = zip(zip(devices, map(_HEAD_STORAGE, heads), map(_HEAD_BYTES, heads), strict=True))
    return list(map(_new, repeat(Share), zip(zip(devices), tensors, [False] * len(devices),
                                               strict=True)))


_HEAD_DEVICE, _HEAD_STORAGE = attrgetter("device"), attrgetter("storage")  # of a LooseHeader
_HEAD_BYTES = attrgetter("nbytes")


def entries(s: Share) -> Iterable[Entry]:
    return map(_ENTRY, s.tensors) if s.records else s.tensors


def _at(s: Share, idx: list[int]) -> list[Entry]:
    got = map(s.tensors.__getitem__, idx)
    return list(map(_ENTRY, got) if s.records else got)


def _diff(old: Share, new: Share) -> tuple[list[Entry], list[Entry]]:
    """The entries that differ between two shares of as many tensors, place by place: the
    old ones and the new. NB: between two record-backed shares only where the records are
    not the very same objects (C speed)."""
    a, b = old.tensors, new.tensors
    if old.records and new.records:
        maybe = list(compress(range(len(a)), map(is_not, a, b)))
        ga, gb = _at(old, maybe), _at(new, maybe)
    else:
        ga, gb = list(entries(old)), list(entries(new))
    keep = list(map(ne, ga, gb))
    return list(compress(ga, keep)), list(compress(gb, keep))


def _sightings(extent: dict[int, int] | int) -> int:
    """How often a storage is seen, from its ``extents`` value."""
    return 1 if isinstance(extent, int) else sum(extent.values())


def _all_sightings(extents: list[dict[int, int] | int]) -> list[int]:
    """:func:`_sightings` of each, at C speed where every one is a dict (a training step's
    grads: each seen twice, in the model and in its optimizer)."""
    try:
        return list(map(sum, map(dict.values, extents)))  # type: ignore[arg-type]
    except TypeError:  # NB: some storage is seen once (its bytes, an int)
        return list(map(_sightings, extents))


class RunningTotals:
    """Totals under ``add``/``remove`` of object shares; :meth:`result` in O(devices)."""

    def __init__(self) -> None:
        self.objs: dict[str, int] = {}
        self.count: dict[str, int] = {}
        self.nbytes: dict[str, int] = {}
        # NB: storage -> {bytes seen: how often}, or just the bytes where it is seen once (most
        # storages: a one-entry dict per storage was most of what a big namespace's totals kept)
        self.extents: dict[int, dict[int, int] | int] = {}
        # NB: storage -> its device, only where that is not ``default`` (the first device any
        # storage was seen on): a second entry per storage was a fifth of what a big
        # namespace's panel kept, where most storages share one device
        self.home: dict[int, str] = {}
        self.default = ""  # NB: none yet

    def home_of(self, storage: int) -> str:
        """The device a storage's bytes are counted on."""
        return self.home.get(storage, self.default)

    def add(self, s: Share, sign: int = 1) -> None:
        objs = self.objs
        for dev in s.devices:
            objs[dev] = objs.get(dev, 0) + sign
        self._many(entries(s), sign)

    def add_all(self, shares: list[Share]) -> None:
        """:meth:`add` of each share: one pass over their devices, one loop over their entries."""
        objs = self.objs
        for dev, n in Counter(chain.from_iterable(map(_DEVICES, shares))).items():
            objs[dev] = objs.get(dev, 0) + n
        self._many(chain.from_iterable(map(entries, shares)), 1)

    def remove(self, s: Share) -> None:
        self.add(s, -1)

    def replace(self, pairs: list[tuple[Share, Share]]) -> None:
        """``remove`` every old share, then ``add`` every new one, touching only the tensors
        that differ where two line up (the same devices and as many tensors: a model whose
        grads were replaced). NB: every removal first: a storage shared by several objects can
        move to another device in place (``Module.to``), and its home is taken when it is seen
        anew, never while an old sighting of it is left."""
        gone: list[Entry] = []
        came: list[Entry] = []
        dropped: list[Share] = []
        added: list[Share] = []
        for old, new in pairs:
            a, b = old.tensors, new.tensors
            if old.devices != new.devices or len(a) != len(b):
                dropped.append(old)
                added.append(new)
            elif len(a) == 1 and not (old.records or new.records):  # NB: a compact row's
                if a[0] != b[0]:  # one entry, compared inline
                    gone.append(a[0])
                    came.append(b[0])
            else:
                d = _diff(old, new)
                gone += d[0]
                came += d[1]
        if not dropped and self._renamed(gone, came):
            return
        for old in dropped:
            self.remove(old)
        self._many(gone, -1)
        for new in added:
            self.add(new)
        self._many(came, 1)

    def _renamed(self, gone: list[Entry], came: list[Entry]) -> bool:
        """Where the sightings ``gone`` and ``came`` differ only in their storages, one to one,
        every sighting of each old storage goes, and each new storage is seen nowhere else:
        each storage's entry moves to its new key and the totals stay (a training step's new
        grads: two sightings each, in the model and in its optimizer, often at the addresses
        the old grads had). False, nothing changed, otherwise.
        NB: each storage's sightings come back with the same devices and extents, so every
        count, extent and home is as removing and adding them one by one would leave it."""
        devices = list(map(_DEVICE, gone))
        if devices != list(map(_DEVICE, came)) or list(map(_BYTES, gone)) != list(map(
                _BYTES, came)):
            return False
        return self.rekeyed(list(map(_STORAGE, gone)), list(map(_STORAGE, came)), devices)

    def rekeyed(self, olds: list[int], news: list[int], devices: list[str] | None = None
                ) -> bool:
        """Every sighting of each storage of ``olds`` seen again at the storage of ``news`` at
        the same place, one to one, where nothing else sees an old storage and no new storage
        is seen elsewhere: each storage's entry moves to its new key and the totals stay.
        False, nothing changed, otherwise. ``devices``: each sighting's device, checked
        against the old storage's home; None where the caller knows each new storage's
        header equals the old one's (a training step's grads, :func:`.records.grads_moved`:
        no record is read to rename them)."""
        renames = dict(zip(olds, news, strict=True))
        extents, home = self.extents, self.home
        targets = list(renames.values())
        seen = list(compress(targets, map(extents.__contains__, targets)))
        if (list(map(renames.__getitem__, olds)) != news  # NB: one new storage per old one
                or len(set(targets)) != len(targets)  # NB: and one old storage per new one
                or not all(map(renames.__contains__, seen))  # NB: seen already: it goes too
                or not all(map(extents.__contains__, olds))  # NB: each old one was seen
                or (devices is not None
                    and list(map(home.get, olds, repeat(self.default))) != devices)):
            return False
        sightings = Counter(olds)
        if _all_sightings(list(map(extents.__getitem__, sightings))) != list(
                sightings.values()):
            return False  # NB: a sighting of some old storage stays (another object holds it)
        entries = list(map(extents.pop, renames))
        homes = list(map(home.pop, renames, repeat("")))  # NB: "": on ``default``
        extents.update(zip(targets, entries, strict=True))
        if homes.count("") != len(homes):
            home.update((t, h) for t, h in zip(targets, homes, strict=True) if h)
        return True

    def _many(self, items: Iterable[Entry], sign: int) -> None:
        """Add (``sign`` 1) or remove (-1) one sighting per entry."""
        count, extents, home, nbytes = self.count, self.extents, self.home, self.nbytes
        default = self.default
        for dev, storage, n in items:
            count[dev] = count.get(dev, 0) + sign
            seen = extents.get(storage)
            if seen is None and sign > 0:  # NB: a storage seen first (most are seen once)
                extents[storage] = n
                if not default:
                    default = self.default = dev
                elif dev != default:
                    home[storage] = dev
                nbytes[dev] = nbytes.get(dev, 0) + n
            elif sign < 0 and seen == n:  # NB: its last sighting goes (a dict is never ``n``)
                where = home.pop(storage, default)
                del extents[storage]
                nbytes[where] -= n
            else:
                self._extent(dev, storage, n, sign)

    def _extent(self, dev: str, storage: int, n: int, sign: int) -> None:
        got = self.extents.get(storage)
        seen: dict[int, int]
        if got is None:
            seen = {}
            if not self.default:
                self.default = dev
            elif dev != self.default:
                self.home[storage] = dev
        else:
            seen = {got: 1} if isinstance(got, int) else got
        before = max(seen) if seen else 0
        left = seen.get(n, 0) + sign
        if left:
            seen[n] = left
        else:
            del seen[n]
        after = max(seen) if seen else 0
        home = self.home_of(storage)
        if after != before:
            self.nbytes[home] = self.nbytes.get(home, 0) + after - before
        if not seen:
            del self.extents[storage]
            self.home.pop(storage, None)
        elif len(seen) == 1 and 1 in seen.values():
            self.extents[storage] = next(iter(seen))  # NB: seen once again: just its bytes
        else:
            self.extents[storage] = seen

    def result(self) -> tuple[DeviceTotal, ...]:
        return tuple(DeviceTotal(d, self.objs.get(d, 0), c, self.nbytes.get(d, 0))
                     for d, c in sorted(self.count.items(), key=lambda kv: device_key(kv[0]))
                     if c > 0)
