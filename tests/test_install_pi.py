"""install-pi.sh against a temporary root, with apt, systemctl, useradd and friends stubbed on PATH.

The stubs keep their state in files under the root (the installed packages, /etc/group,
/etc/passwd, the enabled unit), so a second run sees what the first one did.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SYSTEMD = ROOT / "systemd"
needs_tools = pytest.mark.skipif(shutil.which("sh") is None or shutil.which("awk") is None, reason="needs sh and awk")

WEB_CONF = """[Service]
IPAddressDeny=
IPAddressAllow=localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16
RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6
"""

STUBS = {
    "apt-get": r'''
echo "apt-get $*" >> "$STUB_LOG"
[ "$1" = update ] && exit 0
for a in "$@"; do case $a in -*|install) ;; *) echo "$a" >> "$MUNCHKIN_ROOT/.stub/dpkg" ;; esac; done
''',
    "dpkg-query": r'''
pkg=$(eval echo "\${$#}")
grep -qsx "$pkg" "$MUNCHKIN_ROOT/.stub/dpkg" && printf 'install ok installed' && exit 0
exit 1
''',
    "apt-cache": r'''
case " $STUB_CANDIDATES " in *" $2 "*) echo "$2:"; echo "  Candidate: 1.0" ;; *) echo "$2:"; echo "  Candidate: (none)" ;; esac
''',
    "groupadd": r'''
echo "groupadd $*" >> "$STUB_LOG"
g=$(eval echo "\${$#}"); echo "$g:x:$(( 900 + $(wc -l < "$MUNCHKIN_ROOT/etc/group") )):" >> "$MUNCHKIN_ROOT/etc/group"
''',
    "useradd": r'''
echo "useradd $*" >> "$STUB_LOG"
u=$(eval echo "\${$#}")
echo "$u:x:$(id -u):$(id -g)::/var/lib/$u:/usr/sbin/nologin" >> "$MUNCHKIN_ROOT/etc/passwd"
echo "$u:x:$(id -g):" >> "$MUNCHKIN_ROOT/etc/group"
''',
    "usermod": r'''
echo "usermod $*" >> "$STUB_LOG"
g=$2; u=$3
awk -F: -v OFS=: -v g="$g" -v u="$u" '$1 == g { $4 = ($4 == "" ? u : $4 "," u) } { print }' \
    "$MUNCHKIN_ROOT/etc/group" > "$MUNCHKIN_ROOT/etc/group.new" && mv "$MUNCHKIN_ROOT/etc/group.new" "$MUNCHKIN_ROOT/etc/group"
''',
    "systemctl": r'''
echo "systemctl $*" >> "$STUB_LOG"
s="$MUNCHKIN_ROOT/.stub"
case $1 in
  is-enabled) [ -f "$s/enabled" ] ;;
  enable) touch "$s/enabled" ;;
  get-default) cat "$s/default" 2>/dev/null || echo graphical.target ;;
  set-default) echo "$2" > "$s/default" ;;
  is-active) exit 3 ;;
  *) exit 0 ;;
esac
''',
    "raspi-config": r'''
echo "raspi-config $*" >> "$STUB_LOG"
case $2 in
  do_spi) echo "dtparam=spi=on" >> "$MUNCHKIN_ROOT/boot/firmware/config.txt" ;;
  do_serial_hw) echo "enable_uart=1" >> "$MUNCHKIN_ROOT/boot/firmware/config.txt" ;;
  do_serial_cons) sed -i 's/console=serial0,115200 //' "$MUNCHKIN_ROOT/boot/firmware/cmdline.txt" ;;
esac
''',
    "udevadm": 'echo "udevadm $*" >> "$STUB_LOG"\n',
    "runuser": 'echo "runuser $*" >> "$STUB_LOG"\n',
    # MUNCHKIN_PYTHON: makes a virtual environment whose python and munchkin-table only log.
    "venv-python": r'''
echo "venv-python $*" >> "$STUB_LOG"
[ "$1 $2" = "-m venv" ] || exit 1
d=$(eval echo "\${$#}"); mkdir -p "$d/bin"
for b in python munchkin-table; do
  printf '#!/bin/sh\necho "%s $*" >> "$STUB_LOG"\n' "$b" > "$d/bin/$b"; chmod +x "$d/bin/$b"
done
''',
}

# Commands that only look; anything else in the log is a change.
READ_ONLY = ("systemctl is-enabled", "systemctl get-default", "systemctl is-active")


def make_source(tmp_path: Path, *, web_conf: bool = True) -> Path:
    """A small copy of the project: the real systemd/ files plus one module to install."""
    src = tmp_path / "src"
    (src / "systemd").mkdir(parents=True)
    for name in ("install-pi.sh", "munchkin-table.service", "config.example.toml"):
        shutil.copy2(SYSTEMD / name, src / "systemd" / name)
    if web_conf:
        (src / "systemd" / "web.conf").write_text(WEB_CONF)
    (src / "table").mkdir()
    (src / "table" / "__init__.py").write_text("")
    (src / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    return src


def make_root(tmp_path: Path, *, pi_os: bool, boot_config: str | None = "dtparam=audio=on\n",
              cmdline: str = "console=serial0,115200 console=tty1 root=/dev/mmcblk0p2\n",
              groups: tuple[str, ...] = ("root", "dialout", "video", "audio")) -> Path:
    root = tmp_path / "root"
    (root / "etc" / "apt" / "sources.list.d").mkdir(parents=True)
    (root / ".stub").mkdir()
    os_id = "debian"
    (root / "etc" / "os-release").write_text(f'PRETTY_NAME="Test {os_id} (bookworm)"\nID={os_id}\n')
    if pi_os:
        (root / "etc" / "apt" / "sources.list.d" / "raspi.list").write_text(
            "deb http://archive.raspberrypi.com/debian/ bookworm main\n")
    (root / "etc" / "group").write_text("".join(f"{g}:x:{i}:\n" for i, g in enumerate(groups)))
    (root / "etc" / "passwd").write_text("root:x:0:0::/root:/bin/sh\n")
    if boot_config is not None:
        (root / "boot" / "firmware").mkdir(parents=True)
        (root / "boot" / "firmware" / "config.txt").write_text(boot_config)
        (root / "boot" / "firmware" / "cmdline.txt").write_text(cmdline)
    return root


def make_stubs(tmp_path: Path) -> Path:
    bin_dir = tmp_path / "stubs"
    bin_dir.mkdir()
    for name, body in STUBS.items():
        path = bin_dir / name
        path.write_text("#!/bin/sh\n" + body)
        path.chmod(0o755)
    return bin_dir


def install(tmp_path: Path, src: Path, root: Path, *args: str, candidates: str = "python3-spidev",
            raspi_config: bool = False) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    stubs = tmp_path / "stubs"
    if not stubs.exists():
        make_stubs(tmp_path)
    if not raspi_config and (stubs / "raspi-config").exists():
        (stubs / "raspi-config").unlink()
    log = tmp_path / "stub.log"
    log.write_text("")
    env = {"PATH": f"{stubs}:/usr/bin:/bin:/usr/sbin:/sbin", "MUNCHKIN_ROOT": str(root),
           "MUNCHKIN_PYTHON": str(stubs / "venv-python"), "STUB_LOG": str(log),
           "STUB_CANDIDATES": candidates, "LC_ALL": "C"}
    out = subprocess.run(["sh", str(src / "systemd" / "install-pi.sh"), *args], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    return out, [line for line in log.read_text().splitlines() if line]


def snapshot(root: Path) -> dict[str, str]:
    files = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_symlink():
            files[rel] = "->" + os.readlink(path)
        elif path.is_file():
            files[rel] = f"{path.stat().st_mode:o} " + hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            files[rel] = f"dir {path.stat().st_mode:o}"
    return files


def changes(log: list[str]) -> list[str]:
    return [line for line in log if not line.startswith(READ_ONLY)]


def dropin(root: Path, name: str) -> Path:
    return root / "etc/systemd/system/munchkin-table.service.d" / name


@needs_tools
def test_plain_debian_gets_wheels_groups_udev_rules_and_the_boot_config(tmp_path: Path) -> None:
    src, root = make_source(tmp_path), make_root(tmp_path, pi_os=False)
    out, log = install(tmp_path, src, root)
    installed = (root / ".stub" / "dpkg").read_text().split()
    assert "python3-spidev" in installed and "python3-lgpio" not in installed and "python3-rpi-lgpio" not in installed
    assert "libasound2" in installed                  # SDL's sound needs the system's ALSA library
    assert "fonts-wqy-microhei" in installed and "fonts-noto-cjk" not in installed     # the small CJK font
    assert any(line.startswith("venv-python -m venv --system-site-packages") for line in log)
    assert any(line.startswith("python -m pip install") and line.endswith("/opt/munchkin-table[pi,web,league]") for line in log)
    assert "espeak-ng" in installed                   # the voice, when [voice] turns it on
    assert not any("Babel" in line for line in log)   # the build compiles the catalogs: no developers' tool on the box
    group = (root / "etc" / "group").read_text()
    assert "\ngpio:" in group and "\nspi:" in group
    rules = (root / "etc/udev/rules.d/60-munchkin-table-devices.rules").read_text()
    assert 'KERNEL=="gpiochip*", GROUP="gpio"' in rules and 'KERNEL=="spidev*", GROUP="spi"' in rules
    config = (root / "boot/firmware/config.txt").read_text()
    assert "dtparam=spi=on" in config and "enable_uart=1" in config and config.startswith("dtparam=audio=on\n")
    assert (root / "boot/firmware/config.txt.before-munchkin-table").read_text() == "dtparam=audio=on\n"
    assert "reboot" in out.stdout
    # No raspi-config: the serial console comes off the UART by editing cmdline.txt, as raspi-config does.
    assert (root / "boot/firmware/cmdline.txt").read_text() == "console=tty1 root=/dev/mmcblk0p2\n"
    assert (root / "boot/firmware/cmdline.txt.before-munchkin-table").read_text().startswith("console=serial0,115200 ")
    assert "could not" not in out.stdout
    # The drop-in names exactly the groups that exist now (render and input do not).
    assert dropin(root, "groups.conf").read_text().splitlines()[-1] == "SupplementaryGroups=gpio spi dialout video audio"
    for g in ("gpio", "spi", "dialout", "video", "audio"):
        assert any(line == f"usermod -aG {g} munchkin-table" for line in log)
    assert (root / "etc/systemd/system/munchkin-table.service").read_text() == (SYSTEMD / "munchkin-table.service").read_text()
    assert "systemctl enable --quiet munchkin-table.service" in log
    assert "systemd is not running here" in out.stdout           # no /run/systemd/system in the root
    assert any(line.startswith("runuser -u munchkin-table") and line.endswith("munchkin-table doctor") for line in log)
    assert 'state_dir = "/var/lib/munchkin-table"' in (root / "etc/munchkin-table/config.toml").read_text()


def test_the_cjk_font_is_the_small_one_go_uses_too() -> None:
    """fonts-noto-cjk is about 90 MB on a Pi's SD card; fonts-wqy-microhei about 5 MB, and ./go installs it."""
    script = (SYSTEMD / "install-pi.sh").read_text(encoding="utf-8")
    packages = next(line for line in script.splitlines() if line.startswith("PACKAGES="))
    assert "fonts-wqy-microhei" in packages.split('"')[1].split()
    assert "fonts-noto-cjk" not in script.replace("not fonts-noto-cjk", "")
    assert "fonts-wqy-microhei" in (ROOT / "go").read_text(encoding="utf-8")


