"""What the panel is sent: a namespace frame, the diff against what a panel already has, cut
into messages under ``MAX_PAYLOAD_BYTES``, and pages of one object's detail for ``expand``.

NB: pure: no comm, no IPython, no locks. :mod:`devicelens.jupyter.comm` does the sending.
"""

from __future__ import annotations

import json
import sys
import threading
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from json.encoder import (  # type: ignore[attr-defined]
    c_make_encoder,
    encode_basestring,
)
from typing import TYPE_CHECKING, Any, NamedTuple

from ..inspect import gc_paused
from ._protocol import (
    MAX_PAYLOAD_BYTES,
    ExpandResult,
    WireFinding,
    WireObject,
    WireTensor,
    WireWindow,
    finding_to_wire,
    module_to_wire,
    object_to_wire,
    snapshot_to_wire,
    tensor_to_wire,
)

if TYPE_CHECKING:
    from ..analysis import Finding
    from ..inspect import ObjectRecord, Snapshot
    from ..inspect._live import Update

ENVELOPE_BYTES = 2_048  # the message's own keys, seq, request_id
FINDINGS_BYTES = MAX_PAYLOAD_BYTES // 4  # findings beyond this are dropped (snapshot truncated)
ROW_BYTES = MAX_PAYLOAD_BYTES // 4  # a bigger row ships without children / deep modules


_ENCODE = json.JSONEncoder(ensure_ascii=False, default=str).encode  # NB: what dumps builds
# NB: the C encoder that ``_ENCODE`` builds on every call, built once (no cycle check: the
# wire's dicts are fresh trees); the same text, a third cheaper per row
_C_ENCODE = (c_make_encoder(None, str, encode_basestring, None, ": ", ", ", False, False, True)
             if c_make_encoder is not None else None)


def size(obj: object) -> int:
    """Bytes of ``obj`` as the kernel session will serialise it (UTF-8 JSON)."""
    text = "".join(_C_ENCODE(obj, 0)) if _C_ENCODE is not None else _ENCODE(obj)
    return len(text) if text.isascii() else len(text.encode("utf-8", "replace"))


def text_size(text: str) -> int:
    """``size(text)`` for a ``str``, without the encoder's Python layers (what it calls)."""
    out = encode_basestring(text)
    return len(out) if out.isascii() else len(out.encode("utf-8", "replace"))


def list_size(sizes: list[int]) -> int:
    """Bytes of a JSON list whose items measure ``sizes``: exactly ``size`` of the list, without
    encoding it again (``[``, ``]`` and ``", "`` between items, as ``json.dumps`` writes them)."""
    return 2 + sum(sizes) + 2 * (len(sizes) - 1) if sizes else 2


@dataclass(frozen=True)
class Frame:
    """One look at the namespace, shared by every open panel: its snapshot and findings, and
    what changed since the frame before. NB: no row: each panel encodes the rows of its own
    window (:mod:`._window`), never the whole namespace's."""

    base: dict[str, Any]  # the WireSnapshot minus ``objects``
    findings: list[WireFinding]
    snapshot: Snapshot | None = None
    raw_findings: tuple[Finding, ...] = ()
    # NB: names whose record changed since the frame before; None: unknown (a first frame)
    changed: frozenset[str] | None = field(default=None, repr=False, compare=False)
    removed: frozenset[str] = field(default=frozenset(), repr=False, compare=False)
    # NB: changed names whose record differs from the one it replaced (given here) only in
    # grads' storages: their rows are as they were (a row carries no storage)
    regraded: Mapping[str, ObjectRecord] = field(default_factory=dict, repr=False,
                                                 compare=False)
    findings_bytes: int | None = field(default=None, repr=False, compare=False)
    # NB: the snapshot of the frame before, which ``changed`` and ``removed`` compare with, by
    # a weak reference: a strong one kept a whole second snapshot alive (a third of what a big
    # namespace's panel kept after a cell); whoever compares with it holds it anyway
    previous: weakref.ref[Snapshot] | None = field(default=None, repr=False, compare=False)

    def follows(self, snap: Snapshot | None) -> bool:
        """Whether ``changed`` and ``removed`` say what changed since ``snap``."""
        return snap is not None and self.previous is not None and self.previous() is snap

    def findings_size(self) -> int:
        """``size(self.findings)``, from the sizes measured when they were encoded."""
        return size(self.findings) if self.findings_bytes is None else self.findings_bytes


