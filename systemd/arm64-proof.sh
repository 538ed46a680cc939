#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The arm64 proof: Ordvakt set up and run in a Debian arm64 root under qemu-user emulation.
#
#   systemd/arm64-proof.sh [--base-only] [WORKDIR]        (default WORKDIR: /var/tmp/ordvakt-arm64)
#
# 1. debootstrap a Debian arm64 root from apt's configured Debian mirror (SUITE=bookworm by default;
#    SUITE=trixie gives Python 3.13), second stage under `proot -q qemu-aarch64-static` (no binfmt_misc,
#    no chroot, no loop devices: nothing that needs kernel features reserved to root).
# 2. a clone of this repository's HEAD in /opt/ordvakt of that root, then the README's set-up and demo:
#    `python3 device/bootstrap.py demo --headless` (Debian packages, .venv, the demo's word list).
# 3. the kiosk start-up path: SDL's video drivers (must include kmsdrm), then `ordvakt run` with
#    SDL_VIDEODRIVER=kmsdrm, which finds no display in the emulator and must end with one line and exit 5.
# 4. a fast subset of the tests, including the vision tests that hold the batched (vectorised) paths to the
#    one-at-a-time ones bit for bit (arm64's OpenCV and numpy may sum in another order), the ones OpenCV 4.x
#    fails (so the Pi reads as measured: OpenCV 5.0 and numpy 2 in the venv), and the camera worker under the
#    system's python3 with Debian's numpy 1.24 (a stand-in picamera2) handing frames to the venv's numpy 2.
# Host needs: apt-get install qemu-user-static proot debootstrap. Slow (tens of minutes): not part of CI.
set -euo pipefail

BASE_ONLY=0
if [[ "${1:-}" == "--base-only" ]]; then BASE_ONLY=1; shift; fi
REPO="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${1:-/var/tmp/ordvakt-arm64}"
SUITE="${SUITE:-bookworm}"
TARGET="$WORK/rootfs-$SUITE"
# Paths inside the emulated root (the guest), not on this machine.
APP=/opt/ordvakt
KIOSK_DATA="$APP/.kiosk-data"   # the kiosk start-up check's data dir, inside the guest's clone
START=$SECONDS
LOG="$WORK/proof-$SUITE.log"   # everything the set-up and the tests print (the terminal gets the tails)
TESTS=(tests/test_engine_scoring.py tests/test_hardware_config.py tests/test_hardware_camera.py
       tests/test_doctor.py tests/test_bootstrap.py tests/test_notify.py tests/test_logging.py
       tests/test_vision_glyph_batch.py tests/test_vision_occupancy_reference.py tests/test_vision_locate_fast.py
       tests/test_hardware_picamera.py tests/test_vision_geometry.py tests/test_vision_jheidel_letters.py
       tests/test_vision_premium_shift.py tests/test_vision_profile.py)

step() { printf '== [%4ds] %s\n' "$((SECONDS - START))" "$*"; }
die() { echo "arm64-proof: $*" >&2; exit 1; }

for tool in qemu-aarch64-static proot debootstrap; do
    command -v "$tool" >/dev/null || die "$tool missing: apt-get install qemu-user-static proot debootstrap"
done
# The Debian mirror apt already uses (deb822 or one-line sources), else deb.debian.org.
MIRROR="$(grep -hoE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list.d/*.sources \
          /etc/apt/sources.list 2>/dev/null | head -n1 | awk '{print $2}' || true)"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"

# Run a command inside the arm64 root as (fake) root. The host's CA bundle is used for PyPI, so a TLS proxy
# that the host trusts is trusted inside too.
HOST_CA=/etc/ssl/certs/host-ca-certificates.crt
# The shared test material beside the repository is seen beside the guest's clone, as the tests expect.
SHARED="$(cd "$REPO/.." && pwd)/shared"
SHARED_BIND=()
if [[ -d "$SHARED/data" ]]; then SHARED_BIND=(-b "$SHARED:$(dirname "$APP")/shared"); fi
inside() {
    proot -0 -q qemu-aarch64-static -r "$TARGET" -b /dev -b /proc -b /sys "${SHARED_BIND[@]}" -w / \
        /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 TERM=dumb PIP_CERT="$HOST_CA" SSL_CERT_FILE="$HOST_CA" "$@"
}

