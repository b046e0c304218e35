"""Loading libtopomap.so and calling it: contexts, errors, warnings, files.

Which library: $TOPOMAP_LIBRARY if set (a path), else the installed
libtopomap.so.0 / libtopomap.so that the dynamic loader finds (make
install, a Debian package, LD_LIBRARY_PATH), else the in-tree
build/libtopomap.so of the checkout this module was installed from
(recorded by setup.py in _paths.py).  cffi's ABI mode releases the GIL
during every call into the library, so other Python threads run while a
mapping or an evaluation is computed.  The declarations cffi needs come
from the library's headers (_cdefgen.py): CONSTANTS holds their
floating-point and string macros, which cffi's ABI mode does not read.
"""
import os
import warnings

import cffi

from . import _cdefgen

try:  # made from the headers when the package was built (setup.py)
    from ._cdef import CDEF, CONSTANTS
except ImportError:  # a checkout imported without installing: made now from its headers
    CDEF, CONSTANTS = _cdefgen.generate()[:2]

# libc, for the FILE streams the readers and writers take
LIBC_CDEF = r"""
int fclose(FILE *stream);
FILE *fmemopen(void *buf, size_t size, const char *mode);
void free(void *p);
"""

ffi = cffi.FFI()
ffi.cdef(_cdefgen.FILE_CDEF)
ffi.cdef(CDEF)
ffi.cdef(LIBC_CDEF)


def _candidates():
    env = os.environ.get("TOPOMAP_LIBRARY")
    if env:
        return [env], True
    names = ["libtopomap.so.0", "libtopomap.so"]
    try:
        from . import _paths
        if _paths.INTREE_LIBRARY:
            names.append(_paths.INTREE_LIBRARY)
    except ImportError:
        pass
    return names, False


def _load():
    names, forced = _candidates()
    errors = []
    for name in names:
        try:
            return ffi.dlopen(name), name
        except OSError as e:
            errors.append("%s: %s" % (name, e))
    hint = ("" if forced else
            "; build it with `make` in the topomap tree, install it with `make install`, "
            "or set TOPOMAP_LIBRARY to its path")
    raise ImportError("topomap: cannot load libtopomap (%s)%s" % ("; ".join(errors), hint))


lib, LIBRARY_PATH = _load()
libc = ffi.dlopen(None)


# ---- errors -----------------------------------------------------------------

class TopomapError(Exception):
    """An error of libtopomap: `code` (tm_err value), `name` ("INPUT", ...),
    `exit_code` (the CLI's exit code for it, docs/errors.md) and `message`
    (the library's message, e.g. "file:line: what is wrong")."""

    name = "ERROR"

    def __init__(self, code, message):
        self.code = int(code)
        self.exit_code = int(lib.tm_err_exit_code(code))
        self.message = message
        super().__init__(message)


class UsageError(TopomapError, ValueError):
    """TM_EUSAGE: an invalid argument (unknown strategy, bad spec, ...)."""
    name = "USAGE"


class InputError(TopomapError, ValueError):
    """TM_EINPUT: malformed input ("file:line: ..."), unreachable hosts."""
    name = "INPUT"


class FileError(TopomapError):
    """TM_EIO: a file cannot be read or written."""
    name = "IO"


class InfeasibleError(TopomapError):
    """TM_EINFEASIBLE: the request cannot be met (more tasks than slots)."""
    name = "INFEASIBLE"


class OutOfMemoryError(TopomapError, MemoryError):
    """TM_ENOMEM."""
    name = "NOMEM"


class InternalError(TopomapError):
    """TM_EINTERNAL."""
    name = "INTERNAL"


_ERRORS = {lib.TM_EUSAGE: UsageError, lib.TM_EINPUT: InputError, lib.TM_EIO: FileError,
           lib.TM_EINFEASIBLE: InfeasibleError, lib.TM_ENOMEM: OutOfMemoryError,
           lib.TM_EINTERNAL: InternalError}


