/*
 * ibnet_int.h - what the InfiniBand reader's files share (never installed):
 * the raw dump model the line parser fills (nodes and port lines, keyed by
 * GUID), the width x speed table, and the build step that turns the raw
 * model into tm_net vertices and cables.
 *
 * Split: ibnet_speed.c (link rates), ibnet_dump.c (the dump's records),
 * ibnet_parse.c (topology / -g / ibsim lines), ibnet_ports.c (-p ports
 * report), ibnet_build.c (pairing, naming, net construction), ibnet_write.c
 * (writer), nodemap.c (GUID -> name map).
 */
#ifndef TM_IBNET_INT_H
#define TM_IBNET_INT_H

#include <stdint.h>

#include "topomap/io.h"
#include "../util/util.h"

enum { TM_IB_SW = 0, TM_IB_CA = 1, TM_IB_RT = 2 };
/* Port numbers are 8-bit in InfiniBand (ibsim: 1-255). */
#define TM_IB_MAX_PORTS 255

typedef struct tm__ib_node {
    char *id;           /* the quoted id ("S-0008f1..." or an ibsim name) */
    char *desc;         /* node description, NULL if none */
    uint64_t guid;      /* node GUID; -p: port GUID; 0 if unknown (ibsim) */
    long line;          /* header line (first line in -p) */
    int32_t nports;     /* header port count; -p: highest port seen */
    int32_t port_off;   /* into the port slot table (build step) */
    int type;           /* TM_IB_SW / CA / RT */
    uint32_t lid;       /* switch: LID of port 0 (0 = not printed) */
    int lmc;
    bool guid_id;       /* id has the S-/H-/R-<hex> form */
} tm__ib_node;

typedef struct tm__ib_port {
    int32_t node, port;     /* this end */
    int32_t peer, peer_port;/* other end; peer resolved in the build step */
    char *peer_key;         /* key of the peer until resolved */
    uint64_t port_guid;     /* local port GUID if printed, else 0 */
    double cap;             /* Gbit/s from width x speed; 0 = no token */
    uint32_t lid;           /* CA / router port: its own LID (0 = not printed) */
    int lmc;
    long line;
} tm__ib_port;

typedef struct tm__ib_dump {
    tm_ctx *ctx;
    const char *name;
    tm__ib_node *nodes;
    size_t n_nodes, cap_nodes;
    tm__ib_port *ports;
    size_t n_ports, cap_ports;
    tm__strmap keys;    /* node key -> node index */
    long last_line;
    int format;         /* 0 none yet, 1 topology/ibsim, 2 -p ports report */
} tm__ib_dump;

/* ---- ibnet_speed.c ---- */
/* Capacity of a glued "4xEDR" token (len bytes); returns 0 on success. */
int tm__ib_token_cap(const char *tok, size_t len, double *cap);
/* Capacity of a separate width ("4x") and speed ("EDR"). */
int tm__ib_width_speed_cap(const char *w, size_t wlen, const char *s, size_t slen, double *cap);
/* ibsim w=/s= masks (w: 1=1x 2=4x 4=8x 8=12x; s: 1=SDR 2=DDR 4=QDR), the
 * highest bit wins; a missing mask (0) means ibsim's default 4x / SDR. */
int tm__ib_mask_cap(unsigned wmask, unsigned smask, double *cap);
/* Token "4xEDR" for a capacity: exact if one exists (*exact = true),
 * otherwise the nearest one. */
const char *tm__ib_cap_token(double cap, bool *exact, double *token_cap);

/* ---- ibnet_dump.c ---- */
/* Appends a node / port record (NULL on OOM, message recorded). */
tm__ib_node *tm__ib_add_node(tm__ib_dump *d, int32_t *idx);
tm__ib_port *tm__ib_add_port(tm__ib_dump *d);
/* TM_EINPUT "name:line: message". */
tm_err tm__ib_fail_at(tm__ib_dump *d, long line, const char *fmt, ...) TM_PRINTF(3, 4);
void tm__ib_dump_release(tm__ib_dump *d);

/* ---- ibnet_parse.c / ibnet_ports.c ---- */
/* Key of a node id: "g<16 hex>" for S-/H-/R-<hex> ids, "i<id>" otherwise.
 * Returns the key length or -1 if it does not fit. */
int tm__ib_key(const char *id, size_t len, char *out, size_t outsz, uint64_t *guid, bool *guid_id);
tm_err tm__ib_parse(tm__ib_dump *d, FILE *in);
/* One line of the -p report (already known to start with SW/CA/RT). */
tm_err tm__ib_ports_line(tm__ib_dump *d, const tm__lexer *lx, const char *p);
bool tm__ib_is_ports_line(const char *p);

/* ---- build step (ibnet_build.c, ibnet_names.c) ---- */
typedef struct tm__ib_vtx {
    char *name;
    int32_t node;   /* first IB node of this vertex */
    int32_t id;     /* tm_net vertex id */
    bool host;
} tm__ib_vtx;

typedef struct tm__ib_cable {
    int32_t a, b;
    int32_t pa, pb;     /* port numbers at a and b */
    double cap;
    long line;
} tm__ib_cable;

/* State of one build step. */
typedef struct tm__ib_builder {
    tm__ib_dump *d;
    const tm_ibnet_opts *opts;
    int32_t *slot;      /* port slot table: record index or -1 */
    int32_t *vof;       /* node -> vtx index, -1 excluded */
    tm__ib_vtx *v;
    size_t nv, vcap;
    tm__ib_cable *c;
    size_t nc;
    tm__strmap names;   /* vertex name -> vtx index */
} tm__ib_builder;

tm_err tm__ib_name_hosts(tm__ib_builder *b);
tm_err tm__ib_name_switches(tm__ib_builder *b);

/* ---- nodemap.c ---- */
/* The name the map was read from, and its number of entries (the
 * warning about a CA the map does not name says both). */
const char *tm__nodemap_file(const tm_nodemap *m);
size_t tm__nodemap_size(const tm_nodemap *m);

/* ---- ibnet_names.c ---- */
/* SHARP aggregation node (not a host). */
bool tm__ib_is_sharp(const char *desc);
/* Firmware-default description without a hostname (or none at all). */
bool tm__ib_is_generic(const char *desc);
/* Host vertex name for a CA whose effective description is eff (NULL if
 * none); *generic tells that the id was used.  NULL on OOM. */
char *tm__ib_host_name(const char *eff, const char *id, bool separate, bool *generic);
/* Candidate name of a switch or router. NULL on OOM. */
char *tm__ib_switch_name(const char *eff, const char *id);
/* Natural order: digit runs compare as numbers ("n2" < "n10"). */
int tm__ib_natural_cmp(const char *a, const char *b);

/* ---- ibnet_lids.c ---- */
/* "lid N" and "lmc M" tokens in [p, end): fills what it finds, returns
 * -1 on a malformed number. */
int tm__ib_scan_lid(const char *p, const char *end, uint32_t *lid, int *lmc);
/* Gives the net's vertices the LIDs of the dump (order: pre-sort vtx
 * index -> sorted index, as in emit). */
tm_err tm__ib_add_lids(tm__ib_builder *b, const int32_t *order, tm_net *net);

/* ---- ibnet_build.c ---- */
tm_err tm__ib_build(tm__ib_dump *d, const tm_ibnet_opts *opts, tm_net *net);

#endif
