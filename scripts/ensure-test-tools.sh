#!/usr/bin/env bash
# Installs the Debian programs integration tests drive when they are missing: nginx (http/hostile-request.int.test.ts
# runs the recommended front, http/nginx-front.conf, before the service) and chromium (http/browser-clients.int.test.ts
# opens EventSource and fetch from a real page). Idempotent. Where it cannot install (not root, no apt-get) it says
# so and those tests skip with the same reason; where it could and the install fails, the run fails.
set -euo pipefail
need=()
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then need+=(nginx); fi
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then need+=(chromium); fi
if [ "${#need[@]}" -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "${need[*]} missing and cannot be installed here (needs root and apt-get): the tests that drive them will skip" >&2
  exit 0
fi
echo "installing ${need[*]} (integration tests drive them)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
