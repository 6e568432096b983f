"""A document's own designation leads a title lacking it (search and the answerer read titles)."""

from __future__ import annotations

import pytest

import pincite
from pincite.ingest.designation import designation, with_designation

RFC_HEADER = (
    "\n\nNetwork Working Group                                      R. Fielding\n"
    "Request for Comments: 2616                                   UC Irvine\n"
    "Obsoletes: 2068                                              J. Gettys\n"
)
NIST_COVER = (
    "NIST Special Publication 800-46\nRevision 2\nGuide to Enterprise Telework,\n"
    "Remote Access, and Bring Your Own\nDevice (BYOD) Security\n"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (RFC_HEADER, "RFC 2616"),
        (NIST_COVER, "NIST SP 800-46 Revision 2"),
        ("Special Publication 800-145\nThe NIST Definition of Cloud Computing", "NIST SP 800-145"),
        ("FIPS PUB 199\n____\nFEDERAL INFORMATION PROCESSING STANDARDS PUBLICATION", "FIPS 199"),
        ("Travel policy\n\nEmployees book through the portal.", None),
    ],
)
def test_designation_read_from_the_opening(text: str, expected: str | None) -> None:
    assert designation(text) == expected


def test_a_designation_cited_deep_in_the_text_is_not_the_documents_own() -> None:
    text = "Our handbook.\n" + "Body text. " * 200 + "See Request for Comments: 7230."
    assert designation(text) is None


def test_title_lacking_the_number_is_led_by_it() -> None:
    title = "Guide to Enterprise Telework, Remote Access, and Bring Your Own Device (BYOD) Security"
    assert with_designation(title, NIST_COVER) == f"NIST SP 800-46 Revision 2, {title}"
    rfc = "Hypertext Transfer Protocol -- HTTP/1.1"
    assert with_designation(rfc, RFC_HEADER) == f"RFC 2616, {rfc}"


@pytest.mark.parametrize(
    "title",
    [
        "NIST SP 800-46 Revision 2, Guide to Enterprise Telework",
        "RFC 2616 - Hypertext Transfer Protocol",
    ],
)
def test_title_holding_the_designation_is_kept(title: str) -> None:
    text = NIST_COVER if "800-46" in title else RFC_HEADER
    assert with_designation(title, text) == title


def test_another_revision_in_the_title_still_gets_the_documents_own() -> None:
    # "Revision 1" in the title does not name Revision 2, whose cover this is.
    title = "NIST SP 800-46 Revision 1, Guide"
    assert with_designation(title, NIST_COVER) == f"NIST SP 800-46 Revision 2, {title}"


def test_ingest_stores_the_led_title_and_keeps_a_title_the_user_gives(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "rfc.txt"
    path.write_text(
        RFC_HEADER + "\n\n           Hypertext Transfer Protocol -- HTTP/1.1\n\n"
        "1 Introduction\n\n   HTTP is an application-level protocol.\n"
    )
    with pincite.open(tmp_path / "p.db", embedder=None) as corpus:
        corpus.ingest_path(path)
        (doc,) = corpus.documents()
        assert doc.title == "RFC 2616, Hypertext Transfer Protocol -- HTTP/1.1"
        other = tmp_path / "other.txt"
        other.write_text(RFC_HEADER + "\n\nSomething else entirely.\n")
        corpus.ingest_path(other, title="My own title")
        assert {d.title for d in corpus.documents()} >= {"My own title"}


def test_a_document_that_lists_others_is_not_named_by_them() -> None:
    # A provenance table ("| `nist/FIPS199.pdf` | FIPS PUB 199 (February 2004) |") names
    # the documents it lists, not itself.
    text = (
        "# Real long documents\n\n| file | document |\n| --- | --- |\n"
        "| `nist/FIPS199.pdf` | FIPS PUB 199 (February 2004) |\n"
        "| `rfc/rfc2616.txt` | Request for Comments: 2616 |\n"
    )
    assert designation(text) is None


def test_a_sentence_citing_another_document_that_wraps_names_none() -> None:
    # Extracted PDF text wraps sentences: a line may open with a cited designation.
    policy = (
        "This policy follows the guidance in\n"
        "NIST Special Publication 800-46 Revision 2 for telework."
    )
    assert with_designation("Acme Remote Access Policy", policy) == "Acme Remote Access Policy"
    # The cover's own designation comes first, whatever series a later line cites.
    fips = "FIPS PUB 200\n\nMinimum Security Requirements, drawn from\nSpecial Publication 800-53\n"
    assert designation(fips) == "FIPS 200"


def test_a_designation_with_a_third_number_is_read_whole() -> None:
    assert designation("NIST Special Publication 800-63-3\nDigital Identity Guidelines") == (
        "NIST SP 800-63-3"
    )
    title = "NIST SP 800-63-3 Digital Identity Guidelines"
    assert with_designation(title, "NIST Special Publication 800-63-3\n") == title


@pytest.mark.parametrize("title", ["RFC2616 HTTP/1.1", "SP 800-46 Rev. 2, Guide", "   "])
def test_a_title_spelling_the_designation_its_own_way_or_blank_is_kept(title: str) -> None:
    text = NIST_COVER if "800-46" in title or not title.strip() else RFC_HEADER
    assert with_designation(title, text) == title
