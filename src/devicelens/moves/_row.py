"""One row of a move's report, plain data: the plan makes them (:mod:`._final`, one a name that
moves as a column in :mod:`._loose`) and :class:`~._report.MoveReport` lists them (:class:`Rows`).
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import chain, islice, repeat
from operator import eq
from typing import Any, NamedTuple, overload


class Move(NamedTuple):
    """One row of a report: what (a namespace name or a fixed path) went from where to where.

    ``device`` is the device its tensors go to, None when they stay on theirs; ``dtype`` the
    dtype they are cast to, None when they keep theirs. ``source``/``target`` say both as text.
    """

    path: str
    source: str
    target: str
    nbytes: int
    tensors: int = 1
    device: str | None = None
    dtype: str | None = None


class Rows(Sequence[Move]):
    """A report's rows: the plan's own rows among one row for each name moved as a column,
    each of those made when it is read. NB: a move of a million loose tensors would otherwise
    keep a million row tuples (112 B each) beside the new tensors, at the move's peak; the
    columns keep a name and a byte count each. Equal to the tuple of the same rows.

    ``seqs[k]``: how many column rows come before ``rows[k]``; ``labels``: each column name's
    source device (None: all ``cpu``); ``to``: their target device."""

    __slots__ = ("_at", "_labels", "_names", "_nbytes", "_rows", "_seqs", "_to")

    def __init__(self, rows: Sequence[Move], seqs: Sequence[int], names: list[str],
                 labels: list[str] | None, to: str, nbytes: array[int]) -> None:
        self._rows, self._seqs = tuple(rows), tuple(seqs)
        self._names, self._labels, self._to, self._nbytes = names, labels, to, nbytes
        self._at = tuple(s + k for k, s in enumerate(self._seqs))  # NB: each own row's index

    def __len__(self) -> int:
        return len(self._rows) + len(self._names)

    def _column(self, i: int) -> Move:
        label = "cpu" if self._labels is None else self._labels[i]
        return tuple.__new__(Move, (self._names[i], label, self._to, self._nbytes[i], 1,
                                    self._to, None))

    def _columns(self, start: int = 0) -> Iterator[Move]:
        names = islice(self._names, start, None)
        labels = repeat("cpu") if self._labels is None else islice(self._labels, start, None)
        to = self._to
        return map(tuple.__new__, repeat(Move), zip(
            names, labels, repeat(to), islice(self._nbytes, start, None), repeat(1), repeat(to),
            repeat(None)))

    def __iter__(self) -> Iterator[Move]:
        cols = self._columns()
        parts: list[Any] = []
        done = 0
        for row, seq in zip(self._rows, self._seqs, strict=True):
            if seq > done:
                parts.append(islice(cols, seq - done))
                done = seq
            parts.append((row,))
        parts.append(cols)
        return chain.from_iterable(parts)

    @overload
    def __getitem__(self, i: int) -> Move: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Move, ...]: ...

    def __getitem__(self, i: int | slice) -> Move | tuple[Move, ...]:
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            if step == 1:
                return tuple(islice(self, start, max(start, stop)))
            return tuple(self)[i]
        n = len(self)
        j = i + n if i < 0 else i
        if not 0 <= j < n:
            raise IndexError("report row index out of range")
        k = bisect_right(self._at, j)  # NB: own rows at or before j
        if k and self._at[k - 1] == j:
            return self._rows[k - 1]
        return self._column(j - k)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Rows, tuple)):
            return len(self) == len(other) and all(map(eq, self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Rows({tuple(self)!r})"
