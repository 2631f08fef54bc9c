"""What the panel is sent: a namespace frame, the diff against what a panel already has, cut
into messages under ``MAX_PAYLOAD_BYTES``, and pages of one object's detail for ``expand``.

NB: pure: no comm, no IPython, no locks. :mod:`devicelens.jupyter.comm` does the sending.
"""

from __future__ import annotations

import json
import sys
import threading
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
    finding_to_wire,
    module_to_wire,
    object_to_wire,
    row_to_wire,
    rows_to_wire,
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


class RowSizes:
    """Each row's encoded size, measured once in its life: a row is a new dict whenever it
    changes, so a push measures only the rows it is about to send for the first time.

    NB: keyed by ``id`` with the row itself kept beside its size, so an id is never reused
    while its entry lives; :meth:`keep_only` drops the rows no frame holds any more.
    """

    def __init__(self) -> None:
        self.known: dict[int, tuple[WireObject, int]] = {}

    def __call__(self, row: WireObject) -> int:
        hit = self.known.get(id(row))
        if hit is not None and hit[0] is row:
            return hit[1]
        n = size(row)
        self.known[id(row)] = (row, n)
        return n

    def keep_only(self, rows: dict[str, WireObject]) -> None:
        if len(self.known) > 2 * len(rows) + 64:
            live = set(map(id, rows.values()))
            self.known = {k: v for k, v in self.known.items() if k in live}


@dataclass(frozen=True)
class Frame:
    """One look at the namespace, encoded once and shared by every open panel."""

    rows: dict[str, WireObject]  # namespace order (names new since the last frame: last)
    base: dict[str, Any]  # the WireSnapshot minus ``objects``
    findings: list[WireFinding]
    snapshot: Snapshot | None = None
    raw_findings: tuple[Finding, ...] = ()
    # NB: what changed since the frame before (whose rows are ``prev_rows``); None: unknown
    prev_rows: dict[str, WireObject] | None = field(default=None, repr=False, compare=False)
    changed: frozenset[str] | None = field(default=None, repr=False, compare=False)
    removed: frozenset[str] = field(default=frozenset(), repr=False, compare=False)
    _compact: dict[str, WireObject] = field(default_factory=dict, repr=False, compare=False)
    # NB: shared by the frames of one namespace (rows outlive their frame)
    row_size: RowSizes = field(default_factory=RowSizes, repr=False, compare=False)
    findings_bytes: int | None = field(default=None, repr=False, compare=False)

    def findings_size(self) -> int:
        """``size(self.findings)``, from the sizes measured when they were encoded."""
        return size(self.findings) if self.findings_bytes is None else self.findings_bytes

    def compact(self, name: str) -> WireObject:
        """``rows[name]`` small enough to ship: children on ``expand``, modules to depth 1."""
        if name not in self._compact:
            row = self.rows[name]
            if self.snapshot is not None and name in self.snapshot:
                row = object_to_wire(self.snapshot[name], children=False)
            row = {**row, "children": None}
            if size(row) > ROW_BYTES:
                row["modules"] = [m for m in row["modules"] if m["depth"] <= 1]
            if size(row) > ROW_BYTES:
                row["modules"] = []
                row["truncated"] = True
            self._compact[name] = row
        return self._compact[name]


def empty_frame() -> Frame:
    base = {"totals": [], "devices": [], "truncated": False, "torch_version": None, "skipped": []}
    return Frame({}, base, [])


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
    ns = namespace_copy(namespace)
    with _FRAMES_LOCK, gc_paused():
        frames = _FRAMES.get(id(namespace))
        if frames is None:
            if len(_FRAMES) >= 4:
                _FRAMES.clear()
            frames = _FRAMES[id(namespace)] = Frames()
        return frames.build(ns, live)


#: the frames of each namespace a panel serves, by id. NB: a frame is exact whatever namespace
#: it was built from (every row is re-checked), so an id reused by another dict costs nothing.
_FRAMES: dict[int, Frames] = {}
_FRAMES_LOCK = threading.Lock()


