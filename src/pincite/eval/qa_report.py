"""How `pincite eval qa` shows its report: a rich table, and a self-contained HTML page.

The page embeds its plots as inline SVG (matplotlib, the ``report`` extra) and
loads nothing from the network, so it opens offline and can be mailed around.
"""

from __future__ import annotations

import html
import io
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from pincite.errors import ConfigurationError
from pincite.eval.qa import QAReport
from pincite.eval.qa_metrics import KS, REFUSAL_FLOOR, STAGES, VERDICTS

_ANSWER_ROWS = (
    ("answered", "answered (of answerable)"),
    ("cited_gold", "cited span overlaps gold passage"),
    ("answer_in_cited", "gold answer inside cited text"),
    ("precision_when_answered", "answered on gold / answered"),
    ("refusal_recall", "unanswerable refused"),
)
_KIND_COLUMNS = (
    ("answered", "answered"),
    ("cited_gold", "on gold"),
    ("answer_in_cited", "answer cited"),
)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f} %"


def report_tables(report: QAReport) -> Group:
    s = report.summary
    a = s["answers"]
    head = Table(
        title=f"pincite eval qa: {s['questions']} questions "
        f"({a['answerable']} answerable, {a['unanswerable']} not)"
    )
    head.add_column("answers")
    head.add_column("", justify="right")
    for key, label in _ANSWER_ROWS:
        head.add_row(label, _pct(a[key]))
    kinds = Table(title="answerable questions by kind")
    kinds.add_column("kind")
    kinds.add_column("n", justify="right")
    for _, label in _KIND_COLUMNS:
        kinds.add_column(label, justify="right")
    for kind, row in s["by_kind"].items():
        if row["answerable"]:
            kinds.add_row(kind, str(row["answerable"]), *(_pct(row[k]) for k, _ in _KIND_COLUMNS))
    retrieval = Table(title="retrieval: gold passage within the top k")
    retrieval.add_column("mode")
    for k in KS:
        retrieval.add_column(f"recall@{k}", justify="right")
    for mode, row in s["retrieval"].items():
        retrieval.add_row(mode, *(_pct(row[f"recall@{k}"]) for k in KS))
    claims = Table(title=f"attributability: support verdicts of {s['claims']} claims")
    for v in VERDICTS:
        claims.add_column(v, justify="right")
    claims.add_row(*(_pct(s["attributability"][v]) for v in VERDICTS))
    latency = Table(title="latency per question (ms)")
    latency.add_column("")
    for stage in STAGES:
        latency.add_column(stage, justify="right")
    for p in ("p50_ms", "p95_ms"):
        latency.add_row(p[:3], *(f"{s['latency'][stage][p]:.1f}" for stage in STAGES))
    parts: list[Any] = [head, kinds, retrieval, claims, latency]
    advice = threshold_advice(report)
    if advice is not None:
        parts.append(Text(advice))
    if s["gold_not_found"]:
        parts.append(
            Text(
                f"gold passages not found in the store for "
                f"{len(s['gold_not_found'])} question(s): "
                f"{', '.join(s['gold_not_found'][:10])}",
                style="yellow",
            )
        )
    return Group(*parts)


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ConfigurationError(
            "--html needs matplotlib: pip install matplotlib (the pincite 'report' extra)"
        ) from exc
    return plt


def check_plotting() -> None:
    """Fail with one line before a long run when the HTML report could not be drawn."""
    _pyplot()


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    svg = buf.getvalue()
    # Keep only the <svg> element: the XML prolog and DOCTYPE are not valid inside HTML.
    return svg[svg.index("<svg") :]


def plots(report: QAReport) -> list[tuple[str, str]]:
    """(caption, inline SVG) for the recall@k curves and the refusal/coverage trade-off."""
    plt = _pyplot()
    s = report.summary
    figures = []
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    for mode, row in s["retrieval"].items():
        ax.plot(KS, [row[f"recall@{k}"] for k in KS], marker="o", label=mode)
    ax.set(xlabel="k (passages retrieved)", ylabel="recall@k", ylim=(0, 1.02), xticks=KS)
    ax.grid(alpha=0.3)
    ax.legend()
    figures.append(("Recall@k of the gold passage per retrieval mode", _svg(fig)))
    plt.close(fig)
    if report.tradeoff:
        fig, ax = plt.subplots(figsize=(5.5, 3.6))
        cov = [c for _, c, _ in report.tradeoff]
        ref = [r for _, _, r in report.tradeoff]
        ax.plot(ref, cov, marker=".", color="tab:purple")
        a = s["answers"]
        ax.scatter(
            [a["refusal_recall"]],
            [a["cited_gold"]],
            color="tab:red",
            zorder=3,
            label="as configured",
        )
        ax.set(
            xlabel="unanswerable refused",
            ylabel="answerable answered on gold",
            xlim=(-0.02, 1.02),
            ylim=(-0.02, 1.02),
        )
        ax.grid(alpha=0.3)
        ax.legend()
        figures.append(
            (
                f"Refusal / coverage trade-off: refusing when the "
                f"{report.settings.get('threshold_over', 'score')} is below a threshold, "
                f"swept from the lowest score to the highest (red: as configured)",
                _svg(fig),
            )
        )
        plt.close(fig)
    return figures


