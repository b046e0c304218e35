/*
 * hints.c - the option that cures an error, named in the error's line.
 *
 * The library's messages say what is wrong in the library's terms (it has
 * no options: "slot 1 does not exist on host 'a' (1 slot)", "64 tasks but
 * only 16 slots on 16 hosts").  When such an error comes from an option the
 * user did not give (--slots on a dump, which knows no core counts;
 * --node-name-map on a dump whose CAs are named by GUID; --alloc on a
 * network in parts; --root for Up/Down), cli_report adds the option:
 *
 *   topomap eval: r.rankfile:2: rank 1: slot 1 does not exist on host
 *   'sl390lin7' (1 slot); fix: --slots N gives every host N slots (...)
 *
 * A hint is chosen by a substring of the message, the command, and the
 * options given; it never repeats an option the message already names.
 * tests/cli/t12-missing-options.sh checks every entry against the real message.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Commands of an entry (CLI_* of cli.h; 0: every command). */
typedef struct hint {
    const char *has;   /* a substring of the message */
    unsigned cmds;
    const char *opt;   /* the option named ("--slots"), skipped if the message has it */
    const char *text;  /* the hint, naming opt */
} hint;

#define SLOTS_WHY "gives every host N slots (a topology without core counts, such as an " \
                  "ibnetdiscover dump, gives each host 1)"

static const hint hints[] = {
    {"does not exist on host", 0, "--slots", "--slots N " SLOTS_WHY},
    {"no free slot left on host", 0, "--slots", "--slots N " SLOTS_WHY},
    {"in the topology, the hostfile asks", 0, "--slots", "--slots N " SLOTS_WHY},
    {"more tasks than the", 0, "--slots", "--slots N " SLOTS_WHY},
    {"tasks but only", CLI_EVAL | CLI_MAP, "--slots", "--slots N " SLOTS_WHY},
    {"tasks but only", CLI_MAP, "--imbalance",
     "--imbalance EPS maps more tasks than slots (general process mapping: several tasks per "
     "slot, at most (1 + EPS) x the average weight each)"},
    {"has no slot", 0, "--slots", "--slots N " SLOTS_WHY},
    {"cannot be reached from host", CLI_EVAL | CLI_MAP, "--alloc",
     "--alloc A names hosts of one connected part"},
    {"in different connected parts", CLI_EVAL | CLI_MAP, "--alloc",
     "--alloc A names hosts of one connected part"},
    {"name the roots (tm_route_opts.roots)", 0, "--root",
     "--root S[,S2..] names the root switches of the Up/Down routing"},
};

/* The command of a report's name ("eval", "map", "topo export"...). */
static unsigned cmd_bit(const char *cmd)
{
    if (strcmp(cmd, "eval") == 0)
        return CLI_EVAL;
    if (strcmp(cmd, "map") == 0)
        return CLI_MAP;
    if (strcmp(cmd, "study") == 0)
        return CLI_STUDY;
    return CLI_TOPO;
}

/* Appends "; fix: TEXT" (or " or TEXT" after the first) to buf. */
static void add(char *buf, size_t size, const char *text)
{
    size_t len = strlen(buf);
    snprintf(buf + len, size - len, "%s%s", len ? "; or " : "; fix: ", text);
}

void cli_hints(const char *cmd, const char *msg, const cli_inputs *in, char *buf, size_t size)
{
    unsigned bit = cmd_bit(cmd);
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof hints / sizeof *hints; i++) {
        const hint *h = &hints[i];
        if ((h->cmds && !(h->cmds & bit)) || !strstr(msg, h->has) || strstr(msg, h->opt) ||
            strstr(buf, h->opt))
            continue;
        /* an --alloc that splits the network is not cured by another --alloc
         * hint; only the missing one is */
        if (strcmp(h->opt, "--alloc") == 0 && in && in->alloc)
            continue;
        if (strcmp(h->opt, "--imbalance") != 0 && in && in->hierarchy)
            continue; /* hierarchy mode: PEs, not slots, and no --alloc */
        add(buf, size, h->text);
    }
    /* A dump names a CA without a hostname H-<GUID>: the host the user
     * named is not found until a node-name map names them. */
    if (in && in->topology && !in->node_name_map && strstr(msg, "unknown host '") &&
        strstr(msg, "H-<GUID> (no hostname in the dump"))
        add(buf, size, "--node-name-map FILE names the dump's hosts (lines 'GUID \"hostname\"', "
                       "the map ibnetdiscover reads)");
}
