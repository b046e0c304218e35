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
 * The holder is the one piece of process-wide state of the CLI (guarded:
 * the library may warn from its threads): stderr belongs to the process,
 * the warnings of every context a command makes go to one summary, and
 * main.c prints it once, after the command (cli_report before an error).
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warn_summary.h"

typedef struct kind {
    char *key, *first;
    long count;
} kind;

static struct {
    pthread_mutex_t mu;
    bool verbose;
    kind *kinds;
    size_t n, cap;
} held = {PTHREAD_MUTEX_INITIALIZER, false, NULL, 0, 0};

/* Kinds whose cure is known: a substring of the message and the fix. */
static const struct {
    const char *has, *fix;
} fixes[] = {
    {"has no hostname in its description",
     "--node-name-map FILE (lines 'GUID \"hostname\"', the map ibnetdiscover reads) names them"},
    {"is not in the topology; table skipped",
     "none if the directory holds another subnet's tables too; else the tables are not this "
     "fabric's"},
    {"tool diagnostic ignored",
     "none needed, the tables are complete (delete the tools' lines to silence it)"},
    {"is already LID of", "two ports share a LID in the dump: run ibnetdiscover again"},
};

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
static bool hold(const char *msg)
{
    char *key = kind_key(msg);
    kind *k;
    if (!key)
        return false;
    for (size_t i = 0; i < held.n; i++)
        if (strcmp(held.kinds[i].key, key) == 0) {
            held.kinds[i].count++;
            free(key);
            return true;
        }
    if (held.n == held.cap) {
        size_t cap = held.cap ? 2 * held.cap : 16;
        kind *nk = realloc(held.kinds, cap * sizeof *nk);
        if (!nk) {
            free(key);
            return false;
        }
        held.kinds = nk;
        held.cap = cap;
    }
    k = &held.kinds[held.n];
    k->first = strdup(msg);
    if (!k->first) {
        free(key);
        return false;
    }
    k->key = key;
    k->count = 1;
    held.n++;
    return true;
}

void cli_warn_log(void *ud, tm_log_level level, const char *msg)
{
    (void)ud;
    pthread_mutex_lock(&held.mu);
    if (level != TM_LOG_WARN || held.verbose || !hold(msg))
        print(level, msg);
    pthread_mutex_unlock(&held.mu);
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
    pthread_mutex_lock(&held.mu);
    held.verbose = found;
    pthread_mutex_unlock(&held.mu);
    return found;
}

static const char *fix_of(const char *msg)
{
    for (size_t i = 0; i < sizeof fixes / sizeof *fixes; i++)
        if (strstr(msg, fixes[i].has))
            return fixes[i].fix;
    return NULL;
}

void cli_warn_flush(void)
{
    pthread_mutex_lock(&held.mu);
    for (size_t i = 0; i < held.n; i++) {
        kind *k = &held.kinds[i];
        const char *fix = fix_of(k->first);
        if (k->count == 1)
            print(TM_LOG_WARN, k->first);
        else
            fprintf(stderr, "topomap: warning: %ld warnings like: %s%s%s (--verbose lists each)\n",
                    k->count, k->first, fix ? "; fix: " : "", fix ? fix : "");
        free(k->key);
        free(k->first);
    }
    free(held.kinds);
    held.kinds = NULL;
    held.n = held.cap = 0;
    pthread_mutex_unlock(&held.mu);
}
