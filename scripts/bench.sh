#!/usr/bin/env bash
# `make bench`: every benchmark on the compiled output. Results are recorded by hand in bench/README.md (the slab
# bench rewrites its own section).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; } || echo "wrk unavailable: skipping the HTTP load bench" >&2
node dist/bench/cpmm-quote.bench.js
for dex in raydium-amm-v4 pumpswap pumpfun raydium-launchlab meteora-dbc; do node "dist/bench/${dex}-quote.bench.js"; done
node dist/bench/pool-rebuild.bench.js
node dist/bench/slab.bench.js
node dist/bench/price-dispatch.bench.js
node dist/bench/ingest-throughput.bench.js
node dist/bench/replay-throughput.bench.js
node dist/bench/auth-rate-limit.bench.js
# Start-up at 89, 20,000 and 158,000 pools against the localnet, both stores (about 8 min; PostgreSQL must answer).
node dist/bench/startup-scale.js --pools 89,20000,158000 --stores pglite,postgres
if command -v wrk >/dev/null; then node dist/bench/http-load.bench.js; node dist/bench/uws-remote-address.bench.js; node dist/bench/uws-header-sent.bench.js; fi
