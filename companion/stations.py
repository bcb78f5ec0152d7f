"""How many phones are associated with the companion's access point, asked of the kernel.

The supervisor keeps the access point up while a phone is on it (companion/network.py). A phone
counts from the moment it is associated until it leaves or the access point drops it, whether
it talks or sleeps: this asks the kernel's Wi-Fi layer (nl80211, the interface ``iw`` and
wpa_supplicant use) for the stations of the access point's interface, the list the access point
itself keeps. Two other ways were tried and rejected:

- ARP/neighbour entries (``ip neigh``): a silent phone's entry goes STALE within a minute and
  is then indistinguishable from a phone that left; and ``ip`` calls ``capset`` at start,
  which the unit's ``SystemCallFilter=~@privileged`` forbids, so it failed every time.
- wpa_supplicant's D-Bus ``Stations`` property: its D-Bus policy admits only root and the
  ``netdev`` group, which the service user is not in and need not be.

Reading the station list is open to every user (the kernel marks ``NL80211_CMD_GET_STATION``
unprivileged) and needs only a netlink socket, which the unit allows (``AF_NETLINK`` in
``RestrictAddressFamilies``): no capability, no extra program, no extra package. The query is
a generic-netlink dump written here with :mod:`socket` and :mod:`struct`, two requests of a
few bytes each: the standard library has no netlink client, and a full one (pyroute2) would be
a large dependency for two messages.
"""

from __future__ import annotations

import errno
import os
import socket
import struct
from collections.abc import Iterator


class StationCountError(OSError):
    """The kernel could not be asked, or did not answer, how many stations there are."""


# Netlink and generic netlink (linux/netlink.h, linux/genetlink.h).
NETLINK_GENERIC = 16
NLMSG_ERROR = 2
NLMSG_DONE = 3
NLM_F_REQUEST = 0x1
NLM_F_ACK = 0x4
NLM_F_DUMP = 0x300
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
NLA_TYPE_MASK = 0x3FFF  # without NLA_F_NESTED and NLA_F_NET_BYTEORDER

# nl80211 (linux/nl80211.h).
NL80211_CMD_GET_STATION = 17
NL80211_ATTR_IFINDEX = 3
NL80211_ATTR_MAC = 6
NL80211_ATTR_STA_INFO = 21
NL80211_STA_INFO_STA_FLAGS = 17  # struct nl80211_sta_flag_update {u32 mask; u32 set;}
NL80211_STA_FLAG_ASSOCIATED = 7

_HEADER = struct.Struct("=IHHII")  # struct nlmsghdr: length, type, flags, sequence, port
_GENL = struct.Struct("=BBH")  # struct genlmsghdr: command, version, reserved
_ATTR = struct.Struct("=HH")  # struct nlattr: length, type

TIMEOUT_SECONDS = 5.0


def _align(length: int) -> int:
    return (length + 3) & ~3


def attribute(kind: int, value: bytes) -> bytes:
    """One netlink attribute, padded to four bytes."""
    length = _ATTR.size + len(value)
    return _ATTR.pack(length, kind) + value + b"\0" * (_align(length) - length)


def attributes(data: bytes) -> Iterator[tuple[int, bytes]]:
    """The (type, value) pairs packed in ``data``; StationCountError when one runs past the end."""
    offset = 0
    while offset + _ATTR.size <= len(data):
        length, kind = _ATTR.unpack_from(data, offset)
        if length < _ATTR.size or offset + length > len(data):
            raise StationCountError(f"a malformed netlink attribute (length {length} at byte {offset})")
        yield kind & NLA_TYPE_MASK, data[offset + _ATTR.size:offset + length]
        offset += _align(length)


def message(kind: int, flags: int, sequence: int, command: int, version: int, payload: bytes) -> bytes:
    """A generic-netlink request."""
    body = _GENL.pack(command, version, 0) + payload
    return _HEADER.pack(_HEADER.size + len(body), kind, flags, sequence, 0) + body


def messages(data: bytes) -> Iterator[tuple[int, int, bytes]]:
    """The (type, sequence, payload) of each netlink message in one datagram."""
    offset = 0
    while offset + _HEADER.size <= len(data):
        length, kind, _flags, sequence, _port = _HEADER.unpack_from(data, offset)
        if length < _HEADER.size or offset + length > len(data):
            raise StationCountError(f"a malformed netlink message (length {length} at byte {offset})")
        yield kind, sequence, data[offset + _HEADER.size:offset + length]
        offset += _align(length)


