"""Hostile namespaces: the snapshot never raises, never mutates, never runs user code, and stays
bounded, whatever users keep in their notebooks."""

from __future__ import annotations

import dataclasses
from collections import OrderedDict, UserDict

import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from torch import nn
from torch._subclasses.fake_tensor import FakeTensorMode

from devicelens.analysis import diagnose
from devicelens.inspect import MAX_WIDTH, take_snapshot
from devicelens.render import DevicesView
from tests.fuzz.hostile import CALLS as LOUD
from tests.fuzz.hostile import EqHeld, LoudEqTensor, view_of_loud_eq

CALLED: list[str] = []


class Boom(Exception):
    pass


class RaisingProps:
    @property
    def weight(self):
        CALLED.append("property")
        raise Boom

    def __repr__(self):  # NB: records the call but answers, so hypothesis can print examples
        CALLED.append("repr")
        return "RaisingProps()"


class AnswersAnything:
    """A ``__getattr__`` proxy: claims every attribute, including ``__class__`` tricks."""

    def __getattr__(self, name):
        CALLED.append(f"getattr:{name}")
        return self

    @property
    def __class__(self):  # type: ignore[override]
        CALLED.append("__class__")
        return torch.Tensor


class HostileDict(dict):
    def items(self):
        CALLED.append("items")
        raise Boom

    def __iter__(self):
        CALLED.append("iter")
        raise Boom

    def __getitem__(self, k):
        CALLED.append("getitem")
        raise Boom


class HostileList(list):
    def __iter__(self):
        CALLED.append("iter")
        raise Boom

    def __len__(self):
        CALLED.append("len")
        raise Boom


class HostileModule(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.cache = torch.ones(3)

    def __getattr__(self, name):
        CALLED.append(f"module getattr:{name}")
        raise Boom

    def __getattribute__(self, name):
        if name not in ("__dict__", "__class__", "_parameters", "_buffers", "_modules"):
            CALLED.append(f"module getattribute:{name}")
        return super().__getattribute__(name)


class RaisingTorchFunction(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        CALLED.append(f"torch_function:{getattr(func, '__name__', func)}")
        if func is torch.Tensor.__repr__:  # NB: only so that hypothesis can print an example
            return "<RaisingTorchFunction>"
        raise Boom


@dataclasses.dataclass(frozen=True)
class Frozen:
    t: torch.Tensor
    @property
    def computed(self):
        CALLED.append("dataclass property")
        raise Boom


def exotic_tensors() -> dict[str, object]:
    with FakeTensorMode(allow_non_fake_inputs=True):
        fake = torch.empty(3, device="cuda:1")
    return {
        "fake": fake,
        "sparse": torch.eye(3).to_sparse(),
        "csr": torch.eye(3).to_sparse_csr(),
        "quant": torch.quantize_per_tensor(torch.ones(4), 0.1, 0, torch.qint8),
        "nested": torch.nested.nested_tensor([torch.ones(2), torch.ones(3)]),
        "complex": torch.ones(2, dtype=torch.complex64),
        "boolean": torch.ones(2, dtype=torch.bool),
        "subclass": torch.ones(2).as_subclass(RaisingTorchFunction),
        "param": nn.Parameter(torch.ones(2)),
    }


def fingerprint(obj, depth=0, seen=None):
    """Identity, length and tensor versions of everything reachable: mutation shows up here."""
    seen = set() if seen is None else seen
    if id(obj) in seen or depth > 8:
        return ("seen", id(obj))
    seen.add(id(obj))
    tp = type(obj)  # NB: compared by identity: ``in`` would run a metaclass's ``__eq__``
    if tp is list or tp is tuple or tp is set or tp is frozenset:
        return (id(obj), len(obj), [fingerprint(x, depth + 1, seen) for x in list(obj)[:50]])
    if tp is dict or tp is OrderedDict:
        values = list(obj.values())[:50]
        return (id(obj), len(obj), [fingerprint(v, depth + 1, seen) for v in values])
    if isinstance(obj, nn.Module):
        return (id(obj), [(id(p), p._version, str(p.device)) for p in obj._parameters.values()])
    if type(obj) is torch.Tensor or type(obj) is nn.Parameter:
        return (id(obj), obj._version, str(obj.device))
    return id(obj)


def hostile_namespace() -> dict[str, object]:
    rec: list = [torch.ones(1)]
    rec.append(rec)
    self_dict: dict = {"t": torch.ones(1)}
    self_dict["me"] = self_dict
    ns: dict[str, object] = {
        "props": RaisingProps(), "proxy": AnswersAnything(), "hdict": HostileDict(a=torch.ones(1)),
        "hlist": HostileList([torch.ones(1)]), "hmod": HostileModule(), "rec": rec,
        "self_dict": self_dict, "frozen": Frozen(torch.ones(2)),
        "ud": UserDict({"x": torch.ones(2)}), "huge": list(range(1_000_000)),
        "huge_tensors": [torch.ones(1)] * (MAX_WIDTH * 3),
    }
    ns.update(exotic_tensors())
    return ns


def test_hostile_namespace_snapshot_is_safe_and_complete():
    ns = hostile_namespace()
    before = {k: fingerprint(v) for k, v in ns.items()}
    CALLED.clear()
    snap = take_snapshot(ns)
    text = repr(DevicesView(snap, diagnose(snap)))
    assert CALLED == []
    assert {k: fingerprint(v) for k, v in ns.items()} == before
    assert snap.skipped == ()
    devices = {o.name: o.devices for o in snap.objects}
    assert devices["fake"] == ("cuda:1",) and devices["quant"] == ("cpu",)
    assert {o.name: o.tensors[0].flavor for o in snap.objects if o.kind == "tensor"} == {
        "fake": "fake", "sparse": "sparse", "csr": "sparse", "quant": "quantized",
        "nested": "nested", "complex": "dense", "boolean": "dense", "subclass": "subclass",
        "param": "dense"}
    # base-type reads see through the hostile overrides
    assert [t.path for t in snap["hdict"].tensors] == ["hdict['a']"]
    assert [t.path for t in snap["hlist"].tensors] == ["hlist[0]"]
    assert {t.path for t in snap["hmod"].tensors} == {"hmod.fc.weight", "hmod.fc.bias",
                                                      "hmod.cache"}
    assert [t.path for t in snap["ud"].tensors] == ["ud['x']"]
    assert [t.path for t in snap["rec"].tensors] == ["rec[0]"]
    assert snap["huge_tensors"].truncated and len(snap["huge_tensors"].tensors) == MAX_WIDTH
    assert "props" not in snap and "proxy" not in snap and "huge" not in snap
    assert "cuda:1" in text


EXOTIC = exotic_tensors()
# NB: hypothesis holds factories, not the objects: describing a hostile object would trip it.
FACTORIES = [*(lambda k=k: EXOTIC[k] for k in EXOTIC), RaisingProps, AnswersAnything,
             lambda: HostileDict(k=torch.ones(1)), lambda: HostileList([1]),
             lambda: torch.ones(2), lambda: None, lambda: 3, lambda: "s", HostileModule,
             lambda: EqHeld(None), view_of_loud_eq]
leaves = st.sampled_from(range(len(FACTORIES))).map(lambda i: FACTORIES[i]())
trees = st.recursive(
    leaves,
    lambda kids: st.one_of(
        st.lists(kids, max_size=4), st.tuples(kids, kids),
        st.dictionaries(st.text(max_size=3), kids, max_size=4),
        st.builds(lambda v: Frozen(v), kids)),
    max_leaves=20)


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.from_regex(r"[a-z]{1,6}", fullmatch=True), trees, max_size=6))
def test_any_nesting_of_hostile_objects(ns):
    before = {k: fingerprint(v) for k, v in ns.items()}
    CALLED.clear()
    LOUD.clear()
    snap = take_snapshot(ns)
    diagnose(snap)
    assert CALLED == [] and LOUD == [], (CALLED, LOUD)
    assert {k: fingerprint(v) for k, v in ns.items()} == before
    assert all(o.name in ns for o in snap.objects)


