#!/usr/bin/env bash
# Mutation run over pincite's guard code (issue 21): every mutant of a guard
# should make some test fail. Too slow for every CI run; run it before closing
# an issue that touches these files.
#
#   benchmarks/mutation.sh                 # all groups
#   benchmarks/mutation.sh ground stores   # chosen groups: ground, stores, server
#                                          # (stores = stores-sqlite + stores-postgres)
#
# Each group mutates its files in a throwaway copy of the working tree (so no
# mutants/ folder lands in the repo) and runs only the tests that exercise
# them, with one worker process; a group may name single functions, and only
# their mutants run. The summary line per group counts those mutants and lists
# each survivor (SQL-case survivors are counted apart, see below); `mutmut show
# NAME` in the printed folder shows one. Equivalent survivors of the server and
# stores groups are explained by a `# mutmut: equivalent because ...` comment
# next to their line.
#
# Survivors of the `ground` group that no test can kill, each equivalent:
# - cite._check_pinned and cite._check_stored, `c.span[0] < c.span[1]` -> `<=`:
#   an empty span never reaches them: ids.decode refuses start >= end, a chunk
#   citation must equal its retrieved chunk's span, cite_hit refuses empty
#   chunks, and _check_stored only runs after _check_pinned.
# - fetch.FetchLedger.record, the assert's `and` -> `or`: an ok outcome always
#   has both offsets.
# - fetch.FetchLedger.save / load, indent and encoding spellings: json.dumps
#   writes ASCII, so every encoding reads the same file; indent is layout.
# - fetch._fetch_one, `status=FetchStatus.OK` -> None in `base`: base is only
#   used through _replace_status, which sets the status.
# - fetch._fetch_one, `touching` bounds `<` -> `<=`, and `if touching` ->
#   `or True` (page_label, section): the chunker leaves at least one uncovered
#   character between chunks and a covered span lies inside one chunk, so no
#   chunk merely touches it and `touching` is never empty.
# - fetch._locate, `any(c.chunk_id == ...)` -> `!=`: a chunk id missing from
#   the version still ends not_found (_fetch_one looks the chunk up again);
#   `if version` -> `or True`: the branch is only reached with a version.
# - fetch._locate, the arguments of the last `store.chunks` (wholly erased
#   document, span id): such a version's erased ranges cover every span, so
#   _touches_erased answers `erased` before its chunks are read.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
MUTMUT="${MUTMUT:-$ROOT/.venv/bin/mutmut}"
[ -x "$MUTMUT" ] || { echo "mutmut not found: pip install -e '.[mutation]'" >&2; exit 2; }

# group → guards to mutate | tests that exercise them (subprocess-based tests are
# left out: a CLI, server or MCP child process would import the unmutated code).
# A guard is `path` (every function in the file) or `path:name,Class.method,...`
# (only those functions): the stores' infrastructure (connections, migrations,
# meta rows) is not a guard, and mutating it would only slow the run.
declare -A GUARDS TESTS
GUARDS[ground]="src/pincite/ids.py src/pincite/ground/cite.py src/pincite/ground/check.py src/pincite/ground/fetch.py"
TESTS[ground]="tests/test_ids.py tests/test_ids_errors.py tests/ground tests/agent tests/test_documents_corpus.py tests/support/test_base.py"
# The tenant filters: every tenant-scoped read of each store, and the one rule for
# tenant names. Split by backend (a PostgreSQL mutant pays for a server start);
# `stores` runs both.
GUARDS[stores-sqlite]="src/pincite/tenancy.py
src/pincite/store/sqlite/store.py:SQLiteStore.find_document,SQLiteStore.list_documents,SQLiteStore.documents_by_id,SQLiteStore.current_hash,SQLiteStore.versions,SQLiteStore.version,SQLiteStore.chunks,SQLiteStore.chunk,SQLiteStore.chunks_by_id
src/pincite/store/sqlite/conversations.py:SQLiteConversations.conversation,SQLiteConversations.conversations,SQLiteConversations.turns,SQLiteConversations.memories"
GUARDS[stores-postgres]="src/pincite/store/postgres/store.py:PostgresStore.find_document,PostgresStore.list_documents,PostgresStore.documents_by_id,PostgresStore.current_hash,PostgresStore.versions,PostgresStore.version,PostgresStore.chunks,PostgresStore.chunk,PostgresStore.chunks_by_id
src/pincite/store/postgres/conversations.py:PostgresConversations.conversation,PostgresConversations.conversations,PostgresConversations.turns,PostgresConversations.memories"
TESTS[stores-sqlite]="tests/store"
TESTS[stores-postgres]="tests/store"
# The key check (before any body byte), the route-level tenant fallback, the keys.
GUARDS[server]="src/pincite/server/guard.py src/pincite/server/keys.py src/pincite/server/deps.py:require_tenant"
TESTS[server]="tests/server/test_request_guard.py tests/server/test_key_guard_records.py tests/server/test_api_inprocess.py tests/server/test_keys.py tests/server/test_hardening.py tests/server/test_conversations_api.py tests/server/test_workspace_inprocess.py"

