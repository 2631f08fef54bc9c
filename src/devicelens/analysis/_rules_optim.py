"""Rules about optimizers: state left on another device or dtype than its parameters, and an
optimizer holding parameters its model no longer has (re-created, or replaced by ``Module.to()``).
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import attrgetter, eq, itemgetter
from typing import Any, NamedTuple

from ..inspect._tree import Ref, Step, code_for
from ..inspect.records import ObjectRecord, TensorRecord
from ._usage import Usage
from .findings import Action, Finding, _finding, is_real_float


def _optimizer(o: ObjectRecord, ctx: tuple[tuple[ObjectRecord, ...], Usage]) -> list[Finding]:
    """``ctx``: every module of the snapshot, in order, and the cells' usage."""
    modules, usage = ctx
    ts = o.tensors
    ps = list(compress(ts, map(eq, map(_ROLE, ts), repeat("opt_param"))))  # NB: C speed
    if (not ps or not modules or any(map(_OWNER, ps))) and _uniform(o):
        return []  # NB: no orphan (see _orphan) and no state apart: the usual optimizer
    params = dict(zip(map(_KEY, map(_LAST, map(_REF, ps))), ps, strict=True))
    # NB: the optimizer itself, or one a plain wrapper holds (``optimizer.optimizer``)
    root: Ref = ps[0].ref[:-1] if ps else (Step("name", o.name),)
    orphan = _orphan(o, params, modules, usage, root)
    if orphan and orphan[0].action is not None:
        return orphan  # NB: the remap also puts the state where the new parameters are
    bad_dev, bad_dt = ([], []) if _uniform(o) else _mismatched_state(o, params)
    out: list[Finding] = []
    loop = (f"for _p, _s in {code_for(root)}.state.items():\n    for _k, _v in _s.items():\n"
            f"        if torch.is_tensor(_v) and _k != \"step\":\n")
    # NB: state left on another device only moves: a float32 master copy kept beside half
    # parameters (fairseq's and ParlAI's memory-efficient fp16 optimizers) stays float32
    fix = loop + "            _s[_k] = _v.to(_p.device)"
    if bad_dev:
        pdevs = sorted({params[t.ref[-2].key].device for t in bad_dev})
        n = len(bad_dev)
        msg = (f"{n} state tensor{'s' * (n != 1)} of {o.name} {'are' if n != 1 else 'is'} on "
               f"{', '.join(sorted({t.device for t in bad_dev}))} while their parameters are on "
               f"{', '.join(pdevs)}: {o.name}.step() will fail.")
        out.append(_finding("optimizer_state", "error", f"{o.name} state left behind", msg, fix,
                            (t.path for t in bad_dev), [o.name],
                            sorted({t.device for t in bad_dev} | set(pdevs)),
                            action=Action("optimizer_state", (root,))))
    if bad_dt:
        n = len(bad_dt)
        msg = (f"{n} state tensor{'s' * (n != 1)} of {o.name} {'have' if n != 1 else 'has'} a "
               f"different dtype than their "
               f"parameters: {o.name}.step() will fail or lose precision.")
        fix = loop + ("            _s[_k] = _v.to(device=_p.device, dtype=_p.dtype if "
                      "_v.is_floating_point() else _v.dtype)")
        out.append(_finding("optimizer_state_dtype", "warning", f"{o.name} state dtype differs",
                            msg, fix, (t.path for t in bad_dt), [o.name],
                            dtypes=sorted({t.dtype for t in bad_dt}),
                            action=Action("optimizer_state", (root,))))
    return out + orphan


def _uniform(o: ObjectRecord) -> bool:
    """One device and at most one real floating dtype among all of ``o``'s tensors: no state
    can differ from its parameter. NB: C-speed scans, no Python step per tensor."""
    dtypes = set(map(_DTYPE, o.tensors))
    return len(set(map(_DEVICE, o.tensors))) <= 1 and sum(map(is_real_float, dtypes)) <= 1


_DEVICE, _DTYPE = attrgetter("device"), attrgetter("dtype")
_ROLE, _REF, _KEY, _LAST = attrgetter("role"), attrgetter("ref"), attrgetter("key"), itemgetter(-1)
_OWNER = attrgetter("owner")


def _mismatched_state(o: ObjectRecord, params: dict[Any, TensorRecord],
                      ) -> tuple[list[TensorRecord], list[TensorRecord]]:
    """State tensors on another device, and (else) of another real floating dtype, than their
    parameter (what the fix casts: ``is_floating_point()``). NB: ``step`` and 0-dim cpu
    scalars belong on the cpu."""
    bad_dev: list[TensorRecord] = []
    bad_dt: list[TensorRecord] = []
    for t in o.tensors:
        if t.role != "state" or t.ref[-1].key == "step" or (t.shape == () and t.device == "cpu"):
            continue
        p = params.get(t.ref[-2].key)
        if p is None:
            continue
        if t.device != p.device:
            bad_dev.append(t)
        elif is_real_float(t.dtype) and is_real_float(p.dtype) and t.dtype != p.dtype:
            bad_dt.append(t)
    return bad_dev, bad_dt


