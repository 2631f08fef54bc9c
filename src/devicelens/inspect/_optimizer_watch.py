"""Proof that an optimizer reads as it did at the last push, cheaper than its token.

An optimizer's token (:func:`._token_tree.optimizer_token`) reads every parameter's and state
tensor's header, and the ids of its groups, lists, state dicts, keys and values: thousands of
tensors for a real model, after every cell. Here the dicts are proven unchanged by their versions
(:mod:`._versions`): the optimizer's ``__dict__``, its ``state``, each param group and each
parameter's state dict; the group's ``params`` lists, which have no version, by the ids they
hold; every tensor by :mod:`._tensor_list` (torch's tensor guard), except the parameters (and
their grads) that the forest watch has just proven: where its reading of them agrees with this
one, they are not read again.

NB: a shortcut only. :meth:`OptimizerWatch.same` answers True only when the token would be
equal; anything it does not cover (no version reader, a group that is not a ``dict``, a state
value that is not a plain tensor) keeps no watch, and the caller reads the token.
"""

from __future__ import annotations

from itertools import chain, compress, repeat
from operator import ne
from typing import Any, NamedTuple

from . import _tensor_list, _types
from ._objects import held_paths, hollow_optimizer, wrapped_optimizer
from ._tensor_list import Regrad, Tensors
from ._versions import reader
from ._walk import Ctx


class _Reading(NamedTuple):
    versions: list[int]  # the optimizer's dict, its state, each group, each state dict
    lens: list[int]  # how many parameters each group lists
    params: list[Any]
    values: list[Any]  # every state tensor, state dict after state dict


class _Seen(NamedTuple):
    dict_get: Any  # the optimizer type's ``__dict__`` getter (the type is the entry's own)
    reading: _Reading  # NB: with ids and types only: ``params`` and ``values`` are dropped
    paths: list[str | None]  # each parameter's module path at the last push
    params: Tensors
    values: Tensors


class OptimizerWatch:
    """The last reading of one optimizer (see the module docstring)."""

    def __init__(self, seen: _Seen) -> None:
        self.seen = seen
        # NB: the forest watch's reading of the module parameters last compared with this
        # one's, and whether they agreed (kept alive, so compared by identity)
        self.compared: tuple[Tensors, bool] | None = None

    @classmethod
    def remember(cls, ctx: Ctx, opt: Any) -> OptimizerWatch | None:
        """A watch of ``opt`` as it is now, or None where it cannot prove sameness.
        NB: call it before reading ``opt`` in any other way (its walk, its token): the versions
        it keeps then vouch only for what was read after them."""
        dict_get = _types.info(type(opt)).dict_get
        r = _read(opt, dict_get)
        if r is None:
            return None
        params = _tensor_list.remember(ctx, r.params)
        values = _tensor_list.remember(ctx, r.values)
        if params is None or values is None:
            return None
        return cls(_Seen(dict_get, r._replace(params=[], values=[]),
                         list(map(ctx.param_paths.get, params.ids)), params, values))

    def same(self, ctx: Ctx, opt: Any) -> bool:
        """Whether ``opt`` (of the type remembered) reads exactly as remembered."""
        return self.check(ctx, opt) is True

    def check(self, ctx: Ctx, opt: Any) -> bool | tuple[dict[int, int], OptimizerWatch]:
        """:meth:`same`; or, where ``opt`` reads as remembered but for its parameters' grads
        replaced by equal ones, which (old id -> new id) and the watch of it now."""
        seen = self.seen
        r = _read(opt, seen.dict_get)
        if r is None or r.versions != seen.reading.versions or r.lens != seen.reading.lens:
            return False
        if list(map(ctx.param_paths.get, map(id, r.params))) != seen.paths:
            return False  # NB: a module renamed, or the parameter moved to another module
        params = self._proven(ctx, r.params) or _tensor_list.check(ctx, r.params, seen.params)
        if params is False or not _tensor_list.same(ctx, r.values, seen.values, known=True):
            return False
        if isinstance(params, Regrad):
            return params.moved, OptimizerWatch(seen._replace(params=params.seen))
        return True

    def _proven(self, ctx: Ctx, params: list[Any]) -> bool | Regrad:
        """Whether the forest watch proved in this update that ``params`` read as this watch
        remembers them: they are the very objects remembered, and its reading of them agrees
        with this one's (compared once per pair of readings). Then they are not read again:
        a model's parameters and grads are most of its optimizer's tensors. Or, where the
        forest watch found grads replaced by equal ones (a training step), the
        :class:`~._tensor_list.Regrad` of these parameters: this reading, with those grads
        moved, agrees with the forest's reading now."""
        forest = ctx.proven
        mine = self.seen.params
        if forest is None or list(map(id, params)) != mine.ids:
            return False
        grad_ids = list(map(ctx.moved.get, mine.grad_ids, mine.grad_ids)) if ctx.moved else []
        if grad_ids and grad_ids != mine.grad_ids:
            # NB: no guard of the new grads: the forest's reading proves them from now on,
            # and where it cannot, their headers are read
            now = mine._replace(grad_ids=grad_ids, grad_guard=None)
            if not _tensor_list.agrees(now, forest):
                return False
            return Regrad(dict(compress(zip(mine.grad_ids, grad_ids, strict=True),
                                        map(ne, mine.grad_ids, grad_ids))), now)
        if self.compared is None or self.compared[0] is not forest:
            self.compared = (forest, _tensor_list.agrees(mine, forest))
        return self.compared[1]