groups=()
for g in "${@:-ground stores server}"; do
    for one in $g; do
        if [ "$one" = stores ]; then groups+=(stores-sqlite stores-postgres); else groups+=("$one"); fi
    done
done
for group in "${groups[@]}"; do
    [ -n "${GUARDS[$group]:-}" ] || {
        echo "unknown group '$group' (ground, stores, stores-sqlite, stores-postgres, server)" >&2
        exit 2
    }
    files=() names=()
    for guard in ${GUARDS[$group]}; do
        path="${guard%%:*}"
        files+=("$path")
        module="${path#src/}"
        module="${module%.py}"
        module="${module//\//.}"
        if [[ "$guard" == *:* ]]; then
            IFS=, read -ra funcs <<<"${guard#*:}"
            for f in "${funcs[@]}"; do
                # mutmut's mutant names: module.x_func__mutmut_N, module.xǁClassǁmethod__mutmut_N
                if [[ "$f" == *.* ]]; then names+=("$module.xǁ${f%%.*}ǁ${f#*.}__mutmut_*")
                else names+=("$module.x_${f}__mutmut_*"); fi
            done
        else
            names+=("$module.*")
        fi
    done
    work="$(mktemp -d "${TMPDIR:-/tmp}/pincite-mutation-$group.XXXX")"
    # The working tree as it is (tracked and new files), without ignored build output.
    (cd "$ROOT" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$work")
    {
        echo "[mutmut]"
        echo "source_paths = src"
        echo "only_mutate ="
        for f in "${files[@]}"; do echo "    $f"; done
        echo "pytest_add_cli_args_test_selection ="
        for t in ${TESTS[$group]}; do echo "    $t"; done
        echo "pytest_add_cli_args ="
        echo "    -p"
        echo "    no:cacheprovider"
    } >"$work/setup.cfg"
    # mutmut reads [tool.mutmut] from pyproject.toml before setup.cfg; there is none.
    echo "== $group: ${#names[@]} guards in ${files[*]} (in $work)"
    (cd "$work" && "$MUTMUT" run --max-children 1 "${names[@]}" >mutmut.log 2>&1) || {
        tail -20 "$work/mutmut.log" >&2
        exit 1
    }
    # Count only the chosen guards' mutants (mutmut's own stats count every mutant of the
    # files). A survivor that only changes the case of an SQL string with nothing quoted
    # in it is equivalent (SQL keywords and unquoted names are case-blind, rows are read
    # by position) and is counted apart.
    (cd "$work" && "$MUTMUT" results --all true >results.txt && python3 - "${names[@]}" <<'EOF'
import ast
import collections
import copy
import fnmatch
import glob
import json
import re
import sys

patterns = sys.argv[1:]
status = {}
for line in open("results.txt", encoding="utf-8"):
    name, _, state = line.strip().rpartition(": ")
    if name and any(fnmatch.fnmatchcase(name, p) for p in patterns):
        status[name] = state

SQL = re.compile(r"\b(select|update|delete|insert|from|where|order by|join)\b", re.I)


def functions(path):
    tree = ast.parse(open(path, encoding="utf-8").read())
    return {
        n.name: n
        for n in ast.walk(tree)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and "__mutmut_" in n.name
    }


def sql_case_only(orig, mut):
    texts = [[n.value for n in ast.walk(f) if isinstance(n, ast.Constant) and isinstance(n.value, str)] for f in (orig, mut)]
    changed = [(a, b) for a, b in zip(*texts) if a != b]
    if len(texts[0]) != len(texts[1]) or len(changed) != 1:
        return False
    a, b = changed[0]
    if a.lower() != b.lower() or not SQL.search(a) or re.search("[\'\"%]", a):
        return False

    class PutBack(ast.NodeTransformer):
        def visit_Constant(self, n):
            return ast.Constant(a) if n.value == b else n

    back = PutBack().visit(copy.deepcopy(mut))
    return [ast.dump(n) for n in back.body] == [ast.dump(n) for n in orig.body]


sql_case = set()
for meta in glob.glob("mutants/src/**/*.py.meta", recursive=True):
    source = meta[: -len(".meta")]
    module = source.split("mutants/src/", 1)[1][:-3].replace("/", ".")
    found = functions(source)
    for name in status:
        if status[name] == "survived" and name.startswith(module + "."):
            local = name[len(module) + 1 :]
            orig = found.get(local.rsplit("__mutmut_", 1)[0] + "__mutmut_orig")
            if orig is not None and local in found and sql_case_only(orig, found[local]):
                sql_case.add(name)

counts = collections.Counter(status.values())
known = ("killed", "survived", "timeout", "no tests")
print(
    f"mutants {len(status)}  killed {counts['killed']}  survived {counts['survived']} "
    f"(SQL case, equivalent: {len(sql_case)})  timeout {counts['timeout']}  "
    f"no tests {counts['no tests']}  other {len(status) - sum(counts[k] for k in known)}"
)
for name, state in sorted(status.items()):
    if state != "killed" and name not in sql_case:
        print(f"    {name}: {state}")
EOF
    )
done
