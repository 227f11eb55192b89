"""The wiring drawings of docs/build.md, made from the pins the table uses and ``doctor`` checks.

    .venv/bin/python docs/make_wiring.py        # writes docs/wiring-mfrc522.svg, -pn532.svg, -buttons.svg

Every pin comes from the code, not from this file: the reader's defaults (``ReaderConfig``: SPI bus,
chip select, reset pin), the SPI buses' pins (``SPI_PINS``, ``SPI_CE_PINS``), the buttons' and the
feedback's defaults (``ButtonsConfig``, ``FeedbackConfig``), all in table/config.py, and the header's
numbering (``BCM_TO_HEADER`` in drivers/mfrc522_spi.py). Change a default there and run this again;
tests/test_build_guide.py fails while the committed drawings differ from what this writes.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from drivers.mfrc522_spi import BCM_TO_HEADER  # noqa: E402
from table.config import SPI_CE_PINS, SPI_PINS, ButtonsConfig, FeedbackConfig, ReaderConfig  # noqa: E402

# The 40-pin header's power pins (the same on a Pi 4, Pi 5 and Zero 2 W), and the UART's (not configurable).
POWER_3V3 = (1, 17)
POWER_5V = (2, 4)
GROUND = (6, 9, 14, 20, 25, 30, 34, 39)
UART_TXD, UART_RXD = 14, 15         # BCM: /dev/serial0 on the header
COLORS = {"3V3": "#d62728", "GND": "#222222", "SCK": "#e6a800", "MOSI": "#1f77b4", "MISO": "#2ca02c",
          "SDA": "#ff7f0e", "RST": "#9467bd", "TXD": "#17becf", "RXD": "#8c564b"}
BUTTON_COLORS = {"roll": "#dc3c3c", "help": "#3c8cf0", "run": "#f0c828", "next": "#46c85a", "undo": "#c8c8c8"}

PIN = 22            # the header's pitch in the drawing
HEADER_X, HEADER_Y = 150, 90


@dataclass(frozen=True)
class Wire:
    part_pin: str       # the pin's name on the part (SDA, TXD, roll …)
    header: int         # the header pin it goes to (1-40)
    label: str          # what the header pin is (BCM 8 (CE0), GND, 3.3 V …)
    color: str


def header_label(pin: int) -> str:
    """What a header pin is: power, ground, or its BCM GPIO number."""
    if pin in POWER_3V3:
        return "3.3V"
    if pin in POWER_5V:
        return "5V"
    if pin in GROUND:
        return "GND"
    bcm = {v: k for k, v in BCM_TO_HEADER.items()}.get(pin)
    return f"GPIO{bcm}" if bcm is not None else {27: "ID_SD", 28: "ID_SC"}.get(pin, "")


def pin_xy(pin: int) -> tuple[int, int]:
    """The centre of a header pin: odd pins in the left column, even in the right, pin 1 at the top."""
    return HEADER_X + (0 if pin % 2 else PIN), HEADER_Y + ((pin - 1) // 2) * PIN


def mfrc522_wires() -> tuple[str, list[Wire]]:
    reader = ReaderConfig()
    sclk, mosi, miso = SPI_PINS[reader.spi_bus]
    ce = SPI_CE_PINS[reader.spi_bus][reader.spi_device]
    title = (f"MFRC522 on SPI{reader.spi_bus}, chip select CE{reader.spi_device}, reset on BCM {reader.reset_pin} "
             f"([reader] type = \"mfrc522\")")
    return title, [
        Wire("SDA", BCM_TO_HEADER[ce], f"BCM {ce} (CE{reader.spi_device})", COLORS["SDA"]),
        Wire("SCK", BCM_TO_HEADER[sclk], f"BCM {sclk} (SCLK)", COLORS["SCK"]),
        Wire("MOSI", BCM_TO_HEADER[mosi], f"BCM {mosi} (MOSI)", COLORS["MOSI"]),
        Wire("MISO", BCM_TO_HEADER[miso], f"BCM {miso} (MISO)", COLORS["MISO"]),
        Wire("IRQ", 0, "not connected", "#999999"),
        Wire("GND", 20, "GND", COLORS["GND"]),
        Wire("RST", BCM_TO_HEADER[reader.reset_pin], f"BCM {reader.reset_pin} (reset_pin)", COLORS["RST"]),
        Wire("3.3V", POWER_3V3[1], "3.3 V", COLORS["3V3"]),
    ]


def pn532_wires() -> tuple[str, list[Wire]]:
    reader = ReaderConfig()
    title = f"PN532 in HSU (UART) mode on {reader.port} at {reader.baudrate} baud ([reader] type = \"pn532\")"
    return title, [
        Wire("GND", 6, "GND", COLORS["GND"]),
        Wire("VCC", POWER_3V3[0], "3.3 V", COLORS["3V3"]),
        Wire("TXD", BCM_TO_HEADER[UART_RXD], f"BCM {UART_RXD} (RXD)", COLORS["TXD"]),
        Wire("RXD", BCM_TO_HEADER[UART_TXD], f"BCM {UART_TXD} (TXD)", COLORS["RXD"]),
    ]


def button_wires() -> tuple[str, list[Wire]]:
    pins = ButtonsConfig().pins()
    feedback = FeedbackConfig()
    wires = [Wire(name.upper(), BCM_TO_HEADER[pin], f"BCM {pin}", BUTTON_COLORS[name]) for name, pin in pins.items()]
    for name in ("buzzer", "led"):
        pin = feedback.pin(name)
        if pin is not None:
            wires.append(Wire(name.upper() if name == "led" else "buzzer", BCM_TO_HEADER[pin], f"BCM {pin}", "#555555"))
    return "The five arcade buttons ([buttons]), the buzzer and the LED ([feedback])", wires


def _text(x: float, y: float, text: str, *, size: int = 12, anchor: str = "start", weight: str = "normal",
          fill: str = "#222222") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}">{escape(text)}</text>')


def _header(used: Sequence[int]) -> list[str]:
    """The 40-pin header: every pin numbered and named, the used ones bold."""
    top_x, top_y = HEADER_X - PIN // 2 - 4, HEADER_Y - PIN // 2 - 4
    out = [f'<rect x="{top_x}" y="{top_y}" width="{2 * PIN + 8}" height="{20 * PIN + 8}" rx="4" fill="#2b2b2b"/>',
           _text(HEADER_X + PIN / 2, top_y - 8, "Pi header (pin 1 at the top)", size=11, anchor="middle")]
    for pin in range(1, 41):
        x, y = pin_xy(pin)
        label = header_label(pin)
        fill = {"3.3V": "#d62728", "5V": "#ff9896", "GND": "#111111"}.get(label, "#c9a227")
        shape = (f'<rect x="{x - 7}" y="{y - 7}" width="14" height="14" fill="{fill}" stroke="#eeeeee"/>' if pin == 1
                 else f'<circle cx="{x}" cy="{y}" r="7" fill="{fill}" stroke="#eeeeee"/>')
        out.append(shape)
        bold = "bold" if pin in used else "normal"
        shade = "#000000" if pin in used else "#888888"
        if pin % 2:
            out.append(_text(x - 14, y + 4, f"{label} {pin}", size=10, anchor="end", weight=bold, fill=shade))
        else:
            out.append(_text(x + 14, y + 4, f"{pin} {label}", size=10, weight=bold, fill=shade))
    return out


def drawing(title: str, part: str, wires: list[Wire], notes: Sequence[str], *, buttons: bool = False) -> str:
    """One SVG: the header on the left, the part (or the buttons) on the right, a wire for each pin.

    A wire leaves its pin into the gap below the pin's row (a left pin's higher in the gap than a
    right pin's, so two wires of one row never overlap), runs right between the rows' names to its
    own vertical lane, and on to the part's pin."""
    notes = [*notes, "Pins are the header's physical numbers; the config uses BCM numbers. "
                     "docs/wiring.md has the tables."]
    width, height = 760, HEADER_Y + 20 * PIN + 30 + 18 * len(notes)
    part_x = 560
    used = [w.header for w in wires if w.header]
    body: list[str] = []
    rings: list[str] = []
    row = PIN + 8
    first_y = HEADER_Y + (20 * PIN - len(wires) * row) // 2
    if not buttons:
        body.append(f'<rect x="{part_x}" y="{first_y - row}" width="150" height="{(len(wires) + 1) * row}" rx="6" '
                    f'fill="#1f5f3f" stroke="#0d3321"/>')
        body.append(_text(part_x + 75, first_y - row / 2 + 4, part, size=13, anchor="middle", weight="bold", fill="#ffffff"))
    for i, wire in enumerate(wires):
        y = first_y + i * row + row // 2
        if buttons:
            body.append(_button(part_x, y, wire))
        else:
            body.append(f'<circle cx="{part_x}" cy="{y}" r="5" fill="#d4d4d4" stroke="#555555"/>')
            body.append(_text(part_x + 12, y + 4, wire.part_pin, size=12, weight="bold", fill="#ffffff"))
        if not wire.header:
            body.append(_text(part_x - 12, y + 4, wire.label, size=11, anchor="end", fill="#888888"))
            continue
        hx, hy = pin_xy(wire.header)
        gap = hy + (9 if wire.header % 2 else 13)
        lane = HEADER_X + PIN + 110 + i * 14            # each wire its own vertical lane
        points = f"{hx},{hy} {hx},{gap} {lane},{gap} {lane},{y} {part_x},{y}"
        body.insert(0, f'<polyline points="{points}" fill="none" stroke="{wire.color}" stroke-width="2.5" '
                       f'stroke-linejoin="round"/>')
        rings.append(f'<circle cx="{hx}" cy="{hy}" r="8.5" fill="none" stroke="{wire.color}" stroke-width="3"/>')
        body.append(_text(part_x - 10, y - 5, f"pin {wire.header}: {wire.label}", size=10, anchor="end"))
    lines = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, sans-serif">',
             "<!-- Generated by docs/make_wiring.py from table/config.py's defaults; do not edit. -->",
             f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
             _text(20, 28, title, size=15, weight="bold"),
             *_header(used), *body, *rings,
             *(_text(20, HEADER_Y + 20 * PIN + 30 + 18 * i, note, size=11, fill="#444444") for i, note in enumerate(notes)),
             "</svg>"]
    return "\n".join(lines) + "\n"


