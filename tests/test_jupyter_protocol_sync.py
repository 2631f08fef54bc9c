"""The wire protocol is typed twice: ``_protocol.py`` (kernel) and ``labextension/src/tokens.ts``
(panel). This keeps the two in step: the same interfaces with the same fields, optional where
``total=False``, the same types, version, target, methods, error codes, and device palette.
"""

from __future__ import annotations

import json
import re
import types
import typing
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

import pytest

import devicelens
from devicelens.jupyter import _protocol as P
from devicelens.moves import REMAPPED
from devicelens.render import _rows

ROOT = Path(__file__).resolve().parents[1]
TOKENS = ROOT / "labextension" / "src" / "tokens.ts"


@pytest.fixture(scope="module")
def ts() -> str:
    return TOKENS.read_text(encoding="utf-8")


def ts_interfaces(source: str) -> dict[str, dict[str, tuple[str, bool]]]:
    """``interface name -> field -> (type, optional)`` from ``export interface X {...}``."""
    out: dict[str, dict[str, tuple[str, bool]]] = {}
    for m in re.finditer(r"^export interface (\w+) \{(?:\}|\n(.*?)^\})", source, re.S | re.M):
        fields: dict[str, tuple[str, bool]] = {}
        for f in re.finditer(r"^\s+(\w+)(\??): (.+);$", m.group(2) or "", re.M):
            fields[f.group(1)] = (normalise(f.group(3)), f.group(2) == "?")
        out[m.group(1)] = fields
    return out


def normalise(ts_type: str) -> str:
    t = re.sub(r"\[\w+: string\]", "[key: string]", ts_type)
    return re.sub(r"\s+", " ", t).strip()


def ts_const(source: str, name: str) -> Any:
    m = re.search(rf"^export const {name}(?:: [\w\[\]]+)? = (.+?);$", source, re.S | re.M)
    assert m, f"tokens.ts has no `export const {name}`"
    return json.loads(m.group(1).replace("'", '"'))


def as_ts(tp: Any) -> str:
    """The TypeScript spelling of a TypedDict field type, as tokens.ts writes it."""
    simple = {str: "string", int: "number", bool: "boolean", type(None): "null", Any: "any"}
    if tp in simple:
        return simple[tp]
    if tp == P.Method:
        return "Method"
    if tp == P.SortKey:
        return "SortKey"
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        return " | ".join(f"'{a}'" for a in args)
    if origin in (Union, types.UnionType):
        return " | ".join(as_ts(a) for a in args)
    if origin is list:
        inner = as_ts(args[0])
        return f"({inner})[]" if " | " in inner else f"{inner}[]"
    if origin is dict:
        return f"{{ [key: string]: {as_ts(args[1])} }}"
    if typing.is_typeddict(tp):
        return str(tp.__name__)
    raise AssertionError(f"no TypeScript spelling for {tp!r}")


def py_typeddicts() -> dict[str, Any]:
    return {name: obj for name, obj in vars(P).items()
            if typing.is_typeddict(obj) and not name.startswith("_")}


def test_every_typeddict_has_an_interface_and_no_more(ts: str) -> None:
    py = set(py_typeddicts())
    tsi = set(ts_interfaces(ts)) - {"IBridgeStatus", "IKernelBridge", "ISettings"}
    assert sorted(py - tsi) == [], "TypedDicts missing from tokens.ts"
    assert sorted(tsi - py) == [], "interfaces in tokens.ts that _protocol.py lacks"
    assert len(py) >= 20  # the protocol's data, messages, params and results


@pytest.mark.parametrize("name", sorted(py_typeddicts()))
def test_fields_types_and_optionality_match(ts: str, name: str) -> None:
    cls = py_typeddicts()[name]
    hints = typing.get_type_hints(cls)
    expected = {k: (as_ts(v), k in cls.__optional_keys__) for k, v in hints.items()}
    assert ts_interfaces(ts)[name] == expected


def test_constants_match(ts: str) -> None:
    assert ts_const(ts, "PROTOCOL_VERSION") == P.PROTOCOL_VERSION
    assert ts_const(ts, "COMM_TARGET") == P.COMM_TARGET
    assert ts_const(ts, "REMAPPED") == REMAPPED
    assert ts_const(ts, "METHODS") == list(P.METHODS)
    assert ts_const(ts, "ERROR_CODES") == list(P.ERROR_CODES)
    assert list(get_args(P.ErrorCode)) == list(P.ERROR_CODES)
    assert list(get_args(P.Method)) == list(P.METHODS)
    assert ts_const(ts, "SORT_KEYS") == list(P.SORT_KEYS) == list(get_args(P.SortKey))
    assert ts_const(ts, "DEFAULT_LIMIT") == P.DEFAULT_LIMIT
    assert ts_const(ts, "MAX_LIMIT") == P.MAX_LIMIT


def test_panel_version_is_the_package_version(ts: str) -> None:
    package = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    assert ts_const(ts, "PANEL_VERSION") == devicelens.__version__ == package["version"]


def test_device_palette_matches_render_rows(ts: str) -> None:
    assert ts_const(ts, "DEVICE_COLOURS") == list(_rows.DEVICE_COLOURS)
    assert ts_const(ts, "CPU_COLOUR") == _rows.CPU_COLOUR
    assert ts_const(ts, "META_COLOUR") == _rows.META_COLOUR
    assert ts_const(ts, "OTHER_COLOUR") == _rows.OTHER_COLOUR


def test_the_parser_sees_a_changed_field() -> None:
    """The checks above can fail: a renamed or retyped field is noticed."""
    good = "export interface WireMove {\n  path: string;\n  source: string;\n}\n"
    assert ts_interfaces(good) == {"WireMove": {"path": ("string", False),
                                                "source": ("string", False)}}
    bad = good.replace("source: string", "source?: number")
    assert ts_interfaces(bad)["WireMove"]["source"] == ("number", True)
