/* json.c - a minimal streaming JSON writer for --json output (keys in
 * insertion order, strings escaped by tm__json_str, non-finite numbers as
 * null). */
#include <math.h>
#include <stdio.h>

#include "../util/util.h"
#include "cli.h"

static void indent(json_w *j)
{
    for (int i = 0; i < j->depth; i++)
        fputs("  ", j->out);
}

static void item(json_w *j, const char *key)
{
    if (j->depth > 0) {
        if (!j->first[j->depth])
            fputc(',', j->out);
        fputc('\n', j->out);
        indent(j);
    }
    j->first[j->depth] = false;
    if (key) {
        tm__json_str(j->out, key);
        fputs(": ", j->out);
    }
}

void json_begin(json_w *j, FILE *out)
{
    j->out = out;
    j->depth = 0;
    j->first[0] = true;
}

static void open_(json_w *j, const char *key, char c)
{
    item(j, key);
    fputc(c, j->out);
    if (j->depth < 31)
        j->depth++;
    j->first[j->depth] = true;
}

static void close_(json_w *j, char c)
{
    bool empty = j->first[j->depth];
    j->depth--;
    if (!empty) {
        fputc('\n', j->out);
        indent(j);
    }
    fputc(c, j->out);
}

void json_obj_begin(json_w *j, const char *key) { open_(j, key, '{'); }
void json_obj_end(json_w *j) { close_(j, '}'); }
void json_arr_begin(json_w *j, const char *key) { open_(j, key, '['); }
void json_arr_end(json_w *j) { close_(j, ']'); }

void json_str(json_w *j, const char *key, const char *val)
{
    item(j, key);
    if (val)
        tm__json_str(j->out, val);
    else
        fputs("null", j->out);
}

void json_num(json_w *j, const char *key, double val)
{
    item(j, key);
    if (isfinite(val))
        fprintf(j->out, "%.17g", val);
    else
        fputs("null", j->out);
}

void json_int(json_w *j, const char *key, long long val)
{
    item(j, key);
    fprintf(j->out, "%lld", val);
}

void json_bool(json_w *j, const char *key, bool val)
{
    item(j, key);
    fputs(val ? "true" : "false", j->out);
}

void json_null(json_w *j, const char *key)
{
    item(j, key);
    fputs("null", j->out);
}

void json_end(json_w *j) { fputc('\n', j->out); }
