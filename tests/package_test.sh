#!/usr/bin/env bash
# The Debian package and `cmake --install`, as an administrator meets them:
# the package's exact file list, modes and control data, the service unit's
# hardening, the shipped /etc/ttt/server.toml matching the server's defaults,
# systemd-analyze verify (where it exists) and lintian (where installed); then
# `cmake --install --prefix DIR`, twice, keeping an edited config file.
# usage: package_test.sh SOURCE_DIR BUILD_DIR CPACK
set -euo pipefail

SOURCE_DIR="$1"
BUILD_DIR="$2"
CPACK="$3"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/ttt-package-test.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
# The tools below (lintian above all) leave temporary files of their own
# behind: they go with WORK.
export TMPDIR="$WORK/tmp"
mkdir -p "$TMPDIR"

failures=0
fail() { printf 'FAIL: %s\n' "$*" >&2; failures=$((failures + 1)); }
pass() { printf 'ok: %s\n' "$*"; }

# --- the package ------------------------------------------------------------
(cd "$BUILD_DIR" && "$CPACK" -G DEB -B "$WORK/out" >"$WORK/cpack.log" 2>&1) || {
  cat "$WORK/cpack.log" >&2
  echo "FAIL: cpack could not build the package" >&2
  exit 1
}
deb="$(ls "$WORK"/out/ttt_*.deb)"
pass "built $(basename "$deb")"

# Every file, with its mode and owner: a new file must be added here on purpose.
expected="$(cat <<'EOF'
-rw-r--r-- root/root ./etc/ttt/server.toml
-rw-r--r-- root/root ./lib/systemd/system/ttt-server.service
-rwxr-xr-x root/root ./usr/bin/ttt-arena
-rwxr-xr-x root/root ./usr/bin/ttt-bot
-rwxr-xr-x root/root ./usr/bin/ttt-client
-rwxr-xr-x root/root ./usr/bin/ttt-engine
-rwxr-xr-x root/root ./usr/bin/ttt-server
-rw-r--r-- root/root ./usr/share/doc/ttt/changelog.Debian.gz
-rw-r--r-- root/root ./usr/share/doc/ttt/copyright
-rw-r--r-- root/root ./usr/share/doc/ttt/hosting.md
-rw-r--r-- root/root ./usr/share/lintian/overrides/ttt
-rw-r--r-- root/root ./usr/share/man/man1/ttt-arena.1.gz
-rw-r--r-- root/root ./usr/share/man/man1/ttt-bot.1.gz
-rw-r--r-- root/root ./usr/share/man/man1/ttt-client.1.gz
-rw-r--r-- root/root ./usr/share/man/man1/ttt-engine.1.gz
-rw-r--r-- root/root ./usr/share/man/man1/ttt-server.1.gz
EOF
)"
actual="$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $1, $2, $6}' | sort -k3)"
if [ "$actual" = "$expected" ]; then
  pass "dpkg-deb -c lists exactly the expected files"
else
  fail "dpkg-deb -c differs from the expected file list:"
  diff <(echo "$expected") <(echo "$actual") >&2 || true
fi

[ "$(dpkg-deb -f "$deb" Package)" = ttt ] || fail "the package is not called ttt"
depends="$(dpkg-deb -f "$deb" Depends)"
for lib in libicu libprotobuf libsqlite3 libtomlplusplus libspdlog; do
  [[ "$depends" == *"$lib"* ]] || fail "Depends lacks $lib: $depends"
done
[ "$(dpkg-deb -I "$deb" conffiles 2>/dev/null)" = /etc/ttt/server.toml ] \
  || fail "/etc/ttt/server.toml is not a conffile"
for script in postinst prerm postrm; do
  dpkg-deb -I "$deb" "$script" >/dev/null 2>&1 || fail "no $script"
done
pass "control data: name, dependencies, conffile, maintainer scripts"

root="$WORK/root"
dpkg-deb -x "$deb" "$root"

# --- the unit ---------------------------------------------------------------
unit="$root/lib/systemd/system/ttt-server.service"
for line in "ExecStart=/usr/bin/ttt-server --config /etc/ttt/server.toml" "DynamicUser=yes" \
            "StateDirectory=ttt" "NoNewPrivileges=yes" "ProtectSystem=strict" "PrivateTmp=yes" \
            "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX" "SystemCallFilter=@system-service" \
            "WantedBy=multi-user.target"; do
  grep -qxF "$line" "$unit" || fail "the unit lacks '$line'"
