#!/usr/bin/env bash
# Build the standalone program and its Debian package:
#   packaging/build.sh [OUTDIR]        (default OUTDIR: dist/)
# Produces OUTDIR/gamesuite/ (PyInstaller onedir: run OUTDIR/gamesuite/gamesuite)
# and OUTDIR/gamesuite_VERSION_ARCH.deb. Needs python3 (3.11+), dpkg-deb and fakeroot.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$root/dist}" && cd "${1:-$root/dist}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== venv and install"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --upgrade pip
"$work/venv/bin/pip" install --quiet "$root" pyinstaller

echo "== PyInstaller (onedir)"
cd "$root/packaging"
"$work/venv/bin/pyinstaller" --noconfirm --clean --log-level WARN \
    --distpath "$out" --workpath "$work/build" gamesuite.spec

# Strip the largest libraries that tolerate it (llvmlite, libpython); PyInstaller's own strip
# would also strip numpy's bundled OpenBLAS, which then fails to load.
find "$out/gamesuite/_internal" \( -path '*/llvmlite/*.so' -o -name 'libpython3*.so*' \) -type f \
    -exec strip --strip-unneeded {} +

# The kernels, compiled now for a CPU family (x86-64-v3 by default: AVX2, any x86-64 CPU since about
# 2015) and shipped in the bundle: on such a CPU the first launch compiles nothing (packaging/entry.py
# copies them into the user's cache folder). Run last: the cache is keyed by the executable's hash.
cpu=${GAMESUITE_CPU_FAMILY:-x86-64-v3}
flags=${GAMESUITE_CPU_FLAGS:-"cx8 cmov mmx fxsr sse sse2 ssse3 fma cx16 sse4_1 sse4_2 movbe popcnt xsave avx f16c lahf_lm abm bmi1 avx2 bmi2"}
echo "== kernels for $cpu"
kcache="$work/kernel-cache"
t0=$(date +%s)
XDG_CACHE_HOME="$kcache" NUMBA_CPU_NAME="$cpu" NUMBA_CPU_FEATURES="" QT_QPA_PLATFORM=offscreen \
    "$out/gamesuite/gamesuite" prepare --quiet ${GAMESUITE_PREPARE_ARGS:-}
kdir="$out/gamesuite/_internal/kernels"
rm -rf "$kdir" && mkdir -p "$kdir"
cp -a "$kcache"/gamesuite/numba/*/. "$kdir/"
rm -f "$kdir/.seeded"
python3 - "$kdir/target.json" "$cpu" "$flags" <<'PY'
import json, sys
json.dump({"cpu_name": sys.argv[2], "cpu_features": "", "flags": sys.argv[3].split()}, open(sys.argv[1], "w"), indent=1)
PY
echo "kernels: $(du -sh "$kdir" | cut -f1), compiled in $(( $(date +%s) - t0 )) s"

echo "== .deb"
version=$("$work/venv/bin/python" -c "import gamesuite; print(gamesuite.__version__)")
arch=$(dpkg --print-architecture)
pkg="$work/deb"
mkdir -p "$pkg/DEBIAN" "$pkg/opt" "$pkg/usr/bin" "$pkg/usr/share/applications" \
    "$pkg/usr/share/icons/hicolor/scalable/apps" "$pkg/usr/share/doc/gamesuite"
cp -a "$out/gamesuite" "$pkg/opt/gamesuite"
ln -s /opt/gamesuite/gamesuite "$pkg/usr/bin/gamesuite"
install -m 644 "$root/resources/gamesuite.desktop" "$pkg/usr/share/applications/gamesuite.desktop"
install -m 644 "$root/resources/gamesuite.svg" "$pkg/usr/share/icons/hicolor/scalable/apps/gamesuite.svg"
install -m 644 "$root/LICENSE" "$pkg/usr/share/doc/gamesuite/copyright"
size=$(du -sk "$pkg" | cut -f1)
cat > "$pkg/DEBIAN/control" <<CONTROL
Package: gamesuite
Version: $version
Architecture: $arch
Maintainer: gamesuite authors <gamesuite@users.noreply.invalid>
Installed-Size: $size
Section: games
Priority: optional
Depends: libc6, libstdc++6, zlib1g, libgl1, libegl1, libfontconfig1, libfreetype6, libdbus-1-3, libglib2.0-0,
 libxkbcommon0, libxkbcommon-x11-0, libx11-6, libx11-xcb1, libxcb1, libxcb-cursor0, libxcb-icccm4,
 libxcb-image0, libxcb-keysyms1, libxcb-randr0, libxcb-render-util0, libxcb-shape0, libxcb-xfixes0,
 libxcb-xinerama0, libxcb-xkb1, libxrender1
Description: play and analyse board games against strong engines
 Tic-tac-toe, gomoku, shogi and Hare and Hedgehog with engines compiled by numba,
 an analysis board and engine protocols (USI, Gomocup).
CONTROL
fakeroot dpkg-deb --build -Zxz "$pkg" "$out/gamesuite_${version}_${arch}.deb" >/dev/null
echo "== done"
du -sh "$out/gamesuite" "$out/gamesuite_${version}_${arch}.deb"
