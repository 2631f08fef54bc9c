"""The corpus floors, checked the same way on the whole corpus (``make corpus``) and on the
sample ``make test`` scores (one case in ``SAMPLE_EVERY``, by a hash of its name).

NB: floors are totals measured on this checkout; they only ever ratchet up as the engine
improves. Raise them when a change lifts a total; never lower one to make a change pass. A change
that adds cases re-measures them (new cases can lower a total).
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.corpus.scorer import Totals

EPS = 1e-9  # shares are means of per-case values


@dataclass(frozen=True)
class Floors:
    named: float
    precision: float  # NB: a mean of per-case precisions
    precision_cases: int  # NB: naming nothing must not become a way to keep precision up
    fix_works: float
    verified: float
    clean_after_fix: float
    clean_flagged: int  # at most
    verified_right: float = 1.0  # NB: "verified" is a promise: the fix, as printed, works

    def missed(self, t: Totals) -> list[str]:
        """Each floor ``t`` is under, said with both numbers."""
        low = [(k, getattr(t, k), v) for k, v in (
            ("named", self.named), ("precision", self.precision),
            ("fix_works", self.fix_works), ("verified", self.verified),
            ("verified_right", self.verified_right), ("clean_after_fix", self.clean_after_fix))
            if getattr(t, k) < v - EPS]
        if t.precision_cases < self.precision_cases:
            low.append(("precision_cases", t.precision_cases, self.precision_cases))
        if t.clean_flagged > self.clean_flagged:
            low.append(("clean_flagged (at most)", t.clean_flagged, self.clean_flagged))
        if t.crashed:
            low.append(("crashed (none)", t.crashed, 0))
        return [f"{k}: {got:.4g} against {want:.4g}" for k, got, want in low]
