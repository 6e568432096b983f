"""The text a document is routed by: its title, headings, opening and key words."""

from __future__ import annotations

from pincite.ingest.chunk import chunk
from pincite.ingest.parse import parse_bytes
from pincite.model import Chunk
from pincite.retrieve.route import routing_text

FAQ = (
    "# Expenses policy\n\n## Definitions\n\n" + "Words defined here. " * 8 + "\n\n"
    "## Questions\n\n### Can I claim for travel insurance?\n\n"
    "No. The company policy covers all business travel, so your own insurance is not paid.\n\n"
    "### Who do I contact?\n\nEmail the finance team with your claim number.\n"
)


def test_routing_names_a_short_markdown_section_joined_to_the_next() -> None:
    doc = parse_bytes(FAQ.encode(), "expenses.md")
    chunks = [
        Chunk(f"c{d.ordinal}", "t", "d", "h" * 64, d.ordinal, d.start, d.end,
              FAQ[d.start : d.end], "", section=d.section)
        for d in chunk(doc)
    ]  # fmt: skip
    # The chunk holding both questions is in "Questions" only (its section as a whole) ...
    assert ("Expenses policy", "Questions") in [c.section for c in chunks]
    headings = routing_text("Expenses policy", chunks).split("\n")[1].split("; ")
    # ... but the question it opens with still names the document for routing.
    assert "Can I claim for travel insurance?" in headings
    assert headings[:3] == ["Expenses policy", "Questions", "Can I claim for travel insurance?"]
