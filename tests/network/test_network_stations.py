"""Counting the phones associated with the access point (companion/stations.py) against a fake
kernel that speaks generic netlink byte for byte, and the supervisor's use of the count.

The real kernel answers in the virtual Pi (tests/system): there a phone on a simulated radio
stays associated and silent for ten minutes while the access point stays up."""

from __future__ import annotations

import errno
import logging
import socket
import struct

import pytest

from companion import stations
from companion.cli import main
from companion.network import PROFILE, Hotspot, Mode, NetworkStatus, Nmcli, Supervisor
from companion.stations import StationCountError, count_stations

NL80211_ID = 0x1C  # what the kernel happens to give nl80211 on the fake machine
WLAN0 = 3  # wlan0's interface index there
ASSOCIATED = 1 << 7
AUTHORIZED = 1 << 1
AUTHENTICATED = 1 << 5


def attr(kind: int, value: bytes) -> bytes:
    """A netlink attribute as the kernel writes it (padded to four bytes)."""
    length = 4 + len(value)
    return struct.pack("=HH", length, kind) + value + b"\0" * (-length % 4)


def netlink_message(kind: int, sequence: int, body: bytes, flags: int = 0) -> bytes:
    return struct.pack("=IHHII", 16 + len(body), kind, flags, sequence, 4242) + body


def station(mac: bytes, flags: tuple[int, int] | None) -> bytes:
    """One NL80211_CMD_NEW_STATION answer's genl header and attributes: MAC, and station info
    with the inactive time, the signal and (unless None) the flags (mask, set)."""
    info = attr(1, struct.pack("=I", 60_000)) + attr(7, struct.pack("=b", -40))
    if flags is not None:
        info += attr(17, struct.pack("=II", *flags))
    return struct.pack("=BBH", 19, 1, 0) + attr(3, struct.pack("=I", WLAN0)) + attr(6, mac) + attr(21 | 0x8000, info)


PHONE_ASLEEP = station(b"\x02\x00\x00\x00\x01\x00", (ASSOCIATED | AUTHORIZED | AUTHENTICATED, ASSOCIATED | AUTHORIZED | AUTHENTICATED))
PHONE_TALKING = station(b"\x02\x00\x00\x00\x02\x00", (ASSOCIATED | AUTHORIZED | AUTHENTICATED, ASSOCIATED | AUTHORIZED | AUTHENTICATED))
ONLY_AUTHENTICATED = station(b"\x02\x00\x00\x00\x03\x00", (ASSOCIATED | AUTHORIZED | AUTHENTICATED, AUTHENTICATED))
NO_FLAGS_REPORTED = station(b"\x02\x00\x00\x00\x04\x00", None)


class FakeKernel:
    """Answers what count_stations sends as Linux does: the family look-up (answer, then the
    acknowledgement), then the station dump in ``datagrams`` (lists of stations per recv) and
    NLMSG_DONE. ``refuse`` maps a request ("family" or "dump") to a negative errno."""

    def __init__(self, datagrams: list[list[bytes]], refuse: dict[str, int] | None = None, silent: bool = False):
        self.datagrams = datagrams
        self.refuse = refuse or {}
        self.silent = silent
        self.requests: list[tuple[int, int, int, dict[int, bytes]]] = []  # type, flags, command, attributes
        self.pending: list[bytes] = []
        self.closed = False

    def socket(self, family, kind, protocol):
        assert (family, kind, protocol) == (socket.AF_NETLINK, socket.SOCK_RAW, 16)
        return self

    def settimeout(self, seconds):
        self.timeout = seconds

    def gettimeout(self):
        return self.timeout

    def close(self):
        self.closed = True

    def send(self, data: bytes) -> int:
        length, kind, flags, sequence, _port = struct.unpack_from("=IHHII", data)
        assert length == len(data)
        command = data[16]
        attributes, offset = {}, 20
        while offset < length:
            size, attribute = struct.unpack_from("=HH", data, offset)
            attributes[attribute] = data[offset + 4:offset + size]
            offset += (size + 3) & ~3
        self.requests.append((kind, flags, command, attributes))

        def error(code: int) -> bytes:
            return netlink_message(2, sequence, struct.pack("=i", code) + data[:16])

        if kind == 0x10:  # the generic-netlink controller: which id has this family?
            if "family" in self.refuse:
                self.pending = [error(self.refuse["family"])]
            else:
                answer = struct.pack("=BBH", 1, 2, 0) + attr(2, b"nl80211\0") + attr(1, struct.pack("=H", NL80211_ID))
                self.pending = [netlink_message(NL80211_ID, sequence, answer) + error(0)]
        elif "dump" in self.refuse:
            self.pending = [error(self.refuse["dump"])]
        else:
            self.pending = [b"".join(netlink_message(NL80211_ID, sequence, s, flags=0x2) for s in group)
                            for group in self.datagrams]
            self.pending.append(netlink_message(3, sequence, struct.pack("=i", 0)))
        return len(data)

    def recv(self, size: int) -> bytes:
        if self.silent or not self.pending:
            raise socket.timeout("timed out")
        return self.pending.pop(0)


