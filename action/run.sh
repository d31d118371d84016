#!/usr/bin/env bash
# The "Run pvlint" step of action.yml. Every input arrives as an environment variable (PVLINT_*), so no
# input can inject shell code. `paths` and `args` take one item per line: a line is one argument, spaces and all
# (`--kustomize-command` on one line, `kustomize build --load-restrictor LoadRestrictionsNone` on the next);
# surrounding blanks and empty lines are dropped; nothing is word-split or glob-expanded.
#
# pvlint runs up to three times, sharing one cache so files are parsed and rendered once:
#   1. SARIF (when sarif-file is set or upload-sarif is true), for code scanning;
#   2. Markdown, the whole report, appended to the job summary ($GITHUB_STEP_SUMMARY, at most 1 MiB per step);
#   3. the log format (annotations by default): its exit code is the step's (0 clean, 1 findings at or above the
#      fail level, 2 usage/config/render error).
# Every output path is resolved against the working directory the step runs in (the `working-directory` input).
set -o pipefail
set -f

bin=${PVLINT_BIN:?PVLINT_BIN is not set}

# Sets `lines` to the non-empty lines of $1, surrounding blanks (and a CR from a CRLF file) removed. No
# namerefs or mapfile: macOS runners may run bash 3.2.
split_lines() {
  local line
  lines=()
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line%$'\r'}
    line=${line#"${line%%[![:space:]]*}"}
    line=${line%"${line##*[![:space:]]}"}
    if [ -n "$line" ]; then lines+=("$line"); fi
  done <<<"$1"
}

split_lines "${PVLINT_PATHS:-}"
paths=("${lines[@]}")
if [ "${#paths[@]}" -eq 0 ]; then paths=(.); fi
split_lines "${PVLINT_ARGS:-}"
extra=("${lines[@]}")

work=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/pvlint-action.XXXXXX")
trap 'rm -rf "$work"' EXIT

common=(--fail-level "${PVLINT_FAIL_LEVEL:-error}" --cache-location "$work/cache")
if [ -n "${PVLINT_CONFIG:-}" ]; then common+=(--config "$PVLINT_CONFIG"); fi
if [ "${#extra[@]}" -gt 0 ]; then common+=("${extra[@]}"); fi

absolute() {
  case "$1" in
    /*) printf '%s' "$1" ;;
    *) printf '%s/%s' "$PWD" "$1" ;;
  esac
}

sarif_written=
sarif_target=${PVLINT_SARIF_FILE:-}
if [ -z "$sarif_target" ] && [ "${PVLINT_UPLOAD_SARIF:-false}" = true ]; then
  sarif_target=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/pvlint-$$.sarif
fi
if [ -n "$sarif_target" ]; then
  sarif_abs=$(absolute "$sarif_target")
  mkdir -p "$(dirname "$sarif_abs")"
  rm -f "$sarif_abs"
  sarif=(--format sarif --output "$sarif_abs")
  if [ -n "${PVLINT_SARIF_CATEGORY:-}" ]; then sarif+=(--sarif-category "$PVLINT_SARIF_CATEGORY"); fi
  node "$bin" "${sarif[@]}" "${common[@]}" -- "${paths[@]}"
  sarif_code=$?
  if [ -f "$sarif_abs" ]; then
    sarif_written=$sarif_abs
    echo "pvlint: SARIF written to $sarif_abs (pvlint exit code $sarif_code)"
  else
    echo "::error title=pvlint::no SARIF file was written (pvlint exit code $sarif_code)"
  fi
fi

# The job summary: the whole report as Markdown. GitHub refuses a step summary over 1 MiB (and then shows none),
# so a longer one is cut at a line boundary with a note where the rest is.
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  node "$bin" --format markdown --output "$work/summary.md" "${common[@]}" -- "${paths[@]}" >/dev/null 2>"$work/summary.err"
  if [ -s "$work/summary.md" ]; then
    limit=$((1024 * 1024 - 4096))
    if [ "$(wc -c <"$work/summary.md")" -gt "$limit" ]; then
      head -c "$limit" "$work/summary.md" | sed '$d' >"$work/summary.cut"
      printf '\n\n**The report was cut here: GitHub keeps at most 1 MiB of summary per step. The step log and the SARIF file have every finding.**\n' >>"$work/summary.cut"
      mv "$work/summary.cut" "$work/summary.md"
    fi
    cat "$work/summary.md" >>"$GITHUB_STEP_SUMMARY"
  else
    { echo '### pvlint'; echo; echo 'pvlint wrote no report:'; echo; echo '```'; head -c 65536 "$work/summary.err"; echo '```'; } >>"$GITHUB_STEP_SUMMARY"
  fi
fi

node "$bin" --format "${PVLINT_FORMAT:-github}" "${common[@]}" -- "${paths[@]}"
code=$?

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "exit-code=$code"
    echo "sarif-file=$sarif_written"
  } >>"$GITHUB_OUTPUT"
fi
exit "$code"
