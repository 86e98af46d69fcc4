/* engine_opts.h - what an engine is told before init: which engine, fio's
 * io_uring and sg options, and the size of its file table. Plain data, so
 * the job spec (job/) embeds these and the runner passes them down. */
#ifndef SSDBENCH_ENGINE_OPTS_H
#define SSDBENCH_ENGINE_OPTS_H

#include <stdbool.h>
#include <stdint.h>

/* files an engine instance serves at most (its file table) */
#define ENGINE_MAX_FILES 128

/* ENGINE_URING_CMD: NVMe passthrough on /dev/ngXnY (fio's io_uring_cmd,
 * cmd_type=nvme); ENGINE_SG: SCSI commands through SG_IO on /dev/sgN or
 * /dev/sdX (fio's sg) */
/* fio's small local engines (engine_small.c, engine_names.c): ENGINE_FALLOC
 * fallocates each I/O's range, ENGINE_FTRUNCATE truncates its file to each
 * write's offset, ENGINE_CPUIO burns CPU with no I/O, and the file-operation
 * engines create, stat or delete each file of the job's name set once per
 * pass; ENGINE_E4DEFRAG moves each write's blocks to a donor file's
 * (EXT4_IOC_MOVE_EXT). */
enum engine_kind { ENGINE_IO_URING, ENGINE_LIBAIO, ENGINE_PSYNC, ENGINE_NULL, ENGINE_MMAP,
                   ENGINE_URING_CMD, ENGINE_SG, ENGINE_POSIXAIO, ENGINE_FALLOC, ENGINE_FTRUNCATE,
                   ENGINE_CPUIO, ENGINE_FILECREATE, ENGINE_FILESTAT, ENGINE_FILEDELETE, ENGINE_EXEC,
                   ENGINE_E4DEFRAG };

/* the file-operation engines: they act on names, not descriptors */
static inline bool engine_kind_by_name(enum engine_kind e)
{
    return e == ENGINE_FILECREATE || e == ENGINE_FILESTAT || e == ENGINE_FILEDELETE;
}

/* fio's cpuio options (cpuload, cpuchunks = fio's cpucycle, cpumode) and
 * filestat's stat_type (enum engine_stat_type) */
enum engine_stat_type { STAT_TYPE_STAT = 1, STAT_TYPE_LSTAT, STAT_TYPE_STATX };
struct engine_small_opts {
    unsigned cpuload;            /* percent of a CPU (1..100) */
    unsigned cpuchunks;          /* microseconds of each burn */
    bool cpu_qsort;              /* cpumode=qsort (else noop: spin) */
    uint8_t stat_type;
    /* e4defrag: the donor file (directory= before it, as fio) and whether
     * each write allocates and frees the donor's space itself (inplace) */
    char donor[1024];
    bool inplace;
};

/* fio's exec engine (engine_exec.c): the program and its arguments (%r and
 * %n already replaced by the job language), the seconds it is given to
 * stop after SIGTERM, and whether its output goes to NAME.stdout and
 * NAME.stderr (descriptors the runner opened through the guard) */
struct engine_exec_opts {
    char program[256];
    char arguments[512];
    unsigned grace_time;         /* seconds (fio's default 1) */
    bool std_redirect;           /* fio's default 1 */
    uint64_t runtime_ns;         /* the job's runtime: then SIGTERM */
};

/* fio's io_uring engine options, applied by engine_uring.c. A knob is
 * ENGINE_KNOB_DEFAULT when not given (ssdbench's choice: fixed buffers and
 * files when the kernel grants them, vectored or not as fio probes), else
 * ENGINE_KNOB_OFF or ENGINE_KNOB_ON; one given on is applied or the job fails. */
enum engine_knob { ENGINE_KNOB_DEFAULT, ENGINE_KNOB_OFF, ENGINE_KNOB_ON };
struct engine_uring_opts {
    uint8_t hipri;               /* enum engine_knob: IORING_SETUP_IOPOLL (polled completions) */
    uint8_t fixedbufs;           /* enum engine_knob: registered buffers, READ_FIXED/WRITE_FIXED */
    uint8_t registerfiles;       /* enum engine_knob: registered files, IOSQE_FIXED_FILE */
    uint8_t nonvectored;         /* enum engine_knob: OFF = READV/WRITEV of one iovec */
    bool sqthread_poll;          /* IORING_SETUP_SQPOLL: a kernel thread submits */
    bool sqthread_poll_cpu_set;  /* pin that thread (IORING_SETUP_SQ_AFF) ... */
    unsigned sqthread_poll_cpu;  /* ... to this CPU */
    bool uncached;               /* buffered I/O only: RWF_DONTCACHE */
    bool nowait;                 /* RWF_NOWAIT */
    unsigned force_async;        /* IOSQE_ASYNC on every Nth request; 0 = never */
};

/* fio's sg_write_mode values */
enum sg_write_mode {
    SG_WRITE,            /* WRITE(10/16) */
    SG_WRITE_VERIFY,     /* WRITE AND VERIFY(10/16), BYTCHK 0 */
    SG_WRITE_SAME,       /* WRITE SAME(10/16): one block sent, written over the range */
    SG_WRITE_SAME_NDOB,  /* WRITE SAME(16) with NDOB: no data sent, zeros written */
    SG_VERIFY_BYTCHK_00, /* VERIFY(10/16): the medium only, no data sent */
    SG_VERIFY_BYTCHK_01, /* VERIFY(10/16): the data sent compared with the medium */
    SG_VERIFY_BYTCHK_11, /* VERIFY(10/16): one block sent, compared with every block */
};

/* fio's sg engine options (engine=sg): sg_write_mode (enum sg_write_mode),
 * and FUA on reads and writes */
struct engine_sg_opts {
    uint8_t write_mode;
    bool readfua;
    bool writefua;
};

#endif