class Frames:
    """The frames of one namespace, one after another, each built from the last: a snapshot
    that re-walks only what changed (:class:`~devicelens.inspect._live.Live`), findings
    recomputed only for changed records or context (:class:`~devicelens.analysis.Memo`), and
    rows encoded only for changed names."""

    def __init__(self) -> None:
        from ..analysis import Memo
        from ..inspect._live import Live

        self.live, self.memo = Live(), Memo()
        self.last: Frame | None = None
        self.wired: dict[int, tuple[Finding, WireFinding, int]] = {}
        self.row_size = RowSizes()
        # NB: name -> (its record now, the record the memo judged for it), see _twins
        self.twins: dict[str, tuple[ObjectRecord, ObjectRecord]] = {}

    def build(self, ns: dict[str, Any], live: bool = False) -> Frame:
        """The next frame. NB: when anything fails after the live snapshot moved on, every
        memory goes: the next frame is built afresh, never diffed against a frame the live
        snapshot has left behind (its changes since then would be lost)."""
        try:
            return self._build(ns, live)
        except BaseException:
            self.__init__()  # type: ignore[misc]
            raise

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
        changed = update.changed
        if last is None or changed is None:
            rows = rows_to_wire(snap)
        elif not changed and not update.removed:
            rows = last.rows  # NB: no row changed (a new cell's text, say): the very same rows
        else:
            rows, changed = self._rows(last.rows, update)
        base = _base(snap)
        wire, wire_bytes = self._wire(findings, base)
        if last is not None:  # NB: the same objects when equal, so plan() compares identities
            base = last.base if base == last.base else base
            wire = last.findings if wire == last.findings else wire
        self.row_size.keep_only(rows)
        frame = Frame(rows, base, wire, snap, tuple(findings),
                      last.rows if last is not None else None,
                      changed if last is not None else None, update.removed,
                      row_size=self.row_size, findings_bytes=wire_bytes)
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

    @staticmethod
    def _rows(last: dict[str, WireObject], update: Update
              ) -> tuple[dict[str, WireObject], frozenset[str]]:
        """The last rows with the changed ones replaced, and the names whose row did change.
        NB: a record can change where its row does not (a training step's new grads have new
        storages, and the same bytes): the very old row is kept, so nothing is sent for it,
        and the panel does not redraw a model's row after every training cell. Where the live
        snapshot says that only grads' storages moved (``Update.regraded``) the row is not even
        encoded again."""
        assert update.changed is not None
        rows = dict(last)
        for name in update.removed:
            rows.pop(name, None)
        regraded = update.regraded
        for name in update.changed:
            old = last.get(name)
            if old is not None and name in regraded:
                continue  # NB: only grads' storages moved, and a row carries no storage
            row = row_to_wire(update.records[name])
            rows[name] = old if old is not None and old == row else row
        changed = frozenset(n for n in update.changed if rows[n] is not last.get(n))
        if not changed and not update.removed:
            return last, changed
        return rows, changed

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


def plan(frame: Frame, sent_rows: dict[str, WireObject], sent_base: object, *,
         full: bool, force: bool = False) -> list[Chunk]:
    """Messages that bring a panel holding ``sent_rows``/``sent_base`` up to ``frame``.

    ``[]`` when nothing changed (unless ``force``). ``full`` replaces every row; otherwise only
    new/changed rows go out, plus the names removed.
    """
    if sent_rows is frame.rows:  # NB: the panel has this very frame's rows
        changed, removed = [], []
    elif sent_rows is frame.prev_rows and frame.changed is not None:
        changed = list(filter(frame.changed.__contains__, frame.rows))  # NB: in row order
        removed = [] if full else sorted(n for n in frame.removed if n in sent_rows)
    else:
        changed = [n for n, row in frame.rows.items()
                   if sent_rows.get(n) is not row and sent_rows.get(n) != row]
        removed = [] if full else [n for n in sent_rows if n not in frame.rows]
    if not (force or changed or removed or sent_base != (frame.base, frame.findings)
            or (full and len(sent_rows) != len(frame.rows))):
        return []
    send = list(frame.rows) if full else changed
    fixed = ENVELOPE_BYTES + size(frame.base) + frame.findings_size() + size(removed)
    budget = MAX_PAYLOAD_BYTES - fixed
    groups: list[list[WireObject]] = [[]]
    used, dropped = 0, False
    rows = [frame.rows[name] for name in send]
    sizes = list(map(frame.row_size, rows))
    # NB: when the whole fits one message and no row is big, every row goes, uncut, in one
    if rows and list_size(sizes) + size(send) + 4 * len(send) <= min(budget, ROW_BYTES):
        groups, send = [rows], []
    for name, row, n in zip(send, rows, sizes, strict=bool(send)):
        cost = n + text_size(name) + 4  # NB: ', ' in two lists
        if cost > ROW_BYTES:
            row = frame.compact(name)
            cost = size(row) + size(name) + 4  # NB: ', ' in two lists
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
