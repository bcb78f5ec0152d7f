#!/bin/sh
# Turns the bootstrapped root file system "$1" into the virtual Pi: a user "pi" who may sudo
# (as on Raspberry Pi OS), the host's share, the rig's agent, pip fed from the host's wheels.
set -eu
root=$1
here=$(dirname "$0")/..

echo tabletop >"$root/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\ttabletop\n' >"$root/etc/hosts"
printf '/dev/vda\t/\text4\tdefaults\t0\t1\n' >"$root/etc/fstab"
# The host's share (tests/system README: src, wheels, out).
printf 'host\t/mnt/host\t9p\ttrans=virtio,version=9p2000.L,msize=1048576,nofail\t0\t0\n' >>"$root/etc/fstab"
mkdir -p "$root/mnt/host"

chroot "$root" useradd --create-home --shell /bin/bash --groups sudo pi
echo 'pi ALL=(ALL) NOPASSWD: ALL' >"$root/etc/sudoers.d/010_pi-nopasswd"
chmod 0440 "$root/etc/sudoers.d/010_pi-nopasswd"
chroot "$root" passwd --delete root  # a console login for whoever debugs the rig

# The guest cannot verify TLS through the host's network: pip takes the wheels the host
# downloaded (the machine's pip configuration; the user's commands stay as documented).
printf '[global]\nno-index = true\nfind-links = /mnt/host/wheels\ndisable-pip-version-check = true\n' >"$root/etc/pip.conf"

install -m 0755 "$here/rig-agent" "$root/usr/local/sbin/rig-agent"
install -m 0644 "$here/rig-agent.service" "$root/etc/systemd/system/rig-agent.service"
chroot "$root" systemctl enable rig-agent.service
# Timers that would start apt and man-db in the middle of a check on a 2-core host.
chroot "$root" systemctl mask apt-daily.timer apt-daily-upgrade.timer man-db.timer e2scrub_all.timer fstrim.timer
