"""The CLI as a newcomer uses it, on a real SQLite file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner

from pincite.cli.app import cli

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.fixture
def run(tmp_path: Path):  # type: ignore[no-untyped-def]
    db = str(tmp_path / "cli.db")
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
        return runner.invoke(
            cli,
            [*args, "--db", db] if args[0] not in ("check",) else list(args),
            input=input,
            catch_exceptions=False,
        )

    return invoke


@pytest.fixture
def files(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / "policy.md").write_text(
        "# Policy\n\n## Retention\n\nInvoices are kept seven years.\n"
    )
    (folder / "sub" / "page.html").write_text(
        "<html><head><title>Keys</title></head><body><h1>Access</h1>"
        "<p>Production access requires a hardware key.</p></body></html>"
    )
    (folder / "empty.txt").write_text("")
    (folder / "latin1.txt").write_bytes("Caf\xe9 opening hours are 9 to 5.".encode("latin-1"))
    (folder / "broken.pdf").write_bytes(b"this is not a pdf")
    return folder


def test_directory_ingest_reports_each_file_and_survives_bad_ones(run, files: Path) -> None:  # type: ignore[no-untyped-def]
    result = run("ingest", str(files), "--embedder", "none", "--json")
    assert result.exit_code == 1
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    by_name = {Path(r["source"]).name: r for r in rows}
    assert by_name["policy.md"]["status"] == "new" and by_name["page.html"]["status"] == "new"
    assert by_name["empty.txt"]["status"] == "failed" and "empty" in by_name["empty.txt"]["error"]
    assert (
        by_name["broken.pdf"]["status"] == "failed"
        and "broken.pdf" in by_name["broken.pdf"]["error"]
    )
    assert by_name["latin1.txt"]["status"] == "new" and by_name["latin1.txt"]["warnings"]
    for r in rows:
        if r["status"] == "new":
            assert uuid.UUID(r["document_id"]) and len(r["hash16"]) == 16
    again = run("ingest", str(files / "policy.md"), "--embedder", "none")
    assert again.exit_code == 0 and again.stdout.startswith("unchanged")


def test_bad_input_is_one_line_not_a_traceback(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    odd = tmp_path / "notes.xyz"
    odd.write_text("hello")
    result = run("ingest", str(odd), "--embedder", "none")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "notes.xyz" in result.stderr and "extension" in result.stderr
    missing = run("ingest", str(tmp_path / "nope.txt"), "--embedder", "none")
    assert missing.exit_code == 1 and "no such file" in missing.stderr


def test_show_fetch_check_round_trip(run, files: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    [row] = [
        json.loads(x)
        for x in run(
            "ingest", str(files / "policy.md"), "--embedder", "none", "--json"
        ).stdout.splitlines()
    ]
    shown = json.loads(run("show", row["document_id"], "--json").stdout)
    [version] = shown["versions"]
    assert version["hash16"] == row["hash16"] and not version["superseded"]
    chunk = version["chunks"][0]
    assert chunk["section"][:1] == ["Policy"]
    ledger = tmp_path / "ledger.json"
    fetched = run("fetch", chunk["evidence_id"], "--json", "--ledger", str(ledger))
    out = json.loads(fetched.stdout)
    assert out["status"] == "ok" and "seven years" in out["text"] and out["superseded"] is False
    answer = tmp_path / "answer.txt"
    fake = f"ev1:c:{uuid.uuid4()}:{'0' * 16}:{uuid.uuid4()}"
    answer.write_text(f"Kept seven years ({chunk['evidence_id']}). Also ({fake}).")
    checked = run("check", str(answer), "--ledger", str(ledger), "--json")
    verdicts = {json.loads(x)["id"]: json.loads(x)["verdict"] for x in checked.stdout.splitlines()}
    assert verdicts == {chunk["evidence_id"]: "valid", fake: "unfetched"}
    assert checked.exit_code == 1
    bad = run("fetch", "ev1:c:NOT-CANONICAL", "--json")
    assert bad.exit_code == 1 and json.loads(bad.stdout)["status"] == "malformed"


def test_lifecycle_commands(run, files: Path) -> None:  # type: ignore[no-untyped-def]
    [row] = [
        json.loads(x)
        for x in run(
            "ingest", str(files / "policy.md"), "--embedder", "none", "--json"
        ).stdout.splitlines()
    ]
    doc = row["document_id"]
    eid = json.loads(run("show", doc, "--json").stdout)["versions"][0]["chunks"][0]["evidence_id"]
    [page] = [
        json.loads(x)
        for x in run(
            "ingest", str(files / "sub" / "page.html"), "--embedder", "none", "--json"
        ).stdout.splitlines()
    ]
    other_doc = page["document_id"]
    other = json.loads(run("show", other_doc, "--json").stdout)["versions"][0]["chunks"][0]
    assert run("erase", doc, "--chunk", eid.rsplit(":", 1)[1]).exit_code == 0
    assert json.loads(run("fetch", eid, "--json").stdout)["status"] == "erased"
    assert run("delete", doc).exit_code == 0
    assert run("delete", other_doc).exit_code == 0
    # An erasure stays visible to an audit after its document is deleted.
    assert json.loads(run("fetch", eid, "--json").stdout)["status"] == "erased"
    assert json.loads(run("fetch", other["evidence_id"], "--json").stdout)["status"] == "deleted"
    assert run("purge", doc).exit_code == 0
    assert json.loads(run("fetch", eid, "--json").stdout)["status"] == "not_found"
    gone = run("show", doc)
    assert gone.exit_code == 1 and "not found" in gone.stderr


def test_search_with_fts_syntax_in_the_question(run, files: Path) -> None:  # type: ignore[no-untyped-def]
    run("ingest", str(files / "policy.md"), "--embedder", "none")
    result = run("search", '"AND" OR NEAR(invoices kept) *:^ seven', "--mode", "lexical", "--json")
    assert result.exit_code == 0
    [hit, *_] = [json.loads(x) for x in result.stdout.splitlines()]
    assert "seven years" in hit["text"] and hit["branches"]["lexical_rank"] == 1


def test_other_tenant_sees_nothing(run, files: Path) -> None:  # type: ignore[no-untyped-def]
    [row] = [
        json.loads(x)
        for x in run(
            "ingest", str(files / "policy.md"), "--embedder", "none", "--json", "--tenant", "acme"
        ).stdout.splitlines()
    ]
    eid = json.loads(run("show", row["document_id"], "--json", "--tenant", "acme").stdout)[
        "versions"
    ][0]["chunks"][0]["evidence_id"]
    assert (
        json.loads(run("fetch", eid, "--json", "--tenant", "globex").stdout)["status"]
        == "not_found"
    )
    foreign = run("show", row["document_id"], "--tenant", "globex")
    missing = run("show", str(uuid.uuid4()), "--tenant", "globex")
    assert foreign.exit_code == missing.exit_code == 1
    assert (
        foreign.stderr.replace(row["document_id"], "X").split(":")[1]
        == missing.stderr.split(":")[1]
    )


def test_every_command_is_documented_in_the_readme() -> None:
    readme = README.read_text()
    for name in cli.commands:  # type: ignore[attr-defined]
        assert f"pincite {name}" in readme, name


def test_verify_catches_a_claim_its_source_contradicts(run, files: Path) -> None:  # type: ignore[no-untyped-def]
    [row] = [
        json.loads(x)
        for x in run(
            "ingest", str(files / "policy.md"), "--embedder", "none", "--json"
        ).stdout.splitlines()
    ]
    eid = json.loads(run("show", row["document_id"], "--json").stdout)["versions"][0]["chunks"][0][
        "evidence_id"
    ]
    good = run(
        "verify", "--claim", "Invoices are kept seven years.", eid, "--embedder", "none", "--json"
    )
    bad = run(
        "verify", "--claim", "Invoices are kept three years.", eid, "--embedder", "none", "--json"
    )
    assert good.exit_code == 0 and json.loads(good.stdout)["verdict"] == "supported"
    sid = json.loads(good.stdout)["sentence_ids"][0]
    assert (
        json.loads(run("fetch", sid, "--json").stdout)["text"] == "Invoices are kept seven years."
    )
    assert bad.exit_code == 1 and json.loads(bad.stdout)["verdict"] == "unsupported"


@pytest.mark.parametrize(
    "args",
    [
        [b"search", b"inv\xffoices"],  # reached the tokenizer as a lone surrogate: a traceback
        [b"ask", b"inv\xffoices"],
        [b"search", b"invoices", b"--tenant", b"t\xff"],
        [b"fetch", b"ev1:\xff"],
    ],
)
def test_undecodable_argv_bytes_get_a_one_line_error(files: Path, args: list[bytes]) -> None:
    db = files.parent / "argv.db"
    pincite_cli = [sys.executable, "-m", "pincite.cli"]
    ingest = [*pincite_cli, "ingest", str(files / "policy.md"), "--db", str(db)]
    subprocess.run(ingest, check=True, capture_output=True, timeout=120)
    run = subprocess.run(
        [*pincite_cli, *args, b"--db", os.fsencode(db)], capture_output=True, timeout=120
    )
    stderr = run.stderr.decode("utf-8", "replace")
    assert run.returncode == 1, stderr
    assert "Traceback" not in stderr
    assert stderr.startswith("error:") and "not valid UTF-8 text" in stderr
    assert len(stderr.strip().splitlines()) == 1


def test_brackets_in_errors_and_passages_are_printed_not_parsed_as_markup(  # type: ignore[no-untyped-def]
    run, tmp_path: Path
) -> None:
    doc = tmp_path / "brackets.txt"
    doc.write_text("Invoices [/draft] are kept [b]seven[/b] years.\n")
    assert run("ingest", str(doc), "--embedder", "none").exit_code == 0
    shown = run("show", "[/bad]")  # rich read "[/bad]" as a closing tag: a traceback
    assert shown.exit_code == 1 and "[/bad]" in shown.stderr
    found = run("search", "invoices", "--mode", "lexical")
    assert found.exit_code == 0 and "Invoices [/draft] are kept [b]seven[/b] years." in found.stdout


def test_bracketed_text_is_printed_not_read_as_markup(run, files: Path) -> None:  # type: ignore[no-untyped-def]
    # rich reads "[/x]" as a closing tag; printed user input must never be markup.
    run("ingest", str(files / "policy.md"), "--embedder", "none")
    fetched = run("fetch", "[/x]")
    assert fetched.exit_code == 1 and "[/x]" in fetched.stdout and "Traceback" not in fetched.output
    (files / "[bold]odd[x].txt").write_bytes(b"")
    failed = run("ingest", str(files / "[bold]odd[x].txt"), "--embedder", "none")
    assert failed.exit_code == 1 and "[bold]odd[x].txt" in failed.stderr


def test_search_without_an_embedder_defaults_to_lexical(run, files: Path) -> None:  # type: ignore[no-untyped-def]
    run("ingest", str(files / "policy.md"), "--embedder", "none")
    found = run("search", "invoices", "--embedder", "none", "--json")
    assert found.exit_code == 0, found.output
    [hit] = [json.loads(x) for x in found.stdout.splitlines()]
    assert hit["branches"]["lexical_rank"] == 1 and hit["branches"]["dense_rank"] is None


@pytest.mark.parametrize(
    "args",
    [
        ("ask", "What is kept?"),
        ("search", "kept"),
        ("documents",),
        ("threshold",),
        ("erase", "doc-1"),
        ("fetch", "ev1:s:doc-1:0123456789abcdef:0-5"),
    ],
)
def test_a_command_that_reads_a_mistyped_store_says_so_and_creates_nothing(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    # Asking in a mistyped path once left an empty store behind and refused every
    # question as though the documents did not say.
    db = tmp_path / "typo.db"
    result = CliRunner().invoke(cli, [*args, "--db", str(db)], catch_exceptions=False)
    assert result.exit_code == 1, result.output
    assert f"no pincite store at {db}" in result.stderr and "pincite ingest" in result.stderr
    assert not db.exists()


def test_ingest_creates_the_store_and_then_it_answers(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    doc = tmp_path / "policy.txt"
    doc.write_text("Invoices are kept for seven years.\n")
    runner = CliRunner()
    ingested = runner.invoke(cli, ["ingest", str(doc), "--embedder", "none", "--db", str(db)])
    assert ingested.exit_code == 0, ingested.output
    assert db.exists()
    asked = runner.invoke(
        cli, ["ask", "How many years are invoices kept?", "--embedder", "none", "--db", str(db)]
    )
    assert asked.exit_code == 0, asked.output
    assert "seven years" in asked.stdout
