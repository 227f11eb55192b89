"""Emulated reader chips for tests, benchmarks and working without the hardware.

They speak the chips' real wire protocols, so the real drivers (and the real
``serial`` and ``mfrc522`` libraries under them) run unmodified against them.
"""
