"""The watch that proves a forest of modules unchanged without reading its token
(:mod:`devicelens.inspect._forest_watch`): it says "same" after a cell that changed nothing, and
"changed" after every kind of change a cell can make to a model, including those that keep
every identity. After each change the live snapshot also equals a fresh one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from torch import nn

from devicelens.inspect import _forest_watch, _versions, take_snapshot
from devicelens.inspect._forest_watch import ForestWatch
from devicelens.inspect._live import Live
from devicelens.inspect._walk import Ctx


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(2, 3)
        self.norm = nn.BatchNorm1d(3)
        self.gate = nn.Linear(3, 3, bias=False)  # NB: a None entry in its table
        self.cache = [torch.zeros(2)]
        self.scale = torch.ones(1)
        self.width = 3
        self.kernel = (3, 3)  # NB: tuples of scalars: the very same object tokens the same
        self.pair = (torch.zeros(1), 2)  # NB: tuples that hold what can change in place
        self.nested = ([torch.zeros(1)], "x")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(self.proj(x[:, :2]) if x.shape[1] == 2 else x)


class Renamed(nn.Sequential):
    pass


def namespace() -> dict[str, Any]:
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), Block())
    with torch.no_grad():
        model(torch.zeros(4, 2))
    model[0].weight.grad = torch.zeros(3, 2)  # NB: one grad there is, one there is not
    return {"model": model, "head": nn.Linear(3, 1), "norm": nn.LayerNorm(3)}


def _leaf_flip(ns: dict[str, Any]) -> None:
    w = ns["head"].weight
    w.requires_grad_(False)
    w.add_(torch.zeros(w.shape, requires_grad=True))


def _free_and_rebuild(ns: dict[str, Any]) -> None:
    del ns["head"]
    ns["head"] = nn.Linear(3, 1).double()


def _grad_reallocated(ns: dict[str, Any]) -> None:
    w = ns["head"].weight
    w.grad = torch.zeros(w.shape)
    w.grad = None
    w.grad_dtype = None  # NB: torch then takes a grad of another dtype
    w.grad = torch.zeros(w.shape, dtype=torch.float64)


def _set_attr(ns: dict[str, Any], name: str, value: Any) -> None:
    ns["model"][2].__dict__[name] = value


CHANGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "data swap of a parameter": lambda ns: setattr(ns["head"].weight, "data",
                                                   ns["head"].weight.data.double()),
    "requires_grad_ on a parameter": lambda ns: ns["head"].bias.requires_grad_(False),
    "a parameter that turns into a non-leaf": _leaf_flip,
    "a parameter replaced": lambda ns: setattr(ns["head"], "weight",
                                               nn.Parameter(torch.zeros(1, 3))),
    "a grad appears": lambda ns: setattr(ns["head"].weight, "grad", torch.zeros(1, 3)),
    "a grad reallocated in another dtype": _grad_reallocated,
    "a grad resized in place": lambda ns: ns["model"][0].weight.grad.resize_(6),
    "a grad's data swapped": lambda ns: setattr(ns["model"][0].weight.grad, "data",
                                                torch.zeros(3, 2, dtype=torch.float16)),
    "a grad dropped": lambda ns: setattr(ns["model"][0].weight, "grad", None),
    "a None parameter set": lambda ns: setattr(ns["model"][2].gate, "bias",
                                               nn.Parameter(torch.zeros(3))),
    "a parameter set to None": lambda ns: setattr(ns["head"], "bias", None),
    "a None buffer set": lambda ns: ns["model"][2].gate.register_buffer("scale", None)
    or setattr(ns["model"][2].gate, "scale", torch.ones(1)),
    "a buffer resized in place": lambda ns: ns["model"][2].norm.running_mean.resize_(5),
    "a buffer that turns into a non-leaf": lambda ns: ns["model"][2].norm.running_mean.add_(
        torch.zeros(3, requires_grad=True)),
    "a submodule replaced": lambda ns: ns["model"].__setitem__(1, nn.Tanh()),
    "a submodule added": lambda ns: ns["model"].append(nn.Linear(3, 3)),
    "Module.to": lambda ns: ns["model"].to(torch.float64),
    "a module retyped in place": lambda ns: setattr(ns["model"], "__class__", Renamed),
    "a module deleted and rebuilt": _free_and_rebuild,
    "a new trap attribute": lambda ns: _set_attr(ns, "extra", torch.ones(3)),
    "a trap tensor swapped in place": lambda ns: setattr(ns["model"][2].scale, "data",
                                                         torch.ones(1, dtype=torch.float16)),
    "a trap tensor rebound": lambda ns: _set_attr(ns, "scale", torch.ones(1).to("meta")),
    "a trap list that grows": lambda ns: ns["model"][2].cache.append(torch.ones(4)),
    "a tensor in a trap tuple swapped in place": lambda ns: setattr(
        ns["model"][2].pair[0], "data", torch.zeros(2, dtype=torch.float64)),
    "a list in a trap tuple that grows": lambda ns: ns["model"][2].nested[0].append(
        torch.ones(3)),
    "a tuple of scalars rebound": lambda ns: _set_attr(ns, "kernel", (5, 5)),
    "a LayerNorm's shape rebound": lambda ns: setattr(ns["norm"], "normalized_shape", (2,)),
    "a number rebound to a tensor": lambda ns: _set_attr(ns, "width", torch.ones(1)),
    "an attribute deleted": lambda ns: ns["model"][2].__dict__.pop("scale"),
    "a key with a NUL in it": lambda ns: _set_attr(ns, "a\0b", torch.ones(2)),
    "an _hf_hook attached": lambda ns: _set_attr(ns, "_hf_hook", object()),
    "a forward pre-hook registered": lambda ns: ns["model"][2].proj.register_forward_pre_hook(
        _send_inputs_here),
    "a forward bound under autocast": lambda ns: setattr(
        ns["model"][2].proj, "forward", torch.autocast("cpu")(ns["model"][2].proj.forward)),
}


def _send_inputs_here(module: nn.Module, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """A pre-hook of the user's (unsloth's offloaded embedding): it places the module's inputs,
    and registering it changes no ``__dict__``."""
    return tuple(a.to(module.weight.device) for a in args)


def _watch(ns: dict[str, Any]) -> tuple[ForestWatch, Ctx, list[tuple[str, Any]]]:
    named = [(k, v) for k, v in ns.items() if isinstance(v, nn.Module)]
    ctx = Ctx(torch, 10_000)
    watch = ForestWatch()
    watch.remember(ctx, named)
    return watch, ctx, named


def test_an_unchanged_forest_is_proven_the_same() -> None:
    ns = namespace()
    watch, ctx, named = _watch(ns)
    assert watch.seen is not None
    assert watch.same(ctx, named)
    assert watch.same(ctx, named)


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_the_live_snapshot_equals_a_fresh_one_after_each_change(change: str) -> None:
    ns = namespace()
    live = Live()
    live.update(ns)
    live.update(ns)  # NB: the second push is the one the watch answers
    CHANGES[change](ns)
    snap = live.update(ns).snapshot
    assert snap.objects == take_snapshot(ns).objects
    assert live.update(ns).snapshot.objects == take_snapshot(ns).objects


def test_none_entries_are_watched() -> None:
    """``Linear(bias=False)`` and ``MultiheadAttention`` hold None in their tables: most
    transformer models do. The watch covers them (the token was read after every cell)."""
    ns = {"attn": nn.MultiheadAttention(4, 2), "proj": nn.Linear(4, 4, bias=False)}
    watch, ctx, named = _watch(ns)
    assert watch.seen is not None
    assert [t.nones.count(True) for t in watch.seen.tables] == [4, 0]
    assert watch.same(ctx, named) is True
    ns["proj"].bias = nn.Parameter(torch.zeros(4))
    assert not watch.same(ctx, named)


def test_what_the_watch_does_not_cover_it_leaves_to_the_token() -> None:
    tied = nn.Linear(2, 2)
    ns = {"model": nn.Sequential(tied, tied)}  # NB: one module reached twice
    watch, _ctx, _named = _watch(ns)
    assert watch.seen is None
    watch, _ctx, _named = _watch({"model": namespace()["model"], "plain": nn.Linear(1, 1)})
    assert watch.seen is not None
    ns = namespace()
    _set_attr(ns, "a\0b", 1)
    watch, _ctx, _named = _watch(ns)
    assert watch.seen is None


def test_no_tensor_is_weakly_referenced_so_swap_tensors_still_works() -> None:
    """``torch.utils.swap_tensors`` refuses a tensor with a weak reference (and can change the
    layout and view base of the same object): after a push, the user's swap still works and is
    seen."""
    ns = namespace()
    live = Live()
    live.update(ns)
    live.update(ns)
    mean = ns["model"][2].norm.running_mean
    torch.utils.swap_tensors(mean, torch.zeros(6)[:3])
    assert mean._base is not None  # NB: the same object is now a view
    torch.utils.swap_tensors(ns["head"].weight, nn.Parameter(torch.zeros(1, 3).to("meta")))
    assert live.update(ns).snapshot.objects == take_snapshot(ns).objects


@pytest.fixture(params=["versions", "no versions"])
def versions(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Both ways the watch proves dicts unchanged: by their versions, or by their keys."""
    if request.param == "no versions":
        monkeypatch.setattr(_versions, "_probed", True)
        monkeypatch.setattr(_versions, "_read", None)
    return request.param == "versions"


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_every_change_is_seen_with_or_without_versions(change: str, versions: bool) -> None:
    ns = namespace()
    watch, ctx, named = _watch(ns)
    assert watch.seen is not None and (watch.seen.versions is not None) == versions
    assert watch.same(ctx, named)
    CHANGES[change](ns)
    named = [(k, v) for k, v in ns.items() if isinstance(v, nn.Module)]
    assert not watch.same(ctx, named)


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the watch's walks of the trees (what equal versions spare)."""
    calls: list[int] = []
    real = _forest_watch._read

    def counted(roots: list[Any], seen: Any) -> Any:
        calls.append(1)
        return real(roots, seen)

    monkeypatch.setattr(_forest_watch, "_read", counted)
    return calls


