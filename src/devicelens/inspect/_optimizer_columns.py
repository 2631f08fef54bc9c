"""An optimizer's records, read in columns: where every parameter's state holds the same keys
(Adam's ``step``, ``exp_avg``, ``exp_avg_sq``; SGD's ``momentum_buffer``), each field of every
state record is computed for all of them at once (:class:`._model_columns.Columns`), as a plain
model's are, and the per-parameter work is a few C-speed passes.

The records equal :func:`._objects._optimizer`'s per-tensor walk, which stays the reference and
the fallback: state of uneven keys, or holding anything but plain dense tensors (a subclass, a
DTensor, a nested tensor), or too small a node budget, is refused here (False) before anything
is written to the walker. NB: Adam keeps three tensors a parameter; in the README's workload
the per-tensor walk of its state was half the first snapshot's time.
"""

from __future__ import annotations

from itertools import chain, repeat
from operator import add, itemgetter
from typing import Any

from ._model_columns import Columns
from ._tree import Ref
from ._walk import Walker

_ID = id
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
    exact = set(w.reader.exact)
    if not all(set(map(type, col)) <= exact for col in cols_by_key):
        return False
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
    spaths = list(map("{}.state[{}]".format, repeat(name), labels))
    n = len(order)
    rpaths = list(map(add, _spread(spaths, n), chain.from_iterable(
        repeat([f"[{k[1]}]" for k in kinds], len(ps)))))
    srefs = [(*root, s[1], k[0]) for s in steps for k in kinds]
    recs = cols.records(rpaths, srefs, repeat("state"), _spread(labels, n))
    ctx.budget -= n_state
    read, out = ctx.param_records, w.tensors
    for j, p in enumerate(ps):
        hit = read.get(_ID(p))
        pref = (*root, steps[j][0])
        if hit is not None and hit[0] is p:  # NB: the very tensor: read a moment ago
            w.relabel(hit, ppaths[j], pref, "opt_param", owners[j])
        else:
            w.exact_tensor(p, ppaths[j], pref, "opt_param", owners[j])
        if n:
            out += recs[j * n:(j + 1) * n]
    return True


def _spread(xs: list[Any], n: int) -> list[Any]:
    """Each item of ``xs`` ``n`` times in a row."""
    return list(chain.from_iterable(map(repeat, xs, repeat(n))))
