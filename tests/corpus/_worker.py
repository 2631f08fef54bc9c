"""One corpus case in its own process: ``python -m tests.corpus._worker MODE CASE OUT``.

A real IPython ``InteractiveShell`` runs the case's cells as a user would; ``SIM = "fake_cuda"``
enters one FakeTensorMode around every cell. ``validate`` checks the case itself (no devicelens);
``score`` loads devicelens and records what it said and whether its fix worked. The JSON result
goes to OUT. NB: fake cuda cells run with grad disabled (autograd on them aborts the process).
``python -m tests.corpus._worker MODE`` (no case) is a zygote: it imports once and forks a child
per case it reads on stdin, so each case still has a process of its own (see ``serve``).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import gc
import io
import json
import os
import pathlib
import select
import signal
import sys
import traceback
import types
from dataclasses import dataclass
from typing import Any, NoReturn

from tests.corpus import _parse
from tests.corpus._harness import Case, load_case


@dataclass(frozen=True)
class Ran:
    ok: bool
    error: str  # "Type: message" of the exception the cell raised, '' when it ran
    out: str  # stdout + stderr, colours removed
    guard_text: str  # the message of a devicelens DeviceMismatchError, '' otherwise


class Session:
    """One shell for a case's phases; ``fresh()`` gives a new namespace and a new simulation."""

    def __init__(self, sim: str, devicelens: bool) -> None:
        import torch
        from IPython.core.interactiveshell import InteractiveShell
        from traitlets.config import Config

        cfg = Config()
        cfg.HistoryManager.hist_file = ":memory:"  # NB: two workers share no history file
        self.shell = InteractiveShell.instance(config=cfg)
        self.shell.colors = "nocolor"
        # NB: plain tracebacks: the diagnosis is the same, the context mode's source inspection
        # costs a second per failing cell
        self.shell.InteractiveTB.set_mode("Plain")
        if devicelens:
            self.shell.run_line_magic("load_ext", "devicelens")
        self.sim, self.torch = sim, torch
        self.base = set(self.shell.user_ns)
        self._defaults = (torch.get_default_dtype(),
                          torch.__future__.get_swap_module_params_on_conversion(),
                          torch.get_default_device())
        self.mode: Any = None
        self.fresh()

    def fresh(self) -> None:
        torch = self.torch
        self.shell.reset(new_session=False)  # type: ignore[no-untyped-call]
        torch.set_default_dtype(self._defaults[0])
        torch.__future__.set_swap_module_params_on_conversion(self._defaults[1])
        # NB: a case's SETUP may set it (nerf-pytorch's default cuda tensor type)
        default = self._defaults[2]
        torch.set_default_device(None if str(default) == "cpu" else default)
        torch.set_grad_enabled(self.sim != "fake_cuda")
        self.mode = None
        if self.sim == "fake_cuda":
            from torch._subclasses.fake_tensor import FakeTensorMode

            self.mode = FakeTensorMode(allow_non_fake_inputs=True)
            # NB: the converter's weak memo makes Module.to() refuse to swap (TOOLCHAIN.md)
            self.mode.fake_tensor_converter.set_tensor_memo = lambda *a, **k: None
            _swap_as_on_a_gpu(torch)
            _contiguous_as_on_a_gpu(torch)
            _indexing_as_on_a_gpu(torch)

    def sim_ctx(self) -> Any:
        return self.mode if self.mode is not None else contextlib.nullcontext()

    def run(self, code: str) -> Ran:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf), self.sim_ctx():
            res = self.shell.run_cell(code, store_history=True)  # type: ignore[no-untyped-call]
        exc = res.error_in_exec or res.error_before_exec
        err = f"{type(exc).__name__}: {exc}" if exc is not None else ""
        lens = sys.modules.get("devicelens")  # NB: only once the extension is loaded
        guard = str(exc) if lens is not None and isinstance(exc, lens.DeviceMismatchError) else ""
        if exc is not None:
            del res, exc
            self._forget_traceback()
        return Ran(not err, err, _parse.ANSI.sub("", buf.getvalue()), guard)

    def _forget_traceback(self) -> None:
        """Drop the references IPython keeps to the last traceback.

        NB: its frames hold the failed op's tensors; in FakeTensorMode ``Module.to()`` must swap
        parameters and refuses tensors used elsewhere, which a real GPU (``.data`` set in place)
        never does. Without this a right ``model.to("cuda:0")`` fix would fail only here.
        """
        sys.last_type = sys.last_value = sys.last_traceback = None
        sys.last_exc = None  # type: ignore[attr-defined,unused-ignore]
        self.shell.InteractiveTB.tb = None
        self.shell.last_execution_result = None
        if self.mode is not None:  # NB: frames sit in reference cycles; only fake cuda needs this
            gc.collect()

    def user_names(self) -> set[str]:
        """The user's objects a diagnosis could blame: names the cells defined, less modules,
        classes, functions and plain values (``device = torch.device(...)``, numbers, strings)."""
        torch = self.torch
        skip = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, str, bytes,
                int, float, complex, type(None), torch.device, torch.dtype)
        return {k for k, v in self.shell.user_ns.items()
                if k not in self.base and not k.startswith("_") and not isinstance(v, skip)}

    def findings(self, severities: tuple[str, ...]) -> list[str]:
        import devicelens

        with self.sim_ctx():
            found = devicelens.diagnose(devicelens.snapshot(self.shell.user_ns))
        return [f"{f.severity} {f.kind}: {f.message}" for f in found if f.severity in severities]


