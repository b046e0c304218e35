# direct-python.sh - sourced by the test runners (tests/run-stages.sh, tests/cli/run.sh).
#
#   tm_direct_python DIR   links DIR/python3 to the interpreter `python3` resolves to and
#                          puts DIR first in PATH (exported)
#
# Why: where python3 is a version manager's shim (pyenv: a chain of bash scripts that
# costs about 0.3 s of CPU before Python starts), the tests, which start python3 over a
# thousand times per CLI pass, spent minutes of `make test` in the shim alone.  The link
# runs the same interpreter with the same packages (Python finds its prefix through the
# link); nothing changes where python3 already is the interpreter.
tm_direct_python() {
    local py
    py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || return 0
    [ -n "$py" ] && [ -x "$py" ] || return 0
    [ "$(command -v python3)" != "$py" ] || return 0
    mkdir -p "$1" && ln -sfn "$py" "$1/python3" || return 0
    PATH=$1:$PATH
    export PATH
}
