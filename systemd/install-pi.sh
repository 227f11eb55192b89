#!/bin/sh
# Install munchkin-table on a Raspberry Pi so it boots into the game: Raspberry Pi OS (Bookworm or
# newer, 64-bit), or another Debian-family system for the Pi (Debian, Ubuntu, DietPi, ...).
#   sudo ./systemd/install-pi.sh              install or update, enable and start the service
#   sudo ./systemd/install-pi.sh --dry-run    print every change it would make, make none
#   sudo ./systemd/install-pi.sh --uninstall  stop and remove the service (keeps the saved games)
# Safe to run again: every step looks before it changes anything, and a second run changes nothing.
#
# MUNCHKIN_ROOT=/some/dir prefixes every file the script reads or writes (the tests install into a
# temporary root); the commands it runs (apt-get, systemctl, useradd, ...) are the ones on PATH.
set -eu
ROOT=${MUNCHKIN_ROOT:-}
PREFIX=/opt/munchkin-table
USER_NAME=munchkin-table
UNIT_DIR=/etc/systemd/system
UNIT=$UNIT_DIR/munchkin-table.service
DROPINS=$UNIT_DIR/munchkin-table.service.d
CONFIG=/etc/munchkin-table/config.toml
STATE=/var/lib/munchkin-table
UDEV_RULES=/etc/udev/rules.d/60-munchkin-table-devices.rules
SRC=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${MUNCHKIN_PYTHON:-python3}
# Every device group the table can use; the service gets the ones that exist.
DEVICE_GROUPS="gpio spi dialout video render input audio"

usage() { sed -n '2,7s/^# \{0,1\}//p' "$0"; }
DRY=0
ACTION=install
for arg in "$@"; do
    case $arg in
        --dry-run) DRY=1 ;;
        --uninstall) ACTION=uninstall ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install-pi: unknown option '$arg' (expected --dry-run or --uninstall)" >&2; exit 2 ;;
    esac
