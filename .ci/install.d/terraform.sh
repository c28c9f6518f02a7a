#!/usr/bin/env bash
# terraform 1.11 for the terraform lexicon's tests, which apply real `terraform_data`
# roots. The machine image ships it at /usr/local/bin/terraform; this installs it only
# when it is missing (or another minor version), and fails loudly when it cannot: the
# tests must not silently skip real terraform.
set -euo pipefail

want_minor=1.11
version=1.11.4

if command -v terraform >/dev/null 2>&1; then
  have=$(terraform version -json 2>/dev/null \
    | sed -n 's/.*"terraform_version": *"\([^"]*\)".*/\1/p' | head -n 1)
  case "$have" in
    "$want_minor".*)
      echo "terraform $have is installed"
      exit 0
      ;;
  esac
  echo "terraform ${have:-of unknown version} is installed; the tests want $want_minor.x" >&2
fi

arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
base="https://releases.hashicorp.com/terraform/$version"
zip="terraform_${version}_linux_${arch}.zip"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

command -v curl >/dev/null 2>&1 || apt-get install -y --no-install-recommends curl ca-certificates
command -v unzip >/dev/null 2>&1 || apt-get install -y --no-install-recommends unzip

if ! curl -fsSL --max-time 120 -o "$tmp/$zip" "$base/$zip" \
  || ! curl -fsSL --max-time 60 -o "$tmp/SHA256SUMS" "$base/terraform_${version}_SHA256SUMS"; then
  echo "ERROR: terraform $want_minor is not installed and $base could not be reached." >&2
  echo "ERROR: install terraform $version at /usr/local/bin/terraform by hand; the" >&2
  echo "ERROR: terraform lexicon's tests run real terraform and will fail without it." >&2
  exit 1
fi
(cd "$tmp" && grep " $zip\$" SHA256SUMS | sha256sum -c -)
unzip -o "$tmp/$zip" terraform -d /usr/local/bin
chmod 0755 /usr/local/bin/terraform
terraform version
