/*
 * warn_summary.c - what the CLI does with the library's warnings.
 *
 * A real dump can warn dozens of times about one thing (every CA of an
 * NDR fabric without a hostname: `CA "H-..." has no hostname ...`), which
 * buries the answer.  So warnings are held and, when the command ends or
 * fails, printed as one line per kind: the count, the first one in full
 * (with its file:line) and, for the kinds whose cure is known, the fix:
 *
 *   topomap: warning: 48 warnings like: f.topo:12: CA "H-..." has no hostname ...;
 *            fix: --node-name-map FILE ... (--verbose lists each)
 *
 * A kind is the message with its leading "file:line: " dropped, quoted
 * text blanked and every word holding a digit replaced by '#'.  With
 * --verbose every warning is printed as it comes, as before.  Other log
 * levels pass through.
 *
 * The holder is a per-command object (cli_warns, made by main.c and given
 * to every context of the command as its log callback's user data), so
 * the warnings of every context a command makes go to one summary, which
 * is printed once, after the command (cli_report: before an error).
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warn_summary.h"

struct cli_warn_kind {
    char *key, *first;
    long count;
    char *list;      /* the items collected from every warning of the kind */
    size_t list_len;
    long listed;     /* items in list */
};
typedef cli_warn_kind kind;

/* Items listed per kind, at most (the rest are counted). */
enum { LIST_MAX = 16 };

/* Kinds whose cure is known: a substring of the message and the fix; for
 * some, the word after `item` in each warning is listed under `label`
 * (every GUID a node-name map lacks, not only the first one's). */
static const struct {
    const char *has, *fix, *item, *label;
} fixes[] = {
    {"has no line for its GUID",
     "add a line 'GUID \"hostname\"' per missing GUID to the node-name map", "its GUID ",
     "GUIDs missing from the map"},
    {"has no hostname in its description",
     "--node-name-map FILE (lines 'GUID \"hostname\"', the map ibnetdiscover reads) names them",
     NULL, NULL},
    {"is not in the topology; table skipped",
     "none if the directory holds another subnet's tables too; else the tables are not this "
     "fabric's", NULL, NULL},
    {"tool diagnostic ignored",
     "none needed, the tables are complete (delete the tools' lines to silence it)", NULL, NULL},
    {"is already LID of", "two ports share a LID in the dump: run ibnetdiscover again", NULL,
     NULL},
};

/* The entry of fixes[] for msg, -1 if none. */
static int fix_index(const char *msg)
{
    for (size_t i = 0; i < sizeof fixes / sizeof *fixes; i++)
        if (strstr(msg, fixes[i].has))
            return (int)i;
    return -1;
}

/* Adds the item of msg (the word after fixes[].item) to the kind's list;
 * false without memory. */
static bool list_item(kind *k, const char *msg)
{
    int f = fix_index(msg);
    const char *p = f >= 0 && fixes[f].item ? strstr(msg, fixes[f].item) : NULL;
    size_t len;
    char *nl;
    if (!p)
        return true;
    p += strlen(fixes[f].item);
    len = strcspn(p, " ;,()");
    if (k->listed++ >= LIST_MAX)
        return true;
    nl = realloc(k->list, k->list_len + len + 3);
    if (!nl)
        return false;
    k->list = nl;
    if (k->list_len) {
        memcpy(k->list + k->list_len, ", ", 2);
        k->list_len += 2;
    }
    memcpy(k->list + k->list_len, p, len);
    k->list_len += len;
    k->list[k->list_len] = '\0';
    return true;
}

static void print(tm_log_level level, const char *msg)
{
    fprintf(stderr, "topomap: %s%s\n", level == TM_LOG_WARN ? "warning: " : "", msg);
}

/* Length of a leading "file:line: " or "path/file: " (0 if none). */
static size_t location(const char *m)
{
    const char *sep = strstr(m, ": ");
    bool digits_before = false, path = false;
    if (!sep)
        return 0;
    for (const char *p = m; p < sep; p++) {
        if (*p == ' ')
            return 0;
        path |= *p == '/' || *p == '.';
        digits_before |= *p == ':' && isdigit((unsigned char)p[1]);
    }
    return digits_before || path ? (size_t)(sep - m) + 2 : 0;
}

