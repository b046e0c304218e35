#!/usr/bin/env bash
# study-array.sh - a topomap study as a Slurm job array: N array tasks run its N shards, and a
# job that depends on the whole array (afterok) merges them into the study's own files
# (docs/slurm.md "A study as a job array", docs/study.md "Shards").
#
#   examples/slurm/study-array.sh N DIR STUDY-OPTIONS...
#
# submits, from the current directory (relative paths in STUDY-OPTIONS stay valid):
#   sbatch --array=0-(N-1)         task K: topomap study STUDY-OPTIONS --shard K/N
#                                          --out DIR/shard-K.json --out DIR/shard-K.csv
#   sbatch --dependency=afterok:<array> --kill-on-invalid-dep=yes
#                                  topomap study merge DIR/shard-*.json
#                                          --out DIR/study.json --out DIR/study.csv
#                                          --report DIR/study.html
# and prints the two job ids: "ARRAY MERGE".  If a shard fails, the merge job is cancelled
# (DependencyNeverSatisfied); resubmit that task alone with
#   sbatch --array=K examples/slurm/study-array.sh --shard N DIR STUDY-OPTIONS...
# then the merge with  sbatch examples/slurm/study-array.sh --merge DIR.
# DIR must hold no shard files yet (a study per directory).  Each shard runs its scenarios in
# --cpus-per-task threads (SLURM_CPUS_PER_TASK, default 1).
#
# Environment: TOPOMAP (the topomap to run; default: topomap in PATH), SBATCH_ARGS (options of
# both sbatch calls, e.g. "--partition=long --time=4:00:00"), SHARD_SBATCH_ARGS (the array
# only, e.g. "--cpus-per-task=8 --mem=4G"); sbatch's SBATCH_* variables apply as usual.
set -euo pipefail
topomap=${TOPOMAP:-topomap}
usage() {
    echo "usage: $0 N DIR STUDY-OPTIONS...   (docs/slurm.md)" >&2
    exit 1
}

case "${1:-}" in
--shard) # inside array task K: shard K of N
    [ $# -ge 3 ] || usage
    n=$2 dir=$3
    shift 3
    k=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-0}))
    exec "$topomap" study "$@" --quiet --threads "${SLURM_CPUS_PER_TASK:-1}" --shard "$k/$n" \
        --out "$dir/shard-$k.json" --out "$dir/shard-$k.csv"
    ;;
--merge) # once every shard succeeded
    [ $# -eq 2 ] || usage
    exec "$topomap" study merge "$2"/shard-*.json --out "$2/study.json" --out "$2/study.csv" \
        --report "$2/study.html"
    ;;
esac

[ $# -ge 3 ] || usage
n=$1 dir=$2
shift 2
case "$n" in '' | *[!0-9]* | 0*) echo "$0: N must be a positive number, got '$n'" >&2; exit 1 ;; esac
for o in "$@"; do
    case "$o" in --out | --out=* | --shard | --shard=* | --report | --report=*)
        echo "$0: $o: the script names the shards' and the merge's files itself" >&2; exit 1 ;;
    esac
done
mkdir -p "$dir"
dir=$(cd "$dir" && pwd) # absolute: a job may start in another directory
if compgen -G "$dir/shard-*" >/dev/null; then
    echo "$0: $dir already holds shard files (another study?): give a new directory" >&2
    exit 1
fi
self=$(readlink -f "$0")
# shellcheck disable=SC2086  # the *SBATCH_ARGS are lists of options
array=$(sbatch --parsable --job-name=topomap-study --array="0-$((n - 1))" \
    --output="$dir/shard-%a.log" ${SBATCH_ARGS:-} ${SHARD_SBATCH_ARGS:-} \
    "$self" --shard "$n" "$dir" "$@")
array=${array%%;*} # --parsable prints "jobid[;cluster]"
# shellcheck disable=SC2086
merge=$(sbatch --parsable --job-name=topomap-merge --dependency="afterok:$array" \
    --kill-on-invalid-dep=yes --output="$dir/merge.log" ${SBATCH_ARGS:-} \
    "$self" --merge "$dir")
echo "$array ${merge%%;*}"
