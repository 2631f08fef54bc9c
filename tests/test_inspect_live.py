"""The live snapshot (what the panel pushes after each cell) always equals a fresh one.

A hypothesis state machine plays cells against a namespace: rebinding, ``del``, ``.data`` swaps
that change dtype or device without changing identity, ``resize_``, ``Module.to``, replaced
submodules, new trap attributes, two names trading values, ``opt.step()``, ``requires_grad_``,
in-place container edits, changes made through an alias or a function the cell does not name,
and optimizers held by a helper object or a learning-rate scheduler that change through their own
name. After every cell the incremental snapshot must equal ``take_snapshot`` + ``diagnose`` of
the same namespace, and a diagnosis kept across cells (a memo) a fresh one; cells also type text
into ``In`` (read for which model each tensor is used with, never run).
"""

from __future__ import annotations

import collections
import contextlib
from array import array
from typing import Any

import pytest
import torch
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from torch import nn

from devicelens.analysis import Memo, diagnose
from devicelens.inspect import take_snapshot
from devicelens.inspect._live import Live
from devicelens.inspect.records import LooseIndex
from tests.fuzz.hostile import CALLS, EqHeld

DTYPES = (torch.float32, torch.float64, torch.float16, torch.int64)
NAMES = ("a", "b", "c", "d", "model", "head", "opt", "batch", "seq", "cfg", "loss", "view")
CELLS = ("pass", "out = {m}({x})", "loss = {m}({x}) - {y}", "h = {m}({x})\nz = {m2}(h)",
         "with torch.autocast('cpu'):\n    out = {m}({x})",
         "torch.nn.utils.rnn.pack_padded_sequence({x}, {y})", "{m}({x}, {y})", "{x} = {m2}({y})",
         "opt.step()")


def canonical(snap: Any) -> Any:
    """Everything a snapshot says, with storage identities renumbered in order of appearance."""
    ids: dict[int, int] = {}
    objects = [(o._replace(tensors=tuple(t._replace(storage=ids.setdefault(t.storage, len(ids)))
                                         for t in o.tensors))) for o in snap.objects]
    return objects, snap.totals, snap.truncated, snap.skipped


def findings(snap: Any) -> list[Any]:
    return [(f.id, f.kind, f.severity, f.title, f.message, f.fix, f.paths, f.action)
            for f in diagnose(snap)]


def tensor(draw: Any) -> torch.Tensor:
    shape = draw(st.lists(st.integers(0, 3), max_size=2))
    t = torch.zeros(shape, dtype=draw(st.sampled_from(DTYPES)))
    return t.to("meta") if draw(st.booleans()) and draw(st.booleans()) else t


def value(draw: Any, ns: dict[str, Any]) -> Any:
    kind = draw(st.sampled_from(["tensor", "module", "container", "optimizer", "view", "other",
                                 "alias", "param", "holder", "wrapper"]))
    if kind == "tensor":
        return tensor(draw)
    if kind == "holder":
        return EqHeld(tensor(draw))
    if kind == "module":
        shape = draw(st.sampled_from(["mlp", "no_bias", "tied", "buffer"]))
        if shape == "tied":  # NB: one layer reached twice
            layer = nn.Linear(2, 2)
            return nn.Sequential(layer, nn.ReLU(), layer)
        if shape == "buffer":
            return nn.BatchNorm1d(2)
        m = nn.Sequential(nn.Linear(2, 3, bias=shape != "no_bias"), nn.ReLU(), nn.Linear(3, 1))
        if draw(st.booleans()):
            m[0].note = EqHeld(tensor(draw))  # NB: an attribute beside the tables
        return m.double() if draw(st.booleans()) else m
    if kind == "container":
        box = draw(st.sampled_from(["list", "dict", "deque", "tuple"]))
        items: list[Any] = [tensor(draw) for _ in range(draw(st.integers(0, 3)))]
        if draw(st.booleans()):
            items.append(EqHeld(tensor(draw)))
        return {"list": list, "tuple": tuple, "deque": collections.deque,
                "dict": lambda xs: {f"k{i}": x for i, x in enumerate(xs)}}[box](items)
    modules = [v for v in ns.values() if isinstance(v, nn.Module)]
    tensors = [v for v in ns.values() if type(v) is torch.Tensor and v.numel() > 0]
    if kind == "optimizer" and modules:
        with contextlib.suppress(ValueError):  # NB: a parameter made a non-leaf (leaf_flip)
            return torch.optim.Adam(draw(st.sampled_from(modules)).parameters())
        return None
    opts = [v for v in ns.values() if isinstance(v, torch.optim.Optimizer)]
    if kind == "wrapper" and opts:  # NB: the optimizer then changes through its own name
        opt = draw(st.sampled_from(opts))
        if not draw(st.booleans()):
            return torch.optim.lr_scheduler.StepLR(opt, 1)
        # NB: a model beside it (a federated client's, an RL agent's), which then names the
        # optimizer's parameters where no namespace module does; it changes through its name
        held = draw(st.sampled_from(modules)) if modules and draw(st.booleans()) else None
        return Trainer(opt, held)
    if kind == "view" and tensors:
        return draw(st.sampled_from(tensors)).view(-1)[:1]
    if kind == "alias" and ns:
        return ns[draw(st.sampled_from(sorted(ns)))]
    if kind == "param" and modules:
        return next(draw(st.sampled_from(modules)).parameters())
    return draw(st.sampled_from([3, "text", None, [1, 2]]))


