"""A model read in columns (``inspect/_model_columns.py``) gives the walker's very records.

The walker (:meth:`Walker.module`) is the reference: every model here is walked both ways and
everything compared — records, module aggregates, the parameter paths and records offered to
optimizers, the node budget left and whether it ran out. Models the columns do not take must
say so (and be walked); plain ones must be taken, or the comparison would prove nothing.
"""

from __future__ import annotations

import warnings

import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from torch import nn

from devicelens.inspect import MAX_WIDTH, _objects, take_snapshot
from devicelens.inspect._model_columns import read_model
from devicelens.inspect._tree import resolve
from devicelens.inspect._walk import Ctx, Walker


def walk_both(model: nn.Module, budget: int = 10_000):
    """(columns taken?, what the columns wrote, what the walker wrote), each as comparable data,
    the model's object record among it (from the columns' sums where taken)."""
    ctx = Ctx(torch, budget)
    w = Walker(ctx)
    w.regs = []
    root = (_objects.step("name", "m"),)
    sums = read_model(w, model, "m", root)
    if sums is None:
        assert (w.tensors, w.modules, w.regs, ctx.param_paths, ctx.param_records,
                ctx.budget) == ([], [], [], {}, {}, budget), "a refusal wrote something"
        w.module(model, "m", root, 0, False)
    ref_ctx = Ctx(torch, budget)
    ref = Walker(ref_ctx)
    ref.regs = []
    ref.module(model, "m", root, 0, False)
    return (sums is not None, (*state(w, ctx), _objects._object_record(w, model, "m", "module",
                                                                       sums)),
            (*state(ref, ref_ctx), _objects._object_record(ref, model, "m", "module")))


def state(w: Walker, ctx: Ctx):
    records = {k: (id(t), rec, grec) for k, (t, rec, grec) in ctx.param_records.items()}
    return (w.tensors, w.modules, w.regs, w.truncated, ctx.param_paths, records, ctx.budget,
            ctx.exhausted)


def leaves():
    return [nn.Linear(3, 4), nn.Linear(4, 2, bias=False), nn.Conv1d(1, 2, 3),
            nn.BatchNorm1d(4), nn.LayerNorm(4), nn.Embedding(5, 3), nn.ReLU(),
            nn.LSTM(2, 3), nn.MultiheadAttention(4, 2)]


def test_real_models_are_taken_and_read_as_the_walker_reads_them():
    encoder = nn.TransformerEncoder(
        nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16), num_layers=2,
        enable_nested_tensor=False)
    convnet = nn.Sequential(nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten())
    for model in (encoder, convnet, nn.Sequential(*leaves()),
                  nn.ModuleDict({"a": nn.Linear(2, 2), "b": nn.ModuleList([nn.Linear(2, 1)])})):
        for p in list(model.parameters())[::2]:
            p.grad = torch.ones_like(p)
        taken, got, want = walk_both(model)
        assert taken, type(model).__name__
        assert got == want
        assert len(got[0]) > len(list(model.parameters()))  # NB: grads are among the records


def test_shared_and_tied_cyclic_mixed_and_viewing_models_agree():
    shared = nn.Linear(2, 2)
    tied = nn.Sequential(nn.Embedding(4, 2), nn.Linear(2, 4))
    tied[1].weight = tied[0].weight  # NB: one Parameter under two paths
    cyclic = nn.Sequential(nn.Linear(2, 2))
    cyclic.add_module("back", cyclic)  # NB: the walker stops at a module on its own path
    mixed = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2).to("meta"), nn.Linear(2, 2).half())
    halved = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2).half())  # NB: one device, two dtypes
    viewing = nn.Module()
    viewing.register_buffer("base", torch.arange(6.0))
    viewing.register_buffer("view", viewing.base[2:])  # NB: its storage is its base's
    for model in (nn.Sequential(shared, nn.ReLU(), shared), tied, cyclic, mixed, halved, viewing):
        taken, got, want = walk_both(model)
        assert taken and got == want
    assert len({t.storage for t in walk_both(viewing)[1][0]}) == 1