@pytest.fixture
def kernel(monkeypatch):
    """kernel(datagrams, refuse=..., silent=...) installs a fake kernel with wlan0 as index 3."""

    def install(datagrams=(), **options) -> FakeKernel:
        fake = FakeKernel(list(datagrams), **options)

        def if_nametoindex(name: str) -> int:
            if name != "wlan0":
                raise OSError(errno.ENODEV, "No such device")
            return WLAN0

        monkeypatch.setattr(stations.socket, "socket", fake.socket)
        monkeypatch.setattr(stations.socket, "if_nametoindex", if_nametoindex)
        return fake

    return install


# --------------------------------------------------------------------------- the count


def test_associated_stations_are_counted_asleep_or_talking_across_datagrams(kernel):
    fake = kernel([[PHONE_ASLEEP, ONLY_AUTHENTICATED], [PHONE_TALKING, NO_FLAGS_REPORTED]])
    assert count_stations("wlan0") == 3  # not the one only authenticated
    (family_kind, family_flags, family_command, family_attributes), (kind, flags, command, attributes) = fake.requests
    assert (family_kind, family_command, family_attributes) == (0x10, 3, {2: b"nl80211\0"})
    assert family_flags & 0x4  # acknowledged, so the answer's end is known
    assert (kind, command) == (NL80211_ID, 17)  # NL80211_CMD_GET_STATION
    assert flags & 0x300 == 0x300  # a dump
    assert attributes == {3: struct.pack("=I", WLAN0)}  # of wlan0 only
    assert fake.closed


def test_no_station_is_zero(kernel):
    kernel([])
    assert count_stations("wlan0") == 0


@pytest.mark.parametrize(("options", "device", "words"), [
    ({"refuse": {"family": -errno.ENOENT}}, "wlan0", "the kernel has no nl80211 (Wi-Fi) interface"),
    ({"refuse": {"dump": -errno.EOPNOTSUPP}}, "wlan0", "the kernel refused: Operation not supported"),
    ({"refuse": {"dump": -errno.ENODEV}}, "wlan0", "No such device"),
    ({"silent": True}, "wlan0", "the kernel did not answer within 5 s"),
    ({}, "wlan9", "there is no network interface 'wlan9'"),
])
def test_a_count_that_fails_says_why_and_is_never_zero(kernel, options, device, words):
    kernel([[PHONE_ASLEEP]], **options)
    with pytest.raises(StationCountError) as failure:
        count_stations(device)
    assert words in str(failure.value)


def test_a_sandbox_without_netlink_is_named(monkeypatch):
    def forbidden(*args):
        raise PermissionError(errno.EAFNOSUPPORT, "Address family not supported by protocol")

    monkeypatch.setattr(stations.socket, "socket", forbidden)
    monkeypatch.setattr(stations.socket, "if_nametoindex", lambda name: WLAN0)
    with pytest.raises(StationCountError, match="no netlink socket: Address family not supported"):
        count_stations("wlan0")


