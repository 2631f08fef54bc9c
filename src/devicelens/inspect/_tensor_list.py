"""Proof that a list of plain tensors (a model's parameters, an optimizer's state) is as last
read: the same objects, types, headers and grads, the way a token reads them.

Both watches (:mod:`._forest_watch`, :mod:`._optimizer_watch`) keep a :class:`Tensors` per list
and check it after each cell. Headers are proven by torch's tensor guard with the reads beside it
(:mod:`._headers`); where no guard is kept (a cell may be running), they are read and compared.
NB: only exact ``Tensor``/``Parameter`` objects, strided, no views and no non-leaf that needs
grad are covered (the token reads anything else its own way): :func:`remember` gives None then.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import and_, attrgetter, eq, is_, is_not, itemgetter, not_
from typing import Any, Literal, NamedTuple

from ._headers import Guard, guard, holds
from ._token_tree import _plain_metas
from ._types import all_exact, count_exact
from ._walk import _META, Ctx

_GRAD = attrgetter("grad")
_RG, _LEAF = itemgetter(4), itemgetter(5)  # of a header (``_walk._META``)


class Tensors(NamedTuple):
    """One list of tensors as last read."""

    ids: list[int]
    types: list[type]  # NB: kept alive, so compared by identity
    metas: list[tuple[Any, ...]]  # NB: a reused id reads as the same record (the token's rule)
    grad_mask: list[bool]  # where the walk reads a grad: needs grad and is a leaf
    grad_ids: list[int]
    grad_metas: list[tuple[Any, ...]]
    guard: Guard | None  # proves ``metas`` in one C++ pass; None: read them
    grad_guard: Guard | None


def remember(ctx: Ctx, values: list[Any]) -> Tensors | None:
    """``values`` as read now, or None where they are not all plain."""
    exact0, exact1 = ctx.reader.exact
    types = list(map(type, values))
    if count_exact(types, exact0, exact1) != len(values):
        return None  # NB: a None entry or a subclass: the token reads those
    metas = _plain_metas(values, ctx.reader)
    if metas is None:
        return None
    grad_mask = list(map(and_, map(_RG, metas), map(_LEAF, metas)))
    if list(map(and_, map(_RG, metas), map(not_, map(_LEAF, metas)))).count(True):
        return None  # NB: a non-leaf may retain its grad: the token reads it
    grads = list(map(_GRAD, compress(values, grad_mask)))
    grad_metas = _grad_metas(ctx, grads)
    if grad_metas is None:
        return None
    present = list(compress(grads, map(is_not, grads, repeat(None))))
    return Tensors(list(map(id, values)), types, metas, grad_mask, list(map(id, grads)),
                   grad_metas, _leaf_guard(ctx, values, metas),
                   _leaf_guard(ctx, present, grad_metas))


class Regrad(NamedTuple):
    """The tensors read as remembered but for their grads, each a new tensor with the very
    header of the one it replaced (a training step: ``backward`` after
    ``zero_grad(set_to_none=True)``). Records then differ only in those grads' storages."""

    moved: dict[int, int]  # old grad id -> new grad id
    seen: Tensors  # the tensors as they read now


def same(ctx: Ctx, values: list[Any], seen: Tensors, known: bool = False) -> bool:
    """Whether ``values`` read as remembered. ``known``: proven the very same objects already
    (their containers are unchanged), so their ids are not compared again."""
    return check(ctx, values, seen, known) is True


def check(ctx: Ctx, values: list[Any], seen: Tensors, known: bool = False) -> bool | Regrad:
    """:func:`same`, or a :class:`Regrad` where only grads were replaced by equal ones."""
    if not known and list(map(id, values)) != seen.ids:
        return False
    if len(values) != len(seen.types) or list(map(is_, map(type, values), seen.types)).count(
            False):
        return False  # NB: first: a class assigned since could answer the reads in Python
    if seen.guard is not None and ctx.guarded:
        if not holds(seen.guard, values):
            return False
    else:
        try:  # NB: equal to the remembered plain headers: plain (strided, no base) too
            if list(map(_META, values)) != seen.metas:
                return False
        except RuntimeError:  # NB: a nested tensor at a reused id
            return False
    grads = list(map(_GRAD, compress(values, seen.grad_mask)))
    ids = list(map(id, grads))
    if ids != seen.grad_ids:
        return _regrad(ctx, grads, ids, seen)
    if not seen.grad_metas:  # NB: equal ids, and none was a grad then: none is one now
        return True
    if seen.grad_guard is not None and ctx.guarded:  # NB: equal ids: the same grads present
        present = list(compress(grads, map(is_not, grads, repeat(None))))
        if not all_exact(present, ctx.reader.exact[0]):
            return False
        return holds(seen.grad_guard, present)
    return _grad_metas(ctx, grads) == seen.grad_metas