mkdir -p "$WORK"
if [[ ! -e "$TARGET/.ordvakt-base-done" ]]; then
    step "debootstrap $SUITE arm64 from $MIRROR into $TARGET (first stage)"
    rm -rf "$TARGET"
    debootstrap --arch=arm64 --foreign --variant=minbase --include=python3,python3-venv,ca-certificates,git \
        "$SUITE" "$TARGET" "$MIRROR"
    step "second stage under proot + qemu-aarch64-static"
    inside /usr/bin/env DEBOOTSTRAP_DIR=/debootstrap /bin/sh /debootstrap/debootstrap --second-stage
    # proot's fake root cannot switch to apt's unprivileged sandbox user.
    echo 'APT::Sandbox::User "root";' > "$TARGET/etc/apt/apt.conf.d/99proot-sandbox"
    touch "$TARGET/.ordvakt-base-done"
fi
cp /etc/resolv.conf "$TARGET/etc/resolv.conf"
mkdir -p "$TARGET/etc/ssl/certs" && cp /etc/ssl/certs/ca-certificates.crt "$TARGET$HOST_CA"
# Packages must not start services inside the emulated root (mosquitto's install script would fail).
printf '#!/bin/sh\nexit 101\n' > "$TARGET/usr/sbin/policy-rc.d"
chmod 755 "$TARGET/usr/sbin/policy-rc.d"
step "root ready: $(inside /usr/bin/uname -m), $(inside /usr/bin/python3 --version)"
if [[ $BASE_ONLY == 1 ]]; then exit 0; fi

step "clone of $(git -C "$REPO" rev-parse --short HEAD) into $APP"
rm -rf "${TARGET:?}$APP"
git clone -q --no-hardlinks "$REPO" "$TARGET$APP"
# A first run from nothing: no word lists, demo game or settings left by an earlier proof.
rm -rf "$TARGET/root/.local/share/ordvakt" "$TARGET/root/.config/ordvakt" "${TARGET:?}$KIOSK_DATA"

step "README set-up and demo: python3 device/bootstrap.py demo --headless (full output: $LOG)"
inside /bin/sh -c "cd $APP && python3 device/bootstrap.py demo --headless" 2>&1 | tee "$LOG" | tail -n 25

step "kiosk start-up path: the display-driver probe"
inside "$APP/.venv/bin/python" -c '
import platform, pygame, cv2, numpy
from device.doctor import sdl_video_drivers as video_drivers
print("machine", platform.machine(), "| pygame", pygame.version.ver, "| SDL", ".".join(map(str, pygame.get_sdl_version())),
      "| OpenCV", cv2.__version__, "| numpy", numpy.__version__)
drivers = video_drivers()
print("SDL video drivers:", " ".join(drivers))
raise SystemExit(0 if "kmsdrm" in drivers else "kmsdrm is NOT among the video drivers")'
set +e
inside /usr/bin/env SDL_VIDEODRIVER=kmsdrm ORDVAKT_DATA_DIR="$KIOSK_DATA" "$APP/.venv/bin/ordvakt" run
code=$?
set -e
step "ordvakt run without a display exited with $code (5 = display unavailable)"
[[ $code == 5 ]] || die "expected exit code 5 from ordvakt run without a display"

step "the system python3 (the camera worker's): $(inside /usr/bin/python3 -c 'import numpy; print("numpy", numpy.__version__)')"
step "fast test subset: ${TESTS[*]}"
# The demo's set-up leaves the development tools out; the tests need pytest.
inside /bin/sh -c "cd $APP && .venv/bin/python -m pip install -q -e '.[dev]'" 2>&1 | tee -a "$LOG" | tail -n 3
inside /bin/sh -c "cd $APP && SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
    .venv/bin/python -m pytest -q -p no:cacheprovider ${TESTS[*]}" 2>&1 | tee -a "$LOG" | tail -n 15
step "arm64 proof passed in $((SECONDS - START)) s"