done
if [ -z "$ROOT" ] && [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install-pi: run as root (sudo $0)" >&2; exit 1
fi

CHANGES=0
UNDONE=""
REBOOT=""
TMP=$(mktemp -d)
export DEBIAN_FRONTEND=${DEBIAN_FRONTEND:-noninteractive}
trap 'rm -rf "$TMP"' EXIT

# change DESCRIPTION COMMAND...: the one way this script changes the system.
change() {
    desc=$1; shift
    CHANGES=$((CHANGES + 1))
    if [ "$DRY" = 1 ]; then echo "   would: $desc"; return 0; fi
    echo "   $desc"
    "$@"
}
could_not() { echo "   could not: $*"; UNDONE="$UNDONE
  - $*"; }
# put PATH MODE [WHAT]: write stdin to ROOT/PATH unless it already holds exactly that (never at the end of
# a pipe: the count of changes lives in this shell).
put() {
    cat > "$TMP/put"
    if [ -f "$ROOT$1" ] && cmp -s "$TMP/put" "$ROOT$1"; then return 0; fi
    what="write $1"; [ -f "$ROOT$1" ] && what="update $1"
    [ -n "${3:-}" ] && what=$3
    change "$what" install -D -m "$2" "$TMP/put" "$ROOT$1"
}
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
has_candidate() { apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [^(]'; }
group_exists() { grep -qs "^$1:" "$ROOT/etc/group"; }
user_exists() { grep -qs "^$1:" "$ROOT/etc/passwd"; }
in_group() { grep -s "^$2:" "$ROOT/etc/group" | cut -d: -f4 | tr , '\n' | grep -qx "$1"; }
systemd_running() { [ -d "$ROOT/run/systemd/system" ]; }

# ---------------------------------------------------------------------------- where are we
OS_NAME=$(sh -c '. "$1/etc/os-release" 2>/dev/null && echo "${PRETTY_NAME:-${ID:-unknown}}"' - "$ROOT" || true)
OS_ID=$(sh -c '. "$1/etc/os-release" 2>/dev/null && echo "${ID:-}"' - "$ROOT" || true)
PI_OS=0
if [ "$OS_ID" = raspbian ] || grep -qs "archive.raspberrypi" "$ROOT/etc/apt/sources.list" "$ROOT"/etc/apt/sources.list.d/*; then
    PI_OS=1
fi
BOOT_CONFIG=""
for f in /boot/firmware/config.txt /boot/config.txt; do
    if [ -f "$ROOT$f" ]; then BOOT_CONFIG=$f; break; fi
done
CMDLINE=""
for f in /boot/firmware/cmdline.txt /boot/cmdline.txt; do
    if [ -f "$ROOT$f" ]; then CMDLINE=$f; break; fi
done

# ---------------------------------------------------------------------------- uninstall
if [ "$ACTION" = uninstall ]; then
    echo "== removing the service (saved games stay in $STATE)"
    if [ -f "$ROOT$UNIT" ] || [ -d "$ROOT$DROPINS" ]; then
        change "disable and stop munchkin-table.service" sh -c 'systemctl disable --now munchkin-table.service 2>/dev/null || systemctl disable munchkin-table.service 2>/dev/null || true'
        change "remove $UNIT and $DROPINS" rm -rf "$ROOT$UNIT" "$ROOT$DROPINS"
        systemd_running && change "reload systemd" systemctl daemon-reload
    fi
    echo "done: $CHANGES change(s)"
    exit 0
fi

if [ "$PI_OS" = 1 ]; then
    echo "install-pi: $OS_NAME (Raspberry Pi OS: its own GPIO packages and raspi-config)"
else
    echo "install-pi: $OS_NAME (not Raspberry Pi OS: GPIO libraries from their wheels, groups and udev rules made here)"
fi
[ "$DRY" = 1 ] && echo "install-pi: dry run: nothing is changed"

# ---------------------------------------------------------------------------- packages
echo "== packages"
# KMS/DRM needs gbm/egl/gles; the screens are laid out in DejaVu Sans, and a CJK font lets the
# Chinese screens render: fonts-wqy-microhei (about 5 MB installed, as ./go uses), not fonts-noto-cjk
# (about 90 MB); without either the table draws Chinese in the subset it ships (table/assets/fonts).
# SDL (in the pygame wheel) opens ALSA through the system's libasound, without which the table is
# silent (a booted Debian arm64 image showed it: "sound off: Failed loading libasound.so.2").
# espeak-ng gives the table its voice when [voice] enabled = true (a few MB; off by default).
PACKAGES="python3 python3-venv libgbm1 libegl1 libgles2 libdrm2 libasound2 fonts-dejavu-core fonts-wqy-microhei espeak-ng"
if [ "$PI_OS" = 1 ]; then
    # Pi OS's lgpio and gpiozero know the board (a Pi 5's gpiochip4).
    PACKAGES="$PACKAGES python3-dev python3-lgpio python3-gpiozero python3-rpi-lgpio python3-spidev"
fi
missing=""
for p in $PACKAGES; do installed "$p" || missing="$missing $p"; done
compiler() { installed gcc && installed libc6-dev && installed python3-dev; }
if [ -n "$missing" ] || { [ "$PI_OS" = 0 ] && ! installed python3-spidev && ! compiler; }; then
    [ "$DRY" = 1 ] || apt-get update -qq || could_not "refresh the package lists (apt-get update failed)"
fi
if [ "$PI_OS" = 0 ] && ! installed python3-spidev && ! compiler; then
    # spidev has no wheel: the distribution's build, else pip builds it with a compiler.
    if has_candidate python3-spidev; then
        missing="$missing python3-spidev"
    else
        for p in gcc libc6-dev python3-dev; do installed "$p" || missing="$missing $p"; done
        echo "   no python3-spidev package here: pip builds spidev with gcc"
    fi
fi
if [ -n "$missing" ]; then
    change "apt-get install$missing" apt-get install -y -qq $missing \
        || { echo "install-pi: apt-get install$missing failed; see the lines above" >&2; exit 1; }
else
    echo "   all packages are installed"
fi

# ---------------------------------------------------------------------------- interfaces
echo "== interfaces (SPI for an MFRC522, the UART for a PN532)"
spi_on() { grep -Eqs '^[[:space:]]*dtparam=([^#]*,)?spi=on' "$ROOT$BOOT_CONFIG"; }
uart_on() { grep -Eqs '^[[:space:]]*enable_uart=1' "$ROOT$BOOT_CONFIG"; }
uart_console() {
    [ -n "$CMDLINE" ] || return 1
    tr ' ' '\n' < "$ROOT$CMDLINE" | sed -n 's/^console=\(serial[01]\|ttyAMA[0-9]*\|ttyS[0-9]\),.*/\1/p' | head -n 1 | grep .
}
if [ -z "$BOOT_CONFIG" ]; then
    could_not "enable SPI and the UART: no /boot/firmware/config.txt or /boot/config.txt here; add dtparam=spi=on and enable_uart=1 to the Pi's boot config, then reboot"
elif [ "$PI_OS" = 1 ] && command -v raspi-config >/dev/null; then
    if ! spi_on; then change "enable SPI (raspi-config nonint do_spi 0)" raspi-config nonint do_spi 0; REBOOT=1; fi
    if ! uart_on; then change "enable the UART (raspi-config nonint do_serial_hw 0)" raspi-config nonint do_serial_hw 0; REBOOT=1; fi
    if uart_console >/dev/null; then
        change "turn the serial console off (raspi-config nonint do_serial_cons 1)" raspi-config nonint do_serial_cons 1; REBOOT=1
    fi
else
    lines=""
    spi_on || lines="dtparam=spi=on"
    uart_on || lines="$lines${lines:+
}enable_uart=1"
    if [ -n "$lines" ]; then
        backup="$BOOT_CONFIG.before-munchkin-table"
        [ -f "$ROOT$backup" ] || change "back up $BOOT_CONFIG to $backup" cp -p "$ROOT$BOOT_CONFIG" "$ROOT$backup"
        { cat "$ROOT$BOOT_CONFIG"; printf '\n# munchkin-table: SPI for an MFRC522, the UART for a PN532\n%s\n' "$lines"; } > "$TMP/new"
        put "$BOOT_CONFIG" 0644 "add $(echo $lines) to $BOOT_CONFIG" < "$TMP/new"
        REBOOT=1
        # Debian's raspi-firmware rewrites config.txt on every kernel update, keeping this file's lines.
        if [ -f "$ROOT/etc/default/raspi-firmware-custom" ] || [ -f "$ROOT/etc/kernel/postinst.d/z50-raspi-firmware" ]; then
            { cat "$ROOT/etc/default/raspi-firmware-custom" 2>/dev/null || true; printf '%s\n' "$lines"; } > "$TMP/new"
            put /etc/default/raspi-firmware-custom 0644 "add $(echo $lines) to /etc/default/raspi-firmware-custom (kept across kernel updates)" < "$TMP/new"
        fi
    else
        echo "   SPI and the UART are on in $BOOT_CONFIG"
    fi
    if console=$(uart_console); then
        # The UART is the reader's (a PN532): the kernel must not talk on it, as raspi-config does it.
        backup="$CMDLINE.before-munchkin-table"
        [ -f "$ROOT$backup" ] || change "back up $CMDLINE to $backup" cp -p "$ROOT$CMDLINE" "$ROOT$backup"
        sed "s/ *console=$console,[^ ]*//; s/^ *//" "$ROOT$CMDLINE" > "$TMP/new"
        put "$CMDLINE" 0644 "remove console=$console from $CMDLINE (the UART is the reader's)" < "$TMP/new"
        REBOOT=1
        # Debian's raspi-firmware writes cmdline.txt again from CONSOLES on every kernel update.
        if [ -f "$ROOT/etc/default/raspi-firmware" ] && ! grep -qx 'CONSOLES="tty0"' "$ROOT/etc/default/raspi-firmware"; then
            { grep -v '^CONSOLES=' "$ROOT/etc/default/raspi-firmware"; echo 'CONSOLES="tty0"'; } > "$TMP/new"
            put /etc/default/raspi-firmware 0644 'set CONSOLES="tty0" in /etc/default/raspi-firmware (no console on the UART)' < "$TMP/new"
        fi
    fi
fi

# ---------------------------------------------------------------------------- groups and devices
echo "== device groups"
for g in gpio spi; do
    group_exists "$g" || change "create the $g group" groupadd --system "$g"
done
if [ "$PI_OS" = 0 ]; then
    # As Raspberry Pi OS's udev rules do: the gpio and spi groups own their device nodes.
    before=$CHANGES
    put "$UDEV_RULES" 0644 <<'EOF'
# munchkin-table: the GPIO chips and SPI devices belong to the gpio and spi groups (as on Raspberry Pi OS)
SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"
SUBSYSTEM=="spidev", KERNEL=="spidev*", GROUP="spi", MODE="0660"
EOF
    if [ "$CHANGES" -gt "$before" ] && [ "$DRY" = 0 ] && [ -d "$ROOT/run/udev" ] && command -v udevadm >/dev/null; then
        udevadm control --reload-rules 2>/dev/null && udevadm trigger --subsystem-match=gpio --subsystem-match=spidev 2>/dev/null || true
    fi
    if [ ! -e "$ROOT/dev/serial0" ]; then
        echo "   note: no /dev/serial0 alias here (Pi OS's udev rule makes it): for a PN532 on the UART set [reader] port = \"/dev/ttyAMA0\""
    fi
fi
# In dry run the groups about to be made count as present.
present=""
for g in $DEVICE_GROUPS; do
    if group_exists "$g" || { [ "$DRY" = 1 ] && { [ "$g" = gpio ] || [ "$g" = spi ]; }; }; then present="$present $g"; fi
done
present=${present# }

echo "== user"
user_exists "$USER_NAME" || change "create the system user $USER_NAME" \
    useradd --system --user-group --home-dir "$STATE" --shell /usr/sbin/nologin "$USER_NAME"
for g in $present; do
    in_group "$USER_NAME" "$g" || change "add $USER_NAME to $g" usermod -aG "$g" "$USER_NAME"
done

# ---------------------------------------------------------------------------- program
echo "== program in $PREFIX"
stamp="$ROOT$PREFIX/.installed-from"
digest=$( { echo "pi_os=$PI_OS"; cd "$SRC" && find . \( -name .git -o -name .venv -o -name __pycache__ -o -name '*.egg-info' -o -name build \) -prune -o -type f -print | LC_ALL=C sort | xargs -d '\n' sha256sum; } | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$digest" ] && [ -x "$ROOT$PREFIX/.venv/bin/python" ]; then
    echo "   $PREFIX is up to date"
else
    copy() {
        mkdir -p "$ROOT$PREFIX"
        if [ "$SRC" != "$ROOT$PREFIX" ]; then
            tar -C "$SRC" --exclude=.venv --exclude=.git --exclude=__pycache__ --exclude='*.egg-info' --exclude=build -cf - . | tar -C "$ROOT$PREFIX" -xf -
        fi
    }
    change "copy the program from $SRC" copy
    # System site packages: Pi OS's lgpio and gpiozero, python3-spidev elsewhere.
    [ -x "$ROOT$PREFIX/.venv/bin/python" ] || change "create the virtual environment $PREFIX/.venv" \
        "$PYTHON" -m venv --system-site-packages "$ROOT$PREFIX/.venv"
    pip() { "$ROOT$PREFIX/.venv/bin/python" -m pip install -q --disable-pip-version-check "$@"; }
    # mfrc522 declares RPi.GPIO, which fails on a Pi 5: rpi-lgpio stands in for it.
    change "pip install mfrc522 (without RPi.GPIO)" pip --no-deps "mfrc522==0.0.7"
    # The build compiles the catalogs into the package (setup.py, Babel in the build's own environment).
    # The web view and the league come along, so turning either on in the config needs no new install.
    if [ "$PI_OS" = 1 ]; then
        change "pip install the table with the web view and the league into $PREFIX/.venv" pip "$ROOT$PREFIX[web,league]"
    else
        change "pip install the table with lgpio, rpi-lgpio, spidev, the web view and the league into $PREFIX/.venv" \
            pip "$ROOT$PREFIX[pi,web,league]"
    fi
    printf '%s\n' "$digest" > "$TMP/new"
    put "$PREFIX/.installed-from" 0644 < "$TMP/new"
fi

# ---------------------------------------------------------------------------- config
echo "== config"
if [ ! -f "$ROOT$CONFIG" ]; then
    # Every user's munchkin-table (the service, enroll, doctor) then works on the same game and tags.
    { cat "$SRC/systemd/config.example.toml"; printf '\n[storage]\nstate_dir = "%s"\n' "$STATE"; } > "$TMP/new"
    put "$CONFIG" 0644 < "$TMP/new"
    [ "$DRY" = 1 ] || echo "   edit $CONFIG for the reader type and pins"
else
    echo "   keeping $CONFIG"
fi
web_enabled() {
    awk '/^[[:space:]]*\[/ { web = ($0 ~ /^[[:space:]]*\[web\][[:space:]]*(#.*)?$/) }
         web && /^[[:space:]]*enabled[[:space:]]*=[[:space:]]*true([[:space:]]|#|$)/ { on = 1 }
         END { exit !on }' "$ROOT$CONFIG" 2>/dev/null
}

# ---------------------------------------------------------------------------- service
echo "== service"
before=$CHANGES
put "$UNIT" 0644 < "$SRC/systemd/munchkin-table.service"
# systemd refuses to start a unit whose supplementary group is missing: name only those that exist.
put "$DROPINS/groups.conf" 0644 <<EOF
# Written by install-pi.sh from the device groups this system has.
[Service]
SupplementaryGroups=$present
EOF
if web_enabled; then
    if [ -f "$SRC/systemd/web.conf" ]; then
        put "$DROPINS/web.conf" 0644 < "$SRC/systemd/web.conf"
    else
        could_not "allow the LAN web view: $SRC/systemd/web.conf is missing"
    fi
elif [ -f "$ROOT$DROPINS/web.conf" ]; then
    change "remove $DROPINS/web.conf (the web view is off in $CONFIG)" rm -f "$ROOT$DROPINS/web.conf"
fi
unit_changed=$((CHANGES - before))
# Without a running systemd (a chroot, an image) there is nothing to reload: it reads the units at boot.
if [ "$unit_changed" -gt 0 ] && systemd_running; then change "reload systemd" systemctl daemon-reload; fi
systemctl is-enabled --quiet munchkin-table.service 2>/dev/null \
    || change "enable munchkin-table.service" systemctl enable --quiet munchkin-table.service
# The table takes the screen: boot to the console, not a desktop session.
[ "$(systemctl get-default 2>/dev/null || true)" = multi-user.target ] \
    || change "boot to multi-user.target (no desktop session)" systemctl set-default multi-user.target
owner=$(grep -s "^$USER_NAME:" "$ROOT/etc/passwd" | cut -d: -f3-4)
if [ ! -d "$ROOT$STATE" ] || [ -z "$owner" ] || [ "$(stat -c %u:%g "$ROOT$STATE")" != "$owner" ]; then
    change "create $STATE for $USER_NAME" sh -c 'mkdir -p "$1" && chown "$2" "$1"' - "$ROOT$STATE" "${owner:-$USER_NAME}"
fi
if systemd_running; then
    if [ "$CHANGES" -gt 0 ] || ! systemctl is-active --quiet munchkin-table.service; then
        change "start munchkin-table.service" systemctl restart munchkin-table.service
    fi
else
    echo "   systemd is not running here (a chroot or an image): the service starts at the next boot"
fi

# ---------------------------------------------------------------------------- report
if [ "$DRY" = 0 ] && [ -x "$ROOT$PREFIX/.venv/bin/munchkin-table" ]; then
    echo "== doctor"
    runuser -u "$USER_NAME" -- "$ROOT$PREFIX/.venv/bin/munchkin-table" doctor || true
fi
echo "== summary"
if [ "$DRY" = 1 ]; then echo "   dry run: $CHANGES change(s) would be made, none was"
elif [ "$CHANGES" = 0 ]; then echo "   nothing to change: already installed"
else echo "   $CHANGES change(s) made"; fi
[ -n "$REBOOT" ] && echo "   reboot to turn SPI and the UART on: sudo reboot"
if [ -n "$UNDONE" ]; then
    echo "   not done (do these by hand):$UNDONE"
fi
echo "done: the table starts at boot. Logs: journalctl -u munchkin-table -f"
