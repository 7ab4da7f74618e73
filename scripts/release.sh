#!/usr/bin/env bash
# Builds the release binaries of mcp-lsp and their checksums.
#
#   scripts/release.sh [VERSION]
#
# VERSION (default: `git describe --tags --dirty`, e.g. v1.2.3) and the
# commit are stamped into each binary (`mcp-lsp --version`). Binaries are
# static (CGO_ENABLED=0), built with -trimpath so they hold no path of this
# machine, and named as the GitHub Action downloads them:
#
#   dist/mcp-lsp-<goos>-<goarch>[.exe]   dist/SHA256SUMS
#
# Environment: OUT (default dist), TARGETS (default: linux, darwin and
# windows, each amd64 and arm64; e.g. TARGETS="linux/amd64").
set -euo pipefail
cd "$(dirname "$0")/.."

version="${1:-$(git describe --tags --match 'v*' --dirty 2>/dev/null || true)}"
version="${version:-v0.0.0-dev}"
case "$version" in
  v[0-9]*) ;;
  *) echo "release.sh: version $version should look like v1.2.3" >&2; exit 2 ;;
esac
case "$version" in
  *[!A-Za-z0-9.+_-]*) echo "release.sh: version $version has characters a version cannot have" >&2; exit 2 ;;
esac
commit="$(git rev-parse HEAD)"
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  commit="$commit-dirty"
fi
out="${OUT:-dist}"
targets="${TARGETS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}"

mkdir -p "$out"
rm -f "$out"/mcp-lsp-* "$out/SHA256SUMS"
for target in $targets; do
  goos="${target%/*}" goarch="${target#*/}"
  ext=""
  if [ "$goos" = windows ]; then ext=.exe; fi
  name="mcp-lsp-$goos-$goarch$ext"
  echo "building $name ($version, $commit)"
  CGO_ENABLED=0 GOOS="$goos" GOARCH="$goarch" go build -trimpath \
    -ldflags "-s -w -X main.version=$version -X main.commit=$commit" \
    -o "$out/$name" ./cmd/mcp-lsp
done

cd "$out"
if command -v sha256sum >/dev/null; then
  sha256sum mcp-lsp-* >SHA256SUMS
else
  shasum -a 256 mcp-lsp-* >SHA256SUMS
fi
cat SHA256SUMS
