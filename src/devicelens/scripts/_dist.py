"""What distributed training adds to a diagnosis: this rank's own GPU decides who the culprit is,
fixes speak in every rank's terms (``LOCAL_RANK``, never one rank's literal index), and two
failures only it has: ``DistributedDataParallel(device_ids=...)`` given a module elsewhere, and
a collective handed a tensor its process group has no backend for (cpu with NCCL).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import replace
from typing import Any

from ..analysis import RANK_DEVICE_CODE, RANK_INDEX_CODE, Finding, device_code, diagnose_ranks
from ..guard.diagnosis._blame import Namer, Operand, describe_tensor, is_tensor, iter_params
from ..guard.diagnosis._edits import Edit
from ..guard.diagnosis._mismatch import MismatchReport, fixes_for
from ..guard.running._frames import CellFiles, Frame, cell_label, cell_lines, frame_locals
from ..inspect.ranks import RankInfo


def rejudge(rep: MismatchReport, info: RankInfo, ns: dict[str, Any],
            frames: list[Frame]) -> MismatchReport:
    """``rep`` seen from this rank: its own GPU, when the failing op saw it, is where the
    others belong (the model on ``cuda:0`` is the culprit on rank 1, not the batch)."""
    own = info.device
    seen = {o.device for o in rep.operands}
    if rep.kind == "device" and own in seen and rep.expected != own:
        culprits = [o for o in rep.operands if o.device != own and not o.scalar_cpu]
        # NB: the edits judged the other way round go too: they would undo this rank's GPU
        rep = replace(rep, expected=own, culprits=tuple(culprits), edits=(),
                      fixes=fixes_for(culprits, "device", own, list(rep.operands)))
    found = rank_findings(ns, info)
    fixes = [*rep.fixes, *(f.fix for f in found)]
    # NB: an edit that spells out this rank's GPU would be wrong on every other rank
    edits = tuple(e._replace(new=tuple(in_rank_terms(ln, info, frames, ns) for ln in e.new))
                  for e in rep.edits)
    return replace(rep, notes=tuple(dict.fromkeys((*(f.message for f in found), *rep.notes))),
                   fixes=tuple(dict.fromkeys(in_rank_terms(f, info, frames, ns) for f in fixes)),
                   edits=edits)


def rank_findings(ns: dict[str, Any], info: RankInfo) -> list[Finding]:
    from ..inspect import take_snapshot

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NB: reading .grad of a non-leaf warns; harmless
        return diagnose_ranks(take_snapshot(ns), info)


def in_rank_terms(code: str, info: RankInfo, frames: list[Frame], ns: dict[str, Any]) -> str:
    """Fix code that works on every rank: this rank's device literal becomes the user's own
    ``device`` / ``local_rank`` variable, else ``LOCAL_RANK`` from the environment."""
    if info.visible_gpus == 1:
        return code
    dev_name, idx_name = _rank_variables(info, frames, ns)
    device = dev_name or (f'f"cuda:{{{idx_name}}}"' if idx_name else RANK_DEVICE_CODE)
    for literal in (f'"{info.device}"', RANK_DEVICE_CODE):
        code = code.replace(literal, device)
    return code.replace(RANK_INDEX_CODE, idx_name or RANK_INDEX_CODE)


def _rank_variables(info: RankInfo, frames: list[Frame],
                    ns: dict[str, Any]) -> tuple[str | None, str | None]:
    import torch

    scopes = [frame_locals(fr.frame) for fr in frames
              if fr.frame.f_code.co_name != "<module>" and fr.frame.f_globals is ns] + [ns]
    device = index = None
    for scope in scopes:
        for k, v in list(scope.items()):
            if k.startswith("_"):
                continue
            if device is None and type(v) is torch.device and str(v) == info.device:
                device = k
            if index is None and type(v) is int and v == info.local_rank \
                    and "local_rank" in k.lower():
                index = k
    return device, index


# --- failures only distributed training has -------------------------------------------------

_DDP = "device_ids and output_device arguments only work with"
_DUPLICATE_GPU = "Duplicate GPU detected"
_NO_BACKEND = re.compile(r"No backend type associated with device type (\w+)")


def explain_dist(exc: BaseException, frames: list[Frame], ns: dict[str, Any],
                 is_cell: CellFiles, info: RankInfo) -> tuple[str, MismatchReport] | None:
    """(headline, report) for a DDP or collective failure; ``None`` for anything else."""
    text = str(exc)
    if isinstance(exc, ValueError) and _DDP in text:
        return _ddp_init(frames, ns, is_cell, info)
    m = _NO_BACKEND.search(text)
    if isinstance(exc, RuntimeError) and m is not None:
        return _collective(m.group(1), frames, ns, is_cell, info)
    if _DUPLICATE_GPU in text:
        # NB: NCCL's own words for "every rank on cuda:0"; the rank rules name the model
        rep = MismatchReport("device", "", info.device, (), (), "",
                             tuple(cell_lines(frames, is_cell)))
        return (f"NCCL found two ranks on one GPU; this process is local_rank {info.local_rank}, "
                f"whose GPU is {info.device}"), rep
    return None


def _ddp_init(frames: list[Frame], ns: dict[str, Any], is_cell: CellFiles,
              info: RankInfo) -> tuple[str, MismatchReport] | None:
    fr = next((f for f in frames if f.frame.f_code.co_name == "__init__" and type(
        frame_locals(f.frame).get("self")).__name__ == "DistributedDataParallel"), None)
    if fr is None:
        return None
    loc = frame_locals(fr.frame)
    module, ids = loc.get("module"), loc.get("device_ids")
    if module is None or not ids:
        return None
    want = _cuda(ids[0])
    namer = Namer(ns, frames, is_cell)
    name = _user_name(module, frames, ns, is_cell) or namer.module(module) or "the module"
    ops: dict[str, Operand] = {}
    for p in iter_params(module):
        if str(p.device) != want:
            ops.setdefault(str(p.device), describe_tensor(p, f"parameter of {name}",
                                                          namer.tensor(p)))
    culprits = tuple(ops.values())
    if not culprits:
        return None
    found = ", ".join(sorted(ops))
    head = f"DistributedDataParallel(device_ids={list(ids)}) got a module on {found}"
    where = tuple(cell_lines(frames, is_cell))
    if not _has_gpu(want):
        # NB: no GPU here: moving the module to one cannot work; a cpu module trains under DDP
        # without device_ids
        caller = frames[frames.index(fr) + 1] if frames.index(fr) + 1 < len(frames) else None
        edit = _without_device_ids(caller) if caller is not None else None
        note = (f"this machine has no GPU {want}: DistributedDataParallel trains a cpu module "
                f"only without device_ids (and output_device)")
        fixes = () if edit is not None else (
            "# wrap the module without device_ids: DistributedDataParallel(module)",)
        return head, MismatchReport("device", "DistributedDataParallel", "cpu", culprits, (),
                                    f"{name} ({type(module).__name__})", where, fixes,
                                    (note,), (edit,) if edit is not None else ())
    note = (f"DistributedDataParallel does not move the module: with device_ids={list(ids)} it "
            f"must already be on {want} (or drop device_ids to train on the cpu)")
    fix = f"{name} = {name}.to({device_code(want, info)})  # before wrapping it"
    rep = MismatchReport("device", "DistributedDataParallel", want, culprits, culprits,
                         f"{name} ({type(module).__name__})", where, (fix,), (note,))
    return head, rep


def _has_gpu(want: str) -> bool:
    """Whether this process can reach ``want`` (``cuda:N``). NB: asked only after DDP failed."""
    import torch

    index = int(want.split(":")[1]) if ":" in want else 0
    try:
        return bool(torch.cuda.is_available()) and torch.cuda.device_count() > index
    except Exception:
        return False


def _without_device_ids(fr: Frame) -> Edit | None:
    """The caller's statement with ``device_ids=`` and ``output_device=`` dropped from the
    ``DistributedDataParallel(...)`` call (the only way a cpu module trains under DDP)."""
    import ast
    import linecache

    co = fr.frame.f_code
    lines = [ln.rstrip("\n") for ln in linecache.getlines(co.co_filename)]
    if not 0 < fr.lineno <= len(lines):
        return None
    text = lines[fr.lineno - 1]
    try:
        call = ast.parse(text.strip()).body[0]
    except (SyntaxError, IndexError):
        return None  # NB: a statement over several lines: the fix says it in words
    pad = len(text) - len(text.lstrip())
    cut = [(k.col_offset, k.end_col_offset) for n in ast.walk(call) if isinstance(n, ast.Call)
           and (getattr(n.func, "attr", "") or getattr(n.func, "id", "")).endswith(
               "DistributedDataParallel")
           for k in n.keywords if k.arg in ("device_ids", "output_device")]
    if not cut:
        return None
    new = text.strip().encode()
    for a, b in sorted(cut, reverse=True):
        if a is None or b is None:
            return None
        start = new.rfind(b",", 0, a)
        new = new[:start if start >= 0 else a] + new[b:]
    label = f"{cell_label(co.co_filename)} line {fr.lineno}"
    return Edit(label, (text,), (" " * pad + new.decode(),), co.co_filename,
                "" if co.co_name == "<module>" else co.co_qualname)


def _cuda(device: Any) -> str:
    return f"cuda:{device}" if type(device) is int else str(device)


def _user_name(obj: Any, frames: list[Frame], ns: dict[str, Any], is_cell: CellFiles) -> str:
    """The user's own variable holding ``obj`` (innermost user frame first), or ''."""
    scopes = [frame_locals(f.frame) for f in frames if is_cell(f.frame.f_code.co_filename)]
    for scope in [*scopes, ns]:
        for k, v in list(scope.items()):
            if v is obj and not k.startswith("_"):
                return str(k)
    return ""


