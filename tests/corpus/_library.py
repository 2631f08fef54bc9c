"""A case as a user of the library meets it: SETUP's classes and functions imported from a file.

The cases reduce library code (transformers, lightly, PINA, ...) to stand-ins written in SETUP,
which runs as a cell: the engine then reads those classes as the cells' own. A user imports
them instead. ``python -m tests.corpus.scorer --library`` scores each case with SETUP split in
two: its imports, classes, functions and constant settings go to a module in a folder of its
own, imported by the cell; the rest (the user's objects and data) stays the cell. What the
engine says of the look-alikes then is what a user of the real library would see.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import pathlib

from ._harness import Case


def _setting(value: ast.expr) -> bool:
    """A constant, a tuple or list of them, or ``torch.device(...)``: what a library's module
    may read as a global (``DEVICE = "cuda"``)."""
    if isinstance(value, ast.Constant):
        return True
    if isinstance(value, ast.Tuple | ast.List):
        return all(_setting(e) for e in value.elts)
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
        and value.func.attr == "device"


def as_library(case: Case, folder: pathlib.Path) -> Case:
    """``case`` with SETUP's definitions in a module written to ``folder`` (which the caller
    puts on ``sys.path``) and a cell that imports every name of it, then runs the rest."""
    tree = ast.parse(case.setup)
    lib: list[ast.stmt] = []
    rest: list[ast.stmt] = []
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom) or (
                isinstance(node, ast.Assign) and _setting(node.value)):
            lib.append(node)
            rest.append(node)  # NB: both: the cell's code reads them too
        elif isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            lib.append(node)
        else:
            rest.append(node)
    name = "dl_lib_" + hashlib.sha1(case.name.encode()).hexdigest()[:12]
    (folder / f"{name}.py").write_text(ast.unparse(ast.Module(lib, [])) + "\n")
    head = (f"import importlib as _il\n_lib = _il.import_module({name!r})\n"
            "globals().update({k: v for k, v in vars(_lib).items() if not k.startswith('__')})\n")
    return dataclasses.replace(case, setup=head + ast.unparse(ast.Module(rest, [])) + "\n")
