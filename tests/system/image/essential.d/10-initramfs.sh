#!/bin/sh
# Runs after Debian's essential packages and before the image's own (mmdebstrap's
# --essential-hook), so that the kernel's package already builds the initramfs this way.
#
# The virtual Pi's initramfs only has to find its root disk (virtio) and mount it (ext4):
# MODULES=list packs those and what they need. Debian's default (MODULES=most) packs every
# storage and file-system driver: through qemu-user (an arm64 image baked on an x86-64 host)
# one such build took 88 s of processor time against 30 s, and a bake builds it more than
# once (the kernel's own hook, then the trigger the later packages pull). The rig boots the
# image's kernel and initrd itself (vm.py): a Pi's boot never reads this initramfs.
set -eu
root=$1
mkdir -p "$root/etc/initramfs-tools/conf.d" "$root/usr/share/initramfs-tools/modules.d"
printf 'MODULES=list\n' >"$root/etc/initramfs-tools/conf.d/virtual-pi.conf"
printf '# the virtual Pi root disk (tests/system/image/essential.d/10-initramfs.sh)\nvirtio_pci\nvirtio_blk\next4\n' \
    >"$root/usr/share/initramfs-tools/modules.d/virtual-pi"
