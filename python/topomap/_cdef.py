"""The C declarations the module uses, copied from include/topomap/*.h.

cffi's ABI mode lays structs out from these declarations alone, so they
must match the headers field for field: tests/test_abi.py compiles a C
program against the real headers and compares every struct's size and
every field's offset with what cffi computes here.  A field added to a
public struct (e.g. a new figure in tm_metrics) is added here too, and the
Python objects pick it up by name (topomap._metrics reads the fields of
tm_metrics from this declaration).
"""

CDEF = r"""
typedef struct _IO_FILE FILE;

/* error.h */
typedef enum { TM_EOK, TM_EUSAGE, TM_EINPUT, TM_EIO, TM_EINFEASIBLE, TM_ENOMEM,
               TM_EINTERNAL, TM_E_COUNT_ } tm_err;
const char *tm_err_str(tm_err err);
int tm_err_exit_code(tm_err err);
typedef struct tm_ctx tm_ctx;
typedef enum { TM_LOG_WARN = 1, TM_LOG_INFO = 2, TM_LOG_DEBUG = 3 } tm_log_level;
typedef void (*tm_log_fn)(void *userdata, tm_log_level level, const char *msg);
tm_err tm_ctx_new(tm_ctx **out);
void tm_ctx_free(tm_ctx *ctx);
const char *tm_ctx_errmsg(const tm_ctx *ctx);
void tm_ctx_set_seed(tm_ctx *ctx, uint64_t seed);
tm_err tm_ctx_set_threads(tm_ctx *ctx, int threads);
int tm_ctx_threads(const tm_ctx *ctx);
tm_err tm_ctx_set_time_limit(tm_ctx *ctx, double seconds);
#define TM_EFFORT_AUTO -1
#define TM_EFFORT_MAX 12
tm_err tm_ctx_set_effort(tm_ctx *ctx, int effort);
int tm_ctx_effort(const tm_ctx *ctx);
void tm_ctx_set_log(tm_ctx *ctx, tm_log_fn fn, void *userdata);

/* net.h */
typedef enum { TM_VERTEX_HOST = 0, TM_VERTEX_SWITCH = 1 } tm_vertex_kind;
typedef enum { TM_TRANSIT_DEFAULT = 0, TM_TRANSIT_YES = 1, TM_TRANSIT_NO = 2 } tm_transit;
typedef struct tm_net tm_net;
typedef struct tm_net_csr {
    int32_t n;
    int32_t n_links;
    const int32_t *off;
    const int32_t *head;
    const int32_t *link;
    const double *cap;
    const int32_t *tail_of;
    const int32_t *head_of;
    const uint8_t *is_host;
    const uint8_t *transit;
    const int32_t *slots;
} tm_net_csr;
tm_err tm_net_new(tm_ctx *ctx, tm_net **out);
void tm_net_free(tm_net *net);
tm_err tm_net_add_vertex(tm_ctx *ctx, tm_net *net, const char *name, tm_vertex_kind kind,
                         int32_t slots, int32_t *id_out);
tm_err tm_net_add_cable(tm_ctx *ctx, tm_net *net, int32_t a, int32_t b, double capacity,
                        int32_t *cable_out);
tm_err tm_net_set_transit(tm_ctx *ctx, tm_net *net, int32_t v, tm_transit t);
void tm_net_set_cable_enabled(tm_net *net, int32_t cable, bool enabled);
tm_err tm_net_finalize(tm_ctx *ctx, tm_net *net);
tm_err tm_net_check(tm_ctx *ctx, const tm_net *net);
int32_t tm_net_n_parts(const tm_net *net);
int32_t tm_net_part(const tm_net *net, int32_t v);
int32_t tm_net_n_vertices(const tm_net *net);
int32_t tm_net_n_cables(const tm_net *net);
int32_t tm_net_n_hosts(const tm_net *net);
int32_t tm_net_n_switches(const tm_net *net);
int64_t tm_net_total_slots(const tm_net *net);
int32_t tm_net_find(const tm_net *net, const char *name);
const char *tm_net_name(const tm_net *net, int32_t v);
tm_vertex_kind tm_net_kind(const tm_net *net, int32_t v);
int32_t tm_net_slots(const tm_net *net, int32_t v);
tm_transit tm_net_transit_policy(const tm_net *net, int32_t v);
bool tm_net_is_transit(const tm_net *net, int32_t v);
void tm_net_cable(const tm_net *net, int32_t cable, int32_t *a, int32_t *b);
double tm_net_capacity(const tm_net *net, int32_t cable);
bool tm_net_cable_enabled(const tm_net *net, int32_t cable);
const tm_net_csr *tm_net_csr_get(const tm_net *net);
int32_t tm_net_host_rails(const tm_net *net, int32_t v);

/* gen.h */
bool tm_gen_is_spec(const char *s);
tm_err tm_gen_build(tm_ctx *ctx, const char *spec, const char *prefix, tm_net *net);
const char *tm_gen_help(void);

/* io.h */
typedef struct tm_topo_opts {
    const char *node_name_map;
    bool keep_hcas_separate;
    int32_t slots;
} tm_topo_opts;
tm_err tm_topology_load(tm_ctx *ctx, const char *spec, const tm_topo_opts *opts, tm_net **out);
typedef struct tm_nodemap tm_nodemap;
tm_err tm_nodemap_read(tm_ctx *ctx, FILE *in, const char *name, tm_nodemap **out);
void tm_nodemap_free(tm_nodemap *m);
typedef struct tm_ibnet_opts {
    const tm_nodemap *nodemap;
    bool keep_hcas_separate;
    int32_t slots;
} tm_ibnet_opts;
tm_err tm_ibnet_read(tm_ctx *ctx, FILE *in, const char *name, const tm_ibnet_opts *opts,
                     tm_net *net);
tm_err tm_ibnet_write(tm_ctx *ctx, const tm_net *net, FILE *out);
tm_err tm_graphml_read(tm_ctx *ctx, FILE *in, const char *name, tm_net *net);
tm_err tm_graphml_write(tm_ctx *ctx, const tm_net *net, const double *link_load, FILE *out);
tm_err tm_xmlspec_read(tm_ctx *ctx, FILE *in, const char *name, tm_net *net);
tm_err tm_dot_write(tm_ctx *ctx, const tm_net *net, const double *link_load, FILE *out);
typedef struct tm_slurm_opts {
    bool yaml;
    bool link_speed;
    const char *topology;
} tm_slurm_opts;
tm_err tm_slurm_topology_write(tm_ctx *ctx, const tm_net *net, const tm_slurm_opts *opts,
                               FILE *out);
tm_err tm_open_input(tm_ctx *ctx, const char *path, FILE **out);
typedef struct tm_ofile {
    FILE *fp;
    char *path;
    char *tmp;
    bool is_stdout;
} tm_ofile;
tm_err tm_ofile_open(tm_ctx *ctx, const char *path, tm_ofile *of);
tm_err tm_ofile_commit(tm_ctx *ctx, tm_ofile *of);
void tm_ofile_abort(tm_ofile *of);

/* comm.h */
typedef struct tm_comm {
    int32_t n;
    int64_t nnz;
    int64_t *xadj;
    int32_t *adj;
    double *w;
    double *vwgt;
} tm_comm;
void tm_comm_init(tm_comm *c);
void tm_comm_release(tm_comm *c);
tm_err tm_comm_from_entries(tm_ctx *ctx, int32_t n, int64_t m, const int32_t *src,
                            const int32_t *dst, const double *w, tm_comm *out);
tm_err tm_comm_check(tm_ctx *ctx, const tm_comm *c);
double tm_comm_total_volume(const tm_comm *c);
tm_err tm_comm_read_file(tm_ctx *ctx, const char *path, int fmt, tm_comm *out);
int tm_comm_format_parse(const char *s);
tm_err tm_comm_write_metis(tm_ctx *ctx, const tm_comm *c, FILE *out);
tm_err tm_comm_write_edges(tm_ctx *ctx, const tm_comm *c, FILE *out);
typedef struct tm_comm_phases {
    int32_t n_tasks;
    int32_t n_phases;
    tm_comm *phase;
    int64_t *repeat;
} tm_comm_phases;
void tm_comm_phases_init(tm_comm_phases *p);
void tm_comm_phases_release(tm_comm_phases *p);
tm_err tm_comm_phases_read(tm_ctx *ctx, FILE *in, const char *name, tm_comm_phases *out);
tm_err tm_comm_phases_read_file(tm_ctx *ctx, const char *path, tm_comm_phases *out);
tm_err tm_comm_phases_write(tm_ctx *ctx, const tm_comm_phases *p, FILE *out);

/* alloc.h */
typedef struct tm_alloc {
    int32_t n;
    int32_t *host;
    int32_t *slots;
} tm_alloc;
void tm_alloc_init(tm_alloc *a);
void tm_alloc_release(tm_alloc *a);
int64_t tm_alloc_total_slots(const tm_alloc *a);
tm_err tm_alloc_parse(tm_ctx *ctx, const tm_net *net, const char *arg, tm_alloc *out);
tm_err tm_alloc_all(tm_ctx *ctx, const tm_net *net, tm_alloc *out);

/* hier.h */
typedef struct tm_hier {
    int k;
    int32_t a[16];
    double d[16];
    int64_t group[17];
    int64_t n_pe;
} tm_hier;
tm_err tm_hier_parse(tm_ctx *ctx, const char *levels, const char *distances, tm_hier *out);
tm_err tm_hier_from_hwloc(tm_ctx *ctx, FILE *in, const char *name, tm_hier *out);

/* route.h */
typedef enum { TM_ROUTE_ECMP = 0, TM_ROUTE_SINGLE, TM_ROUTE_DOR, TM_ROUTE_LFT, TM_ROUTE_FTREE,
               TM_ROUTE_MINHOP, TM_ROUTE_UPDN } tm_route_kind;
typedef struct tm_route tm_route;
int tm_route_kind_parse(const char *s);
const char *tm_route_kind_name(tm_route_kind kind);
typedef struct tm_route_opts {
    const char *lft_dir;
    bool lmc_spread;
    const int32_t *roots;
    int32_t n_roots;
} tm_route_opts;
tm_err tm_route_new_opts(tm_ctx *ctx, const tm_net *net, tm_route_kind kind,
                         const tm_route_opts *opts, tm_route **out);
void tm_route_free(tm_route *r);
tm_route_kind tm_route_kind_of(const tm_route *r);

/* map.h */
typedef struct tm_mapping {
    int32_t n;
    int32_t *host;
    int32_t *slot;
    int32_t *pe;
} tm_mapping;
void tm_mapping_init(tm_mapping *m);
void tm_mapping_release(tm_mapping *m);
tm_err tm_mapping_alloc(tm_ctx *ctx, tm_mapping *m, int32_t n, bool hierarchy);
tm_err tm_mapping_consecutive(tm_ctx *ctx, const tm_alloc *alloc, int32_t n_tasks,
                              tm_mapping *out);
tm_err tm_mapping_check(tm_ctx *ctx, const tm_net *net, const tm_alloc *alloc,
                        const tm_mapping *m);
tm_err tm_alloc_of_mapping(tm_ctx *ctx, const tm_net *net, const tm_mapping *m, tm_alloc *out);
typedef enum { TM_MAPFMT_OPENMPI = 0, TM_MAPFMT_MPICH, TM_MAPFMT_SLURM, TM_MAPFMT_PLAIN } tm_mapfmt;
int tm_mapfmt_parse(const char *s);
typedef struct tm_mapwrite_opts {
    bool full_hostnames;
} tm_mapwrite_opts;
tm_err tm_mapping_write(tm_ctx *ctx, const tm_net *net, const tm_mapping *m, tm_mapfmt fmt,
                        const tm_mapwrite_opts *opts, FILE *out);
tm_err tm_mapping_read(tm_ctx *ctx, const tm_net *net, int64_t n_pe, FILE *in,
                       const char *name, int32_t n_tasks, tm_mapping *out);
typedef struct tm_netdist tm_netdist;
typedef struct tm_problem {
    const tm_net *net;
    const tm_route *route;
    const tm_alloc *alloc;
    const tm_comm *comm;
    const tm_hier *hier;
    double imbalance;
    double hop_distance;
    const struct tm_netdist *dist;
    const struct tm_time_opts *time;
    const struct tm_bounds *bounds;
} tm_problem;
typedef enum { TM_OBJ_CONGESTION = 0, TM_OBJ_DILATION, TM_OBJ_QAP, TM_OBJ_PARETO, TM_OBJ_TIME } tm_objective;
int tm_objective_parse(const char *s);
typedef enum { TM_MODE_NETWORK = 1, TM_MODE_HIERARCHY = 2 } tm_map_mode;
typedef tm_err (*tm_strategy_fn)(tm_ctx *ctx, const tm_problem *p, uint64_t seed,
                                 tm_mapping *out);
typedef struct tm_strategy {
    const char *name;
    const char *help;
    unsigned modes;
    bool in_all;
    tm_strategy_fn run;
} tm_strategy;
typedef tm_err (*tm_refine_fn)(tm_ctx *ctx, const tm_problem *p, const char *arg, uint64_t seed,
                               tm_mapping *m);
typedef struct tm_refiner {
    const char *name;
    const char *help;
    unsigned modes;
    tm_refine_fn run;
} tm_refiner;
const tm_strategy *tm_strategies(void);
const tm_refiner *tm_refiners(void);
const tm_strategy *tm_strategy_find(const char *name);
const tm_refiner *tm_refiner_find(const char *spec);
struct tm_metrics;
typedef struct tm_map_row {
    char name[48];
    char refine[64];
    struct tm_metrics *metrics;
    double start_congestion, start_dilation, start_J;
    bool reverted;
    bool screened;
    double time_s;
    double refine_time_s;
} tm_map_row;
typedef struct tm_map_result {
    tm_mapping mapping;
    const struct tm_metrics *metrics;
    int32_t best;
    int32_t n_rows;
    tm_map_row *rows;
    double time_s;
    struct tm_metrics *consecutive;
    int32_t blocks;
    double block_bound, block_weight_max;
} tm_map_result;
void tm_map_result_init(tm_map_result *r);
void tm_map_result_release(tm_map_result *r);
tm_err tm_map_run(tm_ctx *ctx, const tm_problem *p, const char *strategy, const char *refine,
                  tm_objective obj, tm_map_result *out);
typedef struct tm_map_info {
    const char *pipeline;
    int effort;
    int levels;
    int rows_refined;
    const char *stop;
    int64_t kicks, ta_moves, evaluations;
} tm_map_info;
tm_err tm_map_run_ex(tm_ctx *ctx, const tm_problem *p, const char *strategy,
                     const char *refine, tm_objective obj, tm_map_result *out,
                     tm_map_info *info);

/* metrics.h */
#define TM_METRICS_MAX_LINKS_LISTED 64
#define TM_METRICS_HIST_BINS 10
typedef struct tm_metrics {
    int32_t n_tasks;
    int32_t hosts_used;
    int64_t messages;
    double total_volume;
    double inter_host_volume;
    double max_congestion;
    int32_t n_max_links;
    int32_t max_links[64];
    int32_t n_max_links_total;
    double avg_dilation;
    double sum_w_hops;
    int32_t max_dilation;
    double qap_J;
    double hop_distance;
    double congestion_sum_sq;
    int32_t links_used;
    int64_t hist[10];
    double *link_load;
    int32_t n_links;
    bool approximate;
    double time_s;
    double est_time_s;
    double time_lower_bound_s;
    bool time_approximate;
    int64_t time_flows;
    int32_t time_rate_updates;
} tm_metrics;
typedef enum { TM_TIME_SMPI = 0, TM_TIME_FLUID = 1 } tm_time_model;
typedef struct tm_time_opts {
    tm_time_model model;
    double latency_per_hop_s;
    double message_overhead_s;
    double host_bandwidth_gbps;
    int64_t exact_max_flows;
    const struct tm_comm_phases *phases;
} tm_time_opts;
typedef struct tm_metrics_opts {
    bool keep_link_loads;
    bool approximate;
    const tm_hier *node_hier;
    double hop_distance;
    const tm_time_opts *time;
} tm_metrics_opts;
void tm_metrics_init(tm_metrics *m);
void tm_metrics_release(tm_metrics *m);
tm_err tm_metrics_eval(tm_ctx *ctx, const tm_route *route, const tm_comm *comm,
                       const tm_mapping *map, const tm_metrics_opts *opts, tm_metrics *out);
tm_err tm_metrics_eval_hier(tm_ctx *ctx, const tm_hier *hier, const tm_comm *comm,
                            const tm_mapping *map, tm_metrics *out);

/* bounds.h */
typedef struct tm_bound_method {
    const char *name;
    double max_congestion;
    double avg_dilation;
    double qap_J;
} tm_bound_method;
typedef struct tm_bounds {
    bool network;
    int32_t n_tasks;
    double total_volume;
    double max_congestion, avg_dilation, qap_J;
    const char *congestion_by, *dilation_by, *J_by;
    int n_methods;
    tm_bound_method method[8];
    int32_t tasks_per_slot;
    int32_t flow_sources;
    double time_s;
} tm_bounds;
typedef struct tm_bounds_opts {
    int32_t tasks_per_slot;
    int64_t work;
} tm_bounds_opts;
void tm_bounds_init(tm_bounds *b);
tm_err tm_bounds_compute(tm_ctx *ctx, const tm_problem *p, const tm_bounds_opts *opts,
                         tm_bounds *out);
typedef struct tm_bounds_gap {
    double max_congestion, avg_dilation, qap_J;
} tm_bounds_gap;
void tm_bounds_gap_of(const tm_bounds *b, const tm_metrics *m, tm_bounds_gap *out);
bool tm_bounds_within(const tm_bounds *b, const tm_metrics *m, tm_objective obj, double tol);

/* study.h */
typedef enum { TM_STUDY_FAIL_NONE = 0, TM_STUDY_FAIL_RANDOM, TM_STUDY_FAIL_LINKS,
               TM_STUDY_FAIL_SWITCHES } tm_study_fail_kind;
typedef struct tm_study_failure {
    tm_study_fail_kind kind;
    double pct;
    const char *names;
} tm_study_failure;
typedef void (*tm_study_progress_fn)(void *userdata, int done, int total);
typedef struct tm_study_spec {
    const char *const *topologies; int n_topologies;
    const char *node_name_map;
    bool separate_hcas;
    const int32_t *slots; int n_slots;
    const char *const *scales; int n_scales;
    const tm_study_failure *failures; int n_failures;
    int samples;
    const tm_route_kind *routings; int n_routings;
    const tm_comm *const *comms; int n_comms;
    const char *const *strategies; int n_strategies;
    const char *alloc;
    const char *refine;
    tm_objective objective;
    const struct tm_time_opts *time;
    tm_study_progress_fn progress;
    void *progress_userdata;
    int shard_index, shard_count;
} tm_study_spec;
typedef enum { TM_STUDY_OK = 0, TM_STUDY_DISCONNECTED, TM_STUDY_UNROUTABLE,
               TM_STUDY_INFEASIBLE } tm_study_status;
typedef enum { TM_STUDY_RUN = 0, TM_STUDY_MEAN, TM_STUDY_WORST } tm_study_stat;
typedef struct tm_study_row {
    tm_study_stat stat;
    int topology, slots, scale, failure, sample, routing, comm, strategy;
    int32_t scaled_cables, failed_cables;
    tm_study_status status;
    char cause[320];
    char best[48];
    double base_congestion, base_dilation, base_J;
    double max_congestion, avg_dilation, qap_J;
    int runs, not_ok;
    double base_est_time_s, est_time_s;
    int32_t position;
    double bound_congestion, bound_dilation, bound_J;
} tm_study_row;
typedef struct tm_study_result {
    int n_rows;
    tm_study_row *rows;
    int n_runs;
    int total_rows, total_runs;
} tm_study_result;
void tm_study_result_init(tm_study_result *r);
void tm_study_result_release(tm_study_result *r);
tm_err tm_study_run(tm_ctx *ctx, const tm_study_spec *spec, tm_study_result *out);
const char *tm_study_status_name(tm_study_status s);
const char *tm_study_stat_name(tm_study_stat s);
void tm_study_failure_label(const tm_study_failure *f, char *buf, size_t size);

/* alloc.h (hostlists, for the workload rows) */
tm_err tm_hostlist_compress(tm_ctx *ctx, const char *const *names, size_t count, char **out);
tm_err tm_alloc_from_hostlist(tm_ctx *ctx, const tm_net *net, const char *expr, tm_alloc *out);

/* comm.h (the format of the jobs' matrix files) */
typedef enum { TM_COMM_AUTO = 0, TM_COMM_METIS, TM_COMM_MTX, TM_COMM_EDGES, TM_COMM_DENSE,
               TM_COMM_GRAPHSTATS, TM_COMM_MPIP, TM_COMM_SCOTCH } tm_comm_format;

/* workload.h */
typedef enum { TM_PATTERN_NONE = 0, TM_PATTERN_RING, TM_PATTERN_ALLTOALL,
               TM_PATTERN_STENCIL3D } tm_pattern;
int tm_pattern_parse(const char *spec, tm_pattern *kind, double *bytes, const char **why);
const char *tm_pattern_name(tm_pattern kind);
typedef struct tm_job {
    char *id;
    int64_t line;
    int32_t n_hosts;
    int32_t *host;
    int32_t *tasks;
    int32_t n_tasks;
    tm_pattern pattern;
    double pattern_bytes;
    int32_t matrix;
    double start, end;
} tm_job;
typedef struct tm_workload {
    int32_t n_jobs;
    tm_job *job;
    int32_t n_matrices;
    tm_comm *matrix;
    char **matrix_path;
    bool has_times;
    int32_t skipped_steps;
    int32_t skipped_not_started;
} tm_workload;
typedef struct tm_workload_read_opts {
    const char *base_dir;
    const char *default_comm;
    tm_comm_format comm_format;
} tm_workload_read_opts;
void tm_workload_init(tm_workload *w);
void tm_workload_release(tm_workload *w);
tm_err tm_workload_read(tm_ctx *ctx, const tm_net *net, FILE *in, const char *name,
                        const tm_workload_read_opts *opts, tm_workload *out);
tm_err tm_workload_read_file(tm_ctx *ctx, const tm_net *net, const char *path,
                             const tm_workload_read_opts *opts, tm_workload *out);
int tm_workload_parse_time(const char *s, double *out);
tm_err tm_workload_at(tm_ctx *ctx, const tm_workload *w, double t, int32_t **set, int32_t *n);
typedef struct tm_job_figures {
    double max_congestion;
    double avg_dilation;
    double qap_J;
    double est_time_s;
    bool time_approximate;
} tm_job_figures;
typedef struct tm_job_result {
    int32_t job;
    tm_job_figures alone, shared;
    double slowdown;
    int32_t group;
    int32_t links_used;
    int32_t links_shared;
    int32_t n_neighbours;
    int32_t *neighbours;
} tm_job_result;
typedef struct tm_link_share {
    int32_t link;
    double congestion;
    int32_t n_jobs;
    int32_t *jobs;
    double *load;
} tm_link_share;
typedef struct tm_workload_result {
    int32_t n_rows;
    tm_job_result *rows;
    double max_congestion;
    int32_t max_link;
    int32_t links_used;
    int32_t links_shared;
    int32_t n_shared;
    tm_link_share *shared;
    int32_t n_links;
    double *link_load;
    int32_t *link_job;
    int32_t *link_n_jobs;
} tm_workload_result;
typedef struct tm_workload_eval_opts {
    const tm_time_opts *time;
    const int32_t *set;
    int32_t n_set;
    const int32_t *rows;
    int32_t n_rows;
    const int32_t *const *hosts;
    bool keep_link_loads;
    int32_t max_shared;
} tm_workload_eval_opts;
void tm_workload_result_init(tm_workload_result *r);
void tm_workload_result_release(tm_workload_result *r);
tm_err tm_workload_eval(tm_ctx *ctx, const tm_route *route, const tm_workload *w,
                        const tm_workload_eval_opts *opts, tm_workload_result *out);
typedef struct tm_slurm_tree tm_slurm_tree;
tm_err tm_slurm_tree_read(tm_ctx *ctx, const tm_net *net, FILE *in, const char *name,
                          tm_slurm_tree **out);
tm_err tm_slurm_tree_from_net(tm_ctx *ctx, const tm_net *net, tm_slurm_tree **out);
void tm_slurm_tree_free(tm_slurm_tree *t);
typedef enum { TM_PICK_TOPOMAP = 0, TM_PICK_SLURM_TREE, TM_PICK_RANDOM } tm_pick_policy;
int tm_pick_policy_parse(const char *s);
const char *tm_pick_policy_name(tm_pick_policy p);
typedef struct tm_pick_request {
    int32_t n_nodes;
    int32_t ppn;
    const int32_t *tasks;
    const tm_comm *comm;
    tm_pattern pattern;
    double pattern_bytes;
    const int32_t *free;
    int32_t n_free;
    const tm_workload *running;
    const int32_t *set;
    int32_t n_set;
    const int32_t *const *hosts;
    const tm_time_opts *time;
    const tm_slurm_tree *tree;
    uint64_t seed;
} tm_pick_request;
typedef struct tm_pick {
    tm_pick_policy policy;
    int32_t n_hosts;
    int32_t *hosts;
    int32_t *tasks;
    tm_job_figures alone;
    tm_job_figures shared;
    double slowdown;
    int32_t n_neighbours;
    double neighbours_slowdown;
    int32_t candidates;
} tm_pick;
void tm_pick_init(tm_pick *p);
void tm_pick_release(tm_pick *p);
tm_err tm_pick_nodes(tm_ctx *ctx, const tm_route *route, const tm_pick_request *req,
                     tm_pick_policy policy, tm_pick *out);
typedef enum { TM_REPLAY_RECORDED = 0, TM_REPLAY_SLURM_TREE, TM_REPLAY_RANDOM,
               TM_REPLAY_TOPOMAP } tm_replay_policy;
int tm_replay_policy_parse(const char *s);
const char *tm_replay_policy_name(tm_replay_policy p);
typedef struct tm_replay_opts {
    const tm_time_opts *time;
    const int32_t *partition;
    int32_t n_partition;
    const tm_slurm_tree *tree;
    uint64_t seed;
    const int32_t *rows;
    int32_t n_rows;
} tm_replay_opts;
typedef struct tm_replay_row {
    tm_job_result r;
    bool placed;
    int32_t *hosts;
    double worst_slowdown, worst_max_congestion;
    int32_t intervals;
} tm_replay_row;
typedef struct tm_replay_interval {
    double t0, t1;
    int32_t running, busy_nodes;
    double max_congestion;
} tm_replay_interval;
typedef struct tm_replay_result {
    tm_replay_policy policy;
    int32_t n_rows;
    tm_replay_row *rows;
    int32_t n_intervals;
    tm_replay_interval *intervals;
    double start;
    double end;
    int32_t not_placed;
} tm_replay_result;
void tm_replay_result_init(tm_replay_result *r);
void tm_replay_result_release(tm_replay_result *r);
tm_err tm_replay(tm_ctx *ctx, const tm_route *route, const tm_workload *w,
                 tm_replay_policy policy, const tm_replay_opts *opts, tm_replay_result *out);
typedef struct tm_slowdown_stats {
    int32_t n;
    double mean, min, median, p90, p99, max;
    int32_t slowed;
} tm_slowdown_stats;
tm_err tm_slowdown_stats_compute(tm_ctx *ctx, const double *v, int32_t n,
                                 tm_slowdown_stats *out);
"""