def associated(station: bytes) -> bool:
    """Whether one station of the dump (its attributes after the genl header) is associated.

    mac80211 reports the ASSOCIATED flag; a station entry without flags (a driver that reports
    none) is counted, since the access point lists only stations it knows."""
    for kind, value in attributes(station):
        if kind != NL80211_ATTR_STA_INFO:
            continue
        for info_kind, info in attributes(value):
            if info_kind == NL80211_STA_INFO_STA_FLAGS and len(info) >= 8:
                mask, flags = struct.unpack_from("=II", info)
                bit = 1 << NL80211_STA_FLAG_ASSOCIATED
                return not mask & bit or bool(flags & bit)
    return True


class Netlink:
    """A generic-netlink socket: send a request, read the answers up to its end."""

    def __init__(self, timeout: float = TIMEOUT_SECONDS):
        try:
            self.socket = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        except OSError as error:
            raise StationCountError(f"no netlink socket: {error.strerror or error}") from None
        self.socket.settimeout(timeout)
        self.sequence = 0

    def close(self) -> None:
        self.socket.close()

    def __enter__(self) -> Netlink:
        return self

    def __exit__(self, *exception) -> None:
        self.close()

    def ask(self, kind: int, flags: int, command: int, version: int, payload: bytes) -> list[bytes]:
        """Send one request; the payloads of the answers (after the genl header), until the
        kernel's acknowledgement or the end of the dump. StationCountError for an error."""
        self.sequence += 1
        try:
            # A dump ends with NLMSG_DONE; any other request is acknowledged (NLM_F_ACK).
            flags |= NLM_F_REQUEST | (0 if flags & NLM_F_DUMP else NLM_F_ACK)
            self.socket.send(message(kind, flags, self.sequence, command, version, payload))
            answers = []
            while True:
                data = self.socket.recv(65536)
                for answer_kind, sequence, body in messages(data):
                    if sequence != self.sequence:
                        continue  # a late answer to an earlier request
                    if answer_kind == NLMSG_DONE:
                        return answers
                    if answer_kind == NLMSG_ERROR:
                        code = -struct.unpack_from("=i", body)[0]
                        if code == 0:  # the acknowledgement of a request that is not a dump
                            return answers
                        raise StationCountError(f"the kernel refused: {os.strerror(code)} "
                                                f"({errno.errorcode.get(code, code)})")
                    answers.append(body[_GENL.size:])
        except socket.timeout:
            raise StationCountError(f"the kernel did not answer within {self.socket.gettimeout():g} s") from None
        except StationCountError:
            raise
        except OSError as error:
            raise StationCountError(f"netlink: {error.strerror or error}") from None


def nl80211_family(netlink: Netlink) -> int:
    """The generic-netlink id of nl80211 (StationCountError when the kernel has no Wi-Fi layer)."""
    try:
        answers = netlink.ask(GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, 1, attribute(CTRL_ATTR_FAMILY_NAME, b"nl80211\0"))
    except StationCountError as error:
        raise StationCountError(f"the kernel has no nl80211 (Wi-Fi) interface: {error}") from None
    for answer in answers:
        for kind, value in attributes(answer):
            if kind == CTRL_ATTR_FAMILY_ID:
                return struct.unpack_from("=H", value)[0]
    raise StationCountError("the kernel did not name nl80211's id")


def count_stations(device: str) -> int:
    """How many stations are associated with the access point on ``device`` (e.g. "wlan0").

    StationCountError, with the reason in plain words, when they cannot be counted: never 0
    in their place."""
    try:
        index = socket.if_nametoindex(device)
    except OSError:
        raise StationCountError(f"there is no network interface {device!r}") from None
    with Netlink() as netlink:
        family = nl80211_family(netlink)
        stations = netlink.ask(family, NLM_F_DUMP, NL80211_CMD_GET_STATION, 0,
                               attribute(NL80211_ATTR_IFINDEX, struct.pack("=I", index)))
    return sum(1 for station in stations if associated(station))
