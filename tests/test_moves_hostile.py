"""Moves on hard cases (issue 12): reports instead of raises, hooks and RNN flat weights that
survive a swap, frozen weights inside a graph, the last error's traceback, aliases of one fix,
containers of scalars, and Ctrl-C while committing."""

from __future__ import annotations

import signal
import sys
import weakref
from typing import Any

import pytest
import torch
from torch import nn

from devicelens import moves
from devicelens.analysis import diagnose
from devicelens.inspect import take_snapshot
from devicelens.moves._lasterror import last_error
from tests.fuzz.hostile import CALLS as LOUD
from tests.fuzz.hostile import EqHeld

pytestmark = pytest.mark.filterwarnings("ignore:PyTorch was compiled without cuDNN")

CALLS: list[str] = []


class BrokenDevice(torch.Tensor):
    """A subclass whose metadata properties are user code that fails."""

    @property
    def device(self) -> Any:  # type: ignore[override]
        CALLS.append("device")
        raise RuntimeError("boom")

    @property
    def grad(self) -> Any:  # type: ignore[override]
        CALLS.append("grad")
        raise RuntimeError("boom")


# --- C: a report, never a raise ------------------------------------------------------------

@pytest.mark.parametrize("dry_run", [True, False])
def test_a_subclass_whose_device_raises_is_refused_unread(dry_run: bool) -> None:
    t = torch.ones(3).as_subclass(BrokenDevice)
    ok = torch.ones(2)
    ns = {"t": t, "ok": ok, "box": [t]}
    CALLS.clear()
    report = moves.move_all("meta", ns, dry_run=dry_run)
    assert CALLS == []
    why = ("holds a tensor that cannot be moved safely: its class BrokenDevice redefines "
           ".device, so devicelens cannot trust what it says; move it with its own .to()")
    # NB: a refusal makes the whole move not ok and moves nothing (issue 10: never a partial
    # move reported as done); naming the other objects moves them.
    assert not report.ok and report.refused == (("t", why), ("box", why))
    assert report.error.startswith("t, box cannot be moved (see below), so nothing was moved")
    assert report.moved == ()
    assert ns["t"] is t and ns["box"][0] is t and ns["ok"] is ok
    assert torch._C.TensorBase.device.__get__(t).type == "cpu"
    named = moves.move_all("meta", ns, names=["ok"], dry_run=dry_run)
    assert named.ok and [(m.path, m.source, m.target) for m in named.moved] == [
        ("ok", "cpu", "meta")]
    assert (ns["ok"] is ok) == dry_run


# --- E: hooks survive a swap ---------------------------------------------------------------

def hooked(m: nn.Linear) -> tuple[list[str], Any]:
    fired: list[str] = []
    handle = m.weight.register_hook(lambda g: fired.append(f"hook {tuple(g.shape)}"))
    m.weight.register_post_accumulate_grad_hook(
        lambda p: fired.append(f"post {p.grad.device.type}"))
    m.bias.register_hook(lambda g: fired.append("bias hook"))
    return fired, handle


def test_parameter_hooks_fire_after_a_move_to_meta() -> None:
    m = nn.Linear(2, 3)
    fired, handle = hooked(m)
    w = m.weight
    assert moves.move_all("meta", {"m": m}).ok
    assert m.weight is w and w.device.type == "meta"
    m(torch.ones(1, 2, device="meta")).sum().backward()
    assert sorted(fired) == ["bias hook", "hook (3, 2)", "post meta"]
    handle.remove()  # a handle from before the move still removes its hook
    fired.clear()
    m(torch.ones(1, 2, device="meta")).sum().backward()
    assert sorted(fired) == ["bias hook", "post meta"]


def test_hooks_of_a_loose_leaf_follow_its_moved_copy() -> None:
    x = torch.ones(3, requires_grad=True)
    fired: list[str] = []
    x.register_hook(lambda g: fired.append("x hook"))
    ns = {"x": x}
    assert moves.move_all("meta", ns).ok
    assert ns["x"] is not x and ns["x"].requires_grad
    (ns["x"] * 2).sum().backward()
    assert fired == ["x hook"]


