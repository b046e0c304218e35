/*
 * names.c - what every writer of src/slurm/ checks and writes the same way:
 * names Slurm's parsers can read (no blanks, ',', '[', ']', '#', '=', quotes
 * or control characters; switch names of at most 64 characters, the limit
 * topology.conf(5) and topology.yaml(5) state), and YAML scalars.
 */
#include <string.h>
#include <strings.h>

#include "slurm_int.h"
#include "../util/util.h"

#define SLURM_SWITCH_NAME_MAX 64

tm_err tm__slurm_check_name(tm_ctx *ctx, const tm_net *net, int32_t v)
{
    const char *s = tm_net_name(net, v);
    bool sw = tm_net_kind(net, v) == TM_VERTEX_SWITCH;
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == 0x7f || strchr(",[]#=\"'", *p))
            return tm__fail(ctx, TM_EINFEASIBLE, "%s name '%s' cannot be written in a Slurm "
                            "topology file (blank, control character or one of , [ ] # = \" ')",
                            sw ? "switch" : "host", s);
    if (sw && strlen(s) > SLURM_SWITCH_NAME_MAX)
        return tm__fail(ctx, TM_EINFEASIBLE, "switch name '%s' is longer than Slurm's limit of "
                        "%d characters", s, SLURM_SWITCH_NAME_MAX);
    return TM_EOK;
}

/* A YAML scalar: plain when it cannot be read as anything but a string,
 * double-quoted otherwise (names have no control characters here). */
void tm__slurm_yaml_scalar(FILE *out, const char *s)
{
    static const char *const words[] = {"true", "false", "yes", "no", "on", "off", "null", "y",
                                        "n", "~"};
    bool plain = (s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_';
    for (const char *p = s; *p && plain; p++)
        plain = strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-[],/+@",
                       *p) != NULL;
    for (size_t k = 0; k < sizeof words / sizeof *words && plain; k++)
        plain = strcasecmp(s, words[k]) != 0;
    if (plain) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s, out);
    }
    fputc('"', out);
}
