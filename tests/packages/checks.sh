# Sourced by the package tests: `check NAME COMMAND...` runs one check with its output in
# $out/NAME.log and counts it; `$kind` names the suite in each line.
passed=0
failed=0
check() {
  local name=$1
  shift
  if "$@" > "$out/$name.log" 2>&1; then
    echo "ok - $kind $name: $(tail -1 "$out/$name.log")"
    passed=$((passed + 1))
  else
    echo "not ok - $kind $name (see $out/$name.log)"
    tail -5 "$out/$name.log" | sed 's/^/    /'
    failed=$((failed + 1))
  fi
}
