/* shard_read.c - the shards' outputs read back and checked (shard.h).
 *
 * JSON is parsed by jansson (a well-kept parser with line numbers in its
 * errors, strict about duplicate keys, depth-limited).  A CSV file is read
 * here: RFC 4180 as our writers print it (a field holding a comma, quote
 * or line break is quoted, quotes doubled); there is no well-kept CSV
 * library in Debian to use instead (libcsv's last release, 3.0.3, is from
 * 2013).  Each CSV row becomes a jansson object of strings keyed by
 * column, so both formats are walked by the same getters.
 *
 * Rows are kept in file order; their positions are sorted once every file
 * is in (tm__shard_set_finish) and found by binary search. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../util/util.h"
#include "shard.h"

/* Largest file read (a study of 100,000 rows writes about 100 MB of JSON). */
#define MAX_FILE_BYTES ((size_t)1 << 31)
/* Largest row count of an unsharded output. */
#define MAX_TOTAL INT32_MAX

struct tm__shard_row {
    json_t *obj;     /* borrowed from its file's document */
    int32_t file;
    int64_t where;   /* CSV: line of the record; JSON: index in the row list */
    int64_t pos;     /* position in the unsharded output */
};

typedef struct sfile {
    char *name;
    int32_t k;
    json_t *doc;     /* JSON: the document; CSV: an array of row objects */
} sfile;

struct tm__shard_set {
    const tm__shard_kind *kind;
    tm__shard_fmt fmt;
    sfile *files;
    size_t n_files, cap_files;
    tm__shard_row *rows;
    size_t n_rows, cap_rows;
    int32_t n;               /* N, 0 before the first file */
    char id[TM_SHARD_ID_LEN + 1];
    int64_t total;
    int32_t *file_of;        /* per shard index: the file that gave it, or -1 */
    char **csv_cols;         /* the unsharded CSV's columns */
    int n_csv_cols;
    bool finished;
};

/* ---- the set ---------------------------------------------------------------- */

static void free_cols(tm__shard_set *s)
{
    for (int i = 0; i < s->n_csv_cols; i++)
        free(s->csv_cols[i]);
    free(s->csv_cols);
}

/* The columns of kind->csv_header (split at commas: our headers quote
 * nothing). */
static tm_err split_header(tm_ctx *ctx, tm__shard_set *s)
{
    const char *h = s->kind->csv_header;
    int n = 1;
    for (const char *p = h; *p; p++)
        n += *p == ',';
    if (!(s->csv_cols = tm__calloc_n((size_t)n, sizeof *s->csv_cols)))
        return tm__nomem(ctx);
    for (const char *p = h;; p++) {
        size_t len = strcspn(p, ",");
        if (!(s->csv_cols[s->n_csv_cols++] = tm__strndup(p, len)))
            return tm__nomem(ctx);
        p += len;
        if (!*p)
            break;
    }
    return TM_EOK;
}

tm_err tm__shard_set_new(tm_ctx *ctx, const tm__shard_kind *kind, tm__shard_set **out)
{
    tm__shard_set *s = tm__calloc_n(1, sizeof *s);
    tm_err err;
    *out = NULL;
    if (!s)
        return tm__nomem(ctx);
    s->kind = kind;
    if ((err = split_header(ctx, s))) {
        tm__shard_set_free(s);
        return err;
    }
    *out = s;
    return TM_EOK;
}

void tm__shard_set_free(tm__shard_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_files; i++) {
        free(s->files[i].name);
        json_decref(s->files[i].doc);
    }
    free(s->files);
    free(s->rows);
    free(s->file_of);
    free_cols(s);
    free(s);
}

tm__shard_fmt tm__shard_set_format(const tm__shard_set *s) { return s->fmt; }

const char *tm__shard_set_name(const tm__shard_set *s, int i)
{
    return i >= 0 && (size_t)i < s->n_files ? s->files[i].name : "";
}
int32_t tm__shard_set_count(const tm__shard_set *s) { return s->n; }
int64_t tm__shard_set_total(const tm__shard_set *s) { return s->total; }

static const char *fname(const tm__shard_set *s, int32_t f) { return s->files[f].name; }

/* ---- facts every file repeats ----------------------------------------------- */

/* The shard facts of file f (its k is set by the caller), against the
 * files before it. */
