"""Every framework's object: its evidence id, through `pincite fetch`, gives back its text."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from haystack import Pipeline

from pincite.cli import cli
from pincite.corpus import Corpus
from pincite.integrations import haystack, langchain, llamaindex


def _objects(corpus: Corpus) -> list[tuple[str, str]]:
    """(evidence id, text) as each framework holds them."""
    query = "lost devices reported"
    pairs = [
        (d.id or "", d.page_content)
        for d in langchain.PinciteRetriever(corpus=corpus, tenant="acme").invoke(query)
    ]
    pairs += [
        (n.node.node_id, n.node.get_content())
        for n in llamaindex.PinciteRetriever(corpus, tenant="acme").retrieve(query)
    ]
    answer = llamaindex.PinciteQueryEngine(corpus, tenant="acme").query(
        "When are lost devices reported?"
    )
    pairs += [(n.node.node_id, n.node.get_content()) for n in answer.source_nodes]
    pipeline = Pipeline()
    pipeline.add_component("retriever", haystack.PinciteRetriever(corpus, tenant="acme"))
    pairs += [
        (d.id, d.content or "")
        for d in pipeline.run({"retriever": {"query": query}})["retriever"]["documents"]
    ]
    return pairs


def _fetch(db: Path, tenant: str, ids: list[str]) -> list[dict[str, object]]:
    args = ["fetch", *ids, "--db", str(db), "--tenant", tenant, "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines() if line.strip()]


def test_pincite_fetch_returns_each_objects_exact_text(corpus: Corpus, tmp_path: Path) -> None:
    pairs = _objects(corpus)
    assert any(":s:" in eid for eid, _ in pairs) and any(":c:" in eid for eid, _ in pairs)
    db = tmp_path / "frameworks.db"  # the file the corpus fixture opened
    fetched = _fetch(db, "acme", [eid for eid, _ in pairs])
    assert [(f["id"], f["status"], f["text"]) for f in fetched] == [
        (eid, "ok", text) for eid, text in pairs
    ]
    assert {f["status"] for f in _fetch(db, "globex", [eid for eid, _ in pairs])} == {"not_found"}
