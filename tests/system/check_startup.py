"""Plug in to QR: how long from power on until the OLED shows the join QR code, and what the
service's start costs in processor time (issue 32, point 4).

The companion runs on the simulated GPIO and OLED as check_hardware.py sets it up, kept for
one more boot, with an empty data directory as a new appliance has: the checks before this one
leave a game on the table, which shows its status rather than the join code, so their data is
set aside and put back afterwards. The virtual Pi is powered off and on again (not rebooted:
QEMU starts anew, as a Pi plugged in), and the glass is read until a phone's camera would find
the join code on it.
Under QEMU's emulation on a shared 2-core host the times are far from a Pi's; they are
printed and kept in the run's folder (share/out/startup.json) for tests/system/README.md.
``benchmarks/startup.py`` measures the start's processor time natively.
"""

from __future__ import annotations

import base64
import io
import json
import subprocess
import time

import pytest

import oled
from check_hardware import CPUINFO, real_panel  # noqa: F401 (the fixture, used by name)
from check_service import UNIT, unit_property, wait_ready

STATE = "/var/lib/tabletop-companion"
STATE_ASIDE = "/var/lib/tabletop-companion.before-check-startup"
BOOT_CPUINFO = "/etc/virtual-pi-cpuinfo"
BOOT_DROP_IN = "/etc/systemd/system/companion.service.d/50-virtual-pi-board-at-boot.conf"
"""The board's declaration of check_hardware.py (which lives in /run, gone at a power cut),
kept on the disk for this check's boot and removed after it."""


def join_code_on_glass(frame: bytes) -> str | None:
    """The join address a phone's camera reads off the glass, if it shows the join QR code."""
    picture = oled.glass(frame).convert("L")
    scaled = io.BytesIO()
    picture.resize((picture.width * 4, picture.height * 4)).save(scaled, "PNG")
    read = subprocess.run(["zbarimg", "--raw", "-q", "-"], input=scaled.getvalue(), capture_output=True, timeout=30)
    text = read.stdout.decode().strip()
    return text if "/J/" in text else None


def test_power_on_to_the_join_qr_code_on_the_oled(real_panel, phases):  # noqa: F811
    pi = real_panel.pi
    pi.run(f"cp {CPUINFO} {BOOT_CPUINFO} && "
           f"printf '[Service]\\nBindReadOnlyPaths={BOOT_CPUINFO}:/proc/cpuinfo\\n' >{BOOT_DROP_IN}")
    # systemd makes the unit's StateDirectory anew, empty, at its next start.
    pi.run(f"systemctl stop {UNIT} && rm -rf {STATE_ASIDE} && mv {STATE} {STATE_ASIDE}", timeout=300)
    try:
        pi.stop()
        powered_on = time.monotonic()
        with phases("plug in to the join QR code on the OLED"):
            pi.start()
            agent = time.monotonic() - powered_on
            deadline = powered_on + 900
            while True:
                frame = base64.b64decode(pi.run(f"base64 -w0 {real_panel.frame_attribute} 2>/dev/null || true").out)
                if len(frame) == oled.FRAME_BYTES and join_code_on_glass(frame):
                    break
                if time.monotonic() > deadline:
                    pytest.fail(f"no join QR code on the OLED 900 s after power on; the panel says:\n{real_panel.screen()}")
                time.sleep(0.5)  # the next look at the glass (each look is a round trip to the guest)
            to_qr = time.monotonic() - powered_on
        wait_ready(pi)
        cpu_ns = int(unit_property(pi, "CPUUsageNSec"))
        started = int(unit_property(pi, "ExecMainStartTimestampMonotonic"))
        ready = int(unit_property(pi, "ActiveEnterTimestampMonotonic"))
    finally:
        pi.run(f"rm -f {BOOT_DROP_IN} {BOOT_CPUINFO} && systemctl daemon-reload && systemctl stop {UNIT} && "
               f"rm -rf {STATE} && mv {STATE_ASIDE} {STATE} && systemctl start {UNIT}", timeout=300)
    figures = {"power_on_to_agent_s": round(agent, 1), "power_on_to_join_qr_s": round(to_qr, 1),
               "service_start_to_ready_s": round((ready - started) / 1e6, 1),
               "service_cpu_s_at_ready": round(cpu_ns / 1e9, 2)}
    (pi.share / "out" / "startup.json").write_text(json.dumps(figures, indent=1))
    print(f"plug in to QR: {json.dumps(figures)}")
    assert figures["service_cpu_s_at_ready"] > 0, f"systemd counted no processor time for {UNIT} (CPUAccounting off?)"