static tm_err check_facts(tm_ctx *ctx, tm__shard_set *s, int32_t f, const char *where, int32_t k,
                          int32_t n, const char *id, int64_t total)
{
    const char *name = fname(s, f);
    if (n < 1 || n > TM_SHARD_MAX || k < 0 || k >= n)
        return tm__fail(ctx, TM_EINPUT, "%s: shard %d/%d: expected K/N with 0 <= K < N <= %d", where,
                        (int)k, (int)n, TM_SHARD_MAX);
    if (strlen(id) != TM_SHARD_ID_LEN || strspn(id, "0123456789abcdef") != TM_SHARD_ID_LEN)
        return tm__fail(ctx, TM_EINPUT, "%s: shard id '%.40s' is not %d hex digits", where, id,
                        TM_SHARD_ID_LEN);
    if (total < 1 || total > MAX_TOTAL)
        return tm__fail(ctx, TM_EINPUT, "%s: shard rows total %lld out of range [1, %d]", where,
                        (long long)total, MAX_TOTAL);
    if (!s->n) {
        s->n = n;
        memcpy(s->id, id, sizeof s->id);
        s->total = total;
        if (!(s->file_of = tm__malloc_n((size_t)n, sizeof *s->file_of)))
            return tm__nomem(ctx);
        for (int32_t i = 0; i < n; i++)
            s->file_of[i] = -1;
    } else if (n != s->n) {
        return tm__fail(ctx, TM_EINPUT, "%s: shard %d/%d, but %s is a shard of %d: not the same "
                        "split", where, (int)k, (int)n, fname(s, 0), (int)s->n);
    } else if (strcmp(id, s->id) != 0) {
        return tm__fail(ctx, TM_EINPUT, "%s: shard id %s, but %s has %s: not the same %s (other "
                        "options or changed input files)", where, id, fname(s, 0), s->id,
                        s->kind->what);
    } else if (total != s->total) {
        return tm__fail(ctx, TM_EINPUT, "%s: %lld rows in all, but %s says %lld", where,
                        (long long)total, fname(s, 0), (long long)s->total);
    }
    if (s->files[f].k < 0) {
        if (s->file_of[k] >= 0 && strcmp(name, fname(s, s->file_of[k])) == 0)
            return tm__fail(ctx, TM_EINPUT, "%s: given twice", name);
        if (s->file_of[k] >= 0)
            return tm__fail(ctx, TM_EINPUT, "%s: shard %d/%d is also %s: each shard once", name,
                            (int)k, (int)n, fname(s, s->file_of[k]));
        s->files[f].k = k;
        s->file_of[k] = f;
    } else if (s->files[f].k != k) {
        return tm__fail(ctx, TM_EINPUT, "%s: shard %d/%d in a file of shard %d", where, (int)k,
                        (int)n, (int)s->files[f].k);
    }
    return TM_EOK;
}

static tm_err add_row(tm_ctx *ctx, tm__shard_set *s, json_t *obj, int32_t f, int64_t where,
                      int64_t pos)
{
    if (tm__grow((void **)&s->rows, &s->cap_rows, s->n_rows + 1, sizeof *s->rows))
        return tm__nomem(ctx);
    s->rows[s->n_rows++] = (tm__shard_row){obj, f, where, pos};
    return TM_EOK;
}

/* ---- JSON ------------------------------------------------------------------- */

/* The value at a '.' path: object members by key, list items by index. */
static json_t *get_path(json_t *v, const char *path)
{
    char key[128];
    while (v && *path) {
        size_t len = strcspn(path, ".");
        if (len >= sizeof key)
            return NULL;
        memcpy(key, path, len);
        key[len] = 0;
        if (json_is_array(v) && len > 0 && len < 10 && strspn(key, "0123456789") == len)
            v = json_array_get(v, (size_t)strtoul(key, NULL, 10));
        else if (json_is_object(v))
            v = json_object_get(v, key);
        else
            return NULL;
        path += len + (path[len] == '.');
    }
    return v;
}

static bool varying(const tm__shard_kind *kind, const char *key)
{
    if (strcmp(key, "shard") == 0 || strcmp(key, kind->json_rows) == 0)
        return true;
    for (const char *const *v = kind->json_varying; v && *v; v++)
        if (strcmp(key, *v) == 0)
            return true;
    return false;
}

/* Every top-level member that must not vary equals the first file's. */
static tm_err same_study(tm_ctx *ctx, const tm__shard_set *s, json_t *doc, const char *name)
{
    json_t *first = s->files[0].doc, *a, *b;
    const char *key;
    for (int pass = 0; pass < 2; pass++) {
        json_t *from = pass ? first : doc, *other = pass ? doc : first;
        json_object_foreach(from, key, a) {
            if (varying(s->kind, key))
                continue;
            b = json_object_get(other, key);
            if (!b || !json_equal(a, b))
                return tm__fail(ctx, TM_EINPUT, "%s: '%.60s' %s %s: not a shard of the same %s",
                                name, key, b ? "differs from that of" : pass ? "is missing, unlike in"
                                : "is not in", fname(s, 0), s->kind->what);
        }
    }
    return TM_EOK;
}

