/*
 * dot.c - tm_dot_write(): a tm_net as a Graphviz graph for pictures.
 *
 * Hosts are boxes, switches ellipses; each cable is one undirected edge
 * labelled with its capacity (Gbit/s).  With link loads, each cable is
 * coloured green -> yellow -> red and thickened by the larger congestion
 * of its two directions relative to the network's maximum congestion, and
 * the label adds that congestion; disabled cables are grey and dashed.
 * Hand-written because igraph has no DOT writer that carries per-edge
 * styling; names are always quoted and escaped.
 */
#include <stdlib.h>
#include <string.h>

#include "topomap/io.h"
#include "../util/util.h"

/* Pictures need short labels: 4 significant digits. */
static void fmt_num(char *buf, size_t n, double d)
{
    snprintf(buf, n, "%.4g", d);
}

/* A DOT double-quoted string: only '"' needs escaping, a backslash is
 * doubled so that label escapes such as \n in names stay literal. */
static void put_quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            fputc('\\', out);
            fputc(ch, out);
        } else if (ch < ' ' || ch == 0x7f)
            fputc('?', out);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

static double cable_congestion(const tm_net *net, const double *load, int32_t c)
{
    double cap = tm_net_capacity(net, c);
    double ab = load[2 * c] / cap, ba = load[2 * c + 1] / cap;
    return ab > ba ? ab : ba;
}

typedef struct dot_args {
    const tm_net *net;
    const double *load;
} dot_args;

static tm_err write_body(void *arg, FILE *out)
{
    const tm_net *net = ((const dot_args *)arg)->net;
    const double *load = ((const dot_args *)arg)->load;
    int32_t nv = tm_net_n_vertices(net), nc = tm_net_n_cables(net);
    double cmax = 0;
    char num[64];

    if (load)
        for (int32_t c = 0; c < nc; c++)
            if (tm_net_cable_enabled(net, c) && cable_congestion(net, load, c) > cmax)
                cmax = cable_congestion(net, load, c);
    fputs("graph topology {\n"
          "  // topomap network: hosts are boxes, switches ellipses; labels in Gbit/s\n"
          "  node [fontsize=10];\n  edge [fontsize=8];\n",
          out);
    if (load) {
        fmt_num(num, sizeof num, cmax);
        fprintf(out, "  // edge colour and width: max congestion of the cable / %s\n", num);
    }
    for (int32_t v = 0; v < nv; v++) {
        fputs("  ", out);
        put_quoted(out, tm_net_name(net, v));
        if (tm_net_kind(net, v) == TM_VERTEX_SWITCH)
            fputs(" [shape=ellipse];\n", out);
        else
            fprintf(out, " [shape=box, tooltip=\"%d slots\"];\n", (int)tm_net_slots(net, v));
    }
    for (int32_t c = 0; c < nc; c++) {
        int32_t a, b;
        tm_net_cable(net, c, &a, &b);
        fputs("  ", out);
        put_quoted(out, tm_net_name(net, a));
        fputs(" -- ", out);
        put_quoted(out, tm_net_name(net, b));
        fmt_num(num, sizeof num, tm_net_capacity(net, c));
        fprintf(out, " [label=\"%s", num);
        if (!tm_net_cable_enabled(net, c)) {
            fputs(" (down)\", style=dashed, color=gray];\n", out);
            continue;
        }
        if (load) {
            double cg = cable_congestion(net, load, c), r = cmax > 0 ? cg / cmax : 0;
            fmt_num(num, sizeof num, cg);
            /* hue 0.333 (green) at no load down to 0 (red) at the maximum */
            fprintf(out, "\\nc=%s\", color=\"%.3f 0.85 0.85\", penwidth=%.2f", num,
                    0.333 * (1 - r), 1 + 4 * r);
        } else {
            fputc('"', out);
        }
        fputs("];\n", out);
    }
    fputs("}\n", out);
    return TM_EOK;
}

tm_err tm_dot_write(tm_ctx *ctx, const tm_net *net, const double *link_load, FILE *out)
{
    dot_args a = {net, link_load};
    return tm__write_c_locale(ctx, out, NULL, write_body, &a);
}