class Trainer:
    """A training-loop helper holding an optimizer (as Lightning Fabric's wrapper does): shown
    as that optimizer, under its own name."""

    def __init__(self, optimizer: torch.optim.Optimizer, model: nn.Module | None = None) -> None:
        self.optimizer = optimizer
        if model is not None:
            self.model = model


class Stack(nn.Sequential):
    """A Sequential under another name (a module whose class is swapped in place)."""


class Cells(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.ns: dict[str, Any] = {"torch": torch}
        self.live = Live()
        self.edits: list[Any] = []  # closures the cells call without naming what they change
        self.memo = Memo()

    def objects(self, kind: type) -> list[Any]:
        seen: dict[int, Any] = {}
        for v in self.ns.values():
            if isinstance(v, kind):
                seen[id(v)] = v
            if isinstance(v, nn.Module) and kind is torch.Tensor:
                for p in v.parameters():
                    seen[id(p)] = p
        return list(seen.values())

    def linears(self) -> list[nn.Linear]:
        """Every ``nn.Linear`` in the namespace, at the top or inside a module, once each."""
        return list({id(m): m for v in self.objects(nn.Module) for m in v.modules()
                     if type(m) is nn.Linear}.values())

    @rule(data=st.data(), name=st.sampled_from(NAMES))
    def rebind(self, data: Any, name: str) -> None:
        self.ns[name] = value(data.draw, self.ns)

    @rule(data=st.data())
    def swap(self, data: Any) -> None:
        """``a, b = b, a``: two names trade values in one cell (a tensor and a number, say)."""
        a, b = (data.draw(st.sampled_from(NAMES)) for _ in range(2))
        self.ns[a], self.ns[b] = self.ns.get(b), self.ns.get(a)

    @rule(data=st.data())
    def delete(self, data: Any) -> None:
        names = sorted(k for k in self.ns if k != "torch")
        if names:
            del self.ns[data.draw(st.sampled_from(names))]

    @rule(data=st.data())
    def free_and_rebind(self, data: Any) -> None:
        """``del x; x = torch.zeros(...)``: the new tensor may reuse the freed one's id."""
        name = data.draw(st.sampled_from(NAMES))
        self.ns.pop(name, None)
        self.ns[name] = tensor(data.draw)

    @rule(data=st.data())
    def data_swap(self, data: Any) -> None:
        ts = [t for t in self.objects(torch.Tensor) if t.device.type == "cpu"]
        if ts:
            t = data.draw(st.sampled_from(ts))
            with torch.no_grad():
                t.data = t.data.to(data.draw(st.sampled_from(DTYPES[:3])))

    @rule(data=st.data())
    def resize(self, data: Any) -> None:
        ts = [t for t in self.objects(torch.Tensor) if not t.requires_grad and t._base is None
              and t.device.type == "cpu"]
        if ts:
            data.draw(st.sampled_from(ts)).resize_(data.draw(st.integers(0, 5)))

    @rule(data=st.data())
    def module_to(self, data: Any) -> None:
        ms = self.objects(nn.Module)
        if ms:
            m = data.draw(st.sampled_from(ms))
            target = data.draw(st.sampled_from([torch.float64, torch.float32, torch.float16,
                                                "meta"]))
            if target == "meta" and not data.draw(st.booleans()):
                return
            # NB: a grad of another dtype may refuse, and so does a non-leaf parameter
            with contextlib.suppress(RuntimeError, AssertionError):
                m.to(target)

    @rule(data=st.data())
    def replace_submodule(self, data: Any) -> None:
        seqs = [m for m in self.objects(nn.Sequential) if len(m) > 0]
        if seqs:
            seqs[0][0] = nn.Linear(2, 3).to(data.draw(st.sampled_from(DTYPES[:3])))

    @rule(data=st.data())
    def trap_attribute(self, data: Any) -> None:
        ms = self.objects(nn.Module)
        if ms:
            m = data.draw(st.sampled_from(ms))
            kind = data.draw(st.sampled_from(["tensor", "list", "module_in_list", "scalar",
                                              "tuple", "tuple_tensor", "tuple_list"]))
            # NB: tuples too: of numbers (proven by the very object), or of what can change
            m.__dict__["cache"] = {"tensor": torch.ones(2), "list": [torch.ones(1)],
                                   "module_in_list": [nn.Linear(1, 1)], "scalar": 1.0,
                                   "tuple": (3, 3), "tuple_tensor": (torch.ones(2), 1),
                                   "tuple_list": ([torch.ones(1)], "x")}[kind]

    @rule(data=st.data())
    def leaf_flip(self, data: Any) -> None:
        """A parameter that stops needing grad, then takes an in-place op from one that does:
        the same object, needing grad again, is no longer a leaf."""
        ts = [t for t in self.objects(torch.Tensor) if t.is_leaf and t.is_floating_point()
              and t.requires_grad and t.device.type == "cpu" and t._base is None]
        if ts:  # NB: no view: torch refuses an in-place op on a view of a leaf that needs grad
            t = data.draw(st.sampled_from(ts))
            t.requires_grad_(False)
            t.add_(torch.zeros(t.shape, dtype=t.dtype, requires_grad=True))

    @rule(data=st.data())
    def replace_parameter(self, data: Any) -> None:
        """``layer.weight = nn.Parameter(...)``: the table is edited in place."""
        layers = self.linears()
        if layers:
            layer = data.draw(st.sampled_from(layers))
            layer.weight = nn.Parameter(torch.zeros(layer.weight.shape,
                                                    dtype=data.draw(st.sampled_from(DTYPES[:3]))))

    @rule(data=st.data())
    def free_and_rebuild_module(self, data: Any) -> None:
        """``del model; model = <the same layers in another dtype>``: the new module and its
        parameters may reuse the freed ones' ids."""
        names = [k for k, v in self.ns.items() if isinstance(v, nn.Module)]
        if names:
            name = data.draw(st.sampled_from(sorted(names)))
            del self.ns[name]
            dtype = data.draw(st.sampled_from(DTYPES[:3]))
            self.ns[name] = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)).to(dtype)

    @rule(data=st.data())
    def train_eval(self, data: Any) -> None:
        """``model.eval()`` / ``model.train()``: every module's ``__dict__`` changes (its version
        too), and nothing a record reads."""
        ms = self.objects(nn.Module)
        if ms:
            data.draw(st.sampled_from(ms)).train(data.draw(st.booleans()))

    @rule(data=st.data())
    def swap_in_place(self, data: Any) -> None:
        """``torch.utils.swap_tensors``: the very same object becomes a view, or takes another
        dtype and device (``Module.to`` under ``swap_module_params_on_conversion``)."""
        ts = [t for t in self.objects(torch.Tensor) if t.device.type == "cpu" and t.is_leaf
              and not t.requires_grad]
        if ts:
            t = data.draw(st.sampled_from(ts))
            kind = data.draw(st.sampled_from(["view", "float64", "meta"]))
            other = {"view": lambda: torch.zeros(t.numel() + 1)[1:].view(t.shape),
                     "float64": lambda: torch.zeros(t.shape, dtype=torch.float64),
                     "meta": lambda: torch.zeros(t.shape, device="meta")}[kind]()
            with contextlib.suppress(RuntimeError):  # NB: torch refuses some (use counts)
                torch.utils.swap_tensors(t, other)

    @rule(data=st.data())
    def retype(self, data: Any) -> None:
        """``module.__class__ = ...``: the same object, another type."""
        seqs = [m for m in self.objects(nn.Sequential) if type(m) in (nn.Sequential, Stack)]
        if seqs:
            m = data.draw(st.sampled_from(seqs))
            m.__class__ = Stack if type(m) is nn.Sequential else nn.Sequential

    @rule(data=st.data())
    def edit_trap(self, data: Any) -> None:
        """A module's extra attribute changed in place: a list that grows, a tensor whose dtype
        is swapped (either inside a tuple too)."""
        ms = [m for m in self.objects(nn.Module) if "cache" in m.__dict__]
        if ms:
            cache = data.draw(st.sampled_from(ms)).__dict__["cache"]
            if type(cache) is tuple and cache and type(cache[0]) in (list, torch.Tensor):
                cache = cache[0]
            if type(cache) is list:
                cache.append(torch.zeros(1, dtype=torch.float64))
            elif type(cache) is torch.Tensor:
                cache.data = cache.data.double() if cache.dtype != torch.float64 else \
                    cache.data.float()

    @rule(data=st.data(), key=st.sampled_from(["cache", "x\0y", "_private", "in_features"]))
    def odd_key(self, data: Any, key: str) -> None:
        """An attribute set straight into ``__dict__``: with a NUL in its name, private, or
        rebinding a number the walk never reads."""
        ms = self.objects(nn.Module)
        if ms:
            m = data.draw(st.sampled_from(ms))
            m.__dict__[key] = torch.ones(2) if key != "in_features" else 7

    @rule(data=st.data())
    def opt_step(self, data: Any) -> None:
        opts = self.objects(torch.optim.Optimizer)
        if opts:
            opt = data.draw(st.sampled_from(opts))
            params = [p for g in opt.param_groups for p in g["params"]]
            if all(p.device.type == "cpu" and p.dtype == params[0].dtype for p in params):
                # NB: after a dtype change torch may refuse the grad or the step half-way (a
                # cell that raises); what it left behind must be shown all the same
                with contextlib.suppress(RuntimeError):
                    for p in params:
                        p.grad = torch.zeros_like(p)
                    opt.step()

    @rule(data=st.data(), kind=st.sampled_from(["state dtype", "state data", "lr", "group",
                                                "forget", "zero_grad", "note"]))
    def opt_edit(self, data: Any, kind: str) -> None:
        """An optimizer's groups or state edited in place (a scheduler's learning rate, a
        state tensor cast or replaced, a group added, a parameter's state dropped, a user
        object kept beside the state's tensors)."""
        opts = self.objects(torch.optim.Optimizer)
        if not opts:
            return
        opt = data.draw(st.sampled_from(opts))
        states = [s for s in opt.state.values() if s]
        if kind == "lr":
            opt.param_groups[0]["lr"] = data.draw(st.sampled_from([0.1, 0.01]))
        elif kind == "group":
            opt.param_groups.append({**opt.param_groups[0], "params": [nn.Parameter(
                torch.zeros(2))]})
        elif kind == "zero_grad":
            opt.zero_grad(set_to_none=data.draw(st.booleans()))
        elif states:
            state = data.draw(st.sampled_from(states))
            key = data.draw(st.sampled_from(sorted(state)))
            if kind == "forget":
                opt.state.pop(next(p for p, s in opt.state.items() if s is state))
            elif kind == "note":
                state["note"] = EqHeld(tensor(data.draw))
            elif type(state[key]) is torch.Tensor and kind == "state dtype":
                state[key] = state[key].double()
            elif type(state[key]) is torch.Tensor:
                state[key].data = state[key].data.half()

    @rule(data=st.data())
    def bias_toggle(self, data: Any) -> None:
        """A layer's bias dropped (``= None``, the entry stays) or given back."""
        layers = self.linears()
        if layers:
            m = data.draw(st.sampled_from(layers))
            m.bias = nn.Parameter(torch.zeros(m.out_features)) if m.bias is None else None

    @rule(data=st.data())
    def requires_grad(self, data: Any) -> None:
        ts = [t for t in self.objects(torch.Tensor) if t.is_leaf and t.is_floating_point()]
        if ts:
            t = data.draw(st.sampled_from(ts))
            t.requires_grad_(not t.requires_grad)

    @rule(data=st.data())
    def container_edit(self, data: Any) -> None:
        boxes = [v for v in self.ns.values()  # NB: by identity: ``in`` would run EqHeld's metaclass
                 if type(v) is list or type(v) is dict or type(v) is collections.deque]
        if boxes:
            box = data.draw(st.sampled_from(boxes))
            item = tensor(data.draw)
            if type(box) is dict:
                box[data.draw(st.sampled_from(["k0", "k1", "new"]))] = item
            elif box and data.draw(st.booleans()):
                box.pop()
            else:
                box.append(item)

    @rule(data=st.data())
    def through_a_function(self, data: Any) -> None:
        """A helper defined earlier changes an object it closed over; the cell names neither."""
        ts = [t for t in self.objects(torch.Tensor) if t.device.type == "cpu"]
        if ts:
            target = data.draw(st.sampled_from(ts))

            def helper(t: torch.Tensor = target) -> None:
                with torch.no_grad():
                    t.data = t.data.double()

            self.edits.append(helper)
        if self.edits:
            self.edits.pop(0)()

    @rule(data=st.data(), template=st.sampled_from(CELLS))
    def cell_text(self, data: Any, template: str) -> None:
        """A cell's source lands in ``In`` (never run): which model each name is used with,
        autocast and CPU-only arguments change the findings, or (``pass``) nothing."""
        names = {k: data.draw(st.sampled_from(NAMES)) for k in ("m", "m2", "x", "y")}
        source = template.format(**names)
        history = self.ns.setdefault("In", [""])
        history.append(source)
        # NB: as IPython's history binds it: ``_i``/``_ii``/``_iii`` and a new name ``_iN``
        # each cell (new private names come last), and a shown output as ``_`` and ``_N``
        ns = self.ns
        ns["_iii"], ns["_ii"], ns["_i"] = ns.get("_ii", ""), ns.get("_i", ""), source
        ns[f"_i{len(history) - 1}"] = source
        out = data.draw(st.sampled_from(["none", "tensor", "odd name"]))
        if out == "tensor":
            ns["_"] = ns[f"_{len(history) - 1}"] = tensor(data.draw)
        elif out == "odd name":  # NB: a key with a NUL, public or private
            ns[data.draw(st.sampled_from(["a\0_b", "_\0a", "\0"]))] = tensor(data.draw)

    @rule(data=st.data(), then=st.sampled_from(["state", "module_to", "data_swap", "bias",
                                                 "requires_grad", "trap", "cell"]))
    def step_and_more(self, data: Any, then: str) -> None:
        """A training step and another change in the same cell: the push sees both at once
        (a step alone only moves grads, which the live snapshot and the panel's memo take as
        no change to judge again)."""
        self.opt_step(data)
        if then == "state":
            self.opt_edit(data, data.draw(st.sampled_from(["state dtype", "state data", "lr",
                                                           "group", "forget", "zero_grad"])))
        elif then == "module_to":
            self.module_to(data)
        elif then == "data_swap":
            self.data_swap(data)
        elif then == "bias":
            self.bias_toggle(data)
        elif then == "requires_grad":
            self.requires_grad(data)
        elif then == "trap":
            self.trap_attribute(data)
        else:
            self.cell_text(data, data.draw(st.sampled_from(CELLS)))

    @precondition(lambda self: True)
    @invariant()
    def live_equals_fresh(self) -> None:
        CALLS.clear()  # NB: every call into EqHeld's metaclass lands there
        update = self.live.update(self.ns)
        fresh = take_snapshot(self.ns)
        assert CALLS == []
        assert canonical(update.snapshot) == canonical(fresh)
        assert findings(update.snapshot) == findings(fresh)
        # NB: the diagnosis the panel keeps (a memo across cells) equals a fresh one
        kept = [(f.id, f.kind, f.severity, f.title, f.message, f.fix, f.paths, f.action)
                for f in diagnose(update.snapshot, memo=self.memo)]
        assert kept == findings(fresh)


