"""Snapshot: what it records, with which paths, and what it never does (touch data, init CUDA)."""

from __future__ import annotations

import dataclasses
from collections import namedtuple
from typing import Any

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn

from devicelens.inspect import MAX_WIDTH, take_snapshot
from devicelens.inspect._live import Live


def by_path(snap, name):
    return {t.path: t for t in snap[name].tensors}


def test_loose_tensor_metadata():
    x = torch.zeros(3, 4, dtype=torch.float16, requires_grad=True)
    snap = take_snapshot({"x": x})
    (t,) = snap["x"].tensors
    assert (t.path, t.role, t.device, t.dtype, t.shape) == ("x", "tensor", "cpu", "float16", (3, 4))
    assert (t.numel, t.nbytes, t.requires_grad, t.is_leaf, t.layout) == (12, 24, True, True,
                                                                         "strided")
    assert snap["x"].kind == "tensor" and snap["x"].devices == ("cpu",)


Cfg = namedtuple("Cfg", ["scale", "bias"])


@dataclasses.dataclass
class Config:
    weights: list
    name: str = "cfg"


def test_nested_containers_have_readable_key_paths():
    ns = {
        "batch": {"input_ids": torch.zeros(2, 5, dtype=torch.long), "mask": torch.ones(2, 5)},
        "cfg": Config(weights=[torch.ones(1), torch.ones(2), torch.ones(3)]),
        "nt": Cfg(torch.ones(2), 3.0),
        "pair": (torch.ones(1), [torch.ones(2)]),
        "bag": {torch.ones(1)},
    }
    snap = take_snapshot(ns)
    assert set(by_path(snap, "batch")) == {"batch['input_ids']", "batch['mask']"}
    assert by_path(snap, "cfg")["cfg.weights[2]"].shape == (3,)
    assert set(by_path(snap, "nt")) == {"nt.scale"}
    assert set(by_path(snap, "pair")) == {"pair[0]", "pair[1][0]"}
    assert set(by_path(snap, "bag")) == {"bag[#0]"}
    assert snap["nt"].frozen and snap["pair"].frozen and not snap["batch"].frozen


def test_module_paths_are_full_attribute_paths():
    layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16)
    model = nn.Module()
    model.encoder = nn.TransformerEncoder(layer, num_layers=4, enable_nested_tensor=False)
    snap = take_snapshot({"model": model})
    paths = by_path(snap, "model")
    t = paths["model.encoder.layers.3.self_attn.in_proj_weight"]
    assert (t.role, t.owner, t.shape) == ("parameter", "model.encoder.layers.3.self_attn", (24, 8))
    assert len([p for p in paths.values() if p.role == "parameter"]) == len(
        list(model.parameters()))
    mods = {m.path: m for m in snap["model"].modules}
    assert mods["model.encoder.layers.3"].n_tensors == 12
    assert mods["model.encoder.layers.3"].type_name == "TransformerEncoderLayer"


