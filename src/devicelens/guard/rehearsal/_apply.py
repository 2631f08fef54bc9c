"""A printed fix, carried out exactly as printed, on the rehearsal's copy of the namespace.

A ``fix:`` block is run as the user would paste it. An ``edit:`` block is applied to its source:
an edit of a function replaces that function's code object in place (every object that runs it
sees the new line at once, as after re-running the cell that defines it and rebuilding the
object); an edit of a cell's top level re-runs that cell's edited text. NB: this runs only inside
the sandbox's child process.
"""

from __future__ import annotations

import ast
import linecache
import re
import sys
import types
from typing import Any

from ..diagnosis import _source
from ..diagnosis._edits import Edit
from ..running import _awaits


class NotApplied(Exception):
    """The fix cannot be carried out as printed (the reason is the message)."""


def is_code(fix: str) -> bool:
    """A ``fix:`` block that does something (not only ``# ...`` advice)."""
    return any(ln.strip() and not ln.lstrip().startswith("#") for ln in fix.splitlines())


def python_text(lines: list[str]) -> str:
    """A cell's lines (no line ends) as Python, its IPython syntax blanked, lines kept."""
    return _source.python_text([ln + "\n" for ln in lines])


def run_fix(fix: str, ns: dict[str, Any]) -> None:
    """A ``fix:`` block, run in ``ns``; ``NotApplied`` when it is no code or raises."""
    try:
        code = compile(fix, "<devicelens fix>", "exec", dont_inherit=True)
    except SyntaxError as e:
        raise NotApplied(f"the fix is not valid Python ({e.msg})") from None
    if not is_code(fix):
        raise NotApplied("the fix is a comment, not code")
    try:
        exec(code, ns)
    except Exception as e:
        raise NotApplied(f"the fix itself raises {type(e).__name__}: {e}") from None


def source_lines(filename: str) -> list[str]:
    """A file's text as linecache holds it (a cell's too), without line ends."""
    return [ln.rstrip("\n") for ln in linecache.getlines(filename)]


class Texts:
    """The edited text of each file an edit touched, and which top-level code must run again."""

    def __init__(self, cell_file: str) -> None:
        self.cell_file = cell_file
        self.lines: dict[str, list[str]] = {cell_file: source_lines(cell_file)}
        self.rerun: list[str] = []  # earlier cells whose top level an edit changed

    def of(self, filename: str) -> list[str]:
        return self.lines.get(filename) or source_lines(filename)


def _edited(edit: Edit, lines: list[str]) -> list[str]:
    """``lines`` with the edit made; ``NotApplied`` when its old lines are not there."""
    if not lines:
        raise NotApplied(f"the source of {edit.where} is not available")
    old = list(edit.old)
    m = re.search(r"line (\d+)", edit.where)
    starts = [int(m.group(1)) - 1] if m else []
    starts += [i for i in range(len(lines) - len(old) + 1) if i not in starts]
    for i in starts:
        if i >= 0 and lines[i:i + len(old)] == old:
            return [*lines[:i], *edit.new, *lines[i + len(old):]]
    raise NotApplied(f"the lines the edit quotes are not in {edit.where}")


def apply_edit(edit: Edit, ns: dict[str, Any], texts: Texts) -> None:
    """Carry out ``edit``: its function runs the edited code from now on; an edit of a cell's
    top level edits that cell's text, which the caller runs again."""
    new = _edited(edit, texts.of(edit.file))
    texts.lines[edit.file] = new
    if edit.qualname:
        _replace_code(edit, new, ns)
        added = added_decorators(edit)
        if added:
            _decorate(edit, added, ns)
    elif edit.file != texts.cell_file and edit.file not in texts.rerun:
        texts.rerun.append(edit.file)


def _replace_code(edit: Edit, new: list[str], ns: dict[str, Any]) -> None:
    """The live function ``edit.qualname`` runs the edited text from now on. NB: a function
    defined inside another (``attack.<locals>.f``) is made anew by each call of the outer one:
    the outer function's code is replaced, so its next call defines the edited one."""
    qualname = edit.qualname.split(".<locals>.")[0]
    fn = _live_function(edit._replace(qualname=qualname), ns)
    text = python_text(new)
    try:
        module = compile(text, edit.file, "exec", dont_inherit=True)
    except SyntaxError as e:
        raise NotApplied(f"the edited code is not valid Python ({e.msg})") from None
    code = _find_code(module, qualname)
    if code is None:
        raise NotApplied(f"{qualname} is not in the edited code")
    if code.co_freevars != fn.__code__.co_freevars:
        raise NotApplied(f"the edit changes what {qualname} takes from its closure")
    fn.__code__ = code


