"""The markdown table and log-log plot of bench_million.py's results (million.json)."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

Row = dict[str, Any]

# (label, value of a result or None, format)
METRICS: list[tuple[str, Callable[[Row], float | None], str]] = [
    ("lexical ingest (chunks/s)", lambda r: r["lexical_chunks_per_s"], "{:,.0f}"),
    (
        "lexical ingest (chunks per CPU-s, client + server)",
        lambda r: r.get("lexical_chunks_per_cpu_s"),
        "{:,.0f}",
    ),
    ("database, lexical only (bytes/chunk)", lambda r: r["bytes_per_chunk_lexical"], "{:,.0f}"),
    ("database with vectors (bytes/chunk)", lambda r: r["bytes_per_chunk"], "{:,.0f}"),
    ("add vectors, replace_vectors (s)", lambda r: r["vectors_s"], "{:,.1f}"),
    ("HNSW bulk build (s)", lambda r: r.get("hnsw_build_s"), "{:,.1f}"),
    ("warm every tenant's caches (s)", lambda r: r["warm_caches_s"], "{:,.2f}"),
    ("retrieve lexical p50 (ms)", lambda r: r["latency_ms"]["lexical"]["p50"], "{:.2f}"),
    ("retrieve lexical p95 (ms)", lambda r: r["latency_ms"]["lexical"]["p95"], "{:.2f}"),
    ("retrieve dense p50 (ms)", lambda r: r["latency_ms"]["dense"]["p50"], "{:.2f}"),
    ("retrieve dense p95 (ms)", lambda r: r["latency_ms"]["dense"]["p95"], "{:.2f}"),
    ("retrieve hybrid p50 (ms)", lambda r: r["latency_ms"]["hybrid"]["p50"], "{:.2f}"),
    ("retrieve hybrid p95 (ms)", lambda r: r["latency_ms"]["hybrid"]["p95"], "{:.2f}"),
    *[
        (
            f"retrieve {m} CPU per query (ms)",
            lambda r, m=m: r.get("cpu_ms_per_query", {}).get(m),
            "{:.2f}",
        )
        for m in ("lexical", "dense", "hybrid")
    ],
    (
        "HNSW filtered recall@20, ef 40 / 100",
        lambda r: r["hnsw"]["ef100"]["recall_at_20"] if "hnsw" in r else None,
        "{:.3f}",
    ),
    (
        "HNSW filtered search p50 (ms), ef 100",
        lambda r: r["hnsw"]["ef100"]["ms"]["p50"] if "hnsw" in r else None,
        "{:.1f}",
    ),
    ("peak RSS of the client process (MB)", lambda r: r["peak_rss_mb"], "{:,.0f}"),
]

PLOTTED = [
    "lexical ingest (chunks per CPU-s, client + server)",
    "database with vectors (bytes/chunk)",
    "peak RSS of the client process (MB)",
] + [f"retrieve {m} CPU per query (ms)" for m in ("lexical", "dense", "hybrid")]


def _cell(label: str, r: Row, value: float | None, fmt: str) -> str:
    if value is None:
        return "–"
    if label.startswith("HNSW filtered recall"):
        return f"{r['hnsw']['ef40']['recall_at_20']:.3f} / {value:.3f}"
    return fmt.format(value)


def growth(a: float | None, b: float | None, na: int, nb: int) -> str:
    """Log-log slope between two sizes: 0 flat, 1 linear in the chunk count."""
    if not a or not b or a <= 0 or b <= 0:
        return ""
    return f"{math.log(b / a) / math.log(nb / na):+.2f}"


def markdown(results: list[Row]) -> str:
    lines = []
    for backend in ("sqlite", "postgres"):
        rows = sorted((r for r in results if r["backend"] == backend), key=lambda r: r["chunks"])
        if not rows:
            continue
        name = {"sqlite": "SQLite", "postgres": "PostgreSQL"}[backend]
        head = [f"{name}, {rows[0]['tenants']} tenants"] + [f"{r['chunks']:,}" for r in rows]
        slopes = [f"growth {a['chunks']:,}→{b['chunks']:,}" for a, b in itertools.pairwise(rows)]
        lines += ["| " + " | ".join(head + slopes) + " |"]
        lines += ["|" + "---|" * (len(head) + len(slopes))]
        for label, get, fmt in METRICS:
            values = [get(r) for r in rows]
            if all(v is None for v in values):
                continue
            cells = [_cell(label, r, v, fmt) for r, v in zip(rows, values, strict=True)]
            grow = [
                growth(values[i], values[i + 1], rows[i]["chunks"], rows[i + 1]["chunks"])
                for i in range(len(rows) - 1)
            ]
            lines.append("| " + " | ".join([label, *cells, *grow]) + " |")
        loads = ", ".join(f"{r['load_average'][0]:.1f}" for r in rows if "load_average" in r)
        lines += ["", f"Load average (1 min) at the end of each run: {loads}.", ""]
    return "\n".join(lines)


def plot(results: list[Row], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 3, figsize=(12, 7))
    getters = {label: get for label, get, _ in METRICS}
    for ax, label in zip(axes.ravel(), PLOTTED, strict=True):
        for backend, marker in (("sqlite", "o-"), ("postgres", "s--")):
            rows = [r for r in results if r["backend"] == backend]
            rows.sort(key=lambda r: r["chunks"])
            pts = [(r["chunks"], getters[label](r)) for r in rows]
            pts = [(x, y) for x, y in pts if y]
            if pts:
                ax.plot(*zip(*pts, strict=True), marker, label=backend)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(label, fontsize=9)
        ax.set_xlabel("chunks (100 tenants)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def render(json_path: Path) -> None:
    results = json.loads(json_path.read_text())
    md = json_path.with_suffix(".md")
    intro = (
        "# bench_million: 10k → 100k → 1M chunks over 100 tenants\n\n"
        "`.venv/bin/python benchmarks/bench_million.py` (see its docstring for the data and\n"
        "method); growth columns are log-log slopes (0 = flat, 1 = linear in chunks).\n"
        "Shared 2-core machine: timings are noisy.\n\n"
    )
    md.write_text(intro + markdown(results) + "\n![growth](million.png)\n", encoding="utf-8")
    plot(results, json_path.with_suffix(".png"))