# --- stale parameters ---------------------------------------------------------------------

class _Match(NamedTuple):
    module: ObjectRecord
    new: list[TensorRecord]  # the module's current parameter for each of the optimizer's
    code: str  # an expression listing them, in the optimizer's order


def _orphan(o: ObjectRecord, params: dict[Any, TensorRecord], modules: tuple[ObjectRecord, ...],
            usage: Usage, root: Ref) -> list[Finding]:
    """An optimizer none of whose parameters a module in the namespace holds.

    NB: ``Module.to()`` between cpu and meta (torch 2.13, without the swap flag) makes new
    Parameter objects, and so do ``load_state_dict(assign=True)`` and re-running the cell that
    builds the model: the optimizer keeps updating the old ones.
    """
    if not params or not modules or any(p.owner for p in params.values()):
        return []
    old = list(params.values())
    match = _match(old, modules, usage.models_of(o.name))
    if match is None:
        if _master_copy(old, modules):
            return []
        return [_recreate(o, old, modules, code_for(root))]
    model = match.module.name
    moved = {t.device for t in old} != {t.device for t in match.new}
    cause = (f"{o.name} holds the parameters {model} had before {model}.to() replaced them "
             f"(Module.to() to or from meta makes new Parameter objects)" if moved else
             f"{o.name} holds parameters {model} no longer has: {model} was re-created, or its "
             f"parameters replaced (load_state_dict(assign=True)), after {o.name} was made")
    msg = (f"{cause}, so {o.name}.step() updates {len(old)} tensors {model} does not use. "
           f"The fix points {o.name} at {model}'s current parameters and keeps its state, "
           f"moved to them.")
    pairs = tuple((t.ref, n.ref) for t, n in zip(old, match.new, strict=True))
    return [_finding("optimizer_orphan", "error", f"{o.name} updates stale parameters", msg,
                     _remap_code(code_for(root), match.code), [o.name], [o.name, model],
                     sorted({t.device for t in old} | {t.device for t in match.new}),
                     action=Action("optimizer_remap", (root,), pairs=pairs))]


def _master_copy(old: list[TensorRecord], modules: tuple[ObjectRecord, ...]) -> bool:
    """The optimizer's parameters hold exactly as many numbers as a module's parameters, in
    other shapes: a master copy (a flat fp32 buffer an fp16 optimizer steps and copies back, as
    apex, fairseq and Uni-Core do), not parameters of a model that is gone."""
    total = sum(t.numel for t in old)
    return any(total == sum(t.numel for t in _params(m)) for m in modules)


def _match(old: list[TensorRecord], modules: tuple[ObjectRecord, ...],
           used: frozenset[str]) -> _Match | None:
    """The module whose parameters the stale ones were: same shapes in the same order (all of
    them, or each param group as one run of them). Ties: the module the cells say, then one on
    another device (``.to()``), then the largest."""
    best: tuple[tuple[int, int, int], _Match] | None = None
    for m in modules:
        new = _params(m)
        found = _whole(old, new, m) or _by_group(old, new, m)
        if found is None:
            continue
        rank = (m.name not in used, {t.device for t in old} == {t.device for t in new},
                -sum(t.nbytes for t in new))
        if best is None or rank < best[0]:
            best = (rank, found)
    return best[1] if best is not None else None


def _params(m: ObjectRecord) -> list[TensorRecord]:
    """``m.parameters()``, in its order. NB: a tied parameter counts once, as in torch."""
    seen: set[int] = set()
    out = []
    for t in m.tensors:
        if t.role == "parameter" and t.storage not in seen:
            seen.add(t.storage)
            out.append(t)
    return out


def _whole(old: list[TensorRecord], new: list[TensorRecord], m: ObjectRecord) -> _Match | None:
    if [t.shape for t in old] != [t.shape for t in new]:
        return None
    return _Match(m, new, f"{code_for(m.tensors[0].ref[:1])}.parameters()")


def _by_group(old: list[TensorRecord], new: list[TensorRecord],
              m: ObjectRecord) -> _Match | None:
    """Each param group is one run of the module's parameters (``model.head``), or failing
    that the only way to pick its shapes in order (Muon takes the matrices only)."""
    groups: dict[Any, list[TensorRecord]] = {}
    for t in old:
        groups.setdefault(t.ref[-1].key[0], []).append(t)  # type: ignore[index]
    shapes = [t.shape for t in new]
    mapped: list[TensorRecord] = []
    pieces: list[str] = []
    taken: set[int] = set()
    for ts in groups.values():
        want = [t.shape for t in ts]
        idx = _run(want, shapes, taken) or _subsequence(want, shapes, taken)
        if idx is None:
            return None
        taken.update(idx)
        run = [new[i] for i in idx]
        mapped += run
        pieces.append(_run_code(m, run))
    return _Match(m, mapped, f"[{', '.join(pieces)}]")


