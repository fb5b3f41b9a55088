#!/bin/sh
# A bb-erp cmd: adapter for the Codex CLI. The runner appends the turn's prompt file; HOME is a fresh
# empty folder each turn, seeded here with the non-secret config beside this script.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prompt_file=$1
mkdir -p "$HOME/.codex"
cp "$here/config.toml" "$HOME/.codex/config.toml"
# --json prints one event a line; its turn.completed events carry the token usage, which the runner
# keeps in turns/<n>/stdout.txt and sums into result.json's usage. The prompt is read from stdin ("-").
exec "${CODEX_BIN:-codex}" exec --json --skip-git-repo-check --cd "$PWD" - < "$prompt_file"