class WithTraps(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.pos_emb = torch.zeros(4)  # plain attribute: .to() will not move it
        self.register_buffer("scale", torch.ones(4))
        self.heads = [nn.Linear(4, 2), nn.Linear(4, 2)]  # plain list: .to() will not move it
        self.table = {"a": torch.ones(2)}


def test_module_traps_are_recorded_with_their_roles():
    m = WithTraps()
    snap = take_snapshot({"m": m})
    paths = by_path(snap, "m")
    assert paths["m.pos_emb"].role == "attribute"
    assert paths["m.scale"].role == "buffer"
    assert paths["m.fc.weight"].role == "parameter"
    assert paths["m.heads[1].weight"].role == "trapped"
    assert paths["m.table['a']"].role == "trapped"
    mods = {r.path: r for r in snap["m"].modules}
    assert mods["m.heads[0]"].trapped and not mods["m.fc"].trapped


def test_optimizer_state_is_addressed_by_module_path():
    model = nn.Sequential(nn.Linear(3, 2))
    opt = torch.optim.Adam(model.parameters())
    model(torch.randn(4, 3)).sum().backward()
    opt.step()
    snap = take_snapshot({"opt": opt, "model": model})
    paths = by_path(snap, "opt")
    assert paths["opt.state[model.0.weight]['exp_avg']"].shape == (2, 3)
    assert paths["opt.state[model.0.bias]['step']"].shape == ()
    params = [t for t in snap["opt"].tensors if t.role == "opt_param"]
    assert [p.owner for p in params] == ["model.0.weight", "model.0.bias"]
    grads = [t for t in snap["model"].tensors if t.role == "grad"]
    assert [g.path for g in grads] == ["model.0.weight.grad", "model.0.bias.grad"]


def test_aliases_and_views_count_once():
    model = nn.Linear(10, 10, bias=False)  # 400 bytes
    x = torch.zeros(100)  # 400 bytes
    ns = {"model": model, "w": model.weight, "x": x, "x_view": x[:50], "again": [x]}
    snap = take_snapshot(ns)
    (cpu,) = snap.totals
    assert cpu.device == "cpu" and cpu.nbytes == 800
    assert cpu.objects == 5


def test_per_device_totals_and_fake_cuda(fake_cuda):
    ns = {"a": fake_cuda.randn(4, device="cuda:0"), "b": fake_cuda.randn(8, device="cuda:1"),
          "c": torch.ones(2), "m": fake_cuda.to(nn.Linear(2, 2), "cuda:1")}
    snap = take_snapshot(ns)
    totals = {t.device: (t.objects, t.tensors, t.nbytes) for t in snap.totals}
    assert totals == {"cpu": (1, 1, 8), "cuda:0": (1, 1, 16), "cuda:1": (2, 3, 56)}
    assert snap["a"].tensors[0].flavor == "fake"


def test_dataparallel_wrapper_info():
    dp = nn.DataParallel(nn.Linear(2, 2))
    dp.device_ids, dp.output_device = [1, 0], 1  # what a 2-GPU machine would have
    snap = take_snapshot({"dp": dp})
    o = snap["dp"]
    assert (o.wrapper, o.device_ids, o.output_device) == ("DataParallel", (1, 0), 1)
    assert "dp.module.weight" in by_path(snap, "dp")


def test_width_and_depth_are_bounded_with_a_marker():
    many = [torch.ones(1) for _ in range(MAX_WIDTH + 50)]
    deep: list = [torch.ones(1)]
    for _ in range(20):
        deep = [deep]
    snap = take_snapshot({"many": many, "deep": deep})
    assert len(snap["many"].tensors) == MAX_WIDTH and snap["many"].truncated
    assert "deep" not in snap and snap.truncated


def test_node_budget_bounds_the_whole_walk():
    ns = {f"t{i}": torch.ones(1) for i in range(50)}
    snap = take_snapshot(ns, max_nodes=10)
    assert len(snap.tensors()) == 10 and snap.truncated


def test_ignores_private_and_ipython_names():
    ns = {"_": torch.ones(1), "_i3": torch.ones(1), "Out": {1: torch.ones(1)}, "x": torch.ones(1)}
    assert [o.name for o in take_snapshot(ns).objects] == ["x"]
    # NB: whatever ``In``/``Out`` hold, as the panel's updates read them (``_columns.shown``)
    for held in (torch.ones(1), torch.ones(1, requires_grad=True), nn.Parameter(torch.ones(1))):
        ns = {"In": held, "x": torch.ones(1), "Out": held, "y": nn.Linear(1, 1)}
        assert [o.name for o in take_snapshot(ns).objects] == ["x", "y"]
        assert [o.name for o in Live().update(ns).snapshot.objects] == ["x", "y"]


def test_names_filter_and_no_tensors():
    snap = take_snapshot({"x": torch.ones(1), "y": torch.ones(2), "s": "text"}, names=["y", "s"])
    assert [o.name for o in snap.objects] == ["y"]


def test_available_devices_without_initialising_cuda():
    snap = take_snapshot({})
    names = [d.name for d in snap.devices]
    assert names[0] == "cpu" and names[-1] == "meta"
    assert not torch.cuda.is_initialized()


def test_snapshot_never_reads_tensor_data(monkeypatch):
    """NB: str/repr/item/tolist are how data gets read (and GPUs synced); none may be called."""
    calls = []
    for meth in ("__repr__", "__str__", "item", "tolist", "numpy", "__format__", "__bool__"):
        orig = getattr(torch.Tensor, meth)

        def spy(self, *a, _orig=orig, _m=meth, **k):
            calls.append(_m)
            return _orig(self, *a, **k)

        monkeypatch.setattr(torch.Tensor, meth, spy)
    model = WithTraps()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    take_snapshot({"model": model, "opt": opt, "x": torch.ones(3), "b": {"y": torch.ones(1)}})
    assert calls == []


def test_snapshot_is_frozen():
    snap = take_snapshot({"x": torch.ones(1)})
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.truncated = True  # type: ignore[misc]
    with pytest.raises(AttributeError):
        snap["x"].tensors[0].device = "meta"  # type: ignore[misc]


def test_json_form_is_plain_data():
    import json

    model = WithTraps()
    from devicelens.jupyter._protocol import snapshot_to_wire

    wire = snapshot_to_wire(take_snapshot({"model": model, "x": torch.ones(2)}))
    back = json.loads(json.dumps(wire))
    assert [o["name"] for o in back["objects"]] == ["model", "x"]
    assert back["objects"][1]["shape"] == [2] and back["totals"][0]["device"] == "cpu"


def test_optimizer_device_ignores_its_cpu_step_counters():
    model = nn.Linear(3, 2)
    opt = torch.optim.Adam(model.parameters())
    model(torch.randn(4, 3)).sum().backward()
    opt.step()
    for s in opt.state.values():  # what a correct move to an accelerator leaves behind
        s["exp_avg"], s["exp_avg_sq"] = s["exp_avg"].to("meta"), s["exp_avg_sq"].to("meta")
    snap = take_snapshot({"opt": opt})
    assert snap["opt"].devices == ("meta",)
    assert {t.device for t in snap["opt"].tensors if t.path.endswith("['step']")} == {"cpu"}


@pytest.mark.parametrize("change", ["device", "dtype", "shape", "rebind", "grad", "view"])
def test_a_changed_tensor_is_never_served_from_the_last_snapshot(change):
    x = torch.zeros(3)
    ns = {"x": x}
    live = Live()
    live.update(ns)
    if change == "device":
        torch.utils.swap_tensors(x, torch.zeros(3, device="meta"))  # same object, new device
    elif change == "dtype":
        x.data = x.data.double()
    elif change == "shape":
        x.resize_(5)
    elif change == "rebind":
        ns["x"] = torch.zeros(3, dtype=torch.int8)
    elif change == "grad":
        x.requires_grad_(True)
    else:
        base = torch.zeros(6)
        ns["x"] = base[:3]
    update = live.update(ns)
    assert update.changed == {"x"}
    fresh = update.snapshot["x"].tensors[0]
    t = ns["x"]
    assert (fresh.device, fresh.dtype, fresh.shape, fresh.requires_grad) == (
        str(t.device), str(t.dtype).removeprefix("torch."), tuple(t.shape), t.requires_grad)
    assert fresh.nbytes == t.numel() * t.element_size()
    assert fresh.storage == id(t if t._base is None else t._base)


def test_compact_rows_read_exactly_like_records():
    """Names bound to plain tensors are kept as compact columns; everything read from them
    (records, totals, groups, findings) equals what walked records give."""
    from devicelens.analysis import diagnose
    from devicelens.inspect.records import FULL, Loose, Snapshot

    model = nn.Linear(3, 2)
    ns = {"model": model, "a": torch.zeros(3), "b": torch.zeros(2, dtype=torch.float64),
          "c": torch.zeros(4, device="meta"), "s": torch.zeros((), dtype=torch.long),
          "alias": None, "views": [torch.zeros(8)[2:]]}
    ns["alias"] = ns["a"]
    snap = take_snapshot(ns)
    assert len(snap.composites()) == 2  # model and views: the rest are compact rows
    walked = Snapshot(bytes([FULL]) * len(snap), list(snap.objects), Loose(), snap.devices,
                      snap.truncated, snap.torch_version, snap.skipped)
    assert walked.objects == snap.objects
    assert walked.totals == snap.totals
    assert [(f.id, f.message) for f in diagnose(walked)] == [
        (f.id, f.message) for f in diagnose(snap)]
    assert snap.loose_layouts() == {("cpu", "float32", False), ("cpu", "float64", False),
                                    ("meta", "float32", False), ("cpu", "int64", True)}
    positions = snap.loose_positions({("meta", "float32", False)})
    assert [o.name for o in snap.records_at(positions)] == ["c"]
    (cpu, meta) = snap.totals
    assert (cpu.objects, cpu.tensors, cpu.nbytes) == (6, 7, 24 + 12 + 16 + 8 + 32)
    assert (meta.objects, meta.tensors, meta.nbytes) == (1, 1, 16)


def test_a_non_leaf_tensor_is_read_without_the_grad_warning():
    """Issue 12 J: ``loss`` in the namespace made every snapshot print PyTorch's warning about
    the .grad of a non-leaf tensor; a retained grad is still shown."""
    import warnings

    w = torch.ones(2, requires_grad=True)
    loss = (w * 2).sum()
    loss.backward()
    h = w * 3
    h.retain_grad()
    h.sum().backward()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # NB: any warning fails the test
        snap = take_snapshot({"w": w, "loss": loss, "h": h})
    assert [t.path for o in snap.objects for t in o.tensors] == [
        "w", "w.grad", "loss", "h", "h.grad"]


def test_deque_userlist_chainmap_simplenamespace_and_odd_module_keys_are_walked():
    """Issue 12 H (the snapshot's half): these containers were neither shown nor diagnosed, and
    one non-string key in a module's ``__dict__`` skipped the whole module."""
    import collections
    import types

    from devicelens import apply_fix, diagnose

    model = nn.Linear(2, 2).to("meta")
    model.__dict__[1] = "not a name"
    ns = {"model": model, "dq": collections.deque([torch.ones(2)]),
          "ul": collections.UserList([torch.ones(2)]),
          "cm": collections.ChainMap({"a": torch.ones(2)}, {"a": 0, "b": torch.ones(2)}),
          "sn": types.SimpleNamespace(a=torch.ones(2))}
    snap = take_snapshot(ns)
    assert snap.skipped == ()
    assert {o.name: [t.path for t in o.tensors] for o in snap.objects} == {
        "model": ["model.weight", "model.bias"], "dq": ["dq[0]"], "ul": ["ul[0]"],
        "cm": ["cm['a']", "cm['b']"], "sn": ["sn.a"]}
    strays = {p for f in diagnose(snap) if f.kind == "loose_device" for p in f.paths}
    assert strays == {"dq[0]", "ul[0]", "cm['a']", "cm['b']", "sn.a"}
    for f in diagnose(snap):
        if f.kind == "loose_device":
            assert apply_fix(f, ns).ok
    assert [ns["dq"][0].device.type, ns["ul"][0].device.type, ns["cm"]["a"].device.type,
            ns["cm"]["b"].device.type, ns["sn"].a.device.type] == ["meta"] * 5
    assert ns["cm"].maps[1]["a"] == 0  # the shadowed entry is untouched


@pytest.mark.parametrize("with_nested", [False, True])
def test_compact_rows_and_walked_names_keep_the_namespace_order(with_nested):
    """The compact rows are picked in one pass and read column by column; a nested tensor
    (whose shape raises) makes the pass run again, one shape at a time. Either way every name
    keeps its place, and each row reads exactly as the full walk reads it."""
    from devicelens.inspect.records import FULL, Loose, Snapshot

    base = torch.zeros(6)
    ns = {"a": torch.zeros(3), "view": base[1:], "b": torch.zeros(2, 2, dtype=torch.int8),
          "grad": torch.ones(2, requires_grad=True), "_hidden": torch.zeros(1),
          "sparse": torch.eye(2).to_sparse(), "c": torch.zeros(5, device="meta"),
          "param": nn.Parameter(torch.ones(2)), "base": base, "d": torch.zeros((), device="meta"),
          "In": torch.zeros(1), "e": torch.zeros(3, dtype=torch.float16)}
    if with_nested:
        ns = {"strided_nt": torch.nested.nested_tensor([torch.ones(2), torch.ones(3)]), **ns,
              "jagged": torch.nested.nested_tensor([torch.ones(2), torch.ones(3)],
                                                   layout=torch.jagged)}
    snap = take_snapshot(ns)
    shown = [k for k in ns if k not in ("_hidden", "In")]
    assert [o.name for o in snap.objects] == shown
    walked = {o.name for _, o in snap.composites()}
    assert walked == {"view", "grad", "sparse", "param"} | (
        {"strided_nt", "jagged"} if with_nested else set())
    full = Snapshot(bytes([FULL]) * len(snap), list(snap.objects), Loose(), snap.devices)
    assert full.objects == snap.objects and full.totals == snap.totals
    rows = {o.name: (o.devices, o.dtypes, o.tensors[0].shape, o.nbytes) for o in snap.objects}
    assert rows["c"] == (("meta",), ("float32",), (5,), 20)
    assert rows["d"] == (("meta",), ("float32",), (), 4)
    assert rows["b"] == (("cpu",), ("int8",), (2, 2), 4)
    assert rows["e"] == (("cpu",), ("float16",), (3,), 6)
    # NB: one device object per device, however many rows: a row's bytes stay a few dozen
    assert len(set(map(id, snap._loose.devices))) == 2 == len(set(snap._loose.devices))


def test_summary_of_the_names_left_out_equals_their_records():
    base = torch.zeros(4, 4)
    ns = {"a": torch.zeros(3), "m": nn.Linear(2, 2).to(torch.float16), "b": torch.zeros(
        2, dtype=torch.int64, device="meta"), "view": base[1], "base": base,
        "box": {"h": torch.zeros(5, dtype=torch.bfloat16)}, "c": torch.zeros((), device="meta"),
        "meta_model": nn.Linear(3, 1).to("meta"), "d": torch.zeros(2, 2, dtype=torch.float64)}
    snap = take_snapshot(ns)
    assert len(snap) == len(ns)
    objects = snap.objects
    order = {"cpu": 0, "meta": 1}
    skips = [(), *((p,) for p in range(len(ns))), (0, 2), (1, 3, 5, 7), tuple(range(len(ns)))]
    for skip in skips:
        rest = [o for p, o in enumerate(objects) if p not in skip]
        want = (tuple(sorted({d for o in rest for d in o.devices}, key=order.__getitem__)),
                tuple(sorted({t for o in rest for t in o.dtypes})),
                sum(o.nbytes for o in rest))
        assert snap.summary(skip) == want, skip
    assert snap.summary(()) == (("cpu", "meta"), ("bfloat16", "float16", "float32", "float64",
                                                  "int64"),
                                12 + 12 + 16 + 16 + 64 + 10 + 4 + 16 + 32)


_BASE = torch.zeros(6)
_VALUES = {  # NB: factories: each draw binds a new object where the namespace would
    "plain": lambda: torch.zeros(2), "meta": lambda: torch.zeros(3, device="meta"),
    "half": lambda: torch.zeros(1, dtype=torch.float16), "view": lambda: _BASE[1:],
    "grad": lambda: torch.ones(2, requires_grad=True), "param": lambda: nn.Parameter(
        torch.ones(1)), "sparse": lambda: torch.eye(2).to_sparse(), "int": lambda: 3,
    "list": lambda: [torch.zeros(1), 2], "module": lambda: nn.Linear(1, 1), "none": lambda: None}
_KEYS = st.one_of(st.sampled_from(["In", "Out", "_", "__", "_i3", "_7", "x", "y", ""]),
                  st.text(alphabet="ab_\0", max_size=3), st.integers(0, 3))


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(st.lists(st.tuples(_KEYS, st.sampled_from(sorted(_VALUES))), max_size=12))
def test_the_shown_names_split_the_same_in_one_comprehension_and_one_by_one(entries):
    """``_split_shown`` (names filtered at C speed, one comprehension) against the loop it
    stands for: private names, ``In``/``Out`` bound to anything, keys that are not ``str`` or
    hold NULs, views, autograd, parameters, sparse tensors, anything else."""
    from devicelens.inspect import snapshot

    ns = {k: _VALUES[v]() for k, v in entries}
    names, ts, rest = snapshot._split_shown(torch, ns)
    one_by_one = snapshot._split(torch, dict.items(ns), True, careful=False)
    assert names == one_by_one[0] and list(map(id, ts)) == list(map(id, one_by_one[1]))
    assert [(p, k, id(v)) for p, k, v in rest] == [(p, k, id(v)) for p, k, v in one_by_one[2]]
    shown = [k for k in ns if type(k) is str and k[:1] != "_" and k not in ("In", "Out")]
    assert [o.name for o in take_snapshot(ns).objects] == [
        k for k in shown if take_snapshot({k: ns[k]}).objects]


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.lists(st.text(alphabet="a_\0", max_size=4), max_size=10))
def test_private_keys_are_found_at_c_speed(keys):
    from devicelens.inspect._columns import private_positions

    assert private_positions(keys) == [i for i, k in enumerate(keys) if k.startswith("_")]


def test_a_few_names_are_found_where_the_scan_of_every_name_finds_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``loose_named`` finds a few names one by one (``list.index``) and places each past the
    walked records before it; the positions are the ones the scan of every name gives, with
    modules before, between and after the compact rows, and names that are absent or walked."""
    import random

    from devicelens.inspect import records

    rng = random.Random(7)
    for _ in range(60):
        ns: dict[str, Any] = {}
        for i in range(rng.randint(0, 30)):
            ns[f"v{i}"] = nn.Linear(1, 1) if rng.random() < 0.3 else torch.zeros(1)
        snap = take_snapshot(ns)
        pool = [*ns, "absent"]
        for _ in range(6):
            wanted = set(rng.sample(pool, min(len(pool), rng.randint(1, records._FEW_NAMES))))
            few = snap.loose_named(wanted)
            with monkeypatch.context() as m:
                m.setattr(records, "_FEW_NAMES", 0)
                scanned = snap.loose_named(wanted)
            assert few == scanned
            assert few == sorted(p for p, n in enumerate(snap.names())
                                 if n in wanted and type(ns[n]) is torch.Tensor)
