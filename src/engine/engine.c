/* engine.c - maps the job's engine choice onto an engine vtable. */
#include "engine/engine.h"

/* engine_mmap.c (sysbench fileio's mmap mode) */

const struct engine_ops *engine_lookup(enum engine_kind kind)
{
    switch (kind) {
    case ENGINE_IO_URING: return &engine_uring_ops;
    case ENGINE_LIBAIO: return &engine_aio_ops;
    case ENGINE_PSYNC: return &engine_psync_ops;
    case ENGINE_NULL: return &engine_null_ops;
    case ENGINE_MMAP: return &engine_mmap_ops;
    case ENGINE_POSIXAIO: return &engine_posixaio_ops;
    case ENGINE_URING_CMD: return &engine_uring_cmd_ops;
    case ENGINE_SG: return &engine_sg_ops;
    case ENGINE_FALLOC: return &engine_falloc_ops;
    case ENGINE_FTRUNCATE: return &engine_ftruncate_ops;
    case ENGINE_CPUIO: return &engine_cpuio_ops;
    case ENGINE_FILECREATE: return &engine_filecreate_ops;
    case ENGINE_FILESTAT: return &engine_filestat_ops;
    case ENGINE_FILEDELETE: return &engine_filedelete_ops;
    case ENGINE_EXEC: return &engine_exec_ops;
    case ENGINE_E4DEFRAG: return &engine_e4defrag_ops;
    }
    return 0;
}
