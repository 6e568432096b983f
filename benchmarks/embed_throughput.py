"""The physical reference: tokens/s onnxruntime itself reaches with the default model.

Runs the model's ONNX session directly (no pincite batching, pooling or
tokenisation) on batches of real 256-token inputs — SciFact abstracts
tokenised and cut to exactly 256 tokens, so no row is padded — for the float
graph the registry file loads as and for the dynamically quantised copy
(``pincite.embed.quantize``), at each thread count and batch size asked for.
Ingest cannot embed faster than this; ``benchmarks/ingest_speed.py`` says how
close it gets.

    PYTHONPATH=src .venv/bin/python benchmarks/embed_throughput.py [--repeats 5] [--seconds 3]

Each cell runs ``--repeats`` times for about ``--seconds`` each and prints the
best and the median tokens/s, plus tokens per CPU-second (which moves less
than wall time when other work shares the machine). On a shared machine the
best is the closer estimate of what the hardware can do.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from shared_data import DATA as SHARED_DATA

from pincite.embed.onnx import MAX_TOKENS, _installed_model, _load_session, _load_tokenizer
from pincite.embed.quantize import quantized_model

DATA = SHARED_DATA / "scifact"


def inputs(rows: int) -> npt.NDArray[np.int64]:
    """``rows`` real inputs of exactly ``MAX_TOKENS`` tokens each ([CLS] … [SEP])."""
    tokenizer = _load_tokenizer()
    tokenizer.no_truncation()
    out: list[list[int]] = []
    with gzip.open(DATA / "corpus.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            doc = json.loads(line)
            ids = tokenizer.encode(f"{doc['title']} {doc['text']}").ids
            if len(ids) >= MAX_TOKENS:
                out.append([*ids[: MAX_TOKENS - 1], ids[-1]])
            if len(out) == rows:
                break
    return np.asarray(out, dtype=np.int64)


def feeds(session: Any, ids: npt.NDArray[np.int64]) -> dict[str, npt.NDArray[np.int64]]:
    names = {i.name for i in session.get_inputs()}
    out = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
    if "token_type_ids" in names:
        out["token_type_ids"] = np.zeros_like(ids)
    return out


def measure(
    session: Any, ids: npt.NDArray[np.int64], batch: int, seconds: float
) -> tuple[float, float]:
    """Tokens per wall second and per CPU second over about ``seconds`` of runs."""
    batches = [feeds(session, ids[i : i + batch]) for i in range(0, len(ids) - batch + 1, batch)]
    session.run(None, batches[0])  # first run allocates; keep it out of the timing
    tokens, n = 0, 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        session.run(None, batches[n % len(batches)])
        tokens += batch * ids.shape[1]
        n += 1
    return tokens / (time.perf_counter() - start), tokens / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, os.cpu_count() or 1])
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 4, 16, 64])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    ids = inputs(max(args.batches) * 2)
    path, sha = _installed_model()
    models: dict[str, Path | bytes] = {"float": path, "quantised": quantized_model(path, sha)}
    print(f"{len(ids)} SciFact abstracts cut to {ids.shape[1]} tokens; {os.cpu_count()} CPUs")
    # Other work on the machine skews wall-clock numbers; say how busy it was.
    print(f"load average {os.getloadavg()[0]:.2f} at start; {args.repeats} repeats per cell")
    header = ("model", "threads", "batch", "best tok/s", "median tok/s", "tok/CPU-s")
    print("  ".join(f"{h:>12}" for h in header))
    for label, model in models.items():
        for threads in args.threads:
            session = _load_session(model, threads)
            for batch in args.batches:
                runs = [measure(session, ids, batch, args.seconds) for _ in range(args.repeats)]
                wall = [r[0] for r in runs]
                cpu = statistics.median(r[1] for r in runs)
                print(
                    f"{label:>12}  {threads:>12}  {batch:>12}  {max(wall):>12.0f}  "
                    f"{statistics.median(wall):>12.0f}  {cpu:>12.0f}",
                    flush=True,
                )
    print(f"load average {os.getloadavg()[0]:.2f} at end")


if __name__ == "__main__":
    main()