def test_hooks_still_fire_after_a_failed_move() -> None:
    class FailAfter(torch.utils._python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (),
                               kwargs: Any = None) -> Any:
            if func is torch.ops.aten._to_copy.default and str(kwargs.get("device")) == "meta":
                raise torch.OutOfMemoryError("injected")
            return func(*args, **(kwargs or {}))

    m = nn.Linear(2, 3)
    fired, _ = hooked(m)
    with FailAfter():
        report = moves.move_all("meta", {"m": m})
    assert not report.ok and "out of memory on meta" in report.error
    m(torch.ones(1, 2)).sum().backward()
    assert sorted(fired) == ["bias hook", "hook (3, 2)", "post cpu"]


# --- F: RNNs -------------------------------------------------------------------------------

@pytest.mark.parametrize("cls", [nn.LSTM, nn.GRU, nn.RNN])
def test_rnns_move_to_meta_keeping_their_flat_weights(cls: type) -> None:
    m = cls(3, 4, num_layers=2)
    params = list(m.parameters())
    report = moves.move_all("meta", {"m": m})
    assert report.ok, report.error
    assert list(m.parameters()) == params and all(p.device.type == "meta" for p in params)
    assert [id(w) for w in m._flat_weights] == [id(p) for p in params]
    assert [r() for r in m._flat_weight_refs] == params and not m._weights_have_changed()
    out = m(torch.zeros(5, 1, 3, device="meta"))[0]
    assert out.device.type == "meta" and tuple(out.shape) == (5, 1, 4)
    back = moves.move_all("cpu", {"m": m})  # a meta tensor has no data to bring back
    assert not back.ok and back.error.startswith("m cannot be moved (see below)")
    assert "meta, which holds no data" in dict(back.refused)["m"]
    assert [r() for r in m._flat_weight_refs] == params and params[0].device.type == "meta"


def test_an_rnn_between_simulated_gpus_and_back(fake_cuda: Any) -> None:
    m = fake_cuda.to(nn.LSTM(3, 4), "cuda:0")  # NB: the mode weakly references real inputs
    params = list(m.parameters())
    with fake_cuda:
        for dev in ("cuda:1", "cuda:0", "cuda:1"):
            assert moves.move_all(dev, {"m": m}).ok
            assert list(m.parameters()) == params
            assert {str(p.device) for p in params} == {dev}
            assert [r() for r in m._flat_weight_refs] == params


def test_a_foreign_weak_reference_to_an_rnn_weight_stops_the_move_cleanly() -> None:
    m = nn.GRU(2, 2)
    held = weakref.ref(m.weight_hh_l0)  # NB: CPython hands out the RNN's own weakref object
    report = moves.move_all("meta", {"m": m})
    assert not report.ok and "everything was restored" in report.error
    assert "m.weight_hh_l0: something else holds a weak reference to it" in report.error
    assert held() is m.weight_hh_l0 and m.weight_hh_l0.device.type == "cpu"
    assert not m._weights_have_changed() and len(m._flat_weight_refs) == 4


# --- G: one fix keeps aliases --------------------------------------------------------------

def alias_ns() -> dict[str, Any]:
    xs = torch.ones(3, dtype=torch.float64)
    return {"model": nn.Linear(3, 1), "xs": xs, "xs_alias": xs, "batch": {"x": xs}}


def test_apply_fix_on_one_finding_keeps_aliases() -> None:
    ns = alias_ns()
    fixes = [f for f in diagnose(take_snapshot(ns)) if f.action is not None]
    first = next(f for f in fixes if f.action.refs[0][0].key == "xs")
    report = moves.apply_fix(first, ns)
    assert report.ok
    assert ns["xs"].dtype == torch.float32
    assert ns["xs_alias"] is ns["xs"] and ns["batch"]["x"] is ns["xs"]
    all_ns = alias_ns()
    assert moves.apply_all_fixes(all_ns).ok
    assert all_ns["xs_alias"] is all_ns["xs"] and all_ns["batch"]["x"] is all_ns["xs"]
    assert all_ns["xs"].dtype == ns["xs"].dtype


