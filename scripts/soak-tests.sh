#!/usr/bin/env bash
# Runs the vitest suite several times in a row from a fresh clone in a folder only its owner may
# enter (mktemp -d, 0700), optionally with CPU hogs running beside it: a test that fails here
# depends on the machine (where the checkout lies, how loaded it is), not on the code.
#
#   scripts/soak-tests.sh [RUNS=10] [HOGS=0]
#
# Clones the committed HEAD of this checkout, installs with `npm ci`, then runs `npx vitest run`
# RUNS times, with nothing built beforehand (the suite's global setup builds what it runs). Prints one line per run, the load average at start and end, and
# keeps each failing run's log (the clone is removed when every run passed). Exit 0 only when every run passed.
set -uo pipefail

runs="${1:-10}"
hogs="${2:-0}"
source_repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
echo "soak: $runs runs, $hogs CPU hogs, clone in $work ($(stat -c %a "$work")); load: $(cut -d' ' -f1-3 /proc/loadavg)"

hog_pids=()
stop_hogs() {
  for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null; done
  hog_pids=()
}
trap stop_hogs EXIT

git clone -q "$source_repo" "$work/hindsight" || exit 1
cd "$work/hindsight" || exit 1
echo "soak: commit $(git rev-parse --short HEAD)"
npm ci --no-audit --no-fund >"$work/install.log" 2>&1 || { echo "soak: npm ci failed, see $work/install.log"; exit 1; }

for _ in $(seq 1 "$hogs"); do
  node -e 'for (;;) {}' &
  hog_pids+=("$!")
done

failed=0
for run in $(seq 1 "$runs"); do
  log="$work/run-$run.log"
  started=$(date +%s)
  if npx vitest run >"$log" 2>&1; then
    echo "run $run: pass ($(( $(date +%s) - started )) s, load $(cut -d' ' -f1 /proc/loadavg))"
    rm -f "$log"
  else
    failed=$((failed + 1))
    echo "run $run: FAIL ($(( $(date +%s) - started )) s, load $(cut -d' ' -f1 /proc/loadavg)), log kept: $log"
    grep -E 'FAIL|✗|×' "$log" | sed 's/\x1b\[[0-9;]*m//g' | sort -u | head -20
  fi
done
stop_hogs

echo "soak: $((runs - failed))/$runs passed; load: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$failed" -eq 0 ]; then
  rm -rf "$work"
else
  echo "soak: failing logs in $work"
  exit 1
fi
