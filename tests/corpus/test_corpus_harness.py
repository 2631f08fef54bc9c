"""The harness reads cases and diagnoses the way the README says (no subprocess, no torch)."""

from __future__ import annotations

import pathlib

import pytest

from tests.corpus import _parse
from tests.corpus._harness import load_case

GOOD = '''"""t.

Source: https://example.org/1
"""
SIM = "meta"
FAMILY = "device-loose"
SETUP = "import torch\\nx = torch.ones(2)\\n"
CELL = "x + 1\\n"
EXPECT_ERROR = "Expected"
CULPRITS = ["x"]
FIX = "namespace"
REFERENCE_FIX = "x = x.to('meta')"
REFERENCE_EDIT = None
CLEAN = False
'''

PM = """devicelens: tensors on different devices: cpu, cuda:0
  culprit: batch["y"] (int64[4] on cpu), `target` in cross_entropy; expected cuda:0
  culprit: net.head.weight (float32[2, 4] on cpu); expected cuda:0
  inside: net (Net)
  at: cell line 2: loss = F.cross_entropy(net(x), batch["y"])
  fix:
      batch["y"] = batch["y"].to(x.device)
      net.to("cuda:0")  # other unused
  edit: cell line 5 (in Net.forward)
      - mask = torch.ones(n)
      + mask = torch.ones(n, device=x.device)
"""


def write(tmp_path: pathlib.Path, name: str, text: str) -> pathlib.Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_an_error_whose_message_depends_on_the_cpu_may_be_any_of_several(
        tmp_path: pathlib.Path) -> None:
    from tests.corpus._harness import raised_expected

    case = load_case(write(tmp_path, "device-loose__x.py", GOOD.replace(
        'EXPECT_ERROR = "Expected"', 'EXPECT_ERROR = ("Input type", "expected scalar type")')))
    assert raised_expected(case, "RuntimeError: expected scalar type Half but found Float")
    assert raised_expected(case, "RuntimeError: Input type (torch.HalfTensor) and weight ...")
    assert not raised_expected(case, "RuntimeError: Expected all tensors to be on the same")


def test_a_good_case_loads_into_a_frozen_case(tmp_path: pathlib.Path) -> None:
    case = load_case(write(tmp_path, "device-loose__x.py", GOOD))
    assert (case.name, case.sim, case.culprits, case.clean) == (
        "device-loose__x", "meta", ("x",), False)
    assert case.source.splitlines()[-1] == "Source: https://example.org/1"
    with pytest.raises(AttributeError):
        case.sim = "cpu"  # type: ignore[misc]


@pytest.mark.parametrize(("old", "new", "why"), [
    ('SIM = "meta"', 'SIM = "gpu"', "SIM must be one of"),
    ('CULPRITS = ["x"]', "CULPRITS = []", "needs EXPECT_ERROR and CULPRITS"),
    ('CULPRITS = ["x"]', 'CULPRITS = "x"', "CULPRITS must be"),
    ("Source: https://example.org/1", "no link", "Source: https://"),
    ('FIX = "namespace"', 'FIX = "code"', "needs REFERENCE_EDIT"),
    ("CLEAN = False\n", "", "missing CLEAN"),
    ('FAMILY = "device-loose"', 'FAMILY = "clean"', "file name must start with 'clean__'"),
])
def test_a_malformed_case_is_a_value_error_naming_the_file(
        tmp_path: pathlib.Path, old: str, new: str, why: str) -> None:
    path = write(tmp_path, "device-loose__bad.py", GOOD.replace(old, new))
    with pytest.raises(ValueError, match=r"device-loose__bad\.py") as e:
        load_case(path)
    assert why in str(e.value)


def test_culprits_fix_code_and_edits_are_read_from_the_printed_text() -> None:
    text = _parse.diagnosis("Traceback ...\n\x1b[31mRuntimeError\x1b[0m: x\n\n" + PM)
    assert text.startswith("devicelens: tensors")
    assert _parse.culprits(text) == ["batch['y']", "net.head.weight"]
    assert _parse.fix_code(text) == ('batch["y"] = batch["y"].to(x.device)\n'
                                     'net.to("cuda:0")  # other unused')
    assert _parse.edits(text) == [_parse.Edit("cell line 5 (in Net.forward)",
                                              ("mask = torch.ones(n)",),
                                              ("mask = torch.ones(n, device=x.device)",))]