static tm_err json_int_in(tm_ctx *ctx, json_t *obj, const char *key, const char *name,
                          int64_t *out)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v))
        return tm__fail(ctx, TM_EINPUT, "%s: shard.%s is %s, expected an integer", name, key,
                        v ? "not an integer" : "missing");
    *out = (int64_t)json_integer_value(v);
    return TM_EOK;
}

static tm_err read_json(tm_ctx *ctx, tm__shard_set *s, int32_t f, const char *buf, size_t len)
{
    const char *name = fname(s, f);
    json_error_t e;
    json_t *doc, *sh, *pos, *rows, *id;
    int64_t k = 0, n = 0, total = 0;
    tm_err err;
    doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &e);
    if (!doc)
        return e.line > 0 ? tm__fail(ctx, TM_EINPUT, "%s:%d: %s (column %d)", name, e.line, e.text,
                                     e.column)
                          : tm__fail(ctx, TM_EINPUT, "%s: %s", name, e.text);
    s->files[f].doc = doc;
    if (!json_is_object(doc))
        return tm__fail(ctx, TM_EINPUT, "%s: not a JSON object", name);
    sh = json_object_get(doc, "shard");
    if (!json_is_object(sh))
        return tm__fail(ctx, TM_EINPUT, "%s: no 'shard' object: not the output of one shard of a "
                        "%s (%s --shard K/N --out F.json)", name, s->kind->what, s->kind->what);
    if ((err = json_int_in(ctx, sh, "index", name, &k)) || (err = json_int_in(ctx, sh, "count", name, &n)) ||
        (err = json_int_in(ctx, sh, "rows_total", name, &total)))
        return err;
    id = json_object_get(sh, "id");
    if (!json_is_string(id))
        return tm__fail(ctx, TM_EINPUT, "%s: shard.id is %s, expected a string", name,
                        id ? "not a string" : "missing");
    if (k < INT32_MIN || k > INT32_MAX || n < INT32_MIN || n > INT32_MAX)
        k = n = -1;
    if ((err = check_facts(ctx, s, f, name, (int32_t)k, (int32_t)n, json_string_value(id), total)))
        return err;
    if (s->n_files > 1 && (err = same_study(ctx, s, doc, name)))
        return err;
    pos = json_object_get(sh, "rows");
    rows = json_object_get(doc, s->kind->json_rows);
    if (!json_is_array(pos))
        return tm__fail(ctx, TM_EINPUT, "%s: shard.rows is %s, expected a list of positions", name,
                        pos ? "not a list" : "missing");
    if (!json_is_array(rows))
        return tm__fail(ctx, TM_EINPUT, "%s: '%s' is %s, expected a list", name,
                        s->kind->json_rows, rows ? "not a list" : "missing");
    if (json_array_size(pos) != json_array_size(rows))
        return tm__fail(ctx, TM_EINPUT, "%s: %zu positions in shard.rows for %zu %s", name,
                        json_array_size(pos), json_array_size(rows), s->kind->json_rows);
    for (size_t i = 0; i < json_array_size(rows); i++) {
        json_t *r = json_array_get(rows, i), *p = json_array_get(pos, i);
        int64_t v = json_is_integer(p) ? (int64_t)json_integer_value(p) : -1;
        if (!json_is_object(r))
            return tm__fail(ctx, TM_EINPUT, "%s: %s[%zu] is not an object", name,
                            s->kind->json_rows, i);
        if (v < 0 || v >= s->total)
            return tm__fail(ctx, TM_EINPUT, "%s: shard.rows[%zu] is not a position in [0, %lld)",
                            name, i, (long long)s->total);
        if ((err = add_row(ctx, s, r, f, (int64_t)i, v)))
            return err;
    }
    return TM_EOK;
}

/* ---- CSV -------------------------------------------------------------------- */

typedef struct csv_rec {
    char **cell;
    size_t *len;
    int n;
    size_t cap;
    long line;       /* where the record starts */
} csv_rec;

static void rec_clear(csv_rec *r)
{
    for (int i = 0; i < r->n; i++)
        free(r->cell[i]);
    r->n = 0;
}

static void rec_release(csv_rec *r)
{
    rec_clear(r);
    free(r->cell);
    free(r->len);
}

static int rec_push(csv_rec *r, const char *p, size_t len)
{
    size_t cap = r->cap;
    if (tm__grow((void **)&r->cell, &r->cap, (size_t)r->n + 1, sizeof *r->cell))
        return -1;
    if (r->cap != cap) {
        size_t *l = tm__realloc_n(r->len, r->cap, sizeof *l);
        if (!l)
            return -1;
        r->len = l;
    }
    if (!(r->cell[r->n] = tm__strndup(p, len)))
        return -1;
    r->len[r->n++] = len;
    return 0;
}