def test_a_truncated_answer_is_an_error_not_a_count(kernel):
    fake = kernel([[PHONE_ASLEEP]])
    real_send = fake.send

    def send(data):
        sent = real_send(data)
        if fake.requests[-1][2] == 17:
            fake.pending[0] = fake.pending[0][:-6]  # the last attribute cut short
        return sent

    fake.send = send
    with pytest.raises(StationCountError, match="malformed netlink"):
        count_stations("wlan0")


# --------------------------------------------------------------------------- the supervisor


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Phones:
    """The count the supervisor sees: a number, or a StationCountError."""

    def __init__(self, answer):
        self.answer = answer
        self.asked = 0

    def __call__(self, device: str) -> int:
        assert device == "wlan0"
        self.asked += 1
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def on_the_access_point(fake_network, phones: Phones):
    """An ``auto`` supervisor whose access point has just come up (no known network)."""
    clock = Clock()
    supervisor = Supervisor(Hotspot("auto", "Tabletop-AB12", "pass;word:10", "bg", 6), NetworkStatus(),
                            Nmcli(secret="pass;word:10"), clock=clock, clients=phones)
    supervisor.step()
    clock.now += 20
    supervisor.step()
    assert supervisor.mode is Mode.ACCESS_POINT
    fake_network.changes()
    return supervisor, clock


def test_one_associated_phone_keeps_the_access_point_for_hours(fake_network):
    phones = Phones(1)
    supervisor, clock = on_the_access_point(fake_network, phones)
    for _ in range(3 * 60):  # three hours of steps a minute apart
        clock.now += 60
        supervisor.step()
    assert supervisor.mode is Mode.ACCESS_POINT and fake_network.changes() == []
    assert phones.asked == 3 * 60 // 2  # asked once per look-again period (two minutes), not every step


def test_a_failed_count_keeps_the_access_point_and_is_logged_every_ten_minutes(fake_network, caplog):
    caplog.set_level(logging.INFO, logger="companion.network")
    phones = Phones(StationCountError("the kernel has no nl80211 (Wi-Fi) interface"))
    supervisor, clock = on_the_access_point(fake_network, phones)
    for _ in range(30 // 2):  # half an hour, a step at each look-again time
        clock.now += 120
        supervisor.step()
    assert supervisor.mode is Mode.ACCESS_POINT and fake_network.changes() == []
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 3  # at 2, 12 and 22 minutes: not every two minutes
    assert "cannot count the phones on the access point (the kernel has no nl80211 (Wi-Fi) interface; " \
           "1 failed counts so far): keeping it up" in warnings[0]
    assert "11 failed counts so far" in warnings[2]

    caplog.clear()
    phones.answer = 0  # counting works again, and nobody is on it
    clock.now += 120
    supervisor.step()
    assert "the phones on the access point can be counted again (15 failed counts before)" in caplog.text
    assert "no phone on the access point: looking for a known network" in caplog.text
    assert supervisor.mode is Mode.WAITING
    assert fake_network.changes() == [["connection", "delete", "id", PROFILE], ["--wait", "0", "device", "connect", "wlan0"]]


def test_after_a_recovery_the_next_failure_is_logged_at_once(fake_network, caplog):
    phones = Phones(StationCountError("netlink: Connection refused"))
    supervisor, clock = on_the_access_point(fake_network, phones)
    clock.now += 120
    supervisor.step()
    phones.answer = 2
    clock.now += 120
    supervisor.step()
    phones.answer = StationCountError("netlink: Connection refused")
    clock.now += 120
    supervisor.step()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 2 and "1 failed counts so far" in warnings[1]


# --------------------------------------------------------------------------- the command line


def test_network_status_counts_the_associated_phones(fake_network, kernel, capsys):
    fake_network.write(state="connected", connection=PROFILE, profiles=[PROFILE])
    kernel([[PHONE_ASLEEP, PHONE_TALKING]])
    assert main(["network", "status"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "clients: 2"


def test_network_status_says_when_the_phones_cannot_be_counted(fake_network, kernel, capsys):
    fake_network.write(state="connected", connection=PROFILE, profiles=[PROFILE])
    kernel([], refuse={"family": -errno.ENOENT})
    assert main(["network", "status"]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        "clients: unknown (the kernel has no nl80211 (Wi-Fi) interface: "
        "the kernel refused: No such file or directory (ENOENT))")