def _swap_as_on_a_gpu(torch: Any) -> None:
    """``Module.to()`` moves a real GPU's parameters in place (``param.data = ...``), where
    every holder sees the move; a fake tensor's must be swapped (``torch.utils.swap_tensors``),
    which refuses a tensor whose at::Tensor is held twice more (the frames of a traceback that
    are still running, a post-mortem's own) or that has a weak reference (the fake mode's
    ``deepcopy`` of a model leaves one). Such a refusal is the simulation's, not the user's: the
    swap is then made without those checks, as a GPU needs none (NB: grad is off in fake cuda,
    so no graph is left pointing at the old tensor). Installed once per process."""
    swap = torch.utils.swap_tensors
    if getattr(swap, "_as_on_a_gpu", False):
        return
    from devicelens.guard.rehearsal._as_on_a_gpu import swap_past_references

    swap_tensors = swap_past_references(swap)
    swap_tensors._as_on_a_gpu = True
    torch.utils.swap_tensors = swap_tensors


def _contiguous_as_on_a_gpu(torch: Any) -> None:
    """``Tensor.contiguous()`` of a strided fake cuda tensor raises "PyTorch is not linked with
    support for cuda devices" on a CPU-only build (its C++ path asks for the CUDA runtime),
    where a GPU copies it: such a tensor is cloned contiguous instead, which the fake mode
    runs. NB: reached by code a guard sends down torch's Python paths (multi-head attention
    under a ``TorchFunctionMode`` skips its fused kernel). Installed once per process."""
    from torch._subclasses.fake_tensor import FakeTensor

    orig = torch.Tensor.contiguous
    if getattr(orig, "_as_on_a_gpu", False):
        return

    def contiguous(self: Any, memory_format: Any = torch.contiguous_format) -> Any:
        if type(self) is FakeTensor and self.device.type == "cuda" \
                and not self.is_contiguous(memory_format=memory_format):
            return self.clone(memory_format=memory_format)
        return orig(self, memory_format=memory_format)

    contiguous._as_on_a_gpu = True  # type: ignore[attr-defined]
    torch.Tensor.contiguous = contiguous


def _indexing_as_on_a_gpu(torch: Any) -> None:
    """Basic indexing of a fake cuda tensor (``t[0]``, ``t[:, 1:]``, ``t[..., None]``) raises
    "PyTorch is not linked with support for cuda devices" on a CPU-only build, where a GPU
    returns a view: such an index is made of ``select``, ``slice`` and ``unsqueeze``, which the
    fake mode runs. NB: any other index (a tensor, a list) goes to torch as before. Installed
    once per process."""
    from torch._subclasses.fake_tensor import FakeTensor

    orig = torch.Tensor.__getitem__
    if getattr(orig, "_as_on_a_gpu", False):
        return

    def getitem(self: Any, idx: Any) -> Any:
        if type(self) is FakeTensor and self.device.type == "cuda":
            view = _basic_view(torch, self, idx)
            if view is not None:
                return view
        return orig(self, idx)

    getitem._as_on_a_gpu = True  # type: ignore[attr-defined]
    torch.Tensor.__getitem__ = getitem
    _setitem_as_on_a_gpu(torch)