done
nofile="$(sed -n 's/^LimitNOFILE=\([0-9]*\)$/\1/p' "$unit")"
max_connections="$("$root/usr/bin/ttt-server" --print-config | sed -n 's/^max-connections = //p')"
if [ -z "$nofile" ] || [ "$nofile" -lt $((max_connections + 64)) ]; then
  fail "LimitNOFILE=$nofile does not fit max-connections = $max_connections"
fi
pass "the unit: hardening, state directory, LimitNOFILE=$nofile for $max_connections connections"

if command -v systemd-analyze >/dev/null; then
  # The host's targets and slices, so that the unit's dependencies resolve
  # inside the package's tree.
  cp -n /lib/systemd/system/*.target /lib/systemd/system/*.slice "$root/lib/systemd/system/" \
    2>/dev/null || true
  # The base system's shell, which ExecReload runs (Essential: on every Debian).
  mkdir -p "$root/bin" && cp -nL /bin/sh "$root/bin/sh"
  if systemd-analyze verify --root="$root" ttt-server.service >"$WORK/verify.log" 2>&1; then
    pass "systemd-analyze verify"
  else
    fail "systemd-analyze verify: $(cat "$WORK/verify.log")"
  fi
else
  echo "skipped: systemd-analyze verify (no systemd-analyze here)"
fi

# --- the shipped config file --------------------------------------------------
config="$root/etc/ttt/server.toml"
if ! "$root/usr/bin/ttt-server" --config "$config" --print-config >"$WORK/effective" 2>&1; then
  fail "ttt-server refuses the shipped server.toml: $(cat "$WORK/effective")"
fi
grep -qxF 'db = "/var/lib/ttt/ttt.db"' "$WORK/effective" \
  || fail "the shipped server.toml does not keep the database in /var/lib/ttt"
# Each default is shown in the file, commented; each commented value is a default.
"$root/usr/bin/ttt-server" --print-config | grep -v '^#' >"$WORK/defaults"
while read -r line; do
  key="${line%% = *}"
  grep -qxF "# $line" "$config" || grep -q "^$key = " "$config" \
    || fail "server.toml does not show '$line'"
done <"$WORK/defaults"
while read -r line; do
  grep -qxF "$line" "$WORK/defaults" || fail "server.toml shows '# $line', not the default"
done < <(sed -n 's/^# \([a-z-]* = .*\)$/\1/p' "$config")
pass "server.toml: accepted, and its commented values are the defaults"

if command -v lintian >/dev/null; then
  # Root makes lintian say so on stderr; its findings go to stdout.
  if lintian --fail-on error,warning "$deb" >"$WORK/lintian.log" 2>/dev/null; then
    pass "lintian: no errors or warnings"
  else
    fail "lintian: $(cat "$WORK/lintian.log")"
  fi
else
  echo "skipped: lintian (not installed; ./ttt package installs it)"
fi

# --- cmake --install ------------------------------------------------------------
prefix="$WORK/prefix"
cmake --install "$BUILD_DIR" --prefix "$prefix" >"$WORK/install.log" 2>&1 \
  || { cat "$WORK/install.log" >&2; fail "cmake --install failed"; }
for file in bin/ttt-server bin/ttt-client bin/ttt-bot bin/ttt-engine bin/ttt-arena \
            etc/ttt/server.toml \
            lib/systemd/system/ttt-server.service share/man/man1/ttt-server.1.gz; do
  [ -e "$prefix/$file" ] || fail "cmake --install left out $file"
done
grep -qxF "ExecStart=$prefix/bin/ttt-server --config $prefix/etc/ttt/server.toml" \
  "$prefix/lib/systemd/system/ttt-server.service" \
  || fail "the installed unit does not run $prefix/bin/ttt-server with $prefix/etc/ttt/server.toml"
echo 'port = 7000' >>"$prefix/etc/ttt/server.toml"
cmake --install "$BUILD_DIR" --prefix "$prefix" >"$WORK/install.log" 2>&1 \
  || { cat "$WORK/install.log" >&2; fail "a second cmake --install failed"; }
grep -qxF 'port = 7000' "$prefix/etc/ttt/server.toml" \
  || fail "a second cmake --install overwrote the edited server.toml"
pass "cmake --install --prefix: programs, unit, config file (kept when edited), manual pages"

if [ "$failures" -gt 0 ]; then
  echo "$failures failed"
  exit 1
fi
echo "package test passed"
