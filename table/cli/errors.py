"""The one error wrapper of the command line: a failure that is not a bug is one line and exit 2.

Commands raise or return; they need no error handling of their own for bad files, paths, config
or closed pipes.
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import sys
from collections.abc import Callable

from engine.errors import MunchkinError
from table.storage.faults import database_trouble

log = logging.getLogger("table.cli")

OS_ADVICE = {
    errno.EACCES: "check its permissions, or run as the user that owns it",
    errno.EPERM: "check its permissions, or run as the user that owns it",
    errno.EROFS: "the file system is read-only; name a place that can be written",
    errno.ENOSPC: "make room and try again",
    errno.ENOENT: "check the path",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.EISDIR: "name a file, not a folder",
}


def _say(text: str) -> None:
    """``text`` on stderr, each of its lines (one per problem) starting with the program's name."""
    try:
        print("\n".join(f"munchkin-table: {line}" for line in text.split("\n")), file=sys.stderr)
    except (OSError, ValueError):       # stderr itself is closed: nothing more to say
        pass


def quiet_stdout() -> None:
    """After the reader of our stdout went away (``state | head -3``): let the exit flush go nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def describe_os_error(exc: OSError) -> str:
    """One line for a file-system failure: which path, why, and what to do."""
    why = exc.strerror or str(exc)
    advice = OS_ADVICE.get(exc.errno or 0)
    where = f"cannot use {exc.filename}: " if exc.filename else ""
    return f"{where}{why}" + (f"; {advice}" if advice else "")


def run_command(func: Callable[[argparse.Namespace], int | None], args: argparse.Namespace) -> int:
    """Run one subcommand; every failure that is not a bug becomes one line on stderr and exit 2.

    A bug is one line too (with the traceback under -v), exit 1.
    """
    try:
        code = int(func(args) or 0)
        sys.stdout.flush()                  # a full disk or a closed pipe is answered here, not at exit
        return code
    except BrokenPipeError:
        quiet_stdout()
        return 0
    except MunchkinError as exc:
        _say(str(exc))
        return 2
    except OSError as exc:
        _say(describe_os_error(exc))
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug: still one line, the traceback only when asked for

        trouble = database_trouble(exc)         # SQLite's own error, not a bug of ours
        if trouble is not None:
            _say(trouble)
            return 2
        log.debug("unexpected error", exc_info=True)
        _say(f"unexpected error ({type(exc).__name__}: {exc}); run it again with -v for the details")
        return 1
