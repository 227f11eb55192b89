#!/bin/sh
# Boots the box's image under QEMU and checks it from power-on: the unit ready, the first frame on
# KMS, taps through the emulated PN532 shown, kill -9 and a hang restarted, a power cut resumed,
# doctor, nobody root, no traceback. Prints each check met / NOT MET; exits 1 on any miss.
#   sudo bench/boot/run.sh [--cache DIR] [--size 800x480|1920x1080] [--web] [--gpu DEVICE]
# Builds (or reuses) the cached image first with build.sh. Needs root, qemu-system-arm, qemu-utils.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
[ "$(id -u)" = 0 ] || { echo "run: run as root (the image's files belong to its users)" >&2; exit 2; }
command -v qemu-system-aarch64 >/dev/null || { echo "run: no qemu-system-aarch64: apt-get install qemu-system-arm" >&2; exit 2; }
# build.sh takes the options that name the image; run.py takes them all.
build_args=""
prev=""
for arg in "$@"; do
    case $prev in --cache|--size) build_args="$build_args $prev $arg" ;; esac
    [ "$arg" = --web ] && build_args="$build_args --web"
    prev=$arg
done
"$HERE/build.sh" $build_args
cd "$SRC"
exec ./go shell python -m bench.boot.run "$@"
