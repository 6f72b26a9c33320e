#!/usr/bin/env bash
# Build the standalone program, then run the built program as a user would (offscreen):
#   packaging/smoke_test.sh [OUTDIR]   (default: a temporary folder; SKIP_BUILD=1 reuses OUTDIR)
# Prints the build time, sizes, start times (first launch and warm cache), the first gomoku move on a
# clean user profile (the build ships compiled kernels: nothing should compile) and each check.
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
echo "first launch, analyse (the shipped kernels are copied, nothing compiles): $(secs "$t0" "$t1")"
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

# the first gomoku move on a clean user profile (each run a fresh XDG_CACHE_HOME): the window (offscreen,
# the computer moving first at 1 s a move) and the Gomocup brain (START, then a position at 1 s a move)
python3 - "$exe" <<'PY'
import json, os, subprocess, sys, tempfile, time
exe = sys.argv[1]
def clean():  # a user who never ran the program: an empty cache folder
    return {**os.environ, "XDG_CACHE_HOME": tempfile.mkdtemp(prefix="gamesuite-profile-")}
t = time.perf_counter()
r = subprocess.run([exe, "bench", "startup", "--probe", "window", "--games", "gomoku", "--movetime", "1000"],
                   capture_output=True, text=True, timeout=600, env=clean())
wall = time.perf_counter() - t
try:
    d = json.loads([ln for ln in r.stdout.splitlines() if ln.startswith("{")][-1])
    ev = d["events"]
    print(f"first launch, window: computer's first gomoku move {ev['first move']:.2f} s after start-up "
          f"(engines ready {ev.get('engines ready', 0):.2f} s, move time 1 s; whole run {wall:.2f} s); "
          f"its answer to a click {d.get('click to answer', 0):.2f} s; 'thinking' shown while preparing: "
          f"{d['thinking_while_preparing']} times")
except (IndexError, KeyError, ValueError):
    print("FAIL the window probe: " + (r.stderr or r.stdout)[-500:])
board = ["BOARD", "7,7,1", "7,8,2", "8,8,1", "6,6,2", "9,9,1", "8,7,2", "DONE"]
t = time.perf_counter()
p = subprocess.Popen([exe, "engine", "gomocup"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                     env=clean())
p.stdin.write("START 15\n"); p.stdin.flush()
ok = p.stdout.readline().strip()
t_ok = time.perf_counter() - t
p.stdin.write("INFO timeout_turn 1000\n" + "\n".join(board) + "\n"); p.stdin.flush()
t1 = time.perf_counter()
depth = None
for line in p.stdout:
    if line.startswith("MESSAGE result"):
        depth = line.split()[3]
    if "," in line and not line.startswith(("MESSAGE", "ERROR", "UNKNOWN")):
        break
t_move = time.perf_counter() - t1
p.stdin.write("END\n"); p.stdin.flush(); p.wait(timeout=60)
print(f"Gomocup brain: START -> {ok} {t_ok:.2f} s, first move {t_move:.2f} s at 1 s a move (depth {depth}) "
      f"(target: within the move time plus 1 s)")
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