# NB: the same examples on every run, so `make test` is reproducible on a fresh clone
Cells.TestCase.settings = settings(max_examples=60, stateful_step_count=25, deadline=None,
                                   derandomize=True, database=None,
                                   suppress_health_check=[HealthCheck.too_slow])
TestLiveSnapshot = Cells.TestCase


class ModelCells(Cells):
    """The same cells in a namespace that starts with plain models and two optimizers (one
    with state), so most steps go through the watches that prove a forest of modules and an
    optimizer unchanged (:mod:`devicelens.inspect._forest_watch`, ``._optimizer_watch``)
    rather than through their tokens."""

    def __init__(self) -> None:
        super().__init__()
        # NB: a None entry in a table (bias=False), as most transformer layers have
        model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1, bias=False))
        head = nn.Linear(1, 2)
        adam = torch.optim.Adam(head.parameters())
        head(torch.zeros(2, 1)).sum().backward()
        adam.step()
        self.ns.update(model=model, head=head, norm=nn.BatchNorm1d(2),
                       opt=torch.optim.SGD(model.parameters()), adam=adam,
                       conv=nn.Conv1d(1, 2, 3))  # NB: tuples of numbers among its attributes


ModelCells.TestCase.settings = settings(Cells.TestCase.settings, max_examples=30)
TestLiveSnapshotWithModels = ModelCells.TestCase


