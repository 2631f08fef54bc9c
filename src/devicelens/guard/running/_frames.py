"""Where a failure happened, as users see it: the stack without devicelens' own frames, which
files are the user's cells, and ``cell In[3] line 7 (in Net.forward): ...`` lines.

Shared by the guard, the post-mortem and scripts; reads frames and source lines, never runs code.
"""

from __future__ import annotations

import linecache
import os
import re
from collections.abc import Callable, Iterable
from types import FrameType
from typing import Any, NamedTuple

CellFiles = Callable[[str], bool]
MAX_FRAMES = 200


def default_cell_files(extra: Iterable[str] = ()) -> CellFiles:
    """Cell files as IPython and ipykernel name them, plus ``extra``; outside IPython, every
    file that is not part of Python or an installed package (the user's scripts)."""
    known = set(extra)
    shell = _shell()
    if shell is None:
        import sysconfig

        paths = sysconfig.get_paths()
        libs = tuple({paths["stdlib"], paths["purelib"], paths["platlib"]})
        return lambda fn: fn in known or not (fn.startswith(("<", *libs)) or fn.startswith(_HERE))
    fmap = getattr(getattr(shell, "compile", None), "_filename_map", None)

    def is_cell(filename: str) -> bool:
        return (filename in known or _ipython_cell(filename)
                or (type(fmap) is dict and filename in fmap))
    return is_cell


_KERNEL_CELL = re.compile(r"[/\\]ipykernel_\d+[/\\][^/\\]+\.py$")


def _ipython_cell(filename: str) -> bool:
    """``<ipython-input-3-...>`` (terminal IPython) or ``/tmp/ipykernel_<pid>/<hash>.py``."""
    return filename.startswith("<ipython-input-") or _KERNEL_CELL.search(filename) is not None


def _shell() -> Any:
    import sys

    ipy = sys.modules.get("IPython")
    return ipy.get_ipython() if ipy is not None else None


def cell_label(filename: str) -> str:
    """``cell In[3]`` for an IPython cell file, the file's base name otherwise."""
    fmap = getattr(getattr(_shell(), "compile", None), "_filename_map", None)
    if type(fmap) is dict and filename in fmap:
        return f"cell In[{fmap[filename]}]"
    if _ipython_cell(filename):
        return "cell"
    return os.path.basename(filename)


# --- frames ---------------------------------------------------------------------------------

class Frame(NamedTuple):
    frame: FrameType
    lineno: int


_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # NB: guard/
_PACKAGE = os.path.dirname(_HERE)


def stack_frames(start: FrameType | None) -> list[Frame]:
    """Frames from ``start`` outwards (innermost first), skipping devicelens' own."""
    out: list[Frame] = []
    f = start
    while f is not None and len(out) < MAX_FRAMES:
        if not f.f_code.co_filename.startswith(_HERE):
            out.append(Frame(f, f.f_lineno or 0))
        f = f.f_back
    return out


def traceback_frames(tb: Any) -> list[Frame]:
    """Frames of a traceback, innermost first, skipping devicelens' own (the guard's, when the
    op it let through fails: its locals are no names of the user's)."""
    out: list[Frame] = []
    while tb is not None:
        if not tb.tb_frame.f_code.co_filename.startswith(_HERE):
            out.append(Frame(tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    return out[::-1][:MAX_FRAMES]


def frame_locals(f: FrameType) -> dict[str, Any]:
    try:
        loc = f.f_locals
    except Exception:
        return {}
    return loc if isinstance(loc, dict) else dict(loc)


def module_stack(frames: list[Frame], module_type: type) -> list[Any]:
    """Modules being executed (``self`` of module methods), innermost first, each once."""
    out: list[Any] = []
    for fr in frames:
        s = frame_locals(fr.frame).get("self")
        if issubclass(type(s), module_type) and not any(s is m for m in out):
            out.append(s)
    return out


def held_modules(frames: list[Frame], module_type: type) -> list[Any]:
    """Modules a running plain object holds as its own attributes (``self.model`` of a loss or
    a trainer that is no module), innermost first, each once: the model its method works for.
    NB: read from the instance's ``__dict__``, never through ``__getattr__`` or a property."""
    from ...inspect._tree import instance_dict

    out: list[Any] = []
    for fr in frames:
        s = frame_locals(fr.frame).get("self")
        if s is None or issubclass(type(s), module_type):
            continue
        d = instance_dict(s)
        if d is None:
            continue
        out += [v for v in d.values() if issubclass(type(v), module_type)
                and not any(v is m for m in out)]
    return out


def cell_lines(frames: list[Frame], is_cell: CellFiles, current: str = "") -> list[str]:
    """``cell line 7 (in Net.forward): h = ...`` for the innermost and outermost cell frames."""
    # NB: the line that calls %%cuda_safe itself is IPython's, not the user's
    cells = [fr for fr in frames if is_cell(fr.frame.f_code.co_filename)
             and "run_cell_magic(" not in linecache.getline(fr.frame.f_code.co_filename,
                                                           fr.lineno)]
    if not cells:
        return []
    current = current or cells[-1].frame.f_code.co_filename  # NB: the cell being run
    picked = [cells[0]] if len(cells) == 1 else [cells[0], cells[-1]]
    return [_line(fr, current) for fr in picked]


def _line(fr: Frame, current: str) -> str:
    code = fr.frame.f_code
    where = cell_label(code.co_filename)
    if code.co_filename == current and where.startswith("cell"):
        where = "cell"
    fn = "" if code.co_name == "<module>" else f" (in {code.co_qualname})"
    src = linecache.getline(code.co_filename, fr.lineno).strip()
    return f"{where} line {fr.lineno}{fn}: {src}"


def internal_file(filename: str) -> bool:
    """torch's private machinery (``torch/_prims``, ``torch/_tensor.py``...): its locals are
    never what users call things, and it is never the caller of an op."""
    parts = filename.replace("\\", "/").split("/")
    if "torch" not in parts:
        return False
    rest = parts[len(parts) - 1 - parts[::-1].index("torch") + 1:]
    return any(p.startswith("_") for p in rest) or rest[-1:] in (["overrides.py"], ["library.py"])
