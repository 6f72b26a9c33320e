#!/bin/bash
# The strength issues' gomoku rung: 50-game parts against Rapfi, one game at a time.
#
#   tests/benchmarks/gomoku_rapfi.sh PACKAGE_DIR SPEC OUTDIR [OPENINGS] [NODES] [MAX_NODE]
#
# Plays the openings file (default tests/data/gomoku_openings_s17.txt) in parts of 25 openings with colours
# swapped (OUTDIR/p1, p26, ...): ours (SPEC, e.g. gomoku:mtdf,hash=32) at NODES nodes a move (default 200000)
# against Rapfi at MAX_NODE (default 30000) with a 5 s cap, seed 154, fresh engines, nice 10 (a part whose
# match.json exists is skipped). PACKAGE_DIR: as in shogi_chunks.sh (played with python -P, so that it is the
# package imported even when the script runs from the checkout's root). Pair two runs with
# tests/benchmarks/paired_pool.py. Environment: A (the anchors), PY (the Python).
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PKG=$1; OURS=$2; OUT=$3; OPEN=${4:-$ROOT/tests/data/gomoku_openings_s17.txt}; NODES=${5:-200000}; MAXN=${6:-30000}
A=${A:-$ROOT/../shared/anchors}
PY=${PY:-$ROOT/.venv/bin/python}
R="gomocup:$A/pbrain-rapfi,MAX_NODE=$MAXN,@movetime=5000"
n=$(grep -vc '^\s*\(#\|$\)' "$OPEN")
mkdir -p "$OUT"
for ((F=1; F<=n; F+=25)); do
  [ -f "$OUT/p$F/match.json" ] && continue
  games=$(( (n - F + 1 < 25 ? n - F + 1 : 25) * 2 ))
  PYTHONPATH=$PKG nice -n 10 "$PY" -P -m gamesuite match gomoku --engine "$OURS,@nodes=$NODES" --engine "$R" \
    --openings "$OPEN" --first-opening $F --games $games --seed 154 --fresh-engines --concurrency 1 --quiet \
    --save "$OUT/p$F" > "$OUT/p$F.log" 2>&1
done