def test_an_unchanged_namespace_gives_back_the_same_snapshot() -> None:
    ns = {"x": torch.zeros(3), "m": nn.Linear(2, 2)}
    live = Live()
    first = live.update(ns)
    again = live.update(ns)
    assert again.snapshot is first.snapshot and again.changed == frozenset()
    ns["x"].data = ns["x"].data.double()  # same tensor, new dtype: found by the sweep
    third = live.update(ns)
    assert third.changed == frozenset({"x"}) and third.snapshot["x"].dtypes == ("float64",)


@pytest.mark.parametrize("rebound", [1, 12])
def test_rows_replaced_in_the_last_columns_carry_the_new_tensor(rebound: int) -> None:
    """After a cell that only rebinds compact tensors, the last snapshot's columns are copied
    and those rows replaced (few: found one by one; many: through an index). A name rebound to
    another name's tensor, with an equal header, shares its storage: counted once."""
    ns: dict[str, Any] = {f"t{i}": torch.zeros(4) for i in range(40)}
    ns["m"] = nn.Linear(2, 2)
    live = Live()
    live.update(ns)
    live.update(ns)
    for i in range(rebound):
        ns[f"t{i}"] = ns["t39"]
    snap = live.update(ns).snapshot
    assert canonical(snap) == canonical(take_snapshot(ns))
    assert snap.totals == take_snapshot(ns).totals
    assert snap.totals[0].nbytes == (40 - rebound) * 16 + 6 * 4
    del ns["t0"]  # NB: every row moves up one: the columns, and any index into them, are new
    live.update(ns)
    for i in range(1, rebound + 1):
        ns[f"t{i}"] = torch.ones(i)
    assert canonical(live.update(ns).snapshot) == canonical(take_snapshot(ns))


