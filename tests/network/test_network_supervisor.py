"""The supervisor against a fake nmcli: the commands of each mode, each fall-back and return."""

from __future__ import annotations

import logging
import select
import signal
import socket
import stat
import sys

import pytest
from waiting import BOUND_SECONDS, Watched

from companion import network
from companion.config import load_config
from companion.network import AP_ADDRESS, PROFILE, Hotspot, Mode, NetworkStatus, Nmcli, Supervisor

HOTSPOT = Hotspot("auto", "Tabletop-AB12", "pass;word:10", "bg", 6)
BRING_UP = [
    ["connection", "delete", "id", PROFILE],
    ["connection", "add", "save", "no", "type", "wifi", "ifname", "wlan0", "con-name", PROFILE, "autoconnect", "no",
     "ssid", "Tabletop-AB12", "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg", "802-11-wireless.channel", "6",
     "ipv4.method", "shared", "ipv4.addresses", "10.42.0.1/24", "ipv6.method", "disabled",
     "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn", "wifi-sec.pairwise", "ccmp", "wifi-sec.group", "ccmp",
     "wifi-sec.psk", "pass;word:10"],
    ["connection", "up", "id", PROFILE],
]
STEP_ASIDE = [["connection", "delete", "id", PROFILE], ["--wait", "0", "device", "connect", "wlan0"]]


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def run(fake_network):
    """run(hotspot, clients=0) -> (supervisor, status, clock), nothing stepped yet."""

    def run(hotspot: Hotspot = HOTSPOT, clients: int = 0):
        clock = Clock()
        status = NetworkStatus(port=80)
        supervisor = Supervisor(hotspot, status, Nmcli(secret=hotspot.password), clock=clock,
                                clients=lambda device: clients)
        return supervisor, status, clock

    return run


def at(supervisor, clock, seconds: float) -> None:
    """Step the supervisor with the clock ``seconds`` later."""
    clock.now += seconds
    supervisor.step()


def test_auto_on_a_known_network_stays_a_client_and_changes_nothing(run, fake_network):
    fake_network.write(known_in_range=True)
    supervisor, status, clock = run()
    for _ in range(5):
        at(supervisor, clock, 30)
    assert supervisor.mode is Mode.CLIENT and status.state.mode is Mode.CLIENT
    assert status.join_base_url() is None
    assert fake_network.changes() == []


def test_auto_without_a_known_network_waits_20_s_then_brings_the_access_point_up(run, fake_network):
    supervisor, status, clock = run()
    at(supervisor, clock, 0)
    at(supervisor, clock, 19.9)
    assert supervisor.mode is Mode.WAITING and fake_network.changes() == []
    at(supervisor, clock, 0.1)
    assert fake_network.changes() == BRING_UP
    assert supervisor.mode is Mode.ACCESS_POINT
    assert status.state == network.NetworkState(Mode.ACCESS_POINT, "Tabletop-AB12", "pass;word:10", AP_ADDRESS)
    assert status.join_base_url() == "http://10.42.0.1"


def test_a_dropped_connection_falls_back_and_a_returning_network_is_rejoined_again_and_again(run, fake_network):
    """The known trap: falling back works once and never goes back. Here it goes back twice."""
    fake_network.write(known_in_range=True)
    supervisor, status, clock = run()
    at(supervisor, clock, 0)
    for _ in range(2):
        assert supervisor.mode is Mode.CLIENT
        fake_network.write(known_in_range=False, state="disconnected", connection="")  # the router is gone
        at(supervisor, clock, 2)
        assert supervisor.mode is Mode.WAITING
        at(supervisor, clock, 20)
        assert supervisor.mode is Mode.ACCESS_POINT and fake_network.changes() == BRING_UP
        at(supervisor, clock, 60)  # not yet time to look again
        assert supervisor.mode is Mode.ACCESS_POINT and fake_network.changes() == []
        fake_network.write(known_in_range=True)  # the router is back, but nothing can see it yet
        at(supervisor, clock, 60)  # 120 s on the access point, nobody on it: step aside
        assert fake_network.changes() == STEP_ASIDE
        assert supervisor.mode is Mode.WAITING
        at(supervisor, clock, 2)
        assert supervisor.mode is Mode.CLIENT and status.state.mode is Mode.CLIENT
        assert fake_network.read()["profiles"] == []  # the access point's profile is gone