@needs_tools
def test_without_python3_spidev_the_installer_brings_a_compiler(tmp_path: Path) -> None:
    src, root = make_source(tmp_path), make_root(tmp_path, pi_os=False)
    out, _ = install(tmp_path, src, root, candidates="")
    installed = (root / ".stub" / "dpkg").read_text().split()
    assert {"gcc", "libc6-dev", "python3-dev"} <= set(installed) and "python3-spidev" not in installed
    assert "pip builds spidev" in out.stdout
    again, log = install(tmp_path, src, root, candidates="")
    assert "nothing to change" in again.stdout and not any(line.startswith("apt-get") for line in log)


@needs_tools
def test_raspberry_pi_os_keeps_its_packages_and_raspi_config(tmp_path: Path) -> None:
    src = make_source(tmp_path)
    root = make_root(tmp_path, pi_os=True, groups=("root", "gpio", "spi", "dialout", "video", "render", "input", "audio"))
    out, log = install(tmp_path, src, root, raspi_config=True)
    installed = (root / ".stub" / "dpkg").read_text().split()
    assert {"python3-lgpio", "python3-rpi-lgpio", "python3-gpiozero", "python3-spidev"} <= set(installed)
    assert {"raspi-config nonint do_spi 0", "raspi-config nonint do_serial_hw 0", "raspi-config nonint do_serial_cons 1"} <= set(log)
    assert not any(line.startswith("groupadd") for line in log)
    assert not (root / "etc/udev/rules.d/60-munchkin-table-devices.rules").exists()
    assert any(line.startswith("python -m pip install") and line.endswith("/opt/munchkin-table[web,league]") for line in log)
    assert dropin(root, "groups.conf").read_text().splitlines()[-1] == \
        "SupplementaryGroups=gpio spi dialout video render input audio"
    assert "could not" not in out.stdout


