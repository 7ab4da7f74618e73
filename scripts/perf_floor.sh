#!/usr/bin/env bash
# Measures the client's floor beside ../shared/tools/perf_compare.sh:
#
#   scripts/perf_floor.sh BIN [ROUNDS]
#
# perf_compare.sh times an edit from the client's side: the client
# (lspdrive.py, in Python) encodes and sends the new text, the server
# works, the client reads and decodes the publication. On the generated
# 1,000-server file mcp-lsp publishes about 1,670 diagnostics (738 KB),
# and decoding them is the client's work, whatever the server's speed.
# This script drives, with the same client on the same file in one run:
#   - vscode-json-languageserver (the anchor, pull diagnostics, as perf_compare.sh does);
#   - BIN (mcp-lsp);
#   - scripts/lspreplay with BIN's own diagnostics: a server that does no
#     work and answers each edit with them, i.e. the floor of any server
#     reporting the same findings;
#   - scripts/lspreplay with no diagnostics: the client's own cost of an edit.
# It prints each one's open and edit p50/p95, and the highest edit p50
# ratio anchor/server that any server reporting BIN's findings can reach.
# ROUNDS (default 3) runs of 30 edits each; the medians are printed.
set -euo pipefail
BIN=$(readlink -f "$1")
ROUNDS=${2:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TOOLS=${MCP_LSP_SHARED_TOOLS:-$ROOT/../shared/tools}
A=/tmp/anchors
W=$(mktemp -d /tmp/mcp-lsp-floor.XXXXXX)
trap 'rm -rf "$W"' EXIT

if [ ! -x $A/node_modules/.bin/vscode-json-language-server ]; then
  mkdir -p $A && (cd $A && npm install --no-audit --no-fund vscode-langservers-extracted@4.10.0 >/dev/null 2>&1)
fi
[ -f $A/settings.json ] || { echo "run $TOOLS/perf_compare.sh once first: it writes the anchor's settings" >&2; exit 2; }
(cd "$ROOT" && go build -o "$W/lspreplay" ./scripts/lspreplay)

mkdir -p "$W/big" "$W/home"
python3 "$TOOLS/genconfig.py" claude 1000 --errors > "$W/big/.mcp.json"
echo '[]' > "$W/none.json"

drive() { # NAME MODE SERVER...
  local name=$1 mode=$2; shift 2
  local extra=()
  [ "$mode" = pull ] && extra=(--settings "$A/settings.json")
  python3 "$TOOLS/lspdrive.py" --server "$*" --root "$W/big" --open "$W/big/.mcp.json" \
    --mode "$mode" --edits 30 --timeout 60 --home "$W/home" "${extra[@]}" > "$W/$name.$round.json"
}

for round in $(seq "$ROUNDS"); do
  drive anchor pull "$A/node_modules/.bin/vscode-json-language-server --stdio"
  drive mcp-lsp push "$BIN"
  if [ "$round" = 1 ]; then
    python3 -c "import json,sys; o=json.load(open(sys.argv[1])); json.dump(list(o['files'].values())[0]['diagnostics'], open(sys.argv[2],'w'), separators=(',',':'))" \
      "$W/mcp-lsp.1.json" "$W/diagnostics.json"
  fi
  drive replay push "$W/lspreplay $W/diagnostics.json"
  drive empty push "$W/lspreplay $W/none.json"
done

python3 - "$W" "$ROUNDS" <<'PY'
import json, statistics, sys
w, rounds = sys.argv[1], int(sys.argv[2])
rows = [("anchor", "vscode-json-languageserver 4.10.0"), ("mcp-lsp", "mcp-lsp"),
        ("replay", "no work, mcp-lsp's diagnostics"), ("empty", "no work, no diagnostics")]
p50s = {}
print("1,000-server .mcp.json, lspdrive.py, %d rounds of 30 edits, medians" % rounds)
print("%-34s %6s %9s %12s %12s   %s" % ("server", "diags", "open ms", "edit p50 ms", "edit p95 ms", "edit p50 of each round"))
for key, label in rows:
    runs = [json.load(open("%s/%s.%d.json" % (w, key, r))) for r in range(1, rounds + 1)]
    f = [list(o["files"].values())[0] for o in runs]
    p50s[key] = [o["edit_ms"]["p50"] for o in runs]
    p95 = statistics.median(o["edit_ms"]["p95"] for o in runs)
    op = statistics.median(x["open_to_diagnostics_ms"] for x in f)
    print("%-34s %6d %9.1f %12.2f %12.2f   %s" % (label, len(f[0]["diagnostics"] or []), op, statistics.median(p50s[key]), p95,
          " ".join("%.2f" % x for x in p50s[key])))
# Each round's servers ran one after the other within seconds: ratios and
# differences are taken per round, then their median, since the machine's
# speed drifts between rounds more than between the servers of one round.
def per_round(fn):
    return statistics.median(fn(*xs) for xs in zip(p50s["anchor"], p50s["mcp-lsp"], p50s["replay"]))
print("edit p50 ratio anchor/mcp-lsp = %.1fx; the highest any server reporting these findings can reach here: anchor/no-work = %.1fx (medians of the rounds' ratios)"
      % (per_round(lambda a, u, r: a / u), per_round(lambda a, u, r: a / r)))
print("mcp-lsp's own share of an edit p50: %.2f ms (mcp-lsp minus the no-work server, median of the rounds)" % per_round(lambda a, u, r: u - r))
PY
