/* options_verify.c - setters of the verify options (verify=, verify_pattern);
 * the plain verify_* keys are table fields (options.c). */
#include "jobfile/options_int.h"

#include <errno.h>

#include "job/verify_hdr.h"

JOPT_SETTER(verify)
{
    int k = verify_kind_parse(v);
    if (k < 0)
        return jopt_fail(c, -EINVAL, "unknown verify method '%s' (md5, crc64, crc32c, crc32c-intel, crc32, "
                         "crc16, crc7, xxhash, sha1, sha256, sha512, sha3-224, sha3-256, sha3-384, "
                         "sha3-512, meta, pattern, null or 0)", v);
    c->job->verify = (enum job_verify)k;
    c->x->verify_set = true;
    return 0;
}

JOPT_SETTER(verify_pattern)
{
    char msg[160];
    if (verify_pattern_parse(c->job, v, msg, sizeof(msg)) < 0)
        return jopt_fail(c, -EINVAL, "%s", msg);
    /* fio: a pattern alone means verify=pattern */
    if (!c->x->verify_set)
        c->job->verify = VERIFY_PATTERN;
    return 0;
}