def _setitem_as_on_a_gpu(torch: Any) -> None:
    """A Python number written through a basic index of a fake cuda tensor (``t[0, 0] = 5``)
    raises "PyTorch is not linked with support for cuda devices" on a CPU-only build (the number
    is first made a tensor on the tensor's device), where a GPU writes it: the view's
    ``fill_``, which the fake mode runs. NB: any other index or value goes to torch as before."""
    from torch._subclasses.fake_tensor import FakeTensor

    orig = torch.Tensor.__setitem__
    if getattr(orig, "_as_on_a_gpu", False):
        return

    @functools.wraps(orig)  # NB: the guard knows torch's ``__setitem__`` by its name
    def setitem(self: Any, idx: Any, value: Any) -> None:
        if (type(self) is FakeTensor and self.device.type == "cuda"
                and type(value) in (int, float, bool)):
            view = _basic_view(torch, self, idx)
            if view is not None:
                view.fill_(value)
                return
        orig(self, idx, value)

    setitem._as_on_a_gpu = True  # type: ignore[attr-defined]
    torch.Tensor.__setitem__ = setitem


def _basic_view(torch: Any, t: Any, idx: Any) -> Any:
    """``t[idx]`` for an index of ints, slices, ``None`` and one ``...``; None for another."""
    items = idx if type(idx) is tuple else (idx,)
    if not all(type(i) in (int, slice) or i is None or i is Ellipsis for i in items) \
            or sum(i is Ellipsis for i in items) > 1:
        return None
    used = sum(type(i) in (int, slice) for i in items)
    out, dim = t, 0
    for i in items:
        if i is Ellipsis:
            dim += t.dim() - used
        elif i is None:
            out = out.unsqueeze(dim)
            dim += 1
        elif type(i) is int:
            out = out.select(dim, i)
        else:
            start, stop, step = i.indices(out.size(dim))
            out = torch.ops.aten.slice.Tensor(out, dim, start, max(stop, start), step)
            dim += 1
    return out


# --- validate: the case itself, no devicelens ----------------------------------------------

def validate(case: Case) -> dict[str, Any]:
    s = Session(case.sim, devicelens=False)
    r: dict[str, Any] = {"case": case.name}
    setup = s.run(case.setup)
    r["setup"] = setup.error
    if not setup.ok:
        return r
    cell = s.run(case.cell)
    r["cell"] = cell.error
    if case.clean or not cell.error:
        return r
    if case.fix == "namespace":
        assert case.reference_fix is not None
        r["reference"] = s.run(case.reference_fix).error
    else:
        assert case.reference_edit is not None
        s.fresh()
        r["reference"] = s.run(case.setup.replace(*case.reference_edit, 1)).error
    r["after_fix"] = s.run(case.cell).error
    return r


# --- score: what devicelens says, and whether it works ---------------------------------------

def score(case: Case) -> dict[str, Any]:
    s = Session(case.sim, devicelens=True)
    r: dict[str, Any] = {"case": case.name, "family": case.family, "clean": case.clean}
    setup = s.run(case.setup)
    if not setup.ok:
        r["crashed"] = f"SETUP failed: {setup.error}"
        return r
    names = s.user_names()
    if case.clean:
        r["findings"] = s.findings(("error", "warning"))
    _cuda_safe(s, case, r)
    s.fresh()
    s.run(case.setup)
    plain = s.run(case.cell)
    r["pm_text"] = _parse.diagnosis(plain.out)
    if case.clean:
        r["pm_silent"] = plain.ok and not r["pm_text"]
        r["clean_ok"] = not r["findings"] and r["cs_ran"] and r["pm_silent"]
        return r
    _named(case, r)
    _precision(case, r, names)
    _fix(s, case, r)
    return r


