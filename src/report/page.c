/* page.c - the frame of every report page (html.c: a mapping's;
 * workload_page.c: a workload's): one HTML file with inline CSS and inline
 * SVG, no script and no reference to anything outside the file, written
 * atomically (tm_ofile).  Every name that comes from an input file (vertex
 * names, labels, titles) goes through tm__html_text. */
#include <string.h>

#include "report_int.h"
#include "topomap/io.h"

void tm__html_text(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*s, out);
        }
    }
}

static const char page_css[] =
    "body{font-family:sans-serif;margin:16px;color:#222;background:#fff}"
    "h1{font-size:20px}h2{font-size:16px;margin-top:24px}"
    "svg text{font-size:11px;fill:#222}svg text.head{font-weight:bold}"
    "table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 8px;"
    "text-align:right}td:first-child,th:first-child{text-align:left}"
    ".e0{stroke:#d0d0d0;stroke-width:0.6}.sw{fill:#555}.sj{fill:#555;stroke:#1f77b4;stroke-width:2}"
    ".h{fill:#c8c8c8}.hj{fill:#1f77b4;stroke:#0b3c61;stroke-width:1}"
    ".base{fill:#9e9e9e;stroke:#9e9e9e}.res{fill:#1f77b4;stroke:#1f77b4}"
    ".bound{stroke:#d62728;stroke-width:2;stroke-dasharray:3 2;fill:none}"
    ".cdf{fill:none;stroke-width:2}.ax{stroke:#444}.note{color:#555;font-size:12px}"
    /* workload pages */
    ".shared{stroke:#222;stroke-width:1.2;stroke-dasharray:4 3}.slow{color:#b00026}"
    ".series{fill:none;stroke-width:2}.area{fill:#e4e4e4;stroke:none}";

void tm__page_begin(FILE *out, const char *title, const char *subtitle)
{
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                 "<title>");
    tm__html_text(out, title ? title : "topomap report");
    fprintf(out, "</title>\n<style>%s</style></head>\n<body>\n<h1>", page_css);
    tm__html_text(out, title ? title : "topomap report");
    fputs("</h1>\n", out);
    if (subtitle) {
        fputs("<p class=\"note\">", out);
        tm__html_text(out, subtitle);
        fputs("</p>\n", out);
    }
}

tm_err tm__page_write(tm_ctx *ctx, const char *path, tm__page_fn body, const void *arg)
{
    tm_ofile of;
    tm_err err = tm_ofile_open(ctx, path, &of);
    if (err)
        return err;
    err = body(ctx, of.fp, arg);
    if (err) {
        tm_ofile_abort(&of);
        return err;
    }
    return tm_ofile_commit(ctx, &of);
}