# --- I: frozen weights in a graph, and the last error's traceback --------------------------

def lora_like() -> tuple[nn.Module, nn.Module, torch.Tensor]:
    torch.manual_seed(0)
    base, lora = nn.Linear(4, 4), nn.Linear(4, 4)
    base.requires_grad_(False)  # what peft does to the base model
    x = torch.randn(2, 4)
    return base, lora, base(lora(x)).sum()


def test_frozen_weights_that_a_graph_saved_move_and_the_graph_still_runs() -> None:
    base, lora, out = lora_like()
    w = base.weight
    assert w._use_count() == 2  # the graph saved a view of it: swap_tensors refuses that
    report = moves.move_all("meta", {"base": base, "lora": lora, "out": out}, names=["base"])
    assert report.ok, report.error
    assert base.weight is w and w.device.type == "meta"
    out.backward()  # the graph keeps the weights it used: gradients for the trainable part
    assert lora.weight.grad is not None and lora.weight.grad.device.type == "cpu"


def test_trainable_weights_held_by_a_graph_are_refused_naming_it() -> None:
    torch.manual_seed(0)
    lora, head = nn.Linear(4, 4), nn.Linear(4, 4)
    loss = head(lora(torch.randn(2, 4))).sum()  # saves a view of head.weight
    ns = {"head": head, "loss": loss}
    report = moves.move_all("meta", ns)
    assert not report.ok and report.error == (
        "moving head.weight to meta failed: cannot be moved in place to meta: a view or an "
        "autograd graph still holds it (loss holds a graph: run backward() or del loss; or "
        "delete views of it)")
    dry = moves.move_all("meta", ns, dry_run=True)
    assert (dry.ok, dry.error) == (False, report.error)
    assert head.weight.device.type == "cpu"


FAILING = "out = model(x)\n"


def failed_forward(ip: Any) -> nn.Module:
    ip.run_cell("import torch\nfrom torch import nn\ntorch.manual_seed(0)\n"
                "model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 4), nn.Linear(4, 4))\n"
                "model[2].to('meta')\nx = torch.randn(2, 4)\n", store_history=False)
    ip.run_cell(FAILING, store_history=False)
    return ip.user_ns["model"]


def test_the_last_errors_traceback_is_released_for_a_move(ip: Any, capsys: Any) -> None:
    model = failed_forward(ip)
    w = model[1].weight
    assert last_error() and w._use_count() == 3  # the failed forward's frames hold a view
    dry = ip.run_line_magic("devices", "--to meta --dry-run")
    assert dry.ok and "the move will release that traceback first" in dry.notes[-1]
    assert last_error()  # a dry run releases nothing
    report = ip.run_line_magic("devices", "--to meta")
    assert report.ok, report.error
    assert report.notes[-1].startswith("Released the traceback of the last error")
    assert model[1].weight is w and w.device.type == "meta" and not last_error()
    assert getattr(sys, "last_traceback", None) is None
    assert type(ip.last_execution_result.error_in_exec) is RuntimeError  # the error itself stays


def test_fix_after_a_failed_forward_with_frozen_layers(ip: Any) -> None:
    model = failed_forward(ip)
    model[0].requires_grad_(False)
    ip.run_cell(FAILING, store_history=False)
    params = list(model.parameters())
    report = ip.run_line_magic("devices", "--fix")
    assert report.ok, report.error
    assert list(model.parameters()) == params and {p.device.type for p in params} == {"meta"}


# --- L: containers of scalars cost nothing -------------------------------------------------

def python_calls(ns: dict[str, Any]) -> int:
    """Python-level calls made by a dry run: a measure of work that is not a timing."""
    n = 0

    def count(frame: Any, event: str, arg: Any) -> None:
        nonlocal n
        if event == "call":
            n += 1

    sys.setprofile(count)
    try:
        report = moves.move_all("meta", ns, dry_run=True)
    finally:
        sys.setprofile(None)
    assert report.ok and [m.path for m in report.moved] == ["t"]
    return n


