"""Rules only distributed training has: a rank's model or batch on another rank's GPU (the
``LOCAL_RANK`` that no line uses), and ``DistributedDataParallel(device_ids=...)`` away from its
module. Pure functions of a snapshot and the process' :class:`~devicelens.inspect.ranks.RankInfo`.

NB: sharded layouts (FSDP, DTensor) place tensors per rank on purpose and are never flagged.
"""

from __future__ import annotations

from ..inspect._tree import code_for, has_code
from ..inspect.ranks import RankInfo
from ..inspect.records import ObjectRecord, Snapshot, TensorRecord
from .findings import Action, Finding, _finding, module_tensors

#: the fix's device in every rank's own terms (never a literal index that suits one rank only)
RANK_DEVICE_CODE = "f\"cuda:{os.environ['LOCAL_RANK']}\""
RANK_INDEX_CODE = "int(os.environ['LOCAL_RANK'])"
DIST_KINDS = ("rank_device", "rank_tensor", "ddp_device")


def diagnose_ranks(snap: Snapshot, info: RankInfo) -> list[Finding]:
    """Findings that need to know which rank this is (none for a single process)."""
    if info.world_size < 2:
        return []
    out: list[Finding] = []
    for o in snap.objects:
        if o.dispatch:
            continue
        if o.kind == "module":
            out += _ddp_device(o, info) or _rank_device(o, info)
        elif o.kind in ("tensor", "container"):
            out += _rank_tensor(o, info)
    return out


def device_code(device: str, info: RankInfo) -> str:
    """``device`` as fix code: this rank's own GPU is written so that every rank gets its own."""
    if device == info.device and info.visible_gpus != 1:
        return RANK_DEVICE_CODE
    return f'"{device}"'


def _others(tensors: list[TensorRecord], info: RankInfo) -> list[TensorRecord]:
    """Tensors on a GPU that belongs to another rank of this node."""
    if info.visible_gpus == 1:
        return []  # NB: one GPU per process: cuda:0 is every rank's own
    return [t for t in tensors if t.device.startswith("cuda") and t.device != info.device]


def _whose(device: str, info: RankInfo) -> str:
    index = device.partition(":")[2]
    if index == "0" and info.local_rank != 0:
        return ("cuda:0 on every rank: the code does not use LOCAL_RANK, so all ranks of this "
                "node share one GPU (with NCCL: \"Duplicate GPU detected\")")
    mine = index.isdigit() and int(index) < info.local_world_size
    return f"{device}, {f'local_rank {index}' if mine else 'no rank'}'s GPU"


def _rank_device(o: ObjectRecord, info: RankInfo) -> list[Finding]:
    wrong = _others(module_tensors(o), info)
    if not wrong:
        return []
    found = sorted({t.device for t in wrong})
    root = o.tensors[0].ref[:1]
    msg = (f"{o.name} is on {_whose(found[0], info)}; this process is local_rank "
           f"{info.local_rank} of {info.local_world_size}, whose GPU is {info.device}.")
    return [_finding("rank_device", "error", f"{o.name} is on another rank's GPU", msg,
                     f"{code_for(root)}.to({device_code(info.device, info)})",
                     (t.path for t in wrong), [o.name], [*found, info.device],
                     action=Action("to_device", (root,), info.device))]


def _rank_tensor(o: ObjectRecord, info: RankInfo) -> list[Finding]:
    wrong = _others([t for t in o.tensors if t.role == "tensor"], info)
    if not wrong:
        return []
    found = sorted({t.device for t in wrong})
    target = device_code(info.device, info)
    lines = [f"{code_for(t.ref)} = {code_for(t.ref)}.to({target})" for t in wrong
             if has_code(t.ref)]
    names = ", ".join(t.path for t in wrong[:3]) + ("…" if len(wrong) > 3 else "")
    msg = (f"{names} {'is' if len(wrong) == 1 else 'are'} on {_whose(found[0], info)}; this "
           f"process is local_rank {info.local_rank}, whose GPU is {info.device}.")
    return [_finding("rank_tensor", "error", f"{o.name} is on another rank's GPU", msg,
                     "\n".join(lines), (t.path for t in wrong), [o.name], [*found, info.device],
                     action=Action("to_device", tuple(t.ref for t in wrong), info.device))]


def _ddp_device(o: ObjectRecord, info: RankInfo) -> list[Finding]:
    if o.wrapper != "DistributedDataParallel" or not o.device_ids:
        return []
    want = f"cuda:{o.device_ids[0]}"
    own = module_tensors(o)
    wrong = [t for t in own if t.device != want]
    if not wrong and (want == info.device or info.visible_gpus == 1):
        return []
    found = sorted({t.device for t in own})
    if wrong:
        msg = (f"{o.name} is a DistributedDataParallel with device_ids={list(o.device_ids)}, "
               f"but its module is on {', '.join(found)}: DDP moves every input to {want}, so "
               f"the forward pass fails.")
    else:
        msg = (f"{o.name} is a DistributedDataParallel on {want}, {_whose(want, info)}; this "
               f"process is local_rank {info.local_rank}, whose GPU is {info.device}.")
    root = o.tensors[0].ref[:1]
    name = code_for(root)
    ids = RANK_INDEX_CODE if info.visible_gpus != 1 else "0"
    fix = ("# wrap the module once it is on this rank's GPU\n"
           f"{name} = torch.nn.parallel.DistributedDataParallel({name}.module.to("
           f"{device_code(info.device, info)}), device_ids=[{ids}])")
    return [_finding("ddp_device", "error", f"{o.name}: device_ids and module disagree", msg,
                     fix, (t.path for t in wrong or own), [o.name], [*found, want])]