def _read(opt: Any, dict_get: Any) -> _Reading | None:
    """What the watch compares, read through the base types' own methods (no user code)."""
    version = reader()
    if version is None or dict_get is None:
        return None
    d = dict_get(opt)
    if type(d) is not dict:
        return None
    groups: Any = dict.get(d, "param_groups")
    state: Any = dict.get(d, "state")
    if (type(groups) is not list or not _types.all_exact(groups, dict)
            or not issubclass(type(state), dict)):
        return None
    lists: list[Any] = list(map(dict.get, groups, repeat("params")))
    if not _types.all_exact(lists, list):
        return None
    states = list(dict.values(state))
    if not _types.all_exact(states, dict):
        return None
    versions = [version(d), version(state), *map(version, groups), *map(version, states)]
    return _Reading(versions, list(map(len, lists)), list(chain.from_iterable(lists)),
                    list(chain.from_iterable(map(dict.values, states))))


class WrappedWatch:
    """The watch of the optimizer a plain object wraps (:func:`._objects.wrapped_optimizer`),
    under the key it was found at. NB: the optimizer is known by its id and type, never kept
    alive: where another took its id, its dicts' versions (unique to each dict) differ."""

    def __init__(self, key: str, ident: tuple[int, type], inner: OptimizerWatch,
                 held: dict[int, str]) -> None:
        self.key, self.ident, self.inner, self.held = key, ident, inner, held

    def check(self, ctx: Ctx, obj: Any) -> bool | tuple[dict[int, int], WrappedWatch]:
        """:meth:`OptimizerWatch.check` of the optimizer ``obj`` wraps, where it is the one
        remembered under the same key, beside the same models' parameters under the same
        paths (they name its parameters: :func:`._objects.held_paths`)."""
        found = wrapped_optimizer(obj)
        if (found is None or found[0] != self.key or id(found[1]) != self.ident[0]
                or type(found[1]) is not self.ident[1]):
            return False
        if held_paths(ctx, obj, "") != self.held:
            return False
        verdict = self.inner.check(ctx, found[1])
        if verdict is True or verdict is False:
            return verdict
        moved, now = verdict
        return moved, WrappedWatch(self.key, self.ident, now, self.held)


Watch = OptimizerWatch | WrappedWatch


def watch_of(ctx: Ctx, obj: Any) -> Watch | None:
    """A watch of an optimizer, or of the one a plain object wraps (None for anything else, or
    where none can be kept)."""
    what = _types.info(type(obj)).what
    if what and what != "optimizer":
        return None
    try:
        if what and not hollow_optimizer(obj):
            return OptimizerWatch.remember(ctx, obj)
        found = wrapped_optimizer(obj)
        if found is None:
            return None
        inner = OptimizerWatch.remember(ctx, found[1])
        return (WrappedWatch(found[0], (id(found[1]), type(found[1])), inner,
                             held_paths(ctx, obj, ""))
                if inner is not None else None)
    except Exception:  # NB: a shortcut never costs the push
        return None


def checked(watch: Watch, ctx: Ctx, obj: Any) -> bool | tuple[dict[int, int], Watch]:
    try:
        return watch.check(ctx, obj)
    except Exception:  # NB: as in watch_of: read the token instead
        return False
