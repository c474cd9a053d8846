#!/bin/sh
# postgres: a fresh cluster (socket in /tmp: psql -h /tmp) with role and database `asdas` (password $POSTGRES_PASSWORD), on *:${POSTGRES_PORT:-5432}.
# redis: no persistence, password $REDIS_PASSWORD, on *:${REDIS_PORT:-6379}.
set -eu
case "${1:-}" in
  postgres)
    data=/var/lib/postgresql/data
    if [ ! -s "$data/PG_VERSION" ]; then
      install -d -o postgres -g postgres -m 700 "$data"
      printf '%s\n' "$POSTGRES_PASSWORD" > /tmp/pwfile && chown postgres /tmp/pwfile
      su postgres -s /bin/sh -c "/usr/local/pgbin/initdb -D $data -U postgres --auth-local=trust --auth-host=scram-sha-256 --pwfile=/tmp/pwfile >/dev/null"
      rm /tmp/pwfile
      echo "host all all 0.0.0.0/0 scram-sha-256" >> "$data/pg_hba.conf"
      su postgres -s /bin/sh -c "/usr/local/pgbin/pg_ctl -D $data -o '-c listen_addresses= -c unix_socket_directories=/tmp' -w start >/dev/null"
      su postgres -s /bin/sh -c "/usr/local/pgbin/psql -h /tmp -q -v ON_ERROR_STOP=1 -c \"create role asdas login password '$POSTGRES_PASSWORD'\" -c 'create database asdas owner asdas'"
      su postgres -s /bin/sh -c "/usr/local/pgbin/pg_ctl -D $data -w stop >/dev/null"
    fi
    exec setpriv --reuid=postgres --regid=postgres --init-groups \
      /usr/local/pgbin/postgres -D "$data" -c listen_addresses='*' -c port="${POSTGRES_PORT:-5432}" -c unix_socket_directories=/tmp
    ;;
  redis)
    exec setpriv --reuid=redis --regid=redis --init-groups redis-server --bind 0.0.0.0 --port "${REDIS_PORT:-6379}" --requirepass "$REDIS_PASSWORD" --save '' --appendonly no
    ;;
  *)
    exec "$@"
    ;;
esac
