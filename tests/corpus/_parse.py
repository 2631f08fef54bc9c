"""Read a devicelens diagnosis as a user reads it: culprit names, fix lines, code edits.

Only the printed text is used (the post-mortem after a traceback, a ``DeviceMismatchError``'s
message), never devicelens's internals, so the scorer measures what users see.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

ANSI = re.compile(r"\x1b\[[0-9;]*m")
_CULPRIT = re.compile(r"^\s*culprit: (.+?) \(", re.M)
_IDENT = re.compile(r"(?<![\w.])[A-Za-z_]\w*")  # NB: not an attribute (after a dot)
_KWARG = re.compile(r"([(,]\s*)[A-Za-z_]\w*\s*=(?!=)")  # ``device=`` names no object
_STRING = re.compile(r"'[^']*'|\"[^\"]*\"")
_OWNER = re.compile(r"^in `([^`]+)` \(")  # ``edit: in `model.encoder` (Encoder.init_hidden, ...``
_IN_FUNCTION = re.compile(r"\(in ([\w.<>]+)\)")  # ``edit: cell In[3] line 17 (in move_to)``
_OWNED_FUNCTION = re.compile(r"^in `[^`]+` \(([\w.<>]+), ")  # ``in `model` (Net.__init__, ...``


@dataclass(frozen=True)
class Edit:
    """One ``edit:`` block: the lines to remove and the lines to put in their place."""

    where: str
    old: tuple[str, ...]
    new: tuple[str, ...]


def diagnosis(text: str) -> str:
    """The devicelens part of a cell's output ('' when it printed none)."""
    text = ANSI.sub("", text)
    i = text.find("devicelens: ")
    return text[i:] if i >= 0 else ""


def verdict(text: str) -> str:
    """The rehearsal's verdict on a diagnosis' fix: ``verified...``, ``not verified: ...`` or ''."""
    found = re.search(r"^  ((?:not )?verified\b.*)$", text, re.MULTILINE)
    return found.group(1) if found else ""


def preflight(out: str) -> str:
    """The ``%%cuda_safe pre-flight`` report at the top of a cell's output ('' when none)."""
    lines = ANSI.sub("", out).lstrip("\n").splitlines()
    if not lines or not lines[0].startswith("%%cuda_safe pre-flight"):
        return ""
    body = [lines[0]]
    for ln in lines[1:]:
        if not ln.startswith(" "):
            break
        body.append(ln)
    return "\n".join(body)


def culprits(text: str) -> list[str]:
    """Names on ``culprit:`` lines, quotes normalised (``batch["y"]`` -> ``batch['y']``)."""
    return [norm(m.group(1)) for m in _CULPRIT.finditer(text)]


def norm(name: str) -> str:
    return name.strip().replace('"', "'")


def root(name: str) -> str:
    """``batch`` for ``batch['y']``, ``model`` for ``model.head.weight``."""
    m = _IDENT.match(name.strip())
    return m.group(0) if m else ""


_LOCAL = re.compile(r"`(.+)` in [\w.<>]+")


def names_match(wanted: str, found: str) -> bool:
    """``model.head`` is named by ``model.head`` or anything inside it (``model.head.weight``).
    A function's local is named as devicelens names locals: ``order`` by `` `order` in
    LKJCholesky.log_prob`` (the function says whose ``order`` it is)."""
    wanted, found = norm(wanted), norm(found)
    local = _LOCAL.fullmatch(found)
    if local is not None:
        found = local.group(1)
    return found == wanted or found.startswith((wanted + ".", wanted + "["))


def culprit_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.lstrip().startswith("culprit: ")]


def _block(text: str, header: str) -> list[list[str]]:
    """Indented lines under each ``  <header>:`` line, dedented."""
    blocks: list[list[str]] = []
    lines = text.splitlines()
    for i, ln in enumerate(lines):
        if not ln.lstrip().startswith(header + ":"):
            continue
        indent = len(ln) - len(ln.lstrip())
        body = [ln.lstrip()[len(header) + 1:].strip()]
        for nxt in lines[i + 1:]:
            if nxt.strip() and len(nxt) - len(nxt.lstrip()) <= indent:
                break
            body.append(nxt)
        blocks.append(body)
    return blocks


def fix_code(text: str) -> str:
    """The code of every ``fix:`` block, dedented, ready to run."""
    out: list[str] = []
    for head, *body in _block(text, "fix"):
        if head:
            out.append(head)
        if body:
            cut = min(len(b) - len(b.lstrip()) for b in body if b.strip())
            out += [b[cut:] for b in body]
    return "\n".join(out).strip("\n")


def edits(text: str) -> list[Edit]:
    """Every ``edit:`` block: ``- old`` / ``+ new`` lines (their own indent removed)."""
    out = []
    for head, *body in _block(text, "edit"):
        old = tuple(b.strip()[2:] for b in body if b.strip().startswith("- "))
        new = tuple(b.strip()[2:] for b in body if b.strip().startswith("+ "))
        out.append(Edit(head, old, new))
    return out


def edit_owner(edit: Edit) -> str:
    """The user's object an edit says runs the edited method ('' when it names none)."""
    m = _OWNER.match(edit.where)
    return norm(m.group(1)) if m else ""


def apply_edit(source: str, edit: Edit) -> str | None:
    """``source`` with the edit's old lines (matched stripped) replaced by its new lines at the
    old first line's indentation; ``None`` when the old lines are not found."""
    if not edit.old:
        return None
    lines = source.split("\n")
    n = len(edit.old)
    found = [i for i in range(len(lines) - n + 1)
             if [ln.strip() for ln in lines[i:i + n]] == [o.strip() for o in edit.old]]
    if not found:
        return None
    # NB: the same lines twice in one cell (a loop's body repeats its first statement): the
    # edit's own line number says which, as a user would read it (IPython drops a cell's
    # leading blank lines before numbering)
    at = re.search(r"line (\d+)", edit.where)
    blank = next((k for k, ln in enumerate(lines) if ln.strip()), 0)
    hint = int(at.group(1)) - 1 + blank if at else -1
    i = hint if hint in found else found[0]
    pad = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
    lines[i:i + n] = [pad + new for new in edit.new]
    return "\n".join(lines)


def edit_locals(edit: Edit, source: str) -> set[str]:
    """The names local to the function an edit changes (its parameters and assignments), found
    in ``source``: in ``def move_to(sample, device)``, ``sample`` is the argument, not the
    namespace's ``sample``. Empty when the edit is not in a function of ``source``."""
    m = _IN_FUNCTION.search(edit.where) or _OWNED_FUNCTION.match(edit.where)
    if not m:
        return set()
    name = m.group(1).rsplit(".", 1)[-1]
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    out: set[str] = set()
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) and fn.name == name:
            a = fn.args
            out |= {x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg)
                    if x is not None}
            out |= {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)
                    and isinstance(n.ctx, ast.Store)}
    return out


def mentioned(lines: list[str], names: set[str]) -> set[str]:
    """The namespace names (of ``names``) that ``lines`` mention."""
    return {w for ln in lines for w in _IDENT.findall(_KWARG.sub(r"\1", _STRING.sub("", ln)))
            if w in names}
