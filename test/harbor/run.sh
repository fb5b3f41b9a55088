#!/bin/bash
# npm run test:harbor: every task exported at seed 0 and run by Harbor's oracle and nop agents on
# docker, as docs/harbor.md describes. Needs root and Debian's archive; builds everything it runs
# from Debian packages and the vendored Harbor source. Not part of npm test.
#
# HARBOR_SOURCE   Harbor's source tarball (default /work/shared/harbor/harbor-0.22.0-7d91dbfa.tar.gz)
# HARBOR_SHIM     the stub loader for the modules Debian lacks (default: harbor_shim.py beside it)
# HARBOR_TASKS    comma-separated tasks (default: every task under tasks/)
# HARBOR_WORK     the work folder (default: a new folder under /tmp; removed at the end unless HARBOR_KEEP=1)
# HARBOR_MAX_LOAD refuse to start above this load average (default 6)
# HARBOR_CONCURRENCY trials Harbor runs at once (its -n; default 1)
# HARBOR_KEEP=1   keep the work folder (logs, the dataset, Harbor's job folders)
# HARBOR_KEEP_IMAGES=1  keep the images (otherwise, when this run started dockerd, the images it made are
#                 removed before dockerd is stopped by its pid; a dockerd already running is left as it was)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SOURCE=${HARBOR_SOURCE:-/work/shared/harbor/harbor-0.22.0-7d91dbfa.tar.gz}
SHIM=${HARBOR_SHIM:-$(dirname "$SOURCE")/harbor_shim.py}
WORK=${HARBOR_WORK:-$(mktemp -d /tmp/bb-erp-harbor-XXXXXX)}
MAX_LOAD=${HARBOR_MAX_LOAD:-6}
BASE=local/debian:trixie
NODE=local/bb-erp-node:20
RUNNER=local/bb-erp-harbor-runner:0.22.0
say() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
fail() { say "FAIL: $*"; exit 1; }