@needs_tools
@pytest.mark.parametrize("pi_os", [False, True])
def test_a_second_run_changes_nothing(tmp_path: Path, pi_os: bool) -> None:
    src, root = make_source(tmp_path), make_root(tmp_path, pi_os=pi_os)
    (root / "run/udev").mkdir(parents=True)                  # udev runs: new rules are applied once
    _, first = install(tmp_path, src, root, raspi_config=pi_os)
    assert any(line.startswith("udevadm trigger") for line in first) is not pi_os
    before = snapshot(root)
    out, log = install(tmp_path, src, root, raspi_config=pi_os)
    assert snapshot(root) == before
    assert [line for line in changes(log) if not line.startswith("runuser")] == []
    assert "nothing to change: already installed" in out.stdout


@needs_tools
@pytest.mark.parametrize("pi_os", [False, True])
def test_dry_run_prints_every_change_and_makes_none(tmp_path: Path, pi_os: bool) -> None:
    src, root = make_source(tmp_path), make_root(tmp_path, pi_os=pi_os)
    before = snapshot(root)
    dry, dry_log = install(tmp_path, src, root, "--dry-run", raspi_config=pi_os)
    assert snapshot(root) == before and changes(dry_log) == []
    planned = [line.split("would: ", 1)[1] for line in dry.stdout.splitlines() if "would: " in line]
    real, _ = install(tmp_path, src, root, raspi_config=pi_os)
    done = [line.strip() for line in real.stdout.splitlines()]
    # every change the real run made was announced by the dry run, in the same order
    assert planned and [p for p in planned if p in done] == planned
    assert f"dry run: {len(planned)} change(s) would be made, none was" in dry.stdout
    assert f"{len(planned)} change(s) made" in real.stdout


