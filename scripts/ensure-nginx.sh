#!/usr/bin/env bash
# Installs Debian's nginx when it is missing: http/hostile-request.int.test.ts runs the recommended front
# (http/nginx-front.conf) in front of the service. Idempotent. Where it cannot install (not root, no apt-get) it
# says so and the test skips with the same reason; where it could and the install fails, the run fails.
set -euo pipefail
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "nginx is missing and cannot be installed here (needs root and apt-get): the nginx front test will skip" >&2
  exit 0
fi
echo "installing nginx (the nginx front integration test needs it)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends nginx >/dev/null
