#!/usr/bin/env bash
# Installs Dungeon Deck as a systemd service from the clone this script is in. Run it as root:
#
#   git clone <repository> /srv/dungeon-deck
#   /srv/dungeon-deck/deploy/install.sh
#
# Each step, in order (running it again repairs what it finds and changes nothing else):
#   1. the system user (dungeon): home the clone, no login shell, a group of its own;
#   2. the clone is given to that user (it was cloned by root), so that it can build .venv;
#   3. as that user: .venv with `python3 -m venv`, then `make test` (installs the project
#      into .venv and runs every check; minutes);
#   4. data/ (the database) and backups/, owned by the user, mode 0700;
#   5. .env from .env.example if there is none, owned by the user, mode 0600 (the token);
#   6. the unit, deploy/dungeon-deck.service, written to /etc/systemd/system with this clone's
#      folder and this user in it, and checked with `systemd-analyze verify` where available.
# It starts nothing: put DISCORD_TOKEN in .env, then `systemctl daemon-reload` and
# `systemctl enable --now dungeon-deck` (the script says so at the end).
#
# Options:
#   --user NAME      the system user (default: dungeon)
#   --unit-dir DIR   where the unit is written (default: /etc/systemd/system)
#   --no-test        step 3 creates .venv only: no pip install, no `make test` (tests/test_deploy.py
#                    uses it to stay fast; `make run` or `make test` completes .venv later)
# PYTHON (default: python3, found in PATH as the user) is the Python that .venv is made from.
set -euo pipefail

user=dungeon
unit_dir=/etc/systemd/system
run_tests=yes
while [ $# -gt 0 ]; do
    case "$1" in
        --user) user="${2:?--user needs a name}"; shift 2 ;;
        --unit-dir) unit_dir="${2:?--unit-dir needs a folder}"; shift 2 ;;
        --no-test) run_tests=no; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
python="${PYTHON:-python3}"

fail() { echo "install.sh: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "run me as root (sudo $0): I create a user and give it the clone"
PATH="$PATH:/usr/sbin:/sbin"  # useradd and runuser, from a root shell without sbin in PATH
for tool in useradd runuser make; do
    command -v "$tool" >/dev/null || fail "$tool is missing (Debian: passwd, util-linux, make)"
done
dir="$(cd "$(dirname "$0")/.." && pwd -P)"
[ -f "$dir/Makefile" ] && [ -f "$dir/deploy/dungeon-deck.service" ] \
    || fail "$dir is not a Dungeon Deck clone"
# The unit names the folder unquoted, and ProtectHome=yes hides /home, /root and /run/user.
[[ "$dir" =~ ^/[A-Za-z0-9._/-]+$ ]] || fail "$dir: use a folder whose path has no spaces or quotes"
case "$dir/" in
    /home/*|/root/*|/run/user/*) fail "$dir: the unit's ProtectHome=yes hides it; use /srv" ;;
esac
[[ "$user" =~ ^[a-z_][a-z0-9_-]*$ ]] || fail "$user: not a user name"

as_user() {
    # A clean environment: none of root's variables (a virtualenv, make's flags) leak in.
    (cd "$dir" && runuser -u "$user" -- env -i HOME="$dir" USER="$user" LOGNAME="$user" \
        PATH="$PATH" LANG="${LANG:-C.UTF-8}" PIP_NO_CACHE_DIR=1 "$@")
}

# 1. The user.
if id -u "$user" >/dev/null 2>&1; then
    echo "== user $user exists"
else
    echo "== user $user (system user, home $dir)"
    useradd --system --user-group --home-dir "$dir" --no-create-home \
        --shell /usr/sbin/nologin "$user"
fi
group="$(id -gn "$user")"

# 2. The clone is the user's.
echo "== $dir is given to $user"
chown -R "$user:$group" "$dir"
as_user test -w "$dir" \
    || fail "$user cannot reach $dir: every folder above it must be searchable (chmod o+x)"

# 3. .venv, and every check.
as_user "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || fail "$python (as $user) is missing or older than 3.11: set PYTHON=/path/to/python3.11"
echo "== .venv (as $user)"
as_user sh -c 'test -x .venv/bin/python || "$0" -m venv .venv' "$python"
if [ "$run_tests" = yes ]; then
    echo "== make test (as $user; installs the project into .venv, takes minutes)"
    as_user make PYTHON="$python" test
fi

# 4. data/ and backups/: the only folders the unit lets the bot write (ReadWritePaths).
echo "== data/ and backups/ (mode 0700)"
install -d -m 0700 -o "$user" -g "$group" "$dir/data" "$dir/backups"

# 5. .env: the token lives there, readable by the user alone.
if [ -e "$dir/.env" ]; then
    echo "== .env kept (mode 0600)"
else
    echo "== .env from .env.example (mode 0600)"
    install -m 0600 -o "$user" -g "$group" "$dir/.env.example" "$dir/.env"
fi
chown "$user:$group" "$dir/.env"
chmod 0600 "$dir/.env"

# 6. The unit, with this clone's folder and this user.
unit="$unit_dir/dungeon-deck.service"
echo "== $unit"
install -d -m 0755 "$unit_dir"
sed -e "s|/srv/dungeon-deck|$dir|g" -e "s|^User=dungeon\$|User=$user|" \
    -e "s|^Group=dungeon\$|Group=$group|" "$dir/deploy/dungeon-deck.service" > "$unit.tmp"
chmod 0644 "$unit.tmp"
mv "$unit.tmp" "$unit"
if command -v systemd-analyze >/dev/null; then
    systemd-analyze verify "$unit" || fail "systemd-analyze verify $unit failed (above)"
fi

cat <<EOF
Installed. Next:
  1. put DISCORD_TOKEN=... in $dir/.env (runuser -u $user -- editor $dir/.env)
  2. systemctl daemon-reload && systemctl enable --now dungeon-deck
  3. journalctl -u dungeon-deck -f      # the log
EOF