_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; padding: 0 1.5em; max-width: 70em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
figure { display: inline-block; margin: 0 1.5em 1.5em 0; vertical-align: top; }
figcaption { max-width: 32em; font-size: 0.9em; color: #555; }
.no { color: #a00; } .yes { color: #070; }
"""


def _table(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def threshold_advice(report: QAReport) -> str | None:
    """What the refusal rule picks on these questions, and how to answer with it."""
    chosen = report.settings.get("refusal_threshold")
    if chosen is None:
        return None
    source = _SOURCES.get(report.settings.get("threshold_source", ""), "")
    said = (
        f"answer threshold {report.settings['threshold']}{source}; the smallest that refuses "
        f"{REFUSAL_FLOOR:.0%} of these unanswerable questions is {chosen:.2f}"
    )
    if report.settings.get("threshold_saved"):
        return f"{said}, now saved for this tenant"
    return (
        f"{said} (choose it on a dev split, never on the set you report; answer with it: "
        f"--answer-threshold {chosen:.2f}, or keep it for this tenant with --save-threshold)"
    )


_SOURCES = {
    "saved": " (saved for this tenant)",
    "set": " (set by --answer-threshold)",
    "shipped": " (shipped)",
}


def render_html(report: QAReport, title: str) -> str:
    """The whole report as one HTML page with inline SVG plots."""
    s = report.summary
    a = s["answers"]
    answers = _table(
        ["answers", ""], [[html.escape(label), _pct(a[key])] for key, label in _ANSWER_ROWS]
    )
    by_kind = _table(
        ["kind", "n", *(label for _, label in _KIND_COLUMNS)],
        [
            [kind, str(row["answerable"]), *(_pct(row[k]) for k, _ in _KIND_COLUMNS)]
            for kind, row in s["by_kind"].items()
            if row["answerable"]
        ],
    )
    retrieval = _table(
        ["mode", *(f"recall@{k}" for k in KS)],
        [[m, *(_pct(r[f"recall@{k}"]) for k in KS)] for m, r in s["retrieval"].items()],
    )
    claims = _table(list(VERDICTS), [[_pct(s["attributability"][v]) for v in VERDICTS]])
    latency = _table(
        ["ms", *STAGES],
        [[p[:3], *(f"{s['latency'][st][p]:.1f}" for st in STAGES)] for p in ("p50_ms", "p95_ms")],
    )

    def mark(ok: bool) -> str:
        return '<span class="yes">yes</span>' if ok else '<span class="no">no</span>'

    per_question = _table(
        [
            "id",
            "kind",
            "answerable",
            "answered",
            "cites gold",
            "answer in cited",
            "verdicts",
            *(f"rank ({m})" for m in s["retrieval"]),
        ],
        [
            [
                html.escape(o.id),
                o.kind,
                mark(o.answerable),
                mark(o.answered),
                mark(o.cited_gold) if o.answerable else "",
                mark(o.answer_in_cited) if o.answerable else "",
                html.escape(", ".join(o.verdicts)),
                *(str(o.ranks.get(m) or "—") for m in s["retrieval"]),
            ]
            for o in report.outcomes
        ],
    )
    figures = "".join(
        f"<figure>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>"
        for caption, svg in plots(report)
    )
    settings = ", ".join(f"{k}: {html.escape(str(v))}" for k, v in report.settings.items())
    advice = threshold_advice(report)
    advised = f"<p>{html.escape(advice)}</p>" if advice is not None else ""
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>"
        f"<h1>{html.escape(title)}</h1><p>{s['questions']} questions "
        f"({a['answerable']} answerable, {a['unanswerable']} not). {settings}</p>"
        f"<h2>Answers</h2>{answers}{advised}<h3>Answerable questions by kind</h3>{by_kind}"
        f"<h2>Retrieval</h2>{retrieval}{figures}"
        f"<h2>Attributability ({s['claims']} claims)</h2>{claims}"
        f"<h2>Latency per question</h2>{latency}"
        f"<h2>Questions</h2>{per_question}</body></html>"
    )


def write_html(report: QAReport, path: Path, title: str) -> None:
    path.write_text(render_html(report, title), encoding="utf-8")
