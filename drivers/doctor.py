"""``munchkin-table doctor``'s hardware checks: each says what it found and what to do.

``run_checks`` only looks and asks; it never changes the system. The table's
CLI prints the list (config validation is the table's job). Device paths,
the pin factory and ``os.access`` can be given, so the checks run in tests
against temporary directories and the emulators.
"""

from __future__ import annotations

import errno
import os
import queue
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from drivers.base import ManualClock


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""

    def __str__(self) -> str:
        line = f"[{'ok' if self.ok else 'FAIL'}] {self.name}: {self.detail}"
        return line if self.ok or not self.fix else f"{line}\n       fix: {self.fix}"


BOOT_CONFIGS = ("/boot/firmware/config.txt", "/boot/config.txt")  # Bookworm and later, then older Pi OS
CMDLINES = ("/boot/firmware/cmdline.txt", "/boot/cmdline.txt")
# the Pi's own UARTs; a console on one of them talks over a PN532 wired to it
PI_UARTS = ("serial0", "serial1", "ttyAMA0", "ttyAMA10", "ttyS0")



def run_checks(
    reader_type: str,
    *,
    spi_bus: int = 0,
    spi_device: int = 0,
    reset_pin: int = 25,
    port: str = "/dev/serial0",
    baudrate: int = 115200,
    button_pins: dict[str, int] | None = None,
    state_dir: str,
    pin_factory: Any = None,
    dev_dir: str = "/dev",
    access: Callable[[str, int], bool] = os.access,
    boot_configs: Sequence[str] = BOOT_CONFIGS,
    cmdlines: Sequence[str] = CMDLINES,
    groups: Iterable[str] | None = None,
    group_exists: Callable[[str], bool] | None = None,
) -> list[Check]:
    """Every check for this reader type. ``boot_configs``/``cmdlines`` are tried in order (the
    first that exists is read); ``groups`` are the process's group names (default: its own)."""
    checks: list[Check] = []
    if reader_type == "mfrc522":
        checks.append(check_spi_boot_config(boot_configs))
        checks += check_mfrc522(spi_bus, spi_device, reset_pin, dev_dir=dev_dir, access=access)
    elif reader_type == "pn532":
        checks.append(check_serial_console(port, cmdlines))
        checks += check_pn532(port, baudrate, access=access)
    elif reader_type == "sim":
        checks.append(Check("reader", True, "simulated reader: nothing to check"))
    else:
        checks.append(Check("reader", False, f"unknown reader type {reader_type!r}", "set [reader] type to mfrc522, pn532 or sim"))
    if reader_type in ("mfrc522", "pn532"):
        needed = ["gpio", "spi"] if reader_type == "mfrc522" else ["dialout"] + (["gpio"] if button_pins is not None else [])
        checks.append(check_groups(needed, groups, group_exists))
    if button_pins is not None:
        checks.append(check_buttons(button_pins, pin_factory))
    checks.append(check_state_dir(state_dir))
    return checks


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


def check_spi_boot_config(paths: Sequence[str] = BOOT_CONFIGS) -> Check:
    """``dtparam=spi=on`` (or an spi0 overlay) in the boot config, the last setting winning."""
    name = "SPI in the boot config"
    fix_line = "add dtparam=spi=on to {path} (or: sudo raspi-config nonint do_spi 0), then reboot"
    path, text, error = _first_readable(paths)
    if path is None:
        return Check(name, False, f"no boot config at {' or '.join(paths)} (is this a Raspberry Pi?)",
                     fix_line.format(path=paths[0]))
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
    return Check(name, False, detail, fix_line.format(path=path))


def check_serial_console(port: str, paths: Sequence[str] = CMDLINES) -> Check:
    """No ``console=`` on the UART the PN532 is wired to (the kernel would talk over it)."""
    name = "serial console off"
    device = os.path.basename(port)
    fix = ("sudo raspi-config nonint do_serial_cons 1 (or remove console={dev},115200 from {path}), "
           "keep the UART itself on (enable_uart=1), then reboot")
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
                     fix.format(dev=uart_consoles[0], path=path))
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
                 group_exists: Callable[[str], bool] | None = None) -> Check:
    """The process is in every device group it needs (gpio, spi, dialout), or runs as root."""
    name = "device groups"
    have = set(_own_groups() if groups is None else groups)
    if groups is None and os.geteuid() == 0:
        return Check(name, True, "running as root (the service should not: use a user in " + ", ".join(needed) + ")")
    exists = group_exists or _group_exists
    missing = [g for g in needed if g not in have]
    if not missing:
        return Check(name, True, "in " + ", ".join(needed))
    absent = [g for g in missing if not exists(g)]
    if absent:
        return Check(name, False, f"not in {', '.join(missing)}; the group(s) {', '.join(absent)} do not exist here",
                     "on Raspberry Pi OS the udev rules create gpio, spi and dialout; elsewhere create them "
                     "(sudo groupadd) and give the devices to them, then add the user")
    return Check(name, False, f"not in {', '.join(missing)} (in: {', '.join(sorted(have)) or 'none'})",
                 f"sudo usermod -aG {','.join(missing)} $USER, then log out and in again "
                 "(the systemd unit gets them from SupplementaryGroups=)")


def _node(name: str, path: str, access: Callable[[str, int], bool], enable: str, group: str) -> list[Check]:
    if not os.path.exists(path):
        return [Check(f"{name} enabled", False, f"{path} does not exist", enable)]
    checks = [Check(f"{name} enabled", True, f"{path} is present")]
    if access(path, os.R_OK | os.W_OK):
        checks.append(Check(f"{name} permission", True, f"{path} is readable and writable"))
    else:
        checks.append(
            Check(f"{name} permission", False, f"no read/write access to {path}",
                  f"sudo usermod -aG {group} $USER, then log in again (or run the service as a user in {group})")
        )
    return checks


def check_mfrc522(spi_bus: int, spi_device: int, reset_pin: int, *, dev_dir: str = "/dev",
                  access: Callable[[str, int], bool] = os.access) -> list[Check]:
    path = os.path.join(dev_dir, f"spidev{spi_bus}.{spi_device}")
    enable = "enable SPI: sudo raspi-config nonint do_spi 0 (or dtparam=spi=on in /boot/firmware/config.txt), then reboot"
    if os.path.isdir(dev_dir):
        others = sorted(n for n in os.listdir(dev_dir) if n.startswith("spidev"))
        if others and not os.path.exists(path):
            enable = f"SPI is on but only {', '.join(others)} exist: check [reader] spi_bus and spi_device"
    checks = _node("SPI", path, access, enable, "spi,gpio")
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


def check_pn532(port: str, baudrate: int, *, access: Callable[[str, int], bool] = os.access) -> list[Check]:
    enable = ("enable the UART and disable the serial console: sudo raspi-config nonint do_serial_hw 0; "
              "sudo raspi-config nonint do_serial_cons 1; reboot. For a USB adapter use /dev/serial/by-id/...")
    checks = _node("UART", port, access, enable, "dialout")
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


def check_buttons(pins: dict[str, int], pin_factory: Any = None) -> Check:
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
        return Check("buttons readable", False, f"{type(exc).__name__}: {exc}",
                     "on a Pi install python3-lgpio and add the user to the gpio group; check no other program uses the pins")
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
