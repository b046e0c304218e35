/*
 * ibnet_names.c - vertex names for InfiniBand nodes (docs/ibnetdiscover.md):
 *
 * - CA: hostname = first word of the node description (or of the name the
 *   node-name map gives for its node GUID or one of its port GUIDs).
 *   Firmware-default descriptions ("MT25408 ConnectX Mellanox
 *   Technologies", first word MT<digits> or "Mellanox") carry no hostname:
 *   such a CA is named by its id ("H-<guid16>") with a warning.
 *   keep_hcas_separate: "<host>/<rest of the description>" with blanks
 *   turned into '_' ("node001/mlx5_0"), or "<host>/<id>".
 * - SHARP "Aggregation Node" CAs are not hosts (excluded).
 * - Switch and router: "MF0;<name>:<model>/U1" -> <name>; else a one-word
 *   description; else (or when that name is not unique) its id
 *   ("S-<guid16>", the name Slurm topology.conf tools use).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ibnet_int.h"

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

static const char *first_word(const char *s, size_t *len)
{
    const char *t;
    while (is_blank(*s))
        s++;
    t = s;
    while (*s && !is_blank(*s))
        s++;
    *len = (size_t)(s - t);
    return t;
}

bool tm__ib_is_sharp(const char *desc) { return desc && strstr(desc, "Aggregation Node"); }

/* Firmware defaults: "MT25408 ConnectX Mellanox Technologies",
 * "MT4123 ConnectX6   Mellanox Technologies", "Mellanox Technologies ...". */
bool tm__ib_is_generic(const char *desc)
{
    size_t len;
    const char *w;
    if (!desc)
        return true;
    w = first_word(desc, &len);
    if (len == 0)
        return true;
    if (len >= 3 && w[0] == 'M' && w[1] == 'T') {
        size_t i = 2;
        while (i < len && isdigit((unsigned char)w[i]))
            i++;
        if (i == len)
            return true;
    }
    return len == 8 && !strncmp(w, "Mellanox", 8);
}

char *tm__ib_host_name(const char *eff, const char *id, bool separate, bool *generic)
{
    size_t hlen, rlen = 0, n;
    const char *h, *r;
    char *out;
    *generic = tm__ib_is_generic(eff);
    if (*generic)
        return tm__strdup(id);
    h = first_word(eff, &hlen);
    if (!separate)
        return tm__strndup(h, hlen);
    r = h + hlen;
    while (is_blank(*r))
        r++;
    rlen = strlen(r);
    while (rlen && is_blank(r[rlen - 1]))
        rlen--;
    if (!rlen) {
        r = id;
        rlen = strlen(id);
    }
    n = hlen + 1 + rlen;
    out = malloc(n + 1);
    if (!out)
        return NULL;
    memcpy(out, h, hlen);
    out[hlen] = '/';
    for (size_t i = 0; i < rlen; i++)
        out[hlen + 1 + i] = is_blank(r[i]) ? '_' : r[i];
    out[n] = '\0';
    return out;
}

char *tm__ib_switch_name(const char *eff, const char *id)
{
    size_t len;
    const char *w;
    if (eff && !strncmp(eff, "MF0;", 4)) {
        const char *s = eff + 4, *e = s;
        while (*e && *e != ':' && !is_blank(*e) && *e != '"')
            e++;
        if (e > s && (*e == ':' || !*e))
            return tm__strndup(s, (size_t)(e - s));
    }
    if (eff) {
        w = first_word(eff, &len);
        if (len && !w[len] && w == eff && !memchr(w, '"', len))
            return tm__strndup(w, len);
    }
    return tm__strdup(id);
}

int tm__ib_natural_cmp(const char *a, const char *b)
{
    const char *a0 = a, *b0 = b;
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            const char *ea, *eb;
            size_t la, lb;
            int c;
            while (*a == '0' && isdigit((unsigned char)a[1]))
                a++;
            while (*b == '0' && isdigit((unsigned char)b[1]))
                b++;
            for (ea = a; isdigit((unsigned char)*ea); ea++)
                ;
            for (eb = b; isdigit((unsigned char)*eb); eb++)
                ;
            la = (size_t)(ea - a);
            lb = (size_t)(eb - b);
            if (la != lb)
                return la < lb ? -1 : 1;
            c = memcmp(a, b, la);
            if (c)
                return c < 0 ? -1 : 1;
            a = ea;
            b = eb;
        } else {
            if (*a != *b)
                return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
            a++;
            b++;
        }
    }
    if (*a || *b)
        return *a ? 1 : -1;
    return strcmp(a0, b0); /* "n01" vs "n1": still a total order */
}