def _run(want: list[Any], shapes: list[Any], taken: set[int]) -> list[int] | None:
    n = len(want)
    starts = [i for i in range(len(shapes) - n + 1) if shapes[i:i + n] == want
              and not taken & set(range(i, i + n))]
    return list(range(starts[0], starts[0] + n)) if len(starts) == 1 else None


MAX_EMBED = 4_000_000


def _subsequence(want: list[Any], shapes: list[Any], taken: set[int]) -> list[int] | None:
    """The indices of the one way to find ``want`` in order in ``shapes`` (None: no way, or
    several). NB: ways counted up to 2, by dynamic programming from the end."""
    n, k = len(shapes), len(want)
    if k == 0 or n * k > MAX_EMBED:
        return None
    ways = [[0] * (n + 1) for _ in range(k + 1)]
    ways[k] = [1] * (n + 1)
    for i in range(k - 1, -1, -1):
        for j in range(n - 1, -1, -1):
            here = ways[i + 1][j + 1] if shapes[j] == want[i] and j not in taken else 0
            ways[i][j] = min(2, ways[i][j + 1] + here)
    if ways[0][0] != 1:
        return None
    out, j = [], 0
    for i in range(k):
        while not (shapes[j] == want[i] and j not in taken and ways[i + 1][j + 1]):
            j += 1
        out.append(j)
        j += 1
    return out


def _run_code(m: ObjectRecord, run: list[TensorRecord]) -> str:
    """``*model.head.parameters()`` when a submodule holds exactly ``run``, else each one."""
    ids = [t.storage for t in run]
    for sub in m.modules:
        inside = _params_under(m, sub.path)
        if [t.storage for t in inside] == ids:
            return f"*{code_for(sub.ref)}.parameters()"
    return ", ".join(code_for(t.ref) for t in run)


def _params_under(m: ObjectRecord, path: str) -> list[TensorRecord]:
    return [t for t in _params(m) if t.owner == path or t.owner.startswith(path + ".")]


_FOLLOW = (  # NB: only underscore names, which never clash with the user's
    "def _follow(_k, _v, _q, _grp):\n"
    "    # NB: as torch.optim's load_state_dict: 'step' stays put unless capturable or fused\n"
    "    if _k == \"step\":\n"
    "        _special = _grp.get(\"capturable\") or _grp.get(\"fused\")\n"
    "        return _v.to(_q.device) if _special and torch.is_tensor(_v) else _v\n"
    "    return torch.utils._pytree.tree_map(lambda _t: _t.to(device=_q.device, dtype=_q.dtype\n"
    "        if _t.is_floating_point() and _q.is_floating_point() else _t.dtype)\n"
    "        if torch.is_tensor(_t) else _t, _v)\n")


def _remap_code(opt: str, new: str) -> str:
    """Runnable code that re-points ``opt`` at ``new``: works for every torch.optim optimizer
    (param_groups and state are the whole of its parameter bookkeeping; LBFGS aliases
    ``param_groups[0]["params"]``, hence the in-place item assignment)."""
    return (f"{_FOLLOW}"
            f"_old = [_p for _g in {opt}.param_groups for _p in _g[\"params\"]]\n"
            f"_new = dict(zip(map(id, _old), {new}, strict=True))\n"
            f"for _g in {opt}.param_groups:\n"
            f"    for _i, _p in enumerate(_g[\"params\"]):\n"
            f"        _n = _g[\"params\"][_i] = _new[id(_p)]\n"
            f"        if _p in {opt}.state:\n"
            f"            {opt}.state[_n] = {{_k: _follow(_k, _v, _n, _g) "
            f"for _k, _v in {opt}.state.pop(_p).items()}}\n"
            f"del _old, _new, _n")


def _recreate(o: ObjectRecord, old: list[TensorRecord], modules: tuple[ObjectRecord, ...],
              code: str) -> Finding:
    """No module matches the stale parameters' shapes: all we can say is make a new one."""
    model = max(modules, key=lambda m: sum(t.nbytes for t in m.tensors)).name
    msg = (f"None of the {len(old)} parameters {o.name} updates belongs to a module in the "
           f"namespace, and no module has parameters of the same shapes: {o.name}.step() "
           f"trains a model you no longer use. Create {o.name} again for the model you train "
           f"(its state starts afresh).")
    fix = (f"import inspect as _inspect\n"
           f"_args = _inspect.signature(type({code})).parameters\n"
           f"{code} = type({code})({model}.parameters(), **{{_k: _v for _k, _v in "
           f"{code}.defaults.items() if _k in _args}})")
    return _finding("optimizer_orphan", "error", f"{o.name} updates stale parameters", msg, fix,
                    [o.name], [o.name, model])