def compact(row: WireObject) -> WireObject:
    """``row`` small enough to ship: children on ``expand``, modules to depth 1."""
    out: WireObject = {**row, "children": None}
    if size(out) > ROW_BYTES:
        out["modules"] = [m for m in out["modules"] if m["depth"] <= 1]
    if size(out) > ROW_BYTES:
        out["modules"] = []
        out["truncated"] = True
    return out


def empty_frame() -> Frame:
    base = {"totals": [], "devices": [], "truncated": False, "torch_version": None, "skipped": []}
    return Frame(base, [])


#: while a cell runs on another thread, a snapshot in which some object could not be walked
#: (a container of it changed size under the walk) is taken again, up to this many times
LIVE_RETRIES = 2


def namespace_copy(namespace: dict[str, Any]) -> dict[str, Any]:
    """A shallow copy of the namespace. NB: one C call (``dict.copy``, no Python code runs in
    it), so a cell running on another thread cannot change the dict's size under a walk."""
    return dict.copy(namespace) if type(namespace) is dict else dict(namespace)


def steady_snapshot(ns: dict[str, Any], *, live: bool, names: list[str] | None = None,
                    ) -> Snapshot:
    """``take_snapshot(ns)``; with ``live`` (a cell may be changing the objects right now),
    retaken while objects were skipped, keeping the one that skipped fewest.

    NB: a walk that meets a dict or list changing size skips that object, never fails the
    snapshot (:func:`devicelens.inspect.take_snapshot`); the retry gives it another chance.
    """
    from ..inspect import take_snapshot

    snap = take_snapshot(ns, names=names)
    for _ in range(LIVE_RETRIES if live else 0):
        if not snap.skipped:
            break
        again = take_snapshot(ns, names=names)
        if len(again.skipped) < len(snap.skipped):
            snap = again
    return snap


def build_frame(namespace: dict[str, Any], *, live: bool = False) -> Frame:
    """Snapshot + findings of ``namespace``, built from the last frame of the same namespace;
    ``live``: a cell may be running on another thread. NB: without torch imported, an empty
    frame (never import torch on the user's behalf)."""
    if "torch" not in sys.modules:
        return empty_frame()
    with _FRAMES_LOCK, gc_paused():
        ns = namespace_copy(namespace)  # NB: paused too: its one allocation could collect
        frames = _FRAMES.get(id(namespace))
        if frames is None:
            if len(_FRAMES) >= 4:
                _FRAMES.clear()
            frames = _FRAMES[id(namespace)] = Frames()
        return frames.build(ns, live)


def frames_of(namespace: dict[str, Any]) -> Frames | None:
    """The frames built so far of ``namespace``, if any."""
    with _FRAMES_LOCK:
        return _FRAMES.get(id(namespace))


#: the frames of each namespace a panel serves, by id. NB: a frame is exact whatever namespace
#: it was built from (every row is re-checked), so an id reused by another dict costs nothing.
_FRAMES: dict[int, Frames] = {}
_FRAMES_LOCK = threading.Lock()