def test_what_the_columns_do_not_take_is_walked_as_before():
    trap = nn.Linear(2, 2)
    trap.pos = torch.zeros(2)  # NB: a tensor bound as a plain attribute
    hidden = nn.Linear(2, 2)
    hidden._pos = torch.zeros(2)  # NB: private, but a tensor: the walker reads it
    listed = nn.Linear(2, 2)
    listed.cache = [1, {"x": torch.ones(1)}]  # NB: a tensor inside plain containers
    sub = nn.Linear(2, 2)
    sub.weight = nn.parameter.UninitializedParameter()  # NB: a tensor subclass
    sparse = nn.Module()
    sparse.register_buffer("s", torch.eye(3).to_sparse())
    nested = nn.Module()
    nested.register_buffer("n", torch.nested.nested_tensor([torch.ones(2), torch.ones(3)]))
    subgrad = nn.Linear(2, 2)
    subgrad.weight.grad = nn.Parameter(torch.ones(2, 2))  # NB: a grad that is a Parameter
    looped = nn.Linear(2, 2)
    looped.loop = [1]
    looped.loop.append(looped.loop)  # NB: the walker skips the inner one; the columns refuse
    deep = nn.Linear(2, 2)
    deep.nest = [[[[[[1]]]]]]  # NB: past the walker's depth: it marks the record truncated
    wide = nn.Linear(2, 2)
    wide.sizes = list(range(MAX_WIDTH + 1))  # NB: past the walker's width: truncated too
    for model in (trap, hidden, listed, sub, sparse, nested, subgrad, looped, deep, wide):
        taken, got, want = walk_both(model)
        assert not taken and got == want
    assert walk_both(deep)[1][3] and walk_both(wide)[1][3]  # NB: both truncated


def test_a_non_leaf_grad_is_read_only_where_retained_and_never_warns():
    x = torch.ones(2, requires_grad=True)
    kept, dropped = x * 2, x * 3
    kept.retain_grad()
    (kept.sum() + dropped.sum()).backward()
    model = nn.Module()
    model.register_buffer("kept", kept)
    model.register_buffer("dropped", dropped)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # NB: torch warns when a non-leaf's .grad is read
        taken, got, want = walk_both(model)
    assert taken and got == want
    assert [t.path for t in got[0]] == ["m.kept", "m.kept.grad", "m.dropped"]


class Config:
    """An object that is no container (a model's ``config``): never walked."""

    def __init__(self) -> None:
        self.hidden = torch.ones(1)


def test_plain_values_and_containers_of_them_are_taken():
    model = nn.Linear(2, 2)
    model.warnings_issued = {}  # NB: as every transformers model has
    model.sizes = [3, (3, 3), {"pad": 1, "mode": "zeros", "more": [None, 2.5]}]
    model.config = Config()
    taken, got, want = walk_both(model)
    assert taken and got == want
    assert 10_000 - got[6] == 1 + 2 + 1 + 4  # NB: the module, two tensors, four containers


def test_a_budget_too_small_is_left_to_the_walker():
    model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
    needed = 3 + 4  # NB: three modules, four tensors; grads cost no node
    assert walk_both(model, needed)[0]
    taken, got, want = walk_both(model, needed - 1)
    assert not taken and got == want and got[3] and got[7]  # NB: truncated, exhausted


def test_an_optimizer_after_a_columns_walk_labels_the_same_records():
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
    opt = torch.optim.Adam(model.parameters())
    for p in model.parameters():
        p.grad = torch.ones_like(p)
    opt.step()
    ns = {"model": model, "opt": opt}
    fast = take_snapshot(ns)
    reference = _objects.read_model
    try:
        _objects.read_model = lambda *a: None  # NB: every model walked by the walker
        slow = take_snapshot(ns)
    finally:
        _objects.read_model = reference
    assert fast.objects == slow.objects and fast.totals == slow.totals
    assert fast["opt"].tensors[0].owner == "model.0.weight"


# --- random models ----------------------------------------------------------------------

LEAF = st.sampled_from(range(len(leaves())))
EDITS = st.sampled_from(["grad", "frozen", "meta", "half", "tie", "reuse", "view", "number",
                         "text", "sizes", "config", "trap", "hidden", "list", "loop",
                         "subclass"])
TAKES_NOT = {"trap", "hidden", "list", "loop", "subclass"}  # NB: what sends a model to the walker


