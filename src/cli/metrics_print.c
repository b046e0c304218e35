/* metrics_print.c - printing metrics (human and JSON), exporting link loads
 * (the library's GraphML, DOT and CSV writers, by the file's extension) and
 * reading mapping files for eval/map. */
#include <string.h>

#include "cli.h"

static void link_names(const tm_net *net, int32_t l, const char **from, const char **to)
{
    const tm_net_csr *g = tm_net_csr_get(net);
    *from = tm_net_name(net, g->tail_of[l]);
    *to = tm_net_name(net, g->head_of[l]);
}

void cli_json_metrics(json_w *j, const tm_net *net, const tm_metrics *m, bool hierarchy)
{
    json_int(j, "n_tasks", m->n_tasks);
    json_num(j, "total_volume", m->total_volume);
    if (hierarchy) {
        json_num(j, "J", m->qap_J);
        return;
    }
    json_num(j, "max_congestion", m->max_congestion);
    json_arr_begin(j, "max_congestion_links");
    for (int32_t i = 0; i < m->n_max_links; i++) {
        const char *a, *b;
        link_names(net, m->max_links[i], &a, &b);
        json_arr_begin(j, NULL);
        json_str(j, NULL, a);
        json_str(j, NULL, b);
        json_arr_end(j);
    }
    json_arr_end(j);
    json_int(j, "max_congestion_links_total", m->n_max_links_total);
    json_bool(j, "approximate", m->approximate);
    json_num(j, "avg_dilation", m->avg_dilation);
    json_int(j, "max_dilation", m->max_dilation);
    json_num(j, "qap_network_J", m->qap_J);
    json_int(j, "hosts_used", m->hosts_used);
    json_int(j, "messages", m->messages);
    json_num(j, "inter_host_volume", m->inter_host_volume);
    json_int(j, "links_used", m->links_used);
    json_num(j, "congestion_sum_sq", m->congestion_sum_sq);
    json_arr_begin(j, "congestion_histogram");
    for (int i = 0; i < TM_METRICS_HIST_BINS; i++)
        json_int(j, NULL, m->hist[i]);
    json_arr_end(j);
    json_num(j, "est_time_s", m->est_time_s);
    json_num(j, "time_lower_bound_s", m->time_lower_bound_s);
    json_bool(j, "time_approximate", m->time_approximate);
}

void cli_print_metrics(FILE *out, const tm_net *net, const tm_metrics *m, bool hierarchy)
{
    fprintf(out, "tasks              %d\n", m->n_tasks);
    fprintf(out, "total volume       %.6g\n", m->total_volume);
    if (hierarchy) {
        fprintf(out, "J (hierarchy QAP)  %.10g\n", m->qap_J);
        return;
    }
    fprintf(out, "hosts used         %d\n", m->hosts_used);
    fprintf(out, "max congestion     %.6g%s  (volume / (Gbit/s))\n", m->max_congestion,
            m->approximate ? " [approximate, Hoefler-Snir Alg. 3]" : "");
    for (int32_t i = 0; i < m->n_max_links && i < 5; i++) {
        const char *a, *b;
        link_names(net, m->max_links[i], &a, &b);
        fprintf(out, "  on link          %s -> %s\n", a, b);
    }
    if (m->n_max_links_total > 5)
        fprintf(out, "  ... and %d more link(s) at the maximum\n", m->n_max_links_total - 5);
    fprintf(out, "est. time          %.6g s  (one exchange, volumes in bytes; lower bound %.6g s%s)\n",
            m->est_time_s, m->time_lower_bound_s,
            m->time_approximate ? "; approximate" : "");
    fprintf(out, "avg dilation       %.6g hops (max %d)\n", m->avg_dilation, m->max_dilation);
    fprintf(out, "QAP J (network)    %.10g\n", m->qap_J);
    fprintf(out, "inter-host volume  %.6g\n", m->inter_host_volume);
    fprintf(out, "links used         %d\n", m->links_used);
    if (m->links_used > 0 && m->max_congestion > 0) {
        fprintf(out, "congestion histogram (links per tenth of the maximum):\n");
        for (int i = 0; i < TM_METRICS_HIST_BINS; i++)
            fprintf(out, "  %3d-%3d%%  %lld\n", i * 10, (i + 1) * 10, (long long)m->hist[i]);
    }
}

static bool ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

tm_err cli_export_loads(tm_ctx *ctx, const tm_net *net, const tm_metrics *m, const char *path)
{
    tm_ofile of;
    tm_err err = tm_ofile_open(ctx, path, &of);
    if (err)
        return err;
    if (ends_with(path, ".graphml")) {
        err = tm_graphml_write(ctx, net, m->link_load, of.fp);
    } else if (ends_with(path, ".dot")) {
        err = tm_dot_write(ctx, net, m->link_load, of.fp);
    } else {
        err = tm_loads_csv_write(ctx, net, m->link_load, of.fp);
    }
    if (err) {
        tm_ofile_abort(&of);
        return err;
    }
    return tm_ofile_commit(ctx, &of);
}

tm_err cli_read_mapping(tm_ctx *ctx, const tm_net *net, int64_t n_pe, const char *path,
                        int32_t n_tasks, tm_mapping *out)
{
    FILE *in;
    tm_err err = tm_open_input(ctx, path, &in);
    if (err)
        return err;
    err = tm_mapping_read(ctx, net, n_pe, in, path, n_tasks, out);
    fclose(in);
    return err;
}
