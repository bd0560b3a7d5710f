"""Files written whole or not at all: every file the package writes goes through here.

`atomic_write(path)` gives a file to write; the data goes to a temporary file in the
same folder, which is flushed, fsync'ed and renamed over `path` only when the block
ends without an exception (then the folder is fsync'ed, so the rename survives a power
cut). A failure (a full disk, EFBIG, Ctrl-C, a bad record half way) removes the
temporary file and leaves `path` as it was: absent, or its old content. This is
SQLite's rule for its journal: a reader sees the old file or the new one, never half.

`LineAppender(path)` adds whole lines to a file of lines (JSON lines): each `append`
is one write of whole lines in O_APPEND mode, and one that fails part way is cut back
to where it started; closing fsyncs once. Before the first append it checks the file's tail: a file that
ends in a partial line (a write that a crash cut short) is refused, since the next line
would be glued to it and both lost to a reader.

Messages name the path actually written; a folder where a file is expected is refused.
"""
from __future__ import annotations

import errno
import io
import os
import stat
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

__all__ = ["atomic_write", "write_file", "LineAppender", "TornTailError", "target_path"]


class TornTailError(ValueError):
    """A file of lines that ends in a partial line: appending would glue a line to it."""


def target_path(path: str | os.PathLike, what: str = "file") -> Path:
    """`path` as a Path, checked to be writable as a file: not a folder, in a folder that
    exists; a symbolic link gives the file it points to. OSError (IsADirectoryError,
    FileNotFoundError) naming the path otherwise."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    path = Path(path)
    if path.is_symlink():  # write where the link points: a rename over it would replace the link
        path = Path(os.path.realpath(path))
    if path.is_dir():
        raise IsADirectoryError(f"{path} is a folder; expected the name of the {what} to write")
    folder = path.parent
    if not folder.is_dir():
        raise FileNotFoundError(f"cannot write {path}: folder {folder} does not exist")
    return path


def _fsync_folder(folder: Path) -> None:
    """Makes a rename in `folder` durable. Some file systems cannot fsync a folder: the
    rename is then as durable as they make it."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(fd)


def _create_temp(path: Path) -> tuple[Path, int]:
    """A new temporary file beside `path` (hidden, ".part"), created with O_EXCL and the
    usual permissions (0o666 less the umask, as open() gives, not mkstemp's 0o600)."""
    while True:
        temp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:12]}.part")
        try:
            return temp, os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
        except FileExistsError:
            continue


@contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w", *, encoding: str | None = "utf-8",
                 newline: str | None = "\n", what: str = "file") -> Iterator[IO]:
    """`with atomic_write(path) as out: out.write(...)`: `path` gets the whole content
    or keeps what it had (module docstring). mode "w" (text, `encoding`, `newline`) or
    "wb". An existing file keeps its permission bits."""
    if mode not in ("w", "wb"):
        raise ValueError(f"mode must be 'w' or 'wb', got {mode!r}")
    path = target_path(path, what)
    temp, fd = _create_temp(path)
    try:
        try:
            os.chmod(temp, stat.S_IMODE(os.stat(path).st_mode))
        except FileNotFoundError:
            pass
        raw = os.fdopen(fd, "wb")
    except BaseException:
        os.close(fd)
        os.unlink(temp)
        raise
    out: IO = raw if mode == "wb" else io.TextIOWrapper(raw, encoding=encoding, newline=newline)
    try:
        yield out
        out.flush()
        os.fsync(raw.fileno())
        out.close()
        os.replace(temp, path)
    except BaseException:
        try:
            out.close()  # flushing again can fail the same way: the file goes anyway
        except OSError:
            pass
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass
        raise
    _fsync_folder(path.parent)


def write_file(path: str | os.PathLike, data: str | bytes, *, what: str = "file") -> Path:
    """Writes `data` (str as UTF-8) to `path` whole or not at all; returns the path
    written (a link's target)."""
    path = target_path(path, what)
    with atomic_write(path, "wb", what=what) as out:
        out.write(data.encode("utf-8") if isinstance(data, str) else data)
    return path


class LineAppender:
    """Appends whole lines to `path` (created if absent): `append(text)` writes text
    that ends in a newline in one O_APPEND write, and cuts the file back to its size
    before the call if the write fails part way. `rollback()` cuts it back to its size
    at opening (an append of several records that failed half way). Refuses, with
    TornTailError, a file whose last line has no newline (module docstring)."""

    def __init__(self, path: str | os.PathLike, what: str = "file of lines"):
        self.path = target_path(path, what)
        flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
        try:  # created here: a failed first append removes it again
            self._fd, self._created = os.open(self.path, flags | os.O_CREAT | os.O_EXCL, 0o666), True
        except FileExistsError:
            self._fd, self._created = os.open(self.path, flags), False
        try:
            self.start = os.fstat(self._fd).st_size
            self._check_tail()
        except BaseException:
            os.close(self._fd)
            raise

    def _check_tail(self) -> None:
        if self.start == 0:
            return
        with open(self.path, "rb") as handle:
            handle.seek(self.start - 1)
            if handle.read(1) == b"\n":
                return
            # Where the partial line starts, and its number, for the message.
            handle.seek(0)
            lines, offset, last = 0, 0, 0
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                at = chunk.rfind(b"\n")
                if at >= 0:
                    last = offset + at + 1
                lines += chunk.count(b"\n")
                offset += len(chunk)
        raise TornTailError(
            f"{self.path}: line {lines + 1} (from byte {last}) has no newline at its end: a write that did not "
            f"finish (a full disk, a crash), or a line written by hand. Appending would glue the next line to it. "
            f"Remove the partial line (truncate -s {last} {self.path}) or end it with a newline, then append again")

    def append(self, text: str) -> None:
        if not text.endswith("\n"):
            raise ValueError("an append is whole lines: text must end with a newline")
        data = memoryview(text.encode("utf-8"))
        before = os.fstat(self._fd).st_size
        try:
            while data:
                written = os.write(self._fd, data)
                data = data[written:]
        except BaseException:
            if before == 0 and self._created:
                self.rollback()
            else:
                self._cut(before)
            raise

    def _cut(self, size: int) -> None:
        # Shrinking is allowed under any RLIMIT_FSIZE and on a full disk.
        try:
            os.ftruncate(self._fd, size)
            os.fsync(self._fd)
        except OSError:
            pass  # the reader reports the torn tail, and the next append refuses it

    def rollback(self) -> None:
        """Cuts the file back to its size when it was opened (removes it if it was
        created here)."""
        self._cut(self.start)
        if self._created:
            try:
                os.unlink(self.path)
            except OSError:
                pass

    def close(self) -> None:
        """Makes the appended lines durable (one fsync, not one a line) and closes."""
        if self._fd >= 0:
            fd, self._fd = self._fd, -1
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    def __enter__(self) -> "LineAppender":
        return self

    def __exit__(self, kind, exc, tb) -> None:
        try:
            if kind is not None:
                self.rollback()
        finally:
            self.close()