class Frames:
    """The frames of one namespace, one after another, each built from the last: a snapshot
    that re-walks only what changed (:class:`~devicelens.inspect._live.Live`) and findings
    recomputed only for changed records or context (:class:`~devicelens.analysis.Memo`).

    NB: the first frame is a plain snapshot (what opening a panel costs: about one
    ``snapshot()``, and no memory beyond it); the live snapshot starts at the next frame,
    after the first cell the panel sees.
    """

    def __init__(self) -> None:
        from ..analysis import Memo
        from ..inspect._live import Live

        self.live, self.memo = Live(), Memo()
        self.last: Frame | None = None
        self.wired: dict[int, tuple[Finding, WireFinding, int]] = {}
        # NB: name -> (its record now, the record the memo judged for it), see _twins
        self.twins: dict[str, tuple[ObjectRecord, ObjectRecord]] = {}

    def build(self, ns: dict[str, Any], live: bool = False) -> Frame:
        """The next frame. NB: when anything fails after the live snapshot moved on, every
        memory goes: the next frame is built afresh, never diffed against a frame the live
        snapshot has left behind (its changes since then would be lost)."""
        try:
            return self._first(ns, live) if self.last is None else self._build(ns, live)
        except BaseException:
            self.__init__()  # type: ignore[misc]
            raise

    def _first(self, ns: dict[str, Any], live: bool) -> Frame:
        from ..analysis import diagnose

        snap = steady_snapshot(ns, live=live)
        findings = diagnose(snap)
        base = _base(snap)
        wire, wire_bytes = self._wire(findings, base)
        self.last = Frame(base, wire, snap, tuple(findings), findings_bytes=wire_bytes)
        return self.last

    def _build(self, ns: dict[str, Any], live: bool) -> Frame:
        from ..analysis import diagnose

        update = self._update(ns, live)
        last = self.last
        if last is not None and update.snapshot is last.snapshot:
            return last
        snap = update.snapshot
        # NB: every frame: findings depend on the cells too; the memo makes that cheap, and
        # judges a record whose grads only moved as the one it stands for (:meth:`_twins`)
        self.memo.alias(self._twins(update))
        findings = diagnose(snap, memo=self.memo)
        base = _base(snap)
        wire, wire_bytes = self._wire(findings, base)
        if last is not None:  # NB: the same objects when equal, so plan() compares identities
            base = last.base if base == last.base else base
            wire = last.findings if wire == last.findings else wire
        frame = Frame(base, wire, snap, tuple(findings), update.changed, update.removed,
                      dict(update.regraded), findings_bytes=wire_bytes,
                      previous=_weak(last.snapshot if last is not None else None))
        self.last = frame
        return frame

    def _twins(self, update: Update) -> list[tuple[ObjectRecord, tuple[ObjectRecord, ...]]]:
        """(record, its twins) for each name whose grads only moved: the record it replaced,
        and the one the memo may have judged for that name instead, however many training
        steps ago (each step's record differs from the one before only in grads' storages, so
        from the first one too). NB: a name changed in any other way, or gone, has no twin
        any more."""
        twins = self.twins
        if update.changed is None:
            twins.clear()
            return []
        for name in update.removed:
            twins.pop(name, None)
        pairs: list[tuple[ObjectRecord, tuple[ObjectRecord, ...]]] = []
        for name in update.changed:
            old = update.regraded.get(name)
            if old is None:
                twins.pop(name, None)
                continue
            held = twins.get(name)
            twin = held[1] if held is not None and held[0] is old else old
            new = update.records[name]
            twins[name] = (new, twin)
            pairs.append((new, (old, twin)))
        return pairs

    def _update(self, ns: dict[str, Any], live: bool) -> Update:
        """The live snapshot; while a cell runs, taken again while objects were skipped (a
        container changed size under the walk), the changes since the last frame merged."""
        update = self.live.update(ns, live)
        for _ in range(LIVE_RETRIES if live else 0):
            if not update.snapshot.skipped:
                break
            again = self.live.update(ns, live)
            if update.changed is None or again.changed is None:
                update = again._replace(changed=None, regraded={})
                continue
            names = frozenset(again.snapshot.names())
            changed = (update.changed | again.changed) & names
            records = {**update.records, **again.records}
            update = again._replace(  # NB: regraded since which update? Not kept
                changed=changed, removed=(update.removed | again.removed) - names,
                records={k: records[k] for k in changed}, regraded={})
        return update

    def _wire(self, findings: list[Finding], base: dict[str, Any],
              ) -> tuple[list[WireFinding], int]:
        """Findings as sent, up to ``FINDINGS_BYTES`` (then the frame says truncated), and the
        bytes of that list; each finding encoded and measured once."""
        wired: dict[int, tuple[Finding, WireFinding, int]] = {}
        out: list[WireFinding] = []
        sizes: list[int] = []
        budget = FINDINGS_BYTES
        for f in findings:
            hit = self.wired.get(id(f))
            if hit is None or hit[0] is not f:
                w = finding_to_wire(f)
                hit = (f, w, size(w))
            wired[id(f)] = hit
            budget -= hit[2]
            if budget < 0:
                base["truncated"] = True
                break
            out.append(hit[1])
            sizes.append(hit[2])
        self.wired = wired
        return out, list_size(sizes)


def _weak(snap: Snapshot | None) -> weakref.ref[Snapshot] | None:
    return None if snap is None else weakref.ref(snap)


def _base(snap: Snapshot) -> dict[str, Any]:
    base = dict(snapshot_to_wire(snap, objects=False))
    del base["objects"]
    return base