/* A growable byte buffer for one field. */
typedef struct fbuf {
    char *p;
    size_t n, cap;
} fbuf;

static int fb_add(fbuf *b, const char *p, size_t n)
{
    if (tm__grow((void **)&b->p, &b->cap, b->n + n + 1, 1))
        return -1;
    memcpy(b->p + b->n, p, n);
    b->n += n;
    return 0;
}

/* The next record; *got is false at the end of the file.  A quoted field
 * may go on over the following lines. */
static tm_err next_record(tm__lexer *lx, csv_rec *r, fbuf *fb, bool *got)
{
    tm_err err = tm__lex_next(lx, got);
    const char *p;
    rec_clear(r);
    if (err || !*got)
        return err;
    r->line = lx->line;
    p = lx->buf;
    for (;;) {
        fb->n = 0;
        if (*p == '"') {
            p++;
            for (;;) {
                const char *q = strchr(p, '"');
                if (!q) { /* a line break inside the quotes */
                    if (fb_add(fb, p, strlen(p)) || fb_add(fb, "\n", 1))
                        return tm__nomem(lx->ctx);
                    if ((err = tm__lex_next(lx, got)))
                        return err;
                    if (!*got)
                        return tm__lex_error(lx, "a quoted field opened on line %ld is not closed",
                                             r->line);
                    p = lx->buf;
                    continue;
                }
                if (fb_add(fb, p, (size_t)(q - p)))
                    return tm__nomem(lx->ctx);
                if (q[1] == '"') {
                    if (fb_add(fb, "\"", 1))
                        return tm__nomem(lx->ctx);
                    p = q + 2;
                    continue;
                }
                p = q + 1;
                break;
            }
            if (*p && *p != ',')
                return tm__lex_error(lx, "'%c' after the closing quote of field %d (a quoted "
                                     "field ends at a comma or the line's end)", *p, r->n + 1);
        } else {
            size_t len = strcspn(p, ",\"");
            if (p[len] == '"')
                return tm__lex_error(lx, "a quote inside unquoted field %d (RFC 4180: quote "
                                     "the field and double the quote)", r->n + 1);
            if (fb_add(fb, p, len))
                return tm__nomem(lx->ctx);
            p += len;
        }
        if (rec_push(r, fb->n ? fb->p : "", fb->n))
            return tm__nomem(lx->ctx);
        if (!*p)
            return TM_EOK;
        p++; /* the comma */
    }
}

/* The header: the kind's columns, then the shard's. */
static tm_err csv_header(tm_ctx *ctx, const tm__shard_set *s, tm__lexer *lx, const csv_rec *r)
{
    static const char *const extra[] = {"shard", "shard_id", "shard_row", "shard_rows_total"};
    int want = s->n_csv_cols + 4;
    for (int i = 0; i < want && i < r->n; i++) {
        const char *w = i < s->n_csv_cols ? s->csv_cols[i] : extra[i - s->n_csv_cols];
        if (strcmp(r->cell[i], w) != 0)
            return tm__lex_error(lx, "column %d is '%.60s', expected '%s': not the CSV of one "
                                 "shard of a %s (%s --shard K/N --out F.csv)", i + 1, r->cell[i], w,
                                 s->kind->what, s->kind->what);
    }
    if (r->n != want)
        return tm__lex_error(lx, "%d columns, expected %d: not the CSV of one shard of a %s "
                             "(%s --shard K/N --out F.csv)", r->n, want, s->kind->what,
                             s->kind->what);
    (void)ctx;
    return TM_EOK;
}

/* A cell that must be a decimal integer. */
static tm_err csv_i64(tm__lexer *lx, const csv_rec *r, int c, const char *col, int64_t *out)
{
    if (!r->cell[c][0] || strspn(r->cell[c], "0123456789-") != r->len[c] ||
        tm__str_to_i64(r->cell[c], out) != 0)
        return tm__lex_error(lx, "column '%s': '%.40s' is not an integer", col, r->cell[c]);
    return TM_EOK;
}

