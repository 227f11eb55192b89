"""``munchkin-table doctor``'s hardware checks: each says what it found and what to do.

``run_checks`` only looks and asks; it never changes the system. The table's
CLI prints the list (config validation is the table's job). Device paths,
the pin factory and ``os.access`` can be given, so the checks run in tests
against temporary directories and the emulators.
"""

from __future__ import annotations

import errno
import importlib.util
import os
import queue
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from drivers.base import ManualClock
from drivers.seats import ReaderSpec


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""

    def __str__(self) -> str:
        line = f"[{'ok' if self.ok else 'FAIL'}] {self.name}: {self.detail}"
        return line if self.ok or not self.fix else f"{line}\n       fix: {self.fix}"


PI_BOOT_CONFIGS = ("/boot/firmware/config.txt", "/boot/config.txt")  # Bookworm and later, then older Pi OS
BOOT_CONFIGS = PI_BOOT_CONFIGS   # where the checks read it (tests point it elsewhere)
CMDLINES = ("/boot/firmware/cmdline.txt", "/boot/cmdline.txt")
# the Pi's own UARTs; a console on one of them talks over a PN532 wired to it
PI_UARTS = ("serial0", "serial1", "ttyAMA0", "ttyAMA10", "ttyS0")


def _current_user() -> str:
    import pwd

    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return "$USER"


def _is_pi_os(root: Path) -> bool:
    """Raspberry Pi OS: its own archive (archive.raspberrypi.com) or the 32-bit raspbian id."""
    try:
        if "\nID=raspbian" in "\n" + (root / "etc/os-release").read_text(errors="replace"):
            return True
    except OSError:
        pass
    sources = [root / "etc/apt/sources.list", *sorted((root / "etc/apt/sources.list.d").glob("*"))]
    for path in sources:
        try:
            if "archive.raspberrypi" in path.read_text(errors="replace"):
                return True
        except OSError:
            continue
    return False


def _sees_system_site() -> bool:
    """Outside a virtual environment, or in one made with --system-site-packages."""
    if sys.prefix == sys.base_prefix:
        return True
    try:
        text = (Path(sys.prefix) / "pyvenv.cfg").read_text(errors="replace")
    except OSError:
        return False
    return any(line.replace(" ", "").lower() == "include-system-site-packages=true" for line in text.splitlines())


