#!/bin/sh
# Install munchkin-table on a Raspberry Pi (Pi OS Bookworm or newer, 64-bit) so it boots into the game.
#   sudo ./systemd/install-pi.sh            install or update, enable and start the service
#   sudo ./systemd/install-pi.sh --uninstall stop and remove the service (keeps the saved games)
# Safe to run again: every step checks before it changes anything.
set -eu
PREFIX=/opt/munchkin-table
USER_NAME=munchkin-table
UNIT=/etc/systemd/system/munchkin-table.service
SRC=$(cd "$(dirname "$0")/.." && pwd)

[ "$(id -u)" = 0 ] || { echo "install-pi: run as root (sudo $0)" >&2; exit 1; }

if [ "${1:-}" = "--uninstall" ]; then
    systemctl disable --now munchkin-table.service 2>/dev/null || true
    rm -f "$UNIT"
    systemctl daemon-reload
    echo "removed the service; saved games stay in /var/lib/munchkin-table"
    exit 0
fi

echo "== packages"
apt-get update -qq
# lgpio and gpiozero from apt know the board (Pi 5's gpiochip4); KMS/DRM needs gbm/egl/gles;
# the CJK font lets the Chinese screens render.
apt-get install -y -qq python3-venv python3-dev python3-lgpio python3-gpiozero python3-rpi-lgpio \
    python3-spidev libgbm1 libegl1 libgles2 libdrm2 fonts-noto-cjk >/dev/null

echo "== interfaces"
if command -v raspi-config >/dev/null; then
    raspi-config nonint do_spi 0              # SPI for the MFRC522
    raspi-config nonint do_serial_hw 0        # UART for a PN532 ...
    raspi-config nonint do_serial_cons 1      # ... with the serial console off
fi

echo "== user"
id "$USER_NAME" >/dev/null 2>&1 || useradd --system --home-dir /var/lib/munchkin-table --shell /usr/sbin/nologin "$USER_NAME"
for g in gpio spi dialout video render input audio; do
    getent group "$g" >/dev/null && usermod -aG "$g" "$USER_NAME"
done

echo "== program in $PREFIX"
mkdir -p "$PREFIX"
if [ "$SRC" != "$PREFIX" ]; then
    tar -C "$SRC" --exclude=.venv --exclude=.git -cf - . | tar -C "$PREFIX" -xf -
fi
[ -x "$PREFIX/.venv/bin/python" ] || python3 -m venv --system-site-packages "$PREFIX/.venv"
"$PREFIX/.venv/bin/pip" install -q --upgrade pip
"$PREFIX/.venv/bin/pip" install -q --no-deps "mfrc522==0.0.7"
# The translations are compiled (with Babel) before the install, so that the .mo files go with it.
"$PREFIX/.venv/bin/pip" install -q "Babel>=2.14" \
    && (cd "$PREFIX" && "$PREFIX/.venv/bin/python" -m table.catalogs compile >/dev/null) \
    || echo "   could not compile the translations: the screen will show English" >&2
"$PREFIX/.venv/bin/pip" install -q "$PREFIX"

echo "== config"
mkdir -p /etc/munchkin-table
if [ ! -f /etc/munchkin-table/config.toml ]; then
    cp "$PREFIX/systemd/config.example.toml" /etc/munchkin-table/config.toml
    # Every user's munchkin-table (the service, enroll, doctor) then works on the same game and tags.
    printf '\n[storage]\nstate_dir = "/var/lib/munchkin-table"\n' >> /etc/munchkin-table/config.toml
    echo "   wrote /etc/munchkin-table/config.toml (edit the reader type and pins there)"
fi

echo "== service"
install -m 0644 "$PREFIX/systemd/munchkin-table.service" "$UNIT"
systemctl daemon-reload
systemctl enable munchkin-table.service
# The table takes the screen: stop a desktop session if one holds it.
systemctl set-default multi-user.target >/dev/null
systemctl restart munchkin-table.service
echo "== doctor"
mkdir -p /var/lib/munchkin-table && chown "$USER_NAME:$USER_NAME" /var/lib/munchkin-table
sudo -u "$USER_NAME" "$PREFIX/.venv/bin/munchkin-table" doctor || true
echo "done: the table starts at boot. Logs: journalctl -u munchkin-table -f"
