"""Schema-driven HTTP fuzzing shared by the test and `benchmarks/fuzz_http.py`.

Every request schemathesis generates from the OpenAPI schema is sent four
ways: with a valid key; with no key; with a hostile ``Authorization`` header;
and with a lone surrogate or invalid UTF-8 planted in a string of its body,
path or query. None may get a 5xx; under ``/v1/`` the keyless and hostile ones
must get exactly 401.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

# Characters that break naive handling: a lone surrogate of each kind, NUL, a BOM.
BROKEN = ["\ud800", "\udfff", "a\udcffb", "\x00", "\ufeff"]
_LATIN1 = st.characters(min_codepoint=32, max_codepoint=255)
HOSTILE_AUTH = st.one_of(
    st.just("Bearer"),
    st.just("bearer pk_"),
    st.just("Basic cGs6cGs="),
    st.text(alphabet=_LATIN1, max_size=300).map(lambda s: "Bearer " + s),
    st.text(alphabet=_LATIN1, max_size=50),
).filter(lambda v: v == v.strip())  # no client sends edge whitespace; requests refuses to


@dataclass
class Tally:
    requests: int = 0
    by_status: dict[int, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def note(self, label: str, status: int, text: str, expect: int | None = None) -> None:
        self.requests += 1
        self.by_status[status] = self.by_status.get(status, 0) + 1
        if status >= 500 or (expect is not None and status != expect):
            self.failures.append(f"{label}: {status} {text[:300]}")


def _plant(value: Any, broken: str, index: int) -> tuple[Any, bool]:
    """``value`` with ``broken`` inserted into its ``index``-th string (cycled)."""
    strings: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for k, v in list(items):
            if isinstance(v, str):
                strings.append((node, k))
            elif isinstance(v, dict | list):
                walk(v)

    copy = json.loads(json.dumps(value))
    if isinstance(copy, dict | list):
        walk(copy)
    if not strings:
        return copy, False
    node, k = strings[index % len(strings)]
    node[k] = node[k][:1] + broken + node[k][1:]
    return copy, True


def fuzz_operation(
    operation: Any, client: TestClient, key: str, examples: int, tally: Tally
) -> None:
    """Run ``examples`` generated cases of ``operation``, each sent the four ways."""
    api = operation.path.startswith("/v1/")
    label = operation.label

    @given(
        case=operation.as_strategy(),
        auth=HOSTILE_AUTH,
        broken=st.sampled_from(BROKEN),
        index=st.integers(0, 50),
    )
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,  # the same requests every run: a failure reproduces
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any, auth: str, broken: str, index: int) -> None:
        valid = case.call(headers={"Authorization": f"Bearer {key}"})
        tally.note(f"{label} [key]", valid.status_code, valid.text)
        keyless = case.call(headers={"Authorization": ""} if api else {})
        tally.note(f"{label} [no key]", keyless.status_code, keyless.text, 401 if api else None)
        hostile = case.call(headers={"Authorization": auth})
        expect = 401 if api else None
        tally.note(f"{label} [auth {auth[:40]!r}]", hostile.status_code, hostile.text, expect)
        _send_broken(case, client, key, broken, index, tally)

    run()  # server failures are tallied, not raised: every operation runs


def _quote_any(value: str, safe: str = "", *_: Any) -> str:
    return quote(value, safe="", encoding="utf-8", errors="surrogatepass")


def _send_broken(
    case: Any, client: TestClient, key: str, broken: str, index: int, tally: Tally
) -> None:
    headers = {"Authorization": f"Bearer {key}"}
    path = case.formatted_path
    if case.path_parameters:
        # Invalid UTF-8 and an encoded surrogate in the first path parameter.
        name = sorted(case.path_parameters)[0]
        value = quote(str(case.path_parameters[name]), safe="") + "%ff%ed%a0%80"
        path = case.path.replace("{" + name + "}", value)
        for other, v in case.path_parameters.items():
            path = path.replace("{" + other + "}", quote(str(v), safe=""))
    params = {k: str(v) for k, v in (case.query or {}).items()}
    for q in list(params)[:1]:
        params[q] += broken
    if params:
        # Percent-encoded by hand: a surrogate travels as the invalid UTF-8 %ED%A0%80.
        path += "?" + urlencode(params, quote_via=_quote_any)
    content: bytes | None = None
    if isinstance(case.body, dict | list) and case.media_type == "application/json":
        body, _ = _plant(case.body, broken, index)
        content = json.dumps(body).encode("ascii")  # the surrogate travels as \\ud800
        headers["Content-Type"] = "application/json"
    r = client.request(case.method, path, content=content, headers=headers)
    tally.note(f"{case.operation.label} [broken {broken!r}]", r.status_code, r.text)
