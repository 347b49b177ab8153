#!/usr/bin/env bash
# `make run`: starts the localnet and the service wired to it, prints the URLs, stops both on Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-8080}"
LOCALNET_RPC_PORT="${LOCALNET_RPC_PORT:-8899}"
LOCALNET_GRPC_PORT="${LOCALNET_GRPC_PORT:-10000}"
LOCALNET_BLOCK_ENGINE_PORT="${LOCALNET_BLOCK_ENGINE_PORT:-10001}"
mkdir -p data
pids=()
cleanup() {
  trap - INT TERM EXIT
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup INT TERM EXIT

LOCALNET_RPC_PORT="$LOCALNET_RPC_PORT" LOCALNET_GRPC_PORT="$LOCALNET_GRPC_PORT" LOCALNET_BLOCK_ENGINE_PORT="$LOCALNET_BLOCK_ENGINE_PORT" \
  node dist/fixtures/localnet/main.js >data/localnet.log 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do
  grep -q LOCALNET_READY data/localnet.log 2>/dev/null && break
  kill -0 "${pids[0]}" 2>/dev/null || { cat data/localnet.log; echo "localnet failed to start" >&2; exit 1; }
  sleep 0.2
done
echo "localnet: JSON-RPC http://127.0.0.1:${LOCALNET_RPC_PORT}  Geyser gRPC http://127.0.0.1:${LOCALNET_GRPC_PORT}  (log: data/localnet.log)"

# POST /v1/swap: bundles go to the localnet's block engine, tipped from a wallet funded here by airdrop.
BLOCK_ENGINE_URL="${BLOCK_ENGINE_URL:-http://127.0.0.1:${LOCALNET_BLOCK_ENGINE_PORT}}"
RPC_URL="http://127.0.0.1:${LOCALNET_RPC_PORT}" DATA_DIR="${DATA_DIR:-data}" node dist/scripts/fund-tip-wallet.js
echo "block engine: ${BLOCK_ENGINE_URL}  (POST /v1/swap bundles)"

# Demo mode: a known pro key so the key routes can be tried at once (override or set SVC_DEMO_KEY= to disable).
SVC_DEMO_KEY="${SVC_DEMO_KEY-demo-key-change-me}"
PORT="$PORT" SVC_DEMO_KEY="$SVC_DEMO_KEY" BLOCK_ENGINE_URL="$BLOCK_ENGINE_URL" RPC_URL="http://127.0.0.1:${LOCALNET_RPC_PORT}" GEYSER_ENDPOINT="http://127.0.0.1:${LOCALNET_GRPC_PORT}" \
  node dist/http/main.js &
pids+=($!)
echo "service:  http://127.0.0.1:${PORT}  (try: curl http://127.0.0.1:${PORT}/v1/price/SOL)"
[ -n "$SVC_DEMO_KEY" ] && echo "demo key: ${SVC_DEMO_KEY}  (try: curl -H 'x-api-key: ${SVC_DEMO_KEY}' http://127.0.0.1:${PORT}/v1/points/me)"
echo "keys:     npm run keys -- create --tier pro   (admin API on 127.0.0.1:${ADMIN_PORT:-8081})"
wait -n "${pids[@]}"