@needs_tools
def test_the_web_dropin_follows_the_config(tmp_path: Path) -> None:
    src, root = make_source(tmp_path), make_root(tmp_path, pi_os=False)
    (root / "run/systemd/system").mkdir(parents=True)      # a booted system: units are reloaded
    install(tmp_path, src, root)
    assert not dropin(root, "web.conf").exists()
    config = root / "etc/munchkin-table/config.toml"
    config.write_text(config.read_text() + "\n[web]\nenabled = true   # the LAN view\n")
    out, log = install(tmp_path, src, root)
    assert dropin(root, "web.conf").read_text() == WEB_CONF and "systemctl daemon-reload" in log
    config.write_text(config.read_text().replace("enabled = true", "enabled = false"))
    out, log = install(tmp_path, src, root)
    assert not dropin(root, "web.conf").exists() and "systemctl daemon-reload" in log


@needs_tools
def test_a_missing_web_conf_is_said_not_skipped(tmp_path: Path) -> None:
    src, root = make_source(tmp_path, web_conf=False), make_root(tmp_path, pi_os=False)
    (root / "etc/munchkin-table").mkdir(parents=True)
    (root / "etc/munchkin-table/config.toml").write_text("[web]\nenabled = true\n")
    out, _ = install(tmp_path, src, root)
    assert "could not: allow the LAN web view" in out.stdout and not dropin(root, "web.conf").exists()


@needs_tools
def test_no_boot_config_is_said_plainly(tmp_path: Path) -> None:
    src, root = make_source(tmp_path), make_root(tmp_path, pi_os=False, boot_config=None)
    out, _ = install(tmp_path, src, root)
    assert "could not: enable SPI and the UART" in out.stdout
    assert "not done (do these by hand)" in out.stdout


@needs_tools
def test_debian_raspi_firmware_keeps_the_lines_across_kernel_updates(tmp_path: Path) -> None:
    src, root = make_source(tmp_path), make_root(tmp_path, pi_os=False, boot_config="dtparam=spi=on\n")
    (root / "etc/default").mkdir(parents=True)
    (root / "etc/default/raspi-firmware-custom").write_text("# custom\n")
    (root / "etc/default/raspi-firmware").write_text('#CONSOLES="auto"\nCONSOLES="ttyS1,115200 tty0"\n')
    install(tmp_path, src, root)
    assert (root / "etc/default/raspi-firmware-custom").read_text() == "# custom\nenable_uart=1\n"
    assert 'CONSOLES="tty0"' in (root / "etc/default/raspi-firmware").read_text().splitlines()
    assert (root / "boot/firmware/config.txt").read_text().count("dtparam=spi=on") == 1


@needs_tools
def test_bad_option_exits_2(tmp_path: Path) -> None:
    out = subprocess.run(["sh", str(SYSTEMD / "install-pi.sh"), "--frobnicate"], capture_output=True, text=True)
    assert out.returncode == 2 and "unknown option '--frobnicate'" in out.stderr


