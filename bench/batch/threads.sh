#!/bin/bash
# Per-thread CPU of one real batch run: bench/batch/threads.sh <checkout> <workers> <input.csv> <out.csv> [cache dir]
# Runs `src/main.ts screen --file` of <checkout> and samples /proc/<pid>/task/*/stat every 0.3 s, then
# prints wall, the process's CPU, the main thread's, each thread above 2 s (the batch workers and, on
# a busy run, V8's platform threads: GC helpers and concurrent compilation) and the rest. NODEFLAGS
# adds node flags (e.g. NODEFLAGS=--v8-pool-size=1). Linux only. Used for bench/batch/RESULTS.md (wip/bpool).
repo=$(cd "$1" && pwd); workers=$2; input=$(realpath "$3"); out=$4; cache=${5:-$(mktemp -d)}
cd "$repo" || exit 1
t0=$(date +%s.%N)
LOG_LEVEL=warn LISTS_DIR="$repo/lists" INDEX_CACHE_DIR="$cache" node $NODEFLAGS --import tsx src/main.ts screen --file "$input" --out "$out" --workers "$workers" 2>"$out.log" &
pid=$!
declare -A cpu
while kill -0 $pid 2>/dev/null; do
  for t in /proc/$pid/task/*; do
    s=$(cat "$t/stat" 2>/dev/null) || continue
    rest=${s#*) }
    set -- $rest
    cpu[${t##*/}]=$(( ${12} + ${13} ))
  done
  sleep 0.3
done
wait $pid; rc=$?
t1=$(date +%s.%N)
tick=$(getconf CLK_TCK)
total=0; big=""; rest=0
for tid in "${!cpu[@]}"; do
  c=${cpu[$tid]}; total=$((total + c))
  if [ "$tid" = "$pid" ]; then main=$c
  elif [ "$c" -gt $((2 * tick)) ]; then big="$big $(echo "scale=1; $c / $tick" | bc)"
  else rest=$((rest + c)); fi
done
s() { echo "scale=1; $1 / $tick" | bc; }
echo "rc=$rc wall=$(echo "$t1 - $t0" | bc | cut -c1-5) cpu=$(s $total) main=$(s $main) threads>2s=[$big ] rest=$(s $rest) | $(grep -o 'screened [0-9]* names.*RSS [0-9]* MB' "$out.log" | tail -1)"
