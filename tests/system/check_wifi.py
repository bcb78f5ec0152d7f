"""The companion's own Wi-Fi, over simulated radios (mac80211_hwsim) in the virtual Pi.

A phone (its own radio in the network namespace "phone", wpa_supplicant and a DHCP client)
reads the Wi-Fi QR code off the OLED (the panel's frame, decoded with zbarimg on the host),
joins the access point the service raised through its own nmcli calls (its polkit rule, its
sandbox), gets an address, resolves the phones' connectivity probes to the companion and
fetches the join page and /generate_204. With ``hotspot = "auto"`` the access point then stays
up for ten minutes while the phone is associated and silent (issue 22, point 2: a phone must
keep it up, idle or asleep); a known network that appears is joined once nobody is on the
access point, and the access point comes back when it goes. wifi_phone.sh (run in the guest)
plays the radios, the phone and the home router; tests/system/README.md tells how it runs.

Every check here runs on a fresh table (its own data folder) and puts the configuration, the
radios and the service back as they were at the end.
"""

from __future__ import annotations

import hashlib
import io
import re
import subprocess
import time
import urllib.request

import pytest
from PIL import Image

from check_service import as_the_service, wait_ready

CONFIG = "/etc/tabletop-companion/config.toml"
SAVED_CONFIG = "/root/config.toml.before-wifi-check"
DATA = "/var/lib/tabletop-companion/wifi-check"  # a fresh table: the OLED shows the join codes
PHONE = "sh /mnt/host/src/tests/system/wifi_phone.sh"
IN_PHONE = "ip netns exec phone"
PROFILE = "Tabletop-Hotspot"  # companion/network.py
AP_ADDRESS = "10.42.0.1"
HOME_SSID, HOME_PASSWORD, HOME_PROFILE = "Rig-Home", "rig-home-password", "rig-home"
HOLD_SECONDS = 600
PROBES = {  # what a phone asks, and what it must get back
    "captive.apple.com": ("/hotspot-detect.html", 200, "<HTML><HEAD><TITLE>Success</TITLE></HEAD><BODY>Success</BODY></HTML>"),
    "connectivitycheck.gstatic.com": ("/generate_204", 204, ""),
    "www.msftconnecttest.com": ("/connecttest.txt", 200, "Microsoft Connect Test"),
}


def wlan0_connection(pi) -> str:
    return pi.run("nmcli -g GENERAL.CONNECTION device show wlan0").out.strip()


def wait_for_connection(pi, name: str, timeout: float, why: str) -> None:
    pi.wait_until(f'[ "$(nmcli -g GENERAL.CONNECTION device show wlan0)" = "{name}" ] && '
                  f'nmcli -g GENERAL.STATE device show wlan0 | grep -q "^100 "', timeout, why)


def service_log(pi, since: str) -> str:
    return pi.run(f"journalctl -u companion --since '{since}' --no-pager -o cat").out


def guest_now(pi) -> str:
    return pi.run("date '+%Y-%m-%d %H:%M:%S'").out.strip()


def configure(pi, hotspot: str) -> str:
    """The installed configuration with a fresh data folder and ``hotspot``; the service
    restarted on it and READY. Returns the guest's time just before the restart."""
    pi.run(f"[ -e {SAVED_CONFIG} ] || cp -p {CONFIG} {SAVED_CONFIG}")
    pi.run(f"sed 's|^data_dir = .*|data_dir = \"{DATA}\"|' {SAVED_CONFIG} >{CONFIG} && "
           f"printf '\\n[network]\\nhotspot = \"{hotspot}\"\\n' >>{CONFIG} && "
           f"rm -rf {DATA} && install -d -o tabletop-companion -g tabletop-companion -m 0750 {DATA} && "
           f"/opt/tabletop-companion/venv/bin/companion config check {CONFIG}")
    # The access point of an earlier check goes too (it outlives the service, on purpose):
    # this one must be raised by the service now, with this configuration's password.
    pi.run(f"systemctl stop companion && {{ nmcli connection delete id {PROFILE} || true; }}", timeout=120)
    since = guest_now(pi)
    pi.run("systemctl start companion", timeout=120)
    wait_ready(pi)
    return since


