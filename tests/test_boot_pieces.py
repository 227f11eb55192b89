"""The boot bench's pieces without a boot (bench/boot/): the image recipe's files, the PN532
emulator on a socket under a real pyserial client and the real PN532 driver, the guest's agent,
the QEMU wiring, the screendump comparison and the framebuffer readback's ioctl numbers."""

from __future__ import annotations

import base64
import queue
import socket
import time
from pathlib import Path

import pytest
import serial

from bench.boot import agent, fbgrab, recipe
from bench.boot.guest import qemu_command
from bench.boot.pn532_socket import Pn532Socket
from bench.boot.screens import Image, compare, from_xrgb, parse_ppm, to_ppm
from cards.loader import load_catalog
from drivers.base import ManualClock
from drivers.events import Tap
from drivers.hsu import ACK, CHIP_TFI, FrameParser, encode
from drivers.pn532 import Pn532Reader
from engine.state import PLAYER_TOKENS
from table.config import load_config
from tests.drivers.helpers import drain

# ---------------------------------------------------------------------- the image recipe


@pytest.mark.parametrize("size", ["800x480", "1920x1080"])
def test_the_box_config_names_a_pn532_on_the_guests_serial_port_and_the_screen_size(tmp_path, size):
    recipe.write_overlay(tmp_path, port="/dev/ttyS0", size=recipe.parse_size(size), web=False)
    config = load_config(tmp_path / "etc/munchkin-table/config.toml")
    assert config.reader.type == "pn532" and config.reader.port == "/dev/ttyS0"
    assert f"{config.display.width}x{config.display.height}" == size
    assert str(config.state_dir) == recipe.STATE_DIR and config.web.enabled is False


def test_the_web_image_turns_the_web_view_on_at_the_forwarded_port(tmp_path):
    recipe.write_overlay(tmp_path, port="/dev/ttyS0", size=(800, 480), web=True)
    config = load_config(tmp_path / "etc/munchkin-table/config.toml")
    assert config.web.enabled is True and config.web.port == recipe.WEB_PORT


@pytest.mark.parametrize("bad", ["800", "800x", "x480", "800*480", "0x480", "800x480x2", ""])
def test_a_screen_size_not_written_w_x_h_is_refused_naming_the_form(bad):
    with pytest.raises(ValueError, match="WIDTHxHEIGHT"):
        recipe.parse_size(bad)


def test_fstab_mounts_the_one_virtio_disk_as_root_read_write():
    rows = [line.split() for line in recipe.fstab().splitlines() if line and not line.startswith("#")]
    assert rows == [["/dev/vda", "/", "ext4", "rw,errors=remount-ro", "0", "1"]]


def test_the_initramfs_lists_its_modules_instead_of_most(tmp_path):
    recipe.write(tmp_path, recipe.initramfs_files())
    conf = (tmp_path / "etc/initramfs-tools/conf.d/munchkin-boot.conf").read_text()
    assert "MODULES=list" in conf.splitlines()
    modules = [m for m in (tmp_path / "etc/initramfs-tools/modules").read_text().splitlines() if m and m[0] != "#"]
    assert {"virtio_pci", "virtio_blk", "virtio_gpu", "ext4"} <= set(modules)


def test_the_tags_the_bench_taps_are_three_tokens_and_a_card_of_the_catalog():
    rows = [line.split(",") for line in recipe.tags_csv().splitlines()]
    assert rows[0] == ["uid", "card"]
    cards = [card for _, card in rows[1:]]
    assert cards[:3] == list(PLAYER_TOKENS[:3])
    assert load_catalog()[cards[3]].id == cards[3]        # KeyError when the card left the catalog
    assert len({uid for uid, _ in rows[1:]}) == 4 and all(len(uid) == 8 for uid, _ in rows[1:])


def test_the_agent_starts_early_and_no_getty_competes_for_its_console(tmp_path):
    recipe.write_overlay(tmp_path, port="/dev/ttyS0", size=(800, 480), web=False)
    wants = tmp_path / "etc/systemd/system/sysinit.target.wants/boot-bench-agent.service"
    assert wants.is_symlink() and (tmp_path / str(wants.readlink()).lstrip("/")).is_file()
    assert str((tmp_path / "etc/systemd/system/serial-getty@hvc0.service").readlink()) == "/dev/null"
    assert (tmp_path / "usr/local/sbin/boot-bench-agent").stat().st_mode & 0o111
    assert (tmp_path / "var/log/journal").is_dir()       # the traceback check reads both boots
    recipe.write_overlay(tmp_path, port="/dev/ttyS0", size=(800, 480), web=False)   # a rebuild writes it again


