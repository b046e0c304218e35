/* registry.c - the table of mapping strategies and refinements: CLI names,
 * help texts, which modes they serve and whether `--strategy all` runs them. */
#include <string.h>

#include "topomap/map.h"
#include "../mapping/strategies.h"
#include "../util/util.h"

static const tm_strategy strategies[] = {
    {"identity", "consecutive placement in allocation order (the batch-system default)",
     TM_MODE_NETWORK | TM_MODE_HIERARCHY, true, tm__strategy_identity},
    {"mm", "Müller-Merbach greedy construction", TM_MODE_HIERARCHY, true, tm__strategy_mm},
    {"allc", "GreedyAllC: greedy, PE chosen by volume-weighted distance", TM_MODE_HIERARCHY, true, tm__strategy_allc},
    {"topdown", "multisection along the hierarchy, or along the network's groups (leaf switches, pods, coordinate bisection of tori); in hierarchy mode with tasks > PEs: general mapping with an imbalance", TM_MODE_NETWORK | TM_MODE_HIERARCHY, true, tm__strategy_topdown},
    {"topdown-ms", "multi-start: several (topdown multisection + ils:10), best J kept", TM_MODE_NETWORK | TM_MODE_HIERARCHY, false, tm__strategy_topdown_ms},
    {"topdown-c", "general mapping of huge task graphs: contract (Ponnusamy SeC) to ~8 tasks per PE, topdown, expand", TM_MODE_HIERARCHY, false, tm__strategy_topdown_contract},
    {"bottomup", "partition into a1-blocks, contract, repeat up the hierarchy", TM_MODE_HIERARCHY, true, tm__strategy_bottomup},
    {"random", "random placement (baseline; balanced when tasks > PEs)", TM_MODE_HIERARCHY, false, tm__strategy_random},
    {"grow", "greedy growth matching neighbourhoods: J to placed partners, then common-neighbour structure (rebuilds grids)", TM_MODE_NETWORK, true, tm__strategy_grow},
    {"skeleton", "grow on the job's heavy edges (at least 10 % of a task's heaviest: faces without edge and corner neighbours or collectives), refined on the whole job; grow when the job has no lighter classes", TM_MODE_NETWORK, true, tm__strategy_skeleton},
    {"greedy", "heaviest tasks to the closest free hosts", TM_MODE_NETWORK, true, tm__strategy_greedy},
    {"recursive", "METIS bisection of tasks and hosts", TM_MODE_NETWORK, true, tm__strategy_recursive},
    {"rcm", "reverse Cuthill-McKee orders matched", TM_MODE_NETWORK, true, tm__strategy_rcm},
    {NULL, NULL, 0, false, NULL},
};

static const tm_refiner refiners[] = {
    {"nc", "nc:D swap local search on J, pairs within distance D in G (default 1)", TM_MODE_NETWORK | TM_MODE_HIERARCHY, tm__refine_nc},
    {"np", "np:B swap local search on J inside blocks of B PEs (Brandfass; default 128)", TM_MODE_NETWORK | TM_MODE_HIERARCHY, tm__refine_np},
    {"ils", "ils:D nc:D, then iterated local search: random kicks + local repair, keep improvements (16n kicks or the time limit)", TM_MODE_NETWORK | TM_MODE_HIERARCHY, tm__refine_ils},
    {"n2", "swap local search on J over all pairs (quadratic)", TM_MODE_NETWORK | TM_MODE_HIERARCHY, tm__refine_n2},
    {"ta", "threshold accepting on max congestion; ta:N = N moves", TM_MODE_NETWORK, tm__refine_ta},
    {NULL, NULL, 0, NULL},
};

const tm_strategy *tm_strategies(void) { return strategies; }
const tm_refiner *tm_refiners(void) { return refiners; }

const tm_strategy *tm_strategy_find(const char *name)
{
    for (const tm_strategy *s = strategies; s->name; s++)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

const tm_refiner *tm_refiner_find(const char *spec)
{
    size_t n = strcspn(spec, ":");
    for (const tm_refiner *r = refiners; r->name; r++)
        if (strlen(r->name) == n && strncmp(r->name, spec, n) == 0)
            return r;
    return NULL;
}

int tm_objective_parse(const char *s)
{
    static const tm__name_val names[] = {
        {"congestion", TM_OBJ_CONGESTION}, {"dilation", TM_OBJ_DILATION}, {"qap", TM_OBJ_QAP},
        {"pareto", TM_OBJ_PARETO}, {"time", TM_OBJ_TIME},
    };
    return tm__name_lookup(names, sizeof names / sizeof names[0], s);
}
