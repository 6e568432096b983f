"""Which files an ingest reads, and reading one only if it is what it claims to be.

A path is read only when it is a regular file: a named pipe would block
ingest forever, a device would stream without end. A symbolic link is read
only when it resolves inside the tree being ingested (the directory walked,
or the directory of a file named on its own), unless the caller explicitly
follows symlinks: ``docs/notes.txt -> /etc/passwd`` is refused, not stored.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from pincite.errors import ParseError
from pincite.ingest.limits import ParseLimits, size

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to ingest and the tree it was found in (its symlinks must stay inside)."""

    path: Path
    root: Path


def source_files(paths: Sequence[Path], suffixes: frozenset[str]) -> Iterator[SourceFile]:
    """Files as given, and every visible file with a supported suffix under each directory.

    Directories are walked in a stable order without entering symlinked
    directories (no loops, no escaping the tree). Everything with a supported
    suffix is listed, pipes and links included, so that a refusal is reported
    rather than the file silently skipped.
    """
    for path in paths:
        if path.is_dir():
            root = path.resolve()
            for folder, dirs, names in os.walk(path):
                dirs.sort()
                for name in sorted(names):
                    visible = not name.startswith(".")
                    if visible and Path(name).suffix.lower() in suffixes:
                        yield SourceFile(Path(folder) / name, root)
        else:
            yield SourceFile(path, path.absolute().parent.resolve())


def read_source(
    path: Path, limits: ParseLimits, *, root: Path | None = None, follow_symlinks: bool = False
) -> bytes:
    """The bytes of ``path``; ParseError for anything but a regular file inside ``root``."""
    source = str(path)
    try:
        linked = os.path.islink(path)
        target = path.resolve() if linked else path
        if linked and not follow_symlinks:
            tree = root if root is not None else path.absolute().parent.resolve()
            if not target.is_relative_to(tree):
                raise ParseError(
                    source,
                    f"a symbolic link to {target}, outside {tree}; refused "
                    "(--follow-symlinks ingests it)",
                )
        _require_regular(source, os.stat(target).st_mode)
        # O_NONBLOCK: a pipe swapped in after the check cannot block the open.
        # O_NOFOLLOW: nor can a link swapped in for the checked file.
        flags = _OPEN_FLAGS | (0 if follow_symlinks else _NOFOLLOW)
        fd = os.open(target, flags)
    except OSError as exc:
        raise ParseError(source, f"cannot read file ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        _require_regular(source, info.st_mode)
        if info.st_size > limits.max_file_bytes:
            raise ParseError(
                source,
                f"the file is {size(info.st_size)}; the limit is {size(limits.max_file_bytes)}",
            )
        try:
            data = file.read(limits.max_file_bytes + 1)
        except OSError as exc:
            raise ParseError(source, f"cannot read file ({exc.strerror or exc})") from None
    if len(data) > limits.max_file_bytes:  # it grew while being read
        raise ParseError(source, f"the file is over {size(limits.max_file_bytes)}")
    return data


def _require_regular(source: str, mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    raise ParseError(source, f"{kind}, not a regular file; only regular files are ingested")