# ---------------------------------------------------------------------- the socket wiring


def test_the_emulated_pn532_behind_a_tcp_socket_gives_the_real_driver_a_tap_through_pyserial():
    with Pn532Socket(("127.0.0.1", 0)) as chip:
        sink: queue.Queue[object] = queue.Queue()
        clock = ManualClock(10.0)
        reader = Pn532Reader(sink, clock=clock, port=f"socket://127.0.0.1:{chip.port}", ack_timeout=0.3,
                             answer_timeout=0.5, serial_factory=lambda port, baud, **kw: serial.serial_for_url(port, baud, **kw))
        try:
            assert reader.connect(), drain(sink)
            drain(sink)
            chip.emulator.present("B0070001")
            reader.poll_once()
            assert drain(sink) == [Tap("B0070001", 10.0, "pad")]
        finally:
            reader.close()
        assert chip.connections == 1 and chip.bytes_in > 0 and chip.bytes_out > 0


def exchange(sock: socket.socket, request: bytes, want: int) -> list[object]:
    sock.sendall(request)
    parser, frames = FrameParser(), []
    deadline = time.monotonic() + 5
    while len(frames) < want and time.monotonic() < deadline:
        sock.settimeout(max(0.05, deadline - time.monotonic()))
        frames += parser.feed(sock.recv(256))
    return frames


def test_on_a_unix_socket_as_qemu_connects_and_a_second_connection_replaces_the_first(tmp_path):
    path = tmp_path / "pn532.sock"
    with Pn532Socket(str(path)) as chip:
        for boot in (1, 2):                 # the power cut: a new QEMU connects again
            with socket.socket(socket.AF_UNIX) as sock:
                sock.connect(str(path))
                frames = exchange(sock, b"\x55\x55\x00\x00\x00" + encode(b"\x02"), 2)
                assert [f.data for f in frames][-1] == b"\x03" + bytes([0x32, 0x01, 0x06, 0x07])
                assert frames[-1].tfi == CHIP_TFI
            time.sleep(0.05)
        assert chip.connections == 2
    assert not path.exists()


def test_the_chip_answers_with_an_ack_first():
    with Pn532Socket(("127.0.0.1", 0)) as chip, socket.create_connection(("127.0.0.1", chip.port)) as sock:
        sock.sendall(b"\x55\x55\x00\x00\x00" + encode(b"\x02"))
        data = b""
        while len(data) < len(ACK):
            data += sock.recv(64)
        assert data.startswith(ACK)


# ---------------------------------------------------------------------- the agent and QEMU's wiring


def test_the_agent_runs_a_command_and_answers_its_code_and_output_in_base64():
    line = b"RUN c7 " + base64.b64encode(b"echo hello; echo err >&2; exit 3")
    reply = agent.answer(line)
    assert reply is not None and reply.endswith(b"\n")
    word, ident, code, out = reply.split()
    assert (word, ident, code) == (b"OUT", b"c7", b"3")
    assert base64.b64decode(out) == b"hello\nerr\n"


@pytest.mark.parametrize("junk", [b"", b"hello", b"RUN c1", b"OUT c1 0 aGk="])
def test_the_agent_ignores_lines_that_are_not_commands(junk):
    assert agent.answer(junk) is None


def test_qemu_wires_the_reader_to_a_pci_serial_port_and_the_agent_to_a_virtconsole(tmp_path):
    cmd = qemu_command(cache=tmp_path, disk=tmp_path / "box.qcow2", work=tmp_path, size=(800, 480),
                       pn532=tmp_path / "pn532.sock", web_port=None)
    line = " ".join(cmd)
    assert f"socket,id=pn532,path={tmp_path / 'pn532.sock'}" in line and "pci-serial,chardev=pn532" in line
    assert "virtconsole,chardev=ctl" in line and "virtio-gpu-pci,xres=800,yres=480" in line
    assert "hostfwd" not in line and "restrict=on" in line
    web = " ".join(qemu_command(cache=tmp_path, disk=tmp_path / "d", work=tmp_path, size=(1920, 1080),
                                pn532=tmp_path / "p", web_port=18080))
    assert "hostfwd=tcp:127.0.0.1:18080-:8080" in web and "xres=1920,yres=1080" in web


