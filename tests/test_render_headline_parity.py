"""The panel writes a move report's headline itself (``labextension/src/view.ts:reportHeadline``)
from the wire report; the kernel's views use ``render/_report.py:headline``. Both must say the
same words. ``labextension/test/headlines.json`` holds the kernel's headline for each report
below, as the panel receives it; this test checks the file against the kernel, and the panel's
jest suite (``view.spec.ts``) checks the panel against the file.

After changing a headline: ``python -m tests.test_render_headline_parity`` rewrites the file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from devicelens.jupyter._protocol import report_to_wire
from devicelens.moves import REMAPPED, Move, MoveReport
from devicelens.render._report import headline

GOLDEN = Path(__file__).resolve().parents[1] / "labextension" / "test" / "headlines.json"

_MODEL = Move("model", "cpu", "meta", 70_000, 28, "meta", None)
_OPT = Move("opt", "cpu", "meta", 140_000, 32, "meta", None)
_X = Move("batch['x']", "cpu float64", "meta float32", 4096, 1, "meta", "float32")
_Y = Move("batch['y']", "cpu", "meta", 64, 1, "meta", None)
_CAST = Move("w", "float64", "float32", 16, 1, None, "float32")
_REMAP = Move("opt", REMAPPED, "model's parameters", 0, 1, None, None)

REPORTS: dict[str, MoveReport] = {
    "move all": MoveReport(True, False, "meta", (_MODEL, _OPT)),
    "move all, dry run": MoveReport(True, True, "meta", (_MODEL,)),
    "move and cast": MoveReport(True, False, "", (_X, _Y)),
    "cast only": MoveReport(True, False, "", (_CAST,)),
    "cast only, dry run": MoveReport(True, True, "", (_CAST,)),
    "nothing to move": MoveReport(True, False, "meta"),
    "nothing to fix": MoveReport(True, False, ""),
    "failed": MoveReport(False, False, "cuda:0", error="out of memory on cuda:0"),
    "would fail": MoveReport(False, True, "cpu", error="Cannot copy out of meta tensor: model"),
    "fixes applied, nothing moved": MoveReport(True, False, "", applied=("a", "b")),
    "one fix, dry run": MoveReport(True, True, "", applied=("a",)),
    "remapped optimizer": MoveReport(True, False, "", (_REMAP,), applied=("opt is stale",)),
    "move and remap, dry run": MoveReport(True, True, "", (_MODEL, _REMAP)),
}


def cases() -> list[dict[str, Any]]:
    return [{"name": name, "report": report_to_wire(r), "headline": headline(r)}
            for name, r in REPORTS.items()]


def test_the_golden_file_is_what_the_kernel_says() -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert golden == json.loads(json.dumps(cases()))


def test_the_headlines_cover_every_wording() -> None:
    """NB: a wording the file lacks is a wording the panel is never checked on."""
    said = {c["headline"].split(" ")[0] for c in cases()}
    assert said == {"Moved", "Would", "Cast", "Nothing", "Applied", "Remapped"}
    assert any("emapped 1 optimizer onto current parameters" in c["headline"] for c in cases())


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(cases(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(REPORTS)} headlines to {GOLDEN}", file=sys.stderr)