def _cuda_safe(s: Session, case: Case, r: dict[str, Any]) -> None:
    flags = " --dtype" if case.family.startswith("dtype") else ""
    ran = s.run(f"%%cuda_safe{flags}\n{case.cell}")
    r["cs_ran"] = ran.ok
    r["cs_error"] = ran.error[:300]
    # NB: what the guard raised; where it raised nothing of its own (an error torch raises outside
    # an op, such as DataParallel's device check) the post-mortem printed in the same cell
    post = _parse.diagnosis(ran.out)
    r["cs_text"] = ran.guard_text or post
    r["cs_source"] = "guard" if ran.guard_text else "post-mortem" if post else "none"
    r["preflight"] = _parse.preflight(ran.out)
    if case.clean and any(f"  {sev}" in r["preflight"] for sev in ("error", "warning")):
        r["findings"] = sorted(set(r["findings"]) | {"pre-flight: " + r["preflight"]})


def _named(case: Case, r: dict[str, Any]) -> None:
    for key, text in (("pm", r["pm_text"]), ("cs", r["cs_text"])):
        found = _parse.culprits(text)
        r[f"culprits_{key}"] = found
        r[f"named_{key}"] = all(any(_parse.names_match(w, f) for f in found)
                                for w in case.culprits)
    r["named"] = r["named_pm"] and r["named_cs"]


def _precision(case: Case, r: dict[str, Any], names: set[str]) -> None:
    """Of the namespace objects the diagnosis mentions, the share that are culprits, used by the
    cell, or needed by the case's own reference fix (README.md, "precision").

    NB: a diagnosis that mentions no namespace object (a plain function's line to edit) has no
    precision: 0/0 is left out of the mean, not counted 0 (it blamed nothing innocent either).
    """
    lines: list[str] = []
    said: set[str] = set()
    for text in (r["pm_text"], r["cs_text"]):
        # NB: a culprit blames the root of its name ("opt" in "opt.state[model.0.weight]['sum']")
        said |= {_parse.root(c) for c in _parse.culprits(text)} & names
        lines += _parse.fix_code(text).splitlines()
        eds = _parse.edits(text)
        for e in eds:  # NB: a function's own locals in its edited lines are not the namespace's
            local = _parse.edit_locals(e, f"{case.setup}\n{case.cell}")
            said |= _parse.mentioned([*e.old, *e.new], names - local)
        # NB: "edit: in `model.encoder` (...)": the object whose method the edit changes
        said |= {_parse.root(o) for o in map(_parse.edit_owner, eds) if o} & names
    said |= _parse.mentioned(lines, names)
    used = {n.id for n in ast.walk(ast.parse(case.cell)) if isinstance(n, ast.Name)}
    roots = {_parse.root(c) for c in case.culprits}
    needed = _parse.mentioned((case.reference_fix or "").splitlines(), names)
    right = said & (used | roots | needed)
    r["mentioned"], r["innocent"] = sorted(said), sorted(said - right)
    r["precision"] = len(right) / len(said) if said else None
    r["precision_undefined"] = not said


def _fix(s: Session, case: Case, r: dict[str, Any]) -> None:
    # NB: the verdict printed with the fix; "fix works" below is measured apart from it
    r["verdict"] = _parse.verdict(r["pm_text"])
    r["verified"] = r["verdict"].startswith("verified")
    code, eds = _parse.fix_code(r["pm_text"]), _parse.edits(r["pm_text"])
    r["fix_code"], r["edits"] = code, [[list(e.old), list(e.new)] for e in eds]
    if eds:
        setup, cell = case.setup, case.cell
        for e in eds:
            new_setup = _parse.apply_edit(setup, e)
            new_cell = None if new_setup is not None else _parse.apply_edit(cell, e)
            if new_setup is None and new_cell is None:
                r.update(fix_by="edit", fix_works=False, fix_error="edit's old lines not found",
                         clean_after_fix=False)
                return
            setup, cell = new_setup or setup, new_cell or cell
        s.fresh()
        s.run(setup)
        ran = s.run(code) if code else None
        r["fix_by"] = "edit"
    else:
        cell = case.cell
        ran = s.run(code if code else "%devices --fix")
        r["fix_by"] = "fix" if code else "%devices --fix"
    r["fix_error"] = ran.error if ran is not None else ""
    after = s.run(cell)
    r["fix_works"], r["after_fix_error"] = after.ok, after.error[:500]
    r["errors_after_fix"] = s.findings(("error",))
    r["clean_after_fix"] = not r["errors_after_fix"]


