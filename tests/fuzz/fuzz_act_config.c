/* fuzz_act_config.c - ACT config files (act/act_config.c), then the
 * checks and derived rates and device layout a valid config goes on to. */
#include "fuzz.h"

#include "act/act_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstr(data, size);
    char err[512];
    struct act_config c;
    act_config_defaults(&c);
    if (act_config_parse_text(&c, text, "fuzz.conf", err, sizeof(err)) == 0 &&
        act_config_check(&c, err, sizeof(err)) == 0) {
        static const unsigned cpus[2] = {1, 64};
        static const uint32_t mins[2] = {512, 4096};
        for (unsigned i = 0; i < 2; i++) {
            struct act_derived d;
            if (act_config_derive(&c, cpus[i], mins[i], &d, err, sizeof(err)) == 0) {
                struct act_device_layout l;
                act_device_layout(&d, (uint64_t)1 << 30, mins[i], &l);
                act_device_layout(&d, 4096, mins[i], &l);
            }
        }
    }
    double load;
    act_parse_load(text, &load);
    free(text);
    return 0;
}
