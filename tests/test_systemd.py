"""The service unit, the installer and the uninstaller.

The unit is checked by ``systemd-analyze verify`` (Debian package ``systemd``). The scripts run
for real, as root or not, into a throwaway root folder (``COMPANION_ROOT``), with every command
that would change the system (apt-get, useradd, systemctl, python3 -m venv, pip...) replaced by
a fake that records its call and keeps its state in files. PATH holds only those fakes and a
few harmless file tools, so a command the fakes forgot fails the test instead of running.
"""

from __future__ import annotations

import json
import shutil
import stat
import subprocess
import sys
from pathlib import Path


PROJECT = Path(__file__).resolve().parents[1]
SYSTEMD = PROJECT / "systemd"
UNIT = SYSTEMD / "companion.service"
EXEC_START = "/opt/tabletop-companion/venv/bin/companion"

# The file tools the scripts may use for real (they only touch the throwaway root).
HARMLESS_TOOLS = ("bash", "cat", "chmod", "cmp", "cp", "dirname", "grep", "install", "mkdir", "mv", "rm", "sed", "sha256sum", "touch", "tr")

# The fakes. State lives in $FAKE_STATE; every call is appended to $FAKE_STATE/calls.
FAKES = {
    # install.sh writes everything to the card before "Done" (a plug pulled right after must
    # not leave an empty unit file): the call is recorded, the host's disks are left alone.
    "sync": "true",
    "dpkg-query": 'test -e "$FAKE_STATE/dpkg/${@: -1}" && printf installed || exit 1',
    # The archive offers every package but those named in $FAKE_STATE/not-offered (one a line).
    "apt-cache": 'if grep -qx "$2" "$FAKE_STATE/not-offered" 2>/dev/null; then echo "  Candidate: (none)"; else echo "  Candidate: 1.0"; fi',
    "apt-get": 'if [ "$1" = install ]; then shift 3; mkdir -p "$FAKE_STATE/dpkg"; for p in "$@"; do touch "$FAKE_STATE/dpkg/$p"; done; fi',
    "getent": 'grep -qx "$2" "$FAKE_STATE/$1" 2>/dev/null',
    "groupadd": 'echo "${@: -1}" >>"$FAKE_STATE/group"',
    "useradd": 'echo "${@: -1}" >>"$FAKE_STATE/passwd"',
    "userdel": 'grep -vx "$1" "$FAKE_STATE/passwd" >"$FAKE_STATE/passwd.new"; mv "$FAKE_STATE/passwd.new" "$FAKE_STATE/passwd"',
    "systemctl": """case "$1" in
        is-enabled) test -e "$FAKE_STATE/enabled" ;;
        is-active) test -e "$FAKE_STATE/active" ;;
        enable) touch "$FAKE_STATE/enabled" ;;
        disable) rm "$FAKE_STATE/enabled" ;;
        start|restart) touch "$FAKE_STATE/active" ;;
        stop) rm "$FAKE_STATE/active" ;;
        daemon-reload) ;;
        *) exit 99 ;;
    esac""",
    "hostname": "echo tabletop",
    "udevadm": "",
    # `python3 -m venv DIR` makes a venv whose pip is the fake below.
    "python3": 'mkdir -p "$3/bin"; cp "$FAKE_BIN/python3" "$3/bin/python"; cp "$FAKE_BIN/pip" "$3/bin/pip"',
    # The fake pip "installs" the package: a RECORD whose content is $FAKE_STATE/code (so a test
    # can change the code), and a `companion` command that is the real one from this checkout.
    "pip": """echo "${PYPI-unset}" >"$FAKE_STATE/pip-PYPI"  # how lgpio would be built
        venv=$(dirname "$(dirname "$0")")
        record="$venv/lib/python3.11/site-packages/tabletop_companion-0.1.0.dist-info/RECORD"
        mkdir -p "$(dirname "$record")"
        cat "$FAKE_STATE/code" >"$record"
        printf '#!/bin/sh\\nPYTHONPATH=%s exec %s -m companion "$@"\\n' "$PROJECT" "$PYTHON" >"$venv/bin/companion"
        chmod +x "$venv/bin/companion"
    """,
}


