#!/usr/bin/env bash
# The k8s lexicon's tests run the real kubectl against the testkit's fake API server.
set -euo pipefail
if command -v kubectl >/dev/null 2>&1; then
    exit 0
fi
apt-get install -y --no-install-recommends kubernetes-client || apt-get install -y --no-install-recommends kubectl
