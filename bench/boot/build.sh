#!/bin/sh
# Builds the appliance image the boot bench runs: Debian bookworm arm64 (as on a Pi without
# Raspberry Pi OS), its own kernel and a small initramfs, this checkout installed by
# systemd/install-pi.sh with a config naming a PN532 on the guest's serial port.
#   sudo bench/boot/build.sh [--cache DIR] [--size 800x480] [--web]
# DIR (default /var/cache/munchkin-table-boot) keeps, between runs:
#   base/         debootstrap + the kernel + the packages install-pi.sh asks for (built once, ~20-30 min)
#   disk-WxH.img  the root filesystem with the project installed (rebuilt when the project or the
#                 recipe changes: a few minutes), with vmlinuz and initrd.img beside it
# Needs root, debootstrap, qemu-user-static, binfmt-support and e2fsprogs.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
CACHE=/var/cache/munchkin-table-boot
SIZE=800x480
WEB=0
while [ $# -gt 0 ]; do
    case $1 in
        --cache) CACHE=$2; shift ;;
        --size) SIZE=$2; shift ;;
        --web) WEB=1 ;;
        -h|--help) sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "build: unknown option '$1'" >&2; exit 2 ;;
    esac
    shift
done
SUITE=bookworm
MIRROR=${MIRROR:-http://deb.debian.org/debian}
BASE=$CACHE/base
ROOT=$CACHE/root
NAME=disk-$SIZE$( [ "$WEB" = 1 ] && echo -web || true)
DISK=$CACHE/$NAME.img
LOG=$CACHE/logs
PY=${PYTHON:-python3}

die() { echo "build: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (debootstrap, chroot and the image's owners need it)"
for tool in debootstrap qemu-aarch64-static mkfs.ext4; do
    command -v $tool >/dev/null || die "no $tool: apt-get install debootstrap qemu-user-static binfmt-support e2fsprogs"
done
if [ ! -e /proc/sys/fs/binfmt_misc/status ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || die "cannot mount binfmt_misc"
fi
grep -qs enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 || update-binfmts --enable qemu-aarch64 2>/dev/null || true
grep -qs enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 || die "qemu-aarch64 is not registered with binfmt_misc"
mkdir -p "$CACHE" "$LOG"

in_root() { r=$1; shift; chroot "$r" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive PIP_CERT=/etc/ssl/certs/ca-certificates.crt "$@"; }
mounted=""
mount_api() {
    mount -t proc proc "$1/proc" && mount --bind /sys "$1/sys" && mount --bind /dev "$1/dev" && mount --bind /dev/pts "$1/dev/pts"
    mounted=$1
}
unmount() {
    [ -n "$mounted" ] || return 0
    for m in dev/pts dev sys proc; do mountpoint -q "$mounted/$m" 2>/dev/null && umount -l "$mounted/$m"; done
    mounted=""
}
trap unmount EXIT INT TERM
step() { echo "== $1 ($(date -u +%H:%M:%S))"; }
# The packages install-pi.sh installs on a Debian that is not Pi OS, Mesa's drivers for KMS, and
# what the bench reads back with (procps for ps, python3 for the framebuffer readback).
PACKAGES=systemd,systemd-sysv,udev,kmod,ca-certificates,initramfs-tools,procps,iproute2,ifupdown,isc-dhcp-client,python3,python3-venv,python3-spidev,libgbm1,libegl1,libegl-mesa0,libgles2,libdrm2,libasound2,libgl1-mesa-dri,fonts-dejavu-core,fonts-noto-cjk

build_base() {
    # A debootstrap that finished is kept when a later step of the base failed.
    if [ ! -f "$BASE.tmp/.debootstrapped" ]; then
        rm -rf "$BASE.tmp"
        step "debootstrap Debian $SUITE arm64 (log: $LOG/debootstrap.log)"
        nice -n 5 debootstrap --arch=arm64 --variant=minbase --include=$PACKAGES "$SUITE" "$BASE.tmp" "$MIRROR" \
            > "$LOG/debootstrap.log" 2>&1 || die "debootstrap failed: see $LOG/debootstrap.log"
        touch "$BASE.tmp/.debootstrapped"
    fi
    cp /etc/resolv.conf "$BASE.tmp/etc/resolv.conf"
    printf '#!/bin/sh\nexit 101\n' > "$BASE.tmp/usr/sbin/policy-rc.d" && chmod +x "$BASE.tmp/usr/sbin/policy-rc.d"
    if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
        cp /usr/local/share/ca-certificates/*.crt "$BASE.tmp/usr/local/share/ca-certificates/"
        in_root "$BASE.tmp" update-ca-certificates >/dev/null
    fi
    # The initramfs lists its modules (seconds to build, ~6 MB) instead of MODULES=most (12 min).
    "$PY" "$HERE/recipe.py" initramfs "$BASE.tmp"
    step "the kernel (log: $LOG/kernel.log)"
    mount_api "$BASE.tmp"
    nice -n 5 chroot "$BASE.tmp" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
        sh -c 'apt-get install -y --no-install-recommends linux-image-arm64 && apt-get clean' \
        > "$LOG/kernel.log" 2>&1 || { unmount; die "the kernel install failed: see $LOG/kernel.log"; }
    unmount
    mv "$BASE.tmp" "$BASE"
}

[ -d "$BASE" ] || build_base

# The image is rebuilt when the project, the recipe or the options change (not when a bench's
# figures do: results.json is written by every run).
digest=$( { echo "size=$SIZE web=$WEB"; cd "$SRC" && find . \( -name .git -o -name .venv -o -name __pycache__ -o -name '*.egg-info' -o -name build \) -prune \
    -o -path ./bench/results.json -prune -o -type f -print \
    | LC_ALL=C sort | xargs -d '\n' sha256sum; } | sha256sum | cut -d' ' -f1)
if [ -f "$DISK" ] && [ "$(cat "$DISK.stamp" 2>/dev/null)" = "$digest" ] && [ -f "$CACHE/vmlinuz" ] && [ -f "$CACHE/initrd.img" ]; then
    echo "build: $DISK is up to date ($digest)"
    exit 0
fi
step "a fresh root from the base"
rm -rf "$ROOT" && cp -a "$BASE" "$ROOT"
"$PY" "$HERE/recipe.py" overlay "$ROOT" --port /dev/ttyS0 --size "$SIZE" $( [ "$WEB" = 1 ] && echo --web || true)
mkdir -p "$ROOT/root/munchkin-table" "$CACHE/pip-cache" "$ROOT/root/.cache/pip"
tar -C "$SRC" --exclude=.venv --exclude=.git --exclude=__pycache__ --exclude='*.egg-info' --exclude=build -cf - . \
    | tar -C "$ROOT/root/munchkin-table" -xf -
mount_api "$ROOT"
mount --bind "$CACHE/pip-cache" "$ROOT/root/.cache/pip"
step "install-pi.sh inside (log: $LOG/install-pi.log)"
nice -n 5 chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 PIP_CERT=/etc/ssl/certs/ca-certificates.crt sh /root/munchkin-table/systemd/install-pi.sh \
    > "$LOG/install-pi.log" 2>&1 || { umount "$ROOT/root/.cache/pip"; die "install-pi.sh failed: see $LOG/install-pi.log"; }
tail -n 4 "$LOG/install-pi.log" | sed 's/^/   | /'
step "the tags the bench taps"
in_root "$ROOT" runuser -u munchkin-table -- /opt/munchkin-table/.venv/bin/munchkin-table tags import /etc/munchkin-table/boot-tags.csv \
    | sed 's/^/   | /'
in_root "$ROOT" runuser -u munchkin-table -- /opt/munchkin-table/.venv/bin/munchkin-table tags import /etc/munchkin-table/pitime-tags.csv \
    | sed 's/^/   | /'
umount "$ROOT/root/.cache/pip"
unmount
# As booted from a card: services start, no resolv.conf of the build host.
rm -f "$ROOT/usr/sbin/policy-rc.d" "$ROOT/etc/resolv.conf"
cp "$(ls "$ROOT"/boot/vmlinuz-* | sort -V | tail -n 1)" "$CACHE/vmlinuz"
cp "$(ls "$ROOT"/boot/initrd.img-* | sort -V | tail -n 1)" "$CACHE/initrd.img"
step "the disk image $DISK"
rm -f "$DISK.tmp"
mkfs.ext4 -q -F -L munchkin-root -d "$ROOT" "$DISK.tmp" 4G || die "mkfs.ext4 -d failed"
mv "$DISK.tmp" "$DISK" && echo "$digest" > "$DISK.stamp"
echo "build: $DISK ($(du -h "$DISK" | cut -f1) used), kernel $(basename "$(ls "$ROOT"/boot/vmlinuz-* | tail -n 1)"), initrd $(du -h "$CACHE/initrd.img" | cut -f1)"