/* The shard columns of a record: K/N, id, position, total. */
static tm_err csv_facts(tm_ctx *ctx, tm__shard_set *s, int32_t f, tm__lexer *lx,
                        const csv_rec *r, int64_t *pos)
{
    int c = s->n_csv_cols;
    const char *kn = r->cell[c], *slash = strchr(kn, '/');
    int64_t k, n, total;
    char where[300], num[24];
    tm_err err;
    size_t kl = slash ? (size_t)(slash - kn) : 0;
    if (!slash || kl == 0 || kl >= sizeof num || strspn(kn, "0123456789") != kl ||
        strspn(slash + 1, "0123456789") != strlen(slash + 1) || !slash[1])
        return tm__lex_error(lx, "column 'shard': '%.40s' is not K/N", kn);
    memcpy(num, kn, kl);
    num[kl] = 0;
    if (tm__str_to_i64(num, &k) || tm__str_to_i64(slash + 1, &n) || k > INT32_MAX || n > INT32_MAX)
        return tm__lex_error(lx, "column 'shard': '%.40s' is not K/N", kn);
    if ((err = csv_i64(lx, r, c + 2, "shard_row", pos)) ||
        (err = csv_i64(lx, r, c + 3, "shard_rows_total", &total)))
        return err;
    snprintf(where, sizeof where, "%s:%ld", fname(s, f), r->line);
    if ((err = check_facts(ctx, s, f, where, (int32_t)k, (int32_t)n, r->cell[c + 1], total)))
        return err;
    if (*pos < 0 || *pos >= s->total)
        return tm__lex_error(lx, "column 'shard_row': %lld is not a position in [0, %lld)",
                             (long long)*pos, (long long)s->total);
    return TM_EOK;
}

/* The unsharded columns of a record as a jansson object of strings. */
static tm_err csv_object(tm_ctx *ctx, const tm__shard_set *s, const csv_rec *r, json_t *list,
                         json_t **out)
{
    json_t *o = json_object();
    if (!o || json_array_append_new(list, o))
        return tm__nomem(ctx);
    for (int i = 0; i < s->n_csv_cols; i++) {
        /* no UTF-8 check: a name is bytes, as the writer printed them */
        json_t *v = json_stringn_nocheck(r->cell[i], r->len[i]);
        if (!v || json_object_set_new_nocheck(o, s->csv_cols[i], v))
            return tm__nomem(ctx);
    }
    *out = o;
    return TM_EOK;
}

static tm_err read_csv(tm_ctx *ctx, tm__shard_set *s, int32_t f, const char *buf, size_t len)
{
    const char *name = fname(s, f);
    FILE *in = len ? fmemopen((void *)buf, len, "r") : NULL;
    tm__lexer lx;
    csv_rec r = {0};
    fbuf fb = {0};
    bool got;
    tm_err err = TM_EOK;
    if (!len)
        return tm__fail(ctx, TM_EINPUT, "%s: empty file: not the output of a shard", name);
    if (!in)
        return tm__nomem(ctx);
    if (!(s->files[f].doc = json_array())) {
        fclose(in);
        return tm__nomem(ctx);
    }
    tm__lex_init(&lx, ctx, in, name);
    if (!(err = next_record(&lx, &r, &fb, &got)))
        err = got ? csv_header(ctx, s, &lx, &r)
                  : tm__fail(ctx, TM_EINPUT, "%s: empty file: not the output of a shard", name);
    while (!err && !(err = next_record(&lx, &r, &fb, &got)) && got) {
        int64_t pos = 0;
        json_t *o = NULL;
        if (r.n != s->n_csv_cols + 4)
            err = tm__lex_error(&lx, "%d fields, expected %d as in the header", r.n,
                                s->n_csv_cols + 4);
        else if (!(err = csv_facts(ctx, s, f, &lx, &r, &pos)) &&
                 !(err = csv_object(ctx, s, &r, s->files[f].doc, &o)))
            err = add_row(ctx, s, o, f, r.line, pos);
    }
    if (!err && s->files[f].k < 0)
        err = tm__fail(ctx, TM_EINPUT, "%s: a header and no row: every shard writes at least one "
                       "row (N is at most the number of runs)", name);
    rec_release(&r);
    free(fb.p);
    tm__lex_release(&lx);
    fclose(in);
    return err;
}

/* ---- which kind of output ------------------------------------------------------ */

bool tm__shard_sniff(const char *buf, size_t len, const char *key)
{
    const char *p = buf, *end = buf + len;
    size_t klen = strlen(key);
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    if (p < end && *p == '{') {
        json_t *doc = json_loadb(buf, len, 0, NULL);
        bool has = json_is_object(doc) && json_object_get(doc, key);
        json_decref(doc);
        return has;
    }
    /* the header: columns up to the first line break (our headers quote nothing) */
    while (p < end && *p != '\n' && *p != '\r') {
        const char *q = p;
        while (q < end && *q != ',' && *q != '\n' && *q != '\r')
            q++;
        if ((size_t)(q - p) == klen && memcmp(p, key, klen) == 0)
            return true;
        p = q < end && *q == ',' ? q + 1 : q;
    }
    return false;
}

