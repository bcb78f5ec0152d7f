"""A fake ``nmcli`` first on PATH, so no test ever touches this machine's network.

The fake records each call's arguments (``FakeNetwork.calls``) and answers from a scenario kept
in a JSON file: the Wi-Fi device's state, the profiles NetworkManager holds, and whether a known
network is in range (then, like NetworkManager's autoconnect, a disconnected device joins it the
next time anyone looks).

(No ``__init__.py`` here on purpose, as in tests/web and tests/hardware.)
"""

from __future__ import annotations

import json
import sys
import textwrap

import pytest

FAKE_NMCLI = textwrap.dedent('''\
    import json, os, sys
    state_file = os.environ["FAKE_NMCLI_STATE"]
    with open(state_file) as file:
        state = json.load(file)
    args = sys.argv[1:]
    with open(state_file + ".calls", "a") as file:
        file.write(json.dumps(args) + "\\n")

    def save():
        with open(state_file, "w") as file:
            json.dump(state, file)

    def fail(code, message):
        print(message, file=sys.stderr)
        sys.exit(code)

    def escape(text):
        return text.replace("\\\\", "\\\\\\\\").replace(":", "\\\\:")

    if not state["running"] and args != ["-t", "-f", "RUNNING", "general"]:
        fail(8, "Error: NetworkManager is not running.")
    if state["known_in_range"] and state["state"] == "disconnected":  # NetworkManager's autoconnect
        state.update(state="connected", connection=state["known"])
        save()
    if args == ["-t", "-f", "RUNNING", "general"]:
        print("running" if state["running"] else "stopped")
    elif args == ["-t", "-f", "DEVICE,TYPE,STATE,CONNECTION", "device", "status"]:
        print("eth0:ethernet:unavailable:")
        if state["device"]:
            print(":".join([state["device"], "wifi", state["state"], escape(state["connection"])]))
        print("lo:loopback:connected (externally):lo")
    elif args == ["-t", "-f", "PERMISSION,VALUE", "general", "permissions"]:
        for permission, value in state.get("permissions", {}).items():
            print(permission + ":" + value)
    elif args[:3] == ["-t", "-f", "IP4.ADDRESS"]:
        if state["state"] == "connected":
            address = "10.42.0.1/24" if state["connection"] in state["profiles"] else "192.168.1.20/24"
            print("IP4.ADDRESS[1]:" + address)
    elif args[:3] == ["connection", "delete", "id"]:
        if args[3] not in state["profiles"]:
            fail(10, "Error: unknown connection '%s'." % args[3])
        state["profiles"].remove(args[3])
        if state["connection"] == args[3]:
            state.update(state="disconnected", connection="")
    elif args[:4] == ["connection", "add", "save", "no"]:
        if state.get("refuse_add"):  # echoes the password, as a careless error message might
            fail(2, "Error: failed to add: psk " + args[-1] + " refused by the driver")
        state["profiles"].append(args[args.index("con-name") + 1])
    elif args[:3] == ["connection", "up", "id"]:
        if args[3] not in state["profiles"]:
            fail(10, "Error: unknown connection '%s'." % args[3])
        state.update(state="connected", connection=args[3])
    elif args[:4] == ["--wait", "0", "device", "connect"]:
        if not state["known_in_range"]:
            fail(4, "Error: Connection activation failed: No suitable connection found.")
    else:
        fail(2, "Error: the fake nmcli does not know " + " ".join(args))
    save()
''')


class FakeNetwork:
    """The scenario the fake nmcli plays, and the calls it saw."""

    def __init__(self, folder):
        self.state_file = folder / "nmcli-state.json"
        self.write(running=True, device="wlan0", state="disconnected", connection="", profiles=[],
                   known="Home:Net", known_in_range=False)

    def read(self) -> dict:
        return json.loads(self.state_file.read_text())

    def write(self, **changes) -> None:
        state = self.read() if self.state_file.exists() else {}
        self.state_file.write_text(json.dumps(state | changes))

    def calls(self) -> list[list[str]]:
        """The calls since the last time this was asked."""
        log = self.state_file.with_name(self.state_file.name + ".calls")
        calls = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
        log.unlink(missing_ok=True)
        return calls

    def changes(self) -> list[list[str]]:
        """The calls since the last time, without the ones that only look."""
        return [call for call in self.calls() if call[0] != "-t"]


@pytest.fixture
def fake_network(tmp_path, monkeypatch):
    """A fake nmcli first (and alone) on PATH."""
    folder = tmp_path / "fake-bin"
    folder.mkdir()
    nmcli = folder / "nmcli"
    # -I -S: no site-packages to set up, a third less processor time a call (tests make hundreds).
    nmcli.write_text(f"#!{sys.executable} -IS\n{FAKE_NMCLI}")
    nmcli.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}")
    monkeypatch.setenv("FAKE_NMCLI_STATE", str(tmp_path / "nmcli-state.json"))
    return FakeNetwork(tmp_path)
