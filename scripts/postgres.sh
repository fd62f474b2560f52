#!/usr/bin/env bash
# A throwaway PostgreSQL server for the store's tests, on 127.0.0.1 only:
#
#   eval "$(scripts/postgres.sh start)"    # starts one, prints (and so sets) the exports
#   go test ./store/... ./cmd/stolik/ -count=1
#   scripts/postgres.sh stop               # stops it and deletes its files
#
# start prints
#   export STOLIK_TEST_POSTGRES=postgres://stolikci@127.0.0.1:PORT/postgres?sslmode=disable
#   export STOLIK_PG_DIR=DIR
# The tests create a database of their own on that server for every test
# (stolik_test_<random>) and drop it afterwards.
#
# The cluster lives in a new temporary directory, listens on 127.0.0.1 on a
# free port (and a Unix socket in its directory), trusts every local
# connection (no password: it is for tests on this machine only) and runs
# with fsync off (a throwaway, nothing in it needs to survive a crash). Its
# superuser is "stolikci". PostgreSQL refuses to run as root: run as root,
# the script creates the system user stolikci (useradd -m) and runs the
# server as that user. When initdb is not on PATH it uses
# /usr/lib/postgresql/*/bin, and, as root, installs the Debian package
# postgresql when that is missing too.
set -euo pipefail

pg_user=stolikci

log() { echo "postgres.sh: $*" >&2; }

bindir() {
	if command -v initdb >/dev/null 2>&1; then
		dirname "$(command -v initdb)"
		return
	fi
	local d
	d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
	if [ -z "$d" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		log "installing PostgreSQL (apt-get install postgresql)"
		apt-get update -qq >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
		d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
	fi
	if [ -z "$d" ] || [ ! -x "$d/initdb" ]; then
		log "no PostgreSQL server found (initdb is neither on PATH nor in /usr/lib/postgresql/*/bin); install the postgresql package"
		exit 1
	fi
	echo "$d"
}

# as runs a command as the server's system user (root cannot run postgres).
as() {
	if [ "$(id -u)" = 0 ]; then
		if command -v runuser >/dev/null 2>&1; then
			runuser -u "$pg_user" -- "$@"
		else
			su "$pg_user" -s /bin/sh -c "$(printf '%q ' "$@")"
		fi
	else
		"$@"
	fi
}

port_free() {
	! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

start() {
	local bin dir port try
	bin=$(bindir)
	if [ "$(id -u)" = 0 ] && ! id "$pg_user" >/dev/null 2>&1; then
		log "creating the system user $pg_user"
		useradd -m "$pg_user"
	fi
	dir=$(mktemp -d "${TMPDIR:-/tmp}/stolik-pg.XXXXXX")
	if [ "$(id -u)" = 0 ]; then
		chown "$pg_user" "$dir"
	fi
	chmod 700 "$dir"
	cd "$dir" # the server's user must be able to stand in the working directory
	as "$bin/initdb" -D "$dir/data" -U "$pg_user" --auth=trust --encoding=UTF8 --no-locale --no-sync >"$dir/initdb.log" 2>&1 || {
		cat "$dir/initdb.log" >&2
		log "initdb failed"
		exit 1
	}
	for try in $(seq 1 20); do
		port=$((20000 + RANDOM % 40000))
		port_free "$port" || continue
		if as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
			-o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
			start >"$dir/pg_ctl.log" 2>&1; then
			echo "$bin" >"$dir/bindir"
			echo "export STOLIK_TEST_POSTGRES='postgres://$pg_user@127.0.0.1:$port/postgres?sslmode=disable'"
			echo "export STOLIK_PG_DIR='$dir'"
			log "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') listening on 127.0.0.1:$port (data in $dir; stop it with: scripts/postgres.sh stop)"
			return
		fi
		log "port $port: the server did not start (try $try); trying another"
		tail -n 5 "$dir/server.log" >&2 || true
	done
	log "the server did not start; see $dir/server.log"
	exit 1
}

stop() {
	local dir="${1:-${STOLIK_PG_DIR:-}}"
	if [ -z "$dir" ] || [ ! -d "$dir" ]; then
		log "stop: which cluster? (STOLIK_PG_DIR is not set, or the directory is gone)"
		exit 1
	fi
	cd /
	if [ -f "$dir/bindir" ] && [ -f "$dir/data/postmaster.pid" ]; then
		as "$(cat "$dir/bindir")/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || log "stop: pg_ctl stop failed"
	fi
	rm -rf "$dir"
	log "stopped; $dir deleted"
}

case "${1:-}" in
start) start ;;
stop) stop "${2:-}" ;;
*)
	echo "usage: eval \"\$(scripts/postgres.sh start)\"; ...; scripts/postgres.sh stop [DIR]" >&2
	exit 2
	;;
esac
