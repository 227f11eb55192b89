"""The boot bench: an arm64 image of the box booted under QEMU, checked from power-on (run.sh)."""