static char *kind_key(const char *msg)
{
    const char *p = msg + location(msg);
    char *out = malloc(strlen(p) + 1), *o = out;
    if (!out)
        return NULL;
    while (*p) {
        if (*p == '"' || *p == '\'') {
            const char *e = strchr(p + 1, *p);
            *o++ = *p;
            *o++ = *p;
            p = e ? e + 1 : p + strlen(p);
            continue;
        }
        size_t w = strcspn(p, " \"'"), d = 0;
        for (size_t i = 0; i < w; i++)
            d += isdigit((unsigned char)p[i]) != 0;
        if (d) {
            *o++ = '#';
        } else {
            memcpy(o, p, w);
            o += w;
        }
        p += w;
        if (*p == ' ')
            *o++ = *p++;
    }
    *o = '\0';
    return out;
}

/* Counts msg under its kind; false if it could not be held. */
static bool hold(cli_warns *held, const char *msg)
{
    char *key = kind_key(msg);
    kind *k;
    if (!key)
        return false;
    for (size_t i = 0; i < held->n; i++)
        if (strcmp(held->kinds[i].key, key) == 0) {
            held->kinds[i].count++;
            free(key);
            return list_item(&held->kinds[i], msg);
        }
    if (held->n == held->cap) {
        size_t cap = held->cap ? 2 * held->cap : 16;
        kind *nk = realloc(held->kinds, cap * sizeof *nk);
        if (!nk) {
            free(key);
            return false;
        }
        held->kinds = nk;
        held->cap = cap;
    }
    k = &held->kinds[held->n];
    k->first = strdup(msg);
    if (!k->first) {
        free(key);
        return false;
    }
    k->key = key;
    k->count = 1;
    k->list = NULL;
    k->list_len = 0;
    k->listed = 0;
    held->n++;
    return list_item(k, msg);
}

void cli_warns_init(cli_warns *w, bool verbose)
{
    pthread_mutex_init(&w->mu, NULL);
    w->verbose = verbose;
    w->kinds = NULL;
    w->n = w->cap = 0;
}

void cli_warns_release(cli_warns *w)
{
    cli_warn_flush(w);
    pthread_mutex_destroy(&w->mu);
}

void cli_warn_log(void *ud, tm_log_level level, const char *msg)
{
    cli_warns *held = ud;
    pthread_mutex_lock(&held->mu);
    if (level != TM_LOG_WARN || held->verbose || !hold(held, msg))
        print(level, msg);
    pthread_mutex_unlock(&held->mu);
}

bool cli_warn_take_verbose(int *argc, char **argv)
{
    int j = 1;
    bool dash = false, found = false;
    for (int i = 1; i < *argc; i++) {
        dash |= strcmp(argv[i], "--") == 0;
        if (!dash && strcmp(argv[i], "--verbose") == 0) {
            found = true;
            continue;
        }
        argv[j++] = argv[i];
    }
    *argc = j;
    argv[j] = NULL;
    return found;
}

void cli_warn_flush(cli_warns *held)
{
    pthread_mutex_lock(&held->mu);
    for (size_t i = 0; i < held->n; i++) {
        kind *k = &held->kinds[i];
        int f = fix_index(k->first);
        const char *fix = f >= 0 ? fixes[f].fix : NULL;
        if (k->count == 1) {
            print(TM_LOG_WARN, k->first);
        } else {
            fprintf(stderr, "topomap: warning: %ld warnings like: %s", k->count, k->first);
            if (k->list)
                fprintf(stderr, "; %s: %s%s", fixes[f].label, k->list,
                        k->listed > LIST_MAX ? ", ..." : "");
            if (k->list && k->listed > LIST_MAX)
                fprintf(stderr, " (%ld in all)", k->listed);
            fprintf(stderr, "%s%s (--verbose lists each)\n", fix ? "; fix: " : "", fix ? fix : "");
        }
        free(k->key);
        free(k->first);
        free(k->list);
    }
    free(held->kinds);
    held->kinds = NULL;
    held->n = held->cap = 0;
    pthread_mutex_unlock(&held->mu);
}
