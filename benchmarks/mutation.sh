#!/usr/bin/env bash
# Mutation run over pincite's guard code (issue 21): every mutant of a guard
# should make some test fail. Too slow for every CI run; run it before closing
# an issue that touches these files.
#
#   benchmarks/mutation.sh                 # all groups
#   benchmarks/mutation.sh ground stores   # chosen groups: ground, stores, server
#
# Each group mutates its files in a throwaway copy of the working tree (so no
# mutants/ folder lands in the repo) and runs only the tests that exercise
# them, with one worker process. The summary line per group is mutmut's own
# count; `mutmut results` in the printed folder lists the survivors, and
# `mutmut show NAME` shows one.
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

# group → files to mutate | tests that exercise them (subprocess-based tests are
# left out: a CLI, server or MCP child process would import the unmutated code).
declare -A FILES TESTS
FILES[ground]="src/pincite/ids.py src/pincite/ground/cite.py src/pincite/ground/check.py src/pincite/ground/fetch.py"
TESTS[ground]="tests/test_ids.py tests/test_ids_errors.py tests/ground tests/agent tests/test_documents_corpus.py tests/support/test_base.py"
FILES[stores]="src/pincite/store/sqlite/search.py src/pincite/store/sqlite/store.py src/pincite/store/postgres/search.py src/pincite/store/postgres/store.py src/pincite/tenancy.py"
TESTS[stores]="tests/store"
FILES[server]="src/pincite/server/keys.py src/pincite/server/deps.py"
TESTS[server]="tests/server/test_api_inprocess.py tests/server/test_keys.py"

groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(ground stores server)
for group in "${groups[@]}"; do
    [ -n "${FILES[$group]:-}" ] || { echo "unknown group '$group' (ground, stores, server)" >&2; exit 2; }
    work="$(mktemp -d "${TMPDIR:-/tmp}/pincite-mutation-$group.XXXX")"
    # The working tree as it is (tracked and new files), without ignored build output.
    (cd "$ROOT" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$work")
    {
        echo "[mutmut]"
        echo "source_paths = src"
        echo "only_mutate ="
        for f in ${FILES[$group]}; do echo "    $f"; done
        echo "pytest_add_cli_args_test_selection ="
        for t in ${TESTS[$group]}; do echo "    $t"; done
        echo "pytest_add_cli_args ="
        echo "    -p"
        echo "    no:cacheprovider"
    } >"$work/setup.cfg"
    # mutmut reads [tool.mutmut] from pyproject.toml before setup.cfg; there is none.
    echo "== $group: mutating ${FILES[$group]} (in $work)"
    (cd "$work" && "$MUTMUT" run --max-children 1 >mutmut.log 2>&1) || {
        tail -20 "$work/mutmut.log" >&2
        exit 1
    }
    (cd "$work" && "$MUTMUT" export-cicd-stats >/dev/null && python3 - <<'EOF'
import json
s = json.load(open("mutants/mutmut-cicd-stats.json"))
print(f"mutants {s['total']}  killed {s['killed']}  survived {s['survived']}  "
      f"timeout {s['timeout']}  no tests {s['no_tests']}  skipped {s['skipped']}")
EOF
    )
    (cd "$work" && "$MUTMUT" results | sed 's/^/    /')
done