def test_the_live_columns_are_shared_and_its_flags_kept_as_bytes() -> None:
    """What a big namespace's panel keeps per loose tensor after a cell, column by column:
    where every plain tensor is a compact row, the snapshot's names and ids are the live
    snapshot's own lists (no copy), ids packed, a flag per name a byte (a list kept 8), and no
    set of every name kept. A tensor that is no compact row gets the columns their own lists."""
    ns: dict[str, Any] = {f"t{i}": torch.zeros(2) for i in range(40)}
    ns["_hidden"], ns["m"] = 1, nn.Linear(2, 2)
    live = Live()
    live.update(ns)
    ns["t40"] = torch.ones(3)  # NB: a new name: the columns are built again
    snap = live.update(ns).snapshot
    assert snap._loose.names is live.tnames and snap._loose.ids is live.sweep.ids
    assert type(snap._loose.ids) is array and snap._loose.ids.itemsize == 8
    assert [type(f) for f in (live.public, live.exact, live.compact)] == [bytes] * 3
    assert not hasattr(live, "names")
    ns["v"] = torch.zeros(2, requires_grad=True)
    snap = live.update(ns).snapshot
    assert snap._loose.names == [f"t{i}" for i in range(41)] and "v" in live.tnames
    assert canonical(snap) == canonical(take_snapshot(ns))


