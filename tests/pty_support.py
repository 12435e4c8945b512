"""A pseudo-terminal for the tests that stand a serial port in for a table
(tests/test_device_cli.py, tests/test_cli_bad_input.py)."""
from __future__ import annotations

import os
import tty

import pytest


def raw_pty() -> tuple[int, int]:
    """(master, slave) file descriptors, the slave raw as a serial port is; skips the test,
    with the reason, on a machine with no pseudo-terminals. The caller closes both."""
    try:
        master, slave = os.openpty()
    except OSError as error:
        pytest.skip(f"this machine has no pseudo-terminals ({error})")
    tty.setraw(slave)
    return master, slave
