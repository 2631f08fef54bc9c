"""The panel writes byte counts itself (``labextension/src/tokens.ts:humanBytes``); ``%devices``
and every kernel view use ``human_bytes``. Both must round alike (215.25 KiB is ``215.2 KiB`` on
both sides, as Python's ``.1f`` rounds a tie). ``labextension/test/bytes.json`` holds the
kernel's strings; this test checks the file against the kernel, and the panel's jest suite
(``rows.spec.ts``) checks the panel against the file.

After changing the rule: ``python -m tests.test_render_bytes_parity`` rewrites the file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from devicelens.inspect.units import human_bytes

GOLDEN = Path(__file__).resolve().parents[1] / "labextension" / "test" / "bytes.json"

#: plain bytes, the unit edges, ties (x.x5 exactly: 1280 B is 1.25 KiB) rounding down and up to
#: the even digit, the issue's 215.25 KiB, and each larger unit
SIZES = (0, 1, 1023, 1024, 1075, 1126, 1280, 1792, 1536, 220_416, 220_467, 1_048_524,
         1_048_575, 1_048_576, 1_310_720, 1_835_008, 5_000_000, 1_288_490_188, 1_342_177_280,
         1_099_511_627_776, 3_298_534_883_328 + 549_755_813_888)


def cases() -> list[list[int | str]]:
    return [[n, human_bytes(n)] for n in SIZES]


def test_the_golden_file_is_what_the_kernel_writes() -> None:
    assert json.loads(GOLDEN.read_text(encoding="utf-8")) == cases()


def test_the_sizes_hold_ties_both_ways() -> None:
    """NB: without ties rounding down and up the file would not tell the two rules apart."""
    said = dict(cases())
    assert (said[1280], said[1792], said[220_416]) == ("1.2 KiB", "1.8 KiB", "215.2 KiB")


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(cases()) + "\n", encoding="utf-8")
    print(f"wrote {len(SIZES)} sizes to {GOLDEN}", file=sys.stderr)