def test_names_match_the_object_or_anything_inside_it() -> None:
    assert _parse.names_match("batch['y']", 'batch["y"]')
    assert _parse.names_match("net.head", "net.head.weight")
    assert not _parse.names_match("net.head", "net.header")
    assert not _parse.names_match("net.head.weight", "net.head")
    # a function's local, as devicelens names one
    assert _parse.names_match("order", "`order` in LKJCholesky.log_prob")
    assert _parse.names_match("encoder", "`encoder.layers[0].weight` in create_q_function")
    assert not _parse.names_match("order", "`ordering` in f")
    assert not _parse.names_match("x", "`input` in Linear.forward")
    assert _parse.root("batch['y']") == "batch" and _parse.root("net.head.weight") == "net"


def test_mentioned_counts_top_level_names_only_not_attributes_strings_or_keywords() -> None:
    lines = _parse.culprit_lines(PM) + _parse.fix_code(PM).splitlines()
    assert _parse.mentioned(lines, {"batch", "net", "x", "other", "weight", "y"}) == {
        "batch", "net", "x", "other"}
    line = "opt = rebuild(net, device=dev, lr=0.1) if a == b else opt"
    assert _parse.mentioned([line], {"opt", "net", "device", "lr", "dev", "a", "b"}) == {
        "opt", "net", "dev", "a", "b"}


def test_an_edit_replaces_the_line_keeping_its_indentation() -> None:
    src = "class Net:\n    def forward(self, x):\n        mask = torch.ones(n)\n"
    edit = _parse.edits(PM)[0]
    assert _parse.apply_edit(src, edit) == (
        "class Net:\n    def forward(self, x):\n        mask = torch.ones(n, device=x.device)\n")
    assert _parse.apply_edit("y = 1\n", edit) is None


def test_an_edit_of_lines_a_cell_holds_twice_goes_where_its_line_number_says() -> None:
    """A loop's body repeating the cell's first statement: the edit printed for line 5 (the
    cell's own numbering, leading blank line dropped) changes line 5, not the first match."""
    cell = "\nb = B()\nt = y.gather(1, b.state())\nfor s in range(3):\n    b.advance(t)\n" \
           "    t = y.gather(1, b.state())\n"
    edit = _parse.Edit("cell In[4] line 5", ("t = y.gather(1, b.state())",),
                       ("t = y.gather(1, b.state().long())",))
    out = _parse.apply_edit(cell, edit)
    assert out is not None and out.splitlines()[2] == "t = y.gather(1, b.state())"
    assert out.splitlines()[5] == "    t = y.gather(1, b.state().long())"
    elsewhere = _parse.Edit("cell In[4] line 9", edit.old, edit.new)
    assert _parse.apply_edit(cell, elsewhere).splitlines()[2].endswith(".long())")


def test_preflight_report_is_cut_before_the_traceback() -> None:
    out = ("%%cuda_safe pre-flight: 1 problem found before running the cell\n"
           "  error (cell line 3): bad\n      fix()\n-----\nDeviceMismatchError  Traceback\n")
    assert _parse.preflight(out) == ("%%cuda_safe pre-flight: 1 problem found before running "
                                     "the cell\n  error (cell line 3): bad\n      fix()")
    assert _parse.preflight("DeviceMismatchError") == ""


def test_an_edit_header_names_the_object_that_runs_the_edited_method() -> None:
    text = ("devicelens: x\n  edit: in `model.encoder` (Encoder.init_hidden, cell In[3] line 12)\n"
            "      - h = torch.zeros(2)\n      + h = torch.zeros(2, device=x.device)\n")
    (owned,) = _parse.edits(text)
    assert _parse.edit_owner(owned) == "model.encoder"
    assert _parse.edit_owner(_parse.edits(PM)[0]) == ""


STALE = GOOD.replace('CELL = "x + 1\\n"', 'CELL = "opt.step()\\n"').replace(
    "REFERENCE_FIX = \"x = x.to('meta')\"",
    "REFERENCE_FIX = \"opt.param_groups[0]['params'] = list(model.parameters())\"").replace(
    'CULPRITS = ["x"]', 'CULPRITS = ["opt"]')


