"""An acronym list's line answers what its acronym stands for: NIST guides and FIPS
spell acronyms out one to a line in their front or back matter, a layout the
answerer read as headings and never quoted."""

from __future__ import annotations

import pytest
from extractive_helpers import answered as claims_of
from extractive_helpers import passage

from pincite.generate.acronym_list import spelled_out
from pincite.generate.extractive import ExtractiveGenerator

# As FIPS 200's appendix C and SP 800-46 Revision 1's appendix extract from the PDFs.
APPENDIX = (
    "APPENDIX C ACRONYMS\n\n"
    "CAN Controller Area Network\n\n"
    "CIO Chief Information Officer\n\n"
    "CNSS Committee for National Security Systems\n\n"
    "FIPS Federal Information Processing Standards\n\n"
    "IT Information Technology\n\n"
    "NIST National Institute of Standards and Technology\n"
)
BACK_MATTER = (
    "Appendix C—Acronyms and Abbreviations\n\n"
    "MITM Man-in-the-Middle\n"
    "PC Personal Computer\n"
    "PDA Personal Digital Assistant\n"
    "PII Personally Identifiable Information\n"
)


def answered(question: str, *texts: str) -> list[str]:
    return claims_of(question, *texts, section=("Acronyms",))


@pytest.mark.parametrize(
    ("question", "text", "line"),
    [
        ("What does CNSS stand for?", APPENDIX, "CNSS Committee for National Security Systems"),
        # Typed in lower case, after the document's own name and number.
        (
            "fips 200 acronym list - what is cnss short for",
            APPENDIX,
            "CNSS Committee for National Security Systems",
        ),
        (
            "The guide keeps talking about PDAs. What does PDA stand for in its acronym list?",
            BACK_MATTER,
            "PDA Personal Digital Assistant",
        ),
        (
            "mitm in the telework guide - what is it short for?",
            BACK_MATTER,
            "MITM Man-in-the-Middle",
        ),
        # "Can" opens the question; it names no CAN.
        (
            "Can you spell out what FIPS stands for?",
            APPENDIX,
            "FIPS Federal Information Processing Standards",
        ),
    ],
)
def test_the_line_spelling_the_acronym_out_answers(question: str, text: str, line: str) -> None:
    assert answered(question, text) == [line]


def test_an_acronym_the_list_does_not_spell_out_is_refused() -> None:
    assert answered("What does HSM stand for?", APPENDIX) == []
    # "it" is no IT: a two-letter acronym counts only as written.
    assert answered("what does it stand for?", APPENDIX) == []


def test_a_question_that_asks_no_expansion_quotes_no_entry() -> None:
    assert answered("Which office does the CIO run?", APPENDIX) == []
    # What NIST is, is said elsewhere: the list's line would only repeat its name.
    assert answered("What is NIST?", APPENDIX) == []
    # Spelled out already, the acronym asks for more than its letters.
    body = (
        "Just as a VDI solution delivers a secure virtual desktop to a telework PC, so "
        "does VMI deliver a secure virtual mobile device environment to a telework "
        "mobile device."
    )
    listed = "VDI Virtual Desktop Infrastructure\nVMI Virtual Mobile Infrastructure\n"
    question = "What is virtual mobile infrastructure (VMI) and what does it provide?"
    given = [passage(1, body), passage(2, listed)]
    texts = [c.text for c in ExtractiveGenerator().rank_sentences(question, given)]
    assert texts and texts[0].startswith("Just as a VDI solution")
    assert "VMI Virtual Mobile Infrastructure" not in texts
    # A document named by an acronym and its number is not what is asked about.
    asked = "FIPS 200 takes definitions from CNSS Instruction 4009. What is that document?"
    assert answered(asked, APPENDIX) == []


def test_a_heading_that_reads_like_an_entry_but_stands_alone_is_no_entry() -> None:
    section = (
        "TLS Termination Strategies\n\n"
        "Terminate client connections at the load balancer and re-encrypt to the "
        "backends.\n"
    )
    question = "What does TLS stand for?"
    texts = [c.text for c in ExtractiveGenerator().rank_sentences(question, [passage(1, section)])]
    assert "TLS Termination Strategies" not in texts


@pytest.mark.parametrize(
    ("acronym", "expansion", "spells"),
    [
        ("CNSS", "Committee for National Security Systems", True),
        ("IPsec", "Internet Protocol Security", True),
        ("VoIP", "Voice over Internet Protocol", True),
        ("MITM", "Man-in-the-Middle", True),
        # Two of three capitals open its words.
        ("DMZ", "Demilitarized Zone", True),
        ("SSH", "Secure Shell", True),
        ("TLS", "Configuration Guide", False),
        ("HTTP", "Caching Overview", False),
        ("A", "Access", False),
    ],
)
def test_an_expansion_opens_its_words_with_the_acronym_s_capitals(
    acronym: str, expansion: str, spells: bool
) -> None:
    assert spelled_out(acronym, expansion) is spells
