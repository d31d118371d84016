#!/usr/bin/env bash
# The "Run pvlint" step of action.yml. Every input arrives as an environment variable (PVLINT_*), so no
# input can inject shell code; paths and args are split on whitespace, never glob-expanded.
# With a SARIF file requested, pvlint runs twice: once writing SARIF, once printing the log format; the step's
# exit code is the second run's (0 clean, 1 findings at or above the fail level, 2 usage/config/render error).
set -o pipefail
set -f

bin=${PVLINT_BIN:?PVLINT_BIN is not set}
read -r -d '' -a paths <<<"${PVLINT_PATHS:-}"
if [ "${#paths[@]}" -eq 0 ]; then paths=(.); fi
read -r -d '' -a extra <<<"${PVLINT_ARGS:-}"

common=(--fail-level "${PVLINT_FAIL_LEVEL:-error}")
if [ -n "${PVLINT_CONFIG:-}" ]; then common+=(--config "$PVLINT_CONFIG"); fi
if [ "${#extra[@]}" -gt 0 ]; then common+=("${extra[@]}"); fi

sarif_written=
if [ -n "${PVLINT_SARIF_FILE:-}" ]; then
  case "$PVLINT_SARIF_FILE" in
    /*) sarif_abs=$PVLINT_SARIF_FILE ;;
    *) sarif_abs=$PWD/$PVLINT_SARIF_FILE ;;
  esac
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

node "$bin" --format "${PVLINT_FORMAT:-github}" "${common[@]}" -- "${paths[@]}"
code=$?

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "exit-code=$code"
    echo "sarif-file=$sarif_written"
  } >>"$GITHUB_OUTPUT"
fi
exit "$code"