class BrokenDevice(torch.Tensor):
    @property
    def device(self):  # type: ignore[override]
        CALLED.append("device property")
        raise Boom


def test_a_tensor_whose_metadata_raises_becomes_an_opaque_row():
    t = torch.ones(3).as_subclass(BrokenDevice)
    CALLED.clear()
    snap = take_snapshot({"t": t, "ok": torch.ones(1)})
    (rec,) = snap["t"].tensors
    # NB: the device then comes from the C tensor header, not from the raising property
    assert (rec.flavor, rec.device, rec.dtype) == ("opaque", "cpu", "?")
    assert CALLED == []
    assert snap.skipped == () and snap["ok"].tensors[0].flavor == "dense"


def test_user_classes_and_tensor_bases_are_compared_by_identity_only():
    """``list.count`` and ``in`` compare with ``==``: on a class that runs its metaclass, on a
    view's base the base's ``__eq__``. The snapshot and the panel's updates compare both by
    identity, and their rows equal a fresh snapshot's after a change."""
    from devicelens.inspect._live import Live

    view = view_of_loud_eq()
    base = view._base
    assert type(view) is torch.Tensor and type(base) is LoudEqTensor
    model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
    model[0].note = EqHeld(None)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for p in model.parameters():  # NB: every state the same keys: read in columns
        opt.state[p]["extra"] = EqHeld(None)
    opt.param_groups[0]["tag"] = EqHeld(None)
    ns = {"view": view, "x": torch.zeros(3), "model": model, "opt": opt,
          "table": {"a": torch.zeros(1), "b": EqHeld(None)}, "row": [torch.zeros(1), EqHeld(None)],
          "pair": (EqHeld(None), torch.zeros(2)), "keyed": {EqHeld(None): torch.zeros(1)}}
    names = [f"t{i}" for i in range(300)]  # NB: more than one guarded chunk of loose tensors
    ns.update((k, torch.zeros(1)) for k in names)
    ns["late"] = base.view(4).as_subclass(torch.Tensor)  # NB: last, in the final short chunk
    live = Live()
    CALLED.clear()
    LOUD.clear()
    live.update(ns)
    live.update(ns)
    model[0].weight.data = model[0].weight.data.double()
    ns["x"] = torch.zeros(3, dtype=torch.float16)
    got = live.update(ns).snapshot
    fresh = take_snapshot(ns)
    assert CALLED == [] and LOUD == []
    assert [(t.path, t.dtype) for t in got.tensors()] == [
        (t.path, t.dtype) for t in fresh.tensors()]
    storage = {t.path: t.storage for t in fresh.tensors()}
    assert storage["view"] == storage["late"] == id(base)  # NB: read as views of ``base``
    assert {t.path: t.dtype for t in fresh.tensors()}["model.0.weight"] == "float64"