def record_for(ns: dict[str, Any], name: str, torch: Any, *, live: bool = False,
               ) -> ObjectRecord:
    """The snapshot record of ``ns[name]``, or LookupError saying why there is none.

    NB: every module is walked too (first), so optimizer state can name its parameters.
    """
    if name not in ns:
        raise LookupError(f"no name {name!r} in the namespace (deleted since the last snapshot?)")
    ns = namespace_copy(ns)
    module = torch.nn.Module
    names = [name, *(n for n, v in dict.items(ns)
                     if n != name and type(n) is str and issubclass(type(v), module))]
    snap = steady_snapshot(ns, live=live, names=names)
    if name not in snap:
        why = "could not be inspected" if name in snap.skipped else "holds no tensors"
        raise LookupError(f"{name} {why}")
    return snap[name]


class Chunk(NamedTuple):
    objects: list[WireObject]
    changed: list[str] | None
    removed: list[str]
    truncated: bool


def plan(frame: Frame, rows: dict[str, WireObject], window: WireWindow,
         sent_rows: dict[str, WireObject], sent_state: object, *, full: bool,
         force: bool = False) -> list[Chunk]:
    """Messages that bring a panel holding ``sent_rows``/``sent_state`` up to ``frame`` and the
    page ``rows`` of its ``window``.

    ``[]`` when nothing changed (unless ``force``). ``full`` replaces every row; otherwise only
    new/changed rows go out, plus the names that left the window.
    """
    if sent_rows is rows:
        changed: list[str] = []
    else:
        changed = [n for n, row in rows.items()
                   if sent_rows.get(n) is not row and sent_rows.get(n) != row]
    removed = [] if full else [n for n in sent_rows if n not in rows]
    if not (force or changed or removed or sent_state != state_of(frame, window)
            or (full and len(sent_rows) != len(rows))):
        return []
    send = list(rows) if full else changed
    fixed = (ENVELOPE_BYTES + size(frame.base) + frame.findings_size() + size(removed)
             + size(window))
    budget = MAX_PAYLOAD_BYTES - fixed
    groups: list[list[WireObject]] = [[]]
    used, dropped = 0, False
    whole = [rows[name] for name in send]
    # NB: when the whole fits one message and no row is big, every row goes, uncut, in one
    # (measured in one call of the encoder: a page's rows, not each one)
    if whole and size(whole) + size(send) <= min(budget, ROW_BYTES):
        groups, send = [whole], []
    for name in send:
        row = rows[name]
        cost = size(row) + text_size(name) + 4  # NB: ', ' in two lists
        if cost > ROW_BYTES:
            row = compact(row)
            cost = size(row) + text_size(name) + 4
        if cost > budget:  # NB: only a pathological name gets here; the row is left out
            dropped = True
            continue
        if used + cost > budget and groups[-1]:
            groups.append([])
            used = 0
        groups[-1].append(row)
        used += cost
    return [Chunk(g, None if full and i == 0 else [o["name"] for o in g],
                  removed if i == 0 else [], dropped or bool(frame.base["truncated"]))
            for i, g in enumerate(groups)]


def state_of(frame: Frame, window: WireWindow) -> tuple[object, object, WireWindow]:
    """What a panel holds besides its rows; the same objects while nothing changed."""
    return frame.base, frame.findings, window


# --- expand ---------------------------------------------------------------------------------

def expand(rec: ObjectRecord, path: str, offset: int) -> ExpandResult | None:
    """One page of ``rec``'s detail under the submodule/tensor ``path`` (``""``: all of it).

    None when ``path`` names nothing inside ``rec``. Modules come whole (up to half the budget),
    children from ``offset`` until the page is full.
    """
    def inside(p: str) -> bool:
        return not path or p == path or p.startswith((path + ".", path + "["))

    modules = [m for m in rec.modules if inside(m.path)]
    tensors = [t for t in rec.tensors if inside(t.path)]
    if path and not modules and not tensors:
        return None
    obj = object_to_wire(rec, children=False)
    budget = MAX_PAYLOAD_BYTES - ENVELOPE_BYTES - size(obj)
    obj["modules"], used = [], 0
    for m in modules:
        w = module_to_wire(m)
        used += size(w) + 2
        if used > budget // 2:
            obj["truncated"] = True
            break
        obj["modules"].append(w)
    children: list[WireTensor] = []
    end = offset
    for t in tensors[offset:]:
        w2 = tensor_to_wire(t)
        used += size(w2) + 2
        if used > budget and children:
            break
        children.append(w2)
        end += 1
    obj["children"] = children
    return ExpandResult(name=rec.name, path=path, object=obj, offset=offset,
                        next_offset=end if end < len(tensors) else None)
