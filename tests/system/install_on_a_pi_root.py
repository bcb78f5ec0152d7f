"""The installer's Raspberry Pi path, tried in a Debian root file system that says it is a Pi.

    sudo .venv/bin/python tests/system/install_on_a_pi_root.py [--suite trixie] [--keep]

The virtual Pi (vm.py) is an x86-64 machine without a device tree, so there ``install.sh``
takes its path for other computers. This script tries the Pi's path as a Pi owner meets it:
``mmdebstrap`` makes a bare Debian root with systemd (``TABLETOP_VM_SUITE`` or ``--suite``, the
host's architecture), a device-tree model file in it names a Raspberry Pi 4 (``/sys`` is not
mounted in the chroot, so ``/sys/firmware/devicetree/base/model`` is a plain file), the project
is copied in, and ``systemd/install.sh`` runs in ``chroot``: it installs its Debian packages from
Debian's archive, creates the user and the venv with the ``pi`` extra (lgpio, RPi.GPIO, built
where no wheel fits), and enables the unit (no systemd runs in a chroot: a stand-in
``systemctl`` skips daemon-reload, start and restart; the virtual Pi starts the service).
Then ``import lgpio`` must work in the venv, and the GPIO udev rule must be there. pip reads the
wheels ``vm.download_wheels`` fetched for the suite (the root's pip cannot verify TLS through
this machine's network, as in the virtual Pi); apt reaches Debian's archive over HTTP.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time

import vm

PI_MODEL = b"Raspberry Pi 4 Model B Rev 1.5\0"
CLEAN_ENVIRONMENT = ["env", "-i", "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root", "LANG=C.UTF-8"]
"""What `sudo` leaves a command on a Pi: none of this machine's settings (its PIP_* variables
would point the root's pip elsewhere)."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", default=vm.SUITE, choices=sorted(vm.SUITES))
    parser.add_argument("--keep", action="store_true", help="keep the root file system afterwards")
    arguments = parser.parse_args()
    vm.SUITE = arguments.suite
    if os.geteuid() != 0:
        sys.exit("install_on_a_pi_root.py: run me as root (mmdebstrap and chroot need it)")
    wheels = vm.download_wheels()
    root = vm.CACHE / "runs" / f"pi-root-{arguments.suite}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    root.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    # systemd and udev, as on Raspberry Pi OS Lite (Debian's minimal root has neither).
    subprocess.run(["mmdebstrap", "--variant=apt", "--mode=root", "--include=systemd-sysv,udev",
                    arguments.suite, str(root), vm.MIRROR], check=True)
    vm.log(f"mmdebstrap {arguments.suite}: {time.monotonic() - started:.0f} s")
    model = root / "sys/firmware/devicetree/base/model"
    model.parent.mkdir(parents=True)
    model.write_bytes(PI_MODEL)
    shutil.copy("/etc/resolv.conf", root / "etc/resolv.conf")
    (root / "etc/pip.conf").write_text("[global]\nno-index = true\nfind-links = /wheels\n")
    shutil.copytree(wheels, root / "wheels")
    listing = subprocess.run(["git", "-C", str(vm.PROJECT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             check=True, capture_output=True).stdout.decode()
    for name in filter(None, listing.split("\0")):
        if (vm.PROJECT / name).is_file():
            target = root / "root/tabletop-companion" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(vm.PROJECT / name, target)
    # No systemd runs in a chroot: `systemctl enable` works offline, but daemon-reload, start and
    # restart need the manager. A stand-in earlier in PATH says what it skips and runs the rest.
    stand_in = root / "usr/local/sbin/systemctl"
    stand_in.write_text('#!/bin/sh\ncase "$1" in\n'
                        '    daemon-reload|start|restart) echo "(chroot: no systemd to $*)"; exit 0 ;;\n'
                        '    is-active) exit 3 ;;\n'
                        'esac\nexec /usr/bin/systemctl "$@"\n')
    stand_in.chmod(0o755)
    subprocess.run(["mount", "-t", "proc", "proc", str(root / "proc")], check=True)
    try:
        started = time.monotonic()
        install = subprocess.run(["chroot", str(root), *CLEAN_ENVIRONMENT, "/root/tabletop-companion/systemd/install.sh"])
        vm.log(f"install.sh in the {arguments.suite} root: exit {install.returncode} in {time.monotonic() - started:.0f} s")
        probe = subprocess.run(["chroot", str(root), *CLEAN_ENVIRONMENT, "sh", "-c",
                                "cd /var/tmp && /opt/tabletop-companion/venv/bin/python -c "
                                "'import sys, lgpio, _lgpio; print(sys.version.split()[0], _lgpio.__file__)' && "
                                "/usr/bin/systemctl is-enabled companion.service && "
                                "cat /etc/udev/rules.d/60-tabletop-companion-gpio.rules"],
                               capture_output=True, text=True)
        print(probe.stdout + probe.stderr)
        ok = install.returncode == 0 and probe.returncode == 0
        vm.log(("passed" if ok else "FAILED") + f": install.sh on a {arguments.suite} root that says it is a Pi, "
               "then import lgpio in its venv")
        return 0 if ok else 1
    finally:
        subprocess.run(["umount", str(root / "proc")], check=False)
        if arguments.keep:
            vm.log(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
