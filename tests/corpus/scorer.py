"""Score devicelens's diagnoses on the corpus: ``python -m tests.corpus.scorer [--json PATH]``.

Every case runs in its own process (``_worker.py``, forked from a zygote); this module turns their
results into per-case and per-family numbers: named, precision, fix works, clean after fix, and for
the clean look-alikes whether devicelens stayed silent. README.md says what each metric means.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from tests.corpus._harness import Case, heldout_names, heldout_set, in_sample, load_cases, run_many


@dataclass(frozen=True)
class Totals:
    """Shares in [0, 1] over the failing cases; ``clean_flagged`` counts noisy look-alikes."""

    cases: int
    failing: int
    named: float
    named_pm: float
    named_cs: float
    precision: float  # NB: over the failing cases whose diagnosis mentions a namespace object
    precision_cases: int
    fix_works: float
    verified: float  # the share of fixes printed as verified (rehearsed, the cell ran)
    verified_right: float  # of those, the share whose fix, applied as printed, made the cell run
    clean_after_fix: float
    clean: int
    clean_flagged: int
    crashed: int


def _share(rows: Sequence[dict[str, Any]], key: str) -> float:
    return sum(float(r.get(key) or 0) for r in rows) / len(rows) if rows else 0.0


def totals(results: Sequence[dict[str, Any]]) -> Totals:
    failing = [r for r in results if not r.get("clean")]
    clean = [r for r in results if r.get("clean")]
    # NB: 0/0 is no precision (README.md): such a case neither lowers nor raises the mean
    judged = [r for r in failing if not r.get("precision_undefined")]
    return Totals(
        cases=len(results), failing=len(failing),
        named=_share(failing, "named"), named_pm=_share(failing, "named_pm"),
        named_cs=_share(failing, "named_cs"), precision=_share(judged, "precision"),
        precision_cases=len(judged),
        fix_works=_share(failing, "fix_works"),
        verified=_share(failing, "verified"),
        verified_right=_share([r for r in failing if r.get("verified")], "fix_works"),
        clean_after_fix=_share(failing, "clean_after_fix"),
        clean=len(clean), clean_flagged=sum(1 for r in clean if not r.get("clean_ok")),
        crashed=sum(1 for r in results if r.get("crashed")))


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}"


def _yes(r: dict[str, Any], key: str) -> str:
    return "yes" if r.get(key) else "NO"


def case_rows(results: Sequence[dict[str, Any]]) -> list[str]:
    out = [f"{'case':58} {'named':>5} {'pm':>3} {'cs':>3} {'prec':>5} {'fix':>4} {'clean':>5} "
           f"{'verified':>8}"]
    for r in results:
        name = r["case"][:58]
        if r.get("crashed"):
            out.append(f"{name:58} CRASHED: {r['crashed'].splitlines()[0][:60]}")
        elif r.get("clean"):
            verdict = "silent" if r.get("clean_ok") else "FLAGGED"
            out.append(f"{name:58} {'':>5} {'':>3} {'':>3} {'':>5} {'':>4} {verdict:>7}")
        else:
            prec = " n/a" if r.get("precision_undefined") else _pct(r["precision"])
            out.append(f"{name:58} {_yes(r, 'named'):>5} {_yes(r, 'named_pm'):>3} "
                       f"{_yes(r, 'named_cs'):>3} {prec:>5} {_yes(r, 'fix_works'):>4} "
                       f"{_yes(r, 'clean_after_fix'):>5} {_yes(r, 'verified'):>8}")
    return out


def family_rows(results: Sequence[dict[str, Any]]) -> list[str]:
    out = [f"{'family':18} {'cases':>5} {'named%':>7} {'prec%':>6} {'fix%':>6} {'clean%':>7} "
           f"{'flagged':>7}"]
    families = sorted({r.get("family") or r["case"].split("__")[0] for r in results})
    for fam in [*families, "TOTAL"]:
        rows = [r for r in results
                if fam == "TOTAL" or (r.get("family") or r["case"].split("__")[0]) == fam]
        t = totals(rows)
        if t.failing:
            prec = _pct(t.precision) if t.precision_cases else "n/a"
            out.append(f"{fam:18} {t.cases:5d} {_pct(t.named):>7} {prec:>6} "
                       f"{_pct(t.fix_works):>6} {_pct(t.clean_after_fix):>7} "
                       f"{t.clean_flagged:>4d}/{t.clean}")
        else:
            out.append(f"{fam:18} {t.cases:5d} {'':>7} {'':>6} {'':>6} {'':>7} "
                       f"{t.clean_flagged:>4d}/{t.clean}")
    return out


def summary(t: Totals) -> str:
    return (f"named {_pct(t.named)}% (post-mortem {_pct(t.named_pm)}%, %%cuda_safe "
            f"{_pct(t.named_cs)}%), precision {_pct(t.precision)}%, fix works "
            f"{_pct(t.fix_works)}%, verified {_pct(t.verified)}% (of which fix works "
            f"{_pct(t.verified_right)}%), clean after fix {_pct(t.clean_after_fix)}%; "
            f"{t.clean_flagged} of {t.clean} clean look-alikes flagged; {t.crashed} crashed")


def split(results: Sequence[dict[str, Any]],
          held: frozenset[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the cases the engine was tuned on, the held-out ones)."""
    return ([r for r in results if r["case"] not in held],
            [r for r in results if r["case"] in held])