@dataclass(frozen=True)
class System:
    """How this system fixes things: Raspberry Pi OS has raspi-config and apt packages of the GPIO
    libraries; another Debian for the Pi edits the boot config by hand and takes them from pip."""

    pi_os: bool = False
    raspi_config: bool = False
    boot_config: str = PI_BOOT_CONFIGS[0]
    python: str = field(default_factory=lambda: sys.executable)
    user: str = field(default_factory=_current_user)
    installer: str = str(Path(__file__).resolve().parents[1] / "systemd" / "install-pi.sh")
    system_site: bool = True    # the environment sees the distribution's Python packages (apt's reach it)
    pip_sudo: bool = True       # the environment belongs to root (the installed box's /opt/munchkin-table)

    @classmethod
    def detect(cls, root: str = "/") -> System:
        base = Path(root)
        boot = next((p for p in PI_BOOT_CONFIGS if (base / p.lstrip("/")).is_file()), PI_BOOT_CONFIGS[0])
        return cls(pi_os=_is_pi_os(base), raspi_config=shutil.which("raspi-config") is not None, boot_config=boot,
                   system_site=_sees_system_site(), pip_sudo=not os.access(sys.prefix, os.W_OK))

    def reboot(self, step: str) -> str:
        return f"{step}, then reboot (sudo reboot)"

    def enable_spi(self) -> str:
        if self.raspi_config:
            return self.reboot("sudo raspi-config nonint do_spi 0")
        return self.reboot(f"add the line dtparam=spi=on to {self.boot_config} (sudo nano {self.boot_config})")

    def enable_uart(self) -> str:
        if self.raspi_config:
            return self.reboot("sudo raspi-config nonint do_serial_hw 0 && sudo raspi-config nonint do_serial_cons 1")
        return self.reboot(f"add the line enable_uart=1 to {self.boot_config} and remove any console= on the UART "
                           "from cmdline.txt; for a USB adapter use /dev/serial/by-id/...")

    def serial_console_off(self, device: str, cmdline: str) -> str:
        if self.raspi_config:
            return self.reboot("sudo raspi-config nonint do_serial_cons 1 (keeps the UART itself on)")
        return self.reboot(f"remove console={device},115200 from {cmdline} (sudo nano {cmdline}); keep enable_uart=1")

    def join(self, groups: Sequence[str]) -> str:
        return (f"sudo usermod -aG {','.join(groups)} {self.user}, then log in again "
                "(the service gets its groups from SupplementaryGroups= in the drop-in the installer writes)")

    def create_groups(self, groups: Sequence[str]) -> str:
        return (f"sudo sh {self.installer} (it creates {', '.join(groups)} with the udev rules that give them "
                f"their devices), or by hand: sudo groupadd --system {' '.join(groups)}")

    def install_module(self, module: str) -> str:
        """The command that provides a Python module the hardware needs."""
        pip = f"{'sudo ' if self.pip_sudo else ''}{self.python} -m pip install"
        if module == "mfrc522":
            return f"{pip} --no-deps mfrc522==0.0.7"
        if module == "spidev":
            # no wheel on the registry: the distribution's build, or pip builds it
            if self.system_site:
                return f"sudo apt-get install python3-spidev (or: sudo apt-get install gcc python3-dev && {pip} spidev)"
            return f"sudo apt-get install gcc python3-dev && {pip} spidev"
        package = {"lgpio": "lgpio", "RPi.GPIO": "rpi-lgpio"}.get(module, module)
        if self.pi_os and self.system_site:
            return f"sudo apt-get install python3-{package}"
        return f"{pip} {package}"

    def install_font(self, package: str = "fonts-noto-cjk (or fonts-wqy-microhei)") -> str:
        """The command that installs the font ``package`` (the Chinese one unless named)."""
        return f"sudo apt-get install {package}, or set [display] font"


