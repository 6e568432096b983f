"""Does a support score read as a probability? Reliability bins, and an HTML page.

``reliability`` sorts claims into equal-width score bins and compares each
bin's mean score with the share of its claims that are in fact supported; a
calibrated checker's points lie on the diagonal. ``expected_calibration_error``
is the claim-weighted mean gap (Naeini, Cooper & Hauskrecht 2015).
``write_html`` draws the reliability diagram (matplotlib, the ``report``
extra) with the split's headline numbers.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["expected_calibration_error", "reliability", "render_html", "write_html"]


def reliability(
    scores: Sequence[float], supported: Sequence[bool], bins: int = 10
) -> list[dict[str, float]]:
    """Per non-empty bin of width ``1/bins``: ``lo``, ``hi``, ``n``, ``score``, ``supported``."""
    if len(scores) != len(supported):
        raise ValueError("reliability needs one label per score")
    rows: list[list[float]] = [[0.0, 0.0, 0.0] for _ in range(bins)]
    for score, label in zip(scores, supported, strict=True):
        k = min(int(score * bins), bins - 1)
        rows[k][0] += 1
        rows[k][1] += score
        rows[k][2] += label
    return [
        {"lo": k / bins, "hi": (k + 1) / bins, "n": n, "score": s / n, "supported": p / n}
        for k, (n, s, p) in enumerate(rows)
        if n
    ]


def expected_calibration_error(table: Sequence[dict[str, float]]) -> float:
    """Claim-weighted mean ``|score - supported|`` over the ``reliability`` bins."""
    total = sum(row["n"] for row in table)
    if not total:
        return 0.0
    return sum(row["n"] * abs(row["score"] - row["supported"]) for row in table) / total


def _diagram(table: Sequence[dict[str, float]], partial: float, supported: float) -> str:
    from pincite.eval.qa_report import _pyplot, _svg

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(4.8, 4.2))
    ax.plot([0, 1], [0, 1], color="#999", linestyle="--", linewidth=1, label="calibrated")
    ax.plot(
        [r["score"] for r in table],
        [r["supported"] for r in table],
        marker="o",
        label="claims (point per score bin)",
    )
    for row in table:
        ax.annotate(str(int(row["n"])), (row["score"], row["supported"]), fontsize=7)
    ax.axvspan(partial, supported, color="#f5d76e", alpha=0.3, label="partial band")
    ax.set_xlabel("support score")
    ax.set_ylabel("share of claims supported")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left", fontsize=8)
    svg = _svg(fig)
    plt.close(fig)
    return str(svg)


def render_html(report: dict[str, Any], title: str) -> str:
    """The page for one ``SupportEvalReport.to_dict()``: headline numbers and the diagram."""
    m = report["metrics"]
    b = m["binary"]
    cal = m.get("calibration", {})
    bands = report.get("thresholds_shipped") or {"partial": 0.0, "supported": 1.0}
    rows = "".join(
        f"<tr><td>{r['lo']:.1f}–{r['hi']:.1f}</td><td>{int(r['n'])}</td>"
        f"<td>{r['score']:.3f}</td><td>{r['supported']:.3f}</td></tr>"
        for r in cal.get("bins", [])
    )
    figure = _diagram(cal.get("bins", []), bands["partial"], bands["supported"])
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>{html.escape(title)}</title></head><body>"
        f"<h1>{html.escape(title)}</h1>"
        f"<p>{m['n']} claims; checker {html.escape(report['checker'])}.</p>"
        f"<p>binary macro-F1 {b['macro_f1']:.3f}, ROC AUC {b['auc']:.3f}; not supported "
        f"flagged P {b['unsupported']['precision']:.3f} R {b['unsupported']['recall']:.3f}; "
        f"rejected P {b['rejected']['precision']:.3f} R {b['rejected']['recall']:.3f}.</p>"
        f"<h2>Reliability (expected calibration error {cal.get('ece', 0.0):.3f})</h2>"
        f"<figure>{figure}<figcaption>Share of claims supported against the score, "
        "per score bin (claims per bin beside each point).</figcaption></figure>"
        "<table><tr><th>score bin</th><th>claims</th><th>mean score</th>"
        f"<th>supported</th></tr>{rows}</table></body></html>"
    )


def write_html(report: dict[str, Any], path: Path, title: str) -> None:
    path.write_text(render_html(report, title), encoding="utf-8")
