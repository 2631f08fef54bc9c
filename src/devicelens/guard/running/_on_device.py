"""``%%cuda_safe --rehearse cuda:0`` (and ``devicelens rehearse``): the guard and the post-mortem
handed to the rehearsal (:mod:`.rehearsal._devices`), which runs the code as on those GPUs.

NB: here, and not in :mod:`.rehearsal`, because the rehearsal must not import the post-mortem.
"""

from __future__ import annotations

from typing import Any

from ..rehearsal._devices import Code, Rehearsal, rehearse


def parse_devices(text: str) -> tuple[str, ...]:
    """``"cuda:0,cuda:1"`` -> ``("cuda:0", "cuda:1")``; ``ValueError`` quoting a bad one.

    Only GPUs (``cuda:N``) can be rehearsed: a cpu or meta run needs no rehearsal.
    """
    out = []
    for part in (p.strip() for p in text.split(",")):
        name = "cuda:0" if part == "cuda" else part
        head, _, index = name.partition(":")
        if head != "cuda" or not index.isdigit():
            raise ValueError(f"cannot rehearse on {part!r}: give GPUs like cuda:0 or "
                             "cuda:0,cuda:1")
        out.append(f"cuda:{int(index)}")
    if len(set(out)) != len(out):
        raise ValueError(f"a device is given twice in {text!r}")
    if out != [f"cuda:{i}" for i in range(len(out))]:
        raise ValueError(f"rehearse on cuda:0 upwards, without gaps (not {text!r}): a machine "
                         "numbers its GPUs from 0")
    return tuple(out)


def rehearse_cell(ns: dict[str, Any], devices: tuple[str, ...], *, filename: str,
                  dtype: bool = True, steps: int = 0, limit: float | None = None) -> Rehearsal:
    """Rehearse the cell held in linecache as ``filename`` against ``ns`` on ``devices``."""
    from ._mode import make_guard

    def run(code: Any, namespace: dict[str, Any]) -> None:
        with make_guard(namespace, dtype=dtype, filename=filename):
            exec(code, namespace)

    def is_user(name: str) -> bool:
        return name == filename

    code = Code(filename, run, _explainer(is_user), is_user, steps)
    return rehearse(code, ns, devices, _limit(limit))


def rehearse_file(ns: dict[str, Any], devices: tuple[str, ...], *, filename: str,
                  is_user: Any, dtype: bool = True, steps: int = 0,
                  limit: float | None = None, prepare: Any = None,
                  judge: Any = None) -> Rehearsal:
    """Rehearse a script (or a module run as ``__main__``) whose globals are ``ns``; culprits are
    named in the scopes of the user's code at the failure (``is_user``: their files).
    ``judge(report, exc)``: the report seen from where the script runs (a torchrun rank)."""
    from ._scoped import scoped_guard

    def run(code: Any, namespace: dict[str, Any]) -> None:
        with scoped_guard(dtype=dtype, is_cell=is_user):
            exec(code, namespace)

    code = Code(filename, run, _explainer(is_user, scoped=True, judge=judge), is_user, steps,
                prepare)
    return rehearse(code, ns, devices, _limit(limit))


def _explainer(is_user: Any, scoped: bool = False, judge: Any = None) -> Any:
    def explain(exc: BaseException, ns: dict[str, Any]) -> Any:
        from ..postmortem import explain as post_mortem
        from ._mode import DeviceMismatchError

        report: Any
        if isinstance(exc, DeviceMismatchError):
            report = exc.report
        else:
            report = post_mortem(exc, exc.__traceback__, None if scoped else ns, is_user)
        return report if report is None or judge is None else judge(report, exc)
    return explain


def _limit(limit: float | None) -> float:
    from ..rehearsal import seconds

    return limit if limit is not None else max(seconds(), 1.0)
