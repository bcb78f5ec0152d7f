"""Joining the companion's own Wi-Fi: the Wi-Fi QR payload, the probe routes, the table page
and the panel's idle screen, the CLI and the [network] settings."""

from __future__ import annotations

import io
import queue
import shutil
import subprocess

import pytest
import segno

from companion.cli import main
from companion.config import ConfigError, load_config
from companion.network import AP_ADDRESS, Mode, NetworkState, NetworkStatus, wifi_qr_payload
from companion.table import Table
from web import create_app

ZBARIMG = shutil.which("zbarimg")
needs_zbarimg = pytest.mark.skipif(ZBARIMG is None, reason="zbarimg is missing: install the Debian package zbar-tools")
TRICKY_SSID = 'Tea; "Games", 3:30\\pm'
TRICKY_PASSWORD = 'a;b,c"d:e\\f-long'
ON_AIR = NetworkState(Mode.ACCESS_POINT, TRICKY_SSID, TRICKY_PASSWORD, AP_ADDRESS)


def decode(image_png: bytes) -> str:
    """What a QR code reader finds in a PNG (zbarimg, as a phone's camera would)."""
    result = subprocess.run([ZBARIMG, "--raw", "-q", "-"], input=image_png, capture_output=True, timeout=30, check=True)
    return result.stdout.decode().removesuffix("\n")


def png(text: str) -> bytes:
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=6, border=4)
    return buffer.getvalue()


# ------------------------------------------------------------------------------ the payload


def test_the_wifi_payload_escapes_backslash_semicolon_comma_quote_and_colon():
    assert wifi_qr_payload("Tabletop-AB12", "abcdefghjk") == "WIFI:T:WPA;S:Tabletop-AB12;P:abcdefghjk;;"
    assert wifi_qr_payload(TRICKY_SSID, TRICKY_PASSWORD) == \
        'WIFI:T:WPA;S:Tea\\; \\"Games\\"\\, 3\\:30\\\\pm;P:a\\;b\\,c\\"d\\:e\\\\f-long;;'


@needs_zbarimg
def test_the_wifi_qr_code_decodes_to_the_escaped_payload():
    payload = wifi_qr_payload(TRICKY_SSID, TRICKY_PASSWORD)
    assert decode(png(payload)) == payload


# ------------------------------------------------------------------------------ the web


@pytest.fixture
def table(tmp_path):
    table = Table(tmp_path / "data")
    yield table
    table.close()


def make_client(table, state: NetworkState, port: int = 80):
    app = create_app(table, public_url="http://192.168.1.20/", network=NetworkStatus(port, state))
    return app.test_client()


@pytest.mark.parametrize("path, status, body", [
    ("/hotspot-detect.html", 200, "<HTML><HEAD><TITLE>Success</TITLE></HEAD><BODY>Success</BODY></HTML>"),
    ("/library/test/success.html", 200, "<HTML><HEAD><TITLE>Success</TITLE></HEAD><BODY>Success</BODY></HTML>"),
    ("/generate_204", 204, ""),
    ("/gen_204", 204, ""),
    ("/connecttest.txt", 200, "Microsoft Connect Test"),
    ("/ncsi.txt", 200, "Microsoft NCSI"),
])
def test_the_connectivity_probes_get_the_internets_answers(table, path, status, body):
    response = make_client(table, ON_AIR).get(path, headers={"Host": "captive.apple.com"})
    assert (response.status_code, response.get_data(as_text=True)) == (status, body)
    assert response.headers["Cache-Control"] == "no-store"


def test_while_the_access_point_is_up_the_table_page_shows_both_codes_labelled(table):
    page = make_client(table, ON_AIR).get("/table").get_data(as_text=True)
    assert "1. Join Wi-Fi" in page and "2. Join the table" in page
    assert f"http://{AP_ADDRESS}/J/{table.join_code}".upper() in page  # the AP's address, no .local
    assert "192.168.1.20" not in page
    assert 'data-testid="wifi-keep"' in page


def test_the_join_page_tells_android_users_to_keep_the_wifi(table):
    # No game yet: the join link leads home, where the first arrival starts one; it says so there too.
    page = make_client(table, ON_AIR).get(f"/J/{table.join_code}", follow_redirects=True).get_data(as_text=True)
    assert "Start a game" in page and "keep it" in page
    table.start_game("swap5", 2, seed=1)
    page = make_client(table, ON_AIR).get(f"/J/{table.join_code}").get_data(as_text=True)
    assert 'data-testid="wifi-keep"' in page and "keep it" in page


