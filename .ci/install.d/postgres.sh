#!/usr/bin/env bash
# PostgreSQL 15 server and client for the sql lexicon's tests (a throwaway cluster per
# test binary: initdb runs as user postgres, which the package creates). Idempotent.
set -euo pipefail
if [ -x /usr/lib/postgresql/15/bin/initdb ] && command -v psql >/dev/null; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends postgresql-15 postgresql-client-15
# The packaged cluster is not used; the tests start their own.
if command -v pg_ctlcluster >/dev/null; then
  pg_ctlcluster 15 main stop >/dev/null 2>&1 || true
fi
