#!/usr/bin/env bash
# Build the standalone program, then run the built program as a user would (offscreen):
#   packaging/smoke_test.sh [OUTDIR]   (default: a temporary folder; SKIP_BUILD=1 reuses OUTDIR)
# Prints the build time, sizes, start times (first launch and warm cache) and each check.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$(mktemp -d)}
export QT_QPA_PLATFORM=offscreen
export XDG_CACHE_HOME="$out/cache"   # a fresh user cache: the first launch really compiles
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
now() { date +%s.%N; }
secs() { python3 -c "print(f'{$2 - $1:.2f} s')"; }

if [ "${SKIP_BUILD:-0}" != 1 ]; then
    t0=$(now); "$root/packaging/build.sh" "$out"; t1=$(now)
    echo "build time: $(secs "$t0" "$t1")"
fi
exe="$out/gamesuite/gamesuite"
deb=$(ls "$out"/gamesuite_*.deb)
echo "unpacked size: $(du -sh "$out/gamesuite" | cut -f1); package size: $(du -sh "$deb" | cut -f1)"
contents=$(dpkg-deb --contents "$deb")
check "the .deb is well formed" "dpkg-deb --info '$deb' >/dev/null && echo \"\$contents\" | grep -q usr/share/applications/gamesuite.desktop"

work=$(mktemp -d); cd "$work"   # run from an unrelated folder
check "--help" "'$exe' --help >/dev/null"

t0=$(now); first=$("$exe" analyse tictactoe --position ......... --json | tail -1); t1=$(now)
echo "first launch, analyse (compiles the kernels): $(secs "$t0" "$t1")"
check "analyse tictactoe says draw" "echo '$first' | grep -q '\"kind\": \"draw\"'"
mkdir -p elsewhere && cd elsewhere
t0=$(now); "$exe" analyse tictactoe --position ......... --json >/dev/null; t1=$(now)
echo "warm cache, from another folder, analyse: $(secs "$t0" "$t1")"
cd "$work"

check "the window opens and closes cleanly" "'$exe' --quit-after 200 >/dev/null 2>&1"
# launch -> interactive window (the window prints "interactive" when it takes input)
GAMESUITE_REPORT_STARTUP=1 python3 - "$exe" <<'PY'
import statistics, subprocess, sys, time
walls = []
for _ in range(4):
    t = time.perf_counter()
    p = subprocess.Popen([sys.argv[1], "--quit-after", "100"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    for line in p.stderr:
        if line.startswith("interactive"):
            walls.append(time.perf_counter() - t)
            break
    p.wait(timeout=60)
if not walls:
    sys.exit("FAIL the window never said it was interactive")
print(f"launch -> interactive window, warm cache: median {statistics.median(walls):.2f} s, best {min(walls):.2f} s "
      f"over {len(walls)} launches (target < 1.5 s)")
PY

if "$exe" engine --help 2>/dev/null | grep -q usi; then
    reply=$(printf 'usi\nisready\nposition startpos\ngo movetime 300\n' | timeout 60 "$exe" engine usi; true)
    check "USI answers usiok" "echo \"\$reply\" | grep -q '^usiok'"
    check "USI answers bestmove" "echo \"\$reply\" | grep -q '^bestmove '"
else
    echo "skip USI (no usi protocol in this build)"
fi
if "$exe" engine --help 2>/dev/null | grep -q gomocup; then
    reply=$(printf 'START 15\nBEGIN\n' | timeout 60 "$exe" engine gomocup; true)
    check "Gomocup answers OK to START" "echo \"\$reply\" | grep -q '^OK'"
    check "Gomocup answers BEGIN with a move" "echo \"\$reply\" | grep -Eq '^[0-9]+,[0-9]+$'"
else
    echo "skip Gomocup (no gomocup protocol in this build)"
fi
rm -rf "$work"
[ "$fail" = 0 ] && echo "smoke test passed" || { echo "smoke test FAILED"; exit 1; }
