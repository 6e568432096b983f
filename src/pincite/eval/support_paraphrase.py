"""LLM-shaped claims: rule-made rewrites of supported claims, labelled by construction.

Sources are claims that their passage supports (each labelled so by people):

- ``test`` (reported, never fitted on): WiCE test ``supported`` claims with
  their cited page, SciFact dev ``SUPPORT`` claims with their cited abstract,
  and the answerable questions of ``data/qa/documents-test.jsonl``, whose
  claim is the gold passage's sentence holding the gold answer.
- ``train`` (what ``tools/fit_support.py`` adds to the dev splits): WiCE dev
  ``supported`` claims, AttributionBench dev ``attributable`` claims, SciFact
  train ``SUPPORT`` claims.

Each source claim is kept as is and rewritten by every rule of
``support_rewrites`` that applies: the meaning-keeping rewrites are
``supported``, the meaning-breaking ones ``unsupported``. ``paraphrase_report``
counts what the default answer policy (reject on an ``unsupported`` verdict)
does with them.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from pincite.errors import ConfigurationError
from pincite.eval.support import (
    SupportExample,
    _passage,
    load_attributionbench,
    load_wice,
    score_examples,
)
from pincite.eval.support_rewrites import rewrites
from pincite.sentences import sentence_spans
from pincite.support.base import SupportChecker, SupportResult, SupportVerdict

__all__ = ["paraphrase_report", "paraphrase_set"]

Source = tuple[str, str, str, str]  # (dataset, id, claim, passage text)


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    if not path.is_file():
        raise ConfigurationError(f"dataset file not found: {path}")
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _scifact(data_dir: Path, split: str) -> list[Source]:
    root = data_dir / "scifact"
    claims = list(_lines(root / f"claims_{split}.jsonl"))
    wanted = {d for c in claims for d, ev in c["evidence"].items() if ev}
    corpus = {r["_id"]: r["text"] for r in _lines(root / "corpus.jsonl.gz") if r["_id"] in wanted}
    out = []
    for c in claims:
        for doc, evidence in c["evidence"].items():
            if doc in corpus and all(e["label"] == "SUPPORT" for e in evidence):
                out.append(("scifact", f"{c['id']}:{doc}", c["claim"], corpus[doc]))
                break
    return out


def _qa(qa_file: Path) -> list[Source]:
    out = []
    for rec in _lines(qa_file):
        if not rec.get("answerable") or not rec.get("gold_passages"):
            continue
        text = rec["gold_passages"][0]
        answer = " ".join(rec["gold_answer"].split()).lower()
        for start, end in sentence_spans(text):
            sentence = " ".join(text[start:end].split())
            if answer and answer in sentence.lower() and len(sentence) >= 30:
                out.append(("qa", rec["id"], sentence, text))
                break
    return out


def _sources(data_dir: Path, kind: str, qa_file: Path | None) -> list[Source]:
    if kind == "test":
        wice = load_wice(data_dir / "wice", "test")
        out = [
            ("wice", e.id, e.claim, e.passages[0].text)
            for e in wice
            if e.label is SupportVerdict.SUPPORTED
        ]
        out += _scifact(data_dir, "dev")
        return out + (_qa(qa_file) if qa_file is not None else [])
    if kind == "train":
        wice = load_wice(data_dir / "wice", "dev")
        ab = load_attributionbench(data_dir / "attributionbench", "dev")
        out = [
            ("wice", e.id, e.claim, e.passages[0].text)
            for e in wice
            if e.label is SupportVerdict.SUPPORTED
        ]
        out += [
            ("ab", e.id, e.claim, "\n\n".join(p.text for p in e.passages))
            for e in ab
            if e.label is SupportVerdict.SUPPORTED and e.passages
        ]
        # SciFact adds claims of another domain when it is there (a fit on a
        # data folder without it still runs).
        return out + (_scifact(data_dir, "train") if (data_dir / "scifact").is_dir() else [])
    raise ConfigurationError(f"paraphrase sets are 'train' or 'test', got {kind!r}")


def paraphrase_set(
    data_dir: Path, kind: str = "test", *, qa_file: Path | None = None, seed: int = 0
) -> list[SupportExample]:
    """The source claims and their rewrites; ``source`` is ``"<dataset>:<rule>"``.

    Raises ``ConfigurationError`` for a missing file or an unknown ``kind``.
    """
    sources = _sources(Path(data_dir), kind, qa_file)
    claims = [claim for _, _, claim, _ in sources]
    out = []
    for dataset, source_id, claim, text in sources:
        passage = (_passage(f"paraphrase-{dataset}", source_id, 0, text),)
        out.append(
            SupportExample(
                f"{dataset}:{source_id}", claim, passage, SupportVerdict.SUPPORTED,
                source=f"{dataset}:original",
            )
        )  # fmt: skip
        for new, rule, supported in rewrites(claim, seed, claims):
            label = SupportVerdict.SUPPORTED if supported else SupportVerdict.UNSUPPORTED
            out.append(
                SupportExample(
                    f"{dataset}:{source_id}:{rule}", new, passage, label,
                    source=f"{dataset}:{rule}",
                )
            )  # fmt: skip
    return out


def paraphrase_report(
    checker: SupportChecker,
    examples: Sequence[SupportExample],
    results: Sequence[SupportResult] | None = None,
) -> dict[str, Any]:
    """What the default policy does with the rewrites (originals counted apart).

    ``supported_rejected``: share of meaning-keeping rewrites given the
    ``unsupported`` verdict (the answer would be rejected).
    ``unsupported_accepted``: share of meaning-breaking rewrites *not* given it
    (the answer would stand; ``unsupported_called_supported`` counts those
    given ``supported`` outright). ``by_rule`` has the same per rule.
    ``originals_rejected`` is the share of source claims (people judged them
    supported) given ``unsupported``, and ``supported_rejected_original_kept``
    the share of meaning-keeping rewrites rejected among those whose source
    claim is not: what the rewording itself costs.
    """
    if results is None:
        results = score_examples(checker, examples)
    counts: Counter[tuple[str, str]] = Counter()
    for example, result in zip(examples, results, strict=True):
        rule = example.source.split(":", 1)[1].split("+")[0]
        counts[(rule, "n")] += 1
        counts[(rule, result.verdict.value)] += 1
    report: dict[str, Any] = {"by_rule": {}}
    kept, broke = Counter[str](), Counter[str]()
    rejected = SupportVerdict.UNSUPPORTED
    original = {
        e.id: r.verdict is rejected
        for e, r in zip(examples, results, strict=True)
        if e.source.endswith(":original")
    }
    for example, result in zip(examples, results, strict=True):
        if example.source.endswith(":original"):
            continue
        tally = kept if example.label is SupportVerdict.SUPPORTED else broke
        tally["n"] += 1
        tally[result.verdict.value] += 1
        if tally is kept and not original.get(example.id.rsplit(":", 1)[0], False):
            kept["n_original_kept"] += 1
            kept["rejected_original_kept"] += result.verdict is rejected
    for rule in sorted({r for r, _ in counts}):
        n = counts[(rule, "n")]
        report["by_rule"][rule] = {v.value: counts[(rule, v.value)] / n for v in SupportVerdict}
        report["by_rule"][rule]["n"] = n
    report["supported_n"] = kept["n"]
    report["unsupported_n"] = broke["n"]
    report["supported_rejected"] = kept["unsupported"] / kept["n"] if kept["n"] else 0.0
    report["unsupported_accepted"] = 1 - broke["unsupported"] / broke["n"] if broke["n"] else 0.0
    report["unsupported_called_supported"] = broke["supported"] / broke["n"] if broke["n"] else 0.0
    report["originals_rejected"] = sum(original.values()) / len(original) if original else 0.0
    n_kept = kept["n_original_kept"]
    report["supported_rejected_original_kept"] = (
        kept["rejected_original_kept"] / n_kept if n_kept else 0.0
    )
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pincite.eval.support_paraphrase DATA_DIR [--qa FILE] [--json]``."""
    import argparse

    from pincite.eval.support import _CHECKERS, _make_checker

    parser = argparse.ArgumentParser(prog="python -m pincite.eval.support_paraphrase")
    parser.add_argument("data_dir", type=Path, help="folder holding wice/ and scifact/")
    parser.add_argument("--qa", type=Path, help="a QA set (data/qa/documents-test.jsonl)")
    parser.add_argument("--kind", default="test", choices=("test", "train"))
    parser.add_argument("--checker", default="heuristic", choices=_CHECKERS)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    examples = paraphrase_set(args.data_dir, args.kind, qa_file=args.qa)
    report = paraphrase_report(_make_checker(args.checker), examples)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(
        f"paraphrases/{args.kind}: {report['supported_n']} supported rewrites, "
        f"{report['unsupported_n']} unsupported; default policy rejects "
        f"{report['supported_rejected']:.1%} of supported, accepts "
        f"{report['unsupported_accepted']:.1%} of unsupported "
        f"({report['unsupported_called_supported']:.1%} called supported); "
        f"source claims rejected {report['originals_rejected']:.1%}, supported rewrites "
        f"of the others rejected {report['supported_rejected_original_kept']:.1%}"
    )
    for rule, row in report["by_rule"].items():
        print(
            f"  {rule:16} n={row['n']:4}  supported {row['supported']:.0%}  "
            f"partial {row['partial']:.0%}  unsupported {row['unsupported']:.0%}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
