#!/usr/bin/env bash
# Runs every compiled test file under dist/ with node:test (Node 20 expands no globs, so we list them).
set -euo pipefail
cd "$(dirname "$0")/.."
# nginx and chromium for the tests that drive them (installed when missing).
bash scripts/ensure-test-tools.sh
mapfile -t files < <(find dist -name '*.test.js' -not -path '*/node_modules/*' | sort)
if [ "${#files[@]}" -eq 0 ]; then echo "no test files found under dist/" >&2; exit 1; fi
exec node --test --test-concurrency=2 --test-timeout=300000 "${files[@]}"