def panel_codes(pi, timeout: float = 60) -> tuple[str, str]:
    """The Wi-Fi QR code and the join QR code as the OLED shows them in turn, read from the
    panel's frame (scaled up as a camera sees the glass) with zbarimg."""
    deadline = time.monotonic() + timeout
    found: dict[str, str] = {}
    while len(found) < 2:
        if time.monotonic() > deadline:
            raise AssertionError(f"the OLED did not show both join codes within {timeout:.0f} s (read: {found}); "
                                 f"its text now: {pi.http('GET', '/api/display.txt')[1]!r}")
        with urllib.request.urlopen(f"http://127.0.0.1:{pi.http_port}/api/display.png", timeout=30) as answer:
            frame = Image.open(io.BytesIO(answer.read())).convert("L")
        scaled = io.BytesIO()
        frame.resize((frame.width * 4, frame.height * 4), Image.NEAREST).save(scaled, "PNG")
        read = subprocess.run(["zbarimg", "--raw", "-q", "-"], input=scaled.getvalue(), capture_output=True, timeout=30)
        text = read.stdout.decode().removesuffix("\n")
        if text.startswith("WIFI:"):
            found["wifi"] = text
        elif "/J/" in text:
            found["join"] = text
        else:  # the same code again: the glass shows the other one a few seconds later
            time.sleep(1)
    return found["wifi"], found["join"]


def wifi_fields(payload: str) -> dict[str, str]:
    """The fields of a ``WIFI:`` QR payload (backslash escapes undone), as a phone's camera reads them."""
    fields, key, value, escaped = {}, "", "", False
    body = payload.removeprefix("WIFI:")
    for character in body:
        if escaped:
            value += character
            escaped = False
        elif character == "\\":
            escaped = True
        elif character == ":" and not key:
            key, value = value, ""
        elif character == ";":
            if key:
                fields[key] = value
            key, value = "", ""
        else:
            value += character
    return fields


def join_from_code(pi, payload: str) -> str:
    """The phone joins the network of the Wi-Fi QR code; wifi_phone.sh's report (its address
    and DNS server)."""
    fields = wifi_fields(payload)
    assert fields.get("T") == "WPA", f"the Wi-Fi QR code does not ask for WPA: {payload!r}"
    ssid, password = fields["S"].encode(), fields["P"].encode()
    psk = hashlib.pbkdf2_hmac("sha1", password, ssid, 4096, 32).hex()  # WPA2's passphrase to key
    return pi.run(f"{PHONE} join {ssid.hex()} {psk}", timeout=240).out.strip().splitlines()[-1]


def phone_fetch(pi, url: str) -> tuple[int, str]:
    """What the phone gets for ``url`` (IPv4, as the probes and the join page are on IPv4)."""
    result = pi.run(f"{IN_PHONE} curl -4 -sS -L --max-time 30 -w '\\n%{{http_code}}' '{url}'", timeout=60)
    body, _, status = result.out.rpartition("\n")
    return int(status), body


@pytest.fixture(scope="module")
def radios(installed):
    """Three simulated radios: wlan0 the companion's, wlan1 the phone's and wlan2 the home
    router's (both in the namespace "phone"); afterwards the Pi as it was."""
    pi = installed.pi
    pi.run("systemctl stop companion")  # wlan1 and wlan2 leave before the companion looks
    pi.run(f"{PHONE} radios", timeout=120)
    yield pi
    pi.run(f"{PHONE} teardown", timeout=120, check=False)
    pi.run(f"nmcli connection delete id {HOME_PROFILE}; nmcli connection delete id {PROFILE}; "
           f"if [ -e {SAVED_CONFIG} ]; then mv {SAVED_CONFIG} {CONFIG}; fi; rm -rf {DATA}", check=False)
    previous = pi.run("systemctl show -P MainPID companion").out.strip()
    pi.run("systemctl restart companion", timeout=120)
    wait_ready(pi, previous)


def phone_joins(pi, since: str, phases) -> None:
    """The access point is the service's, through its own nmcli calls; a phone reads its code
    off the OLED, joins, resolves the probes to the companion, and fetches them and the join page."""
    uid = pi.run("id -u tabletop-companion").out.strip()
    with phases("wifi: access point up"):
        wait_for_connection(pi, PROFILE, 180, f"the access point {PROFILE} on wlan0")
    assert "type AP" in pi.run("iw dev wlan0 info").out
    # NetworkManager's audit lines: the profile was added and brought up by the service's user,
    # allowed by the polkit rule (root could have done it too; this says who did).
    audit = pi.run(f"journalctl -u NetworkManager --since '{since}' --no-pager -o cat | grep 'audit:'", check=False).out
    for operation in ("connection-add", "connection-activate"):
        assert re.search(rf'op="{operation}".*uid={uid} result="success"', audit), \
            f"NetworkManager did not record a successful {operation} by the service's user (uid {uid}):\n{audit}"
    with phases("wifi: the phone joins from the OLED's QR code"):
        wifi_code, join_code = panel_codes(pi)
        report = join_from_code(pi, wifi_code)
    assert re.fullmatch(rf"address 10\.42\.0\.\d+ dns {re.escape(AP_ADDRESS)}", report), report
    for host, (path, status, body) in PROBES.items():
        resolved = pi.run(f"{IN_PHONE} getent ahostsv4 {host}").out.split()
        assert resolved and resolved[0] == AP_ADDRESS, f"{host} resolved on the phone to {resolved}"
        assert phone_fetch(pi, f"http://{host}{path}") == (status, body), f"the probe http://{host}{path}"
    assert join_code.upper().startswith(f"HTTP://{AP_ADDRESS}/J/"), join_code
    status, page = phone_fetch(pi, join_code)
    assert status == 200 and "<html" in page.lower(), f"the join page {join_code} answered {status}"
    # The count the supervisor makes (companion/stations.py), made as the service, in its sandbox.
    counted = as_the_service(pi, f"/opt/tabletop-companion/venv/bin/companion network status --config {CONFIG}")
    assert counted.rc == 0 and "clients: 1" in counted.out.splitlines(), str(counted)