def _button(x: int, y: int, wire: Wire) -> str:
    """A button (the buzzer, the LED): its GPIO wire comes in on the left, its other leg goes to GND."""
    return (f'<line x1="{x + 20}" y1="{y}" x2="{x + 150}" y2="{y}" stroke="{COLORS["GND"]}" stroke-width="2.5"/>'
            f'<circle cx="{x + 20}" cy="{y}" r="11" fill="{wire.color}" stroke="#333333" stroke-width="2"/>'
            + _text(x + 38, y - 5, wire.part_pin, size=12, weight="bold")
            + _text(x + 156, y + 4, "GND", size=10, weight="bold"))


def drawings() -> dict[str, str]:
    """File name under docs/ -> the SVG text."""
    mfrc_title, mfrc = mfrc522_wires()
    pn_title, pn = pn532_wires()
    buttons_title, buttons = button_wires()
    return {
        "wiring-mfrc522.svg": drawing(mfrc_title, "MFRC522", mfrc, [
            "Power from 3.3 V only: the chip's logic is not 5 V tolerant. SPI must be on (dtparam=spi=on)."]),
        "wiring-pn532.svg": drawing(pn_title, "PN532 (HSU)", pn, [
            "TXD and RXD cross: the module's TXD to the Pi's RXD. Set the module's switches to HSU;",
            "the serial console must be off (install-pi.sh does it)."]),
        "wiring-buttons.svg": drawing(buttons_title, "", buttons, [
            "Each button between its GPIO and any GND pin (the Pi's pull-up holds it high until pressed);",
            "the buzzer, and the LED through a 330 ohm resistor, from their GPIO to GND."], buttons=True),
    }


def main() -> int:
    for name, svg in drawings().items():
        (ROOT / "docs" / name).write_text(svg, encoding="utf-8")
        print(f"wrote docs/{name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
