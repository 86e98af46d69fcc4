/* fuzz_device.c - the device parsers (device/device_parse.h and
 * smartctl_parse.c) and the health figures derived from them, on arbitrary
 * bytes: the NVMe Identify Controller / Namespace and SMART log, the ATA
 * IDENTIFY and SMART READ DATA sectors (each from the input, zero-padded
 * to its size), and the input as `smartctl --json` text. */
#include "fuzz.h"

#include "device/device.h"
#include "device/device_parse.h"
#include "result/result_device.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t buf[NVME_ID_BYTES];
    memset(buf, 0, sizeof(buf));
    memcpy(buf, data, size < sizeof(buf) ? size : sizeof(buf));
    struct nvme_id_ctrl c;
    struct nvme_id_ns ns;
    struct nvme_smart sm;
    struct ata_identity a;
    struct ata_smart as;
    struct device_health h;
    nvme_parse_id_ctrl(buf, sizeof(buf), &c);
    if (nvme_parse_id_ns(buf, sizeof(buf), &ns) == 0 && ns.flbas_index >= NVME_MAX_LBAF)
        abort();
    if (nvme_parse_smart(buf, NVME_SMART_BYTES, &sm) == 0)
        device_health_nvme(&sm, &h);
    ata_parse_identity(buf, ATA_SECTOR_BYTES, &a);
    if (ata_parse_smart(buf, ATA_SECTOR_BYTES, &as) == 0) {
        device_health_ata(&as, a.model, &h);
        cJSON_Delete(result_health_reading(&h));
    }
    /* short buffers are refused, never read past */
    if (size < NVME_ID_BYTES && nvme_parse_id_ctrl(data, size, &c) == 0)
        abort();
    if (size < ATA_SECTOR_BYTES && ata_parse_identity(data, size, &a) == 0)
        abort();
    struct device_identity id;
    if (device_smartctl_parse((const char *)data, size, &id, &h) == 0)
        cJSON_Delete(result_health_reading(&h));
    return 0;
}