@pytest.mark.parametrize("rebound", [1, 12])
def test_compact_rows_keep_no_share_and_equal_headers_are_kept_once(rebound: int) -> None:
    """What a big namespace's panel keeps per loose tensor: no share of the totals (read from
    the last snapshot's columns when its name changes), one header object per distinct header
    in a chunk, the ids packed (8 bytes each, no int object), and a storage seen once kept as
    its bytes.
    The totals stay those of a fresh snapshot through rebinds, moves and a name dropped."""
    ns: dict[str, Any] = {f"t{i}": torch.zeros(4) for i in range(40)}
    ns["m"] = nn.Linear(2, 2)
    live = Live()
    live.update(ns)
    live.update(ns)
    assert set(live.shares) == {"m"}
    metas = live.sweep.metas
    assert len(set(map(id, metas))) == 1 and metas[0] == metas[39]
    ids = live.sweep.ids
    assert set(live.totals.extents.values()) == {16, 8}  # NB: t* and m.weight, m.bias
    for i in range(rebound):
        ns[f"t{i}"] = torch.zeros(4, device="meta") if i % 2 else ns["t39"]
    snap = live.update(ns).snapshot
    assert snap.totals == take_snapshot(ns).totals
    assert set(live.shares) == {"m"}
    assert type(live.sweep.ids) is array and live.sweep.ids.itemsize == 8
    assert live.sweep.ids[rebound:] == ids[rebound:] and live.sweep.ids[:rebound] != ids[:rebound]
    ns["m"] = ns.pop("t39")  # NB: a walked name becomes a compact row, and one row goes
    assert live.update(ns).snapshot.totals == take_snapshot(ns).totals
    assert set(live.shares) == set()
    ns["t5"] = nn.Linear(2, 2)  # NB: and a compact row becomes a walked name
    assert live.update(ns).snapshot.totals == take_snapshot(ns).totals
    assert set(live.shares) == {"t5"}


