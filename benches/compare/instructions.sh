#!/usr/bin/env bash
# Instructions per operation of one query class, counted by callgrind: repeatable on a
# shared machine where wall-clock timings are not. Only the engine's search call (or the
# whole scroll, for Q10) is counted, and the difference of two runs of N1 and N2
# operations removes the setup and the first, cache-filling round.
#
#   benches/compare/instructions.sh BIN DATA_DIR DOCS CLASS N1 N2
#   e.g. benches/compare/instructions.sh benches/compare/target/release/metagate-compare \
#          benches/compare/target/data 100000 Q8 24 72
#
# DATA_DIR/DOCS must hold a metagate file built by the same binary
# (`BIN --worker build --engines metagate --docs DOCS --data DATA_DIR/DOCS`).
set -euo pipefail
bin=$1 data=$2 docs=$3 class=$4 n1=$5 n2=$6
fn='*Searcher>::run'
[ "$class" = Q10 ] && fn='*Searcher>::scroll'
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no "--toggle-collect=$fn" \
    "$bin" --worker loop --engines metagate --docs "$docs" --data "$data/$docs" --class "$class" --ops "$1" 2>&1 >/dev/null |
    awk '/Collected/ {print $4}'
}
a=$(count "$n1")
b=$(count "$n2")
echo "$class: $(( (b - a) / (n2 - n1) )) instructions per operation"