def _live_function(edit: Edit, ns: dict[str, Any]) -> types.FunctionType:
    """The function object named ``edit.qualname`` in the edited file's globals."""
    globs = _module_file(edit.file) or ns
    head, *rest = edit.qualname.split(".")
    obj: Any = globs.get(head)
    if rest and not isinstance(obj, type) and type(obj).__qualname__ == head \
            and type(obj).__module__ == globs.get("__name__"):
        # NB: the class's name rebound to its instance (SpeechBrain's ``VAD =
        # VAD.from_hparams(...)``): the method is still the class's
        obj = type(obj)
    for part in rest:
        obj = vars(obj).get(_mangled(obj, part)) if isinstance(obj, type) else None
    obj = getattr(obj, "__func__", obj)  # NB: staticmethod, classmethod
    if isinstance(obj, property):
        obj = obj.fget  # NB: a getter (``model.dummy_inputs``): its code is the edited one
    # NB: a decorated function (``@torch.no_grad()``, ``functools.wraps``): the wrapper runs the
    # edited code through ``__wrapped__``, so that one's code is replaced
    for _ in range(_MAX_WRAPPERS):
        inner = vars(obj).get("__wrapped__") if isinstance(obj, types.FunctionType) else None
        if not isinstance(inner, types.FunctionType) or obj.__code__.co_filename == edit.file:
            break
        obj = inner
    if not isinstance(obj, types.FunctionType):
        raise NotApplied(f"{edit.qualname} is no longer defined")
    return obj


_MAX_WRAPPERS = 8


def added_decorators(edit: Edit) -> list[str]:
    """The decorator lines an edit puts above a ``def`` it leaves as it is (``@torch.amp.
    custom_fwd(...)`` over a Function's ``forward``), outermost first."""
    old, new = list(edit.old), list(edit.new)
    if len(new) <= len(old) or new[len(new) - len(old):] != old:
        return []
    added = new[:len(new) - len(old)]
    return added if all(ln.lstrip().startswith("@") for ln in added) else []


def _decorate(edit: Edit, added: list[str], ns: dict[str, Any]) -> None:
    """Wrap the class's method in the decorators an edit adds, as re-running the class's
    definition would: under the ``staticmethod``/``classmethod`` it has, around the function
    itself. NB: the decorators are the edit's own text (the diagnosis wrote it), evaluated in
    the function's module, in the sandbox only; a method with other wrappers is refused."""
    *owner, name = edit.qualname.split(".")
    globs = _module_file(edit.file) or ns
    cls: Any = globs.get(owner[0]) if owner and "<locals>" not in owner else None
    for part in owner[1:]:  # NB: a class nested in another (``te._CheckpointFunction``)
        cls = vars(cls).get(_mangled(cls, part)) if isinstance(cls, type) else None
    if not isinstance(cls, type):
        raise NotApplied(f"a decorator is added to a class's own method only, not {edit.qualname}")
    key = _mangled(cls, name)
    raw: Any = vars(cls).get(key)
    kind: Any = type(raw) if type(raw) in (staticmethod, classmethod) else None
    fn = raw.__func__ if kind is not None else raw
    if not isinstance(fn, types.FunctionType) or fn.__code__.co_filename != edit.file:
        raise NotApplied(f"{edit.qualname} is wrapped already; its decorators cannot be added")
    for line in reversed(added):  # NB: the one nearest the ``def`` wraps the function first
        try:
            deco = eval(compile(line.strip()[1:], edit.file, "eval", dont_inherit=True), globs)
            fn = deco(fn)
        except Exception as e:
            raise NotApplied(f"the decorator {line.strip()} raises {type(e).__name__}") from None
    setattr(cls, key, kind(fn) if kind is not None else fn)


def _mangled(cls: type, name: str) -> str:
    """The key a class's ``__dict__`` holds ``name`` under: a private method's name is mangled
    (s-vae's ``VonMisesFisher.__sample_w_rej`` is ``_VonMisesFisher__sample_w_rej``), while a
    code object's qualname keeps it as written."""
    if name.startswith("__") and not name.endswith("__"):
        owner = cls.__name__.lstrip("_")
        if owner:
            return f"_{owner}{name}"
    return name


def _module_file(filename: str) -> dict[str, Any] | None:
    for mod in list(sys.modules.values()):
        if getattr(mod, "__file__", None) == filename:
            return vars(mod)
    return None


def _find_code(code: types.CodeType, qualname: str) -> types.CodeType | None:
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            if const.co_qualname == qualname:
                return const
            found = _find_code(const, qualname)
            if found is not None:
                return found
    return None


def cell_code(lines: list[str], filename: str, line_offset: int = 0) -> types.CodeType:
    """A cell's (possibly edited) text compiled as the cell it is, its last value not shown."""
    tree = ast.parse(python_text(lines), filename)
    ast.increment_lineno(tree, line_offset)
    code: types.CodeType = compile(tree, filename, "exec", flags=_awaits.FLAGS,
                                   dont_inherit=True)  # NB: a cell may await at its top level
    return code