@pytest.mark.parametrize("rebound", [1, 12])
def test_rows_moved_between_layouts_are_judged_where_they_are_now(rebound: int) -> None:
    """A patched snapshot hands on the last one's index of rows by layout (what analysis reads
    instead of every row), with the replaced rows moved: a float32 row made float64 is found
    with the float64 rows, and found no more once made float32 again."""
    ns: dict[str, Any] = {f"t{i}": torch.zeros(3) for i in range(40)}
    ns["m"] = nn.Linear(3, 3)
    ns["In"] = ["", "out = m(t0)"]
    live, snaps = Live(), []
    for step in range(3):
        snaps.append(live.update(ns).snapshot)
        assert findings(snaps[-1]) == findings(take_snapshot(ns))  # NB: builds the index
        dtype = torch.float64 if step % 2 == 0 else torch.float32
        for i in range(5, 5 + rebound):
            ns[f"t{i}"] = torch.zeros(3, dtype=dtype)
    snap = live.update(ns).snapshot
    assert snap._index is not None  # NB: handed on, not rebuilt
    found = findings(snap)
    assert found == findings(take_snapshot(ns))
    assert [f[1] for f in found] == ["loose_dtype"] * rebound
    assert snap.loose_positions({("cpu", "float64", False)}) == list(range(5, 5 + rebound))
    assert snaps[2].loose_layouts() == {("cpu", "float32", False)}
    for s in [*snaps, snap]:  # NB: each as a fresh index reads it; the older ones untouched
        assert s.loose_index().rows == LooseIndex.of(s._loose, s._kinds).rows


@pytest.mark.parametrize("pairs", [1, 12])
def test_names_trading_a_tensor_for_a_number_get_fresh_columns(pairs: int) -> None:
    """``a, b = b, a`` with a tensor and a number: the same names in the same order, as many
    compact rows and walked names as before, but other names hold the tensors; the last
    columns cannot be patched (their names column is the old one)."""
    ns: dict[str, Any] = {}
    for i in range(pairs):
        ns[f"t{i}"], ns[f"n{i}"] = torch.zeros(i + 1), i
    ns["m"] = nn.Linear(2, 2)
    live = Live()
    live.update(ns)
    live.update(ns)
    for i in range(pairs):
        ns[f"t{i}"], ns[f"n{i}"] = ns[f"n{i}"], ns[f"t{i}"]
    update = live.update(ns)
    assert canonical(update.snapshot) == canonical(take_snapshot(ns))
    assert update.changed == {f"n{i}" for i in range(pairs)}
    assert update.removed == {f"t{i}" for i in range(pairs)}
    assert [o.name for o in update.snapshot.objects] == [
        *(f"n{i}" for i in range(pairs)), "m"]


class Tagged(torch.Tensor):
    pass


def test_a_tensor_retyped_in_place_is_seen_though_every_name_and_id_stays() -> None:
    """An update reuses the last one's tensor names while the names are the same and every
    value's type is the very same; ``t.__class__ = ...`` keeps the id and changes the type."""
    ns: dict[str, Any] = {"a": torch.zeros(2), "b": torch.ones(3), "m": nn.Linear(2, 2)}
    live = Live()
    live.update(ns)
    live.update(ns)
    ns["b"].__class__ = Tagged
    update = live.update(ns)
    assert canonical(update.snapshot) == canonical(take_snapshot(ns))
    assert update.changed == {"b"}
    ns["b"].__class__ = torch.Tensor
    update = live.update(ns)
    assert canonical(update.snapshot) == canonical(take_snapshot(ns))
    assert update.changed == {"b"}