/* ---- adding a file ------------------------------------------------------------ */

tm_err tm__shard_set_add(tm_ctx *ctx, tm__shard_set *s, FILE *in, const char *name)
{
    char *buf = NULL;
    size_t len = 0;
    const char *p;
    tm__shard_fmt fmt;
    int32_t f;
    tm_err err;
    if (tm__grow((void **)&s->files, &s->cap_files, s->n_files + 1, sizeof *s->files))
        return tm__nomem(ctx);
    f = (int32_t)s->n_files;
    s->files[f] = (sfile){tm__strdup(name), -1, NULL};
    if (!s->files[f].name)
        return tm__nomem(ctx);
    s->n_files++;
    if ((err = tm__read_all(ctx, in, name, MAX_FILE_BYTES, &buf, &len)))
        return err;
    p = tm__skip_blank(buf);
    fmt = *p == '{' || *p == '[' ? TM__SHARD_JSON : TM__SHARD_CSV;
    if (f > 0 && fmt != s->fmt)
        err = tm__fail(ctx, TM_EINPUT, "%s: %s, but %s is %s: give the shards' files of one format",
                       name, fmt == TM__SHARD_JSON ? "JSON" : "CSV", fname(s, 0),
                       s->fmt == TM__SHARD_JSON ? "JSON" : "CSV");
    else if (memchr(buf, '\0', len) && fmt == TM__SHARD_JSON)
        err = tm__fail(ctx, TM_EINPUT, "%s: a NUL byte in JSON text", name);
    else {
        s->fmt = fmt;
        err = fmt == TM__SHARD_JSON ? read_json(ctx, s, f, buf, len) : read_csv(ctx, s, f, buf, len);
    }
    free(buf);
    return err;
}

/* By position, then file and place in it: a position given twice names the
 * later file, whatever qsort does with equal keys. */
static int by_pos(const void *a, const void *b)
{
    const tm__shard_row *x = a, *y = b;
    if (x->pos != y->pos)
        return x->pos < y->pos ? -1 : 1;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    return x->where < y->where ? -1 : x->where > y->where;
}

tm_err tm__shard_set_finish(tm_ctx *ctx, tm__shard_set *s)
{
    char missing[200];
    size_t len = 0;
    int32_t n_missing = 0;
    if (!s->n_files || !s->n)
        return tm__fail(ctx, TM_EUSAGE, "no shard files");
    for (int32_t k = 0; k < s->n; k++)
        if (s->file_of[k] < 0 && n_missing++ < 8 && len < sizeof missing)
            len += (size_t)snprintf(missing + len, sizeof missing - len, "%s%d", len ? ", " : "",
                                    (int)k);
    if (n_missing)
        return tm__fail(ctx, TM_EINPUT, "%s: %d of its %d shards missing (%s%s; given: %zu "
                        "file%s): merge needs the output of every shard 0..%d", fname(s, 0),
                        (int)n_missing, (int)s->n, missing, n_missing > 8 ? ", ..." : "",
                        s->n_files, s->n_files == 1 ? "" : "s", (int)s->n - 1);
    qsort(s->rows, s->n_rows, sizeof *s->rows, by_pos);
    for (size_t i = 1; i < s->n_rows; i++)
        if (s->rows[i].pos == s->rows[i - 1].pos) {
            char a[300], b[300];
            tm__shard_row_where(s, &s->rows[i - 1], a, sizeof a);
            tm__shard_row_where(s, &s->rows[i], b, sizeof b);
            return tm__fail(ctx, TM_EINPUT, "%s: row %lld again (also %s): the shards overlap",
                            b, (long long)s->rows[i].pos, a);
        }
    s->finished = true;
    return TM_EOK;
}

const tm__shard_row *tm__shard_set_row(const tm__shard_set *s, int64_t pos)
{
    size_t lo = 0, hi = s->finished ? s->n_rows : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->rows[mid].pos < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n_rows && s->finished && s->rows[lo].pos == pos ? &s->rows[lo] : NULL;
}

int64_t tm__shard_set_n_rows(const tm__shard_set *s) { return s->finished ? (int64_t)s->n_rows : 0; }

const tm__shard_row *tm__shard_set_nth(const tm__shard_set *s, int64_t i)
{
    return s->finished && i >= 0 && (size_t)i < s->n_rows ? &s->rows[i] : NULL;
}

int64_t tm__shard_row_pos(const tm__shard_row *r) { return r->pos; }

