"""Validation of panel -> kernel requests: anything that is not a well-formed request of this
protocol becomes a :class:`ProtocolError` (an ``ErrorMsg`` code and detail), never an action.

NB: pure and total: reads plain JSON values only, runs no user code, evaluates no string.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, cast

from ._protocol import (
    MAX_LIMIT,
    MAX_REQUEST_BYTES,
    METHODS,
    PROTOCOL_VERSION,
    SORT_KEYS,
    ErrorCode,
    RequestMsg,
    WindowParams,
)


class ProtocolError(ValueError):
    """A request the kernel refuses; becomes an ``ErrorMsg`` with this ``code`` and ``detail``."""

    def __init__(self, code: ErrorCode, detail: str, request_id: str | None = None) -> None:
        super().__init__(detail)
        self.code: ErrorCode = code
        self.detail = detail
        self.request_id = request_id


def mismatch_detail(panel: object) -> str:
    from .._version import __version__

    return (f"kernel-side devicelens {__version__} (protocol {PROTOCOL_VERSION}), panel protocol "
            f"{show(panel)} — reinstall devicelens so the kernel and JupyterLab use the same "
            f"version, then reload the page")


def show(value: object, limit: int = 60) -> str:
    """A short quote of a (JSON) value for an error detail."""
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def clip(text: str, limit: int = 600) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def describe(e: BaseException) -> str:
    """An exception as an ``internal`` error's detail."""
    try:
        return clip(f"{type(e).__name__}: {e}")
    except Exception:
        return type(e).__name__


def request_id_of(data: object) -> str | None:
    rid = dict.get(data, "request_id") if type(data) is dict else None
    return rid if type(rid) is str and 0 < len(rid) <= 128 and utf8(rid) else None


