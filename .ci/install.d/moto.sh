#!/usr/bin/env bash
# moto server: the AWS APIs the aws lexicon's tests run against (127.0.0.1 only).
set -euo pipefail
if command -v moto_server >/dev/null 2>&1 && python3 -c 'import moto, sys; sys.exit(0 if moto.__version__.startswith("5.") else 1)' 2>/dev/null; then
  exit 0
fi
if ! command -v pip3 >/dev/null 2>&1 && ! python3 -m pip --version >/dev/null 2>&1; then
  apt-get install -y --no-install-recommends python3-pip python3-venv
fi
python3 -m pip install --no-input --break-system-packages 'moto[server]==5.2.1' 2>/dev/null \
  || python3 -m pip install --no-input 'moto[server]==5.2.1'