def main(argv: list[str]) -> int:
    if len(argv) == 1:
        return serve(argv[0])
    mode, path, out = argv
    case = load_case(path)
    if mode == "library":  # NB: SETUP's definitions imported from a file (_library.py)
        import tempfile

        from ._library import as_library

        folder = pathlib.Path(tempfile.mkdtemp(prefix="devicelens-lib-"))
        sys.path.insert(0, str(folder))
        case = as_library(case, folder)
    result = validate(case) if mode == "validate" else score(case)
    with open(out, "w") as f:
        json.dump(result, f)
    return 0


# --- the zygote: one import, a forked child per case -----------------------------------------

#: what ``%load_ext devicelens`` imports (jupyter/extension.py); NB: importing them has no effect
#: but the import, so a child that finds them loaded behaves as one that loads them itself
_EXTENSION = ("devicelens", "devicelens.guard.postmortem", "devicelens.jupyter._display",
              "devicelens.jupyter._cuda_safe_magic", "devicelens.jupyter.comm",
              "devicelens.jupyter.magics", "devicelens.jupyter.extension",
              # NB: what a diagnosis and a rehearsal import on first use
              "devicelens.analysis", "devicelens.guard.preflight", "devicelens.guard.rehearsal",
              "devicelens.guard.running._run")

#: what every case imports before its first line: the shell's own modules, and torch._dynamo,
#: which ``FakeTensorMode()`` imports (and devicelens's rehearsal before its first fork). NB: 0.8 s
#: of a second and a half a case when each child imported it again
_EVERY_CASE = ("torch._dynamo", "IPython.core.completer", "IPython.core.magics",
               "IPython.core.application", "sqlite3")


def serve(mode: str) -> int:
    """Run cases read from stdin, one JSON request a line (``{"path", "out", "timeout"}``), each in
    a forked child that runs ``main([mode, path, out])`` as a fresh worker would; answer one JSON
    line each: ``{"rc": the child's exit code}`` (negative: its signal), or ``{"timeout": true}``.

    NB: the zygote imports what a fresh worker has imported when its case starts or soon after
    (torch, IPython, torch._dynamo and, to score, the extension's modules) and never runs a case
    itself: a case that aborts or hangs ends its child only. The child's stdout and stderr go to
    OUT.stdout and OUT.stderr.
    """
    import importlib

    import torch  # noqa: F401 - the import the children share
    from IPython.core import interactiveshell  # noqa: F401
    from traitlets import config  # noqa: F401

    for name in (*_EVERY_CASE, *(_EXTENSION if mode == "score" else ())):
        with contextlib.suppress(ImportError):  # NB: only a head start; the child imports too
            importlib.import_module(name)
    gc.collect()
    gc.freeze()  # NB: a child's collections then skip (and do not copy) the shared imports
    for line in sys.stdin:
        req = json.loads(line)
        rc = _fork_case(mode, req["path"], req["out"], float(req["timeout"]))
        print(json.dumps({"timeout": True} if rc is None else {"rc": rc}), flush=True)
    return 0


def _fork_case(mode: str, path: str, out: str, timeout: float) -> int | None:
    """The exit code of a child that ran one case; None when it ran past ``timeout`` (killed)."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child ends in os._exit
        _child(mode, path, out)
    ready: list[int] = []
    pidfd = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([pidfd], [], [], timeout)
    finally:
        os.close(pidfd)
    if not ready:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) if ready else None


def _child(mode: str, path: str, out: str) -> NoReturn:  # pragma: no cover - os._exit
    code = 1
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)  # NB: the zygote's requests are not the case's input
        for fd, suffix in ((1, ".stdout"), (2, ".stderr")):
            os.dup2(os.open(out + suffix, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), fd)
        import torch

        # NB: the zygote's OpenMP pool does not survive fork(): a parallel op would wait forever
        torch.set_num_threads(1)
        sys.argv = [__file__, mode, path, out]
        code = main([mode, path, out])
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)  # NB: no interpreter teardown of what the zygote imported


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