def table(results: Sequence[dict[str, Any]], held: frozenset[str] = frozenset()) -> str:
    t = totals(results)
    undefined = [r["case"] for r in results if r.get("precision_undefined")]
    lines = [*case_rows(results), "", *family_rows(results), "", summary(t)]
    tuned, out = split(results, held)
    if tuned and out:  # NB: the held-out cases say how well the advice generalises
        lines += [f"  tuned on ({len(tuned)} cases): {summary(totals(tuned))}",
                  f"  held out ({len(out)} cases added after tuning, HELDOUT.txt): "
                  f"{summary(totals(out))}"]
    if undefined:
        lines.append(f"precision over {t.precision_cases} cases; none (no namespace object "
                     f"mentioned, left out): {', '.join(undefined)}")
    return "\n".join(lines)


def score(cases: Sequence[Case] | None = None, jobs: int = 2,
          fresh: bool = False, library: bool = False) -> list[dict[str, Any]]:
    return run_many(load_cases() if cases is None else cases, "library" if library else "score",
                    jobs=jobs, fresh=fresh)


def _children_cpu() -> float:
    """CPU seconds the case interpreters used (a loaded machine stretches wall time, not this)."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.corpus.scorer", description=__doc__)
    ap.add_argument("--json", metavar="PATH", help="also write every case's result here")
    ap.add_argument("-k", metavar="TEXT", action="append",
                    help="only the cases whose name contains TEXT (repeatable: any of them)")
    ap.add_argument("--set", metavar="N", help="only held-out set N (its block in HELDOUT.txt)")
    ap.add_argument("--sample", action="store_true",
                    help="only the cases `make test` scores (one in SAMPLE_EVERY)")
    ap.add_argument("--jobs", type=int, default=2, help="cases run at once (default 2)")
    ap.add_argument("--fresh", action="store_true",
                    help="a new interpreter per case, not a child of a zygote (slower; the same "
                         "results)")
    ap.add_argument("--library", action="store_true",
                    help="SETUP's classes and functions imported from a file, as a library's "
                         "are, not run as a cell (_library.py)")
    args = ap.parse_args(argv)
    only = heldout_set(args.set) if args.set else None
    cases = [c for c in load_cases() if (not args.k or any(k in c.name for k in args.k))
             and (only is None or c.name in only) and (not args.sample or in_sample(c.name))]
    start, cpu = time.perf_counter(), _children_cpu()
    results = score(cases, jobs=args.jobs, fresh=args.fresh, library=args.library)
    print(table(results, heldout_names()))
    print(f"\n{len(cases)} cases scored in {time.perf_counter() - start:.0f} s "
          f"({_children_cpu() - cpu:.0f} s of CPU in {args.jobs} workers)")
    if args.json:
        with open(args.json, "w") as f:
            tuned, out = split(results, heldout_names())
            json.dump({"totals": asdict(totals(results)), "tuned": asdict(totals(tuned)),
                       "heldout": asdict(totals(out)) if out else None, "cases": results},
                      f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