def test_a_dry_run_does_not_visit_each_scalar() -> None:
    small = python_calls({"xs": list(range(10)), "d": dict.fromkeys(range(10), 1.0),
                          "tup": tuple(range(10)), "t": torch.ones(1)})
    huge = python_calls({"xs": list(range(1_000_000)), "d": dict.fromkeys(range(100_000), 1.0),
                         "tup": tuple(range(100_000)), "t": torch.ones(1)})
    assert huge == small


def test_scalars_beside_tensors_are_skipped_and_tensors_still_found() -> None:
    t = torch.ones(2)
    ns = {"mixed": [*range(1000), t, "s", 2.5, (t, 3)]}
    assert moves.move_all("meta", ns).ok
    moved = ns["mixed"][1000]
    assert moved.device.type == "meta" and ns["mixed"][1003][0] is moved
    assert ns["mixed"][:3] == [0, 1, 2] and ns["mixed"][1001:1003] == ["s", 2.5]
    assert ns["mixed"][1003][1] == 3


def test_classes_are_matched_by_identity_so_no_metaclass_runs() -> None:
    """``type(v) in {int, ...}`` or ``deque in mro`` would run the metaclass, and as it answers
    yes, take ``EqHeld`` for a scalar or a deque."""
    claims = EqHeld(None)
    model = nn.Linear(1, 1)
    model.tag = claims  # NB: a plain module attribute
    ns = {"row": [1, claims, torch.ones(1)], "table": {claims: torch.ones(2), "c": claims},
          "t": torch.ones(1), "model": model}
    LOUD.clear()
    report = moves.move_all("meta", ns)
    assert LOUD == []
    assert report.ok and sorted(m.path for m in report.moved) == ["model", "row", "t", "table"]
    assert ns["row"][1] is claims and ns["row"][2].device.type == "meta"
    assert ns["table"][claims].device.type == "meta" and ns["t"].device.type == "meta"
    assert model.weight.device.type == "meta" and model.tag is claims


# --- Ctrl-C ----------------------------------------------------------------------------------

def lines_in_commit(ns_factory: Any) -> int:
    """How many lines of moves._apply a commit runs for this namespace."""
    n = 0

    def trace(frame: Any, event: str, arg: Any) -> Any:
        nonlocal n
        if frame.f_code.co_filename.endswith("moves/_apply.py"):
            if event == "line" and _in_commit(frame):
                n += 1
            return trace
        return None

    sys.settrace(trace)
    try:
        assert moves.move_all("meta", ns_factory()).ok
    finally:
        sys.settrace(None)
    return n


def _in_commit(frame: Any) -> bool:
    while frame is not None:
        if frame.f_code.co_name == "commit":
            return True
        frame = frame.f_back
    return False


def interrupt_at(k: int, ns: dict[str, Any]) -> BaseException | None:
    """A real SIGINT at the ``k``-th line the commit runs."""
    n = 0

    def trace(frame: Any, event: str, arg: Any) -> Any:
        nonlocal n
        if frame.f_code.co_filename.endswith("moves/_apply.py"):
            if event == "line" and _in_commit(frame):
                n += 1
                if n == k:
                    signal.raise_signal(signal.SIGINT)
            return trace
        return None

    sys.settrace(trace)
    try:
        moves.move_all("meta", ns)
    except KeyboardInterrupt as e:
        return e
    finally:
        sys.settrace(None)
    return None