void tm__shard_row_where(const tm__shard_set *s, const tm__shard_row *r, char *buf, size_t size)
{
    if (s->fmt == TM__SHARD_CSV)
        snprintf(buf, size, "%s:%lld", fname(s, r->file), (long long)r->where);
    else
        snprintf(buf, size, "%s: %s[%lld]", fname(s, r->file), s->kind->json_rows,
                 (long long)r->where);
}

/* ---- getters -------------------------------------------------------------------- */

static json_t *field_of(const tm__shard_set *s, const tm__shard_row *r, tm__shard_field f)
{
    return s->fmt == TM__SHARD_CSV ? json_object_get(r->obj, f.csv) : get_path(r->obj, f.json);
}

static const char *field_name(const tm__shard_set *s, tm__shard_field f)
{
    return s->fmt == TM__SHARD_CSV ? f.csv : f.json;
}

/* "file:line: column 'x': <what>" or "file: rows[i]: 'x' <what>". */
static tm_err field_error(tm_ctx *ctx, const tm__shard_set *s, const tm__shard_row *r,
                          tm__shard_field f, const char *what, const char *val)
{
    char w[300];
    tm__shard_row_where(s, r, w, sizeof w);
    if (val)
        return tm__fail(ctx, TM_EINPUT, "%s: %s '%s': '%.60s' %s", w,
                        s->fmt == TM__SHARD_CSV ? "column" : "key", field_name(s, f), val, what);
    return tm__fail(ctx, TM_EINPUT, "%s: %s '%s' %s", w,
                    s->fmt == TM__SHARD_CSV ? "column" : "key", field_name(s, f), what);
}

bool tm__shard_has(const tm__shard_set *s, const tm__shard_row *r, tm__shard_field f)
{
    json_t *v = field_of(s, r, f);
    return v && (s->fmt == TM__SHARD_JSON || json_string_length(v) > 0);
}

tm_err tm__shard_get_str(tm_ctx *ctx, const tm__shard_set *s, const tm__shard_row *r,
                         tm__shard_field f, const char **out)
{
    json_t *v = field_of(s, r, f);
    if (!v)
        return field_error(ctx, s, r, f, "is missing", NULL);
    if (!json_is_string(v))
        return field_error(ctx, s, r, f, "is not a string", NULL);
    *out = json_string_value(v);
    return TM_EOK;
}

tm_err tm__shard_get_int(tm_ctx *ctx, const tm__shard_set *s, const tm__shard_row *r,
                         tm__shard_field f, int64_t lo, int64_t hi, int64_t *out)
{
    json_t *v = field_of(s, r, f);
    const char *t;
    char range[80];
    int64_t x;
    if (!v)
        return field_error(ctx, s, r, f, "is missing", NULL);
    if (s->fmt == TM__SHARD_JSON) {
        if (!json_is_integer(v))
            return field_error(ctx, s, r, f, "is not an integer", NULL);
        x = (int64_t)json_integer_value(v);
    } else {
        t = json_string_value(v);
        if (!*t || strspn(t, "0123456789-") != strlen(t) || tm__str_to_i64(t, &x))
            return field_error(ctx, s, r, f, "is not an integer", t);
    }
    if (x < lo || x > hi) {
        snprintf(range, sizeof range, "%lld is out of range [%lld, %lld]", (long long)x,
                 (long long)lo, (long long)hi);
        return field_error(ctx, s, r, f, range, NULL);
    }
    *out = x;
    return TM_EOK;
}

tm_err tm__shard_get_num(tm_ctx *ctx, const tm__shard_set *s, const tm__shard_row *r,
                         tm__shard_field f, double *out)
{
    json_t *v = field_of(s, r, f);
    const char *t;
    if (!v)
        return field_error(ctx, s, r, f, "is missing", NULL);
    if (s->fmt == TM__SHARD_JSON) {
        if (json_is_null(v))
            *out = NAN;
        else if (json_is_number(v))
            *out = json_number_value(v);
        else
            return field_error(ctx, s, r, f, "is not a number", NULL);
        return TM_EOK;
    }
    /* what printf's %.17g prints for non-finite figures, then decimals */
    t = json_string_value(v);
    if (strcmp(t, "nan") == 0 || strcmp(t, "-nan") == 0)
        *out = t[0] == '-' ? -NAN : NAN;
    else if (strcmp(t, "inf") == 0 || strcmp(t, "-inf") == 0)
        *out = t[0] == '-' ? -INFINITY : INFINITY;
    else if (!*t || tm__str_to_double(t, out))
        return field_error(ctx, s, r, f, "is not a number", t);
    return TM_EOK;
}

