/* json.c - the one JSON string writer of topomap (RFC 8259): the CLI's JSON
 * output (src/cli/json.c), the MPI library's TOPOMAP_REPORT and the
 * recorder's FILE.json (src/mpi/) all write their strings through it. */
#include "util.h"

void tm__json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out); /* UTF-8 passes through as it is */
        }
    }
    fputc('"', out);
}
