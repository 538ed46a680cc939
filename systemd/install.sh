#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Install Ordvakt as a kiosk service on Raspberry Pi OS (run from the project folder):
#   sudo systemd/install.sh [TARGET]        (TARGET: where the program goes, default /opt/ordvakt)
# 1. copies the project to TARGET and runs `device/bootstrap.py setup` there: the Debian packages of
#    device/data/debian-packages.txt (the same list the bootstrap uses everywhere), a venv with
#    --system-site-packages (Debian's lgpio stays visible; picamera2 runs in its own worker process under
#    the system's python3), the project with the pi extra;
# 2. a system user `ordvakt` in the video, render, input and gpio groups;
# 3. the word lists built where the service reads them: /var/lib/ordvakt/lexicons ($STATE_DIRECTORY);
# 4. /etc/ordvakt/config.toml (yours from ~/.config/ordvakt/config.toml when there is one);
# 5. the unit, checked with systemd-analyze verify, enabled.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TARGET="${1:-/opt/ordvakt}"
SERVICE_USER=ordvakt
STATE=/var/lib/ordvakt
CONFIG_DIR=/etc/ordvakt
UNIT=/etc/systemd/system/ordvakt.service

if [[ $EUID -ne 0 ]]; then
    echo "install.sh: run as root: sudo $0 $*" >&2
    exit 1
fi

if [[ "$ROOT" != "$TARGET" ]]; then
    echo "== copying the project to $TARGET"
    mkdir -p "$TARGET"
    tar -C "$ROOT" --exclude=./.venv --exclude=./.git -cf - . | tar -C "$TARGET" -xf -
fi

echo "== Debian packages, virtual environment, Python packages"
python3 "$TARGET/device/bootstrap.py" setup

echo "== user $SERVICE_USER (groups video render input gpio)"
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    useradd --system --user-group --home-dir "$STATE" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in video render input gpio; do
    if getent group "$group" >/dev/null; then
        usermod -aG "$group" "$SERVICE_USER"
    else
        echo "install.sh: group $group does not exist here; skipped" >&2
    fi
done

echo "== word lists in $STATE/lexicons"
install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 "$STATE"
runuser -u "$SERVICE_USER" -- env ORDVAKT_DATA_DIR="$STATE" HOME="$STATE" \
    "$TARGET/.venv/bin/ordvakt" lexicon build --all --missing-only || \
    echo "install.sh: some word lists were not built; challenges in those languages will ask the players" >&2

echo "== configuration in $CONFIG_DIR"
install -d -m 0755 "$CONFIG_DIR"
user_config="$(getent passwd "${SUDO_USER:-root}" | cut -d: -f6)/.config/ordvakt/config.toml"
if [[ ! -e "$CONFIG_DIR/config.toml" && -f "$user_config" ]]; then
    install -m 0644 "$user_config" "$CONFIG_DIR/config.toml"
    echo "copied $user_config"
fi

echo "== service $UNIT"
sed -e "s|@ROOT@|$TARGET|g" "$ROOT/systemd/ordvakt.service" > "$UNIT"
systemd-analyze verify "$UNIT"
systemctl daemon-reload
systemctl enable ordvakt.service
# The live page for spectators (read-only, local networks only): ordvakt-live.service, port 8080.
sed -e "s|@ROOT@|$TARGET|g" "$ROOT/systemd/ordvakt-live.service" > /etc/systemd/system/ordvakt-live.service
systemd-analyze verify /etc/systemd/system/ordvakt-live.service
systemctl daemon-reload
systemctl enable ordvakt-live.service
# Club mode (off until [club] enabled = true in the config; then: systemctl enable --now ordvakt-club-link).
sed -e "s|@ROOT@|$TARGET|g" "$ROOT/systemd/ordvakt-club-link.service" > /etc/systemd/system/ordvakt-club-link.service
systemd-analyze verify /etc/systemd/system/ordvakt-club-link.service
systemctl daemon-reload
echo "Installed. Check the machine: sudo -u $SERVICE_USER env ORDVAKT_DATA_DIR=$STATE ORDVAKT_CONFIG=$CONFIG_DIR/config.toml \\"
echo "    $TARGET/.venv/bin/ordvakt doctor"
echo "Start it: sudo systemctl start ordvakt   (logs: journalctl -u ordvakt -f)"
echo "Live page: sudo systemctl start ordvakt-live, then http://$(hostname).local:8080/ on the local network"