def test_the_framebuffer_readback_uses_the_kernels_drm_ioctl_numbers():
    # from the kernel's uapi drm.h on arm64 and x86 alike
    assert (fbgrab.GETRESOURCES, fbgrab.GETCRTC, fbgrab.GETFB, fbgrab.MAP_DUMB, fbgrab.GEM_CLOSE) == (
        0xC04064A0, 0xC06864A1, 0xC01C64AD, 0xC01064B3, 0x40086409)


# ---------------------------------------------------------------------- the screendump comparison


def image(w: int, h: int, colour: tuple[int, int, int] = (10, 20, 30)) -> Image:
    return Image(w, h, bytes(colour) * (w * h))


def with_pixel(img: Image, x: int, y: int, colour: tuple[int, int, int]) -> Image:
    rgb = bytearray(img.rgb)
    i = (y * img.width + x) * 3
    rgb[i:i + 3] = bytes(colour)
    return Image(img.width, img.height, bytes(rgb))


def test_a_ppm_as_qemu_writes_it_is_read_back_pixel_for_pixel():
    img = with_pixel(image(4, 3), 2, 1, (255, 0, 7))
    assert parse_ppm(to_ppm(img)) == img
    commented = b"P6\n# QEMU screendump\n4 3\n255\n" + img.rgb
    assert parse_ppm(commented).pixel(2, 1) == (255, 0, 7)


@pytest.mark.parametrize("data, why", [(b"P5\n1 1\n255\n\x00", "magic"), (b"P6\n1 1\n65535\n\x00", "maxval"),
                                       (b"P6\n2", "header"), (b"P6\n2 2\n255\n\x00\x00", "needs 12 bytes")])
def test_a_bad_ppm_is_refused_saying_why(data, why):
    with pytest.raises(ValueError, match=why):
        parse_ppm(data)


def test_a_difference_inside_the_clock_mask_still_matches_and_one_outside_does_not():
    ref = image(20, 10)
    clock = (15, 0, 5, 3)
    in_clock = with_pixel(ref, 17, 1, (255, 255, 255))
    assert compare(in_clock, ref, masks=[clock]).same
    assert compare(in_clock, ref, masks=[clock]).masked == 1
    assert not compare(in_clock, ref).same
    outside = with_pixel(in_clock, 3, 8, (0, 0, 0))
    diff = compare(outside, ref, masks=[clock])
    assert not diff.same and diff.pixels == 1 and diff.box == (3, 8, 1, 1)


def test_a_capture_of_another_size_never_matches():
    assert compare(image(10, 10), image(10, 11)).size_mismatch
    assert not compare(image(10, 10), image(10, 11)).same


def test_a_black_screen_is_blank_and_a_drawn_one_is_not():
    assert image(8, 8, (0, 0, 0)).is_blank()
    assert not with_pixel(image(8, 8, (0, 0, 0)), 7, 7, (1, 0, 0)).is_blank()


def test_a_kms_framebuffer_in_xrgb8888_with_row_padding_reads_as_rgb():
    # two pixels a row, pitch 12 (4 bytes of padding): memory order B, G, R, X
    row0 = bytes([3, 2, 1, 0, 30, 20, 10, 0]) + b"\xee" * 4
    row1 = bytes([0, 0, 255, 0, 255, 0, 0, 0]) + b"\xee" * 4
    img = from_xrgb(row0 + row1, 2, 2, 12)
    assert [img.pixel(x, y) for y in range(2) for x in range(2)] == [(1, 2, 3), (10, 20, 30), (255, 0, 0), (0, 0, 255)]


def test_recipe_config_is_what_the_bench_compares_against(tmp_path):
    """The reference frames come from the same config text, less the box's state directory."""
    text = recipe.config_toml(port="/dev/ttyS0", size=(800, 480), web=False).split("[storage]")[0]
    path = Path(tmp_path / "c.toml")
    path.write_text(text)
    config = load_config(path)
    assert (config.display.width, config.display.height) == (800, 480)


def test_the_box_config_draws_on_the_framebuffer(tmp_path):
    """The image's table uses the fbdev output: SDL's kmsdrm showed nothing under QEMU."""
    path = Path(tmp_path / "c.toml")
    path.write_text(recipe.config_toml(port="/dev/ttyS0", size=(800, 480), web=False).split("[storage]")[0])
    assert load_config(path).display.output == "fbdev"


