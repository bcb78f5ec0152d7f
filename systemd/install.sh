#!/usr/bin/env bash
# Install Tabletop Companion as a service that starts at power-on (Raspberry Pi OS, or any
# Debian with systemd: off a Pi the hardware is emulated).
#
#   sudo ./systemd/install.sh          (from a checkout of the project)
#
# It installs the Debian packages it needs, creates the system user "tabletop-companion", a
# virtual environment in /opt/tabletop-companion/venv with the package (and its "pi" extra on a
# Raspberry Pi), the configuration /etc/tabletop-companion/config.toml (only if there is none),
# the unit companion.service, enabled and started, and for the companion's own Wi-Fi a polkit
# rule and a NetworkManager dnsmasq drop-in (docs/raspberry-pi.md, "Playing away from home"),
# and on a Pi whose system has none (Debian), a udev rule giving /dev/gpiochip* to the group gpio.
# Running it again changes nothing; after `git pull` it is also the update: changed code is
# reinstalled and the service restarted.
#
# COMPANION_ROOT (default /) installs under another root: the tests use a throwaway folder.
set -euo pipefail

readonly APP=tabletop-companion
readonly UNIT=companion.service
readonly VENV=/opt/$APP/venv
readonly CONFIG=/etc/$APP/config.toml
readonly STATE_DIR=/var/lib/$APP
# Always needed: venv for the virtual environment, avahi-daemon so phones find <name>.local,
# fonts-unifont for the OLED's text (GNU Unifont's Japanese variant: 16-pixel bitmaps with kana and kanji).
readonly BASE_PACKAGES=(python3-venv avahi-daemon fonts-unifont)
# On a Pi: what the "pi" extra needs to build RPi.GPIO (C, published as source only) and lgpio
# where no wheel fits (lgpio has wheels for Python 3.11 and 3.12 only: on Debian 13 "trixie",
# Python 3.13, pip builds it, and its sources go through swig), and i2c-tools for `i2cdetect`.
readonly PI_PACKAGES=(python3-dev build-essential swig i2c-tools)
# Raspberry Pi OS offers lgpio's C library; pip's build of lgpio (or piwheels' wheel, on 32-bit
# Raspberry Pi OS) links it. Debian does not offer it: there lgpio is built with PYPI=1, which
# makes its setup.py compile the library's C sources that its sdist carries into the module
# itself (docs/raspberry-pi.md, "Which systems").
readonly LGPIO_LIBRARY=liblgpio-dev
# The GPIO chips for the group gpio, where the system has no such rule (Raspberry Pi OS has one).
readonly GPIO_RULE=/etc/udev/rules.d/60-$APP-gpio.rules

ROOT=${COMPANION_ROOT:-/}
ROOT=${ROOT%/}  # "" for "/", so "$ROOT/etc" is "/etc"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SOURCE=$(dirname "$HERE")

say() { printf '==> %s\n' "$*"; }
fail() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

case "${1:-}" in
    "") ;;
    -h | --help) sed -n '2,17s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) fail "unknown argument '$1' (usage: sudo $0)" ;;
