"""The other side of a device mismatch: the user's model moved to where the data is.

Reached only where nothing that brings the data to the model makes the cell run (the running
code itself puts the data back where it was: an evaluator made for the cpu, on a model another
one moved to the GPU; an EMA copy the user asks for on the cpu, ``moving_average(..., "cpu")``,
while the copy sits on the GPU). The model is the one the failing op ran in, or else the one
whose parameters the failing line reads. Devices only: data in another dtype is mostly an
accident (NumPy's float64), and a model cast to it runs but is not what the user wants.
"""

from __future__ import annotations

import linecache
import re
from typing import Any

from ..diagnosis._blame import Named, Namer, Operand, is_module, meta
from ..diagnosis._mismatch import MismatchReport
from ..running._frames import frame_locals, internal_file, traceback_frames

_NAME = re.compile(r"[A-Za-z_]\w*")


def culprits_place(report: MismatchReport) -> str:
    """The one device (dtype) every culprit of ``report`` is on; '' when they differ."""
    places = {c.device if report.kind == "device" else c.dtype for c in report.culprits}
    return places.pop() if len(places) == 1 else ""


def other_side(report: MismatchReport, tb: Any, ns: dict[str, Any]) -> tuple[str, Operand] | None:
    """The fix that takes the user's model to the device the culprits are on
    (``model.to("cpu")``), and that model as a culprit; None where there is no such model, the
    culprits are on several devices, or the mismatch is of dtypes."""
    place = culprits_place(report)
    if report.kind != "device" or place in ("", "?", report.expected):
        return None
    ran_in = _ran_in(report, ns)
    if ran_in is not None:
        if _part_of_split(ns[ran_in], ns):
            return None
        return _move(ran_in, ns, place, report.expected, "the module the op ran in")
    read = _read_by_line(report, tb, ns)
    if read is not None and not _part_of_split(ns[read], ns):
        return _move(read, ns, place, report.expected, "its parameters are what the line reads")
    return None


def _part_of_split(m: Any, ns: dict[str, Any]) -> bool:
    """``m`` is a part of a namespace model split over accelerators on purpose (a device map:
    ``layer`` bound to a stage of ``model``): moving the part undoes the user's layout, it does
    not fix the run. NB: parameters and submodules read from ``__dict__``s only."""
    from ...inspect import _tree
    from ..diagnosis._decide import is_pipeline

    for k, v in dict.items(ns):
        if type(k) is str and not k.startswith("_") and v is not m and is_module(v) \
                and any(s is m for s in _tree.submodules(v, limit=2_000)) and is_pipeline(v):
            return True
    return False


def _move(root: str, ns: dict[str, Any], place: str, expected: str,
          why: str) -> tuple[str, Operand]:
    what = f"{type(ns[root]).__name__}, on {expected}: {why}"
    return f'{root}.to("{place}")', Operand("", Named(root, root, "module", root), expected, "",
                                             (), what)


def _ran_in(report: MismatchReport, ns: dict[str, Any]) -> str | None:
    """The namespace model of the report's ``inside:`` line. NB: "a Linear not reachable ..."
    has no " (" and names no model."""
    path, sep, _kind = report.module.rpartition(" (")
    m = _NAME.match(path)
    if not sep or m is None or not is_module(ns.get(m.group(0))):
        return None
    return m.group(0)


def _read_by_line(report: MismatchReport, tb: Any, ns: dict[str, Any]) -> str | None:
    """The one namespace model whose tensors on the expected device the failing line reads by
    a name of its frame (``param_ema`` of ``ema_model``); None when none or several are."""
    frames = [fr for fr in traceback_frames(tb)
              if not internal_file(fr.frame.f_code.co_filename)
              and "site-packages" not in fr.frame.f_code.co_filename]
    if not frames:
        return None
    fr = frames[0]  # NB: innermost first: the user's line that failed
    line = linecache.getline(fr.frame.f_code.co_filename, fr.lineno)
    loc = frame_locals(fr.frame)
    read = [loc[n] for n in dict.fromkeys(_NAME.findall(line)) if n in loc]
    namer = Namer(ns, traceback_frames(tb))
    roots: set[str] = set()
    for v in read:
        header = meta(v)  # NB: no user code reads it
        if header is None or header[0] != report.expected:
            continue
        named = namer.namespace_tensor(v)
        if named is not None and named.root and is_module(ns.get(named.root)):
            roots.add(named.root)
    return roots.pop() if len(roots) == 1 else None