needs_systemd = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")


@needs_tools
@needs_systemd
@pytest.mark.parametrize("web", [False, True])
def test_the_installed_unit_with_its_dropins_verifies_with_exposure_2_0_or_lower(tmp_path: Path, web: bool) -> None:
    src, root = make_source(tmp_path), make_root(tmp_path, pi_os=False)
    if (SYSTEMD / "web.conf").exists():          # the project's own drop-in, not the fixture
        shutil.copy2(SYSTEMD / "web.conf", src / "systemd" / "web.conf")
    if web:
        (root / "etc/munchkin-table").mkdir(parents=True)
        (root / "etc/munchkin-table/config.toml").write_text("[web]\nenabled = true\n")
    install(tmp_path, src, root)
    units = tmp_path / "units"
    shutil.copytree(root / "etc/systemd/system", units)
    unit = units / "munchkin-table.service"
    # verify checks that ExecStart exists; point it at a binary this machine has.
    unit.write_text(unit.read_text().replace("/opt/munchkin-table/.venv/bin/munchkin-table run", "/bin/true"))
    assert sorted(p.name for p in (units / "munchkin-table.service.d").iterdir()) == (
        ["groups.conf", "web.conf"] if web else ["groups.conf"])
    verify = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    assert verify.returncode == 0 and verify.stdout + verify.stderr == ""
    security = subprocess.run(["systemd-analyze", "security", "--offline=true", "--threshold=20", str(unit)],
                              capture_output=True, text=True)
    assert security.returncode == 0 and security.stderr == "", security.stdout[-500:] + security.stderr
    assert "✗ SupplementaryGroups=" in security.stdout    # the groups drop-in was read


@needs_tools
def test_uninstall_removes_the_unit_and_its_dropins_and_keeps_the_games(tmp_path: Path) -> None:
    src, root = make_source(tmp_path), make_root(tmp_path, pi_os=False)
    (root / "run/systemd/system").mkdir(parents=True)
    install(tmp_path, src, root)
    (root / "var/lib/munchkin-table/journal.sqlite").write_text("a game")
    out, log = install(tmp_path, src, root, "--uninstall")
    assert not (root / "etc/systemd/system/munchkin-table.service").exists()
    assert not (root / "etc/systemd/system/munchkin-table.service.d").exists()
    assert "systemctl disable --now munchkin-table.service" in log and "systemctl daemon-reload" in log
    assert (root / "var/lib/munchkin-table/journal.sqlite").read_text() == "a game"


@needs_tools
def test_without_a_running_systemd_nothing_is_reloaded_or_started(tmp_path: Path) -> None:
    src, root = make_source(tmp_path), make_root(tmp_path, pi_os=False)
    out, log = install(tmp_path, src, root)
    assert "systemctl enable --quiet munchkin-table.service" in log
    assert not any(line in ("systemctl daemon-reload", "systemctl restart munchkin-table.service") for line in log)
    assert "the service starts at the next boot" in out.stdout


@needs_tools
def test_on_a_booted_system_the_service_is_started_once(tmp_path: Path) -> None:
    src, root = make_source(tmp_path), make_root(tmp_path, pi_os=False)
    (root / "run/systemd/system").mkdir(parents=True)
    _, log = install(tmp_path, src, root)
    assert "systemctl daemon-reload" in log and "systemctl restart munchkin-table.service" in log


def test_an_installed_boxs_config_does_not_leak_into_the_tests(tmp_path: Path) -> None:
    """./go test on the box itself: /etc/munchkin-table/config.toml names the box's reader and state."""
    import sys

    config = tmp_path / "config.toml"
    config.write_text('[display]\nlanguage = "es"\n')
    probe = "from table.config import load_config; print(load_config(None).display.language)"
    own = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "MUNCHKIN_SYSTEM_CONFIG": str(config)})
    assert own.stdout.strip() == "es", own.stderr
    isolated = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, env=dict(os.environ))
    assert isolated.stdout.strip() == "en", isolated.stderr


def test_an_installed_boxs_unit_does_not_leak_into_the_tests(tmp_path: Path) -> None:
    """doctor's web check reads the installed unit; the tests (and the tables they start) read none."""
    import sys

    probe = "from table.web.checks import UNIT_DIR; print(UNIT_DIR)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, env=dict(os.environ))
    assert out.stdout.strip() == os.environ["MUNCHKIN_UNIT_DIR"] != "/etc/systemd/system", out.stderr