def agrees(part: Tensors, whole: Tensors) -> bool:
    """Whether every tensor of ``part`` is in ``whole`` as last read there too: the same type,
    header and grad (its id and header). Two readings compared, no tensor read: where ``whole``
    is proven to read as remembered now, so is ``part`` (given its tensors are the same
    objects)."""
    at = dict(zip(whole.ids, range(len(whole.ids)), strict=True))
    where = list(map(at.get, part.ids))
    if where.count(None):
        return False
    mine = _entries(whole)
    return list(map(mine.__getitem__, where)) == _entries(part)  # type: ignore[arg-type]


def _entries(t: Tensors) -> list[tuple[Any, ...]]:
    """Per tensor of ``t``, in order: its type and header, and where its grad is read, the
    grad's id and (where there is one) header."""
    none = id(None)
    if t.grad_mask.count(True) == len(t.grad_mask) and none not in t.grad_ids:
        # NB: every grad read and present (parameters after a backward): columns at C speed
        return list(zip(t.types, t.metas, t.grad_ids, t.grad_metas, strict=True))
    grad_ids, grad_metas = iter(t.grad_ids), iter(t.grad_metas)
    out: list[tuple[Any, ...]] = []
    for tp, meta, read in zip(t.types, t.metas, t.grad_mask, strict=True):
        if read:
            gid = next(grad_ids)
            out.append((tp, meta, gid, next(grad_metas) if gid != none else None))
        else:
            out.append((tp, meta))
    return out


def _regrad(ctx: Ctx, grads: list[Any], ids: list[int], seen: Tensors) -> Regrad | bool:
    """The grads replaced, where every one present then is present now, each a plain tensor
    with the header it had, and no two of them one tensor (then or now); else False."""
    none = id(None)
    if list(map(eq, ids, repeat(none))) != list(map(eq, seen.grad_ids, repeat(none))):
        return False  # NB: a grad appeared or went
    was = [i for i in seen.grad_ids if i != none]
    now = [i for i in ids if i != none]
    if len(set(was)) != len(was) or len(set(now)) != len(now):
        return False
    present = list(compress(grads, map(is_not, grads, repeat(None))))
    guard_now = _same_grad_headers(ctx, grads, present, seen)
    if guard_now is False:
        return False
    moved = {old: new for old, new in zip(was, now, strict=True) if old != new}
    return Regrad(moved, seen._replace(grad_ids=ids, grad_guard=guard_now))


def _same_grad_headers(ctx: Ctx, grads: list[Any], present: list[Any], seen: Tensors
                       ) -> Guard | Literal[False] | None:
    """Whether new grads (``present``: those of ``grads`` that are not None) have the very
    headers the remembered ones had; if so, the guard that proves them from now on (None: none
    is kept), else False.

    NB: torch's guard compares values, never objects (``torch.compile`` runs it on each call's
    new inputs): where the remembered grads' guard holds for the new ones, their headers are
    those remembered, and the same guard proves them from now on. That is one C++ pass instead
    of seven getters per grad and a new guard built (a training step of a 2k-parameter model:
    2,000 new grads, and as many headers fewer for the garbage collector to scan). Where it
    fails (other strides, say), the headers are read whole, as before."""
    g = seen.grad_guard
    if (g is not None and ctx.guarded and all_exact(present, ctx.reader.exact[0])
            and holds(g, present)):
        return g
    if _grad_metas(ctx, grads) != seen.grad_metas:  # NB: exact types first, whole headers
        return False
    return _leaf_guard(ctx, present, seen.grad_metas) if g is not None else None


def _leaf_guard(ctx: Ctx, tensors: list[Any], metas: list[tuple[Any, ...]]) -> Guard | None:
    """A guard of plain headers (strided, no base: read so) that are leaves, else None.
    NB: a tensor that needs no grad has no grad_fn, so is a leaf: the guard proves it still
    needs none, and the leaf flag is read again only where some tensor needs grad."""
    if not ctx.guarded or list(map(_LEAF, metas)).count(True) != len(metas):
        return None
    return guard(tensors, leaf=list(map(_RG, metas)).count(True) > 0)


def _grad_metas(ctx: Ctx, grads: list[Any]) -> list[tuple[Any, ...]] | None:
    """The headers of the grads there are (read whole: a grad is often a new tensor at a
    reused address after ``zero_grad(set_to_none=True)``)."""
    present = list(compress(grads, map(is_not, grads, repeat(None))))
    if not present:
        return []
    if not all_exact(present, ctx.reader.exact[0]):
        return None
    return _plain_metas(present, ctx.reader)