def test_on_a_home_network_the_table_page_has_the_join_code_only(table):
    page = make_client(table, NetworkState(Mode.CLIENT)).get("/table").get_data(as_text=True)
    assert 'data-testid="wifi-qr"' not in page and 'data-testid="wifi-keep"' not in page
    assert f"HTTP://192.168.1.20/J/{table.join_code}" in page


@needs_zbarimg
def test_the_pages_wifi_and_join_codes_decode(table, tmp_path):
    """The page's inline SVG codes, rasterised by segno from the same data, decode as phones read them."""
    from web import pages

    with make_client(table, ON_AIR, port=8000).application.test_request_context("/table"):
        join = pages.join_url()
    assert join == f"HTTP://{AP_ADDRESS}:8000/J/{table.join_code}"
    assert decode(png(join)) == join
    assert decode(png(wifi_qr_payload(TRICKY_SSID, TRICKY_PASSWORD))) == wifi_qr_payload(TRICKY_SSID, TRICKY_PASSWORD)


# ------------------------------------------------------------------------------ the panel


@pytest.fixture
def panel(table):
    from hardware.display import Display, device_factory
    from hardware.panel import Panel

    config = load_config()
    status = NetworkStatus(80, ON_AIR)
    panel = Panel(table, Display(device_factory(config.display, mock=True)), None, queue.Queue(),
                  public_url="http://192.168.1.20/", network=status)
    panel.public = table.public()
    return panel


def test_the_idle_screen_alternates_the_wifi_code_and_the_join_code(panel, table):
    from hardware.pages import join_screen
    from hardware.screens import render, text_lines

    wifi = join_screen(panel, now=0)
    words = join_screen(panel, now=8)  # the name and password in words: too long beside a code
    join = join_screen(panel, now=16)
    assert wifi.lines == ("1. Join", "the", "Wi-Fi") and wifi.qr == wifi_qr_payload(TRICKY_SSID, TRICKY_PASSWORD)
    assert words.title == "1. Join the Wi-Fi" and words.qr is None and TRICKY_PASSWORD in words.lines
    assert join.title == "2. Join" and join.qr == f"HTTP://{AP_ADDRESS}/J/{table.join_code}"
    assert join_screen(panel, now=24) == wifi
    assert text_lines(wifi, 128, 64)[-1] == f"[QR {wifi.qr}]"
    if ZBARIMG:  # what the OLED draws decodes too (scaled up, as a camera sees the glass)
        image = render(wifi, 128, 64).convert("L").resize((512, 256), 0)
        buffer = io.BytesIO()
        image.save(buffer, "PNG")
        assert decode(buffer.getvalue()) == wifi.qr


def test_the_idle_screen_keeps_one_code_on_a_home_network(panel, table):
    from hardware.pages import join_screen

    panel.network.set(NetworkState(Mode.CLIENT))
    assert join_screen(panel, now=0) == join_screen(panel, now=8)
    assert join_screen(panel, now=0).qr == f"HTTP://192.168.1.20/J/{table.join_code}"


# ------------------------------------------------------------------------------ the CLI


