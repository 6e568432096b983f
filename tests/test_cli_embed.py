"""`pincite ingest --no-embed` then `pincite embed`: words at once, vectors when ready."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from pincite.cli.app import cli


def _run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _lines(result: Result) -> list[dict[str, object]]:
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


def test_text_first_then_vectors(tmp_path: Path) -> None:
    db = str(tmp_path / "e.db")
    doc = tmp_path / "policy.md"
    doc.write_text("# Policy\n\n## Retention\n\nInvoices are kept seven years.\n")
    other = tmp_path / "keys.md"
    other.write_text("# Keys\n\nProduction access requires a hardware key.\n")
    assert _run("ingest", str(doc), "--db", db, "--no-embed").exit_code == 0
    assert _run("ingest", str(other), "--db", db, "--no-embed", "--tenant", "ops").exit_code == 0

    early = _run("search", "invoices kept", "--db", db, "--json")
    hits = _lines(early)
    assert hits and all(h["dense_coverage"] == 0.0 for h in hits)
    assert "pincite embed" in early.stderr
    answered = _lines(_run("ask", "How long are invoices kept?", "--db", db, "--json"))
    assert answered[0]["dense_coverage"] == 0.0

    one = _run("embed", "--db", db, "--tenant", "default", "--json")
    assert one.exit_code == 0
    (row,) = _lines(one)
    assert row["tenant"] == "default" and row["dense_coverage"] == 1.0
    assert row["embedded_now"] == row["chunks"] and row["chunks"] > 0
    later = _lines(_run("search", "invoices kept", "--db", db, "--json"))
    assert later and all(h["dense_coverage"] == 1.0 for h in later)
    # Without --tenant every workspace is embedded; what is done stays done.
    rows = {r["tenant"]: r for r in _lines(_run("embed", "--db", db, "--json"))}
    assert rows["default"]["embedded_now"] == 0 and rows["ops"]["dense_coverage"] == 1.0
    again = _run("embed", "--db", db)
    assert again.exit_code == 0 and "nothing to embed" in again.stderr


def test_ingest_embeds_by_default(tmp_path: Path) -> None:
    db = str(tmp_path / "d.db")
    doc = tmp_path / "policy.md"
    doc.write_text("# Policy\n\nInvoices are kept seven years.\n")
    assert _run("ingest", str(doc), "--db", db).exit_code == 0
    hits = _lines(_run("search", "invoices", "--db", db, "--json"))
    assert hits and hits[0]["dense_coverage"] == 1.0


def test_embed_explains_what_it_cannot_do(tmp_path: Path) -> None:
    missing = _run("embed", "--db", str(tmp_path / "nope.db"))
    assert missing.exit_code == 1 and "no pincite store at" in missing.stderr
    assert not (tmp_path / "nope.db").exists()
    lexical = str(tmp_path / "lex.db")
    doc = tmp_path / "a.txt"
    doc.write_text("Some words to index.")
    assert _run("ingest", str(doc), "--db", lexical, "--embedder", "none").exit_code == 0
    refused = _run("embed", "--db", lexical)
    assert refused.exit_code == 1 and "reindex" in refused.stderr
    assert "Traceback" not in refused.stderr
    none = _run("embed", "--db", lexical, "--embedder", "none")
    assert none.exit_code == 1 and "needs an embedder" in none.stderr
