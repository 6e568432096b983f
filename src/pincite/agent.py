"""The agent loop: a model searches and fetches, answers citing evidence ids, and is checked.

Complete reads through ``fetch_evidence`` go into the run's :class:`FetchLedger`;
``check_citations`` checks the answer against it, one repair pass runs if some
ids fail and the tool budget has room, and the answer is rendered with
``render_citations`` or refused. Model output is only looked up, never trusted.
OpenAI and Anthropic generators chat through :func:`chat_model`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pincite.answer.pipeline import AnswerResult, Outcome
from pincite.chat import ChatModel, Message, ToolCall, ToolResult, ToolSpec, Turn
from pincite.citation import Rendered
from pincite.corpus import Corpus
from pincite.errors import InputError, PinciteError
from pincite.generate.http import ModelGenerator
from pincite.ground.check import CitationVerdict, Verdict, check_citations
from pincite.ground.fetch import FetchLedger
from pincite.model import Hit
from pincite.present.answer import source_json
from pincite.present.render import render_citations
from pincite.tenancy import check_tenant

__all__ = ["AgentResult", "ChatModel", "ToolCall", "ToolSpec", "Turn", "chat_model", "run_agent"]

SYSTEM_PROMPT = """\
You answer questions using only a team's documents, which you reach through tools.
1. Call `search` to find passages; it returns previews and evidence ids.
2. Call `fetch_evidence` with the ids of the passages you will rely on, to read them in full.
   You may cite only ids you fetched.
3. Then reply without calling a tool: short sentences, each followed by a space and the
   evidence id(s) it rests on, copied exactly, e.g. `The period is 7 years. ev1:c:...`
If the documents do not answer the question, reply with one line: INSUFFICIENT: <why>."""

_PREVIEW_CHARS = 300
_MAX_FETCH = 10
_REFUSAL = re.compile(r"\A\s*INSUFFICIENT\b", re.IGNORECASE)
_DOUBLED = re.compile(r"[\[(]\[(\d+)\][\])]")  # "[ev1:…]" renders as "[[1]]": keep "[1]"


def _schema(required: str, **properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": [required]}


_QUERY = {"type": "string", "description": "What to look for."}
_K = {"type": "integer", "minimum": 1, "maximum": 10, "default": 5}
_IDS = {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": _MAX_FETCH}
TOOLS = (
    ToolSpec(
        "search",
        "Search the documents. Returns evidence ids with short previews; fetch before citing.",
        _schema("query", query=_QUERY, k=_K),
    ),
    ToolSpec(
        "fetch_evidence",
        "Read passages in full by evidence id. Only ids fetched with status 'ok' can be cited.",
        _schema("ids", ids=_IDS),
    ),
)


@dataclass(frozen=True, slots=True)
class AgentResult(AnswerResult):
    """An :class:`AnswerResult` whose answer is ``rendered`` text, plus the loop's record."""

    draft: str = ""
    verdicts: tuple[CitationVerdict, ...] = ()
    repaired: bool = False
    tool_calls: int = 0

    @property
    def text(self) -> str:
        return str(self.rendered) if self.rendered is not None else self.message

    @property
    def model_calls(self) -> int:
        return self.generator_calls

    def as_dict(self) -> dict[str, Any]:
        keys = ("question", "tenant", "text", "draft", "repaired", "tool_calls", "model_calls")
        sources = self.rendered.sources if self.rendered is not None else ()
        return {
            **{k: getattr(self, k) for k in keys},
            "outcome": self.outcome.value,
            "reasons": list(self.reasons),
            "verdicts": [{"id": v.id, "verdict": v.verdict.value} for v in self.verdicts],
            "sources": [source_json(s) for s in sources],
        }


