"""The web workspace in a real headless browser: Debian's chromium driven by Playwright.

One `pincite serve` process and one browser for the module. Needs
`apt-get install -y chromium` (never `playwright install`); skipped when
/usr/bin/chromium is absent. Screenshots go under pytest's tmp path and their
paths are printed (`pytest -s` shows them).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live_server_process import LiveServer, running_server

pytestmark = [
    pytest.mark.integration,
    # CI installs chromium (.ci/run), so there a missing browser fails instead of skipping.
    pytest.mark.skipif(
        not Path("/usr/bin/chromium").exists() and not os.environ.get("CI"),
        reason="needs Debian's chromium at /usr/bin/chromium (apt-get install -y chromium)",
    ),
]

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
CITED = "Backups of the billing database are encrypted with AES-256 and kept offsite for 90 days."
HOSTILE_TITLE = "<img src=x onerror=alert('title')><script>alert('title')</script>"
HOSTILE_TEXT = (
    "Treasury notes.\n\n"
    "The treasurer reviews every payment within five days of receipt "
    "<img src=x onerror=alert('text')>.\n\n"
    "Payments to the treasurer are due monthly by bank transfer "
    "<script>alert('text')</script> <svg onload=alert('svg')>.\n\n"
    "<b onmouseover=alert('b')>Late payments</b> incur a fee of two percent.\n"
)
INJECTED = (
    "() => document.querySelectorAll('img, svg, b, script:not([src]), [onerror], [onload]').length"
)


def _filler(topic: str, n: int) -> str:
    return "\n\n".join(
        f"Paragraph {i} on {topic}: the committee reviewed the matter and recorded its "
        "decision in the minutes, noting the owners and the dates agreed for follow-up."
        for i in range(n)
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with running_server(tmp_path_factory.mktemp("workspace")) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def _open(  # type: ignore[no-untyped-def]
    browser: Any,
    server: LiveServer,
    tenant: str,
    width: int = 1280,
    height: int = 800,
    accept: bool = False,
):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.accept() if accept else d.dismiss()))
    page.goto(server.base_url + "/")
    page.wait_for_selector("#signin:not([hidden])")
    page.fill("#key", server.keys[tenant])
    page.press("#key", "Enter")
    page.wait_for_selector("#main:not([hidden])")
    return context, page, dialogs


def _ask(page: Any, question: str) -> Any:
    page.click("#tab-chat")
    turns = page.locator("#thread > li").count()
    page.fill("#question", question)
    page.click("#ask-button")
    turn = page.locator("#thread > li").nth(turns)
    turn.locator(".answer, .refusal, .error").wait_for()
    return turn


def _until(page: Any, predicate: str, arg: object = None, seconds: float = 30) -> None:
    """Poll ``predicate`` (the page's CSP forbids the eval behind ``wait_for_function``)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(predicate, arg):
        assert time.monotonic() < deadline, f"timed out waiting for {predicate}"
        page.wait_for_timeout(50)


def _exact(server: LiveServer, tenant: str, evidence_id: str) -> str:
    with server.client(tenant) as client:
        outcome = client.get(f"/v1/evidence/{evidence_id}").json()
    assert outcome["status"] == "ok", outcome
    text: str = outcome["text"]
    return text


def _check_passage(page: Any, server: LiveServer, tenant: str, button: Any) -> str:
    """Open a citation; the mark holds exactly the cited text and sits in view."""
    evidence_id = button.get_attribute("data-evidence")
    button.click()
    mark = page.locator("#passage:not([hidden]) mark#cited")
    mark.wait_for()
    _until(page, "id => document.querySelector('#passage').dataset.shown === id", evidence_id)
    assert mark.text_content() == _exact(server, tenant, evidence_id)
    top, bottom, height = page.evaluate(
        "() => { const r = document.getElementById('cited').getBoundingClientRect();"
        " return [r.top, r.bottom, window.innerHeight]; }"
    )
    assert top >= 0 and bottom <= height
    return str(evidence_id)


def _shot(page: Any, out: Path, name: str) -> Path:
    path = out / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    assert path.stat().st_size > 0
    print(f"workspace screenshot: {path}")
    return path


def test_sign_in_upload_ask_cite_studio_and_isolation(
    server: LiveServer, browser: Any, tmp_path: Path
) -> None:
    files = tmp_path / "files"
    files.mkdir()
    (files / "backups.md").write_text(
        f"# Backups\n\n{_filler('travel', 25)}\n\n{CITED}\n\n{_filler('catering', 25)}\n"
    )
    (files / "restores.txt").write_text(
        "Restores are rehearsed every quarter by the operations team on a spare host.\n\n"
        "A restore that fails the rehearsal is reported to the security officer the same day.\n"
    )
    (files / "notes.docx").write_bytes(b"PK\x03\x04 not supported")
    context, page, dialogs = _open(browser, server, "alpha")
    try:
        page.click("#tab-docs")
        page.set_input_files("#files", [str(p) for p in sorted(files.iterdir())])
        _until(page, "() => document.querySelectorAll('#uploads li.done').length === 2")
        failed = page.locator("#uploads li.failed")
        assert failed.count() == 1 and "notes.docx" in (failed.text_content() or "")
        assert "file name ending in one of" in (failed.text_content() or "")
        _until(page, "() => document.querySelectorAll('#documents > li').length === 2")
        _shot(page, tmp_path, "desktop-documents")

        unlabelled = page.evaluate(
            "() => [...document.querySelectorAll('input, select, textarea')]"
            ".filter(e => e.labels.length === 0).map(e => e.id)"
        )
        assert unlabelled == []
        turn = _ask(page, "How long are billing database backups kept offsite?")
        cites = turn.locator(".claims button.cite")
        assert cites.count() >= 1
        # By keyboard: focus the first citation, Enter opens the passage, Escape
        # closes it and gives focus back to the citation.
        cites.first.focus()
        page.keyboard.press("Enter")
        page.locator("#passage:not([hidden]) mark#cited").wait_for()
        page.keyboard.press("Escape")
        assert page.locator("#passage").is_hidden()
        assert page.evaluate("() => document.activeElement.classList.contains('cite')")
        assert turn.locator(".verdict").count() >= 1
        shown = [_check_passage(page, server, "alpha", cites.nth(i)) for i in range(cites.count())]
        assert any(CITED in _exact(server, "alpha", e) for e in shown)
        _shot(page, tmp_path, "desktop-chat-passage")
        page.keyboard.press("Escape")
        assert page.locator("#passage").is_hidden()

        # A follow-up that only makes sense in context ("they" = the backups).
        follow = _ask(page, "Are they encrypted?")
        cites = follow.locator(".claims button.cite")
        assert cites.count() >= 1
        shown = [_check_passage(page, server, "alpha", cites.nth(i)) for i in range(cites.count())]
        assert any("encrypted with AES-256" in _exact(server, "alpha", e) for e in shown)
        assert page.locator("#thread > li").count() == 2
        # The conversation is stored: a fresh thread, then resumed from the list.
        page.click("#new-chat")
        assert page.locator("#thread > li").count() == 0
        page.select_option("#conversations", index=1)
        _until(page, "() => document.querySelectorAll('#thread > li .answer').length === 2")
        refusal = _ask(page, "Which volcano erupted in Iceland in 1783?")
        assert refusal.locator(".refusal").count() == 1
        assert "No answer" in (refusal.text_content() or "")
        assert "Searched" in (refusal.text_content() or "")

        page.click("#tab-studio")
        labels = page.eval_on_selector_all("#studio-doc option", "os => os.map(o => o.label)")
        page.select_option("#studio-doc", label=next(t for t in labels if "ackup" in t))
        page.select_option("#studio-action", "summary")
        page.click("#studio-form button[type=submit]")
        items = page.locator(".studio-item")
        items.first.wait_for()
        for i in range(items.count()):
            button = items.nth(i).locator("button.cite")
            assert button.count() == 1
            cited = _exact(server, "alpha", _check_passage(page, server, "alpha", button))
            assert cited in (items.nth(i).text_content() or "")
        _shot(page, tmp_path, "desktop-studio")

        # A new version of the document: the old citation says superseded and the
        # current version's passage is one click away.
        backups = next(e for e in shown if CITED in _exact(server, "alpha", e))
        document_id = backups.split(":")[2]
        new_text = "# Backups\n\nA preface added in the new version.\n\n" + CITED + "\n"
        with server.client("alpha") as client:
            r = client.put(f"/v1/documents/{document_id}", json={"text": new_text, "format": "md"})
            assert r.status_code in (200, 201), r.text
        page.click("#tab-chat")
        old = page.locator(f"#thread button.cite[data-evidence='{backups}']").first
        _check_passage(page, server, "alpha", old)
        label = page.locator("#passage-label")
        assert label.is_visible() and "Superseded" in (label.text_content() or "")
        label.locator("button").click()
        _until(page, "old => document.querySelector('#passage').dataset.shown !== old", backups)
        assert page.locator("mark#cited").text_content() == CITED
        assert page.locator("#passage-label").is_hidden()
        _shot(page, tmp_path, "desktop-current-version")
        assert dialogs == []
    finally:
        context.close()

    phone, page, _ = _open(browser, server, "alpha", width=390, height=844)
    try:
        for tab in ("docs", "chat", "studio"):
            page.click(f"#tab-{tab}")
            assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
            _shot(page, tmp_path, f"phone-{tab}")
        page.click("#tab-chat")
        page.select_option("#conversations", index=1)
        _until(page, "() => document.querySelectorAll('#thread > li .answer').length === 2")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        _shot(page, tmp_path, "phone-chat-resumed")
        _check_passage(page, server, "alpha", page.locator(".claims button.cite").first)
        _shot(page, tmp_path, "phone-passage")
    finally:
        phone.close()

    # Another workspace's key sees none of it: documents, studio, answers, passages.
    other, page, _ = _open(browser, server, "beta")
    try:
        page.click("#tab-docs")
        page.wait_for_selector("#docs-empty:not([hidden])")
        assert page.locator("#documents > li").count() == 0
        assert page.locator("#studio-doc option").count() == 0
        assert page.locator("#thread > li").count() == 0
        assert page.locator("#conversations option").count() == 1  # only "New conversation"
        turn = _ask(page, "How long are billing database backups kept offsite?")
        assert turn.locator(".refusal").count() == 1
        status = page.evaluate(
            "id => fetch('ui/v1/evidence/' + encodeURIComponent(id) + '/context')"
            ".then(r => r.status)",
            shown[0],
        )
        assert status == 404
    finally:
        other.close()


def test_hostile_titles_and_text_render_inert_everywhere(
    server: LiveServer, browser: Any, tmp_path: Path
) -> None:
    with server.client("gamma") as client:
        r = client.post(
            "/v1/documents",
            json={"text": HOSTILE_TEXT, "uri": "javascript:alert('uri')", "title": HOSTILE_TITLE},
        )
        assert r.status_code == 201, r.text
    context, page, dialogs = _open(browser, server, "gamma")
    try:
        page.click("#tab-docs")
        title = page.locator("#documents .doc-title")
        title.wait_for()
        assert title.text_content() == HOSTILE_TITLE
        assert page.locator("#documents a").count() == 0  # a javascript: URI is never a link
        assert page.evaluate(INJECTED) == 0

        turn = _ask(page, "Who reviews every payment?")
        cites = turn.locator(".claims button.cite")
        assert cites.count() >= 1
        _check_passage(page, server, "gamma", cites.first)
        assert "onerror=alert('text')" in (turn.locator(".claims").text_content() or "")
        assert "<script>" in (page.locator("#passage-text").text_content() or "")
        assert page.locator("#passage-title").text_content() == HOSTILE_TITLE
        assert page.evaluate(INJECTED) == 0

        page.click("#tab-studio")
        page.select_option("#studio-doc", index=0)
        page.click("#studio-form button[type=submit]")
        page.locator(".studio-item").first.wait_for()
        assert HOSTILE_TITLE in (page.locator(".studio-result h3").text_content() or "")
        page.hover(".studio-item")
        assert page.evaluate(INJECTED) == 0
        _shot(page, tmp_path, "desktop-hostile-studio")
        page.wait_for_timeout(200)  # a handler that would fire late (img error) has fired by now
        assert dialogs == []
    finally:
        context.close()


def test_delete_and_erase_ask_first_and_take_effect(server: LiveServer, browser: Any) -> None:
    with server.client("gamma") as client:
        ids = {}
        for title in ("Old memo", "Leaked memo"):
            text = f"The {title.lower()} says the office moves to the harbour district in May."
            r = client.post(
                "/v1/documents", json={"text": text, "uri": f"mem:{title}", "title": title}
            )
            ids[title] = r.json()["document_id"]
        chunk = client.get(f"/v1/documents/{ids['Leaked memo']}/versions").json()[0]["chunks"][0]
    # Dismissed: nothing happens.
    context, page, dialogs = _open(browser, server, "gamma")
    try:
        page.click("#tab-docs")
        item = page.locator(f"#documents li[data-document='{ids['Old memo']}']")
        item.locator("button", has_text="Delete").click()
        assert dialogs and "Delete “Old memo”?" in dialogs[-1]
        assert "· live" in (item.locator(".doc-meta").text_content() or "")
    finally:
        context.close()
    context, page, dialogs = _open(browser, server, "gamma", accept=True)
    try:
        page.click("#tab-docs")
        item = page.locator(f"#documents li[data-document='{ids['Old memo']}']")
        item.locator("button", has_text="Delete").click()
        _until(
            page,
            "id => document.querySelector(`li[data-document='${id}'] .doc-meta`)"
            ".textContent.endsWith('deleted')",
            ids["Old memo"],
        )
        leaked = page.locator(f"#documents li[data-document='{ids['Leaked memo']}']")
        leaked.locator("button", has_text="Erase").click()
        assert "permanently" in dialogs[-1]
        # Polled with the page still open: closing it could cancel the erase in flight.
        with server.client("gamma") as client:
            deadline = time.monotonic() + 10
            while client.get(f"/v1/evidence/{chunk['evidence_id']}").json()["status"] != "erased":
                assert time.monotonic() < deadline
                time.sleep(0.05)
    finally:
        context.close()