def check_libraries(modules: Sequence[str], system: System,
                    find: Callable[[str], Any] = importlib.util.find_spec) -> Check:
    """The Python modules the hardware needs can be imported (looked up, not imported)."""
    missing = []
    for module in modules:
        try:
            found = find(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(module)
    if not missing:
        return Check("hardware libraries", True, ", ".join(modules))
    return Check("hardware libraries", False, f"cannot import {', '.join(missing)}",
                 "; ".join(system.install_module(m) for m in missing))



def run_checks(
    reader_type: str,
    *,
    spi_bus: int = 0,
    spi_device: int = 0,
    reset_pin: int = 25,
    port: str = "/dev/serial0",
    baudrate: int = 115200,
    readers: Sequence[ReaderSpec] | None = None,
    button_pins: dict[str, int] | None = None,
    state_dir: str,
    pin_factory: Any = None,
    dev_dir: str = "/dev",
    access: Callable[[str, int], bool] = os.access,
    boot_configs: Sequence[str] | None = None,
    cmdlines: Sequence[str] | None = None,
    groups: Iterable[str] | None = None,
    group_exists: Callable[[str], bool] | None = None,
    system: System | None = None,
    find_module: Callable[[str], Any] = importlib.util.find_spec,
) -> list[Check]:
    """Every check for this reader type. ``boot_configs``/``cmdlines`` are tried in order (the
    first that exists is read); ``groups`` are the process's group names (default: its own);
    ``system`` says how fixes are done here (default: detected). ``button_pins`` None: the table
    uses simulated buttons, there is nothing to check. ``readers`` (the ``[[reader]]`` entries):
    every reader is checked under its seat and bus, and a last line says which are missing."""
    system = system or System.detect()
    checks: list[Check] = []
    specs = list(readers) if readers else [ReaderSpec(reader_type, None, spi_bus, spi_device, reset_pin, port,
                                                      baudrate, name="pad")]
    kinds = {spec.kind for spec in specs}
    # gpiozero needs lgpio unless a pin factory is given or chosen by the environment (mock, pigpio, ...)
    own_factory = pin_factory is not None or os.environ.get("GPIOZERO_PIN_FACTORY", "lgpio") != "lgpio"
    modules = (["spidev", "RPi.GPIO", "mfrc522"] if "mfrc522" in kinds else []) + (
        ["lgpio"] if button_pins is not None and not own_factory else [])
    if modules:
        checks.append(check_libraries(modules, system, find_module))
    boot = check_spi_boot_config(boot_configs, system) if "mfrc522" in kinds else None
    if boot is not None:
        checks.append(boot)
    if readers and any(spec.kind == "mfrc522" and spec.spi_bus == 1 for spec in specs):
        checks.append(check_spi1_overlay(max(s.spi_device for s in specs if s.kind == "mfrc522" and s.spi_bus == 1),
                                         boot_configs))
    for spec in specs:
        found = _reader_checks(spec, boot, cmdlines, dev_dir=dev_dir, access=access, system=system)
        checks += [_at_seat(c, spec) for c in found] if readers else found
    if readers:
        checks.append(_readers_summary(specs, checks))
    real = kinds & {"mfrc522", "pn532"}
    if real:
        needed = (["gpio", "spi"] if "mfrc522" in real else []) + (["dialout"] if "pn532" in real else [])
        needed += ["gpio"] if "pn532" in real and button_pins is not None and "gpio" not in needed else []
        checks.append(check_groups(needed, groups, group_exists, system))
    if button_pins is not None:
        checks.append(check_buttons(button_pins, pin_factory, system))
    checks.append(check_state_dir(state_dir))
    return checks


def _reader_checks(spec: ReaderSpec, boot: Check | None, cmdlines: Sequence[str] | None, *, dev_dir: str,
                   access: Callable[[str, int], bool], system: System) -> list[Check]:
    """The checks of one reader: its device node, its permission, whether the chip answers."""
    if spec.kind == "mfrc522":
        return check_mfrc522(spec.spi_bus, spec.spi_device, spec.reset_pin, dev_dir=dev_dir, access=access,
                             system=system, spi_configured=boot is not None and boot.ok)
    if spec.kind == "pn532":
        return [check_serial_console(spec.port, cmdlines, system),
                *check_pn532(spec.port, spec.baudrate, access=access, system=system)]
    if spec.kind == "sim":
        return [Check("reader", True, "simulated reader: nothing to check")]
    return [Check("reader", False, f"unknown reader type {spec.kind!r}", "set [reader] type to mfrc522, pn532 or sim")]


def _at_seat(check: Check, spec: ReaderSpec) -> Check:
    return Check(f"{spec.seat_label}: {check.name}", check.ok, f"{check.detail} [{spec.where}]", check.fix)


def _readers_summary(specs: Sequence[ReaderSpec], checks: Sequence[Check]) -> Check:
    """Every reader with its bus and seat, and which are missing (no device) or miswired (no answer)."""
    missing, miswired = [], []
    for spec in specs:
        mine = [c for c in checks if c.name.startswith(f"{spec.seat_label}: ") and c.detail.endswith(f"[{spec.where}]")]
        if any(not c.ok and c.name.endswith(("enabled", "permission")) for c in mine):
            missing.append(f"{spec.seat_label} ({spec.where})")
        elif any(not c.ok for c in mine):
            miswired.append(f"{spec.seat_label} ({spec.where})")
    listed = "; ".join(f"{spec.seat_label}: {spec.kind} on {spec.where}" for spec in specs)
    if not missing and not miswired:
        return Check("readers", True, f"{len(specs)} readers answer: {listed}")
    parts = ([f"missing: {', '.join(missing)}"] if missing else []) + (
        [f"miswired or not answering: {', '.join(miswired)}"] if miswired else [])
    return Check("readers", False, f"{len(specs) - len(missing) - len(miswired)} of {len(specs)} answer; "
                 + "; ".join(parts) + f" (configured: {listed})",
                 "see the fix under each failing reader above; docs/wiring.md has the chip selects and reset lines")


def check_spi1_overlay(highest_ce: int, paths: Sequence[str] | None = None) -> Check:
    """SPI1 needs its overlay with enough chip selects (spi1-1cs, -2cs, -3cs) for the highest CE used."""
    name = "SPI1 in the boot config"
    paths = BOOT_CONFIGS if paths is None else paths
    need = f"dtoverlay=spi1-{highest_ce + 1}cs"
    path, text, error = _first_readable(paths)
    if path is None or error is not None:
        return Check(name, False, f"cannot read a boot config at {' or '.join(paths)}", f"add {need} to the boot config")
    given = 0
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip().replace(" ", "")
        key, _, value = line.partition("=")
        overlay = value.split(",")[0]
        if key == "dtoverlay" and overlay in ("spi1-1cs", "spi1-2cs", "spi1-3cs"):
            given = int(overlay[5])
    if given > highest_ce:
        return Check(name, True, f"dtoverlay=spi1-{given}cs in {path}")
    have = f"{path} has dtoverlay=spi1-{given}cs" if given else f"{path} has no spi1 overlay"
    return Check(name, False, f"{have}; readers use SPI1 CE{highest_ce}",
                 f"add the line {need} to {path} (sudo nano {path}), then reboot (sudo reboot)")


def _first_readable(paths: Sequence[str]) -> tuple[str | None, str, str | None]:
    """(path, text, None) of the first file that exists, (path, "", why) if it cannot be read, or (None, "", None)."""
    for path in paths:
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                return path, fh.read(), None
        except FileNotFoundError:
            continue
        except OSError as exc:
            return path, "", str(exc.strerror or exc)
    return None, "", None


def check_spi_boot_config(paths: Sequence[str] | None = None, system: System | None = None) -> Check:
    """``dtparam=spi=on`` (or an spi0 overlay) in the boot config, the last setting winning."""
    name = "SPI in the boot config"
    paths = BOOT_CONFIGS if paths is None else paths
    system = system or System.detect()
    path, text, error = _first_readable(paths)
    if path is None:
        return Check(name, False, f"no boot config at {' or '.join(paths)} (is this a Raspberry Pi?)",
                     System(**{**system.__dict__, "boot_config": paths[0]}).enable_spi())
    if error is not None:
        return Check(name, False, f"cannot read {path}: {error}", f"check the permissions of {path}")
    state: bool | None = None
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip().replace(" ", "")
        key, _, value = line.partition("=")
        if key == "dtparam":
            for param in value.split(","):
                if param in ("spi", "spi=on", "spi=true", "spi=yes", "spi=1"):
                    state = True
                elif param.startswith("spi="):
                    state = False
        elif key == "dtoverlay" and value.split(",")[0] in ("spi0-1cs", "spi0-2cs"):
            state = True
    if state:
        return Check(name, True, f"SPI is enabled in {path}")
    detail = f"{path} turns SPI off (dtparam=spi=off)" if state is False else f"{path} has no dtparam=spi=on"
    return Check(name, False, detail, System(**{**system.__dict__, "boot_config": path}).enable_spi())


def check_serial_console(port: str, paths: Sequence[str] | None = None, system: System | None = None) -> Check:
    """No ``console=`` on the UART the PN532 is wired to (the kernel would talk over it)."""
    name = "serial console off"
    paths = CMDLINES if paths is None else paths
    device = os.path.basename(port)
    system = system or System.detect()
    if device not in PI_UARTS:
        return Check(name, True, f"{port} is not the Pi's own UART; the console does not matter")
    path, text, error = _first_readable(paths)
    if path is None:
        return Check(name, True, f"no kernel command line at {' or '.join(paths)}; nothing to check")
    if error is not None:
        return Check(name, False, f"cannot read {path}: {error}", f"check the permissions of {path}")
    consoles = [arg.split("=", 1)[1].split(",")[0] for arg in text.split() if arg.startswith("console=")]
    uart_consoles = [c for c in consoles if c in PI_UARTS]
    if uart_consoles:
        return Check(name, False, f"{path} puts a login console on {uart_consoles[0]}, the UART of the reader",
                     system.serial_console_off(uart_consoles[0], path))
    return Check(name, True, f"no console on the UART in {path}")


def _own_groups() -> set[str]:
    import grp

    names = set()
    for gid in {*os.getgroups(), os.getgid()}:
        try:
            names.add(grp.getgrgid(gid).gr_name)
        except KeyError:
            continue
    return names


def _group_exists(name: str) -> bool:
    import grp

    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


def check_groups(needed: Sequence[str], groups: Iterable[str] | None = None,
                 group_exists: Callable[[str], bool] | None = None, system: System | None = None) -> Check:
    """The process is in every device group it needs (gpio, spi, dialout), or runs as root."""
    name = "device groups"
    have = set(_own_groups() if groups is None else groups)
    if groups is None and os.geteuid() == 0:
        return Check(name, True, "running as root (the service should not: use a user in " + ", ".join(needed) + ")")
    exists = group_exists or _group_exists
    system = system or System.detect()
    missing = [g for g in needed if g not in have]
    if not missing:
        return Check(name, True, "in " + ", ".join(needed))
    absent = [g for g in missing if not exists(g)]
    if absent:
        return Check(name, False, f"not in {', '.join(missing)}; the group(s) {', '.join(absent)} do not exist here",
                     f"{system.create_groups(absent)}; then {system.join(missing)}")
    return Check(name, False, f"not in {', '.join(missing)} (in: {', '.join(sorted(have)) or 'none'})",
                 system.join(missing))


def _node(name: str, path: str, access: Callable[[str, int], bool], enable: str, groups: Sequence[str],
          system: System) -> list[Check]:
    if not os.path.exists(path):
        return [Check(f"{name} enabled", False, f"{path} does not exist", enable)]
    checks = [Check(f"{name} enabled", True, f"{path} is present")]
    if access(path, os.R_OK | os.W_OK):
        checks.append(Check(f"{name} permission", True, f"{path} is readable and writable"))
    else:
        checks.append(
            Check(f"{name} permission", False, f"no read/write access to {path}", system.join(groups))
        )
    return checks


def check_mfrc522(spi_bus: int, spi_device: int, reset_pin: int, *, dev_dir: str = "/dev",
                  access: Callable[[str, int], bool] = os.access, system: System | None = None,
                  spi_configured: bool = False) -> list[Check]:
    """``spi_configured``: the boot config already turns SPI on (then only a reboot is missing)."""
    path = os.path.join(dev_dir, f"spidev{spi_bus}.{spi_device}")
    system = system or System.detect()
    enable = ("SPI is on in the boot config but not loaded yet: reboot (sudo reboot)" if spi_configured
              else "enable SPI: " + system.enable_spi())
    if os.path.isdir(dev_dir):
        others = sorted(n for n in os.listdir(dev_dir) if n.startswith("spidev"))
        if others and not os.path.exists(path):
            enable = f"SPI is on but only {', '.join(others)} exist: check [reader] spi_bus and spi_device"
    checks = _node("SPI", path, access, enable, ["spi", "gpio"], system)
    if not all(c.ok for c in checks):
        return checks
    from drivers.mfrc522_spi import KNOWN_VERSIONS, Mfrc522Error, Mfrc522Reader

    reader = Mfrc522Reader(queue.Queue(), clock=ManualClock(), spi_bus=spi_bus, spi_device=spi_device, reset_pin=reset_pin)
    try:
        version = reader.open()
    except (Mfrc522Error, OSError) as exc:
        checks.append(Check("reader answers", False, str(exc),
                            "check the wiring and the reset pin ([reader] reset_pin, BCM numbering); the chip needs 3.3V"))
    else:
        checks.append(Check("reader answers", True, f"VersionReg 0x{version:02X} ({KNOWN_VERSIONS.get(version, 'unknown variant')})"))
    finally:
        reader.close()
    return checks


def check_pn532(port: str, baudrate: int, *, access: Callable[[str, int], bool] = os.access,
                system: System | None = None) -> list[Check]:
    system = system or System.detect()
    enable = "enable the UART and turn the serial console off: " + system.enable_uart()
    checks = _node("UART", port, access, enable, ["dialout"], system)
    if not all(c.ok for c in checks):
        return checks
    from drivers.pn532 import Pn532Reader

    sink: queue.Queue[Any] = queue.Queue()
    reader = Pn532Reader(sink, clock=ManualClock(), port=port, baudrate=baudrate)
    try:
        if reader.connect() and reader.firmware is not None and len(reader.firmware) >= 3:
            ic, ver, rev = reader.firmware[:3]
            checks.append(Check("reader answers", True, f"PN532 IC 0x{ic:02X}, firmware {ver}.{rev} (GetFirmwareVersion)"))
        else:
            message = sink.get_nowait().message if not sink.empty() else "no answer"
            checks.append(Check("reader answers", False, message,
                                f"check TX/RX (crossed), power and the module's HSU mode switches; the port speed is {baudrate}"))
    finally:
        reader.close()
    return checks


def check_buttons(pins: dict[str, int], pin_factory: Any = None, system: System | None = None) -> Check:
    from gpiozero import Button

    from drivers.gpio import ButtonConfigError, check_pins

    try:
        check_pins(pins)
    except ButtonConfigError as exc:
        return Check("buttons readable", False, str(exc), "fix the [buttons] section of the config")
    opened: list[Any] = []
    stuck: list[str] = []
    try:
        for name, pin in pins.items():
            button = Button(pin, pull_up=True, hold_time=0.05, pin_factory=pin_factory)
            opened.append(button)
            if button.is_pressed:
                stuck.append(f"{name} (BCM {pin})")
    except Exception as exc:  # gpiozero raises many kinds: no factory, pin in use, no permission
        system = system or System.detect()
        fix = (system.install_module("lgpio") if importlib.util.find_spec("lgpio") is None and pin_factory is None
               else system.join(["gpio"]) + "; check no other program uses the pins")
        return Check("buttons readable", False, f"{type(exc).__name__}: {exc}", fix)
    finally:
        for button in opened:
            button.close()
    if stuck:
        return Check("buttons readable", False, f"reads pressed at rest: {', '.join(stuck)}",
                     "release it; if it stays pressed, the button is stuck or wired to 3.3V instead of ground")
    return Check("buttons readable", True, ", ".join(f"{n}=BCM {p}" for n, p in pins.items()) + " all released")


def check_state_dir(state_dir: str) -> Check:
    fix = f"sudo install -d -o $USER {state_dir}, or set [storage] state_dir to a writable directory"
    try:
        os.makedirs(state_dir, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=state_dir, prefix=".doctor-") as probe:
            probe.write(b"\0" * 65536)        # a full disk shows only when something is written and synced
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            return Check("state directory writable", False, f"{state_dir}: the disk is full ({exc.strerror or exc})",
                         f"free some space on the disk holding {state_dir} (the game is kept)")
        if exc.errno == errno.EROFS:
            return Check("state directory writable", False, f"{state_dir}: the disk is read-only",
                         f"remount it read-write (sudo mount -o remount,rw {state_dir}) or check the SD card")
        return Check("state directory writable", False, f"{state_dir}: {exc.strerror or exc}", fix)
    return Check("state directory writable", True, state_dir)
