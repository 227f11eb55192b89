"""The one error wrapper of the command line: a failure that is not a bug is one line and exit 2.

Commands raise or return; they need no error handling of their own for bad files, paths, config
or closed pipes. A bug is one line on the terminal too, and its traceback always goes to the log
(``LogLines``: on stderr only where stderr is the journal, or under -v; else to the system log).
These lines are in the user's language (table/words/user.py); exit codes never change with it.
"""

from __future__ import annotations

import argparse
import errno
import logging
import logging.handlers
import os
import sys
from collections.abc import Callable

from engine.errors import MunchkinError
from table.storage.faults import database_trouble
from table.words.i18n import N_
from table.words.user import _

log = logging.getLogger("table.cli")

OS_ADVICE = {
    errno.EACCES: N_("check its permissions, or run as the user that owns it"),
    errno.EPERM: N_("check its permissions, or run as the user that owns it"),
    errno.EROFS: N_("the file system is read-only; name a place that can be written"),
    errno.ENOSPC: N_("make room and try again"),
    errno.ENOENT: N_("check the path"),
    errno.ENOTDIR: N_("a part of the path is a file, not a folder"),
    errno.EISDIR: N_("name a file, not a folder"),
}
# The system's own words for the failures a person meets most, in the user's language (strerror is English).
OS_REASONS = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.EROFS: N_("Read-only file system"),
    errno.ENOSPC: N_("No space left on device"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.EISDIR: N_("Is a directory"),
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


def os_reason(exc: OSError) -> str:
    """Why a file-system call failed, in the user's language where we know the words."""
    reason = OS_REASONS.get(exc.errno or 0)
    return _(reason) if reason else exc.strerror or str(exc)


def describe_os_error(exc: OSError) -> str:
    """One line for a file-system failure: which path, why, and what to do."""
    why = os_reason(exc)
    advice = OS_ADVICE.get(exc.errno or 0)
    line = _("cannot use {path}: {reason}").format(path=exc.filename, reason=why) if exc.filename else why
    return line + (f"; {_(advice)}" if advice else "")


class LogLines(logging.Formatter):
    """The log's lines on stderr: a traceback only where stderr is the journal, or under -v.

    On a terminal a bug stays one line (``run_command`` says it); where systemd hands stderr to the
    journal (``JOURNAL_STREAM`` names it), the journal gets the whole traceback.
    """

    def __init__(self, fmt: str, *, tracebacks: bool) -> None:
        super().__init__(fmt)
        self.tracebacks = tracebacks

    def format(self, record: logging.LogRecord) -> str:
        if self.tracebacks or not record.exc_info:
            return super().format(record)
        bare = logging.makeLogRecord({**record.__dict__, "exc_info": None, "exc_text": None})
        return super().format(bare)


def _for_the_terminal(record: logging.LogRecord) -> bool:
    """A record meant only for the log (``extra={"terminal": False}``: a bug's, whose one line
    ``run_command`` says itself) stays off a terminal's stderr."""
    return bool(getattr(record, "terminal", True))


def stderr_is_the_journal() -> bool:
    """Whether systemd connected our stderr to the journal (systemd.exec(5): ``JOURNAL_STREAM=dev:inode``)."""
    try:
        device, inode = (int(part) for part in os.environ.get("JOURNAL_STREAM", "").split(":"))
        info = os.fstat(sys.stderr.fileno())
    except (ValueError, OSError, AttributeError):
        return False
    return (info.st_dev, info.st_ino) == (device, inode)


def log_handlers(*, verbose: bool) -> list[logging.Handler]:
    """Where the log goes: stderr (``LogLines``) and, where stderr is not the journal, the system
    log's socket for the tracebacks of bugs (``/dev/log``, the journal on a Pi), if there is one.
    On a terminal a bug's record stays off stderr: its one line is ``run_command``'s."""
    fmt = "%(asctime)s %(levelname)s %(name)s: %(message)s"
    journal = stderr_is_the_journal()
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setFormatter(LogLines(fmt, tracebacks=verbose or journal))
    if not (verbose or journal):
        stderr.addFilter(_for_the_terminal)     # the terminal keeps its one line
    handlers: list[logging.Handler] = [stderr]
    if not journal and not verbose and os.path.exists("/dev/log"):
        try:
            syslog = logging.handlers.SysLogHandler(address="/dev/log")
        except OSError:
            return handlers
        syslog.setLevel(logging.ERROR)
        syslog.setFormatter(logging.Formatter("munchkin-table: %(levelname)s %(name)s: %(message)s"))
        handlers.append(syslog)
    return handlers


def run_command(func: Callable[[argparse.Namespace], int | None], args: argparse.Namespace) -> int:
    """Run one subcommand; every failure that is not a bug becomes one line on stderr and exit 2.

    A bug is one line too, exit 1; its traceback goes to the log at ERROR (``log_handlers``).
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
        log.error("unexpected error in '%s'", getattr(args, "command", "?"), exc_info=True,
                  extra={"terminal": False})        # the log keeps the traceback; the terminal gets the line below
        _say(_("unexpected error ({error}); run it again with -v for the details").format(
            error=f"{type(exc).__name__}: {exc}"))
        return 1