tm_err tm__shard_get_bool(tm_ctx *ctx, const tm__shard_set *s, const tm__shard_row *r,
                          tm__shard_field f, bool *out)
{
    json_t *v = field_of(s, r, f);
    const char *t;
    if (!v)
        return field_error(ctx, s, r, f, "is missing", NULL);
    if (s->fmt == TM__SHARD_JSON) {
        if (!json_is_boolean(v))
            return field_error(ctx, s, r, f, "is not true or false", NULL);
        *out = json_is_true(v);
        return TM_EOK;
    }
    t = json_string_value(v);
    if (strcmp(t, "true") != 0 && strcmp(t, "false") != 0)
        return field_error(ctx, s, r, f, "is not true or false", t);
    *out = t[0] == 't';
    return TM_EOK;
}

tm_err tm__shard_get_list(tm_ctx *ctx, const tm__shard_set *s, const tm__shard_row *r,
                          tm__shard_field f, int64_t *n)
{
    json_t *v = field_of(s, r, f);
    if (s->fmt != TM__SHARD_JSON)
        return tm__fail(ctx, TM_EUSAGE, "'%s' is a list only in JSON shards", f.json);
    if (!v)
        return field_error(ctx, s, r, f, "is missing", NULL);
    if (!json_is_array(v))
        return field_error(ctx, s, r, f, "is not a list", NULL);
    for (size_t i = 0; i < json_array_size(v); i++)
        if (!json_is_string(json_array_get(v, i))) {
            char what[64];
            snprintf(what, sizeof what, "item %zu is not a string", i);
            return field_error(ctx, s, r, f, what, NULL);
        }
    *n = (int64_t)json_array_size(v);
    return TM_EOK;
}

const char *tm__shard_row_item(const tm__shard_set *s, const tm__shard_row *r,
                               tm__shard_field f, int64_t i)
{
    json_t *v = s->fmt == TM__SHARD_JSON ? json_array_get(field_of(s, r, f), (size_t)i) : NULL;
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* ---- the first file's members (JSON) ------------------------------------------- */

static json_t *meta(const tm__shard_set *s, const char *path)
{
    return s->fmt == TM__SHARD_JSON && s->n_files ? get_path(s->files[0].doc, path) : NULL;
}

static tm_err meta_error(tm_ctx *ctx, const tm__shard_set *s, const char *path, const char *what)
{
    if (s->fmt != TM__SHARD_JSON)
        return tm__fail(ctx, TM_EUSAGE, "'%s' is only in JSON shards (CSV files do not hold it)",
                        path);
    return tm__fail(ctx, TM_EINPUT, "%s: '%s' %s", s->n_files ? fname(s, 0) : "?", path, what);
}

tm_err tm__shard_meta_str(tm_ctx *ctx, const tm__shard_set *s, const char *path,
                          const char **out)
{
    json_t *v = meta(s, path);
    if (!json_is_string(v))
        return meta_error(ctx, s, path, v ? "is not a string" : "is missing");
    *out = json_string_value(v);
    return TM_EOK;
}

tm_err tm__shard_meta_int(tm_ctx *ctx, const tm__shard_set *s, const char *path, int64_t lo,
                          int64_t hi, int64_t *out)
{
    json_t *v = meta(s, path);
    if (!json_is_integer(v))
        return meta_error(ctx, s, path, v ? "is not an integer" : "is missing");
    if (json_integer_value(v) < lo || json_integer_value(v) > hi)
        return meta_error(ctx, s, path, "is out of range");
    *out = (int64_t)json_integer_value(v);
    return TM_EOK;
}

bool tm__shard_meta_has(const tm__shard_set *s, const char *path)
{
    json_t *v = meta(s, path);
    return v && !json_is_null(v);
}

tm_err tm__shard_meta_num(tm_ctx *ctx, const tm__shard_set *s, const char *path, double *out)
{
    json_t *v = meta(s, path);
    if (json_is_null(v))
        *out = NAN;
    else if (json_is_number(v))
        *out = json_number_value(v);
    else
        return meta_error(ctx, s, path, v ? "is not a number" : "is missing");
    return TM_EOK;
}

tm_err tm__shard_meta_list(tm_ctx *ctx, const tm__shard_set *s, const char *path, int64_t *n)
{
    json_t *v = meta(s, path);
    if (!json_is_array(v))
        return meta_error(ctx, s, path, v ? "is not a list" : "is missing");
    *n = (int64_t)json_array_size(v);
    return TM_EOK;
}

const char *tm__shard_meta_item(const tm__shard_set *s, const char *path, int64_t i, char *buf,
                                size_t size)
{
    json_t *v = json_array_get(meta(s, path), (size_t)i);
    if (json_is_string(v))
        return json_string_value(v);
    if (json_is_integer(v)) {
        snprintf(buf, size, "%lld", (long long)json_integer_value(v));
        return buf;
    }
    return NULL;
}