class Machine:
    """A throwaway root with fake system commands; ``run`` runs a script against it."""

    def __init__(self, tmp_path: Path, raspberry_pi: bool = True, i2c_on: bool = True, not_offered: tuple[str, ...] = ()):
        self.root = tmp_path / "root"
        self.state = tmp_path / "state"
        self.bin = tmp_path / "bin"
        for folder in (self.root, self.state, self.bin):
            folder.mkdir()
        (self.state / "code").write_text("version 1\n")
        (self.state / "not-offered").write_text("".join(f"{package}\n" for package in not_offered))
        for name, body in FAKES.items():
            fake = self.bin / name
            fake.write_text(f'#!/bin/bash\necho "{name} $*" >>"$FAKE_STATE/calls"\n{body}\n')
            fake.chmod(0o755)
        for tool in HARMLESS_TOOLS:
            (self.bin / tool).symlink_to(shutil.which(tool))
        if raspberry_pi:
            model = self.root / "proc/device-tree/model"
            model.parent.mkdir(parents=True)
            model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
        if i2c_on:
            (self.root / "dev").mkdir()
            (self.root / "dev/i2c-1").touch()

    def run(self, script: str, *args: str, expect_success: bool = True) -> subprocess.CompletedProcess:
        environment = {
            "PATH": str(self.bin),
            "COMPANION_ROOT": str(self.root),
            "FAKE_STATE": str(self.state),
            "FAKE_BIN": str(self.bin),
            "PROJECT": str(PROJECT),
            "PYTHON": sys.executable,
        }
        result = subprocess.run(
            [str(self.bin / "bash"), str(SYSTEMD / script), *args], env=environment, capture_output=True, text=True, timeout=60
        )
        if expect_success:
            assert result.returncode == 0, result.stdout + result.stderr
        return result

    def lgpio_build(self) -> str:
        """PYPI as the last pip saw it: "1" builds lgpio with its own C library."""
        return (self.state / "pip-PYPI").read_text().strip()

    def calls(self) -> list[str]:
        """The recorded calls since the last call to this method."""
        log = self.state / "calls"
        calls = log.read_text().splitlines() if log.exists() else []
        log.unlink(missing_ok=True)
        return calls

    def files(self) -> dict[str, tuple[int, bytes | None]]:
        """Every path under the root with its mode and content: what "changes nothing" compares."""
        snapshot = {}
        for path in sorted(self.root.rglob("*")):
            mode = path.lstat().st_mode
            content = path.read_bytes() if stat.S_ISREG(mode) else None
            snapshot[str(path.relative_to(self.root))] = (stat.S_IMODE(mode), content)
        return snapshot


def changing(calls: list[str]) -> list[str]:
    """The calls that change the system (queries, and the sync that only flushes, left out)."""
    queries = ("dpkg-query", "apt-cache", "getent", "systemctl is-", "hostname", "id ", "sync")
    return [call for call in calls if not call.startswith(queries)]


# ---------------------------------------------------------------------------------------------
# The unit