def test_stepping_aside_without_a_known_network_brings_the_access_point_back_after_20_s(run, fake_network):
    supervisor, status, clock = run()
    at(supervisor, clock, 0)
    at(supervisor, clock, 20)
    fake_network.changes()
    at(supervisor, clock, 120)
    assert fake_network.changes() == STEP_ASIDE  # the failed "device connect" is only a try
    at(supervisor, clock, 10)
    assert supervisor.mode is Mode.WAITING and fake_network.changes() == []
    at(supervisor, clock, 10)
    assert supervisor.mode is Mode.ACCESS_POINT and fake_network.changes() == BRING_UP


def test_the_access_point_is_kept_while_phones_use_it(run, fake_network):
    supervisor, status, clock = run(clients=3)
    at(supervisor, clock, 0)
    at(supervisor, clock, 20)
    fake_network.changes()
    for _ in range(10):
        at(supervisor, clock, 120)
    assert supervisor.mode is Mode.ACCESS_POINT and fake_network.changes() == []


def test_an_access_point_left_up_by_a_restart_is_taken_over_without_a_gap(run, fake_network):
    fake_network.write(state="connected", connection=PROFILE, profiles=[PROFILE])
    supervisor, status, clock = run()
    at(supervisor, clock, 0)
    at(supervisor, clock, 30)
    assert supervisor.mode is Mode.ACCESS_POINT and fake_network.changes() == []


def test_always_brings_the_access_point_up_at_once_and_again_when_it_falls(run, fake_network):
    fake_network.write(known_in_range=True, state="connected", connection="Home:Net")
    supervisor, status, clock = run(Hotspot("always", "Tabletop-AB12", "pass;word:10", "bg", 6))
    at(supervisor, clock, 0)
    assert supervisor.mode is Mode.ACCESS_POINT and fake_network.changes() == BRING_UP
    at(supervisor, clock, 2)
    assert fake_network.changes() == []
    fake_network.write(state="disconnected", connection="", known_in_range=False)
    at(supervisor, clock, 2)
    assert fake_network.changes() == BRING_UP and supervisor.mode is Mode.ACCESS_POINT


def test_the_five_ghz_band_and_channel_reach_the_profile(run, fake_network):
    supervisor, status, clock = run(Hotspot("always", "Tabletop-AB12", "pass;word:10", "a", 44))
    at(supervisor, clock, 0)
    add = fake_network.changes()[1]
    assert add[add.index("802-11-wireless.band") + 1] == "a"
    assert add[add.index("802-11-wireless.channel") + 1] == "44"


def test_the_password_never_reaches_the_log(run, fake_network, caplog):
    caplog.set_level(logging.DEBUG, logger="companion.network")
    fake_network.write(refuse_add=True)
    supervisor, status, clock = run(Hotspot("always", "Tabletop-AB12", "pass;word:10", "bg", 6))
    supervisor.run(wait=lambda seconds: True)  # one step: "connection add" fails, and is logged
    assert "connection add" in caplog.text and "wifi-sec.psk ********" in caplog.text
    assert "pass;word:10" not in caplog.text


def test_never_starts_no_supervisor_and_runs_no_nmcli(fake_network, tmp_path):
    config = load_config(overrides={"network.hotspot": "never", "data_dir": str(tmp_path / "data")})
    assert network.start_supervisor(config, NetworkStatus()) is None
    assert fake_network.calls() == []


