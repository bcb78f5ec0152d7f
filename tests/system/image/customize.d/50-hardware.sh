#!/bin/sh
# The virtual Pi's GPIO header and OLED, from the kernel's own simulators, on the root file
# system "$1" (run by mmdebstrap as a customize hook, so the image's apt and chroot work):
#
# * gpio-sim, built out of tree: Debian's kernel lacks CONFIG_GPIO_SIM (and CONFIG_IRQ_SIM,
#   which gpio-sim's edge events need), so drivers/gpio/gpio-sim.c, the private header
#   drivers/gpio/gpiolib.h and kernel/irq/irq_sim.c come from the Debian source package of the
#   image's own kernel (linux-source-<series>, the headers' version) and build into one module
#   against the image's linux-headers. One line of irq_sim.c changes: it calls irq_to_desc(),
#   which the kernel does not export to modules; generic_handle_irq() does the same for a
#   module (it looks up the same descriptor and runs the handler irq_sim itself installed).
# * ssd1306-sim (../hardware/ssd1306-sim): an I2C bus 1 with a simulated SSD1306 at 0x3C.
# * What Raspberry Pi OS has and Debian lacks: the group gpio and a udev rule giving it
#   /dev/gpiochip* (the group i2c and its rule come with i2c-tools, packages.d/hardware.list).
# * virtual-pi-gpio.service: at every boot, a 58-line gpio-sim chip like the Pi 4's
#   gpiochip0 (lines GPIO0..GPIO57), before the companion starts.
#
# The extracted sources are cached per kernel version in $TABLETOP_VM_CACHE/kernel-sources, so
# baking again (a hook or a package list changed) does not download the 140 MB source again.
set -eu
root=$1
here=$(dirname "$0")/..
started=$(date +%s)

kernels=$(ls "$root/lib/modules")
[ "$(echo "$kernels" | wc -w)" = 1 ] || { echo "50-hardware.sh: expected one kernel in the image, found: $kernels" >&2; exit 1; }
kver=$kernels                                  # e.g. 6.12.57+deb13-amd64, 6.12.57+deb13-arm64
series=$(echo "$kver" | cut -d. -f1,2)         # e.g. 6.12
version=$(chroot "$root" dpkg-query -W -f='${Version}' "linux-headers-$kver")
[ -n "$version" ] || { echo "50-hardware.sh: linux-headers-$kver is not installed in the image" >&2; exit 1; }

sources=${TABLETOP_VM_CACHE:-/var/cache/tabletop-companion-vm}/kernel-sources/linux-source-$series-$version
files="drivers/gpio/gpio-sim.c drivers/gpio/gpiolib.h kernel/irq/irq_sim.c"
if [ ! -f "$sources/kernel/irq/irq_sim.c" ]; then
    echo "50-hardware.sh: fetching gpio-sim's sources from linux-source-$series $version"
    rm -rf "$sources.partial" && mkdir -p "$sources.partial"
    chroot "$root" sh -c "cd /tmp && apt-get download -q linux-source-$series=$version" >&2
    deb=$(ls "$root"/tmp/linux-source-"$series"_*.deb)
    members=$(for f in $files; do printf 'linux-source-%s/%s ' "$series" "$f"; done)
    # shellcheck disable=SC2086 # one member a word
    dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/linux-source-$series.tar.xz" |
        tar -xJ -C "$sources.partial" --strip-components=1 $members
    rm -f "$deb"
    rm -rf "$sources" && mv "$sources.partial" "$sources"
fi

build=$root/usr/src/virtual-pi-modules
rm -rf "$build" && mkdir -p "$build/gpio-sim"
cp "$sources/drivers/gpio/gpio-sim.c" "$build/gpio-sim/gpio-sim-main.c"
cp "$sources/drivers/gpio/gpiolib.h" "$sources/kernel/irq/irq_sim.c" "$build/gpio-sim/"
sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$build/gpio-sim/irq_sim.c"
if grep -q irq_to_desc "$build/gpio-sim/irq_sim.c"; then
    echo "50-hardware.sh: irq_sim.c of $version calls irq_to_desc() in a way this hook does not know: adapt its sed" >&2
    exit 1
fi
# A kernel built with CONFIG_IRQ_SIM=y exports irq_sim itself: the module then must not carry a copy.
if grep -q '^CONFIG_IRQ_SIM=y' "$root/boot/config-$kver"; then
    printf 'obj-m += gpio-sim.o\ngpio-sim-y := gpio-sim-main.o\n' >"$build/gpio-sim/Kbuild"
else
    printf 'obj-m += gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' >"$build/gpio-sim/Kbuild"
fi
cp -r "$here/hardware/ssd1306-sim" "$build/"

for module in gpio-sim ssd1306-sim; do
    chroot "$root" make -s -C "/lib/modules/$kver/build" M="/usr/src/virtual-pi-modules/$module" modules >&2
    install -D -m 0644 "$build/$module/$module.ko" "$root/lib/modules/$kver/updates/$module.ko"
done
rm -rf "$build"
chroot "$root" depmod "$kver"

printf 'i2c-dev\nssd1306-sim\ngpio-sim\n' >"$root/etc/modules-load.d/virtual-pi.conf"
printf 'options ssd1306-sim bus=1 address=0x3c model=ssd1306\n' >"$root/etc/modprobe.d/virtual-pi.conf"

chroot "$root" groupadd --system gpio
printf '# Raspberry Pi OS gives the GPIO chips to the group gpio; Debian has no such rule.\nSUBSYSTEM=="gpio", KERNEL=="gpiochip[0-9]*", GROUP="gpio", MODE="0660"\n' \
    >"$root/etc/udev/rules.d/60-virtual-pi-gpio.rules"

install -m 0755 "$here/hardware/virtual-pi-gpio" "$root/usr/local/sbin/virtual-pi-gpio"
install -m 0644 "$here/hardware/virtual-pi-gpio.service" "$root/etc/systemd/system/virtual-pi-gpio.service"
chroot "$root" systemctl enable virtual-pi-gpio.service
echo "50-hardware.sh: gpio-sim and ssd1306-sim built for $kver in $(($(date +%s) - started)) s"