esac
if [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    fail "run me as root: sudo $0"
fi
command -v apt-get >/dev/null || fail "this installer needs a Debian system (apt-get), such as Raspberry Pi OS"

on_a_pi=false
for model in "$ROOT/proc/device-tree/model" "$ROOT/sys/firmware/devicetree/base/model"; do
    if [ -r "$model" ]; then
        if tr -d '\0' <"$model" | grep -q "Raspberry Pi"; then on_a_pi=true; fi
        break
    fi
done

packages=("${BASE_PACKAGES[@]}")
extra=""
if $on_a_pi; then
    packages+=("${PI_PACKAGES[@]}")
    extra="[pi]"
else
    say "This is not a Raspberry Pi: installing without GPIO libraries; the OLED and buttons will be emulated."
fi

installed() { [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]; }
offered() {
    local policy
    policy=$(apt-cache policy "$1" 2>/dev/null) || return 1
    grep -q '^  Candidate: [^(]' <<<"$policy"
}
missing=()
for package in "${packages[@]}"; do
    if ! installed "$package"; then missing+=("$package"); fi
done
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update  # before asking the archive whether it offers lgpio's library
    if $on_a_pi && ! installed "$LGPIO_LIBRARY" && offered "$LGPIO_LIBRARY"; then missing+=("$LGPIO_LIBRARY"); fi
fi
if [ ${#missing[@]} -gt 0 ]; then
    say "Installing Debian packages: ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

# Raspberry Pi OS has these groups; elsewhere they are created so the unit's SupplementaryGroups resolve.
for group in gpio i2c spi; do
    if ! getent group "$group" >/dev/null; then
        say "Creating the group $group"
        groupadd --system "$group"
    fi
done
# The GPIO chips for the group gpio (the unit's SupplementaryGroups): Raspberry Pi OS has a udev
# rule for it, Debian none, and there /dev/gpiochip* would stay root's and the buttons unreachable.
gpio_rules=$(shopt -s nullglob; grep -lsE 'SUBSYSTEM=="gpio".*GROUP="gpio"' /dev/null \
    "$ROOT"/etc/udev/rules.d/*.rules "$ROOT"/usr/lib/udev/rules.d/*.rules "$ROOT"/lib/udev/rules.d/*.rules || true)
if $on_a_pi && [ -z "$gpio_rules" ]; then
    say "Writing $GPIO_RULE (the GPIO chips for the group gpio)"
    mkdir -p "$(dirname "$ROOT$GPIO_RULE")"
    cat >"$ROOT$GPIO_RULE" <<'EOF'
# Written by Tabletop Companion's install.sh: the GPIO chips for the group gpio, as on Raspberry Pi OS.
SUBSYSTEM=="gpio", KERNEL=="gpiochip[0-9]*", GROUP="gpio", MODE="0660"
EOF
    if compgen -G "$ROOT/dev/gpiochip*" >/dev/null; then  # a running system: apply it now
        udevadm control --reload
        udevadm trigger --subsystem-match=gpio --action=add
        udevadm settle
    fi
fi

if ! getent passwd "$APP" >/dev/null; then
    say "Creating the system user $APP"
    useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
        --shell /usr/sbin/nologin --comment "Tabletop Companion service" "$APP"
fi

if [ ! -x "$ROOT$VENV/bin/python" ]; then
    say "Creating the virtual environment $VENV"
    python3 -m venv "$ROOT$VENV"
fi

# pip reinstalls a source folder every time; the RECORD files (every installed file with its
# hash) tell whether that changed anything, and so whether the service must restart.
installed_files() {
    local records
    shopt -s nullglob
    records=("$ROOT$VENV"/lib/python3*/site-packages/*.dist-info/RECORD)
    shopt -u nullglob
    cat /dev/null "${records[@]}" | sha256sum
}
before=$(installed_files)
say "Installing the package from $SOURCE"
# PYPI=1: lgpio, if pip builds it, carries its own C library (read by lgpio's setup.py only).
lgpio_own_library=0
if $on_a_pi && ! installed "$LGPIO_LIBRARY"; then lgpio_own_library=1; fi
PYPI=$lgpio_own_library "$ROOT$VENV/bin/pip" install --quiet --disable-pip-version-check "$SOURCE$extra"
changed=false
if [ "$(installed_files)" != "$before" ]; then changed=true; fi

if [ ! -e "$ROOT$CONFIG" ]; then
    say "Writing the configuration $CONFIG"
    install -D -m 0644 "$HERE/config.toml" "$ROOT$CONFIG"
    changed=true
fi
"$ROOT$VENV/bin/companion" config check "$ROOT$CONFIG" >/dev/null ||
    fail "fix $CONFIG (the line above says where), then run me again"

# The companion's own Wi-Fi (companion/network.py): the service user may drive NetworkManager
# for its access point (a polkit rule naming that user and three actions), and NetworkManager's
# shared-mode dnsmasq sends the phones' connectivity probes to the companion. Both files are
# only read by NetworkManager and polkit, which pick them up by themselves.
for pair in "polkit.rules:/etc/polkit-1/rules.d/50-$APP.rules" \
            "dnsmasq-shared.conf:/etc/NetworkManager/dnsmasq-shared.d/$APP.conf"; do
    file=${pair%%:*} target=${pair#*:}
    if ! cmp -s "$HERE/$file" "$ROOT$target"; then
        say "Writing $target"
        install -D -m 0644 "$HERE/$file" "$ROOT$target"
    fi
done

if ! cmp -s "$HERE/$UNIT" "$ROOT/etc/systemd/system/$UNIT"; then
    say "Installing the unit /etc/systemd/system/$UNIT"
    install -D -m 0644 "$HERE/$UNIT" "$ROOT/etc/systemd/system/$UNIT"
    systemctl daemon-reload
    changed=true
fi
if ! systemctl is-enabled --quiet "$UNIT"; then
    say "Enabling $UNIT (it will start at every power-on)"
    systemctl enable "$UNIT"
fi
if ! systemctl is-active --quiet "$UNIT"; then
    say "Starting $UNIT"
    systemctl start "$UNIT"
elif $changed; then
    say "Restarting $UNIT with the new version"
    systemctl restart "$UNIT"
fi

if $on_a_pi && ! compgen -G "$ROOT/dev/i2c-*" >/dev/null; then
    cat <<'EOF'

I2C is off, so the OLED cannot work yet. Turn it on and reboot:
    sudo raspi-config nonint do_i2c 0 && sudo reboot
(or: sudo raspi-config, Interface Options, I2C, Yes).
EOF
fi
# Everything written above (the unit, the configuration, the virtual environment) is on the SD
# card before "Done": a plug pulled in the next half minute would otherwise leave an empty unit
# file, which systemd reads as masked, and a Pi that never starts the companion again (found
# by tests/system/check_power.py's cut right after an install).
sync
cat <<EOF

Done. Phones on the same network open  http://$(hostname).local/
Status:  systemctl status companion    Log:  journalctl -u companion -f
Settings:  $CONFIG (then: sudo systemctl restart companion)
EOF
