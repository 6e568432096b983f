"""`pincite demo`: the whole product on bundled public documents, offline."""

from __future__ import annotations

import tempfile
import time
from importlib import resources
from pathlib import Path

from rich.console import Console
from rich.text import Text

from pincite._open import open as open_corpus
from pincite.ground.resolve import CitationResolver

TENANT = "demo"
GUIDE_URI = "https://doi.org/10.6028/NIST.SP.800-46"

QUESTIONS = (
    "What should organizations do to protect telework client devices?",
    "What is the boiling point of liquid nitrogen?",
)
# Revision 2 rewords this answer ("re-authenticate", "eight hours"), so its old
# citations show what a superseded version looks like.
OLD_QUESTION = (
    "How often do organizations make teleworkers reauthenticate during long remote access sessions?"
)


def run_demo(console: Console, keep: str | None = None) -> None:
    started = time.perf_counter()
    data = resources.files("pincite") / "demo_data"
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(keep) if keep else Path(tmp) / "demo.db"
        with open_corpus(db) as corpus, resources.as_file(data) as folder:
            console.rule(Text("1. Ingest", style="bold"))
            console.print("NIST SP 800-46 revision 1 (2009), and RFC 7230:")
            # rfc7230.pdf declares its title with "(" and ")" mis-encoded; ingest
            # reads them as its cover prints them (``ingest.pdftitle``).
            for name, uri in (("SP800-46r1.pdf", GUIDE_URI), ("rfc7230.pdf", None)):
                r = corpus.ingest_path(folder / name, tenant=TENANT, uri=uri)
                console.print(
                    f"  {r.status.value:<8} {name}: document {r.document_id}, "
                    f"version {r.hash16}, {r.chunks} chunks"
                )

            console.rule(Text("2. An answer given while revision 1 was current", style="bold"))
            console.print(f"Q: {OLD_QUESTION}\n")
            old = corpus.ask(OLD_QUESTION, tenant=TENANT)
            console.print(corpus.render(old))

            console.print("\nRevision 2 (2016) is published under the same uri:")
            r = corpus.ingest_path(folder / "SP800-46r2.pdf", tenant=TENANT, uri=GUIDE_URI)
            console.print(
                f"  {r.status.value:<8} SP800-46r2.pdf: document {r.document_id}, "
                f"version {r.hash16}, {r.chunks} chunks"
            )

            for n, question in enumerate(QUESTIONS, start=3):
                console.rule(Text(f"{n}. Ask", style="bold"))
                console.print(f"Q: {question}\n")
                result = corpus.ask(question, tenant=TENANT)
                console.print(corpus.render(result))
                console.print(f"\n(generator calls: {result.generator_calls})")

            console.rule(Text("5. The old answer's citations, resolved today", style="bold"))
            resolver = CitationResolver(corpus.store)
            if old.answer is not None:
                for c in old.answer.citations:
                    res = resolver.resolve(c)
                    state = "superseded version" if res.superseded else "current version"
                    console.print(
                        f"{c.evidence_id}\n  status {res.status.value}, {state}"
                        + (f" (current is {res.current_hash16})" if res.superseded else "")
                    )
                    console.print(f"  “{' '.join((res.text or '').split())[:300]}”")
            else:
                console.print("(the earlier question was refused, so there is nothing to resolve)")
    console.rule()
    console.print(
        f"done in {time.perf_counter() - started:.1f} s"
        + (f"; database kept at {keep}" if keep else "")
    )
