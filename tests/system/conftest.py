"""Fixtures of the system test: one virtual Pi per run, the project installed in it once.

``pi``        the booted virtual Pi (vm.VirtualPi): ``pi.run(sh)``, ``pi.http(...)``, ``pi.reboot()``
``installed`` the same Pi after ``sudo tabletop-companion/systemd/install.sh`` as
              docs/raspberry-pi.md tells a user (its vm.Result is ``installed.first_install``)
``phases``    records how long each phase took; the summary prints them at the end.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import time

import pytest

import vm

_timings: list[tuple[str, float]] = []


def pytest_configure(config):
    capture = config.pluginmanager.getplugin("capturemanager")

    def show(line: str) -> None:
        with capture.global_and_fixture_disabled():
            print(line, file=sys.stderr, flush=True)

    vm.show = show


@contextlib.contextmanager
def phase(name: str):
    started = time.monotonic()
    try:
        yield
    finally:
        _timings.append((name, time.monotonic() - started))
        vm.log(f"{name}: {time.monotonic() - started:.0f} s")


@pytest.fixture(scope="session")
def phases():
    return phase


@pytest.fixture(scope="session")
def pi(request):
    vm.check_host_tools()
    with phase("bake the image (cached when unchanged)"):
        image = vm.bake()
    with phase("download the guest's wheels (cached when unchanged)"):
        wheels = vm.download_wheels()
    workdir = vm.CACHE / "runs" / f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    machine = vm.VirtualPi(image, wheels, workdir)
    with phase("boot"):
        machine.start()
    yield machine
    with phase("power off"):
        machine.stop()
    if request.session.testsfailed or os.environ.get("TABLETOP_VM_KEEP"):
        vm.log(f"kept the run's folder (console log, disk, share): {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)


class Installed:
    """The installed Pi: ``pi`` plus the first install's result."""

    def __init__(self, machine: vm.VirtualPi, first_install: vm.Result):
        self.pi = machine
        self.first_install = first_install


INSTALL = "cd /home/pi && runuser -u pi -- sudo tabletop-companion/systemd/install.sh"
"""docs/raspberry-pi.md's install, as the user pi (who may sudo, as on Raspberry Pi OS) in
their home folder, where they put the project's folder as `tabletop-companion`."""


SLOW_START_DROP_IN = "/etc/systemd/system/companion.service.d/50-system-test-emulation.conf"
"""The rig's own drop-in, written before the install: QEMU's software emulation on a shared
2-core machine runs the guest many times slower than a Pi, so the first start to READY (the
unit allows a Pi Zero 2 90 s) gets longer here. The product's unit file is installed as is."""


@pytest.fixture(scope="session")
def installed(pi) -> Installed:
    pi.run(f"mkdir -p {SLOW_START_DROP_IN.rsplit('/', 1)[0]} && "
           f"printf '[Service]\\nTimeoutStartSec=900\\n' >{SLOW_START_DROP_IN}")
    pi.run("cp -a /mnt/host/src /home/pi/tabletop-companion && chown -R pi:pi /home/pi/tabletop-companion", timeout=900)
    with phase("first install (install.sh)"):
        result = pi.run(INSTALL, timeout=2700)
    return Installed(pi, result)


def pytest_terminal_summary(terminalreporter):
    if _timings:
        terminalreporter.section("virtual Pi: time per phase")
        for name, seconds in _timings:
            terminalreporter.write_line(f"{seconds:7.0f} s  {name}")