@dataclass
class _Run:
    """One agent run's state: its ledger, transcript and counters."""

    corpus: Corpus
    question: str
    tenant: str
    budget: int
    ledger: FetchLedger
    messages: list[Message] = field(default_factory=list)
    used: int = 0
    model_calls: int = 0
    repaired: bool = False
    reasons: list[str] = field(default_factory=list)

    def result(self, outcome: Outcome, message: str = "", **extra: Any) -> AgentResult:
        counts: dict[str, Any] = {"tool_calls": self.used, "generator_calls": self.model_calls}
        extra |= {"repaired": self.repaired, "reasons": tuple(self.reasons)}
        return AgentResult(self.question, self.tenant, outcome, None, message, **counts, **extra)

    def call_tools(self, calls: Sequence[ToolCall]) -> tuple[ToolResult, ...]:
        results = []
        for call in calls:
            if self.used >= self.budget:
                content = {"error": "tool budget spent: answer now, citing only ids you fetched"}
            else:
                self.used += 1
                try:
                    content = self._tool(call)
                except PinciteError as exc:
                    content = {"error": str(exc)}
            results.append(ToolResult(call.id, json.dumps(content, ensure_ascii=False)))
        return tuple(results)

    def _tool(self, call: ToolCall) -> dict[str, Any]:
        args = call.arguments
        if call.name == "search":
            query, k = args.get("query"), args.get("k", 5)
            if not isinstance(query, str) or not query.strip():
                raise InputError("search needs a non-empty 'query' string")
            k = k if isinstance(k, int) and not isinstance(k, bool) and 1 <= k <= 10 else 5
            hits = self.corpus.retrieve(query, tenant=self.tenant, k=k).hits
            note = "previews only: fetch_evidence the ids you will cite"
            return {"note": note, "results": [_preview(h) for h in hits]}
        if call.name == "fetch_evidence":
            wanted = args.get("ids")
            if not isinstance(wanted, list) or not all(isinstance(i, str) for i in wanted):
                raise InputError("fetch_evidence needs 'ids', a list of evidence id strings")
            if not wanted:
                raise InputError("fetch_evidence needs at least one id")
            wanted = wanted[:_MAX_FETCH]
            outcomes = self.corpus.fetch(wanted, tenant=self.tenant, ledger=self.ledger)
            return {"results": [o.as_dict() for o in outcomes]}
        raise InputError(f"no tool named {call.name!r}; use search or fetch_evidence")

    def finish(self, draft: str, verdicts: tuple[CitationVerdict, ...]) -> AgentResult:
        """Render a draft whose every id checked out; refuse if one is unreadable now."""
        outcomes = self.corpus.fetch([v.id for v in verdicts], tenant=self.tenant)
        rendered = render_citations(draft, outcomes)
        if rendered.unresolved:  # fetched during the run, unreadable now: fail closed
            self.reasons.append(f"no longer readable: {', '.join(rendered.unresolved)}")
            text = "The answer was refused: a cited passage is no longer readable."
            return self.result(Outcome.REFUSED, text, draft=draft, verdicts=verdicts)
        rendered = Rendered(_DOUBLED.sub(r"[\1]", rendered.text), rendered.sources, ())
        return self.result(Outcome.ANSWERED, rendered=rendered, draft=draft, verdicts=verdicts)


def chat_model(model: ChatModel | ModelGenerator) -> ChatModel:
    """The chat side of a model generator (its provider client), or ``model`` itself."""
    return model.client if isinstance(model, ModelGenerator) else model


def run_agent(
    corpus: Corpus, question: str, model: ChatModel | ModelGenerator, tenant: str, budget: int = 8
) -> AgentResult:
    """Answer ``question`` from ``tenant``'s documents with at most ``budget`` tool calls.

    Returns an answer whose every cited id was fetched in full in this run,
    rendered with numbered sources, or a refusal with its reasons. Raises
    ``InputError`` for an empty question or a bad tenant or budget, and
    ``GeneratorError`` when the model endpoint fails.
    """
    check_tenant(tenant)
    if not question.strip():
        raise InputError("the question is empty")
    if budget < 1:
        raise InputError(f"budget must be at least 1 tool call, got {budget}")
    chat = chat_model(model)
    run = _Run(corpus, question, tenant, budget, FetchLedger(tenant), [question])
    while run.model_calls < budget + 4:  # tool turns spend budget; this bounds a stuck model
        turn = chat.chat(SYSTEM_PROMPT, run.messages, TOOLS)
        run.model_calls += 1
        run.messages.append(turn)
        if turn.calls:
            run.messages.append(run.call_tools(turn.calls))
            continue
        if _REFUSAL.match(turn.text):
            text = "The documents found do not answer this question."
            return run.result(Outcome.REFUSED, text, draft=turn.text)
        verdicts = tuple(check_citations(turn.text, run.ledger))
        failures = [
            f"{v.id}: {v.verdict.value}" for v in verdicts if v.verdict is not Verdict.VALID
        ]
        if verdicts and not failures:
            return run.finish(turn.text, verdicts)
        run.reasons.append("; ".join(failures) if verdicts else "the answer cited no evidence ids")
        if run.repaired or run.used >= budget:
            text = "The answer was refused: its citations did not hold."
            return run.result(Outcome.REFUSED, text, draft=turn.text, verdicts=verdicts)
        run.repaired = True
        run.messages.append(_repair_prompt(run.reasons[-1], run.ledger))
    run.reasons.append(f"the model did not finish within {run.model_calls} turns")
    return run.result(Outcome.REFUSED, "The answer was refused: the model did not finish.")


def _preview(h: Hit) -> dict[str, Any]:
    where = {
        "title": h.document.title,
        "section": list(h.chunk.section),
        "pages": list(h.chunk.pages),
    }
    return {"evidence_id": h.evidence_id, **where, "preview": h.chunk.text[:_PREVIEW_CHARS]}


def _repair_prompt(failures: str, ledger: FetchLedger) -> str:
    fetched = "\n".join(f"- {i}" for i in ledger.entries) or "(none)"
    return (
        "Your answer was rejected because these citations do not hold "
        "(unfetched: not read in full in this run; malformed: not an id as written):\n"
        f"{failures}\n\nIds you fetched in full:\n{fetched}\n\n"
        "Fetch what you still need, then answer again citing only ids you fetched."
    )
