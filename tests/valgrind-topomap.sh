#!/usr/bin/env bash
# valgrind-topomap.sh - stands in for the topomap binary in the CLI tests
# during `make valgrind`: runs $TOPOMAP_REAL under memcheck with one log
# file per run in $VG_LOGS (the Makefile fails on any log without
# "ERROR SUMMARY: 0 errors"; --error-exitcode also makes the run fail).
# Definite leaks count as errors; igraph's and libxml2's still-reachable
# one-time allocations do not.
exec valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --show-leak-kinds=definite --track-origins=yes --log-file="${VG_LOGS:?}/vg.%p" \
    "${TOPOMAP_REAL:?}" "$@"
