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
enum engine_kind { ENGINE_IO_URING, ENGINE_LIBAIO, ENGINE_PSYNC, ENGINE_NULL, ENGINE_MMAP,
                   ENGINE_URING_CMD, ENGINE_SG, ENGINE_POSIXAIO };

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