def test_equal_versions_prove_the_trees_without_walking_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ns = namespace()
    watch, ctx, named = _watch(ns)
    walks = _reads(monkeypatch)
    assert watch.same(ctx, named) and watch.same(ctx, named)
    assert walks == []
    ns["model"].eval()  # NB: every module's dict changes, and nothing a record reads
    ns["model"].train()
    assert watch.same(ctx, named)
    assert walks == [1]  # NB: compared key by key once, then the new versions are trusted
    assert watch.same(ctx, named)
    assert walks == [1]


def test_trees_that_change_while_remembered_keep_no_versions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A cell on another thread can change a tree between the watch's walk and its reading of
    the versions: those versions then vouch for a tree it never walked."""
    ns = namespace()
    old = ns["model"][1]
    real = _forest_watch._versions

    def racing(dicts: list[Any], tables: list[Any]) -> list[int] | None:
        if ns["model"][1] is old:
            ns["model"][1] = nn.Tanh()  # NB: the ReLU stays alive: its weak reference too
        return real(dicts, tables)

    monkeypatch.setattr(_forest_watch, "_versions", racing)
    watch, ctx, named = _watch(ns)
    assert watch.seen is not None and watch.seen.versions is None
    assert not watch.same(ctx, named)


def test_a_version_reader_is_trusted_only_if_every_mutation_changes_it() -> None:
    from torch._C._dynamo.guards import dict_version

    assert _versions._faithful(dict_version)
    assert not _versions._faithful(lambda d: 0)
    assert not _versions._faithful(len)  # NB: a value replaced keeps the length
    assert not _versions._faithful(id)


def test_tuples_of_scalars_are_not_read_again_while_their_dicts_are_unchanged(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A convolution's ``kernel_size``, a norm's ``normalized_shape``: most extras of a real
    model are tuples of numbers. While every dict's version is unchanged, each is the very same
    immutable tuple, so it is not tokened again; a tuple holding a tensor still is."""
    if _versions.reader() is None:
        pytest.skip("no dict versions in this torch")
    ns = {"conv": nn.Conv2d(1, 2, 3), "norm": nn.LayerNorm(4)}
    watch, ctx, named = _watch(ns)
    assert watch.seen is not None and len(watch.seen.odd) >= 6
    assert watch.seen.odd_live == []

    def read(*_: object) -> None:
        raise AssertionError("a tuple of numbers tokened again")

    monkeypatch.setattr(_forest_watch.Tokenizer, "container", read)
    assert watch.same(ctx, named) is True
    monkeypatch.undo()
    ns["conv"].__dict__["pair"] = (torch.zeros(1), 2)
    watch, ctx, named = _watch(ns)
    assert watch.seen is not None and len(watch.seen.odd_live) == 1
    ns["conv"].pair[0].data = torch.zeros(2)
    assert watch.same(ctx, named) is False