def test_a_frame_centred_on_a_larger_framebuffer_is_compared_by_its_middle():
    from bench.boot.screens import centred

    frame = Image(2, 1, bytes([1, 2, 3, 4, 5, 6]))
    black = bytes(4 * 3)
    shot = Image(4, 3, black + bytes(3) + frame.rgb + bytes(3) + black)
    assert compare(centred(shot, 2, 1), frame).same
    assert not compare(shot, frame).same
    assert centred(frame, 2, 1) is frame


def test_a_command_that_times_out_is_answered_though_a_grandchild_holds_its_output():
    """subprocess.run would kill sh and then wait for the grandchild's pipe (the agent silent for minutes)."""
    start = time.monotonic()
    code, out = agent.execute("sleep 30 & echo started; wait", timeout=1)
    assert code == 124 and b"started" in out and b"timed out" in out
    assert time.monotonic() - start < 10


def test_a_slow_command_does_not_keep_a_quick_one_waiting(tmp_path):
    """Each command in its own thread: the console answers ``echo up`` while a long one runs."""
    import os
    import pty
    import threading

    host, guest = pty.openpty()
    threading.Thread(target=agent.main, args=(os.ttyname(guest),), daemon=True).start()
    time.sleep(0.3)                        # the agent sets its console raw
    for ident, command in ((b"slow", b"sleep 5; echo slow"), (b"quick", b"echo quick")):
        os.write(host, b"RUN " + ident + b" " + base64.b64encode(command) + b"\n")
    start, got = time.monotonic(), b""
    while b"OUT quick" not in got and time.monotonic() - start < 4:
        got += os.read(host, 4096)
    assert b"OUT quick 0 " + base64.b64encode(b"quick\n") in got and b"OUT slow" not in got
    assert time.monotonic() - start < 4


def test_the_reference_frames_show_the_reader_answering_as_the_box_does(tmp_path):
    """The box's reader is real and its status line says "reader ok"; simulate's says nothing."""
    from bench.boot.run import references

    path = Path(tmp_path / "c.toml")
    path.write_text(recipe.config_toml(port="/dev/ttyS0", size=(800, 480), web=False).split("[storage]")[0])
    frames = references(path, tmp_path)
    assert sorted(frames) == ["resumed", "setup", "tap1", "tap2", "tap3", "tap4"]
    top_right = {frames["setup"].pixel(x, y) for x in range(600, 800) for y in range(0, 40)}
    assert (80, 210, 120) in top_right                       # GOOD, the colour of "reader ok"
    assert frames["tap1"].rgb != frames["setup"].rgb
    # resumed: the three players read back, without the last tap's message line
    assert frames["resumed"].rgb != frames["tap3"].rgb
    assert compare(frames["resumed"], frames["tap3"], masks=[(0, 370, 800, 50)]).same


def test_the_host_takes_the_answer_of_a_command_that_printed_nothing(tmp_path):
    """``OUT id 0`` with no base64 after it (``true``, ``kill``, ``systemctl stop --no-block``): the
    host once waited for a fourth field and timed out, the agent looking silent for minutes."""
    import threading

    from bench.boot.guest import Agent

    path = tmp_path / "ctl.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)

    def guest() -> None:
        conn, _ = server.accept()
        with conn:
            for line in conn.makefile("rb"):
                reply = agent.answer(line.strip())
                if reply:
                    conn.sendall(reply)

    threading.Thread(target=guest, daemon=True).start()
    host = Agent(path)
    try:
        assert host.run("true", timeout=10) == (0, "")
        assert host.run("echo up", timeout=10) == (0, "up\n")
        assert host.run("exit 3", timeout=10) == (3, "")
    finally:
        host.close()
        server.close()


def test_with_the_web_view_on_the_reference_frames_carry_the_box_s_address(tmp_path):
    """The box shows a QR code of its own address and key: the references are drawn with them."""
    from bench.boot.run import references

    path = Path(tmp_path / "c.toml")
    path.write_text(recipe.config_toml(port="/dev/ttyS0", size=(800, 480), web=False).split("[storage]")[0])
    plain = references(path, tmp_path)
    web = references(path, tmp_path, web_url="http://10.0.2.15:8080/?key=" + "k" * 32)
    assert sorted(web) == sorted(plain)
    for name in web:
        differ = compare(web[name], plain[name])
        assert not differ.same, name                 # the QR code and the address under it
