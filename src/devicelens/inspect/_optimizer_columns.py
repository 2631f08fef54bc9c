"""An optimizer's records, read in columns: where every parameter's state holds the same keys
(Adam's ``step``, ``exp_avg``, ``exp_avg_sq``; SGD's ``momentum_buffer``), each field of every
state record is computed for all of them at once (:class:`._model_columns.Columns`), as a plain
model's are, and the per-parameter work is a few C-speed passes.

The records equal :func:`._objects._optimizer`'s per-tensor walk, which stays the reference and
the fallback: state of uneven keys, or holding anything but plain dense tensors (a subclass, a
DTensor, a nested tensor), or too small a node budget, is refused here (False) before anything
is written to the walker. The parameters themselves, read by a model's walk a moment before,
are relabelled in columns too. NB: Adam keeps three tensors a parameter; in the README's
workload the per-tensor walk of its state was half the first snapshot's time.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain, compress, repeat
from operator import add, is_, is_not, itemgetter
from typing import Any

from ._model_columns import Columns
from ._tree import Ref
from ._walk import _GRAD, Walker
from .records import TensorRecord

_ID = id
_new = tuple.__new__
_H0, _H1, _H2 = map(itemgetter, range(3))
_TAIL = itemgetter(slice(4, None))  # NB: a record's fields after path, ref, role and owner
_IS_DICT = dict.__instancecheck__


def read_state(w: Walker, root: Ref, name: str, params: list[tuple[int, int, Any]],
               by_id: dict[int, Any], group_steps: Any, item_step: Any) -> bool:
    """Walk the optimizer's parameters and their state into ``w`` as the per-tensor walk
    would (each parameter, then its state in the state dict's order); False (and nothing
    written) where it cannot be read in columns."""
    ps = list(map(itemgetter(2), params))
    states: list[Any] = list(map(by_id.get, map(_ID, ps)))
    if not all(map(_IS_DICT, states)):
        return False  # NB: a parameter with no state yet (or not a dict): the walker's
    keys = set(map(tuple, map(dict.keys, states)))
    if len(keys) != 1:
        return False
    order = next(iter(keys))
    if not all(type(k) is str for k in order):
        return False
    cols_by_key = [list(map(itemgetter(k), states)) for k in order]
    exact = set(map(id, w.reader.exact))  # NB: by id: a set of types would hash each one,
    if not all(set(map(id, map(type, col))) <= exact for col in cols_by_key):  # its metaclass's
        return False  # ``__hash__`` (a user object kept in the state, read here)
    ctx = w.ctx
    n_state = len(ps) * len(order)
    if ctx.budget < len(ps) + n_state:
        return False
    ts = list(chain.from_iterable(zip(*cols_by_key, strict=True))) if order else []
    cols = Columns(w, ts)
    if not cols.ok:
        return False
    owners = list(map(ctx.param_paths.get, map(_ID, ps), repeat("")))
    ppaths = [f"{name}.param_groups[{g}].params[{i}]" for g, i, _ in params]  # NB: display_for
    steps = [group_steps(g, i) for g, i, _ in params]
    labels = [o or pp for o, pp in zip(owners, ppaths, strict=True)]
    kinds = [item_step(k) for k in order]
    n = len(order)
    sstep = list(map(_H1, steps))
    by_key = [_key_paths(name, labels, k[1]) for k in kinds]
    rpaths = list(chain.from_iterable(zip(*by_key, strict=True))) if n else []
    srefs = list(chain.from_iterable(zip(*[_with_root(root, sstep, k[0]) for k in kinds],
                                         strict=True))) if n else []
    recs = cols.records(rpaths, srefs, repeat("state"), _spread(labels, n))
    ctx.budget -= n_state
    prefs = _with_root(root, list(map(_H0, steps)))
    hits: list[Any] = list(map(ctx.param_records.get, map(_ID, ps)))
    if None not in hits and all(map(is_, map(_H0, hits), ps)):
        ctx.budget -= len(ps)  # NB: what :meth:`Walker.relabel` spends, checked above
        w.tensors += _relabelled(hits, ppaths, prefs, owners, recs, n)
        return True
    out = w.tensors
    for j, p in enumerate(ps):
        hit = hits[j]
        if hit is not None and hit[0] is p:  # NB: the very tensor: read a moment ago
            w.relabel(hit, ppaths[j], prefs[j], "opt_param", owners[j])
        else:
            w.exact_tensor(p, ppaths[j], prefs[j], "opt_param", owners[j])
        if n:
            out += recs[j * n:(j + 1) * n]
    return True


def _key_paths(name: str, labels: list[str], key: str) -> list[str]:
    """The paths of one state key's records, parameter by parameter."""
    return list(map(f"{_literal(name)}.state[{{}}][{_literal(key)}]".format, labels))


def _literal(text: str) -> str:
    """``text`` as it reads in a format string (a key's repr may hold braces)."""
    return text.replace("{", "{{").replace("}", "}}")


def _with_root(root: Ref, last: list[Any], *more: Any) -> list[Ref]:
    """``(*root, x, *more)`` for each ``x`` of ``last``, built at C speed."""
    return list(zip(*map(repeat, root), last, *map(repeat, more), strict=False))  # NB: repeats


def _relabelled(hits: list[Any], ppaths: list[str], prefs: list[Ref], owners: list[str],
                recs: list[TensorRecord], n: int) -> Iterable[TensorRecord]:
    """What :meth:`Walker.relabel` gives each parameter (its record, then its grad's) with its
    ``n`` state records after it, in columns: every parameter was read by a module walk of
    this snapshot a moment ago (``hits``, from :attr:`Ctx.param_records`)."""
    precs = list(map(_new, repeat(TensorRecord), map(add, zip(
        ppaths, prefs, repeat("opt_param"), owners), map(_TAIL, map(_H1, hits)))))
    grads = list(map(_H2, hits))
    has = list(map(is_not, grads, repeat(None)))
    gpaths = list(compress(ppaths, has))
    grecs = list(map(_new, repeat(TensorRecord), map(add, zip(
        map("{}.grad".format, gpaths), map(add, compress(prefs, has), repeat((_GRAD,))),
        repeat("grad"), gpaths), map(_TAIL, compress(grads, has)))))
    if len(grecs) != len(has):
        slots: list[Any] = [None] * len(has)
        for i, g in zip(compress(range(len(has)), has), grecs, strict=True):
            slots[i] = g
        grecs = slots
    states = [recs[k::n] for k in range(n)]
    return filter(None, chain.from_iterable(zip(precs, grecs, *states, strict=True)))


def _spread(xs: list[Any], n: int) -> list[Any]:
    """Each item of ``xs`` ``n`` times in a row."""
    return list(chain.from_iterable(map(repeat, xs, repeat(n))))
