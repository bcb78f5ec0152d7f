"""The virtual Raspberry Pi: bake a Debian image (trixie by default), boot it under QEMU, talk to it.

How it fits together (tests/system/README.md has the user's side):

* ``bake()`` makes the cached image: ``mmdebstrap`` bootstraps Debian ``SUITE`` for ``ARCH``
  with every package in ``image/packages.d/*.list``, runs every ``image/customize.d/*.sh`` on
  the new root file system, and ``mke2fs -d`` writes it into an ext4 image (no loop mount). The
  kernel and initrd are copied out beside it. The image's name is a hash of everything under
  ``image/``, the suite and the architecture, so changing a package list or a hook bakes a new
  one and an unchanged tree reuses it.
* ``download_wheels()`` fetches, on the host, the wheels the project needs (the guest cannot
  verify TLS through this machine's network); the guest's pip reads them from the share.
* ``VirtualPi`` boots the image under QEMU's software emulation (TCG: this machine's /dev/kvm
  is a nested kind far slower than TCG) on the run's own raw copy of the image, with the
  project and the wheels on a 9p share, the phone's HTTP port forwarded to the guest's port 80,
  and a virtio serial port that carries commands to the guest's agent (``image/rig-agent``)
  and their results back. Every wait is for an event (a line from the agent, an HTTP answer,
  QEMU's exit) with a deadline and a message that says what did not happen.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import itertools
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import tomllib
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parents[1]
IMAGE_SOURCES = HERE / "image"
# The Debian release and architecture of the virtual Pi: trixie is today's Raspberry Pi OS
# (Debian 13, Python 3.13), bookworm the one before it (Python 3.11).
SUITE = os.environ.get("TABLETOP_VM_SUITE", "trixie")
ARCH = os.environ.get("TABLETOP_VM_ARCH", "amd64")
SUITES = {"bookworm": {"python": "3.11", "glibc": 36}, "trixie": {"python": "3.13", "glibc": 41}}


@dataclass(frozen=True)
class Arch:
    """What the rig needs to know of one architecture (keyed by Debian's name)."""

    wheel: str
    """The processor's name in a wheel's platform tag."""
    qemu: str
    """The QEMU that emulates the whole machine, and the Debian package that brings it."""
    qemu_package: str
    machine: tuple[str, ...]
    """QEMU's machine and processor."""
    console: str
    """The serial console's name in the guest."""
    append: str = ""
    """More of the kernel's command line."""
    user_cpu: str = ""
    """QEMU_CPU for qemu-user while mmdebstrap runs the image's programs on a foreign host."""


ARCHES = {
    "amd64": Arch(wheel="x86_64", qemu="qemu-system-x86_64", qemu_package="qemu-system-x86",
                  machine=("-machine", "q35", "-cpu", "max"), console="ttyS0"),
    # The Pi's own processor (a Pi 3, Zero 2 W: Cortex-A53; a Pi 4: A72): QEMU's "virt" board
    # with a Cortex-A53. Not "-cpu max": its pointer authentication, emulated in software,
    # makes the guest several times slower. The board's own GPIO controller (a PL061, for its
    # power button; built into Debian's arm64 kernel) would take gpiochip0, the chip a Pi's
    # header is and the product opens: the kernel is told not to start its driver, so the
    # simulated header is gpiochip0 as on a Pi.
    "arm64": Arch(wheel="aarch64", qemu="qemu-system-aarch64", qemu_package="qemu-system-arm",
                  machine=("-machine", "virt", "-cpu", "cortex-a53"), console="ttyAMA0",
                  append="initcall_blacklist=pl061_gpio_driver_init",
                  # Under qemu-user's default processor Python runs some 165 times slower than
                  # natively, as a Cortex-A53 some 7 times (its default emulates costly extensions).
                  user_cpu="cortex-a53"),
}
MIRROR = os.environ.get("TABLETOP_VM_MIRROR", "http://deb.debian.org/debian")
CACHE = Path(os.environ.get("TABLETOP_VM_CACHE", "/var/cache/tabletop-companion-vm"))
IMAGE_SIZE = "6G"  # sparse: the file takes only what the root file system uses
GUEST_MEMORY = os.environ.get("TABLETOP_VM_MEMORY", "2048")
GUEST_CPUS = os.environ.get("TABLETOP_VM_CPUS", "2")

LGPIO_BUILD = "PYPI=1"
"""What a check puts before ``pip install lgpio`` in the guest, as systemd/install.sh does on a
Debian without liblgpio-dev: where no lgpio wheel fits (Python 3.13), its setup.py then links
the C sources its sdist carries (swig and gcc are baked in); a wheel, where one fits, ignores it."""

# Host tools the rig needs, with the Debian package that brings each one (the QEMU of ARCH
# is added by check_host_tools).
HOST_TOOLS = {
    "mmdebstrap": "mmdebstrap",
    "mke2fs": "e2fsprogs",
    "qemu-img": "qemu-utils",
    "zbarimg": "zbar-tools",  # check_wifi.py reads the OLED's QR codes as a phone's camera does
}


class RigError(Exception):
    """The rig itself could not do its part (a missing tool, a failed bake, a guest that never answered)."""


def _print(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


show = _print
"""Where log() writes; conftest.py points it past pytest's capture, so a bake or a boot that
takes minutes shows how far it is while it runs."""


def log(message: str) -> None:
    show(f"[rig {time.strftime('%H:%M:%S')}] {message}")


def check_host_tools() -> None:
    if SUITE not in SUITES:
        raise RigError(f"TABLETOP_VM_SUITE={SUITE!r}: the rig knows the suites {', '.join(SUITES)}")
    if ARCH not in ARCHES:
        raise RigError(f"TABLETOP_VM_ARCH={ARCH!r}: the rig knows the architectures {', '.join(ARCHES)}")
    tools = {**HOST_TOOLS, ARCHES[ARCH].qemu: ARCHES[ARCH].qemu_package}
    missing = [f"{tool} (Debian package {package})" for tool, package in tools.items() if not shutil.which(tool)]
    if missing:
        raise RigError("the system test needs these tools, which are missing: " + ", ".join(missing)
                       + ". Install them (as root: apt-get install " + " ".join(sorted(set(tools.values()))) + ").")


def _check_foreign_arch() -> None:
    """Baking for another processor than the host's: mmdebstrap runs the image's programs
    (maintainer scripts, the hooks' chroot commands) through qemu-user, which the kernel calls
    only when binfmt_misc knows the architecture."""
    host = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip()
    if ARCH == host:
        return
    fix = ("as root: apt-get install qemu-user-static binfmt-support arch-test; "
           "mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc; "
           f"update-binfmts --enable qemu-{ARCHES[ARCH].wheel}")
    if not shutil.which("arch-test"):
        raise RigError(f"baking an {ARCH} image on an {host} host needs qemu-user through binfmt_misc ({fix})")
    result = subprocess.run(["arch-test", ARCH], capture_output=True, text=True)
    if result.returncode != 0:
        raise RigError(f"this {host} host cannot run {ARCH} programs (arch-test: {result.stdout.strip()}"
                       f"{result.stderr.strip()}), which baking an {ARCH} image needs ({fix})")


def _tree_hash(*roots: Path, extra: str = "") -> str:
    digest = hashlib.sha256(extra.encode())
    for root in roots:
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in files:
            digest.update(str(path.relative_to(root.parent)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@contextlib.contextmanager
def _locked(name: str):
    """One baker at a time per cache entry: two runs on one machine share the result."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@dataclass(frozen=True)
class Image:
    disk: Path
    kernel: Path
    initrd: Path


def packages() -> list[str]:
    names = []
    for listing in sorted((IMAGE_SOURCES / "packages.d").glob("*.list")):
        for line in listing.read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                names.append(line.replace("@ARCH@", ARCH))
    return names


def bake() -> Image:
    """The cached image for the current ``image/`` tree, baked first if there is none."""
    key = _tree_hash(IMAGE_SOURCES, extra=f"{SUITE} {ARCH}")
    done = CACHE / f"image-{key}"
    image = Image(done / "disk.raw", done / "vmlinuz", done / "initrd.img")
    with _locked(f"image-{key}"):
        if image.disk.exists():
            log(f"image {done} is cached")
            return image
        _check_foreign_arch()
        started = time.monotonic()
        work = CACHE / f"image-{key}.partial"
        shutil.rmtree(work, ignore_errors=True)
        rootfs = work / "rootfs"
        work.mkdir(parents=True)
        command = ["mmdebstrap", "--variant=apt", "--mode=root", f"--architectures={ARCH}",
                   "--include=" + ",".join(packages())]
        for stage in ("essential", "customize"):
            for hook in sorted((IMAGE_SOURCES / f"{stage}.d").glob("*.sh")):
                command.append(f'--{stage}-hook=sh {hook} "$1"')
        command += [SUITE, str(rootfs), MIRROR]
        log(f"baking the image {key} (mmdebstrap {SUITE} {ARCH} from {MIRROR}, then mke2fs)")
        environment = dict(os.environ, QEMU_CPU=ARCHES[ARCH].user_cpu) if ARCHES[ARCH].user_cpu else None
        _run_logged(command, work / "mmdebstrap.log", "mmdebstrap could not bootstrap Debian", environment)
        bootstrapped = time.monotonic()
        kernels = sorted((rootfs / "boot").glob("vmlinuz-*"))
        if len(kernels) != 1:
            raise RigError(f"expected one kernel in the image's /boot, found {[k.name for k in kernels]}")
        version = kernels[0].name.removeprefix("vmlinuz-")
        shutil.copy(kernels[0], work / "vmlinuz")
        shutil.copy(rootfs / "boot" / f"initrd.img-{version}", work / "initrd.img")
        _run_logged(["mke2fs", "-q", "-t", "ext4", "-L", "rootfs", "-d", str(rootfs), str(work / "disk.raw"), IMAGE_SIZE],
                    work / "mke2fs.log", "mke2fs could not write the image")
        shutil.rmtree(rootfs)
        shutil.rmtree(done, ignore_errors=True)
        work.rename(done)
        log(f"baked {done} in {time.monotonic() - started:.0f} s "
            f"(mmdebstrap {bootstrapped - started:.0f} s, mke2fs {time.monotonic() - bootstrapped:.0f} s)")
        return image


def download_wheels() -> Path:
    """The wheels (and sdists) the guest's pip installs the project from, cached by
    pyproject.toml, the suite and the architecture."""
    key = _tree_hash(PROJECT / "pyproject.toml", extra=f"{SUITE} {ARCH}")
    done = CACHE / f"wheels-{key}"
    with _locked(f"wheels-{key}"):
        if done.exists():
            return done
        started = time.monotonic()
        work = CACHE / f"wheels-{key}.partial"
        shutil.rmtree(work, ignore_errors=True)
        logfile = CACHE / f"wheels-{key}.log"
        logfile.write_text("")
        # The guest's Python and processor, not the host's: pip picks the wheels for them. The
        # "pi" extra comes too, so a check that makes the guest look like a Pi finds lgpio and
        # RPi.GPIO; setuptools (the project's build backend: pip builds the source folder in
        # isolation) and wheel build what comes as source only.
        python = SUITES[SUITE]["python"]
        machine = ARCHES[ARCH].wheel
        platforms = [f"manylinux_2_{minor}_{machine}" for minor in range(SUITES[SUITE]["glibc"], 4, -1)]
        platforms += [f"manylinux2014_{machine}", f"manylinux2010_{machine}", f"manylinux1_{machine}", "any"]
        for_the_guest = ["--python-version", python, "--implementation", "cp",
                         "--abi", "cp" + python.replace(".", ""), "--abi", "abi3", "--abi", "none"]
        for platform in platforms:
            for_the_guest += ["--platform", platform]
        project = tomllib.loads((PROJECT / "pyproject.toml").read_text())["project"]
        pi_extra = project["optional-dependencies"]["pi"]
        pip = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--dest", str(work)]
        _run_logged_append(pip + ["--only-binary=:all:", *for_the_guest, *project["dependencies"], "setuptools>=68", "wheel"],
                           logfile, "pip could not download the wheels the guest needs")
        # lgpio has wheels for some Pythons only (not 3.13) and RPi.GPIO none: their sources
        # always, and a wheel where one fits (the guest's pip prefers it).
        _run_logged_append(pip + ["--no-deps", "--no-binary=:all:", *pi_extra], logfile,
                           "pip could not download the sources of the pi extra")
        for requirement in pi_extra:
            _run_logged_append(pip + ["--no-deps", "--only-binary=:all:", *for_the_guest, requirement], logfile,
                               None)
        work.rename(done)
        log(f"downloaded the guest's wheels in {time.monotonic() - started:.0f} s: "
            + ", ".join(sorted(path.name for path in done.iterdir())))
        return done


def _run_logged_append(command: list[str], logfile: Path, failure: str | None) -> None:
    """Run ``command`` with its output added to ``logfile``; a failure raises RigError
    with ``failure`` unless ``failure`` is None (an attempt that may find nothing)."""
    with open(logfile, "a") as out:
        out.write("$ " + " ".join(command) + "\n")
        out.flush()
        result = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT)
    if result.returncode != 0 and failure is not None:
        tail = "\n".join(logfile.read_text(errors="replace").splitlines()[-30:])
        raise RigError(f"{failure} (exit {result.returncode}; full log {logfile}):\n{tail}")


def _run_logged(command: list[str], logfile: Path, failure: str, environment: dict | None = None) -> None:
    with open(logfile, "w") as out:
        result = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, env=environment)
    if result.returncode != 0:
        tail = "\n".join(logfile.read_text(errors="replace").splitlines()[-30:])
        raise RigError(f"{failure} (exit {result.returncode}; full log {logfile}):\n{tail}")


@dataclass
class Result:
    command: str
    rc: int | None
    out: str
    err: str

    def __str__(self) -> str:
        return f"$ {self.command}\n(exit {self.rc})\n--- stdout\n{self.out}--- stderr\n{self.err}"


class GuestCommandFailed(AssertionError):
    def __init__(self, result: Result):
        super().__init__(f"a command in the virtual Pi failed:\n{result}")
        self.result = result


class VirtualPi:
    """A booted virtual Pi. ``run`` runs a shell command in it as root; ``http`` calls its API."""

    def __init__(self, image: Image, wheels: Path, workdir: Path):
        self.image = image
        self.workdir = workdir
        self.share = workdir / "share"
        self.console = workdir / "console.log"
        self.disk = workdir / "disk.raw"
        self.http_port = 0  # chosen at each start
        self.boot_id: str | None = None
        self._ids = itertools.count(1)
        self._replies: dict[int, dict] = {}
        self._changed = threading.Condition()
        self._qemu: subprocess.Popen | None = None
        self._connection: socket.socket | None = None
        workdir.mkdir(parents=True, exist_ok=True)
        self._fill_share(wheels)

    # -- the share -------------------------------------------------------------------------

    def _fill_share(self, wheels: Path) -> None:
        """share/src: this checkout as git sees it (tracked and new files, nothing ignored);
        share/wheels: the wheels; share/out: what checks in the guest write for the host."""
        src = self.share / "src"
        listing = subprocess.run(["git", "-C", str(PROJECT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                 check=True, capture_output=True).stdout.decode()
        for name in filter(None, listing.split("\0")):
            source = PROJECT / name
            if source.is_file():  # a deleted file still listed by the index is skipped
                target = src / name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
        shutil.copytree(wheels, self.share / "wheels", copy_function=_link_or_copy)
        (self.share / "out").mkdir()

    # -- booting ----------------------------------------------------------------------------

    def start(self, timeout: float = 900, extra: tuple[str, ...] = (), wait: bool = True) -> None:
        """Power on (again, after a ``stop`` or a ``cut_power``: the disk is the run's own and
        keeps what the guest wrote); ``extra`` are more QEMU arguments (a second disk). With
        ``wait`` False it returns as soon as QEMU runs, before the guest has booted."""
        started = time.monotonic()
        if not self.disk.exists():
            # The run's own raw copy of the image (sparse: only what is written takes room).
            # Raw, not a qcow2 overlay: a power cut kills QEMU mid-write, and a raw file has no
            # metadata of QEMU's own that a kill could tear, so what the guest finds after a cut
            # is what a disk would hold (see power.py).
            subprocess.run(["cp", "--sparse=always", str(self.image.disk), str(self.disk)], check=True)
        # A port of its own at each power on: the last QEMU's forwarded port may still be held
        # by a connection it left in TIME_WAIT when the power was cut.
        self.http_port = _free_port()
        agent_socket = self.workdir / "agent.sock"
        agent_socket.unlink(missing_ok=True)
        self.boot_id = None
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(str(agent_socket))
        listener.listen(1)
        arch = ARCHES[ARCH]
        command = [
            arch.qemu, *arch.machine, "-accel", "tcg,thread=multi",
            "-smp", GUEST_CPUS, "-m", GUEST_MEMORY, "-nodefaults", "-display", "none", "-no-user-config",
            "-serial", f"file:{self.console}",
            "-kernel", str(self.image.kernel), "-initrd", str(self.image.initrd),
            "-append", f"root=/dev/vda rw console={arch.console} net.ifnames=0 systemd.show_status=error {arch.append}".strip(),
            # cache=writeback: the guest sees a disk with a volatile write cache and flushes it
            # as it would an SD card's, and QEMU honours each flush (cache=unsafe would not).
            "-drive", f"file={self.disk},if=virtio,format=raw,cache=writeback",
            "-netdev", f"user,id=net0,hostfwd=tcp:127.0.0.1:{self.http_port}-:80",
            "-device", "virtio-net-pci,netdev=net0",
            "-virtfs", f"local,path={self.share},mount_tag=host,security_model=none,id=host",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=rig,path={agent_socket}",
            "-device", "virtserialport,chardev=rig,name=rig",
            "-device", "virtio-rng-pci",
            *extra,
        ]
        log(f"booting the virtual Pi ({arch.qemu} TCG, {GUEST_CPUS} CPUs, {GUEST_MEMORY} MiB; console: {self.console})")
        self._qemu = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=open(self.workdir / "qemu.log", "w"),
                                      stderr=subprocess.STDOUT, preexec_fn=_die_with_parent)
        try:
            listener.settimeout(30)
            try:
                self._connection, _ = listener.accept()
            except TimeoutError:
                raise RigError(f"QEMU did not connect to the agent's socket within 30 s; {self._qemu_state()}") from None
            finally:
                listener.close()
            threading.Thread(target=self._read_agent, daemon=True).start()
            if not wait:
                return
            self.wait_for_boot(None, timeout)
        except BaseException:
            self.kill()  # a boot that failed leaves no QEMU behind
            raise
        log(f"the virtual Pi answered {time.monotonic() - started:.0f} s after QEMU started")

    def wait_for_boot(self, previous_boot: str | None, timeout: float) -> None:
        """Wait until the agent says hello from a boot other than ``previous_boot``."""
        self._wait(lambda: self.boot_id is not None and self.boot_id != previous_boot, timeout,
                   "the virtual Pi's agent to say hello after " + ("booting" if previous_boot is None else "rebooting"))
        # Under slow emulation the boot's mount of the share can run before the 9p transport's
        # module has loaded, and fail ("Failed to mount /mnt/host"); or it is still under way
        # when the agent says hello (the mount is nofail), and a mount of our own races it
        # ("already mounted"). Starting systemd's own mount unit waits for the one under way
        # and tries a failed one again.
        self.run("systemctl start mnt-host.mount && mountpoint -q /mnt/host", timeout=300)

    def reboot(self, timeout: float = 900) -> None:
        previous = self.boot_id
        self._send({"id": next(self._ids), "sh": "systemctl reboot", "timeout": 60})
        self.wait_for_boot(previous, timeout)

    def stop(self, timeout: float = 120) -> None:
        if self._qemu is None or self._qemu.poll() is not None:
            return
        with contextlib.suppress(OSError):
            self._send({"id": next(self._ids), "sh": "systemctl poweroff", "timeout": 60})
        try:
            self._qemu.wait(timeout)
        except subprocess.TimeoutExpired:
            log(f"the virtual Pi did not power off within {timeout} s: stopping QEMU")
            self.kill()

    def cut_power(self) -> None:
        """Pull the plug: QEMU is killed at once (SIGKILL), so what the guest had not yet
        handed to its disk (its page cache, requests in flight) is lost as at a power cut."""
        if self._qemu is not None and self._qemu.poll() is None:
            self._qemu.kill()
            self._qemu.wait()
        if self._connection is not None:
            self._connection.close()

    def kill(self) -> None:
        """End QEMU at once (SIGTERM, then SIGKILL after 30 s)."""
        if self._qemu is None or self._qemu.poll() is not None:
            return
        self._qemu.terminate()
        try:
            self._qemu.wait(30)
        except subprocess.TimeoutExpired:
            self._qemu.kill()
            self._qemu.wait()

    # -- the command channel ----------------------------------------------------------------

    def _read_agent(self) -> None:
        buffered = b""
        while True:
            try:
                chunk = self._connection.recv(65536)
            except OSError:  # closed by cut_power
                chunk = b""
            if not chunk:
                break
            buffered += chunk
            while b"\n" in buffered:
                line, buffered = buffered.split(b"\n", 1)
                try:
                    message = json.loads(line)
                except ValueError:
                    continue  # a half line cut by a reboot
                with self._changed:
                    if "hello" in message:
                        self.boot_id = message["hello"]
                    else:
                        self._replies[message["id"]] = message
                    self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def _send(self, request: dict) -> None:
        self._connection.sendall((json.dumps(request) + "\n").encode())

    def _wait(self, ready, timeout: float, what: str):
        deadline = time.monotonic() + timeout
        with self._changed:
            while not ready():
                if self._qemu.poll() is not None:
                    raise RigError(f"QEMU exited while waiting for {what}; {self._qemu_state()}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RigError(f"timed out after {timeout:.0f} s waiting for {what}; {self._qemu_state()}")
                # QEMU's exit wakes nobody: look again at least every few seconds.
                self._changed.wait(min(left, 5))

    def run(self, command: str, timeout: float = 120, check: bool = True) -> Result:
        """Run ``command`` with /bin/sh as root in the guest; raise GuestCommandFailed on a
        non-zero exit when ``check``; a command still running after ``timeout`` s is killed."""
        request_id = next(self._ids)
        self._send({"id": request_id, "sh": command, "timeout": timeout})
        self._wait(lambda: request_id in self._replies, timeout + 60, f"the result of `{command}`")
        with self._changed:
            reply = self._replies.pop(request_id)
        result = Result(command, reply["rc"], reply["out"], reply["err"])
        if reply.get("timed_out"):
            raise GuestCommandFailed(Result(command, None, reply["out"], reply["err"] + f"\n(killed after {timeout} s)\n"))
        if check and result.rc != 0:
            raise GuestCommandFailed(result)
        return result

    def wait_until(self, condition: str, timeout: float, what: str) -> None:
        """Wait until the shell ``condition`` holds in the guest (looked at every 0.2 s there,
        where it costs nothing and answers at once), else fail saying ``what`` did not happen."""
        result = self.run(f"timeout {timeout:.0f} sh -c 'until {_quote_single(condition)}; do sleep 0.2; done'",
                          timeout=timeout + 30, check=False)
        if result.rc != 0:
            raise RigError(f"timed out after {timeout:.0f} s waiting for {what} (`{condition}` never held); "
                           f"{self._qemu_state()}")

    # -- the phone's side -------------------------------------------------------------------

    def http(self, method: str, path: str, body: dict | None = None, token: str | None = None,
             timeout: float = 30) -> tuple[int, dict | str]:
        """One request to the companion's port 80 as a phone would send it: (status, JSON or text)."""
        headers = {"X-Requested-With": "companion"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(f"http://127.0.0.1:{self.http_port}{path}", data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                status, raw, kind = answer.status, answer.read(), answer.headers.get_content_type()
        except urllib.error.HTTPError as error:
            status, raw, kind = error.code, error.read(), error.headers.get_content_type()
        return status, (json.loads(raw) if kind == "application/json" else raw.decode(errors="replace"))

    # -- diagnostics ------------------------------------------------------------------------

    def _qemu_state(self) -> str:
        state = "QEMU is running" if self._qemu.poll() is None else f"QEMU exited with {self._qemu.returncode}"
        tail = ""
        if self.console.exists():
            tail = "\n".join(self.console.read_text(errors="replace").splitlines()[-25:])
        return f"{state}; the console's last lines ({self.console}):\n{tail}"


def _die_with_parent() -> None:
    """In QEMU's process before it starts: the kernel sends it SIGTERM when the rig's process
    ends, however it ends (a crash, Ctrl-C, a CI job killed), so no virtual Pi is left running."""
    import ctypes
    import signal

    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _quote_single(text: str) -> str:
    """``text`` made safe inside a single-quoted shell word."""
    return text.replace("'", "'\\''")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


if __name__ == "__main__":
    # `python3 tests/system/vm.py bake`: bake the image of TABLETOP_VM_SUITE and TABLETOP_VM_ARCH
    # (or find it cached) without booting it. .ci/run bakes ahead while the unit suite runs.
    if sys.argv[1:] != ["bake"]:
        sys.exit("usage: python3 tests/system/vm.py bake  (the image of TABLETOP_VM_SUITE and TABLETOP_VM_ARCH; as root)")
    check_host_tools()
    bake()
