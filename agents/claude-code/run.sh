#!/bin/sh
# A bb-erp cmd: adapter for Claude Code. The runner appends the turn's prompt file; HOME is a fresh
# empty folder each turn, seeded here with the non-secret settings beside this script.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prompt_file=$1
mkdir -p "$HOME/.claude"
cp "$here/settings.json" "$HOME/.claude/settings.json"
# The usage line (tokens, total_cost_usd) is Claude Code's JSON result on stdout: the runner keeps
# it in turns/<n>/stdout.txt and reads it into result.json's usage.
exec "${CLAUDE_BIN:-claude}" -p --output-format json --mcp-config "$here/mcp.json" --strict-mcp-config \
  --allowedTools 'mcp__erp' --permission-mode acceptEdits "$(cat "$prompt_file")"
