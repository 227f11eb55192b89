#!/bin/sh
# The installer on a fresh arm64 Debian bookworm (as on a Pi without Raspberry Pi OS), under
# qemu-user emulation: debootstrap a root, run systemd/install-pi.sh in it up to where a booted
# systemd would start the service, run it a second time, verify the installed unit and its
# exposure, run ./go test and doctor there, and print what passed.
#   sudo bench/emulated_install.sh            (about 30-60 minutes on 2 cores; not part of ./go bench)
# Needs root, debootstrap, qemu-user-static and binfmt_misc (apt-get install debootstrap
# qemu-user-static binfmt-support). WORK (default /var/tmp/munchkin-emu) keeps the debootstrapped
# base between runs; each run starts from a fresh copy of it. SKIP_TESTS=1 leaves out ./go test.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
WORK=${WORK:-/var/tmp/munchkin-emu}
SUITE=${SUITE:-bookworm}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
BASE=$WORK/base-$SUITE-arm64
ROOT=$WORK/root
LOG=$WORK/logs
RESULTS=""
FAILED=0

die() { echo "emulated_install: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (debootstrap and chroot need it)"
command -v debootstrap >/dev/null || die "no debootstrap: sudo apt-get install debootstrap"
command -v qemu-aarch64-static >/dev/null || die "no qemu-aarch64-static: sudo apt-get install qemu-user-static binfmt-support"
# The chroot runs arm64 binaries through binfmt_misc (qemu's handler with the F flag, so the
# interpreter need not be inside the root).
if [ ! -e /proc/sys/fs/binfmt_misc/status ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null \
        || die "cannot mount binfmt_misc: this kernel or container does not let arm64 binaries run through qemu"
fi
if ! grep -qs enabled /proc/sys/fs/binfmt_misc/qemu-aarch64; then
    update-binfmts --enable qemu-aarch64 2>/dev/null || true
    grep -qs enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 \
        || die "qemu-aarch64 is not registered with binfmt_misc (update-binfmts --enable qemu-aarch64 failed)"
fi
rm -rf "$LOG" && mkdir -p "$WORK" "$LOG"

# step NAME COMMAND...: run, time, log, record pass/fail.
step() {
    name=$1; shift
    slug=$(echo "$name" | tr -c 'a-zA-Z0-9\n' '-')
    echo "== $name (log: $LOG/$slug.log)"
    start=$(date +%s)
    if "$@" > "$LOG/$slug.log" 2>&1; then result=passed; else result="FAILED (exit $?)"; FAILED=$((FAILED + 1)); fi
    secs=$(( $(date +%s) - start ))
    tail -n 5 "$LOG/$slug.log" | sed 's/^/   | /'
    RESULTS="$RESULTS
$(printf '%-58s %-16s %5ss' "$name" "$result" "$secs")"
}
# pip trusts the system's CA store (which has this host's extra CAs, see fresh_root), not its own copy.
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 PIP_CERT=/etc/ssl/certs/ca-certificates.crt "$@"; }

unmount() {
    for m in dev/pts dev sys proc; do
        mountpoint -q "$ROOT/$m" 2>/dev/null && umount -l "$ROOT/$m"
    done
    return 0
}
trap unmount EXIT INT TERM

debootstrap_base() {
    rm -rf "$BASE.tmp"
    debootstrap --arch=arm64 --variant=minbase --include=systemd,systemd-sysv,udev,ca-certificates,kmod \
        "$SUITE" "$BASE.tmp" "$MIRROR" && mv "$BASE.tmp" "$BASE"
}
fresh_root() {
    unmount
    rm -rf "$ROOT" && cp -a "$BASE" "$ROOT"
    cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
    # As an image build does: packages do not start services inside the root.
    printf '#!/bin/sh\nexit 101\n' > "$ROOT/usr/sbin/policy-rc.d" && chmod +x "$ROOT/usr/sbin/policy-rc.d"
    # What Debian's Raspberry Pi image has on its boot partition.
    mkdir -p "$ROOT/boot/firmware"
    printf '# Debian raspi image\narm_64bit=1\nenable_uart=1\nupstream_kernel=1\nkernel=vmlinuz\ninitramfs initrd.img followkernel\n' \
        > "$ROOT/boot/firmware/config.txt"
    echo "console=tty0 console=ttyS1,115200 root=LABEL=RASPIROOT rw fsck.repair=yes rootwait" > "$ROOT/boot/firmware/cmdline.txt"
    mount -t proc proc "$ROOT/proc" && mount --bind /sys "$ROOT/sys" && mount --bind /dev "$ROOT/dev" \
        && mount --bind /dev/pts "$ROOT/dev/pts"
    # A network that intercepts TLS needs its CA in the root too, as on a box behind it.
    if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
        cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
        in_root update-ca-certificates >/dev/null
    fi
    mkdir -p "$ROOT/root/munchkin-table"
    tar -C "$SRC" --exclude=.venv --exclude=.git --exclude=__pycache__ --exclude='*.egg-info' -cf - . \
        | tar -C "$ROOT/root/munchkin-table" -xf -
}
second_run_changes_nothing() {
    in_root sh /root/munchkin-table/systemd/install-pi.sh > "$LOG/second-run.out" 2>&1 || return 1
    cat "$LOG/second-run.out"
    grep -q "nothing to change: already installed" "$LOG/second-run.out"
}
# Every file with its size and time, but for what apt's caches and mktemp may touch.
tree() { find "$ROOT" -xdev \( -path "$ROOT/tmp" -o -path "$ROOT/var/cache/apt" \) -prune -o -printf '%p %s %T@ %m\n' | sort; }
dry_run_changes_nothing() {
    tree > "$LOG/tree.before"
    in_root sh /root/munchkin-table/systemd/install-pi.sh --dry-run || return 1
    tree > "$LOG/tree.after"
    diff "$LOG/tree.before" "$LOG/tree.after"
}
dropin_groups_exist() {
    groups=$(sed -n 's/^SupplementaryGroups=//p' "$ROOT/etc/systemd/system/munchkin-table.service.d/groups.conf")
    echo "SupplementaryGroups=$groups"
    [ -n "$groups" ] || return 1
    for g in $groups; do in_root getent group "$g" || { echo "missing group $g"; return 1; }; done
}
verify_unit() {
    out=$(in_root systemd-analyze verify munchkin-table.service 2>&1); rc=$?
    echo "$out"
    [ "$rc" = 0 ] && [ -z "$out" ]
}
exposure() {
    in_root systemd-analyze security --offline=true --threshold=20 /etc/systemd/system/munchkin-table.service \
        | tail -n 1
}
unit_is_enabled() { in_root systemctl is-enabled munchkin-table.service && in_root systemctl get-default; }
doctor() {
    # It should name every missing piece; inside an emulated root there is no SPI or screen.
    in_root runuser -u munchkin-table -- /opt/munchkin-table/.venv/bin/munchkin-table doctor > "$LOG/doctor.out" 2>&1 || true
    cat "$LOG/doctor.out"
    grep -q "^\[ok\] config:" "$LOG/doctor.out" && ! grep -q Traceback "$LOG/doctor.out"
}
go_test() { in_root sh -c 'cd /root/munchkin-table && ./go test -o addopts= -q -p no:cacheprovider'; }

echo "emulated install of $SRC on Debian $SUITE arm64 ($(qemu-aarch64-static --version | head -n 1))"
[ -d "$BASE" ] || step "debootstrap Debian $SUITE arm64" debootstrap_base
[ -d "$BASE" ] || die "no base root; see $LOG"
step "fresh root from the debootstrapped base" fresh_root
echo "   the root says: $(in_root uname -m) / $(. "$ROOT/etc/os-release"; echo "$PRETTY_NAME")"
step "install-pi.sh --dry-run changes nothing" dry_run_changes_nothing
step "install-pi.sh (first run)" in_root sh /root/munchkin-table/systemd/install-pi.sh
step "install-pi.sh (second run changes nothing)" second_run_changes_nothing
step "drop-in names only groups that exist" dropin_groups_exist
step "unit enabled, boots to multi-user.target" unit_is_enabled
step "systemd-analyze verify (unit + drop-ins)" verify_unit
step "systemd-analyze security exposure <= 2.0" exposure
step "doctor as munchkin-table (names what is missing)" doctor
if [ "${SKIP_TESTS:-0}" != 1 ]; then step "./go test (set-up and the whole suite)" go_test; fi
echo
echo "== emulated install: Debian $SUITE arm64 under qemu-user"
echo "$RESULTS" | sed '/^$/d'
grep -h "exposure level" "$LOG"/*.log 2>/dev/null | sed 's/^/   /' || true
grep -hE "[0-9]+ (passed|failed)" "$LOG"/-*go-test*.log 2>/dev/null | tail -n 1 | sed 's|^|   ./go test: |' || true
grep -hE "^\[(ok|FAIL)\]" "$LOG/doctor.out" 2>/dev/null | sed 's/^/   doctor: /' || true
echo "$FAILED step(s) failed"
[ "$FAILED" = 0 ]
