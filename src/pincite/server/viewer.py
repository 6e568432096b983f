"""The evidence viewer's HTML: a cited span highlighted in its version's canonical text.

Pages are built from escaped strings only; the one script (scroll the span into
view) and the one style sheet are allowed by hash in the Content-Security-Policy.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from html import escape

from pincite.ground.fetch import FetchStatus
from pincite.server.evidence import Change, Evidence, word_diff

# Characters of the version's text shown on each side of the cited span.
CONTEXT_CHARS = 2000

_STYLE = """
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:50rem;padding:1rem 1.5rem}
h1{font-size:1.3rem;margin:.2rem 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;font-size:.9rem}
dt{color:#666}dd{margin:0;overflow-wrap:anywhere}
.label{padding:.5rem .8rem;border-radius:4px;margin:.6rem 0;font-weight:600}
.superseded{background:#fff4d6}.erased,.deleted,.limited{background:#fde2e1}.partial{background:#e8f0fe}
.text{white-space:pre-wrap;font-family:Georgia,serif;border-top:1px solid #ddd;padding-top:1rem}
mark{background:#ffe066;padding:0 .1rem;scroll-margin:30vh}
.diff{white-space:pre-wrap;font-family:Georgia,serif;background:#f7f7f7;padding:.8rem}
del{background:#fdd;text-decoration:line-through}ins{background:#dfd;text-decoration:none}
.muted{color:#777}
.compare{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.compare blockquote{margin:0;white-space:pre-wrap;font-family:Georgia,serif;
background:#f7f7f7;padding:.6rem}
.compare h3{font-size:.9rem;margin:.4rem 0}
@media(max-width:40rem){.compare{grid-template-columns:1fr}}
"""
_SCRIPT = 'var m=document.getElementById("cited");if(m){m.scrollIntoView({block:"center"});}'


def _csp_hash(source: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode()).digest()).decode() + "'"


CSP = (
    f"default-src 'none'; style-src {_csp_hash(_STYLE)}; script-src {_csp_hash(_SCRIPT)}; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def _page(title: str, body: str, *, script: bool = False) -> str:
    tail = f"<script>{_SCRIPT}</script>" if script else ""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body>{body}{tail}</body></html>"
    )


def limited_page(login_action: str, evidence_id: str, csrf: str, *, rejected: bool) -> str:
    """What a reader without a valid key sees: no title, no excerpt, a way to sign in."""
    note = '<p class="label limited">That key was not accepted.</p>' if rejected else ""
    body = (
        "<h1>Access to this evidence is limited</h1>"
        "<p>This passage belongs to a pincite workspace. Sign in with an API key of that "
        "workspace to read it.</p>"
        f"{note}"
        f'<form method="post" action="{escape(login_action)}">'
        '<label>API key <input type="password" name="key" autocomplete="off" required></label> '
        f'<input type="hidden" name="evidence_id" value="{escape(evidence_id)}">'
        f'<input type="hidden" name="csrf" value="{escape(csrf)}">'
        '<button type="submit">Open</button></form>'
    )
    return _page("Access limited — pincite", body)


def message_page(title: str, message: str) -> str:
    return _page(f"{title} — pincite", f"<h1>{escape(title)}</h1><p>{escape(message)}</p>")


def evidence_page(evidence: Evidence, view_url: Callable[[str], str]) -> str:
    """The cited span, highlighted in its version's text, with locator and status labels."""
    o = evidence.outcome
    parts = [f"<h1>{escape(o.title or 'Untitled document')}</h1>", _locator(evidence)]
    parts += _labels(evidence, view_url)
    if evidence.readable:
        # Where the text went comes first, beside the cited passage; then the cited
        # passage in its version's own text.
        parts.append(_diff(evidence, view_url))
        parts.append(_context(evidence))
    return _page(f"{o.title or 'Evidence'} — pincite", "".join(parts), script=evidence.readable)


def _locator(evidence: Evidence) -> str:
    o = evidence.outcome
    rows: list[tuple[str, str]] = []
    if o.uri:
        if o.uri.startswith(("http://", "https://")):
            link = (
                f'<a href="{escape(o.uri, quote=True)}" rel="noopener noreferrer nofollow">'
                f"{escape(o.uri)}</a>"
            )
        else:
            link = escape(o.uri)
        rows.append(("Source", link))
    version = escape(o.hash16 or "")
    if evidence.version is not None:
        version += f' <span class="muted">(stored {escape(evidence.version.created_at)})</span>'
    rows.append(("Version", version))
    if o.pages:
        pages = ", ".join(map(str, o.pages))
        label = f" (printed {escape(o.page_label)})" if o.page_label else ""
        rows.append(("Page", f"{pages}{label}"))
    if o.section:
        rows.append(("Section", escape(" › ".join(o.section))))
    if o.start is not None and o.end is not None:
        rows.append(("Characters", f"{o.start}–{o.end}"))
    rows.append(("Evidence id", f"<code>{escape(o.id)}</code>"))
    return "<dl>" + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows) + "</dl>"


def _labels(evidence: Evidence, view_url: Callable[[str], str]) -> list[str]:
    o = evidence.outcome
    labels = []
    if o.status is FetchStatus.ERASED:
        labels.append(
            '<p class="label erased">Erased: this passage was removed under an erasure '
            "request. Its text is gone for good; this tombstone keeps the citation "
            "resolvable.</p>"
        )
    elif o.status is FetchStatus.DELETED:
        labels.append(
            '<p class="label deleted">Deleted: this document was deleted from the workspace; '
            "its text is hidden.</p>"
        )
    elif o.status is FetchStatus.PARTIAL:
        labels.append(
            '<p class="label partial">Only part of the cited range is covered by stored '
            "passages; that part is highlighted.</p>"
        )
    if o.superseded:
        text = "Superseded: a newer version of this document exists."
        cp = evidence.counterpart
        if cp is not None:
            text += (
                f' <a id="current-version" href="{escape(view_url(cp.evidence_id))}">'
                f"Open the passage in the current version ({escape(cp.hash16)})</a>."
            )
        elif o.current_hash16:
            text += f" The current version is {escape(o.current_hash16)}; "
            text += "this passage has no counterpart there."
        labels.append(f'<p class="label superseded">{text}</p>')
    return labels


def _context(evidence: Evidence) -> str:
    o = evidence.outcome
    assert evidence.version is not None and o.start is not None and o.end is not None
    text = evidence.version.text
    lo = max(0, o.start - CONTEXT_CHARS)
    hi = min(len(text), o.end + CONTEXT_CHARS)
    before = ("…" if lo > 0 else "") + text[lo : o.start]
    after = text[o.end : hi] + ("…" if hi < len(text) else "")
    return (
        f'<div class="text">{escape(before)}<mark id="cited">{escape(evidence.cited)}</mark>'
        f"{escape(after)}</div>"
    )


def _diff(evidence: Evidence, view_url: Callable[[str], str]) -> str:
    """The cited passage beside its counterpart in the current version, then a word diff."""
    cp = evidence.counterpart
    if cp is None:
        return ""
    if cp.text == evidence.cited:
        return (
            '<section id="diff"><h2>Current version</h2><p>The cited passage is unchanged '
            "in the current version.</p></section>"
        )
    runs = []
    for change, chunk in word_diff(evidence.cited, cp.text):
        if change is Change.SAME:
            runs.append(escape(chunk))
        elif change is Change.REMOVED:
            runs.append(f"<del>{escape(chunk)}</del>")
        else:
            runs.append(f"<ins>{escape(chunk)}</ins>")
    cited = (
        f"<div><h3>Cited: version {escape(evidence.outcome.hash16 or '')}</h3>"
        f'<blockquote id="cited-text">{escape(evidence.cited)}</blockquote></div>'
    )
    current = (
        f'<div><h3>Now: <a href="{escape(view_url(cp.evidence_id))}">version '
        f"{escape(cp.hash16)}</a></h3>"
        f'<blockquote id="current-text">{escape(cp.text)}</blockquote></div>'
    )
    return (
        '<section id="diff"><h2>What changed in the current version</h2>'
        f'<p class="muted">Matched by {escape(cp.how)}.</p>'
        f'<div class="compare">{cited}{current}</div>'
        f'<div class="diff">{"".join(runs)}</div></section>'
    )
