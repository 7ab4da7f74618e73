#!/usr/bin/env bash
# The GitHub Action's logic (action.yml runs it; a test runs it locally).
#
#   scripts/action.sh install   put mcp-lsp on PATH for the next steps
#   scripts/action.sh check     run `mcp-lsp check` as the inputs say
#
# Inputs come as the action passes them, in the environment:
#   INPUT_VERSION     release to install (v1.2.3); default: the action's own
#                     ref when it is a release tag, else its checkout
#   INPUT_PATHS       files or directories to check, separated by spaces or
#                     newlines (default ".")
#   INPUT_FORMAT      text, json, sarif or github (default github:
#                     annotations on the pull request)
#   INPUT_SARIF_FILE  also write a SARIF log there, for
#                     github/codeql-action/upload-sarif
#   INPUT_FAIL_ON     error, warning or never (default error)
# MCP_LSP_BIN names the binary to run (set by install; tests set it), and
# MCP_LSP_RELEASES_URL where releases are downloaded from (tests use file://).
set -euo pipefail

action_path="${MCP_LSP_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"
repo="mcp-lsp/mcp-lsp"

log() { echo "mcp-lsp action: $*" >&2; }

# platform prints the release asset suffix for this runner: linux-amd64...
platform() {
  local os arch
  case "${RUNNER_OS:-$(uname -s)}" in
    Linux | linux) os=linux ;;
    macOS | Darwin) os=darwin ;;
    Windows | MINGW* | MSYS* | CYGWIN*) os=windows ;;
    *) return 1 ;;
  esac
  case "${RUNNER_ARCH:-$(uname -m)}" in
    X64 | x86_64 | amd64) arch=amd64 ;;
    ARM64 | arm64 | aarch64) arch=arm64 ;;
    *) return 1 ;;
  esac
  echo "$os-$arch"
}

# download fetches the release binary for version into dir and checks it
# against the release's SHA256SUMS; it fails without leaving a binary.
download() {
  local version="$1" dir="$2" plat name base tmp
  plat="$(platform)" || return 1
  name="mcp-lsp-$plat"
  if [[ "$plat" == windows-* ]]; then name="$name.exe"; fi
  base="${MCP_LSP_RELEASES_URL:-https://github.com/$repo/releases/download}/$version"
  tmp="$(mktemp -d)"
  if ! curl -fsSL --retry 3 --max-time 120 -o "$tmp/$name" "$base/$name" ||
    ! curl -fsSL --retry 3 --max-time 60 -o "$tmp/SHA256SUMS" "$base/SHA256SUMS"; then
    rm -rf "$tmp"
    return 1
  fi
  local want got
  want="$(awk -v f="$name" '$2 == f || $2 == "*" f { print $1 }' "$tmp/SHA256SUMS")"
  if command -v sha256sum >/dev/null; then
    got="$(sha256sum "$tmp/$name" | awk '{ print $1 }')"
  else
    got="$(shasum -a 256 "$tmp/$name" | awk '{ print $1 }')"
  fi
  if [ -z "$want" ] || [ "$want" != "$got" ]; then
    log "checksum of $name does not match the release's SHA256SUMS"
    rm -rf "$tmp"
    return 1
  fi
  chmod +x "$tmp/$name"
  mv "$tmp/$name" "$dir/mcp-lsp${name##*"$plat"}"
  rm -rf "$tmp"
}

install() {
  local version="${INPUT_VERSION:-}" dir bin
  if [ -z "$version" ] && [[ "${MCP_LSP_ACTION_REF:-}" =~ ^v[0-9]+\.[0-9]+\.[0-9]+ ]]; then
    version="$MCP_LSP_ACTION_REF"
  fi
  dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/mcp-lsp-bin"
  mkdir -p "$dir"
  if [ -n "$version" ] && download "$version" "$dir"; then
    log "installed the $version release binary"
  elif [ -n "$version" ]; then
    log "no release binary for $version here; go install …@$version"
    GOBIN="$dir" go install "github.com/$repo/cmd/mcp-lsp@$version"
  else
    # The action's own checkout: exactly the code of the ref it was used at.
    log "building from the action's checkout ($action_path)"
    (cd "$action_path" && GOBIN="$dir" go install ./cmd/mcp-lsp)
  fi
  bin="$dir/mcp-lsp"
  if [ -e "$bin.exe" ]; then bin="$bin.exe"; fi
  "$bin" --version >&2
  if [ -n "${GITHUB_PATH:-}" ]; then echo "$dir" >>"$GITHUB_PATH"; fi
  if [ -n "${GITHUB_ENV:-}" ]; then echo "MCP_LSP_BIN=$bin" >>"$GITHUB_ENV"; fi
  echo "$bin"
}

check() {
  local bin="${MCP_LSP_BIN:-mcp-lsp}" format="${INPUT_FORMAT:-github}" fail_on="${INPUT_FAIL_ON:-error}"
  local -a paths
  read -r -d '' -a paths <<<"${INPUT_PATHS:-.}" || true
  if [ "${#paths[@]}" -eq 0 ]; then paths=(.); fi
  if [ -n "${INPUT_SARIF_FILE:-}" ]; then
    # Written whatever is found, so the upload step has a log to upload;
    # the exit status comes from the run below.
    mkdir -p "$(dirname "$INPUT_SARIF_FILE")"
    local status=0
    "$bin" check --format sarif --fail-on never -- "${paths[@]}" >"$INPUT_SARIF_FILE" || status=$?
    if [ "$status" -ne 0 ]; then return "$status"; fi
  fi
  "$bin" check --format "$format" --fail-on "$fail_on" -- "${paths[@]}"
}

case "${1:-}" in
  install) install ;;
  check) check ;;
  *)
    echo "usage: $0 install|check" >&2
    exit 2
    ;;
esac
