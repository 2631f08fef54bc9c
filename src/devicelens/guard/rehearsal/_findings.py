"""``%devices``' fixes, rehearsed: each finding's fix run exactly as printed on a forked copy
of the namespace, which is then diagnosed again.

There is no failing cell to run again: what ``%devices`` promises is that the namespace is
right after its fix, so that is what is checked. A fix is verified when it runs, breaks no
training link (:mod:`._harm`), clears its finding and brings no new error or warning.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from ...analysis import Finding
from ._apply import NotApplied, is_code, run_fix
from ._attempt import _fake_mode, _unshare
from ._harm import harms, links
from ._loop import _fake, seconds
from ._sandbox import Refused, run_forked

#: at most this many fixes are rehearsed per ``%devices`` (each is one fork)
MAX_FIXES = 8
Diagnose = Callable[[dict[str, Any]], list[Finding]]
VERIFIED = ("verified: rehearsed on a copy of this kernel's state, the fix runs, does no harm "
            "and clears this finding")


def rehearsed(findings: Sequence[Finding], ns: dict[str, Any],
              diagnose: Diagnose) -> list[Finding]:
    """``findings``, each error or warning with a fix as code marked with its verdict.
    NB: never raises; ``DEVICELENS_REHEARSAL_SECONDS=0`` turns it off."""
    limit = seconds()
    todo = [f for f in findings if f.severity != "info" and f.fix and is_code(f.fix)]
    if limit <= 0 or not todo:
        return list(findings)
    verdicts: dict[str, str] = {}
    deadline = time.monotonic() + 2 * limit
    fake = _fake()
    for f in todo:
        left = deadline - time.monotonic()
        if len(verdicts) >= MAX_FIXES or left < 0.2:
            verdicts[f.id] = "not verified: not rehearsed (the rehearsal's time or count ran out)"
            continue
        try:
            out = run_forked(partial(_one, f, findings, ns, diagnose, fake), min(limit, left))
            verdicts[f.id] = f"not verified: {out.problem}" if out.problem else str(out.value)
        except Exception as e:
            verdicts[f.id] = f"not verified: the rehearsal failed ({type(e).__name__})"
    return [replace(f, verdict=verdicts[f.id]) if f.id in verdicts else f for f in findings]


def rehearsed_code(f: Finding, ns: dict[str, Any], diagnose: Diagnose) -> str:
    """The verdict on ``f``'s fix as code, run exactly as shown on a forked copy (the panel's
    "Insert as cell"), judged as the panel's Apply is: it does no harm and clears ``f``; a
    finding it brings up is said as the next one. NB: never raises; '' when turned off."""
    limit = seconds()
    if limit <= 0 or not f.fix or not is_code(f.fix):
        return "" if limit <= 0 else "not verified: the fix is not code that can run"
    try:
        out = run_forked(partial(_one, f, [], ns, diagnose, _fake(), True), limit)
    except Exception as e:
        return f"not verified: the rehearsal failed ({type(e).__name__})"
    return f"not verified: {out.problem}" if out.problem else str(out.value)


def _one(f: Finding, before: Sequence[Finding], ns: dict[str, Any], diagnose: Diagnose,
         fake: bool, as_apply: bool = False) -> str:
    """In the child: the fix, the harm checks, the diagnosis after. ``as_apply``: judged as
    the panel's Apply is (:func:`_one_verdict`), against the findings before it."""
    if as_apply:
        before = [g for g in diagnose(ns) if g.severity != "info"]
    _unshare(ns)
    with _fake_mode() if fake else contextlib.nullcontext():
        linked = links(ns)
        try:
            run_fix(f.fix, ns)
        except NotApplied as e:
            return f"not verified: {e}"
        except Refused as e:
            return f"not verified: {e} (in the fix)"
        found = harms(linked, ns)
        if found:
            return f"not verified: the fix would do harm: {found[0]}"
    after = [g for g in diagnose(ns) if g.severity != "info"]
    if as_apply:
        known = {(g.kind, g.objects) for g in before}
        return _one_verdict(f, after, [g for g in after if (g.kind, g.objects) not in known])
    still = [g for g in after if g.kind == f.kind and set(g.objects) & set(f.objects)]
    if still:
        return f"not verified: after this fix, still: {still[0].title}"
    known = {(g.kind, g.objects) for g in before}
    new = [g for g in after if (g.kind, g.objects) not in known]
    if new:
        return f"not verified: after this fix, a new {new[0].severity}: {new[0].title}"
    return VERIFIED


Apply = Callable[[dict[str, Any]], Any]


def snapshot_diagnosis(names: list[str] | None = None) -> Diagnose:
    """What ``%devices`` and the panel find in a namespace (the copy, after a fix)."""
    def again(copy: dict[str, Any]) -> list[Finding]:
        from ...analysis import diagnose
        from ...inspect import take_snapshot

        return diagnose(take_snapshot(copy, names=names))

    return again


def rehearsed_apply(ns: dict[str, Any], apply: Apply, diagnose: Diagnose,
                    only: Finding | None = None) -> str:
    """The verdict on ``%devices --fix`` (``apply``: what it does to a namespace), rehearsed
    on a forked copy first: ``verified: ...`` when it does no harm and leaves no error or
    warning that it could fix, else ``not verified: why``. ``only``: one finding's fix (the
    panel's Apply), which must clear that finding and bring no new one. NB: never raises."""
    limit = seconds()
    if limit <= 0:
        return ""
    try:
        out = run_forked(partial(_all, ns, apply, diagnose, _fake(), only), limit)
    except Exception as e:
        return f"not verified: the rehearsal failed ({type(e).__name__})"
    return f"not verified: {out.problem}" if out.problem else str(out.value)


def _all(ns: dict[str, Any], apply: Apply, diagnose: Diagnose, fake: bool,
         only: Finding | None = None) -> str:
    """In the child: every fix at once (or ``only``'s), the harm checks, the diagnosis after."""
    _unshare(ns)
    before = {(g.kind, g.objects) for g in diagnose(ns) if g.severity != "info"}
    with _fake_mode() if fake else contextlib.nullcontext():
        linked = links(ns)
        try:
            report = apply(ns)
        except Refused as e:
            return f"not verified: {e} (in the fix)"
        if not getattr(report, "ok", True):
            return "not verified: the fixes did not apply on the copy (see the report)"
        found = harms(linked, ns)
        if found:
            return f"not verified: the fixes would do harm: {found[0]}"
    now = [g for g in diagnose(ns) if g.severity != "info"]
    new = [g for g in now if (g.kind, g.objects) not in before]
    if only is not None:
        return _one_verdict(only, now, new)
    after = [g for g in now if g.action is not None]
    if after:
        return f"not verified: after the fixes, still: {after[0].title}"
    if new:
        return f"not verified: after the fixes, a new {new[0].severity}: {new[0].title}"
    return ("verified: rehearsed on a copy of this kernel's state first, the fixes do no harm "
            "and leave no finding they could fix")


def _one_verdict(only: Finding, now: list[Finding], new: list[Finding]) -> str:
    """One finding's fix (the panel's Apply): verified when it does no harm and clears its
    finding. NB: a finding it brings up is the next one the panel shows (the model moved, the
    loose tensor beside it is now the odd one out): said, not held against the fix."""
    if any(g.kind == only.kind and set(g.objects) & set(only.objects) for g in now):
        return f"not verified: after this fix, still: {only.title}"
    then = f"; next: {new[0].title}" if new else ""
    return f"{VERIFIED}{then}"
