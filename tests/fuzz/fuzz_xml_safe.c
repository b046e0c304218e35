/* fuzz_xml_safe.c - the hardened libxml2 entry point every XML reader
 * shares (src/io/xml_int.h): never a crash, a leak, a file or network
 * access, whatever the document. */
#include "fuzz_common.h"
#include "io/xml_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_ctx *ctx = fz_ctx();
    xmlDocPtr doc = NULL;
    tm_err err = tm__xml_parse_mem(ctx, (const char *)data, size, FZ_NAME, &doc);
    fz_check_err(ctx, err, 1);
    if (err == TM_EOK && !doc)
        fz_die("success without a document", err, ctx);
    if (err != TM_EOK && doc)
        fz_die("document returned with an error", err, ctx);
    xmlFreeDoc(doc);
    tm_ctx_free(ctx);
    return 0;
}