def small_world() -> dict[str, Any]:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 3), nn.GRU(3, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.ones(2)
    return {"model": model, "opt": opt, "x": x, "also": [x, (x, 1)]}


def state(ns: dict[str, Any]) -> list[Any]:
    model = ns["model"]
    return [[(id(p), p.device.type) for p in model.parameters()], ns["x"].device.type,
            ns["also"][0] is ns["x"], ns["also"][1][0] is ns["x"],
            [r() is p for r, p in zip(model[1]._flat_weight_refs, model[1].parameters(),
                                      strict=True)]]


@pytest.fixture
def default_sigint() -> Any:
    """Python's own Ctrl-C handler (other tests and IPython may have installed theirs)."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


def test_ctrl_c_while_committing_never_leaves_half_a_move(default_sigint: Any) -> None:
    """A real SIGINT at every third line the commit runs: the state is either untouched or
    completely moved, and the KeyboardInterrupt says which."""
    lines = lines_in_commit(small_world)
    assert lines > 20
    completed = 0
    for k in range(1, lines + 1, 3):
        ns = small_world()
        before = state(ns)
        err = interrupt_at(k, ns)
        assert isinstance(err, KeyboardInterrupt), k
        after = state(ns)
        if str(err) == "devicelens: the move was interrupted; nothing was changed":
            assert after == before, k
            continue
        assert str(err) == "devicelens: interrupted after the move completed; everything was moved"
        assert after[0] == [(i, "meta") for i, _ in before[0]] and after[1] == "meta", k
        assert after[2:4] == [True, True] and all(after[4]), k
        completed += 1
    assert completed >= len(range(1, lines + 1, 3)) - 3  # only before the handler is in place


def test_ctrl_c_while_allocating_changes_nothing() -> None:
    class Interrupt(torch.utils._python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (),
                               kwargs: Any = None) -> Any:
            if func is torch.ops.aten._to_copy.default:
                raise KeyboardInterrupt
            return func(*args, **(kwargs or {}))

    ns = small_world()
    before = state(ns)
    with Interrupt(), pytest.raises(KeyboardInterrupt, match="nothing was changed"):
        moves.move_all("meta", ns)
    assert state(ns) == before


# --- D (moves' share): dict keys whose hashing is user code ---------------------------------

class LoudKey:
    def __hash__(self) -> int:
        CALLS.append("hash")
        return 1

    def __eq__(self, other: object) -> bool:
        CALLS.append("eq")
        return self is other


def test_tensors_under_a_user_hashed_key_are_refused_without_hashing_it() -> None:
    import enum

    class Split(enum.Enum):
        TRAIN = 1

    key = LoudKey()
    d: dict[Any, Any] = {}
    dict.__setitem__(d, key, torch.ones(2))
    t = torch.ones(2)
    plain = {Split.TRAIN: t, ("a", 1): t, torch.device("cpu"): t}
    ns = {"d": d, "plain": plain}
    CALLS.clear()
    report = moves.move_all("meta", ns)
    assert CALLS == []
    assert not report.ok and report.refused == (
        ("d", "holds tensors under a dict key whose __hash__ or __eq__ is its own code "
              "(a LoudKey)"),)
    assert dict.__getitem__(d, key).device.type == "cpu"  # untouched
    assert {k: v.device.type for k, v in plain.items()} == dict.fromkeys(plain, "cpu")
    named = moves.move_all("meta", ns, names=["plain"])  # the rest, named, moves
    assert named.ok
    assert {k: v.device.type for k, v in plain.items()} == dict.fromkeys(plain, "meta")


# --- H (moves' share): containers only a move opens ----------------------------------------

def test_deque_userlist_chainmap_and_simplenamespace_are_moved_keeping_aliases() -> None:
    import collections
    import types

    t, u = torch.ones(2), torch.zeros(3)
    dq = collections.deque([t, 1, (t, "k")], maxlen=5)
    ul = collections.UserList([u, 2])
    cm = collections.ChainMap({"a": t}, {"a": u, "b": u})
    sn = types.SimpleNamespace(w=t, n=4)
    big = collections.deque(range(100_000))
    ns = {"t": t, "dq": dq, "ul": ul, "cm": cm, "sn": sn, "big": big}
    report = moves.move_all("meta", ns)
    assert report.ok and {m.path for m in report.moved} == {"t", "ul"}
    new_t, new_u = ns["t"], cm.maps[1]["a"]
    assert new_t.device.type == "meta" and new_u.device.type == "meta"
    assert dq[0] is new_t and dq[2][0] is new_t and dq[1] == 1 and dq.maxlen == 5
    assert ul[0] is new_u and ul.data[1] == 2 and cm["a"] is new_t and cm["b"] is new_u
    assert sn.w is new_t and sn.n == 4 and ns["dq"] is dq and ns["sn"] is sn
    assert big[99_999] == 99_999
