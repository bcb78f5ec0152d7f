#!/usr/bin/env bash
# Remove what systemd/install.sh installed.
#
#   sudo ./systemd/uninstall.sh            stop and remove the service and the program;
#                                          keep the saved tables, the configuration and the user
#   sudo ./systemd/uninstall.sh --purge    remove those too
#
# Debian packages, the gpio/i2c/spi groups and the GPIO chips' udev rule (which install.sh
# writes where the system has none) stay: other programs may use them. Running it again
# changes nothing. COMPANION_ROOT (default /) works under another root, as in install.sh.
set -euo pipefail

readonly APP=tabletop-companion
readonly UNIT=companion.service

ROOT=${COMPANION_ROOT:-/}
ROOT=${ROOT%/}

say() { printf '==> %s\n' "$*"; }
fail() { printf 'uninstall.sh: %s\n' "$*" >&2; exit 1; }

purge=false
case "${1:-}" in
    "") ;;
    --purge) purge=true ;;
    -h | --help) sed -n '2,11s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) fail "unknown argument '$1' (usage: sudo $0 [--purge])" ;;
esac
if [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    fail "run me as root: sudo $0"
fi

if systemctl is-active --quiet "$UNIT"; then
    say "Stopping $UNIT"
    systemctl stop "$UNIT"
fi
if systemctl is-enabled --quiet "$UNIT"; then
    say "Disabling $UNIT"
    systemctl disable "$UNIT"
fi
if [ -e "$ROOT/etc/systemd/system/$UNIT" ]; then
    say "Removing /etc/systemd/system/$UNIT"
    rm -f "$ROOT/etc/systemd/system/$UNIT"
    systemctl daemon-reload
fi
for file in "/etc/polkit-1/rules.d/50-$APP.rules" "/etc/NetworkManager/dnsmasq-shared.d/$APP.conf"; do
    if [ -e "$ROOT$file" ]; then
        say "Removing $file"
        rm -f "$ROOT$file"
    fi
done
if [ -e "$ROOT/opt/$APP" ]; then
    say "Removing /opt/$APP"
    rm -rf "$ROOT/opt/$APP"
fi

if $purge; then
    for folder in "/etc/$APP" "/var/lib/$APP"; do
        if [ -e "$ROOT$folder" ]; then
            say "Removing $folder"
            rm -rf "$ROOT$folder"
        fi
    done
    if getent passwd "$APP" >/dev/null; then
        say "Removing the user $APP"
        userdel "$APP"
    fi
else
    say "Kept the saved tables (/var/lib/$APP), the configuration (/etc/$APP) and the user $APP: --purge removes them."
fi