def build(shape, edits, rng):
    """A model from drawn leaves and nesting, then the drawn edits, each on a drawn module."""
    def make(node):
        if isinstance(node, int):
            return leaves()[node]
        return nn.Sequential(*map(make, node)) if node else nn.Sequential()

    model = make(shape)
    mods = list(model.modules())
    for edit, at in zip(edits, rng, strict=False):
        m = mods[at % len(mods)]
        params = list(m.parameters(recurse=False))
        if edit == "grad":
            for p in params:
                p.grad = torch.ones_like(p)
        elif edit == "frozen":
            m.requires_grad_(False)
        elif edit == "meta":
            m.to("meta")
        elif edit == "half":
            m.half()
        elif edit == "tie" and params and len(mods) > 1:
            other = mods[(at + 1) % len(mods)]
            other.register_parameter("tied", params[0])
        elif edit == "reuse" and m is not model:
            model.add_module("again", m)
        elif edit == "view":
            m.register_buffer("whole", torch.arange(4.0))
            m.register_buffer("part", m.whole[1:])
        elif edit == "number":
            m.scale = 0.5
        elif edit == "text":
            m.label, m.kernel = "name", (3, 3)
        elif edit == "sizes":
            m.sizes = (1, 2.0, None, "x")
        elif edit == "config":
            m.warnings_issued, m.config = {}, Config()
            m.table = {"k": [1, (2, 3)], "n": None}
        elif edit == "trap":
            m.pos = torch.zeros(2)
        elif edit == "hidden":
            m._pos = torch.zeros(2)
        elif edit == "list":
            m.cache = [1, {"x": torch.ones(1)}]
        elif edit == "loop":
            m.loop = [1]
            m.loop.append(m.loop)
        elif edit == "subclass":
            m.register_buffer("odd", torch.ones(1).as_subclass(Marked))
    return model


class Marked(torch.Tensor):
    """A tensor subclass the columns leave to the walker."""


SHAPES = st.recursive(LEAF, lambda kids: st.lists(kids, max_size=4), max_leaves=10)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(SHAPES, st.lists(EDITS, max_size=6), st.lists(st.integers(0, 50), min_size=6,
                                                      max_size=6), st.integers(1, 200))
def test_random_models_read_alike(shape, edits, rng, budget):
    model = build(shape if isinstance(shape, list) else [shape], edits, rng)
    taken, got, want = walk_both(model, budget)
    assert got == want
    needed = 10_000 - walk_both(model)[2][6]  # NB: the nodes an unbounded walk spends
    assert taken == (budget >= needed and not TAKES_NOT & set(edits))


def test_every_record_states_its_tensor_as_torch_does():
    """Each record's fields against torch's own answers for the tensor its ref leads to: in a
    model read in columns, in one the walker reads, in an optimizer's state and in a list."""
    model = nn.Sequential(nn.Linear(3, 2), nn.Linear(2, 2).half())
    for name, t in (("q", torch.quantize_per_tensor(torch.ones(4), 0.1, 0, torch.qint8)),
                    ("i", torch.arange(5)), ("b", torch.zeros(2, 0, dtype=torch.bool)),
                    ("c", torch.ones(3, dtype=torch.complex64)), ("s", torch.tensor(2.0)),
                    ("m", torch.ones(2, 3, device="meta")), ("v", torch.arange(8.0)[2:6])):
        model.register_buffer(name, t)
    walked = nn.Linear(2, 2)
    walked.pos = torch.ones(3, dtype=torch.float64)  # NB: sends it to the walker
    opt = torch.optim.Adam(model[0].parameters())
    for p in model[0].parameters():
        p.grad = torch.ones_like(p)
    opt.step()
    ns = {"model": model, "walked": walked, "opt": opt, "held": [torch.ones(2, dtype=torch.int8)]}
    snap = take_snapshot(ns)
    seen = 0
    for o in snap.objects:
        for rec in o.tensors:
            t = resolve(ns, rec.ref)
            assert (rec.device, rec.dtype, rec.shape, rec.numel, rec.nbytes) == (
                str(t.device), str(t.dtype).removeprefix("torch."), tuple(t.shape), t.numel(),
                t.numel() * t.element_size()), rec.path
            assert rec.flavor == ("quantized" if t.is_quantized else "dense"), rec.path
            seen += 1
    assert seen == 27 and snap["model"].tensors[0].path == "model.q"  # NB: its own tables first
    assert walk_both(model)[0] and not walk_both(walked)[0]  # NB: both readers checked