# libc, for the FILE streams the readers and writers take
LIBC_CDEF = r"""
int fclose(FILE *stream);
FILE *fmemopen(void *buf, size_t size, const char *mode);
void free(void *p);
"""

# Structs whose layout tests/test_abi.py checks against the headers.
STRUCTS = ["tm_net_csr", "tm_topo_opts", "tm_ibnet_opts", "tm_slurm_opts", "tm_ofile", "tm_comm",
           "tm_comm_phases", "tm_time_opts",
           "tm_alloc", "tm_hier", "tm_route_opts", "tm_mapping", "tm_mapwrite_opts",
           "tm_problem", "tm_strategy", "tm_refiner", "tm_map_row", "tm_map_result",
           "tm_metrics", "tm_metrics_opts", "tm_bound_method", "tm_bounds", "tm_bounds_opts",
           "tm_bounds_gap", "tm_study_failure", "tm_study_spec",
           "tm_study_row", "tm_study_result", "tm_job", "tm_workload", "tm_workload_read_opts",
           "tm_job_figures", "tm_job_result", "tm_link_share", "tm_workload_result",
           "tm_workload_eval_opts", "tm_pick_request", "tm_pick", "tm_replay_opts",
           "tm_replay_row", "tm_replay_interval", "tm_replay_result", "tm_slowdown_stats"]