def test_precision_counts_what_the_reference_fix_needs_and_the_edit_owner(
        tmp_path: pathlib.Path) -> None:
    from tests.corpus._worker import _precision

    case = load_case(write(tmp_path, "device-loose__stale.py", STALE))
    pm = ("devicelens: x\n  culprit: opt (2 tensors on cpu); expected meta\n  fix:\n"
          "      opt.param_groups[0]['params'] = list(model.parameters())\n"
          "  edit: in `other` (Net.forward, cell line 3)\n      - a = 1\n      + a = x\n")
    r: dict[str, object] = {"pm_text": pm, "cs_text": ""}
    _precision(case, r, {"opt", "model", "other", "x", "unused"})
    # NB: `model` is needed by the reference fix; `other` (named as the edit's owner) and `x`
    # (an edit line) are neither culprits nor used by the cell
    assert r["mentioned"] == ["model", "opt", "other", "x"]
    assert r["innocent"] == ["other", "x"]
    assert r["precision"] == 0.5 and r["precision_undefined"] is False


def test_a_diagnosis_naming_no_namespace_object_has_no_precision(tmp_path: pathlib.Path) -> None:
    from tests.corpus._worker import _precision
    from tests.corpus.scorer import totals

    case = load_case(write(tmp_path, "device-loose__fn.py", GOOD))
    r: dict[str, object] = {"pm_text": "devicelens: x\n  culprit: helper (int64[2] on cpu)\n",
                            "cs_text": ""}
    _precision(case, r, {"x"})
    assert r["precision"] is None and r["precision_undefined"] is True
    rows = [{"case": "a", **r}, {"case": "b", "precision": 0.5, "precision_undefined": False}]
    t = totals(rows)
    assert (t.precision, t.precision_cases, t.failing) == (0.5, 1, 2)


HELPER = GOOD.replace(
    'SETUP = "import torch\\nx = torch.ones(2)\\n"',
    'SETUP = "import torch\\ndef move_to(sample, device):\\n    out = sample\\n    return out\\n'
    'sample = {}\\nx = torch.ones(2)\\n"')


def test_an_edit_of_a_function_does_not_mention_the_names_its_own_locals_shadow(
        tmp_path: pathlib.Path) -> None:
    """``sample`` in ``def move_to(sample, device)`` is the argument, not the global ``sample``;
    a global the function reads (``x``) is still a mention."""
    from tests.corpus._worker import _precision

    case = load_case(write(tmp_path, "device-loose__helper.py", HELPER))
    pm = ("devicelens: x\n  culprit: x (float32[2] on cpu); expected meta\n"
          "  edit: cell In[1] line 3 (in move_to)\n      - out = sample\n"
          "      + out = {k: v.to(x.device) for k, v in sample.items()}\n")
    (edit,) = _parse.edits(pm)
    assert _parse.edit_locals(edit, case.setup) == {"sample", "device", "out"}
    r: dict[str, object] = {"pm_text": pm, "cs_text": ""}
    _precision(case, r, {"sample", "x", "move_to"})
    assert r["mentioned"] == ["x"] and r["precision"] == 1.0
    outside = _parse.edits(pm.replace(" (in move_to)", ""))[0]
    assert _parse.edit_locals(outside, case.setup) == set()
    # NB: an edit of a method says whose it is first: ``in `obj` (Qual.name, where)``
    owned = _parse.edits(pm.replace("cell In[1] line 3 (in move_to)",
                                    "in `helper` (Helper.move_to, cell In[1] line 3)"))[0]
    assert _parse.edit_locals(owned, case.setup) == {"sample", "device", "out"}