def _collective(device_type: str, frames: list[Frame], ns: dict[str, Any],
                is_cell: CellFiles, info: RankInfo) -> tuple[str, MismatchReport] | None:
    fr = next((f for f in frames
               if f.frame.f_code.co_filename.endswith("distributed_c10d.py")), None)
    if fr is None:
        return None
    op = fr.frame.f_code.co_name
    namer = Namer(ns, frames, is_cell)
    found: dict[int, Operand] = {}
    for k, v in frame_locals(fr.frame).items():
        for t in (v if type(v) is list or type(v) is tuple else [v]):
            if is_tensor(t) and t.device.type == device_type:
                found.setdefault(id(t), describe_tensor(t, f"`{k}` in {op}", namer.tensor(t)))
    culprits = list(found.values())
    if not culprits:
        return None
    backend = _backend(frame_locals(fr.frame).get("group")) or info.backend
    kinds = [part.split(":", 1)[0] for part in backend.split(",") if ":" in part]
    want = info.device if "cuda" in kinds else (kinds[0] if kinds else "")
    note = (f"the process group ({backend}) has no backend for {device_type} tensors: NCCL "
            f"sends cuda tensors only (gloo also takes cpu ones)")
    rep = MismatchReport("device", op, want, tuple(culprits), tuple(culprits), "",
                         tuple(cell_lines(frames, is_cell)),
                         fixes_for(culprits, "device", want, culprits), (note,))
    return f"{op}() got a tensor on {device_type}, which the process group cannot send", rep


def _backend(group: Any) -> str:
    import torch.distributed as dist

    try:
        return str(dist.get_backend_config(group))
    except Exception:
        return ""
