#!/bin/bash
# The strength issues' shogi rung: 8-game chunks against YaneuraOu-material, one game at a time.
#
#   tests/benchmarks/shogi_chunks.sh PACKAGE_DIR SPEC OUTDIR FIRST LAST [NODES]
#
# Plays openings FIRST, FIRST+4, ... up to LAST of tests/data/shogi_openings.txt as 8-game chunks (4 openings,
# colours swapped): ours (SPEC, e.g. shogi:alphabeta,corr_weight=0) at NODES nodes a move (default 50000)
# against YaneuraOu-material at NodesLimit=NODES, seed 620, fresh engines, nice 10, records in OUTDIR/oF
# (a chunk whose match.json exists is skipped, so a stopped run goes on where it was). PACKAGE_DIR holds a copy
# of the package (cp -r gamesuite DIR/) put first on PYTHONPATH, so that work in the tree cannot reach the
# games (python -P: without it, a run started from the checkout's root imported the checkout's package, the
# working directory coming first on the path, and the copy was not played; the seventeenth session found
# this); "" plays the installed one. Pair two runs with tests/benchmarks/paired_pool.py. Environment:
# A (the anchors, default ../shared/anchors), PY (default the checkout's .venv/bin/python).
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PKG=$1; OURS=$2; OUT=$3; FIRST=$4; LAST=$5; NODES=${6:-50000}
A=${A:-$ROOT/../shared/anchors}
PY=${PY:-$ROOT/.venv/bin/python}
YO="usi:$A/yaneuraou-material,Threads=1,BookFile=no_book,NetworkDelay=0,NetworkDelay2=0,USI_Hash=64,NodesLimit=$NODES,@movetime=60000"
mkdir -p "$OUT"
for ((F=FIRST; F<=LAST; F+=4)); do
  [ -f "$OUT/o$F/match.json" ] && continue
  PYTHONPATH=$PKG nice -n 10 "$PY" -P -m gamesuite match shogi --engine "$OURS,@nodes=$NODES" --engine "$YO" \
    --games 8 --openings "$ROOT/tests/data/shogi_openings.txt" --first-opening $F --seed 620 --fresh-engines \
    --concurrency 1 --quiet --save "$OUT/o$F" > "$OUT/o$F.log" 2>&1
done