def test_hotspot_always_a_phone_joins_from_the_qr_code(radios, phases):
    pi = radios
    since = configure(pi, "always")
    phone_joins(pi, since, phases)
    pi.run(f"{PHONE} leave")


def test_hotspot_auto_keeps_a_silent_phone_and_steps_aside_for_a_known_network(radios, phases):
    """Point 2: a phone associated and silent for ten minutes keeps the access point up, even
    with a known network in range; once it leaves the known network is joined, and when that
    goes the access point comes back."""
    pi = radios
    pi.run(f"nmcli connection add type wifi ifname wlan0 con-name {HOME_PROFILE} ssid {HOME_SSID} "
           f"wifi-sec.key-mgmt wpa-psk wifi-sec.psk {HOME_PASSWORD} ipv6.method disabled connection.autoconnect yes")
    since = configure(pi, "auto")
    phone_joins(pi, since, phases)
    pi.run(f"{PHONE} home-up {HOME_SSID} {HOME_PASSWORD}")  # the known network is in range from now on
    phone_mac = pi.run(f"{IN_PHONE} cat /sys/class/net/wlan1/address").out.strip()

    with phases(f"wifi: the access point holds a silent phone for {HOLD_SECONDS} s"):
        held_since = guest_now(pi)
        # Look every 5 s for the access point going down or the phone losing it; `timeout`
        # ending the loop (124) means both held for the whole time.
        watch = pi.run(f"timeout {HOLD_SECONDS} sh -c 'while [ \"$(nmcli -g GENERAL.CONNECTION device show wlan0)\" = {PROFILE} ] "
                       f"&& {IN_PHONE} iw dev wlan1 link | grep -q ^Connected; do sleep 5; done'",
                       timeout=HOLD_SECONDS + 60, check=False)
        log = service_log(pi, held_since)
        assert watch.rc == 124, (f"the access point or the phone's association ended during the hold "
                                 f"(wlan0 is on {wlan0_connection(pi)!r}); the service's log:\n{log}")
    assert "no phone on the access point" not in log and "cannot count the phones" not in log, log
    # The access point's own record: the phone has been associated, without a break, for at
    # least the whole hold (a drop and a re-association, however short, would restart it).
    station = pi.run(f"iw dev wlan0 station get {phone_mac}", check=False)
    connected = re.search(r"connected time:\s*(\d+) seconds", station.out)
    assert station.rc == 0 and connected, f"the phone {phone_mac} is not associated any more:\n{station}"
    assert int(connected.group(1)) >= HOLD_SECONDS, \
        f"the phone's association is only {connected.group(1)} s old: it was dropped during the hold\n{station.out}"
    # The phone really was silent: its neighbour entry is no longer REACHABLE (the old count,
    # `ip neigh`, would have read 0 here and taken the access point down under it).
    neighbour = pi.run(f"ip neigh show dev wlan0 {pi.run('cat /run/wifi-rig/phone-address').out.strip()}").out.split()
    assert not {"REACHABLE", "DELAY", "PROBE"} & set(neighbour), \
        f"the phone was not silent during the hold: its neighbour entry reads {' '.join(neighbour)}"

    with phases("wifi: the phone leaves, the known network is joined"):
        pi.run(f"{PHONE} leave")
        wait_for_connection(pi, HOME_PROFILE, 300, f"wlan0 to join the known network {HOME_SSID} once no phone is on the access point")
    with phases("wifi: the known network goes, the access point comes back"):
        pi.run(f"{PHONE} home-down")
        wait_for_connection(pi, PROFILE, 300, f"the access point {PROFILE} to come back after {HOME_SSID} went")
