"""The files the boot image's recipe writes into the root: one place, read by build.sh and the tests.

    python3 bench/boot/recipe.py initramfs ROOT
    python3 bench/boot/recipe.py overlay ROOT --port /dev/ttyS0 --size 800x480 [--web]

Only the standard library: build.sh runs it with the host's python3, before any venv exists.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

# What the guest's kernel needs before the root is mounted: the PCI transport, the disk, its
# filesystem, and the screen early enough that the console is on it from the first line.
INITRAMFS_MODULES = ("virtio_pci", "virtio_blk", "virtio_gpu", "ext4")


def initramfs_files() -> dict[str, str]:
    """initramfs-tools' config: only the listed modules (seconds to build, not 12 minutes)."""
    return {
        "etc/initramfs-tools/conf.d/munchkin-boot.conf": "# munchkin-table boot bench: only the modules listed in ../modules\nMODULES=list\n",
        "etc/initramfs-tools/modules": "# munchkin-table boot bench: the root disk and the screen under QEMU virt\n"
        + "".join(f"{m}\n" for m in INITRAMFS_MODULES),
    }


# The tags the bench taps through the emulated PN532: three player tokens and one card (4-byte UIDs,
# as on MIFARE Classic stickers). The card is a curse: tapped in set-up it asks for its victim, a
# prompt the screen shows and the journal does not keep (the last acknowledged tap stays the third token).
TAGS = {"player-1": "B0070001", "player-2": "B0070002", "player-3": "B0070003", "curse-lose-a-level": "C0070001"}
STATE_DIR = "/var/lib/munchkin-table"
CONTROL_PORT = "hvc0"        # the virtconsole the bench's agent answers on
WEB_PORT = 8080


def parse_size(text: str) -> tuple[int, int]:
    """'800x480' -> (800, 480); ValueError naming the expected form otherwise."""
    match = re.fullmatch(r"([1-9][0-9]{2,4})x([1-9][0-9]{2,4})", text)
    if not match:
        raise ValueError(f"screen size {text!r}: expected WIDTHxHEIGHT, e.g. 800x480")
    return int(match.group(1)), int(match.group(2))


def config_toml(*, port: str, size: tuple[int, int], web: bool) -> str:
    """The box's /etc/munchkin-table/config.toml: a PN532 on the guest's serial port, the screen size."""
    width, height = size
    return f"""# /etc/munchkin-table/config.toml of the boot bench's image (bench/boot/recipe.py)
[reader]
type = "pn532"
port = "{port}"           # the guest's PCI serial port; outside Pi OS there is no /dev/serial0
baudrate = 115200

[display]
width = {width}
height = {height}
output = "fbdev"          # frames into /dev/fb0: SDL's kmsdrm on Mesa's software path shows nothing here

[web]
enabled = {"true" if web else "false"}
port = {WEB_PORT}

[storage]
state_dir = "{STATE_DIR}"
"""


def fstab() -> str:
    return "# the boot bench's one disk (virtio-blk)\n/dev/vda / ext4 rw,errors=remount-ro 0 1\n"


def tags_csv(tags: dict[str, str] | None = None) -> str:
    return "uid,card\n" + "".join(f"{uid},{card}\n" for card, uid in (TAGS if tags is None else tags).items())


def game_tags() -> dict[str, str]:
    """The Pi-class bench's tags (bench/boot/pitime.py): the six player tokens (the first three as in
    TAGS) and every card the host benches' game deals or fights, a 4-byte UID each (D1 and the
    card's place in sorted order)."""
    root = str(Path(__file__).resolve().parents[2])
    if root not in sys.path:          # build.sh runs this file as a script, before any venv
        sys.path.insert(0, root)
    from bench._games import GEAR, MONSTERS     # the standard library only, as this file

    tokens = {f"player-{n}": f"B007000{n}" for n in range(1, 7)}
    return tokens | {card: f"D1{n:06X}" for n, card in enumerate(sorted(set(GEAR) | set(MONSTERS)))}


def interfaces() -> str:
    """ifupdown: the one virtio NIC (net.ifnames=0 on the kernel line names it eth0) by DHCP."""
    return "auto lo\niface lo inet loopback\n\nallow-hotplug eth0\niface eth0 inet dhcp\n"


AGENT_UNIT = f"""# The boot bench's control channel (not part of the box): commands from the host on /dev/{CONTROL_PORT}.
[Unit]
Description=munchkin-table boot bench agent on /dev/{CONTROL_PORT}
DefaultDependencies=no
After=dev-{CONTROL_PORT}.device systemd-journald.socket
BindsTo=dev-{CONTROL_PORT}.device

[Service]
ExecStart=/usr/bin/python3 /usr/local/sbin/boot-bench-agent /dev/{CONTROL_PORT}
Restart=always
RestartSec=1

[Install]
WantedBy=sysinit.target
"""


def overlay_files(*, port: str, size: tuple[int, int], web: bool) -> dict[str, str]:
    """Every file the recipe adds to the root before install-pi.sh runs (it keeps an existing config)."""
    return {
        "etc/munchkin-table/config.toml": config_toml(port=port, size=size, web=web),
        "etc/munchkin-table/boot-tags.csv": tags_csv(),
        "etc/munchkin-table/pitime-tags.csv": tags_csv(game_tags()),
        "etc/fstab": fstab(),
        "etc/hostname": "munchkin-table\n",
        "etc/hosts": "127.0.0.1 localhost\n127.0.1.1 munchkin-table\n",
        "etc/network/interfaces": interfaces(),
        "etc/systemd/system/boot-bench-agent.service": AGENT_UNIT,
    }


def write(root: Path, files: dict[str, str], mode: int = 0o644) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        path.chmod(mode)


def write_overlay(root: Path, *, port: str, size: tuple[int, int], web: bool) -> None:
    write(root, overlay_files(port=port, size=size, web=web))
    for source, installed in (("agent.py", "boot-bench-agent"), ("fbgrab.py", "boot-bench-fbgrab")):
        tool = root / "usr/local/sbin" / installed
        tool.parent.mkdir(parents=True, exist_ok=True)
        tool.write_bytes((Path(__file__).parent / source).read_bytes())
        tool.chmod(0o755)
    links = {
        # the agent, started early; no getty competing for its console
        "etc/systemd/system/sysinit.target.wants/boot-bench-agent.service": "/etc/systemd/system/boot-bench-agent.service",
        f"etc/systemd/system/serial-getty@{CONTROL_PORT}.service": "/dev/null",
    }
    for rel, target in links.items():
        link = root / rel
        link.parent.mkdir(parents=True, exist_ok=True)
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(target)
    # journald keeps its logs across the power cut, so the traceback check reads both boots
    (root / "var/log/journal").mkdir(parents=True, exist_ok=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="recipe.py")
    sub = parser.add_subparsers(dest="what", required=True)
    p_init = sub.add_parser("initramfs")
    p_init.add_argument("root", type=Path)
    p_over = sub.add_parser("overlay")
    p_over.add_argument("root", type=Path)
    p_over.add_argument("--port", default="/dev/ttyS0")
    p_over.add_argument("--size", default="800x480")
    p_over.add_argument("--web", action="store_true")
    args = parser.parse_args(argv)
    if args.what == "initramfs":
        write(args.root, initramfs_files())
    else:
        write_overlay(args.root, port=args.port, size=parse_size(args.size), web=args.web)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
