"""The corpus harness: load the cases, run each one in its own process, collect JSON results.

A case file is plain data (see README.md); this module turns it into a frozen ``Case`` and hands
it to ``tests/corpus/_worker.py``. NB: one process per case, because a fake cuda tensor that
reaches autograd aborts the whole process, and every case needs a fresh namespace; two run at a
time. Each is forked from a zygote that imported torch and IPython once (``_Zygote``): the same
result as a fresh interpreter (``run_case``, ``fresh=True``), without its ~2 s of start-up.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import pathlib
import queue
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CASES = HERE / "cases"
HELDOUT = HERE / "HELDOUT.txt"  # NB: cases added after the engine was tuned: scored apart
SIMS = ("fake_cuda", "meta", "cpu")
FAMILIES = ("device-loose", "device-container", "device-module", "device-code",
            "device-optimizer", "device-multi", "device-index", "dtype-input", "dtype-target",
            "dtype-index", "dtype-inplace", "dtype-code", "clean")
FIXES = ("namespace", "code")
JOBS = 2
TIMEOUT_S = 300  # NB: generous: a shared, loaded machine runs a case in 5-60 s


@dataclass(frozen=True)
class Case:
    """One reproduced bug report (or clean look-alike) and what a right diagnosis says."""

    name: str  # the file's stem: <family>__<slug>
    path: str
    source: str  # the docstring: title, link, what happened
    sim: str
    family: str
    setup: str
    cell: str
    expect_error: str | None  # NB: several messages joined by " | " (any one will do)
    culprits: tuple[str, ...]
    fix: str
    reference_fix: str | None
    reference_edit: tuple[str, str] | None
    clean: bool

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def _bad(path: pathlib.Path, why: str) -> ValueError:
    return ValueError(f"corpus case {path.name}: {why}")


def _field(mod: Any, path: pathlib.Path, name: str, types: type | tuple[type, ...]) -> Any:
    if not hasattr(mod, name):
        raise _bad(path, f"missing {name}")
    value = getattr(mod, name)
    if not isinstance(value, types):
        raise _bad(path, f"{name} must be {types}, got {value!r}")
    return value


def _expected(value: str | tuple[str, ...] | None) -> str | None:
    """EXPECT_ERROR as one string; a tuple lists the messages PyTorch may raise for the same
    bug (which one depends on the CPU's kernels), kept joined by " | "."""
    return " | ".join(value) if isinstance(value, tuple) else value


def raised_expected(case: Case, error: str) -> bool:
    """Whether ``error`` (a cell's "Type: message") is one ``case`` expects."""
    return case.expect_error is not None and any(
        e in error for e in case.expect_error.split(" | "))


def load_case(path: str | os.PathLike[str]) -> Case:
    """Import one case file by path and validate its fields; ValueError names the file."""
    path = pathlib.Path(path)
    spec = importlib.util.spec_from_file_location(f"_corpus_case_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise _bad(path, "cannot be imported")
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except Exception as e:
        raise _bad(path, f"does not import: {type(e).__name__}: {e}") from e
    case = Case(
        name=path.stem, path=str(path), source=(mod.__doc__ or "").strip(),
        sim=_field(mod, path, "SIM", str), family=_field(mod, path, "FAMILY", str),
        setup=_field(mod, path, "SETUP", str), cell=_field(mod, path, "CELL", str),
        expect_error=_expected(_field(mod, path, "EXPECT_ERROR", (str, tuple, type(None)))),
        culprits=tuple(_field(mod, path, "CULPRITS", list)),
        fix=_field(mod, path, "FIX", str),
        reference_fix=_field(mod, path, "REFERENCE_FIX", (str, type(None))),
        reference_edit=_edit(mod, path), clean=_field(mod, path, "CLEAN", bool))
    _check(case, path)
    return case


def _edit(mod: Any, path: pathlib.Path) -> tuple[str, str] | None:
    edit = _field(mod, path, "REFERENCE_EDIT", (tuple, type(None)))
    if edit is None:
        return None
    if len(edit) != 2 or not all(isinstance(s, str) for s in edit):
        raise _bad(path, f"REFERENCE_EDIT must be (old, new) strings, got {edit!r}")
    return (edit[0], edit[1])


def _check(c: Case, path: pathlib.Path) -> None:
    """Cross-field rules of README.md."""
    if c.sim not in SIMS:
        raise _bad(path, f"SIM must be one of {SIMS}, got {c.sim!r}")
    if c.family not in FAMILIES:
        raise _bad(path, f"FAMILY must be one of {FAMILIES}, got {c.family!r}")
    if not path.stem.startswith(c.family + "__"):
        raise _bad(path, f"file name must start with '{c.family}__'")
    if "Source: http" not in c.source:
        raise _bad(path, "the docstring needs a 'Source: https://...' line")
    if not all(isinstance(n, str) and n for n in c.culprits):
        raise _bad(path, f"CULPRITS must be non-empty strings, got {list(c.culprits)!r}")
    if c.clean != (c.family == "clean"):
        raise _bad(path, "CLEAN is True exactly for FAMILY 'clean'")
    if c.clean:
        if c.expect_error is not None or c.culprits:
            raise _bad(path, "a clean case has EXPECT_ERROR None and CULPRITS []")
        return
    if not c.expect_error or not c.culprits:
        raise _bad(path, "a failing case needs EXPECT_ERROR and CULPRITS")
    if c.fix not in FIXES:
        raise _bad(path, f"FIX must be one of {FIXES}, got {c.fix!r}")
    if c.fix == "namespace" and (not c.reference_fix or c.reference_edit is not None):
        raise _bad(path, "FIX 'namespace' needs REFERENCE_FIX and REFERENCE_EDIT None")
    if c.fix == "code":
        if c.reference_edit is None:
            raise _bad(path, "FIX 'code' needs REFERENCE_EDIT (old, new)")
        if c.setup.count(c.reference_edit[0]) != 1:
            raise _bad(path, f"REFERENCE_EDIT old text must occur once in SETUP: "
                             f"{c.reference_edit[0]!r}")


def heldout_names(path: str | os.PathLike[str] = HELDOUT) -> frozenset[str]:
    """The held-out cases' names (``HELDOUT.txt``: one per line, ``#`` comments)."""
    try:
        text = pathlib.Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return frozenset()
    return frozenset(ln.strip() for ln in text.splitlines()
                     if ln.strip() and not ln.lstrip().startswith("#"))


def heldout_set(n: str, path: str | os.PathLike[str] = HELDOUT) -> frozenset[str]:
    """The names listed under HELDOUT.txt's ``# Set <n> ...`` comment, up to the next set."""
    out: set[str] = set()
    inside = False
    for ln in pathlib.Path(path).read_text(encoding="utf-8").splitlines():
        head = re.match(r"#\s*Set (\w+)\b", ln.strip())
        if head is not None:
            inside = head.group(1) == n
        elif inside and ln.strip() and not ln.lstrip().startswith("#"):
            out.add(ln.strip())
    return frozenset(out)


#: ``make test`` scores one case in this many (``make corpus`` every case)
SAMPLE_EVERY = 7


def in_sample(name: str) -> bool:
    """Whether ``make test`` scores this case: by a hash of its name, so adding cases never
    changes which of the others are in."""
    return int(hashlib.sha1(name.encode()).hexdigest(), 16) % SAMPLE_EVERY == 0


def load_cases(folder: str | os.PathLike[str] = CASES) -> list[Case]:
    """Every ``cases/*.py``, sorted by name."""
    return [load_case(p) for p in sorted(pathlib.Path(folder).glob("*.py"))
            if not p.name.startswith("_")]


def _env() -> dict[str, str]:
    """PYTHONPATH with this checkout's sources first, so its devicelens is the one scored."""
    env = dict(os.environ)
    paths = [str(ROOT / "src"), str(ROOT), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    env.setdefault("PYTHONWARNINGS", "ignore")
    return env


def run_case(case: Case, mode: str, timeout: float = TIMEOUT_S) -> dict[str, Any]:
    """Run ``mode`` ("validate" or "score") on ``case`` in a fresh interpreter; its JSON result.

    A crash (an abort from a fake cuda tensor in autograd, a timeout) becomes a result with
    ``crashed`` set instead of an exception, so one case never stops the run.
    """
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "result.json"
        cmd = [sys.executable, "-m", "tests.corpus._worker", mode, case.path, str(out)]
        try:
            proc = subprocess.run(cmd, cwd=ROOT, env=_env(), capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"case": case.name, "crashed": f"timed out after {timeout:.0f} s"}
        if proc.returncode or not out.exists():
            tail = (proc.stderr or proc.stdout)[-1500:]
            return {"case": case.name, "crashed": f"exit code {proc.returncode}: {tail}"}
        result: dict[str, Any] = json.loads(out.read_text())
        return result


class _Zygote:
    """One ``python -m tests.corpus._worker MODE`` process: it forks a child per case it is sent.

    NB: a child that aborts or times out is only the child; a zygote that died anyway (it runs no
    case code) is replaced before the next case.
    """

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.corpus._worker", mode], cwd=ROOT, env=_env(),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, text=True)

    def run(self, case: Case, timeout: float = TIMEOUT_S) -> dict[str, Any]:
        """``run_case``'s result, from a child of this zygote."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp) / "result.json"
            try:
                self.proc.stdin.write(json.dumps(
                    {"path": case.path, "out": str(out), "timeout": timeout}) + "\n")
                self.proc.stdin.flush()
                line = self.proc.stdout.readline()
            except OSError:
                line = ""
            if not line:
                return {"case": case.name, "crashed": f"the zygote died: {self._tail()}"}
            reply = json.loads(line)
            if reply.get("timeout"):
                return {"case": case.name, "crashed": f"timed out after {timeout:.0f} s"}
            if reply["rc"] or not out.exists():
                logs = [pathlib.Path(f"{out}.{n}") for n in ("stderr", "stdout")]
                texts = [p.read_text(errors="replace") if p.exists() else "" for p in logs]
                tail = (texts[0] or texts[1])[-1500:]
                return {"case": case.name, "crashed": f"exit code {reply['rc']}: {tail}"}
            result: dict[str, Any] = json.loads(out.read_text())
            return result

    def alive(self) -> bool:
        return self.proc.poll() is None

    def _tail(self) -> str:
        self.log.seek(0)
        return self.log.read()[-1500:].decode(errors="replace")

    def close(self) -> None:
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):  # NB: a dead zygote's pipe is broken
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.log.close()


def run_many(cases: Sequence[Case], mode: str, jobs: int = JOBS,
             fresh: bool = False) -> list[dict[str, Any]]:
    """``run_case`` for every case, ``jobs`` at a time; results in the order of ``cases``.

    By default each case runs in a child forked from one of ``jobs`` zygotes; ``fresh`` starts a
    new interpreter per case instead (the reference the zygotes are compared with).
    """
    if fresh or not hasattr(os, "pidfd_open"):
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(lambda c: run_case(c, mode), cases))
    idle: queue.SimpleQueue[_Zygote] = queue.SimpleQueue()
    started = [_Zygote(mode) for _ in range(max(1, min(jobs, len(cases))))]
    for z in started:
        idle.put(z)

    def one(case: Case) -> dict[str, Any]:
        z = idle.get()
        try:
            return z.run(case)
        finally:
            if not z.alive():
                z.close()
                z = _Zygote(mode)
                started.append(z)
            idle.put(z)

    try:
        with ThreadPoolExecutor(max_workers=len(started)) as pool:
            return list(pool.map(one, cases))
    finally:
        for z in started:
            z.close()


def by_name(results: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["case"]: r for r in results}