def test_the_names_whose_tensor_changed_are_found_however_the_names_moved() -> None:
    """``changed_names`` compares two sweeps position by position when the names are the same or new
    names came last (a cell defining variables), else by name."""
    from devicelens.inspect._columns import changed_names

    a, b, c = (torch.zeros(1), torch.zeros(2), torch.zeros(3))
    meta = {t: (t.device, t.dtype, t.shape) for t in (a, b, c)}

    def sweep(names: dict[str, torch.Tensor]) -> tuple[list[str], list[int], list[Any]]:
        return list(names), [id(t) for t in names.values()], [meta[t] for t in names.values()]

    old = sweep({"a": a, "b": b})
    assert changed_names(*old, *sweep({"a": a, "b": b})) == set()
    assert changed_names(*old, *sweep({"a": a, "b": c})) == {"b"}  # NB: same names, one rebound
    assert changed_names(*old, *sweep({"a": a, "b": b, "c": c})) == {"c"}  # NB: a name added last
    assert changed_names(*old, *sweep({"a": c, "b": b, "c": a})) == {"a", "c"}
    assert changed_names(*old, *sweep({"b": b, "c": c})) == {"a", "c"}  # NB: one deleted, one new
    assert changed_names(*old, *sweep({"c": c, "a": a})) == {"b", "c"}


def test_which_names_are_shown_is_read_the_same_way_at_c_speed_and_one_by_one() -> None:
    from devicelens.inspect._columns import shown

    keys: list[Any] = ["x", "_private", "In", "Out", "", "model", "__builtins__"]
    assert shown(keys) == [True, False, False, False, True, True, False]
    assert shown([*keys, 7]) == [True, False, False, False, True, True, False, False]


def test_an_update_that_fails_halfway_is_not_trusted_next_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The headers were re-read before the failure; the next update must not take them as
    already pushed (it would give back the snapshot from before the change)."""
    from devicelens.inspect import _live

    ns: dict[str, Any] = {"x": torch.zeros(3), "m": nn.Linear(2, 2)}
    live = Live()
    live.update(ns)
    live.update(ns)
    ns["x"].data = ns["x"].data.double()

    def broken(_ns: dict[str, Any]) -> tuple[str, ...]:
        raise RuntimeError("injected")

    monkeypatch.setattr(_live, "recent_cells", broken)
    with pytest.raises(RuntimeError, match="injected"):
        live.update(ns)
    monkeypatch.undo()
    update = live.update(ns)
    assert update.snapshot["x"].dtypes == ("float64",)
    assert canonical(update.snapshot) == canonical(take_snapshot(ns))


def test_a_training_step_renames_the_grads_storages_in_the_totals_without_recounting(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A training step replaces every grad by a new tensor of the same header: the totals move
    each old storage's entry to the new one (issue 39's push after a step) and no share is
    compared again, and they equal a fresh count; a grad another name also holds is counted
    one by one (its old storage is still seen)."""
    model = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2))
    opt = torch.optim.Adam(model.parameters())

    def step() -> None:
        opt.zero_grad()
        for p in model.parameters():
            p.grad = torch.ones_like(p)
        opt.step()

    step()
    ns: dict[str, Any] = {"model": model, "opt": opt, "x": torch.zeros(3)}
    live = Live()
    live.update(ns)
    live.update(ns)
    recounted: list[Any] = []
    replace = live.totals.replace
    monkeypatch.setattr(live.totals, "replace", lambda pairs: (recounted.append(pairs),
                                                               replace(pairs)))
    step()
    update = live.update(ns)
    assert sorted(update.regraded) == ["model", "opt"] and recounted == []
    assert canonical(update.snapshot) == canonical(take_snapshot(ns))
    ns["kept"] = model[0].weight.grad  # NB: the old grad stays seen under a name of its own
    live.update(ns)
    recounted.clear()
    step()
    update = live.update(ns)
    assert sorted(update.regraded) == ["model", "opt"] and len(recounted) == 1
    assert len(recounted[0]) == 2  # NB: the model's share and the optimizer's
    assert canonical(update.snapshot) == canonical(take_snapshot(ns))
