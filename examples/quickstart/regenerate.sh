#!/usr/bin/env bash
# Rebuild dev.db from dev.sql (needs the sqlite3 CLI). The sql lexicon's tests check that
# the committed dev.db holds exactly the schema dev.sql creates.
set -euo pipefail
cd "$(dirname "$0")"
rm -f dev.db
sqlite3 dev.db < dev.sql
sqlite3 dev.db "VACUUM"
