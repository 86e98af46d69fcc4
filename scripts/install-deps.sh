#!/bin/sh
# Installs the Debian packages ssdbench needs, if any are missing; does nothing
# when everything is present. Run as root (or with sudo available).
#   scripts/install-deps.sh          what building needs (make run)
#   scripts/install-deps.sh --test   plus what the tests use (make test): fio and
#                                    sysbench for side-by-side checks, e2fsprogs,
#                                    gdisk (sgdisk) and attr (setfattr) for the
#                                    guard tests, chromium for the report
#                                    screenshot, smartmontools (smartctl: a further
#                                    health source for `ssdbench info` and runs on
#                                    SAS/SATA disks), clang for the libFuzzer harnesses
#                                    (tests/fuzz; that test fails without it),
#                                    libopenmpi-dev and openmpi-bin for the MPI
#                                    build and its tests (tests/integration/mpi.sh),
#                                    python3-numpy and python3-pandas for fio's
#                                    fiologparser_hist.py (tests/integration/
#                                    fio_histlog.sh), qemu-system-x86,
#                                    busybox-static, kmod, cpio, nvme-cli,
#                                    sg3-utils, hdparm and sdparm for the device
#                                    lab (tests/integration/devlab.sh; it also
#                                    fetches Debian's kernel package once with
#                                    apt-get download into /var/cache/ssdbench-lab,
#                                    done here too). A test whose tool
#                                    from this list is missing fails with a
#                                    line naming the package
#                                    (tests/integration/lib.sh need_tool).
set -e
PKGS="build-essential pkg-config liburing-dev libaio-dev libblkid-dev libcjson-dev libsqlite3-dev zlib1g-dev"
TESTPKGS="python3 util-linux udev e2fsprogs gdisk attr fio sysbench chromium clang libopenmpi-dev openmpi-bin smartmontools python3-numpy python3-pandas qemu-system-x86 busybox-static kmod cpio nvme-cli sg3-utils hdparm sdparm"

missing_of() {
    m=""
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || m="$m $p"
    done
    echo "$m"
}

# the device lab's kernel and initramfs (best effort; the lab says SKIP without)
lab_prepare() {
    lab=$(dirname "$0")/../tests/lab/lab.sh
    [ "$(id -u)" -eq 0 ] && [ -x "$lab" ] && command -v qemu-system-x86_64 >/dev/null 2>&1 || return 0
    "$lab" prepare >/dev/null 2>&1 || echo "ssdbench: the device lab could not be prepared ($lab prepare says why)" >&2
}

need=$(missing_of $PKGS)
want=""
[ "${1:-}" = "--test" ] && want=$(missing_of $TESTPKGS)
if [ -z "$need$want" ]; then
    [ "${1:-}" = "--test" ] && lab_prepare
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO=sudo
    else
        [ -n "$need" ] && { echo "ssdbench: need root to install:$need (apt-get install$need)" >&2; exit 1; }
        echo "ssdbench: not root; tests that need$want will fail" >&2
        exit 0
    fi
fi
export DEBIAN_FRONTEND=noninteractive
echo "ssdbench: installing missing packages:$need$want"
$SUDO apt-get update -qq || true
if [ -n "$need" ]; then
    $SUDO apt-get install -y -qq --no-install-recommends $need
fi
for p in $want; do
    $SUDO apt-get install -y -qq --no-install-recommends "$p" >/dev/null 2>&1 ||
        echo "ssdbench: could not install $p; the tests that use it will fail" >&2
done
[ "${1:-}" = "--test" ] && lab_prepare
exit 0
