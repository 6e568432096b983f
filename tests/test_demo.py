"""`pincite demo`, the quick start's first command, run for real as a user would."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pincite
from pincite.ids import ChunkRef, SpanRef, decode


def test_the_demo_answers_refuses_and_resolves_an_old_citation(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    command = Path(sys.executable).with_name("pincite")
    done = subprocess.run(
        [str(command), "demo", "--keep", str(db)],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"},
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Traceback" not in out + done.stderr

    # Revision 2 lands under the same document as revision 1, as a new version.
    [r1] = re.findall(r"new +SP800-46r1\.pdf: document (\S+), version ([0-9a-f]{16})", out)
    [r2] = re.findall(r"updated +SP800-46r2\.pdf: document (\S+), version ([0-9a-f]{16})", out)
    assert r1[0].rstrip(",") == r2[0].rstrip(",") and r1[1] != r2[1]

    step2, step3, step4, step5 = re.split(r"─+ [2345]\. ", out)[1:5]
    # The answers carry checked support and cite the exact version they came from.
    # Revision 1's own sentence answers: the limits it states, quoted and cited.
    assert "after each 8 hours of a session or after 30 minutes of idle time" in step2
    assert "{support: supported" in step2
    assert f"version {r1[1]}" in step2
    assert "{support: supported" in step3 and f"version {r2[1]}" in step3
    assert "{support: unsupported" not in out
    # A question the documents cannot answer is refused, never answered.
    assert "do not answer this question" in step4 and "Sources:" not in step4
    # The file's own title, its mis-encoded parentheses read as the cover prints them.
    assert "RFC 7230 - Hypertext Transfer Protocol (HTTP/1.1)" in step4
    # The old answer's citations still resolve, to revision 1, marked superseded.
    old_ids = re.findall(r"^(ev1:\S+)$", step5, flags=re.MULTILINE)
    assert old_ids and step5.count(f"superseded version (current is {r2[1]})") == len(old_ids)

    with pincite.open(db, embedder=None) as corpus:
        for evidence_id in old_ids:
            ref = decode(evidence_id)
            assert isinstance(ref, SpanRef | ChunkRef) and ref.hash16 == r1[1]
            [outcome] = corpus.fetch([evidence_id], tenant="demo")
            assert outcome.status.value == "ok" and outcome.text
            assert " ".join(outcome.text.split())[:80] in " ".join(step5.split())