def test_systemd_analyze_verify_accepts_the_unit(tmp_path):
    """The unit verifies cleanly: no error and not even a warning (an unknown key is only a warning).

    Run against a throwaway root holding the unit, the system's own units (it needs
    multi-user.target and friends) and an executable at ExecStart's path, which verify checks.
    This needs `systemd-analyze` (Debian package `systemd`); without it the test fails.
    """
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is missing: install the Debian package 'systemd'"
    (tmp_path / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(UNIT, tmp_path / "etc/systemd/system/companion.service")
    shutil.copytree("/usr/lib/systemd/system", tmp_path / "usr/lib/systemd/system", symlinks=True)
    program = tmp_path / EXEC_START.lstrip("/")
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    result = subprocess.run(
        [analyze, "verify", f"--root={tmp_path}", "/etc/systemd/system/companion.service"], capture_output=True, text=True, timeout=60
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def unit_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


def test_unit_runs_serve_as_a_fed_watchdogged_unprivileged_service():
    settings = unit_settings()
    assert settings["ExecStart"] == [f"{EXEC_START} serve --config /etc/tabletop-companion/config.toml"]
    assert settings["Type"] == ["notify"] and settings["WatchdogSec"] == ["30"]
    assert settings["Restart"] == ["on-failure"]
    # The stop signal goes to the companion alone, which stops the network supervisor (and its
    # nmcli) first; systemd killing the nmcli under it made a warning at every stop.
    assert settings["KillMode"] == ["mixed"]
    assert settings["User"] == ["tabletop-companion"]
    assert settings["SupplementaryGroups"] == ["gpio i2c spi"]
    assert settings["StateDirectory"] == ["tabletop-companion"]
    # lgpio makes its notification pipe in the current directory: the one the service may write.
    assert settings["WorkingDirectory"] == ["/var/lib/tabletop-companion"]
    # Port 80 by the one capability, not by root.
    assert settings["AmbientCapabilities"] == settings["CapabilityBoundingSet"] == ["CAP_NET_BIND_SERVICE"]


def test_unit_hardening_leaves_gpio_i2c_and_spi_reachable():
    settings = unit_settings()
    assert settings["PrivateDevices"] == ["no"]  # "yes" would hide /dev/gpiochip*, /dev/i2c-*, /dev/spidev*
    assert settings["DevicePolicy"] == ["closed"]
    assert set(settings["DeviceAllow"]) == {"char-gpiochip rw", "char-*gpiomem* rw", "char-i2c rw", "char-spi rw"}
    assert "PrivateUsers" not in settings  # would unmap the device groups


def test_unit_sandbox_lets_nmcli_reach_networkmanager_over_dbus():
    """nmcli talks to NetworkManager through /run/dbus/system_bus_socket (AF_UNIX); nothing in the
    sandbox may hide /run/dbus or cut the process off the host's sockets."""
    settings = unit_settings()
    assert "AF_UNIX" in settings["RestrictAddressFamilies"][0].split()
    assert settings["ProtectSystem"] == ["strict"]  # read-only, but /run stays visible
    for hiding in ("PrivateNetwork", "InaccessiblePaths", "TemporaryFileSystem", "PrivateIPC", "RootDirectory", "RootImage"):
        assert hiding not in settings, hiding
    assert not any("/run" in value for value in settings.get("ReadOnlyPaths", []))


POLKIT_RULE = "etc/polkit-1/rules.d/50-tabletop-companion.rules"
DNSMASQ_DROP_IN = "etc/NetworkManager/dnsmasq-shared.d/tabletop-companion.conf"


def test_polkit_rule_grants_the_service_user_three_named_networkmanager_actions():
    import re

    rule = (SYSTEMD / "polkit.rules").read_text()
    code = "\n".join(line for line in rule.splitlines() if not line.lstrip().startswith("//"))
    assert re.findall(r'"(org\.freedesktop\.[^"]+)"', code) == [
        "org.freedesktop.NetworkManager.settings.modify.system",
        "org.freedesktop.NetworkManager.network-control",
        "org.freedesktop.NetworkManager.wifi.share.protected",
    ]
    assert 'subject.user === "tabletop-companion"' in code and "*" not in code
    node = shutil.which("node") or shutil.which("nodejs")
    if node:  # run the rule as polkit would, for the service user and for someone else
        harness = """
            var rules = [];
            var polkit = {Result: {YES: "yes"}, addRule: function (rule) { rules.push(rule); }};
            eval(require("fs").readFileSync(process.argv[1], "utf8"));
            var answers = {};
            ["tabletop-companion", "pi"].forEach(function (user) {
                ["org.freedesktop.NetworkManager.network-control", "org.freedesktop.NetworkManager.enable-disable-wifi",
                 "org.freedesktop.login1.reboot"].forEach(function (id) {
                    answers[user + " " + id] = rules[0]({id: id}, {user: user}) || "no";
                });
            });
            console.log(JSON.stringify(answers));
        """
        result = subprocess.run([node, "-e", harness, str(SYSTEMD / "polkit.rules")], capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout) == {
            "tabletop-companion org.freedesktop.NetworkManager.network-control": "yes",
            "tabletop-companion org.freedesktop.NetworkManager.enable-disable-wifi": "no",
            "tabletop-companion org.freedesktop.login1.reboot": "no",
            "pi org.freedesktop.NetworkManager.network-control": "no",
            "pi org.freedesktop.NetworkManager.enable-disable-wifi": "no",
            "pi org.freedesktop.login1.reboot": "no",
        }


def test_dnsmasq_drop_in_sends_every_probe_host_to_the_access_point():
    from companion.network import AP_ADDRESS, PROBE_HOSTS

    lines = [line for line in (SYSTEMD / "dnsmasq-shared.conf").read_text().splitlines() if line and not line.startswith("#")]
    assert lines == [f"address=/{host}/{AP_ADDRESS}" for host in PROBE_HOSTS]


def test_installers_config_file_is_valid_and_sets_port_80_and_the_state_directory():
    from companion.config import load_config

    config = load_config(SYSTEMD / "config.toml")
    assert config.port == 80
    assert str(config.data_dir) == "/var/lib/tabletop-companion"


# ---------------------------------------------------------------------------------------------
# The installer


def test_install_on_a_raspberry_pi(tmp_path):
    """Raspberry Pi OS: it offers liblgpio-dev, which lgpio links where pip builds it."""
    machine = Machine(tmp_path)
    result = machine.run("install.sh")
    calls = machine.calls()
    packages = "python3-venv avahi-daemon fonts-unifont python3-dev build-essential swig i2c-tools liblgpio-dev"
    assert changing(calls) == [
        "apt-get update",
        f"apt-get install -y --no-install-recommends {packages}",
        "groupadd --system gpio",
        "groupadd --system i2c",
        "groupadd --system spi",
        "useradd --system --user-group --home-dir /var/lib/tabletop-companion --no-create-home "
        "--shell /usr/sbin/nologin --comment Tabletop Companion service tabletop-companion",
        f"python3 -m venv {machine.root}/opt/tabletop-companion/venv",
        f"pip install --quiet --disable-pip-version-check {PROJECT}[pi]",
        "systemctl daemon-reload",
        "systemctl enable companion.service",
        "systemctl start companion.service",
    ]
    assert machine.lgpio_build() == "0"  # linked to the system's liblgpio
    # Everything is on the card before "Done", the unit and its start included.
    assert [call.strip() for call in calls].index("sync") > calls.index("systemctl start companion.service")
    assert (machine.root / "etc/systemd/system/companion.service").read_bytes() == UNIT.read_bytes()
    assert (machine.root / "etc/tabletop-companion/config.toml").read_bytes() == (SYSTEMD / "config.toml").read_bytes()
    assert (machine.root / POLKIT_RULE).read_bytes() == (SYSTEMD / "polkit.rules").read_bytes()
    assert (machine.root / DNSMASQ_DROP_IN).read_bytes() == (SYSTEMD / "dnsmasq-shared.conf").read_bytes()
    assert "http://tabletop.local/" in result.stdout
    assert "I2C is off" not in result.stdout


def test_install_on_a_pi_with_plain_debian_builds_lgpio_with_its_own_library(tmp_path):
    """Debian (bookworm, trixie) has no liblgpio-dev (Raspberry Pi OS has): the install goes on
    without it, and pip, where it builds lgpio (Python 3.13: no wheel), gets PYPI=1, which makes
    lgpio's setup.py compile the C library its sources carry into the module."""
    machine = Machine(tmp_path, not_offered=("liblgpio-dev",))
    machine.run("install.sh")
    calls = changing(machine.calls())
    assert calls[:2] == ["apt-get update", "apt-get install -y --no-install-recommends "
                         "python3-venv avahi-daemon fonts-unifont python3-dev build-essential swig i2c-tools"]
    assert f"pip install --quiet --disable-pip-version-check {PROJECT}[pi]" in calls
    assert machine.lgpio_build() == "1"
    machine.run("install.sh")
    assert not any(call.startswith("apt-get") for call in machine.calls()), "a second install asked apt again"
    assert machine.lgpio_build() == "1"


GPIO_RULE = "etc/udev/rules.d/60-tabletop-companion-gpio.rules"
RASPBERRY_PI_OS_RULE = 'SUBSYSTEM=="gpio", GROUP="gpio", MODE="0660"\n'  # its /etc/udev/rules.d/99-com.rules


def test_install_on_a_pi_without_a_gpio_rule_gives_the_chips_to_the_group_gpio(tmp_path):
    """Plain Debian leaves /dev/gpiochip* to root: the service (group gpio) could not read the buttons."""
    machine = Machine(tmp_path, not_offered=("liblgpio-dev",))
    machine.run("install.sh")
    rule = (machine.root / GPIO_RULE).read_text()
    assert 'SUBSYSTEM=="gpio", KERNEL=="gpiochip[0-9]*", GROUP="gpio", MODE="0660"' in rule.splitlines()
    assert not [call for call in machine.calls() if call.startswith("udevadm")]  # no chip yet: nothing to apply
    files = machine.files()
    machine.run("install.sh")
    assert machine.files() == files


def test_install_applies_the_new_gpio_rule_to_the_chips_there_are(tmp_path):
    machine = Machine(tmp_path)
    (machine.root / "dev/gpiochip0").touch()
    machine.run("install.sh")
    assert [call for call in machine.calls() if call.startswith("udevadm")] == [
        "udevadm control --reload", "udevadm trigger --subsystem-match=gpio --action=add", "udevadm settle"]


def test_install_leaves_raspberry_pi_os_its_own_gpio_rule(tmp_path):
    for rules in ("etc/udev/rules.d", "usr/lib/udev/rules.d"):
        (tmp_path / rules.replace("/", "-")).mkdir()
        machine = Machine(tmp_path / rules.replace("/", "-"))
        (machine.root / rules).mkdir(parents=True)
        (machine.root / rules / "99-com.rules").write_text(RASPBERRY_PI_OS_RULE)
        machine.run("install.sh")
        assert not (machine.root / GPIO_RULE).exists(), rules


def test_install_off_a_pi_skips_the_gpio_build_packages_and_says_the_hardware_is_emulated(tmp_path):
    machine = Machine(tmp_path, raspberry_pi=False, i2c_on=False)
    result = machine.run("install.sh")
    calls = machine.calls()
    assert "apt-get install -y --no-install-recommends python3-venv avahi-daemon fonts-unifont" in calls
    assert f"pip install --quiet --disable-pip-version-check {PROJECT}" in calls  # no [pi] extra
    assert "emulated" in result.stdout
    assert "I2C is off" not in result.stdout  # no Pi, no I2C advice
    assert machine.lgpio_build() == "0" and not (machine.root / GPIO_RULE).exists()


def test_install_says_how_to_turn_i2c_on_when_it_is_off(tmp_path):
    machine = Machine(tmp_path, i2c_on=False)
    result = machine.run("install.sh")
    assert "I2C is off" in result.stdout
    assert "sudo raspi-config nonint do_i2c 0" in result.stdout


def test_second_install_changes_nothing(tmp_path):
    machine = Machine(tmp_path)
    machine.run("install.sh")
    machine.calls()
    files = machine.files()
    machine.run("install.sh")
    # pip always runs (the installer is also the update) but reinstalls identical files, so
    # nothing on disk differs and nothing is created, enabled, reloaded or restarted.
    assert changing(machine.calls()) == [f"pip install --quiet --disable-pip-version-check {PROJECT}[pi]"]
    assert machine.files() == files


def test_install_after_a_code_change_restarts_the_service_once(tmp_path):
    machine = Machine(tmp_path)
    machine.run("install.sh")
    (machine.state / "code").write_text("version 2\n")
    machine.calls()
    result = machine.run("install.sh")
    assert changing(machine.calls()) == [
        f"pip install --quiet --disable-pip-version-check {PROJECT}[pi]",
        "systemctl restart companion.service",
    ]
    assert "Restarting" in result.stdout


def test_install_puts_back_a_changed_dnsmasq_drop_in_and_leaves_a_right_one_alone(tmp_path):
    machine = Machine(tmp_path)
    machine.run("install.sh")
    drop_in = machine.root / DNSMASQ_DROP_IN
    drop_in.write_text("address=/captive.apple.com/192.0.2.1\n")
    result = machine.run("install.sh")
    assert drop_in.read_bytes() == (SYSTEMD / "dnsmasq-shared.conf").read_bytes()
    assert f"Writing /{DNSMASQ_DROP_IN}" in result.stdout
    files = machine.files()
    result = machine.run("install.sh")
    assert "Writing" not in result.stdout and machine.files() == files


def test_install_keeps_an_edited_configuration(tmp_path):
    machine = Machine(tmp_path)
    machine.run("install.sh")
    config = machine.root / "etc/tabletop-companion/config.toml"
    config.write_text('port = 8080\n[display]\ndriver = "sh1106"\n')
    machine.run("install.sh")
    assert config.read_text() == 'port = 8080\n[display]\ndriver = "sh1106"\n'


def test_install_refuses_to_start_with_a_bad_configuration(tmp_path):
    machine = Machine(tmp_path)
    config = machine.root / "etc/tabletop-companion/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("prot = 80\n")
    result = machine.run("install.sh", expect_success=False)
    assert result.returncode != 0
    assert f"{config}: prot: unknown key; did you mean 'port'?" in result.stderr
    assert "fix /etc/tabletop-companion/config.toml" in result.stderr
    assert not [call for call in machine.calls() if call.startswith(("systemctl enable", "systemctl start"))]


def test_install_refuses_unknown_arguments(tmp_path):
    machine = Machine(tmp_path)
    result = machine.run("install.sh", "--bogus", expect_success=False)
    assert result.returncode == 1 and "unknown argument '--bogus'" in result.stderr
    assert machine.calls() == []


# ---------------------------------------------------------------------------------------------
# The uninstaller


def test_uninstall_keeps_the_data_configuration_and_user(tmp_path):
    machine = Machine(tmp_path)
    machine.run("install.sh")
    saved = machine.root / "var/lib/tabletop-companion/tables.sqlite3"
    saved.parent.mkdir(parents=True)
    saved.write_text("saved tables")
    machine.calls()
    machine.run("uninstall.sh")
    assert changing(machine.calls()) == [
        "systemctl stop companion.service",
        "systemctl disable companion.service",
        "systemctl daemon-reload",
    ]
    assert not (machine.root / "opt/tabletop-companion").exists()
    assert not (machine.root / "etc/systemd/system/companion.service").exists()
    assert not (machine.root / POLKIT_RULE).exists() and not (machine.root / DNSMASQ_DROP_IN).exists()
    assert saved.read_text() == "saved tables"
    assert (machine.root / "etc/tabletop-companion/config.toml").exists()
    assert (machine.state / "passwd").read_text() == "tabletop-companion\n"


def test_uninstall_keeps_the_gpio_rule_as_it_keeps_the_groups(tmp_path):
    machine = Machine(tmp_path, not_offered=("liblgpio-dev",))
    machine.run("install.sh")
    machine.run("uninstall.sh", "--purge")
    assert (machine.root / GPIO_RULE).exists()


def test_uninstall_purge_removes_everything_and_a_second_run_changes_nothing(tmp_path):
    machine = Machine(tmp_path)
    machine.run("install.sh")
    (machine.root / "var/lib/tabletop-companion").mkdir(parents=True)
    machine.calls()
    machine.run("uninstall.sh", "--purge")
    assert "userdel tabletop-companion" in machine.calls()
    for gone in ("opt/tabletop-companion", "etc/tabletop-companion", "var/lib/tabletop-companion", "etc/systemd/system/companion.service"):
        assert not (machine.root / gone).exists(), gone
    files = machine.files()
    machine.run("uninstall.sh", "--purge")
    assert changing(machine.calls()) == []
    assert machine.files() == files


def test_reinstall_after_uninstall_finds_the_kept_configuration(tmp_path):
    machine = Machine(tmp_path)
    machine.run("install.sh")
    config = machine.root / "etc/tabletop-companion/config.toml"
    config.write_text("port = 8080\n")
    machine.run("uninstall.sh")
    machine.calls()
    machine.run("install.sh")
    assert config.read_text() == "port = 8080\n"
    assert not [call for call in machine.calls() if call.startswith("useradd")]