def test_held_out_cases_are_read_from_their_list_and_scored_apart(tmp_path: pathlib.Path) -> None:
    from tests.corpus._harness import heldout_names
    from tests.corpus.scorer import split, table

    listing = tmp_path / "HELDOUT.txt"
    listing.write_text("# added after tuning\n\ndevice-loose__b\n  device-loose__c  \n")
    held = heldout_names(listing)
    assert held == {"device-loose__b", "device-loose__c"}
    assert heldout_names(tmp_path / "missing.txt") == frozenset()
    rows = [{"case": name, "named": ok, "fix_works": ok, "precision": 1.0}
            for name, ok in (("device-loose__a", True), ("device-loose__b", False))]
    tuned, out = split(rows, held)
    assert ([r["case"] for r in tuned], [r["case"] for r in out]) == (
        ["device-loose__a"], ["device-loose__b"])
    text = table(rows, held)
    assert "  tuned on (1 cases): named 100.0%" in text
    assert "  held out (1 cases added after tuning, HELDOUT.txt): named   0.0%" in text


def test_one_held_out_set_is_read_from_its_block(tmp_path: pathlib.Path) -> None:
    """``scorer --set 7``: a new set's first contact is scored alone."""
    from tests.corpus._harness import heldout_set

    listing = tmp_path / "HELDOUT.txt"
    listing.write_text("# Set 6 (2 cases): scored\ndevice-loose__a\ndevice-loose__b\n"
                       "# Set 7 (1 case): first scored\n# named 1 of 1\nclean__c\n"
                       "# Set 17: not this one\ndevice-loose__d\n")
    assert heldout_set("6", listing) == {"device-loose__a", "device-loose__b"}
    assert heldout_set("7", listing) == {"clean__c"}
    assert heldout_set("8", listing) == frozenset()


def test_the_verdict_is_read_and_verified_fixes_are_counted_apart() -> None:
    from tests.corpus import _parse
    from tests.corpus.scorer import totals

    text = ("devicelens: x\n  culprit: y (float32[2] on cpu)\n  fix:\n      y = y.float()\n"
            "  verified: rehearsed on a copy of this kernel's state, the cell runs after this "
            "fix\n")
    assert _parse.verdict(text).startswith("verified: rehearsed")
    assert _parse.fix_code(text) == "y = y.float()"  # NB: the verdict is no line of the fix
    assert _parse.verdict(text.replace("  verified", "  not verified")) == (
        "not verified: rehearsed on a copy of this kernel's state, the cell runs after this fix")
    assert _parse.verdict("devicelens: x\n  fix:\n      y = y.float()\n") == ""
    rows = [{"case": "a", "verified": True, "fix_works": True},
            {"case": "b", "verified": True, "fix_works": False},
            {"case": "c", "verified": False, "fix_works": True},
            {"case": "d", "clean": True, "clean_ok": True}]
    t = totals(rows)
    assert (t.failing, t.verified, t.verified_right, t.fix_works) == (3, 2 / 3, 0.5, 2 / 3)



LIBRARY_SETUP = '''import torch
from torch import nn
DEVICE = "cpu"

class Boxes(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.zeros(2)

def helper(x):
    return x + 1

model = Boxes()
x = helper(torch.ones(2))
'''


def test_a_case_as_a_library_imports_its_definitions_from_a_file(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--library``: SETUP's imports, classes, functions and settings go to a module (the
    settings and imports stay in the cell too); the cell imports every name and runs the rest,
    which gives the same namespace, the classes now a library's (their module is the file's)."""
    import dataclasses

    from tests.corpus._library import as_library

    path = tmp_path / "device-loose__lib.py"
    path.write_text(GOOD.replace('SETUP = "import torch\\nx = torch.ones(2)\\n"',
                                 f"SETUP = {LIBRARY_SETUP!r}"))
    case = load_case(path)
    lib = as_library(case, tmp_path)
    (module,) = tmp_path.glob("dl_lib_*.py")
    text = module.read_text()
    assert "class Boxes" in text and "def helper" in text and "DEVICE = 'cpu'" in text
    assert "class " not in lib.setup and "def " not in lib.setup and "model = Boxes()" in lib.setup
    assert dataclasses.replace(lib, setup=case.setup) == case
    monkeypatch.syspath_prepend(str(tmp_path))
    ns: dict[str, object] = {}
    exec(lib.setup, ns)
    assert type(ns["model"]).__module__ == module.stem and ns["DEVICE"] == "cpu"
    assert ns["x"].tolist() == [2.0, 2.0]  # type: ignore[attr-defined]