class TopomapWarning(UserWarning):
    """A warning the library logged (e.g. a link the dump lists twice)."""


def _string(p):
    return ffi.string(p).decode("utf-8", "replace") if p != ffi.NULL else None


def enc(s):
    """str or os.PathLike -> bytes for a const char * argument (None -> NULL)."""
    if s is None:
        return ffi.NULL
    if isinstance(s, bytes):
        return s
    return os.fsencode(s) if isinstance(s, os.PathLike) else str(s).encode("utf-8")


@ffi.callback("void(void *, tm_log_level, const char *)")
def _log_cb(userdata, level, msg):
    # may run in a library thread: only append (under the GIL cffi takes)
    ffi.from_handle(userdata).append(_string(msg))


class Context:
    """One tm_ctx per library call (contexts are not shared between
    threads): the seed, the thread count, the time limit; warnings are
    collected and re-issued as TopomapWarning when the call returns."""

    def __init__(self, seed=None, threads=None, time_limit=None, effort=None):
        p = ffi.new("tm_ctx **")
        if lib.tm_ctx_new(p) != lib.TM_EOK:
            raise MemoryError("topomap: cannot create a context")
        self.ptr = ffi.gc(p[0], lib.tm_ctx_free)
        # the handle holds the list, not self: no reference cycle, so the
        # tm_ctx (and its METIS worker processes) goes when the call's
        # last reference does, not at the next garbage collection
        self._log = []
        self._handle = ffi.new_handle(self._log)
        lib.tm_ctx_set_log(self.ptr, _log_cb, self._handle)
        if seed is not None:
            if not 0 <= int(seed) < 2 ** 64:
                raise UsageError(lib.TM_EUSAGE, "seed %r outside [0, 2^64)" % (seed,))
            lib.tm_ctx_set_seed(self.ptr, int(seed))
        if threads is not None:
            self.check(lib.tm_ctx_set_threads(self.ptr, int(threads)))
        if time_limit is not None:
            self.check(lib.tm_ctx_set_time_limit(self.ptr, float(time_limit)))
        if effort is not None:
            self.check(lib.tm_ctx_set_effort(self.ptr, int(effort)))

    def check(self, err):
        """Raises the exception of err (with the context's message)."""
        self.flush_warnings()
        if err != lib.TM_EOK:
            msg = _string(lib.tm_ctx_errmsg(self.ptr)) or _string(lib.tm_err_str(err))
            raise _ERRORS.get(err, TopomapError)(err, msg)

    def flush_warnings(self):
        log = list(self._log)
        del self._log[:]
        for m in log:
            warnings.warn(m, TopomapWarning, stacklevel=4)


def cstr(s):
    """A char[] for a struct field (the caller keeps it alive); NULL for None."""
    return ffi.NULL if s is None else ffi.new("char[]", enc(s))


class InputFile:
    """A FILE * opened by the library (tm_open_input: errors name the path)."""

    def __init__(self, ctx, path):
        self.ctx, self.path = ctx, os.fspath(path)
        self.fp = ffi.new("FILE **")
        ctx.check(lib.tm_open_input(ctx.ptr, enc(self.path), self.fp))

    def __enter__(self):
        return self.fp[0]

    def __exit__(self, *exc):
        libc.fclose(self.fp[0])
        return False


class OutputFile:
    """An atomic output file (tm_ofile: temporary file + rename on success,
    nothing left behind on failure; "-" is stdout)."""

    def __init__(self, ctx, path):
        self.ctx = ctx
        self.of = ffi.new("tm_ofile *")
        ctx.check(lib.tm_ofile_open(ctx.ptr, enc(os.fspath(path)), self.of))

    def __enter__(self):
        return self.of.fp

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            lib.tm_ofile_abort(self.of)
            return False
        self.ctx.check(lib.tm_ofile_commit(self.ctx.ptr, self.of))
        return False


def string(p):
    return _string(p)
