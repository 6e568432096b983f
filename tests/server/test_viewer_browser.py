"""The evidence viewer in a real headless browser: Debian's chromium driven by Playwright.

Needs `apt-get install -y chromium` (never `playwright install`); skipped when
/usr/bin/chromium is absent.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from live_server_process import LiveServer

pytestmark = pytest.mark.integration

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
OUTPUT = Path(__file__).resolve().parents[2] / "test-output"
CITED = "Backups of the billing database are encrypted with AES-256 & kept <offsite> for 90 days."


def _filler(topic: str, n: int) -> str:
    return "\n\n".join(
        f"Paragraph {i} on {topic}: the committee reviewed the matter and recorded its "
        "decision in the minutes, noting the owners and the dates agreed for follow-up."
        for i in range(n)
    )


# CI installs chromium (.ci/run), so there a missing browser fails instead of skipping.
@pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("CI"),
    reason="needs Debian's chromium at /usr/bin/chromium (apt-get install -y chromium)",
)
def test_view_link_highlights_exactly_the_cited_text(live_server: LiveServer) -> None:
    from playwright.sync_api import sync_playwright

    text = f"{_filler('travel', 30)}\n\n{CITED}\n\n{_filler('catering', 30)}"
    with live_server.client("alpha") as client:
        r = client.post(
            "/v1/documents",
            json={"text": text, "uri": "https://alpha.example/backups", "title": "Backup <policy>"},
        )
        document_id, hash16 = r.json()["document_id"], r.json()["hash16"]
        start = text.index(CITED)  # plain text: the canonical text is the text as sent
        span_id = f"ev1:s:{document_id}:{hash16}:{start}-{start + len(CITED)}"
        assert client.get(f"/v1/evidence/{span_id}").json()["text"] == CITED
        view_url = client.post("/v1/citations/resolve", json={"evidence_id": span_id}).json()[
            "view_url"
        ]

    OUTPUT.mkdir(exist_ok=True)
    screenshot = OUTPUT / "viewer-cited.png"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 700})
            first = page.goto(view_url)
            assert first is not None and first.status == 401
            assert "Access to this evidence is limited" in page.content()
            assert "Backup" not in page.content() and "AES" not in page.content()
            assert page.locator("mark").count() == 0

            page.fill("input[name=key]", "pk_wrong")
            page.click("button[type=submit]")
            assert "That key was not accepted" in page.content()
            page.fill("input[name=key]", live_server.keys["alpha"])
            page.click("button[type=submit]")
            page.wait_for_url(view_url)

            mark = page.locator("mark#cited")
            assert mark.count() == 1
            assert mark.text_content() == CITED
            top, bottom, height, scrolled = page.evaluate(
                "() => { const r = document.getElementById('cited').getBoundingClientRect();"
                " return [r.top, r.bottom, window.innerHeight, window.scrollY]; }"
            )
            assert scrolled > 0  # it started below the fold and was scrolled to
            assert top >= 0 and bottom <= height
            assert page.locator("h1").text_content() == "Backup <policy>"
            link = page.locator("dd a")
            assert link.get_attribute("href") == "https://alpha.example/backups"
            page.screenshot(path=str(screenshot))
        finally:
            browser.close()
    assert screenshot.stat().st_size > 0
    print(f"viewer screenshot: {screenshot}")
