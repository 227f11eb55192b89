"""Hardware drivers: readers, buttons and feedback, each with a simulated twin.

Drivers turn hardware into :mod:`drivers.events` on one thread-safe queue.
They import neither ``engine`` nor ``table``.
"""
