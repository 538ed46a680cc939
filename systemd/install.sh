#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Install Ordvakt as a kiosk service on Raspberry Pi OS (run from the project folder):
#   sudo systemd/install.sh [USER]
# Creates .venv with --system-site-packages (so Debian's python3-picamera2 and python3-lgpio are
# visible), installs the project with the Pi extra, installs the unit and enables it.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
USER_NAME="${1:-${SUDO_USER:-$(id -un)}}"
UNIT=/etc/systemd/system/ordvakt.service

if [[ $EUID -ne 0 ]]; then
    echo "install.sh: run as root: sudo $0 ${USER_NAME}" >&2
    exit 1
fi
if ! id "$USER_NAME" >/dev/null 2>&1; then
    echo "install.sh: no such user: $USER_NAME" >&2
    exit 1
fi

echo "== Debian packages"
apt-get install -y python3-venv python3-picamera2 python3-lgpio
if [[ -f "$ROOT/device/data/debian-packages.txt" ]]; then
    grep -v '^\s*#' "$ROOT/device/data/debian-packages.txt" | xargs -r apt-get install -y
fi

echo "== virtual environment in $ROOT/.venv"
sudo -u "$USER_NAME" python3 -m venv --system-site-packages "$ROOT/.venv"
sudo -u "$USER_NAME" "$ROOT/.venv/bin/pip" install --upgrade pip
sudo -u "$USER_NAME" "$ROOT/.venv/bin/pip" install -e "$ROOT[pi]"
sudo -u "$USER_NAME" "$ROOT/.venv/bin/ordvakt" lexicon build --all --missing-only || \
    echo "install.sh: word lists not built; challenges will ask the players" >&2

echo "== groups for $USER_NAME: video render input gpio"
for group in video render input gpio; do
    if getent group "$group" >/dev/null; then
        usermod -aG "$group" "$USER_NAME"
    else
        echo "install.sh: group $group does not exist here; skipped" >&2
    fi
done

echo "== service $UNIT"
sed -e "s|@USER@|$USER_NAME|g" -e "s|@ROOT@|$ROOT|g" "$ROOT/systemd/ordvakt.service" > "$UNIT"
systemctl daemon-reload
systemctl enable ordvakt.service
echo "Installed. Start it now with: sudo systemctl start ordvakt   (logs: journalctl -u ordvakt -f)"
