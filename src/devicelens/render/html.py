"""HTML views for notebooks: a table colour-coded by device (colour *and* text), findings with
their fix code. All escaping goes through :func:`esc`.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from ..inspect.units import human_bytes
from ._fold import table
from ._report import headline, plural, row_detail
from ._rows import MAX_FINDINGS, Row, Table, device_colour, more_findings

if TYPE_CHECKING:
    from ..analysis import Finding
    from ..inspect import Snapshot
    from ..moves import MoveReport

_SEV_COLOUR = {"error": "#D55E00", "warning": "#E69F00", "info": "#0072B2"}
# NB: JupyterLab right-aligns every output table cell with a more specific selector
# (:not(.jp-RenderedMarkdown).jp-RenderedHTMLCommon td): names must stay left, or nesting
# (the indent) cannot be seen
_CSS = (
    "<style>.dl-t{border-collapse:collapse;font-size:12px}.dl-t td,.dl-t th{padding:2px 8px;"
    "text-align:left!important}.dl-t td.dl-num{text-align:right!important}"
    ".dl-chip{display:inline-block;padding:0 6px;border-radius:8px;color:#fff;"
    "font-family:monospace;margin-right:2px}.dl-bad{background:rgba(213,94,0,.12)}"
    ".dl-f{border-left:4px solid;padding:2px 8px;margin:6px 0}.dl-f pre{margin:4px 0;"
    "padding:4px;background:rgba(127,127,127,.12)}</style>"
)


def esc(s: object) -> str:
    s = str(s)
    # NB: most names hold none of the five characters: five C scans beat five replaces
    if "&" in s or "<" in s or ">" in s or '"' in s or "'" in s:
        return html.escape(s, quote=True)
    return s


_CHIPS: dict[str, str] = {}


def chip(device: str) -> str:
    """A device's coloured chip; kept per device (a table repeats a handful of them)."""
    got = _CHIPS.get(device)
    if got is None:
        if len(_CHIPS) > 1_000:
            _CHIPS.clear()
        got = _CHIPS[device] = (f'<span class="dl-chip" style="background:'
                                f'{device_colour(device)}" title="{esc(device)}">{esc(device)}'
                                "</span>")
    return got


def _row(r: Row) -> str:
    """NB: once per row of a thousand-row table: fields unpacked once, chips by ``map``, and
    the byte count unescaped (digits and a unit only)."""
    level, name, kind, devices, dtypes, shape, nbytes, flagged = r
    cls = ' class="dl-bad"' if flagged else ""
    pad = f' style="padding-left:{8 + 16 * level}px"' if level else ""
    return (f"<tr{cls}><td{pad}><code>{esc(name)}</code></td><td>{esc(kind)}</td>"
            f"<td>{''.join(map(chip, devices))}</td><td>{esc(', '.join(dtypes))}</td>"
            f'<td>{esc(shape)}</td><td class="dl-num">{human_bytes(nbytes)}</td></tr>')


def finding_html(f: Finding) -> str:
    return (f'<div class="dl-f" style="border-color:{_SEV_COLOUR[f.severity]}">'
            f"<b>{esc(f.severity)}: {esc(f.title)}</b><br>{esc(f.message)}"
            + (f"<pre><code>{esc(f.fix)}</code></pre>" if f.fix else "")
            + (f"<i>{esc(f.verdict)}</i>" if f.verdict else "") + "</div>")


def table_html(snap: Snapshot, findings: list[Finding], *, show_all: bool = False,
               rs: Table | None = None) -> str:
    """The colour-coded table with its per-device totals (styles included), no findings.
    ``rs``: the table, where a caller already has it (the text view of the same bundle)."""
    totals = " ".join(f"{chip(t.device)} {plural(t.objects, 'object')}, "
                      f"{esc(human_bytes(t.nbytes))}" for t in snap.totals)
    if rs is None:
        rs = table(snap, findings, show_all=show_all)
    body = "".join(map(_row, rs.rows))
    more = f'<div class="dl-note">{esc(rs.note)}</div>' if rs.note else ""
    skipped = f"<div>skipped: {esc(', '.join(snap.skipped))}</div>" if snap.skipped else ""
    return (f"{_CSS}<div><b>devicelens</b> — {plural(len(snap), 'object')} {totals}</div>"
            '<table class="dl-t"><thead><tr><th>name</th><th>kind</th><th>device</th>'
            f"<th>dtype</th><th>shape</th><th>memory</th></tr></thead><tbody>{body}</tbody>"
            f"</table>{more}{skipped}")


def snapshot_html(snap: Snapshot | None, findings: list[Finding], *,
                  show_all: bool = False, rs: Table | None = None) -> str:
    out = [_CSS if snap is None else table_html(snap, findings, show_all=show_all, rs=rs)]
    if findings:
        out += [finding_html(f) for f in (findings if show_all else findings[:MAX_FINDINGS])]
        if not show_all and len(findings) > MAX_FINDINGS:
            out.append(f"<div>{esc(more_findings(findings[MAX_FINDINGS:]))}</div>")
    else:
        out.append("<div>No device or dtype problems found.</div>")
    return "".join(out)


def report_html(r: MoveReport) -> str:
    from .text import MAX_REPORT_ROWS

    head = esc(headline(r))
    shown = r.moved[:MAX_REPORT_ROWS] if r.ok else ()
    rest = r.moved[MAX_REPORT_ROWS:] if r.ok else ()
    items = "".join(f"<li><code>{esc(m.path)}</code>: {chip(m.source)} → {chip(m.target)} "
                    f"({esc(row_detail(m))})</li>" for m in shown)
    if rest:
        items += (f"<li>… and {len(rest)} more "
                  f"({esc(human_bytes(sum(m.nbytes for m in rest)))})</li>")
    applied = "".join(f"<li>✔ {esc(t)}</li>" for t in r.applied)
    skipped = "".join(f"<li>{esc(t)}: {esc(why)}</li>" for t, why in r.skipped)
    refused = "".join(f"<li><code>{esc(p)}</code>: {esc(why)}</li>" for p, why in r.refused)
    notes = "".join(f"<div>Note: {esc(n)}</div>" for n in r.notes)
    return (f"{_CSS}<div>{head}</div>" + (f"<ul>{items}</ul>" if items else "")
            + (f"<div>{'Would apply' if r.dry_run else 'Applied'}:</div><ul>{applied}</ul>"
               if applied else "")
            + (f"<div>Not applied:</div><ul>{skipped}</ul>" if skipped else "")
            + (f"<div>Refused:</div><ul>{refused}</ul>" if refused else "") + notes)