def test_without_networkmanager_it_says_so_once_and_carries_on(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("PATH", str(tmp_path))  # no nmcli at all
    config = load_config(overrides={"data_dir": str(tmp_path / "data")})
    status = NetworkStatus()
    assert network.start_supervisor(config, status) is None
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "nmcli is not installed" in warnings[0]
    assert status.state.mode is Mode.CLIENT


def test_a_stopped_networkmanager_is_named(fake_network):
    fake_network.write(running=False)
    assert Nmcli().available() == "NetworkManager is not running"


def test_the_supervisor_thread_starts_and_stops(fake_network, tmp_path):
    config = load_config(overrides={"data_dir": str(tmp_path / "data")})
    status = NetworkStatus()
    changed = Watched()
    status.subscribe(changed.append)
    supervisor = network.start_supervisor(config, status)
    try:
        assert supervisor.running
        changed.wait_for(what="the supervisor's first look")
    finally:
        supervisor.stop()
    assert not supervisor.running
    assert changed and changed[0].mode is Mode.WAITING  # no known network: it waits for one


def test_stopping_ends_the_nmcli_call_under_way_at_once_and_warns_of_nothing(tmp_path, monkeypatch, caplog):
    """The service's stop used to kill the supervisor's nmcli under it, which it then logged
    as a failure every time: stopping the supervisor first ends its own call, quietly."""
    folder = tmp_path / "bin"
    folder.mkdir()
    started = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)  # the fake nmcli says here that it runs
    started.bind(str(tmp_path / "started"))
    nmcli = folder / "nmcli"
    nmcli.write_text(f"""#!{sys.executable}
import socket, sys, time
if sys.argv[1:] == ["-t", "-f", "RUNNING", "general"]:
    print("running")
else:  # a device status that takes its time (a minute), as on a busy Pi
    socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"device status", {str(tmp_path / "started")!r})
    time.sleep(60)
""")
    nmcli.chmod(0o755)
    monkeypatch.setenv("PATH", str(folder))
    config = load_config(overrides={"data_dir": str(tmp_path / "data")})
    supervisor = network.start_supervisor(config, NetworkStatus())
    try:  # until its first look at the device is under way
        assert select.select([started], [], [], BOUND_SECONDS)[0], "the supervisor never asked nmcli for the device status"
    finally:
        started.close()
    supervisor.stop()  # it gives the thread 5 s, far less than the call's minute
    assert not supervisor.running, "stopping waited for the nmcli call"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    with pytest.raises(network.NetworkCancelled):  # and no new call starts
        supervisor.nmcli.run("-t", "-f", "RUNNING", "general")


def test_a_stop_signal_stops_the_network_supervisor_before_the_server():
    from companion import serve

    stopped = []

    class Part:
        def __init__(self, name):
            self.name = name

        def stop(self):
            stopped.append(self.name)

    serve._stop(Part("server"), Part("supervisor"), signal.SIGTERM)
    assert stopped == ["supervisor", "server"]


def test_the_generated_password_is_made_once_kept_private_and_long_enough(tmp_path):
    data = tmp_path / "data"
    first = network.hotspot_password(data)
    assert len(first) >= 10 and set(first) <= set(network.PASSWORD_ALPHABET)
    assert network.hotspot_password(data) == first
    assert stat.S_IMODE((data / network.PASSWORD_FILE).stat().st_mode) == 0o600
    config = load_config(overrides={"data_dir": str(data)})
    assert Hotspot.from_config(config, machine="0123456789abcdef0123456789abcd3f").password == first


def test_the_default_ssid_comes_from_the_machine_id(tmp_path):
    config = load_config(overrides={"data_dir": str(tmp_path)})
    assert Hotspot.from_config(config, machine="0123456789abcdef0123456789abcd3f").ssid == "Tabletop-CD3F"
    assert network.default_ssid("") == "Tabletop-0000"
    named = load_config(overrides={"data_dir": str(tmp_path), "network.ssid": "Games Night"})
    assert Hotspot.from_config(named).ssid == "Games Night"


def test_terse_output_is_split_with_escaped_colons_and_backslashes():
    assert network.split_terse(r"wlan0:wifi:connected:Home\:Net\\2") == ["wlan0", "wifi", "connected", "Home:Net\\2"]


def test_a_known_network_whose_name_holds_a_colon_is_read(fake_network):
    fake_network.write(state="connected", connection="Home:Net")
    assert Nmcli().wifi() == network.Wifi("wlan0", "connected", "Home:Net")
    assert Nmcli().address("wlan0") == "192.168.1.20"


def test_own_addresses_name_the_access_point_unless_the_hotspot_is_off():
    assert network.own_addresses(load_config()) == (AP_ADDRESS,)
    assert network.own_addresses(load_config(overrides={"network.hotspot": "never"})) == ()
