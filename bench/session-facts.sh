# Sourced by bench/compare-pgbench and bench/lab-overhead: what a session's --json file records
# besides its figures, so that README's tables can say when, on which machine and under which
# load each session ran (scripts/doc-tables reads these members).

# The commit of the checkout holding this script ("unknown" outside git).
checkout_commit() {
  git -C "$(dirname "${BASH_SOURCE[0]}")" describe --always --dirty 2>/dev/null || echo unknown
}

# session_facts_json STARTED LOAD_AT_START COMMIT: the members started, finished, pglab,
# machine, load_at_start and load_at_end, one line each group, each ending with a comma.
session_facts_json() {
  printf ' "started": "%s", "finished": "%s", "pglab": "%s",\n' "$1" "$(date -u +%FT%TZ)" "$3"
  printf ' "machine": {"cpus": %d, "cpu_model": "%s", "memory_kib": %d, "kernel": "%s"},\n' \
    "$(nproc)" "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)" \
    "$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)" "$(uname -sr)"
  printf ' "load_at_start": "%s", "load_at_end": "%s",\n' "$2" "$(cut -d' ' -f1-3 /proc/loadavg)"
}

# json_list ROW...: the rows (JSON objects) as the lines of an array's body.
json_list() {
  local sep=""
  for row in "$@"; do printf '%s  %s' "$sep" "$row"; sep=$',\n'; done
  printf '\n'
}
