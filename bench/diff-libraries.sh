#!/usr/bin/env bash
# usage: bench/diff-libraries.sh [--runs N] [--no-load]   (default 6 runs, loaded)
#
# tracebeat diff on a real library's two releases: jsoup 1.17.2 and 1.18.1
# from Maven Central, each instrumented on its own (its own map), drive the
# same program (testdata/diff/jsoup: it parses generated pages, selects
# from them and writes them out; its output is the same with either). Each
# release is recorded N times in stream mode (the whole run), with three
# processes spinning on the cores (a busy CI runner; --no-load: a quiet
# machine), with the shared clock and the precise one. It prints:
#   - for each release and clock, how many of the splits of its own runs
#     into two sides of at least 3 give any verdict (the false alarms of
#     the gate on one build: there should be none);
#   - the comparison of the two releases (shared clock, then precise),
#     whose verdicts the releases' changes should explain.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs=6
load=1
while (($#)); do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --no-load) load=0; shift ;;
    *) echo "usage: bench/diff-libraries.sh [--runs N] [--no-load]" >&2; exit 2 ;;
  esac
done
for tool in go java javac mvn; do
  command -v "$tool" >/dev/null || { echo "diff-libraries: $tool not found" >&2; exit 2; }
done
OLD=1.17.2
NEW=1.18.1
for v in $OLD $NEW; do
  mvn -q dependency:get -Dartifact="org.jsoup:jsoup:$v" >/dev/null
done
m2="${HOME}/.m2/repository/org/jsoup/jsoup"
WORK="$(mktemp -d)"
spinners=()
cleanup() {
  for p in "${spinners[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
cd "$WORK"
(cd "$ROOT" && go build -o "$WORK/" ./cmd/tracebeat ./internal/tools/difffalse)
./tracebeat runtime -o rt.jar 2>/dev/null
javac -cp "$m2/$NEW/jsoup-$NEW.jar" -d drv "$ROOT/testdata/diff/jsoup/bench/Parse.java"
for v in $OLD $NEW; do
  ./tracebeat instrument -q -o "inst-$v" "$m2/$v/jsoup-$v.jar"
done
if ((load)); then
  for _ in 1 2 3; do
    (while :; do :; done) &
    spinners+=($!)
  done
fi
for clock in shared precise; do
  for v in $OLD $NEW; do
    ./tracebeat record -n "$runs" -o "$clock-$v" -- java -Dtracebeat.mode=stream -Dtracebeat.clock=$clock \
      -cp "rt.jar:inst-$v/jsoup-$v.jar:drv" bench.Parse >/dev/null 2>"record-$clock-$v.log" ||
      { cat "record-$clock-$v.log" >&2; exit 1; }
    tail -1 "record-$clock-$v.log"
  done
done
for p in "${spinners[@]}"; do kill "$p" 2>/dev/null || true; done
spinners=()
echo
echo "The gate on one release's own runs (every split into two sides of 3 or more):"
summary=""
for clock in shared precise; do
  for v in $OLD $NEW; do
    line=$(./difffalse "$clock-$v" "inst-$v/methodMapping.txt")
    echo "  $clock clock, jsoup $v: $line"
    summary+=" ${clock}_$v=$(awk '{print $1"/"$4}' <<<"$line")"
  done
done
for clock in shared precise; do
  echo
  echo "jsoup $OLD -> $NEW, $clock clock:"
  echo
  set +e
  ./tracebeat diff --base-map "inst-$OLD/methodMapping.txt" --map "inst-$NEW/methodMapping.txt" "$clock-$OLD" "$clock-$NEW" 2>/dev/null | sed -n '1,40p'
  status=${PIPESTATUS[0]}
  set -e
  echo "(exit $status)"
  summary+=" ab_$clock=$status"
done
echo "diff-libraries:$summary"
