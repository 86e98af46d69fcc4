#!/bin/sh
# Installs the Debian packages ssdbench needs to build and test, if any are missing.
# Run as root (or with sudo available); does nothing when everything is present.
set -e
PKGS="build-essential pkg-config liburing-dev libaio-dev libblkid-dev libcjson-dev"
# Side-by-side checks in the test suite and bench/ compare against these.
TESTPKGS="fio sysbench util-linux e2fsprogs python3 chromium"
missing=""
for p in $PKGS $TESTPKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "ssdbench: installing missing packages:$missing"
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
        echo "ssdbench: need root to install:$missing (run: apt-get install$missing)" >&2; exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
${SUDO:-} apt-get update -qq
${SUDO:-} apt-get install -y -qq --no-install-recommends $missing
