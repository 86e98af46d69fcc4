/* result_verify.c - the "verify" object of a job (see result_verify.h). */
#include "result/result_verify.h"

#include <stdio.h>

static void hex(const uint8_t *p, unsigned n, char *out)
{
    for (unsigned i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", p[i]);
    out[2 * n] = 0;
}

cJSON *result_verify_json(const struct job_spec *jb, const struct verify_stats *vs,
                          const char *first_target_id)
{
    cJSON *v = cJSON_CreateObject();
    cJSON_AddStringToObject(v, "method", verify_kind_name(jb->verify));
    cJSON_AddNumberToObject(v, "interval", jb->verify_interval);
    cJSON_AddBoolToObject(v, "verify_only", jb->verify_only);
    cJSON_AddNumberToObject(v, "blocks_written", (double)vs->written);
    cJSON_AddNumberToObject(v, "blocks_checked", (double)vs->blocks);
    cJSON_AddNumberToObject(v, "bytes_checked", (double)vs->bytes);
    cJSON_AddNumberToObject(v, "backlog_blocks", (double)vs->backlog_blocks);
    cJSON_AddNumberToObject(v, "bad_blocks", (double)vs->bad);
    if (!vs->have_first) {
        cJSON_AddNullToObject(v, "first_bad");
        return v;
    }
    const struct verify_bad *b = &vs->first;
    cJSON *fb = cJSON_AddObjectToObject(v, "first_bad");
    cJSON_AddStringToObject(fb, "target", first_target_id);
    cJSON_AddNumberToObject(fb, "offset", (double)b->off);
    cJSON_AddNumberToObject(fb, "length", b->len);
    cJSON_AddNumberToObject(fb, "chunk_offset", (double)b->chunk_off);
    cJSON_AddNumberToObject(fb, "chunk_length", b->chunk_len);
    cJSON_AddStringToObject(fb, "problem", b->what ? b->what : "?");
    if (b->sumlen) {
        char h[2 * VERIFY_DIGEST_MAX + 1];
        hex(b->want_sum, b->sumlen, h);
        cJSON_AddStringToObject(fb, "expected_checksum", h);
        hex(b->got_sum, b->sumlen, h);
        cJSON_AddStringToObject(fb, "found_checksum", h);
    } else {
        cJSON_AddNumberToObject(fb, "expected", (double)b->want);
        cJSON_AddNumberToObject(fb, "found", (double)b->got);
    }
    cJSON_AddNumberToObject(fb, "first_differing_byte", (double)b->first_diff);
    if (verify_hdr_size(jb->verify)) {
        cJSON *h = cJSON_AddObjectToObject(fb, "header_found");
        cJSON_AddNumberToObject(h, "offset", (double)b->hdr_off);
        cJSON_AddNumberToObject(h, "length", b->hdr_len);
        char sd[24];
        snprintf(sd, sizeof(sd), "0x%016llx", (unsigned long long)b->hdr_seed);
        cJSON_AddStringToObject(h, "seed", sd); /* 64 bits: a JSON number would round it */
        cJSON_AddNumberToObject(h, "sequence", (double)b->hdr_seq);
    }
    if (vs->dump_received[0]) {
        cJSON_AddStringToObject(fb, "dump_received", vs->dump_received);
        cJSON_AddStringToObject(fb, "dump_expected", vs->dump_expected);
    }
    return v;
}
