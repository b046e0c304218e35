#!/usr/bin/env bash
# topomap-array.sh - a topomap study, workload eval or as-recorded workload replay as a Slurm
# job array: N array tasks run its N shards, and a job that depends on the whole array
# (afterok) merges them into the command's own files (docs/slurm.md "Shards as a job array",
# docs/study.md and docs/workload.md "Shards").  study-array.sh is this script (a link): the
# command is then study unless one is named.
#
#   examples/slurm/topomap-array.sh N DIR [study | workload eval | workload replay] OPTIONS...
#
# submits, from the current directory (relative paths in OPTIONS stay valid):
#   sbatch --array=0-(N-1)         task K: topomap COMMAND OPTIONS --shard K/N
#                                          --out DIR/shard-K.json --out DIR/shard-K.csv
#   sbatch --dependency=afterok:<array> --kill-on-invalid-dep=yes
#                                  topomap study merge | workload merge DIR/shard-*.json
#                                          --out DIR/NAME.json --out DIR/NAME.csv
#                                          [--report DIR/NAME.html]
# (NAME: study, eval or replay; a page for study and replay) and prints the two job ids:
# "ARRAY MERGE".  If a shard fails, the merge job is cancelled (DependencyNeverSatisfied);
# resubmit that task alone with
#   sbatch --array=K examples/slurm/topomap-array.sh --shard N DIR COMMAND OPTIONS...
# then the merge with  sbatch examples/slurm/topomap-array.sh --merge DIR COMMAND.
# DIR must hold no shard files yet (one run per directory).  Each shard runs in
# --cpus-per-task threads (SLURM_CPUS_PER_TASK, default 1).  A replay is sharded with
# --policy as-recorded only (topomap refuses the others).
#
# Environment: TOPOMAP (the topomap to run; default: topomap in PATH), SBATCH_ARGS (options of
# both sbatch calls, e.g. "--partition=long --time=4:00:00"), SHARD_SBATCH_ARGS (the array
# only, e.g. "--cpus-per-task=8 --mem=4G"); sbatch's SBATCH_* variables apply as usual.
set -euo pipefail
topomap=${TOPOMAP:-topomap}
usage() {
    echo "usage: $0 N DIR [study | workload eval | workload replay] OPTIONS...   (docs/slurm.md)" >&2
    exit 1
}

# pick_command WORDS...: sets cmd (the command's words), name (the merged files' name) and used
# (how many words named it: 0 for the default, study)
pick_command() {
    case "${1:-}" in
    study) cmd=(study) name=study used=1 ;;
    workload)
        case "${2:-}" in
        eval) cmd=(workload eval) name=eval ;;
        replay) cmd=(workload replay) name=replay ;;
        *) echo "$0: workload ${2:-}: give 'workload eval' or 'workload replay'" >&2; exit 1 ;;
        esac
        used=2 ;;
    *) cmd=(study) name=study used=0 ;;
    esac
}

case "${1:-}" in
--shard) # inside array task K: shard K of N
    [ $# -ge 3 ] || usage
    n=$2 dir=$3
    shift 3
    pick_command "$@"
    shift "$used"
    k=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-0}))
    extra=()
    [ "$name" = study ] && extra=(--quiet)
    exec "$topomap" "${cmd[@]}" "$@" "${extra[@]}" --threads "${SLURM_CPUS_PER_TASK:-1}" \
        --shard "$k/$n" --out "$dir/shard-$k.json" --out "$dir/shard-$k.csv"
    ;;
--merge) # once every shard succeeded
    [ $# -ge 2 ] || usage
    dir=$2
    shift 2
    pick_command "$@"
    [ $# -eq "$used" ] || usage
    report=()
    [ "$name" = eval ] || report=(--report "$dir/$name.html")
    merger=(study merge)
    [ "$name" = study ] || merger=(workload merge)
    exec "$topomap" "${merger[@]}" "$dir"/shard-*.json --out "$dir/$name.json" \
        --out "$dir/$name.csv" "${report[@]}"
    ;;
esac

[ $# -ge 3 ] || usage
n=$1 dir=$2
shift 2
pick_command "$@"
words=("${cmd[@]:0:$used}")
shift "$used"
case "$n" in '' | *[!0-9]* | 0*) echo "$0: N must be a positive number, got '$n'" >&2; exit 1 ;; esac
for o in "$@"; do
    case "$o" in --out | --out=* | --shard | --shard=* | --report | --report=*)
        echo "$0: $o: the script names the shards' and the merge's files itself" >&2; exit 1 ;;
    esac
done
mkdir -p "$dir"
dir=$(cd "$dir" && pwd) # absolute: a job may start in another directory
if compgen -G "$dir/shard-*" >/dev/null; then
    echo "$0: $dir already holds shard files (another run?): give a new directory" >&2
    exit 1
fi
self=$(readlink -f "$0")
# shellcheck disable=SC2086  # the *SBATCH_ARGS are lists of options
array=$(sbatch --parsable --job-name="topomap-$name" --array="0-$((n - 1))" \
    --output="$dir/shard-%a.log" ${SBATCH_ARGS:-} ${SHARD_SBATCH_ARGS:-} \
    "$self" --shard "$n" "$dir" "${words[@]}" "$@")
array=${array%%;*} # --parsable prints "jobid[;cluster]"
# shellcheck disable=SC2086
merge=$(sbatch --parsable --job-name=topomap-merge --dependency="afterok:$array" \
    --kill-on-invalid-dep=yes --output="$dir/merge.log" ${SBATCH_ARGS:-} \
    "$self" --merge "$dir" "${words[@]}")
echo "$array ${merge%%;*}"
