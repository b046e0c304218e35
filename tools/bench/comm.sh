# comm.sh - sourced by the bench scripts, with OUT set: builds
# tools/bench/gen_comm.c into $OUT and defines
#     comm NAME SPEC P [SEED]
# which writes $OUT/NAME.edges once (SPEC, P and the relabelling SEED as in
# gen_comm's usage).
cc -O2 -std=c11 -D_GNU_SOURCE -o "$OUT/gen_comm" tools/bench/gen_comm.c -lmetis -lm

comm() {
    [ -s "$OUT/$1.edges" ] || "$OUT/gen_comm" "$2" "$3" "$OUT/$1.edges" ${4:-}
}