DOCKERD_PID=""
cleanup() {
  set +e
  if [ -n "$DOCKERD_PID" ]; then
    if [ "${HARBOR_KEEP_IMAGES:-0}" != 1 ] && [ -f "$WORK/images-before" ]; then
      # Only what this run made: the images (intermediate ones too) that were not there when it started.
      docker ps -aq | xargs -r docker rm -f >/dev/null 2>&1
      # A parent is refused while its children stand: children go in the first pass, parents after.
      for _ in 1 2 3; do docker images -aq --no-trunc | sort -u | comm -13 "$WORK/images-before" - | xargs -r docker rmi -f >/dev/null 2>&1; done
      # A daemon that held no image before this run holds no build cache of anyone else's either.
      [ -s "$WORK/images-before" ] || docker builder prune -af >/dev/null 2>&1
    fi
    say "stopping dockerd ($DOCKERD_PID)"
    kill "$DOCKERD_PID" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 0.2; done
  fi
  [ "${HARBOR_KEEP:-0}" = 1 ] || rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

[ "$(id -u)" = 0 ] || fail "needs root (apt-get, dockerd)."
[ -f "$SOURCE" ] || fail "no Harbor source at $SOURCE (HARBOR_SOURCE)."
[ -f "$SHIM" ] || fail "no harbor_shim.py at $SHIM (HARBOR_SHIM)."
[ -f "$ROOT/dist/src/export/harbor/export.js" ] || fail "the package is not built: npm run build first."
# Called before each heavy phase: a shared machine above the limit is left alone.
check_load() {
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  if awk -v l="$load" -v m="$MAX_LOAD" 'BEGIN { exit !(l > m) }'; then fail "load average $load is above $MAX_LOAD (HARBOR_MAX_LOAD) before $1: stopping."; fi
}
check_load "starting"
mkdir -p "$WORK"
say "work folder $WORK"

# --- docker -----------------------------------------------------------------------------------
missing=()
command -v dockerd >/dev/null || missing+=(docker.io)
command -v iptables >/dev/null || missing+=(iptables)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"; } >"$WORK/apt.log" 2>&1 || fail "apt-get install ${missing[*]} (see $WORK/apt.log)"
fi


if ! docker info >/dev/null 2>&1; then
  dockerd >"$WORK/dockerd.log" 2>&1 &
  DOCKERD_PID=$!
  for _ in $(seq 1 100); do docker info >/dev/null 2>&1 && break; sleep 0.2; done
  docker info >/dev/null 2>&1 || fail "dockerd did not start (see $WORK/dockerd.log)"
  say "dockerd started ($DOCKERD_PID)"
  docker images -aq --no-trunc | sort -u >"$WORK/images-before"
fi

# --- images -----------------------------------------------------------------------------------
t0=$SECONDS
if ! docker image inspect "$BASE" >/dev/null 2>&1; then
  check_load "debootstrap"
  say "debootstrap trixie (minbase) for $BASE"
  debootstrap --variant=minbase trixie "$WORK/rootfs" http://deb.debian.org/debian >"$WORK/debootstrap.log" 2>&1 || fail "debootstrap (see $WORK/debootstrap.log)"
  tar -C "$WORK/rootfs" -c . | docker import - "$BASE" >/dev/null
  rm -rf "$WORK/rootfs"
fi
mkdir -p "$WORK/node-image"
cat >"$WORK/node-image/Dockerfile" <<EOF
FROM $BASE
RUN apt-get update && apt-get install -y --no-install-recommends nodejs ca-certificates && rm -rf /var/lib/apt/lists/*
EOF
check_load "building $NODE"
docker build -q -t "$NODE" "$WORK/node-image" >/dev/null || fail "building $NODE"
mkdir -p "$WORK/runner-image/meta/harbor-0.22.0.dist-info"
tar -xzf "$SOURCE" -C "$WORK/runner-image"
mv "$WORK/runner-image"/harbor-* "$WORK/runner-image/harbor"
cp "$SHIM" "$WORK/runner-image/harbor_shim.py"
printf 'Metadata-Version: 2.1\nName: harbor\nVersion: 0.22.0\n' >"$WORK/runner-image/meta/harbor-0.22.0.dist-info/METADATA"
cat >"$WORK/runner-image/Dockerfile" <<EOF
FROM $BASE
RUN apt-get update && apt-get install -y --no-install-recommends python3 python3-pydantic python3-typer python3-rich \
    python3-shortuuid python3-requests python3-yaml python3-toml python3-tenacity python3-dotenv python3-jinja2 \
    python3-dirhash python3-packaging python3-fastapi python3-uvicorn python3-pathspec python3-httpx python3-filelock \
    python3-platformdirs python3-jwt docker-cli docker-compose && rm -rf /var/lib/apt/lists/*
COPY harbor/src /opt/harbor/src
COPY meta /opt/harbor/meta
COPY harbor_shim.py /opt/harbor/harbor_shim.py
ENV PYTHONPATH=/opt/harbor/src:/opt/harbor/meta HARBOR_STUBS=postgrest,litellm
ENTRYPOINT ["python3", "/opt/harbor/harbor_shim.py"]
EOF
check_load "building $RUNNER"
docker build -q -t "$RUNNER" "$WORK/runner-image" >/dev/null || fail "building $RUNNER"
say "images ready in $((SECONDS - t0)) s"

# --- export and run ---------------------------------------------------------------------------
TASKS=${HARBOR_TASKS:-$(ls "$ROOT/tasks" | grep -v -e '^shared$' -e '\.md$' | paste -sd, -)}
DATASET="$WORK/dataset"
IFS=, read -ra task_list <<<"$TASKS"
for task in "${task_list[@]}"; do
  node "$ROOT/bin/run.js" export harbor --task "$task" --seeds 0 --out "$DATASET" --base-image "$NODE" >/dev/null 2>>"$WORK/export.log" || fail "export of $task (see $WORK/export.log)"
done
say "exported ${#task_list[@]} task(s) to $DATASET"

# A probe in each task's main image: the files it adds to its base are the erp client and the
# handbook, nothing of the scenario; the only token anywhere it can read is its own.
docker run --rm --network none "$NODE" find / -xdev -type f 2>/dev/null | sort >"$WORK/base-files"
for task in "${task_list[@]}"; do
  env_dir="$DATASET/$task-seed-0/environment"
  docker build -q --build-arg BASE_IMAGE="$NODE" -t local/bb-erp-probe-main "$env_dir" >/dev/null || fail "building $task's main image"
  added=$(docker run --rm --network none local/bb-erp-probe-main find / -xdev -type f 2>/dev/null | sort | comm -13 "$WORK/base-files" - \
    | grep -v -e '^/opt/erp/erp-client\.cjs$' -e '^/opt/erp/erp-mcp\.cjs$' -e '^/opt/erp/package\.json$' -e '^/usr/local/bin/erp$' -e '^/workspace/handbook/[^/]*\.md$' || true)
  [ -z "$added" ] || fail "$task's main image holds files beyond the client and the handbook: $added"
  tokens=$(docker run --rm --network none local/bb-erp-probe-main sh -c '{ grep -rhoa "erp_[0-9a-f]\{40\}" / --exclude-dir=proc --exclude-dir=sys --exclude-dir=dev 2>/dev/null; printenv ERP_TOKEN; } | sort -u')
  [ "$(printf '%s\n' "$tokens" | grep -c .)" = 1 ] || fail "$task's main image holds more than its own token: $tokens"
  say "probe of $task's main image: the client and the handbook only, one token (its own)"
done

for agent in oracle nop; do
  check_load "harbor run -a $agent"
  t1=$SECONDS
  # Bind mounts need the same paths inside the runner as outside: Harbor passes them to the host's docker.
  docker run --rm -v /var/run/docker.sock:/var/run/docker.sock -v "$WORK:$WORK" -w "$WORK" "$RUNNER" \
    run -p "$DATASET" -a "$agent" -e docker -n "${HARBOR_CONCURRENCY:-1}" -o "$WORK/jobs-$agent" >"$WORK/harbor-$agent.log" 2>&1 \
    || fail "harbor run -a $agent (see $WORK/harbor-$agent.log)"
  say "harbor run -a $agent: $((SECONDS - t1)) s"
done

# --- check ------------------------------------------------------------------------------------
node "$ROOT/test/harbor/check.js" "$DATASET" "$WORK/jobs-oracle" "$WORK/jobs-nop"
docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -e "$NODE" -e "$RUNNER" -e "$BASE" -e '^hb__' >&2 || true
