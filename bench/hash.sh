#!/usr/bin/env bash
# bench/hash.sh: SPEC §9 P5, `resumelint bundle verify` against
# `sha256sum -c` on 1 GiB of outputs in 1,000 files, on this machine.
#
# Builds resumelint, generates the bundle once (bench/out/hash/, git-ignored),
# warms the file cache with one run of each command, then times them
# interleaved, RUNS times each (default 3), and prints the median wall times,
# the ratios against the goals (<= 1.1x with --jobs 1, <= 0.6x with
# --jobs 2) and the peak RSS from /usr/bin/time -v, which must not grow with
# output size (a 64 MiB bundle is measured for comparison).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${HASH_BENCH_OUT:-$PWD/bench/out/hash}
RUNS=${RUNS:-3}
BIN=$OUT/resumelint
mkdir -p "$OUT"

echo "== building"
go build -o "$BIN" ./cmd/resumelint
go build -tags bench -o "$OUT/genbundle" ./bench/genbundle

echo "== generating 1 GiB in 1,000 files (once)"
"$OUT/genbundle" -dir "$OUT/big" -files 1000 -bytes $((1 << 30))
"$OUT/genbundle" -dir "$OUT/small" -files 1000 -bytes $((64 << 20))

now() { date +%s%N; }
# secs CMD...: run once, print wall seconds; any failure aborts the script.
secs() {
  local t0 t1
  t0=$(now)
  "$@" >/dev/null
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
verdict() { awk -v v="$1" -v goal="$2" 'BEGIN { print (v <= goal ? "ok" : "MISSED") }'; }

sha() { (cd "$1" && sha256sum -c --quiet SHA256SUMS); }
rl() { "$BIN" bundle verify --jobs "$2" "$1"; }

echo "== warming the file cache"
sha "$OUT/big" >/dev/null
rl "$OUT/big" 1 >/dev/null
rl "$OUT/big" 2 >/dev/null

echo "== $RUNS interleaved runs each"
: > "$OUT/sha"; : > "$OUT/j1"; : > "$OUT/j2"
for ((i = 0; i < RUNS; i++)); do
  secs sha "$OUT/big" >> "$OUT/sha"
  secs rl "$OUT/big" 1 >> "$OUT/j1"
  secs rl "$OUT/big" 2 >> "$OUT/j2"
done
s=$(median < "$OUT/sha"); j1=$(median < "$OUT/j1"); j2=$(median < "$OUT/j2")
r1=$(ratio "$j1" "$s"); r2=$(ratio "$j2" "$s")

echo
echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3), $(sha256sum --version | head -1)"
echo "runs (s): sha256sum -c: $(paste -sd' ' "$OUT/sha"); --jobs 1: $(paste -sd' ' "$OUT/j1"); --jobs 2: $(paste -sd' ' "$OUT/j2")"
printf "%-34s %-10s %-8s %s\n" figure value goal result
printf "%-34s %-10s %-8s %s\n" "sha256sum -c (median)" "${s}s" "" ""
printf "%-34s %-10s %-8s %s\n" "bundle verify --jobs 1 / sha256sum" "${r1}x" "<=1.1x" "$(verdict "$r1" 1.1)"
printf "%-34s %-10s %-8s %s\n" "bundle verify --jobs 2 / sha256sum" "${r2}x" "<=0.6x" "$(verdict "$r2" 0.6)"

if [[ -x /usr/bin/time ]]; then
  peak() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }'; }
  printf "%-34s %-10s\n" "peak RSS sha256sum -c, 1 GiB" "$(cd "$OUT/big" && peak sha256sum -c --quiet SHA256SUMS) MiB"
  for j in 1 2; do
    big=$(peak "$BIN" bundle verify --jobs $j "$OUT/big")
    small=$(peak "$BIN" bundle verify --jobs $j "$OUT/small")
    printf "%-34s %-10s\n" "peak RSS --jobs $j, 1 GiB / 64 MiB" "$big / $small MiB"
  done
else
  echo "/usr/bin/time is not installed: peak RSS not measured"
fi