def utf8(text: str) -> bool:
    """Whether ``text`` can go over the wire: the kernel's session encodes JSON as UTF-8, which
    a lone UTF-16 surrogate (``"\\ud800"``, valid in a JSON string) cannot be."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def scrub(value: Any) -> Any:
    """``value`` (plain JSON) with every string UTF-8 can encode, lone surrogates written as
    ``\\udXXX`` escapes. NB: iterative and for the rare message that failed to encode."""
    def fix(v: Any) -> Any:
        return v.encode("utf-8", "backslashreplace").decode("utf-8") if type(v) is str else v

    root: list[Any] = [value]
    stack: list[tuple[Any, Any]] = [(root, 0)]
    while stack:
        holder, key = stack.pop()
        v = holder[key]
        if type(v) is dict:
            v = holder[key] = {fix(k): x for k, x in dict.items(v)}
            stack += [(v, k) for k in v]
        elif type(v) is list or type(v) is tuple:
            v = holder[key] = list(v)
            stack += [(v, i) for i in range(len(v))]
        else:
            holder[key] = fix(v)
    return root[0]


def json_size(obj: object, limit: int) -> int:
    """Roughly how many bytes ``obj`` takes as JSON; stops counting once past ``limit``.

    NB: iterative, so a hostile nesting depth cannot overflow the stack.
    """
    total, stack = 0, [obj]
    while stack and total <= limit:
        o = stack.pop()
        tp = type(o)
        if tp is str:
            total += len(cast(str, o)) + 2
        elif tp is dict:
            d = cast("dict[Any, Any]", o)
            total += 4 * len(d) + 2
            stack += dict.keys(d)
            stack += dict.values(d)
        elif tp is list or tp is tuple:
            seq = cast("list[Any]", o)
            total += 2 * len(seq) + 2
            stack += seq
        else:
            total += 8
    return total


Check = Callable[[object], bool]


def _text(max_len: int) -> tuple[Check, str]:
    return (lambda v: type(v) is str and 0 < len(v) <= max_len,
            f"a non-empty string of at most {max_len} characters")


_BOOL: tuple[Check, str] = (lambda v: type(v) is bool, "true or false")
_OFFSET: tuple[Check, str] = (lambda v: type(v) is int and 0 <= v <= 10**9,
                              "a non-negative integer")
_NAMES: tuple[Check, str] = (
    lambda v: v is None or (type(v) is list and 0 < len(v) <= 10_000
                            and all(type(n) is str and 0 < len(n) <= 1000 for n in v)),
    "null or a non-empty list of names (strings)")

_WINDOW: dict[str, tuple[Check, str]] = {
    "offset": _OFFSET,
    "limit": (lambda v: type(v) is int and 1 <= v <= MAX_LIMIT,
              f"an integer from 1 to {MAX_LIMIT}"),
    "sort": (lambda v: type(v) is str and v in SORT_KEYS, f"one of {', '.join(SORT_KEYS)}"),
    "ascending": _BOOL,
    "filter": (lambda v: type(v) is str and len(v) <= 1000 and utf8(v),
               "a string of at most 1000 characters"),
}

#: per method: (required params, optional params), each name -> (check, what it must be)
PARAMS: dict[str, tuple[dict[str, tuple[Check, str]], dict[str, tuple[Check, str]]]] = {
    "refresh": ({}, {}),
    "rows": ({}, _WINDOW),
    "expand": ({"name": _text(1000)}, {"path": _text(10_000), "offset": _OFFSET}),
    "move_all": ({"device": _text(64)}, {"dry_run": _BOOL, "names": _NAMES}),
    "apply_fix": ({"finding_id": _text(200)}, {"dry_run": _BOOL}),
    "rehearse_fix": ({"finding_id": _text(200)}, {}),
    "list_devices": ({}, {}),
    "cancel": ({"request_id": _text(128)}, {}),
}
_REQUEST_KEYS = frozenset(RequestMsg.__annotations__)


def parse_request(data: object) -> RequestMsg:
    """``data`` as a well-formed request of this protocol, or :class:`ProtocolError`."""
    if type(data) is not dict:
        raise ProtocolError("bad_request", f"a request is a JSON object, not {show(data)}")
    rid = request_id_of(data)
    if json_size(data, MAX_REQUEST_BYTES) > MAX_REQUEST_BYTES:
        raise ProtocolError("too_large", f"request over {MAX_REQUEST_BYTES} bytes refused", rid)
    if rid is None:
        raise ProtocolError("bad_request", "request_id must be a string of 1-128 characters "
                            f"(valid Unicode), got {show(dict.get(data, 'request_id'))}")
    kind = dict.get(data, "type")
    if type(kind) is not str or kind != "request":
        raise ProtocolError("bad_request", f"type must be 'request', got {show(kind)}", rid)
    extra = [k for k in data if k not in _REQUEST_KEYS]
    if extra:
        raise ProtocolError("bad_request", f"unexpected field(s) {show(extra)}", rid)
    proto = dict.get(data, "protocol")
    if type(proto) is not int or proto != PROTOCOL_VERSION:
        raise ProtocolError("protocol_mismatch", mismatch_detail(proto), rid)
    method = dict.get(data, "method")
    if type(method) is not str or method not in PARAMS:
        raise ProtocolError("unknown_method", f"unknown method {show(method)}; this kernel "
                            f"serves {', '.join(METHODS)}", rid)
    params = dict.get(data, "params")
    if type(params) is not dict:
        raise ProtocolError("bad_request", f"{method}: params must be an object, got "
                            f"{show(params)}", rid)
    _check_params(method, params, rid)
    return cast(RequestMsg, data)


def parse_window(data: object) -> WindowParams:
    """The ``window`` of a comm's open data (absent: ``{}``), or :class:`ProtocolError`."""
    window = dict.get(data, "window") if type(data) is dict else None
    if window is None:
        return WindowParams()
    if type(window) is not dict:
        raise ProtocolError("bad_request", f"open: window must be an object, got "
                            f"{show(window)}")
    _check_params("rows", window, None)
    return cast(WindowParams, window)


def _check_params(method: str, params: dict[Any, Any], rid: str | None) -> None:
    required, optional = PARAMS[method]
    for key in params:
        if key not in required and key not in optional:
            raise ProtocolError("bad_request", f"{method}: unexpected param {show(key)}; "
                                f"expected {sorted(required) + sorted(optional)}", rid)
    for key in required:
        if key not in params:
            raise ProtocolError("bad_request", f"{method}: missing param {key!r}", rid)
    for key, value in params.items():
        check, want = required.get(key) or optional[key]
        if not check(value):
            raise ProtocolError("bad_request", f"{method}: params.{key} must be {want}, got "
                                f"{show(value)}", rid)


_DEVICE = re.compile(r"[a-z][a-z0-9_]{0,31}(:[0-9]{1,3})?")


def check_device(device: str, rid: str | None = None) -> str:
    """``device`` if it is spelled like a device (``cpu``, ``cuda:0``), else ``bad_device``.
    Whether this kernel has it is :func:`devicelens.moves.parse_device`'s call."""
    if not _DEVICE.fullmatch(device):
        raise ProtocolError("bad_device", f"{show(device)} is not a device name "
                            "(like 'cpu', 'cuda:0', 'mps')", rid)
    return device