def test_network_plan_prints_the_commands_without_the_password_and_runs_nothing(fake_network, capsys, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[network]\nhotspot = "always"\nssid = "Games Night"\npassword = "secret-word-1"\n')
    assert main(["network", "plan", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "nmcli connection add save no type wifi ifname wlan0 con-name Tabletop-Hotspot autoconnect no " \
           "ssid 'Games Night' 802-11-wireless.mode ap" in out
    assert "ipv4.method shared" in out and "wifi-sec.key-mgmt wpa-psk" in out
    assert "secret-word-1" not in out and "'<password>'" in out
    assert fake_network.calls() == []


def test_network_status_on_the_access_point(fake_network, capsys, tmp_path, monkeypatch):
    fake_network.write(state="connected", connection="Tabletop-Hotspot", profiles=["Tabletop-Hotspot"])
    monkeypatch.setattr("companion.stations.count_stations", lambda device: 0)  # the kernel's answer: tests/network/test_network_stations.py
    config = tmp_path / "config.toml"
    config.write_text('[network]\nssid = "Games Night"\n')
    assert main(["network", "status", "--config", str(config)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "mode: access point on wlan0", "SSID: Games Night", "address: 10.42.0.1", "clients: 0"]


def test_network_status_as_a_client(fake_network, capsys):
    fake_network.write(state="connected", connection="Home:Net")
    assert main(["network", "status"]) == 0
    assert capsys.readouterr().out.splitlines() == ["mode: client on wlan0", "network: Home:Net", "address: 192.168.1.20"]


def test_network_status_without_networkmanager(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert main(["network", "status"]) == 1
    assert "nmcli is not installed" in capsys.readouterr().out


# ------------------------------------------------------------------------------ the settings


def test_the_network_settings_are_read(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[network]\nhotspot = "never"\nssid = "Games"\npassword = "0123456789"\nband = "a"\nchannel = 149\n')
    network = load_config(path).network
    assert (network.hotspot, network.ssid, network.password, network.band, network.channel) == ("never", "Games", "0123456789", "a", 149)
    assert load_config(overrides={"network.band": "a"}).network.channel == 36


@pytest.mark.parametrize("text, message", [
    ('hotspot = "sometimes"', "network.hotspot: must be one of 'auto', 'always', 'never' (got the text 'sometimes')"),
    ('ssid = ""', "network.ssid: must be a non-empty text in quotes (got the text '')"),
    ('ssid = "' + "x" * 33 + '"', "network.ssid: must be at most 32 bytes long, as Wi-Fi allows (got 33 bytes)"),
    ('password = "short"', "network.password: must be 10 to 63 characters long (got 5)"),
    ('password = "pässwörter-lang"', "network.password: may hold only printable ASCII characters"),
    ('band = "6ghz"', "network.band: must be one of 'bg', 'a' (got the text '6ghz')"),
    ("channel = 14", "network.channel: channel 14 is not in band 'bg': use 1 to 13"),
    ('band = "a"\nchannel = 6', "network.channel: channel 6 is not in band 'a': use 36, 40, 44, 48, 149, 153, 157, 161, 165"),
    ("channel = true", "network.channel: must be a whole number (got true)"),
    ("chanel = 6", "network.chanel: unknown key; did you mean 'channel'?"),
])
def test_bad_network_settings_are_refused_with_key_and_reason(tmp_path, text, message):
    path = tmp_path / "config.toml"
    path.write_text(f"[network]\n{text}\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{path}: {message}")


def test_config_check_summarises_the_network(tmp_path, capsys):
    path = tmp_path / "config.toml"
    path.write_text('[network]\nhotspot = "always"\npassword = "0123456789"\n')
    assert main(["config", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "network: hotspot always, SSID Tabletop-XXXX (from the machine id), password set, band bg, channel 6" in out
    assert "0123456789" not in out


# ------------------------------------------------------------------------------ the doctor

ALL_GRANTED = {"org.freedesktop.NetworkManager.settings.modify.system": "yes",
               "org.freedesktop.NetworkManager.network-control": "yes",
               "org.freedesktop.NetworkManager.wifi.share.protected": "yes",
               "org.freedesktop.NetworkManager.enable-disable-wifi": "no"}


def doctor_lines(tmp_path) -> list[str]:
    from hardware.doctor import Report, check_network

    lines: list[str] = []
    check_network(Report(lines.append), load_config(overrides={"data_dir": str(tmp_path)}))
    return lines


def test_the_doctor_reports_the_network(fake_network, tmp_path):
    fake_network.write(state="connected", connection="Home:Net", permissions=ALL_GRANTED)
    assert doctor_lines(tmp_path) == ["OK    network: wlan0 on 'Home:Net'; own Wi-Fi (auto) allowed, 192.168.1.20"]


def test_the_doctor_names_the_networkmanager_rights_that_are_missing(fake_network, tmp_path):
    fake_network.write(permissions=ALL_GRANTED | {"org.freedesktop.NetworkManager.wifi.share.protected": "auth"})
    assert doctor_lines(tmp_path) == ["WARN  network: this user may not wifi.share.protected"]


def test_the_doctor_without_networkmanager_is_content_unless_the_hotspot_must_be_up(tmp_path, monkeypatch):
    from hardware.doctor import Report, check_network

    monkeypatch.setenv("PATH", str(tmp_path))
    assert doctor_lines(tmp_path)[0].startswith("OK    network: no own Wi-Fi (nmcli is not installed")
    report = Report(lambda line: None)
    check_network(report, load_config(overrides={"data_dir": str(tmp_path), "network.hotspot": "always"}))
    assert report.failed
