"""Per-device totals of one snapshot (objects, tensors, bytes), counted once over columns.

NB: each storage counts once, however many names reach it (the largest extent seen of it).
Columns of names and ints are gathered and reduced at C speed: nothing per tensor for the
garbage collector to track.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import compress, repeat
from math import prod
from operator import attrgetter, eq, mul, ne
from typing import Any

from ._names import DeviceTotal, device_key, device_name, dtype_info


class Totals:
    """Add every object (:meth:`add`) and the compact rows (:meth:`add_loose`), then
    :meth:`result`."""

    def __init__(self) -> None:
        self.objs: Counter[str] = Counter()
        self.count: Counter[str] = Counter()  # tensors per device
        self.devices: list[str] = []
        self.storages: list[int] = []
        self.sizes: list[int] = []

    def add(self, devices: Iterable[str], tensors: Sequence[Any], kind: str = "optimizer",
            ) -> None:
        """An object on ``devices`` holding the tensor records ``tensors``. NB: an optimizer's
        parameters are its model's, counted there; only an optimizer (``kind``) holds them."""
        self.objs.update(devices)
        ts = (list(compress(tensors, map(ne, map(_ROLE, tensors), repeat("opt_param"))))
              if kind == "optimizer" else tensors)
        devs = list(map(_DEVICE, ts))
        self.count.update(devs)
        self.devices += devs
        self.storages += map(_STORAGE, ts)
        self.sizes += map(_NBYTES, ts)

    def add_loose(self, devices: list[Any], dtypes: list[Any], shapes: list[Any],
                  ids: Sequence[int]) -> None:
        """Every compact row: one object and one tensor on its device, bytes by its storage.
        NB: at C speed; one device (the common case) is counted without a pass per row."""
        distinct = set(devices)
        names = {d: device_name(d) for d in distinct}
        if len(distinct) == 1:
            devs = [names[distinct.pop()]] * len(devices)
            self.objs[devs[0]] += len(devs)
            self.count[devs[0]] += len(devs)
        else:
            devs = list(map(names.__getitem__, devices))
            self.objs.update(devs)
            self.count.update(devs)
        itemsize = {t: dtype_info(t)[1] for t in set(dtypes)}
        self.devices += devs
        self.storages += ids
        self.sizes += map(mul, map(prod, shapes), map(itemsize.__getitem__, dtypes))

    def result(self) -> tuple[DeviceTotal, ...]:
        count = +self.count
        storages, sizes = self.storages, self.sizes
        if len(set(storages)) == len(storages):  # NB: no storage reached twice (C speed)
            if len(count) == 1:
                nbytes = {d: sum(sizes) for d in count}
            else:
                nbytes = {d: sum(compress(sizes, map(eq, self.devices, repeat(d))))
                          for d in count}
            return self._rows(count, nbytes)
        size = dict(zip(storages, sizes, strict=True))
        home: dict[int, str] = {}
        if not self._agree(size):
            size, home = self._largest()
        elif len(count) > 1:
            home = dict(zip(storages, self.devices, strict=True))  # NB: same keys and order
        if len(count) == 1:
            nbytes = {d: sum(size.values()) for d in count}
        else:
            nbytes = {d: sum(compress(size.values(), map(eq, home.values(), repeat(d))))
                      for d in count}
        return self._rows(count, nbytes)

    def _rows(self, count: Counter[str], nbytes: dict[str, int]) -> tuple[DeviceTotal, ...]:
        return tuple(DeviceTotal(d, self.objs.get(d, 0), count[d], nbytes[d])
                     for d in sorted(count, key=device_key))

    def _agree(self, size: dict[int, int]) -> bool:
        """Whether every storage reached more than once was seen with one extent only (the
        same tensor under two names). NB: ``size`` holds each storage's last extent, so they
        agree exactly when every sighting's extent equals its storage's: one C-speed pass."""
        return list(map(size.__getitem__, self.storages)) == self.sizes

    def _largest(self) -> tuple[dict[int, int], dict[int, str]]:
        """A view and its base: each storage's largest extent, and where it was seen first."""
        size: dict[int, int] = {}
        home: dict[int, str] = {}
        for storage, n, dev in zip(self.storages, self.sizes, self.devices, strict=True):
            if size.get(storage, -1) < n:
                size[storage], home[storage] = n, dev
        return size, home


_ROLE, _DEVICE = attrgetter("role"), attrgetter("device")
_STORAGE, _NBYTES = attrgetter("storage"), attrgetter("nbytes")
