// The pincite workspace. Every string from the server (titles, URIs, document
// text, answers) reaches the page through textContent or a text node, never
// through innerHTML, so nothing a document or a model wrote is parsed as markup.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const API = "ui/v1/";

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k === "on") for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  // A link only for web addresses; anything else (javascript:, upload:) is shown as text.
  function uriNode(uri) {
    if (/^https?:\/\//i.test(uri)) {
      return el("a", { href: uri, rel: "noopener noreferrer", target: "_blank", text: uri });
    }
    return el("span", { text: uri });
  }

  async function call(path, method, body, isForm) {
    const init = { method: method || "GET", credentials: "same-origin", headers: {} };
    if (init.method !== "GET") init.headers["X-Pincite-Request"] = "1";
    if (body !== undefined) {
      if (isForm) init.body = body;
      else {
        init.headers["Content-Type"] = "application/json";
        init.body = JSON.stringify(body);
      }
    }
    const response = await fetch(path, init);
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const message = data && data.error ? data.error.message : "HTTP " + response.status;
      const error = new Error(message);
      error.status = response.status;
      throw error;
    }
    return data;
  }
  const api = (path, method, body, isForm) => call(API + path, method, body, isForm);

  // The chat's one seam to the server: a stored conversation, created by the
  // first question; a follow-up is searched in the context of earlier turns.
  const chat = {
    conversation: null,
    async ask(question) {
      if (!this.conversation) {
        const made = await api("conversations", "POST", { title: question.slice(0, 80) });
        this.conversation = made.conversation_id;
        loadConversations();
      }
      return api("conversations/" + encodeURIComponent(this.conversation) + "/turns", "POST",
        { question: question });
    },
    reset() { this.conversation = null; },
  };

  // -- sign in ---------------------------------------------------------------

  function showSignedIn(workspace) {
    $("signin").hidden = true;
    $("main").hidden = false;
    $("signout").hidden = false;
    $("who").textContent = "Workspace: " + workspace;
    loadDocuments();
    loadConversations();
    $("question").focus();
  }

  function showSignIn() {
    $("main").hidden = true;
    $("signout").hidden = true;
    $("passage").hidden = true;
    $("who").textContent = "";
    $("signin").hidden = false;
    $("key").focus();
  }

  $("signin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("signin-error").textContent = "";
    try {
      const me = await call("ui/login", "POST", { key: $("key").value });
      $("key").value = "";
      showSignedIn(me.workspace);
    } catch (e) {
      $("signin-error").textContent = e.message;
    }
  });

  $("signout").addEventListener("click", async () => {
    await call("ui/logout", "POST");
    $("thread").replaceChildren();
    $("documents").replaceChildren();
    $("uploads").replaceChildren();
    $("studio-out").replaceChildren();
    $("conversations").replaceChildren();
    chat.reset();
    showSignIn();
  });

  // -- tabs ------------------------------------------------------------------

  const tabs = ["tab-chat", "tab-docs", "tab-studio"].map($);
  function select(tab) {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      $(t.getAttribute("aria-controls")).hidden = !on;
    }
    tab.focus();
  }
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => select(tab));
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (step) select(tabs[(i + step + tabs.length) % tabs.length]);
    });
  });

  // -- chat ------------------------------------------------------------------

  $("ask-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const question = $("question").value.trim();
    if (!question) return;
    const turn = el("li", { class: "turn" }, el("p", { class: "q", text: question }));
    const pending = el("p", { class: "muted", text: "Searching your documents…" });
    turn.append(pending);
    $("thread").append(turn);
    $("ask-button").disabled = true;
    $("ask-status").textContent = "Answering…";
    const started = Date.now();
    const ticker = setInterval(() => {
      pending.textContent = "Searching and checking citations… " +
        Math.round((Date.now() - started) / 1000) + " s";
    }, 1000);
    try {
      const answer = await chat.ask(question);
      pending.replaceWith(renderAnswer(answer));
      loadConversations();
      $("question").value = "";
    } catch (e) {
      pending.replaceWith(el("p", { class: "error", role: "alert", text: e.message }));
    } finally {
      clearInterval(ticker);
      $("ask-button").disabled = false;
      $("ask-status").textContent = "";
      $("question").focus();
    }
  });

  $("new-chat").addEventListener("click", () => {
    chat.reset();
    $("conversations").value = "";
    $("thread").replaceChildren();
    $("question").focus();
  });

  async function loadConversations() {
    let listed;
    try { listed = await api("conversations"); } catch (e) { return; }
    const select = $("conversations");
    select.replaceChildren(el("option", { value: "", text: "New conversation" }));
    for (const c of listed.conversations) {
      select.append(el("option", {
        value: c.conversation_id,
        text: (c.title || "Untitled") + " (" + c.turn_count + " turns)",
      }));
    }
    select.value = chat.conversation || "";
  }

  $("conversations").addEventListener("change", async (event) => {
    const id = event.target.value;
    $("thread").replaceChildren();
    chat.reset();
    if (!id) return;
    try {
      const conversation = await api("conversations/" + encodeURIComponent(id));
      chat.conversation = id;
      for (const turn of conversation.turns) {
        $("thread").append(el("li", { class: "turn" },
          el("p", { class: "q", text: turn.question }), renderAnswer(turn)));
      }
    } catch (e) {
      $("thread").append(el("li", {}, el("p", { class: "error", role: "alert", text: e.message })));
    }
  });

  function renderAnswer(answer) {
    if (answer.outcome !== "answered") return renderRefusal(answer);
    const byId = new Map(answer.citations.map((c) => [c.citation_id, c]));
    const numbers = new Map();
    const box = el("div", { class: "answer" });
    const list = el("ul", { class: "claims" });
    for (const claim of answer.claims) {
      const li = el("li", { class: "claim" });
      if (claim.kind === "inference") li.append(el("em", { text: "(Inference) " }));
      li.append(claim.text);
      for (const cid of claim.citation_ids) {
        const c = byId.get(cid);
        if (!c) continue;
        if (!numbers.has(cid)) numbers.set(cid, numbers.size + 1);
        const n = numbers.get(cid);
        li.append(" ", el("button", {
          type: "button", class: "cite", "data-evidence": c.evidence_id,
          "aria-label": "Source " + n + ": " + c.locator.title, text: "[" + n + "]",
          on: { click: () => openPassage(c.evidence_id) },
        }));
      }
      if (claim.support) {
        li.append(el("span", {
          class: "verdict " + claim.support.verdict, text: claim.support.verdict,
          title: "support check",
        }));
      }
      list.append(li);
    }
    box.append(list);
    const sources = el("ol", { class: "sources", "aria-label": "Sources" });
    for (const [cid, n] of numbers) {
      const c = byId.get(cid);
      const where = [c.locator.title];
      if (c.locator.pages.length) where.push("p. " + c.locator.pages.join(","));
      if (c.locator.section.length) where.push("§ " + c.locator.section.join(" › "));
      if (c.superseded) where.push("superseded version");
      sources.append(el("li", { value: n, text: where.join(" — ") }));
    }
    box.append(sources);
    return box;
  }

  function renderRefusal(answer) {
    const box = el("div", { class: "refusal", role: "note" });
    box.append(el("p", { class: "title", text: "No answer: " + answer.message }));
    for (const reason of answer.reasons || []) box.append(el("p", { class: "muted", text: reason }));
    const searched = answer.searched || [];
    if (!searched.length) {
      box.append(el("p", { class: "muted", text: "Searched every document in this workspace; no passage matched the question." }));
    } else {
      box.append(el("p", { class: "muted", text: "Searched " + searched.length + " passages, none of which answers it:" }));
      const list = el("ol", { class: "sources" });
      searched.forEach((id, i) => list.append(el("li", {}, el("button", {
        type: "button", class: "cite", "data-evidence": id, text: "passage " + (i + 1),
        on: { click: () => openPassage(id) },
      }))));
      box.append(list);
    }
    return box;
  }

  // -- the cited passage ---------------------------------------------------

  let opener = null;
  async function openPassage(evidenceId) {
    opener = document.activeElement;
    const panel = $("passage");
    let p;
    try {
      p = await api("evidence/" + encodeURIComponent(evidenceId) + "/context");
    } catch (e) {
      $("passage-title").textContent = "Passage unavailable";
      $("passage-text").replaceChildren(el("p", { class: "error", text: e.message }));
      $("passage-meta").replaceChildren();
      $("passage-label").hidden = true;
      panel.hidden = false;
      panel.focus();
      return;
    }
    $("passage-title").textContent = p.title;
    const meta = $("passage-meta");
    meta.replaceChildren();
    const row = (k, v) => meta.append(el("dt", { text: k }), el("dd", {}, v));
    row("Source", uriNode(p.uri));
    row("Version", p.hash16);
    if (p.pages.length) row("Page", (p.page_label ? p.page_label + " (" : "") + p.pages.join(", ") + (p.page_label ? ")" : ""));
    if (p.section.length) row("Section", p.section.join(" › "));
    const label = $("passage-label");
    label.replaceChildren();
    label.hidden = true;
    if (p.superseded) {
      label.append("Superseded: a newer version of this document exists. ");
      if (p.current_evidence_id) {
        label.append(el("button", {
          type: "button", class: "quiet", text: "Open the current version",
          on: { click: () => openPassage(p.current_evidence_id) },
        }));
      }
      label.hidden = false;
    } else if (p.status !== "ok" && p.status !== "partial" && p.status !== "truncated") {
      label.append("This passage is " + p.status + ": its text is no longer shown.");
      label.hidden = false;
    }
    const mark = el("mark", { id: "cited", text: p.cited });
    $("passage-text").replaceChildren(p.before, mark, p.after);
    panel.dataset.shown = evidenceId;
    panel.hidden = false;
    document.body.classList.add("with-passage");
    panel.focus({ preventScroll: true });
    mark.scrollIntoView({ block: "center" });
  }

  function closePassage() {
    $("passage").hidden = true;
    document.body.classList.remove("with-passage");
    if (opener && opener.focus) opener.focus();
  }
  $("passage-close").addEventListener("click", closePassage);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !$("passage").hidden) closePassage();
  });

  // -- documents -------------------------------------------------------------

  async function loadDocuments() {
    let docs;
    try { docs = await api("documents"); } catch (e) { return; }
    const list = $("documents");
    list.replaceChildren();
    const studioDoc = $("studio-doc");
    const chosen = studioDoc.value;
    studioDoc.replaceChildren();
    for (const d of docs) {
      list.append(renderDocument(d));
      if (d.status === "live") studioDoc.append(el("option", { value: d.document_id, text: d.title }));
    }
    if (chosen) studioDoc.value = chosen;
    $("docs-empty").hidden = docs.length > 0;
  }

  function renderDocument(d) {
    const li = el("li", { class: "document", "data-document": d.document_id });
    li.append(el("div", { class: "doc-title", text: d.title }));
    const meta = el("div", { class: "doc-meta" }, uriNode(d.uri),
      " · current version " + (d.hash16 || "none") + " · " + d.status);
    li.append(meta);
    const actions = el("div", { class: "row" });
    const versions = el("ul", { class: "versions", hidden: true });
    actions.append(el("button", {
      type: "button", class: "quiet", text: "Versions", "aria-expanded": "false",
      on: { click: async (event) => {
        const button = event.currentTarget;
        const open = versions.hidden;
        versions.hidden = !open;
        button.setAttribute("aria-expanded", String(open));
        if (!open) return;
        const vs = await api("documents/" + encodeURIComponent(d.document_id) + "/versions?chunks=false");
        versions.replaceChildren(...vs.map((v) => el("li", {
          text: v.hash16 + " — " + v.created_at + (v.superseded ? " (superseded)" : " (current)"),
        })));
      } },
    }));
    if (d.status === "live") {
      actions.append(el("button", {
        type: "button", class: "quiet", text: "Delete",
        on: { click: () => confirmThen("Delete “" + d.title + "”? Its citations will read as deleted; uploading it again restores it.",
          () => api("documents/" + encodeURIComponent(d.document_id), "DELETE")) },
      }));
    }
    actions.append(el("button", {
      type: "button", class: "danger", text: "Erase",
      on: { click: () => confirmThen("Erase “" + d.title + "” permanently? Its text is removed for good; citations keep a tombstone.",
        () => api("documents/" + encodeURIComponent(d.document_id) + "/erase", "POST")) },
    }));
    li.append(actions, versions);
    return li;
  }

  async function confirmThen(question, action) {
    if (!window.confirm(question)) return;
    try { await action(); } catch (e) { window.alert(e.message); }
    loadDocuments();
  }

  // -- uploads ---------------------------------------------------------------

  function upload(files) {
    for (const file of files) uploadOne(file);
  }

  function uploadOne(file) {
    const bar = el("progress", { max: 100, value: 0, "aria-label": "Uploading " + file.name });
    const state = el("span", { text: " uploading…" });
    const li = el("li", {}, el("strong", { text: file.name }), " ", bar, state);
    $("uploads").append(li);
    const form = new FormData();
    form.append("file", file);
    const request = new XMLHttpRequest();
    request.open("POST", API + "documents/upload");
    request.setRequestHeader("X-Pincite-Request", "1");
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) bar.value = Math.round((event.loaded / event.total) * 90);
    });
    const fail = (message) => {
      li.className = "failed";
      bar.remove();
      state.textContent = " failed: " + message;
    };
    request.addEventListener("load", () => {
      let data = null;
      try { data = JSON.parse(request.responseText); } catch (e) { data = null; }
      if (request.status !== 202 || !data) {
        fail(data && data.error ? data.error.message : "HTTP " + request.status);
        return;
      }
      state.textContent = " processing…";
      poll(data.job_id, bar, state, li, fail);
    });
    request.addEventListener("error", () => fail("the connection failed"));
    request.send(form);
  }

  async function poll(jobId, bar, state, li, fail) {
    for (let i = 0; i < 600; i++) {
      let job;
      try { job = await api("jobs/" + encodeURIComponent(jobId)); } catch (e) { fail(e.message); return; }
      if (job.status === "done") {
        bar.value = 100;
        li.className = "done";
        state.textContent = " " + job.result.status + " (" + job.result.chunks + (job.result.chunks === 1 ? " passage)" : " passages)");
        loadDocuments();
        return;
      }
      if (job.status === "failed") { fail(job.error ? job.error.message : "the ingest failed"); return; }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    fail("still processing; check the document list later");
  }

  const drop = $("drop");
  $("files").addEventListener("change", (event) => { upload(event.target.files); event.target.value = ""; });
  drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    upload(event.dataTransfer.files);
  });
  drop.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); $("files").click(); }
  });

  // -- studio ----------------------------------------------------------------

  $("studio-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const documentId = $("studio-doc").value;
    if (!documentId) return;
    $("studio-status").textContent = "Working…";
    const out = $("studio-out");
    try {
      const result = await api("documents/" + encodeURIComponent(documentId) + "/studio", "POST",
        { action: $("studio-action").value });
      out.replaceChildren(renderStudio(result));
    } catch (e) {
      out.replaceChildren(el("p", { class: "error", role: "alert", text: e.message }));
    } finally {
      $("studio-status").textContent = "";
    }
  });

  function renderStudio(result) {
    const box = el("div", { class: "studio-result" });
    const names = { summary: "Summary", faq: "FAQ", key_terms: "Key terms", pros_cons: "Pros and cons", contract: "Contract breakdown" };
    box.append(el("h3", { text: names[result.action] + " of " + result.title }));
    if (!result.items.length) box.append(el("p", { class: "muted", text: "Nothing of this kind was found in the document." }));
    const list = el("ol", { class: "studio-items" });
    let n = 0;
    for (const item of result.items) {
      const li = el("li", { class: "studio-item" });
      if (item.label) li.append(el("span", { class: "studio-label", text: item.label }));
      li.append(item.text);
      for (const id of item.evidence_ids) {
        n += 1;
        li.append(" ", el("button", {
          type: "button", class: "cite", "data-evidence": id, text: "[" + n + "]",
          "aria-label": "Source " + n, on: { click: () => openPassage(id) },
        }));
      }
      li.append(el("span", { class: "verdict " + item.verdict, text: item.verdict }));
      list.append(li);
    }
    box.append(list);
    if (result.disclaimer) box.append(el("p", { class: "disclaimer", role: "note", text: result.disclaimer }));
    return box;
  }

  // -- start -------------------------------------------------------------------

  call("ui/me").then((me) => showSignedIn(me.workspace), () => showSignIn());
})();
