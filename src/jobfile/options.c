/* options.c - the option table: every key of the job language as data (name,
 * aliases, value form, field, range, help), plus the lookup, the generic
 * setters for plain fields and the "did you mean" suggestion.
 *
 * Entries with a setter function are listed in options_int.h and written in
 * options_set.c. Order in the table is the order of `ssdbench run --help`.
 */
#include "base/suggest.h"
#include "jobfile/options_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "job/spec_parse.h"
#include "jobfile/fio_names.h"

#define JF(f) .off = offsetof(struct job_spec, f), .size = sizeof(((struct job_spec *)0)->f)
#define XF(f) .extra = true, .off = offsetof(struct job_extra, f), \
              .size = sizeof(((struct job_extra *)0)->f)
#define FN(f) .type = JOPT_FUNC, .set = jopt_set_##f
#define SEC .unit_ns = SPEC_NS_PER_S
#define U32MAX 4294967295ull
#define TIME_MAX (365ull * 86400 * SPEC_NS_PER_S)

static const struct job_opt opts[] = {
    /* identity and targets */
    {"name", {0}, FN(name), .arg = "str", .help = "job name (a section name in job files; --name starts a job on the command line)"},
    {"description", {0}, JOPT_STR, JF(description), .arg = "str", .help = "free text stored with the job"},
    {"filename", {"target"}, FN(filename), .arg = "path[:path...]", .help = "files or block devices; ':' separates several targets, '\\:' is a literal colon"},
    {"directory", {0}, JOPT_STR, XF(directory), .arg = "dir[:dir...]", .help = "prefix for relative file names and for the default per-clone files"},
    {"layout", {0}, FN(layout), .arg = "jbod|stripe[:chunk]|random", .help = "several targets: separate streams, one RAID-0 space, or a random target per I/O"},
    {"unlink", {0}, JOPT_BOOL, JF(unlink_after), .arg = "bool", .help = "remove the files ssdbench created when the job ends"},
    {"unlink_each_loop", {0}, JOPT_BOOL, JF(unlink_each_loop), .arg = "bool", .help = "between loops, remove the files ssdbench created and make them anew (empty); write jobs with psync, libaio or io_uring, each clone on its own file"},
    {"file_append", {0}, JOPT_BOOL, JF(file_append), .arg = "bool", .help = "a regular file's region starts at its end (offset = its size): writes extend it"},
    {"error_dump", {0}, JOPT_BOOL, JF(error_dump), .arg = "bool", .help = "print fio's \"io_u error on file\" line on stderr for every failed I/O (0, fio's default)"},
    {"create_serialize", {0}, FN(create_serialize), .bare = true, .arg = "bool", .help = "1 (fio's default): files laid out one after another before the jobs; 0: each job's as it starts (ssdbench: each stonewalled group's at its start, in order, either way)"},
    {"create_on_open", {0}, FN(off_only), .bare = true, .arg = "0", .help = "0: files are created and laid out before the run; 1 only with ioengine=filecreate (its engine creates each file as it opens it)"},
    {"allow_mounted_write", {0}, FN(off_only), .bare = true, .arg = "0", .help = "0 only: ssdbench's write guard decides what may be written (1 is refused)"},

    /* region and amount */
    {"size", {0}, FN(zsize), .arg = "size|pct%|Nz", .help = "region of each target (per clone); 0 = to the end; Nz = N zones (zonesize)"},
    {"offset", {"fileoffset"}, FN(zoffset), .arg = "size|pct%|Nz", .help = "start of the region; Nz = N zones (zonesize)"},
    {"range", {0}, FN(range), .arg = "pct%|offset:length", .help = "region as a share of the target, or offset and length (each may be pct%)"},
    {"offset_increment", {0}, FN(zoffset_inc), .arg = "size|pct%|Nz", .help = "extra offset for each further clone (pct%: of the file's size); Nz = N zones (zonesize)"},
    {"io_size", {"io_limit"}, FN(zio_size), .arg = "size|pct%|Nz", .help = "bytes of I/O per worker, independent of the region (io-size; pct%: of each file's region); Nz = N zones (zonesize)"},
    {"filesize", {0}, FN(filesize), .arg = "size|lo-hi", .help = "size to create missing regular files with; file sets: each file's size, a range draws one per file"},
    {"loops", {0}, JOPT_UINT, JF(loops), .min = 1, .max = U32MAX, .arg = "int", .help = "repeat the size-bounded pass this many times"},

    /* direction mix */
    {"rw", {"readwrite"}, FN(rw), .arg = "mode[:N]", .help = "read write randread randwrite rw randrw trim randtrim trimwrite randtrimwrite; :N = I/Os per random offset, or bytes skipped for sequential"},
    {"rw_sequencer", {0}, FN(rw_sequencer), .arg = "sequential", .help = "how rw=...:N is applied (sequential only)"},
    {"rwmixread", {0}, FN(rwmixread), .arg = "pct", .help = "percent of reads in mixed modes (default 50)"},
    {"rwmixwrite", {0}, FN(rwmixwrite), .arg = "pct", .help = "percent of writes in mixed modes"},
    {"percentage_random", {0}, FN(pct_random), .arg = "pct", .help = "share of random offsets; the rest are sequential"},

    /* block sizes */
    {"bs", {"blocksize"}, FN(bs), .arg = "size[,size]", .help = "block size, per direction read,write (default 4k)"},
    {"bsrange", {"blocksize_range"}, FN(bsrange), .arg = "lo-hi[,lo-hi]", .help = "uniform multiples of lo up to hi, as fio (stored as a bssplit)"},
    {"bssplit", {0}, FN(bssplit), .arg = "size/pct:...[,...]", .help = "block-size mix in percent of I/Os; blank percents share the rest"},
    {"blockalign", {"ba"}, FN(blockalign), .arg = "size[,size]", .help = "offset alignment (default: the smallest block size)"},

    /* concurrency and I/O path */
    {"iodepth", {0}, FN(iodepth), JF(iodepth), .min = 1, .max = 65536, .arg = "int", .help = "I/Os in flight per worker"},
    {"iodepth_batch_submit", {"iodepth_batch"}, JOPT_UINT, JF(iodepth_batch_submit), .max = 65536, .arg = "int", .help = "I/Os staged per submitting call (0 or not given: every free slot; fio mode: 1, fio's default)"},
    {"iodepth_batch_complete_min", {"iodepth_batch_complete"}, JOPT_UINT, JF(iodepth_batch_complete_min), .max = 65536, .arg = "int", .help = "completions to wait for at least"},
    {"iodepth_batch_complete_max", {0}, JOPT_UINT, JF(iodepth_batch_complete_max), .max = 65536, .arg = "int", .help = "completions taken from the engine at most per reap (0: iodepth; fio mode: iodepth_batch_complete_min, as fio)"},
    {"iodepth_low", {0}, JOPT_UINT, JF(iodepth_low), .max = 65536, .arg = "int", .help = "fio's low-water mark: a full queue is reaped until no more than this many are in flight (0 or not given: iodepth); fio's queue follows (nothing reaped before the queue is full)"},
    {"numjobs", {0}, JOPT_UINT, JF(numjobs), .min = 1, .max = 4096, .arg = "int", .help = "worker threads (per target for jbod)"},
    {"thread", {"threads"}, JOPT_BOOL, JF(fio_thread), .arg = "bool", .help = "fio's text counts the job's workers as threads (else processes, fio's default); ssdbench's workers are threads either way"},
    {"ioengine", {"engine"}, FN(engine), .arg = "io_uring|libaio|posixaio|psync|null|io_uring_cmd|sg", .help = "I/O engine; sync and pvsync run as psync; io_uring_cmd: NVMe passthrough on /dev/ngXnY; sg: SCSI commands (SG_IO) on /dev/sgN or /dev/sdX"},
    {"direct", {0}, JOPT_BOOL, JF(direct), .arg = "bool", .help = "O_DIRECT"},
    {"buffered", {0}, JOPT_BOOL, JF(direct), .negate = true, .arg = "bool", .help = "the opposite of direct"},
    {"sync", {0}, FN(sync), .bare = true, .arg = "bool|none|sync|dsync", .help = "open with O_DSYNC (fio's O_SYNC is run as O_DSYNC)"},

    /* time */
    {"runtime", {0}, JOPT_TIME, JF(runtime_ns), SEC, .max = TIME_MAX, .arg = "time", .help = "run time limit (bare number = seconds)"},
    {"time_based", {0}, JOPT_BOOL, JF(time_based), .arg = "bool", .help = "loop over the region until runtime ends"},
    {"ramp_time", {"ramp"}, JOPT_TIME, JF(ramp_ns), SEC, .max = TIME_MAX, .arg = "time", .help = "warm-up whose results are discarded"},
    {"startdelay", {0}, JOPT_TIME, JF(startdelay_ns), SEC, .max = TIME_MAX, .arg = "time", .help = "wait before starting the job"},

    /* pacing */
    {"rate", {0}, FN(rate), .arg = "size[,size]", .help = "bytes/s per worker and direction, turned into I/Os per second with the mean block size"},
    {"rate_iops", {0}, FN(rate_iops), .arg = "int[,int]", .help = "I/Os per second per worker and direction (rate-iops)"},
    {"rate_process", {0}, FN(rate_process), .arg = "linear|poisson", .help = "pacing: evenly spaced, or exponential gaps of the same mean (seeded)"},

    /* offsets */
    {"random_distribution", {"distribution"}, FN(distribution), .arg = "random|zipf:t|pareto:h|normal:s|zoned:a/r:...", .help = "offset distribution (uniform = random)"},
    {"norandommap", {0}, JOPT_BOOL, JF(norandommap), .arg = "bool", .help = "no random map: random offsets may repeat within a pass (default: every block once per pass)"},
    {"random_generator", {0}, FN(random_generator), .arg = "tausworthe|tausworthe64|lfsr", .help = "random offsets: draws with the random map (tausworthe, default) or a full-period sequence without one (lfsr)"},
    {"randrepeat", {0}, FN(randrepeat), .bare = true, .arg = "bool", .help = "1 = fio's fixed seed, 0 = a new seed every run"},
    {"allrandrepeat", {0}, JOPT_BOOL, JF(fio_allrandrepeat), .arg = "bool", .help = "every random stream of a job from a fixed seed (fio's random streams: job files and fio mode)"},
    {"randseed", {"seed"}, FN(randseed), .arg = "int", .help = "seed of the offset and data generators"},

    /* write data */
    {"buffer", {0}, FN(buffer), .arg = "random|zero|compressible:pct", .help = "write buffer contents"},
    {"refill_buffers", {0}, FN(refill_buffers), .bare = true, .arg = "bool", .help = "new buffer contents before every write"},
    {"buffer_compress_percentage", {0}, FN(fio_compress), .arg = "pct", .help = "each buffer_compress_chunk of a write: the first (100-pct)% random, the rest zero (or the buffer_pattern); implies refill_buffers"},
    {"zero_buffers", {0}, FN(zero_buffers), .bare = true, .arg = "bool", .help = "write zeroes"},
    /* fio buffer contents (options_buf.c, runner/worker_buf.c) */
    {"buffer_compress_chunk", {0}, JOPT_SIZE, JF(compress_chunk), .max = U32MAX, .arg = "size", .help = "bytes per random/zero region of buffer_compress_percentage (default 512; 0 = the smallest write size)"},
    {"buffer_pattern", {0}, FN(buffer_pattern), .arg = "\"str\"|0xhex|int|'file'...", .help = "fill write buffers with this pattern, repeated from each buffer's start (fio's syntax)"},
    {"dedupe_percentage", {0}, FN(dedupe_percentage), .arg = "pct", .help = "this share of write buffers repeat an earlier buffer (see dedupe_mode); implies refill_buffers"},
    {"dedupe_mode", {0}, FN(dedupe_mode), .arg = "repeat|working_set", .help = "how dedupe_percentage makes duplicates: the last unique buffer again, or one drawn from the first unique buffers"},
    {"dedupe_global", {0}, JOPT_BOOL, JF(dedupe_global), .arg = "bool", .help = "dedupe_mode=working_set: the working sets of the jobs with it are shared (a duplicate may be another job's unique buffer)"},
    {"dedupe_working_set_percentage", {0}, FN(dedupe_ws_pct), .arg = "pct", .help = "dedupe_mode=working_set: the set is this percent of the job's size in smallest-write buffers (5)"},
    {"scramble_buffers", {0}, FN(scramble_buffers), .arg = "bool", .help = "write the offset and a time stamp into each 512 B of a random buffer that is not refilled (default 1, fio)"},

    /* durability */
    {"fsync", {0}, JOPT_UINT, JF(fsync_every), .max = U32MAX, .arg = "int", .help = "fsync after this many writes (0 = never)"},
    {"fdatasync", {0}, JOPT_UINT, JF(fdatasync_every), .max = U32MAX, .arg = "int", .help = "fdatasync after this many writes"},
    {"end_fsync", {0}, JOPT_BOOL, JF(end_fsync), .arg = "bool", .help = "fsync when the job ends"},

    /* groups */
    {"stonewall", {"wait_for_previous"}, JOPT_BOOL, JF(stonewall), .arg = "bool", .help = "wait for earlier jobs; starts a new reporting group"},
    {"new_group", {0}, JOPT_BOOL, XF(new_group), .arg = "bool", .help = "start a new reporting group"},
    {"group_reporting", {0}, JOPT_BOOL, JF(group_reporting), .arg = "bool", .help = "report the group's jobs as one"},

    /* reporting and logs */
    {"interval", {0}, JOPT_TIME, JF(interval_ns), SEC, .min = SPEC_NS_PER_MS, .max = 86400 * SPEC_NS_PER_S, .arg = "time", .help = "step of the per-interval series (bare number = seconds)"},
    {"bwavgtime", {0}, JOPT_TIME, JF(interval_ns), .unit_ns = SPEC_NS_PER_MS, .min = SPEC_NS_PER_MS, .max = 86400 * SPEC_NS_PER_S, .arg = "time", .help = "fio's bandwidth sampling window (bare number = ms; fio mode's default 500 ms): ssdbench's interval step, shared with iopsavgtime"},
    {"iopsavgtime", {0}, JOPT_TIME, JF(interval_ns), .unit_ns = SPEC_NS_PER_MS, .min = SPEC_NS_PER_MS, .max = 86400 * SPEC_NS_PER_S, .arg = "time", .help = "fio's IOPS sampling window (bare number = ms): the same interval step as bwavgtime"},
    {"percentile_list", {"percentiles"}, FN(percentiles), .arg = "p[:p...]", .help = "latency percentiles to report, ':' or ',' separated"},
    {"write_lat_log", {0}, FN(log), JF(lat_log), .bare = true, .arg = "[name]", .help = "write fio latency logs name_{slat,clat,lat}.N.log"},
    {"write_bw_log", {0}, FN(log), JF(bw_log), .bare = true, .arg = "[name]", .help = "write a fio bandwidth log"},
    {"write_iops_log", {0}, FN(log), JF(iops_log), .bare = true, .arg = "[name]", .help = "write a fio IOPS log"},
    {"disable_slat", {0}, JOPT_BOOL, JF(slat), .negate = true, .arg = "bool", .help = "0 = measure submission latency (slat) apart from completion latency (clat); default 1 unless write_lat_log"},
    {"log_offset", {0}, JOPT_BOOL, JF(log_offset), .arg = "bool", .help = "add each I/O's offset to the log lines (fio's column order)"},
    {"log_schedlat", {0}, JOPT_BOOL, JF(log_schedlat), .arg = "bool", .help = "paced jobs with write_lat_log: also NAME_schedlat.N.log, scheduled issue time -> completion (ssdbench's own)"},
    {"log_avg_msec", {0}, JOPT_UINT, JF(log_avg_msec), .max = U32MAX, .arg = "int", .help = "average log entries over this many ms"},
    {"log_compression", {0}, JOPT_SIZE, JF(log_compression), .max = UINT64_MAX, .arg = "size", .help = "fio's in-memory log chunks; ssdbench streams its logs (the file is the same)"},
    {"log_store_compressed", {0}, JOPT_BOOL, JF(log_store_compressed), .arg = "bool", .help = "with log_compression: store the logs zlib-compressed as NAME.log.fz (fio --inflate-log reads them)"},
    {"per_job_logs", {0}, JOPT_BOOL, JF(per_job_logs), .arg = "bool", .help = "one log file per clone"},
    /* fio measurement switches (options_sched.c; fio's JSON shapes in output/fio_json*.c) */
    {"gtod_reduce", {0}, FN(gtod_reduce), .arg = "bool", .help = "1 = disable_lat, disable_clat, disable_slat, disable_bw_measurement and no percentiles, as fio"},
    {"disable_lat", {0}, JOPT_BOOL, JF(no_lat), .arg = "bool", .help = "report no total latency (fio's lat_ns all zero)"},
    {"disable_clat", {0}, JOPT_BOOL, JF(no_clat), .arg = "bool", .help = "report no completion latency (clat_ns and the latency_* shares zero)"},
    {"disable_bw_measurement", {"disable_bw"}, JOPT_BOOL, JF(no_bw), .arg = "bool", .help = "no per-I/O lines in write_bw_log (its file stays, empty, as fio's); bw_* figures stay"},
    {"clat_percentiles", {0}, JOPT_BOOL, JF(clat_pct_off), .negate = true, .arg = "bool", .help = "percentiles in the completion latency (default 1)"},
    {"lat_percentiles", {0}, JOPT_BOOL, JF(lat_pct), .arg = "bool", .help = "percentiles in the total latency (default 0)"},
    {"slat_percentiles", {0}, JOPT_BOOL, JF(slat_pct), .arg = "bool", .help = "percentiles in the submission latency, when measured (default 0)"},
    {"clocksource", {0}, FN(clocksource), .arg = "gettimeofday|clock_gettime|cpu", .help = "accepted: ssdbench times on CLOCK_MONOTONIC, read through the TSC when the kernel's clocksource is tsc"},

    /* histogram logs (stats/iolog_hist.h) */
    {"write_iolog", {0}, JOPT_STR, JF(write_iolog), .arg = "file", .help = "append every issued I/O to file in fio's iolog format (version 3)"},
    /* fio's trace replay (options_replay.c, base/replay_log.h, runner/worker_replay.c) */
    {"read_iolog", {0}, JOPT_STR, JF(read_iolog), .arg = "file", .help = "replay a fio iolog (version 2 or 3): its I/Os in its order, at its times, on its files"},
    {"replay_no_stall", {0}, JOPT_BOOL, JF(replay_no_stall), .arg = "bool", .help = "read_iolog: issue the logged I/Os as fast as possible, ignoring the time stamps"},
    {"replay_redirect", {0}, JOPT_STR, JF(replay_redirect), .arg = "file", .help = "read_iolog: replay every I/O onto this file or device instead of the logged ones"},
    {"replay_align", {0}, JOPT_SIZE, JF(replay_align), .max = UINT64_MAX, .arg = "size", .help = "read_iolog: round each offset down to a multiple of this (a power of 2)"},
    {"replay_scale", {0}, JOPT_UINT, JF(replay_scale), .min = 1, .max = U32MAX, .arg = "int", .help = "read_iolog: divide each offset by this (default 1)"},
    {"replay_time_scale", {0}, JOPT_UINT, JF(replay_time_scale), .min = 1, .max = U32MAX, .arg = "pct", .help = "read_iolog: replay at this percent of the logged rate (default 100; 200 = twice as fast)"},
    {"read_iolog_chunked", {0}, JOPT_BOOL, JF(read_iolog_chunked), .arg = "bool", .help = "read_iolog: each worker reads its log a part at a time as it replays (bounded memory)"},
    {"replay_skip", {0}, FN(replay_skip), .arg = "read,write,trim,sync", .help = "read_iolog of a blktrace file: do not replay these (fio skips nothing of a text iolog)"},
    {"write_hist_log", {0}, JOPT_STR, JF(hist_log), .arg = "name", .help = "write fio clat histogram logs name_clat_hist.N.log (with log_hist_msec)"},
    {"log_hist_msec", {0}, JOPT_UINT, JF(log_hist_msec), .max = U32MAX, .arg = "int", .help = "one histogram log line per direction every this many ms (0 = none)"},
    {"log_hist_coarseness", {0}, JOPT_UINT, JF(log_hist_coarseness), .max = 6, .arg = "0..6", .help = "sum 2^N of fio's 1856 latency buckets per histogram log column"},

    /* steady state */
    {"steadystate", {"ss"}, FN(steadystate), .arg = "iops|bw|lat[_slope]:limit[%]", .help = "stop when the metric is steady (fio rule)"},
    {"ss_dur", {0}, JOPT_TIME, XF(ss.dur_ns), SEC, .max = TIME_MAX, .arg = "time", .help = "steady-state window length"},
    {"ss_ramp", {0}, JOPT_TIME, XF(ss.ramp_ns), SEC, .max = TIME_MAX, .arg = "time", .help = "time before steady-state samples count"},
    {"ss_interval", {0}, JOPT_TIME, XF(ss.interval_ns), SEC, .min = SPEC_NS_PER_MS, .max = TIME_MAX, .arg = "time", .help = "steady-state sample step (default 1s)"},

    /* verify */
    {"verify", {0}, FN(verify), .arg = "md5|crc64|crc32c|crc32c-intel|crc32|crc16|crc7|xxhash|sha1|sha256|sha512|sha3-224|sha3-256|sha3-384|sha3-512|meta|pattern|null|0", .help = "write a checked header into every block and read it back (fio's verify)"},
    {"do_verify", {0}, JOPT_BOOL, JF(do_verify), .arg = "bool", .help = "read back and check after the writes (default 1 once verify is set)"},
    {"readonly", {0}, JOPT_BOOL, JF(readonly), .arg = "bool", .help = "refuse the job if it writes or trims; create, remove and write no target, side files only as regular files"},
    {"verify_only", {0}, JOPT_BOOL, JF(verify_only), .arg = "bool", .help = "replay the job's writes without writing and only check them"},
    {"experimental_verify", {0}, JOPT_BOOL, XF(experimental_verify), .arg = "bool", .help = "fio verifies by replaying its offsets instead of a list; ssdbench's verify reads back the same blocks from its record"},
    {"verify_fatal", {0}, JOPT_BOOL, JF(verify_fatal), .arg = "bool", .help = "stop the job at the first bad block"},
    {"verify_dump", {0}, JOPT_BOOL, JF(verify_dump), .arg = "bool", .help = "write the first bad block as read and as expected to NAME.OFFSET.received/.expected"},
    {"verify_interval", {0}, JOPT_SIZE, JF(verify_interval), .max = U32MAX, .arg = "size", .help = "a header every this many bytes (default: the smallest write size)"},
    {"verify_offset", {0}, JOPT_SIZE, JF(verify_offset), .max = U32MAX, .arg = "size", .help = "swap the header to this offset of each chunk"},
    {"verify_pattern", {0}, FN(verify_pattern), .arg = "0xhex|int|\"str\"|%o...", .help = "fill blocks with this pattern (%o = the block offset); sets verify=pattern unless verify is given"},
    {"verify_backlog", {0}, JOPT_UINT, JF(verify_backlog), .max = UINT64_MAX, .arg = "int", .help = "check the written blocks after every this many writes (verify as you go)"},
    {"verify_backlog_batch", {0}, JOPT_UINT, JF(verify_backlog_batch), .max = UINT64_MAX, .arg = "int", .help = "blocks checked in each backlog round (default verify_backlog)"},
    /* verify state files and async checks (runner/worker_vstate.h) */
    {"verify_state_save", {0}, JOPT_BOOL, JF(verify_state_save), .arg = "bool", .help = "write jobs: save how many writes were done to ssdbench-JOB-N-verify.state (default 0; fio: 1)"},
    {"verify_state_load", {0}, JOPT_BOOL, JF(verify_state_load), .arg = "bool", .help = "verify_only: check only the writes the saved state records"},
    {"verify_async", {0}, JOPT_UINT, JF(verify_async), .max = 1024, .arg = "int", .help = "threads per worker that check the blocks read back, while the worker goes on issuing"},
    {"verify_async_cpus", {0}, FN(verify_async_cpus), .arg = "N[-M][,...]", .help = "CPUs the verify_async threads may run on"},
    /* verify's trims of written blocks (runner/worker_verify.h) */
    {"trim_percentage", {0}, JOPT_UINT, JF(trim_percentage), .max = 100, .arg = "int", .help = "verify: share of the written blocks queued for a trim (needs trim_backlog and rw=trimwrite/randtrimwrite)"},
    {"trim_backlog", {0}, JOPT_UINT, JF(trim_backlog), .max = UINT64_MAX, .arg = "int", .help = "verify: trim queued blocks when the written-block log holds a multiple of this many"},
    {"trim_backlog_batch", {0}, JOPT_UINT, JF(trim_batch), .max = U32MAX, .arg = "int", .help = "verify: queued blocks trimmed each time (default trim_backlog)"},
    {"trim_verify_zero", {0}, JOPT_BOOL, JF(trim_zero), .arg = "bool", .help = "verify: a trimmed block must read back as zeros (default 1; 0: it is not checked)"},
    /* fio job-file options: aliases, I/O count limits, error and end rules */
    {"timeout", {0}, JOPT_TIME, JF(runtime_ns), SEC, .max = TIME_MAX, .arg = "time", .help = "fio's other name for runtime"},
    {"steadystate_duration", {0}, JOPT_TIME, XF(ss.dur_ns), SEC, .max = TIME_MAX, .arg = "time", .help = "fio's other name for ss_dur"},
    {"steadystate_ramp_time", {0}, JOPT_TIME, XF(ss.ramp_ns), SEC, .max = TIME_MAX, .arg = "time", .help = "fio's other name for ss_ramp"},
    {"number_ios", {0}, JOPT_SIZE, XF(number_ios), .max = UINT64_MAX, .arg = "int", .help = "stop each clone after this many reads and writes (times loops); the region and runtime still end it earlier"},
    {"fill_device", {"fill_fs"}, JOPT_BOOL, JF(fill_device), .arg = "bool", .help = "write to the end of the target; a file grows until the file system is full, and ENOSPC ends the job without an error"},
    {"continue_on_error", {0}, FN(continue_on_error), .arg = "none|read|write|io|verify|all|0|1", .help = "error classes after which the job goes on (errors in the ignore_error list, by default EIO and EILSEQ)"},
    {"ignore_error", {0}, FN(ignore_error), .arg = "ERR[:ERR...][,write-list[,verify-list]]", .help = "errors (names like ENOSPC or numbers) that do not stop the job, per class read,write,verify; turns that class on in continue_on_error"},
    {"exitall", {0}, JOPT_BOOL, JF(exitall), .arg = "bool", .help = "when one job ends, the other running jobs of its reporting group stop (fio: set on any job, it holds for all)"},
    {"exit_what", {0}, FN(exit_what), .arg = "group|stonewall|all", .help = "what exitall stops: the job's reporting group (default), every running job of its phase, or those and every later phase"},
    {"unified_rw_reporting", {0}, FN(unified_rw), .arg = "none|mixed|both|0|1|2", .help = "fio's output: reads and writes as one \"mixed\" set of figures (mixed), or that besides the directions (both)"},
    {"io_submit_mode", {0}, FN(io_submit_mode), .arg = "inline|offload", .help = "inline: each worker submits its own I/O (fio's default); offload: a submitter thread per worker issues the I/O the worker queues to it"},
    {"serialize_overlap", {0}, JOPT_BOOL, JF(serialize_overlap), .arg = "bool", .help = "no two overlapping I/Os of a job in flight; accepted with iodepth=1 only, where it holds by itself"},
    {"cmdprio_percentage", {0}, FN(cmdprio_percentage), .arg = "int[,int]", .help = "libaio, io_uring: this percentage of reads[,writes] is issued with priority cmdprio_class/cmdprio (fio's per-priority latencies in the output)"},
    {"cmdprio_class", {0}, FN(cmdprio_class), .arg = "int[,int]", .help = "priority class of those I/Os per direction: 1 real time (default), 2 best effort, 3 idle"},
    {"cmdprio", {0}, FN(cmdprio), .arg = "int[,int]", .help = "priority level of those I/Os per direction, 0..7 (default 0)"},
    {"cmdprio_bssplit", {0}, FN(cmdprio_bssplit), .arg = "bs/pct[/class/level]:...[,...]", .help = "libaio, io_uring: per block size, the percentage of I/Os with a priority (class/level, else cmdprio_class/cmdprio); not with cmdprio_percentage"},
    {"log_prio", {0}, JOPT_BOOL, JF(cmdprio.log_prio), .arg = "bool", .help = "the logs' last column is each I/O's priority (0x%04x, class << 13 | level) instead of 1 for real time, else 0"},
    {"flow_id", {0}, JOPT_UINT, JF(flow_id), .max = U32MAX, .arg = "int", .help = "the flow (group of jobs) this job's flow weight counts in"},
    {"flow", {0}, JOPT_UINT, JF(flow), .max = 1000, .arg = "int", .help = "flow weight: the jobs of one flow_id issue I/Os in the ratio of their weights (0 = no flow)"},
    {"flow_sleep", {0}, JOPT_TIME, JF(flow_sleep_ns), .unit_ns = 1000, .max = TIME_MAX, .arg = "time", .help = "how long a job ahead of its flow share waits (bare number = microseconds; 0 = 10 us)"},
    {"flow_watermark", {0}, JOPT_UINT, XF(flow_watermark), .max = U32MAX, .arg = "int", .help = "deprecated in fio, which ignores it; so does ssdbench"},
    {"thinktime", {0}, JOPT_TIME, JF(thinktime_ns), .unit_ns = 1000, .max = TIME_MAX, .arg = "time", .help = "pause after thinktime_blocks I/Os, once they completed (bare number = microseconds)"},
    {"thinktime_spin", {0}, JOPT_TIME, JF(thinktime_spin_ns), .unit_ns = 1000, .max = TIME_MAX, .arg = "time", .help = "busy-wait this part of each thinktime pause, sleep the rest (bare number = microseconds)"},
    {"thinktime_blocks", {0}, JOPT_UINT, JF(thinktime_blocks), .min = 1, .max = U32MAX, .arg = "int", .help = "I/Os between thinktime pauses (default 1); caps the queue depth at this"},
    {"thinktime_blocks_type", {0}, FN(thinktime_blocks_type), .arg = "complete|issue", .help = "thinktime_blocks counts completed (default) or issued I/Os"},
    {"thinktime_iotime", {0}, JOPT_TIME, JF(thinktime_iotime_ns), SEC, .max = TIME_MAX, .arg = "time", .help = "also pause once this much I/O time has passed (bare number = seconds)"},
    {"wait_for", {0}, JOPT_STR, XF(wait_for), .arg = "jobname", .help = "start after the named earlier job is done (ssdbench: after every job started with it)"},

    /* fio scheduling (options_sched.c, runner/worker_sched.c) */
    {"cpus_allowed", {0}, FN(cpus_allowed), .arg = "N[-M][,...]", .help = "CPUs each worker thread may run on"},
    {"cpumask", {0}, FN(cpumask), .arg = "int", .help = "the same as a bit mask (bit i = CPU i; decimal or 0x hex)"},
    {"cpus_allowed_policy", {0}, FN(cpus_allowed_policy), .arg = "shared|split", .help = "split: each worker thread gets one CPU of the set (fio's thread number mod the count)"},
    {"numa_cpu_nodes", {0}, FN(numa_cpu_nodes), .arg = "N[-M][,...]|all", .help = "run the workers on the CPUs of these NUMA nodes (in place of cpus_allowed)"},
    {"numa_mem_policy", {0}, FN(numa_mem_policy), .arg = "default|prefer:N|bind:NODES|interleave[:NODES]|local", .help = "the workers' memory policy (set_mempolicy; their I/O buffers moved with mbind)"},
    {"nice", {0}, FN(nice), .arg = "-20..19", .help = "nice value of each worker thread"},
    {"prio", {0}, FN(prio), .arg = "0..7", .help = "I/O priority level of each worker thread (ioprio_set; class best effort unless prioclass)"},
    {"prioclass", {0}, FN(prioclass), .arg = "0..3", .help = "I/O priority class: 1 realtime, 2 best effort, 3 idle (0 = best effort)"},

    /* fio's file set and file life cycle (options_files.c, target/fileset.h) */
    {"nrfiles", {"nr_files"}, JOPT_UINT, JF(nrfiles), .min = 1, .max = 1u << 24, .arg = "int", .help = "files per clone when filename is not given; size is split across them (fio)"},
    {"openfiles", {0}, JOPT_UINT, JF(openfiles), .min = 1, .max = JOB_MAX_TARGETS, .arg = "int", .help = "files a clone serves at once (default nrfiles); all are opened and checked at the start"},
    {"file_service_type", {0}, FN(file_service_type), .arg = "roundrobin|sequential|random[:N]|zipf|pareto|normal[:P]", .help = "which file of the set serves the next I/O; :N = I/Os before switching (default roundrobin:1)"},
    {"filename_format", {0}, JOPT_STR, XF(filename_format), .arg = "str", .help = "names of generated files: $jobname $jobnum $filenum $clientuid (default $jobname.$jobnum.$filenum)"},
    {"fallocate", {0}, FN(fallocate), .arg = "none|native|posix|keep|truncate|0|1", .help = "how files ssdbench creates are allocated (not given: written in full with random data)"},
    {"invalidate", {0}, FN(invalidate), .bare = true, .arg = "bool", .help = "drop the targets' page cache before the I/O (default 1, as fio)"},
    {"pre_read", {0}, JOPT_BOOL, JF(pre_read), .arg = "bool", .help = "read every target's region into the page cache before the timed phase (no invalidate then)"},
    /* fio's io_uring engine options (engine=io_uring) */
    {"hipri", {0}, FN(uring_knob), JF(uring.hipri), .bare = true, .arg = "bool", .help = "io_uring: polled completions (IORING_SETUP_IOPOLL); the device must support polling"},
    {"fixedbufs", {0}, FN(uring_knob), JF(uring.fixedbufs), .bare = true, .arg = "bool", .help = "io_uring: registered buffers, READ_FIXED/WRITE_FIXED (default: when the kernel grants them)"},
    {"registerfiles", {0}, FN(uring_knob), JF(uring.registerfiles), .bare = true, .arg = "bool", .help = "io_uring: registered files, IOSQE_FIXED_FILE (default: when the kernel grants them)"},
    {"sqthread_poll", {0}, JOPT_BOOL, JF(uring.sqthread_poll), .arg = "bool", .help = "io_uring: a kernel thread polls the submission queue (IORING_SETUP_SQPOLL)"},
    {"sqthread_poll_cpu", {0}, FN(sqthread_poll_cpu), .arg = "int", .help = "io_uring: CPU to pin the sqthread_poll thread to"},
    {"nonvectored", {0}, FN(uring_knob), JF(uring.nonvectored), .bare = true, .arg = "bool|-1", .help = "io_uring: READ/WRITE (1, the default) or READV/WRITEV of one iovec (0)"},
    {"uncached", {0}, JOPT_BOOL, JF(uring.uncached), .arg = "bool", .help = "io_uring, buffered I/O: drop the pages after the I/O (RWF_DONTCACHE)"},
    {"nowait", {0}, JOPT_BOOL, JF(uring.nowait), .arg = "bool", .help = "io_uring: RWF_NOWAIT, an I/O that would block fails with EAGAIN"},
    {"force_async", {0}, JOPT_UINT, JF(uring.force_async), .max = U32MAX, .arg = "int", .help = "io_uring: IOSQE_ASYNC on every Nth request (0 = never)"},
    /* fio's io_uring_cmd and sg engine options (engine_uring_cmd.c, engine_sg.c) */
    {"cmd_type", {0}, FN(cmd_type), .arg = "nvme", .help = "io_uring_cmd: the passthrough command set (nvme only)"},
    {"sg_write_mode", {0}, FN(sg_write_mode), .arg = "write|write_and_verify|verify|write_same|same|write_same_ndob|verify_bytchk_00|verify_bytchk_01|verify_bytchk_11", .help = "sg: the SCSI command of each write (default write)"},
    {"readfua", {0}, JOPT_BOOL, JF(sg.readfua), .arg = "bool", .help = "sg: reads with the FUA bit"},
    {"writefua", {0}, JOPT_BOOL, JF(sg.writefua), .arg = "bool", .help = "sg: WRITEs with the FUA bit"},
    /* fio's small local engines (engine_small.c, engine_names.c, options_small.c) */
    {"cpuload", {0}, JOPT_UINT, JF(small.cpuload), .min = 1, .max = U32MAX, .arg = "int", .help = "cpuio: percent of a CPU each clone uses (above 100 counts as 100)"},
    {"cpuchunks", {0}, JOPT_UINT, JF(small.cpuchunks), .min = 1, .max = U32MAX, .arg = "int", .help = "cpuio: microseconds of each burn (default 50000)"},
    {"cpumode", {0}, FN(cpumode), .arg = "noop|qsort", .help = "cpuio: spin (noop, the default) or sort 256 Ki integers (qsort) per I/O"},
    {"program", {0}, JOPT_STR, JF(exec.program), .arg = "str", .help = "exec: the program to run (looked up in PATH)"},
    {"arguments", {0}, JOPT_STR, JF(exec.arguments), .arg = "str", .help = "exec: its arguments, split at spaces; %r is the runtime in seconds, %n the job's name"},
    {"grace_time", {0}, JOPT_UINT, JF(exec.grace_time), .max = 3600, .arg = "int", .help = "exec: seconds the program gets to stop after SIGTERM at the end of the runtime (default 1)"},
    {"std_redirect", {0}, JOPT_BOOL, JF(exec.std_redirect), .arg = "bool", .help = "exec: the program's output to NAME.stdout and NAME.stderr (default 1; files judged by the guard)"},
    {"donorname", {0}, JOPT_STR, JF(small.donor), .arg = "file", .help = "e4defrag: the donor file whose blocks each write's are swapped with (needed; created, judged by the guard)"},
    {"inplace", {0}, JOPT_BOOL, JF(small.inplace), .arg = "bool", .help = "e4defrag: each write allocates the donor's range and empties the donor after (default 0: the donor is allocated once)"},
    {"stat_type", {0}, FN(stat_type), .arg = "stat|lstat|statx", .help = "filestat: the system call that looks each file up (default stat)"},

    /* fio zones (options_zone.c, job/zone.h) */
    {"zonemode", {0}, FN(zonemode), .arg = "none|strided|zbd", .help = "strided: I/O in one zone at a time, zonesize bytes per zone, then the next zone; zbd: a zoned block device, writes at each zone's write pointer"},
    {"read_beyond_wp", {0}, JOPT_BOOL, JF(read_beyond_wp), .arg = "bool", .help = "zonemode=zbd: reads may go past a zone's write pointer"},
    {"ignore_zone_limits", {0}, JOPT_BOOL, JF(ignore_zone_limits), .arg = "bool", .help = "zonemode=zbd: ignore the device's max open zones"},
    {"max_open_zones", {0}, JOPT_UINT, JF(max_open_zones), .max = 4096, .arg = "int", .help = "zonemode=zbd: zones written at once (0 = the device's limit)"},
    {"job_max_open_zones", {0}, JOPT_UINT, JF(job_max_open_zones), .max = 4096, .arg = "int", .help = "zonemode=zbd: zones this job writes at once (0 = max_open_zones)"},
    {"zone_reset_threshold", {0}, FN(zone_reset_threshold), .arg = "float", .help = "zonemode=zbd: share (0..1) of the region written past which zone_reset_frequency applies"},
    {"zone_reset_frequency", {0}, FN(zone_reset_frequency), .arg = "float", .help = "zonemode=zbd: past the threshold, one write in 1/this resets its zone first (0..1)"},
    {"zonesize", {0}, JOPT_SIZE, JF(zone_size), .max = UINT64_MAX, .arg = "size", .help = "strided: bytes of I/O in each zone before moving on (needed); zbd: must be the device's zone size"},
    {"zonerange", {0}, JOPT_SIZE, JF(zone_range), .max = UINT64_MAX, .arg = "size", .help = "length of a zone: where its I/Os fall (default zonesize)"},
    {"zoneskip", {0}, FN(zoneskip), .arg = "size|Nz", .help = "bytes skipped after each zone; the zones wrap at the end of the target"},

    /* fio rate floors and latency limits (runner/rate_floor.h) */
    {"rate_min", {"ratemin"}, FN(rate_min), .arg = "size[,size]", .help = "bytes/s per direction the job must keep, averaged over rate_cycle after 2 s; below it the job fails (EIO)"},
    {"rate_iops_min", {0}, FN(rate_iops_min), .arg = "int[,int]", .help = "I/Os per second per direction the job must keep (as rate_min)"},
    {"rate_cycle", {"ratecycle"}, JOPT_UINT, JF(rate_cycle_ms), .min = 1, .max = U32MAX, .arg = "int", .help = "averaging window of rate_min / rate_iops_min in ms (default 1000)"},
    {"max_latency", {0}, FN(max_latency), .arg = "time[,time]", .help = "a completion slower than this fails the job (ETIMEDOUT), per direction (bare number = microseconds)"},
    {"latency_target", {0}, JOPT_TIME, JF(lat_target_ns), .unit_ns = 1000, .max = TIME_MAX, .arg = "time", .help = "search the deepest queue (up to iodepth) whose latency meets this (bare number = microseconds)"},
    {"latency_window", {0}, JOPT_TIME, JF(lat_window_ns), .unit_ns = 1000, .max = TIME_MAX, .arg = "time", .help = "time spent at each queue depth of the search (bare number = microseconds)"},
    {"latency_percentile", {0}, FN(latency_percentile), .arg = "pct", .help = "share of I/Os that must meet latency_target (default 100)"},
    {"latency_run", {0}, JOPT_BOOL, JF(lat_run), .arg = "bool", .help = "keep adjusting the queue depth for the whole run instead of stopping at the depth found"},

    /* parsing */
    {"kb_base", {0}, FN(kb_base), .arg = "1024|1000", .help = "unit base for this job's sizes (applied before its other options)"},
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

/* fio options ssdbench knows but does not implement: reported as unsupported
 * (a warning with ignore_unsupported) rather than as typos. */
static const char *const fio_unsupported[] = {
    "unique_filename", "opendir",
    "rate_ignore_thinktime",
    "exitall_on_error",
    "log_unix_epoch", "log_alternate_epoch",
    "log_window_value", "log_max_value", "ioscheduler",
    "overwrite",
    "zonecapacity", "bs_unaligned",
    "bs_is_seq_rand", "softrandommap", "mem", "iomem", "iomem_align", "hugepage-size",
    "ramp_size", "lockfile",
    "significant_figures", "exec_prerun", "exec_postrun",
    "create_fsync", "create_only",
    "allow_file_create", "stats", "sync_file_range", "fadvise_hint",
    "size_increment", "ioengine_args",
    "userspace_reap", "offset_align", "random_center", "uid", "gid",
    "experimental_verify", "kernel_sched", "steadystate_check_interval",
    "write_barrier", "atomic", "percentile", "time_based_ramp", "rwmixcycle",
    "merge_blktrace_file", "merge_blktrace_scalars", "merge_blktrace_iters",
};

/* Why some of them are not done, said with the refusal. */
static const struct {
    const char *name, *why;
} fio_unsupported_why[] = {
    {"merge_blktrace_file", "fio 3.33's merge reads 8 bytes per trace (blktrace.c read_trace), fails with 'iolog short read' and replays the first trace alone"},
    {"merge_blktrace_scalars", "it scales merge_blktrace_file's traces, which is not done"},
    {"merge_blktrace_iters", "it repeats merge_blktrace_file's traces, which is not done"},
};

static const char *unsupported_why(const char *key);

/* '-' and '_' are the same character and case does not matter. */
static int key_cmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = *a == '-' ? '_' : tolower((unsigned char)*a);
        int y = *b == '-' ? '_' : tolower((unsigned char)*b);
        if (x != y || !x)
            return x - y;
    }
}

static const char *unsupported_why(const char *key)
{
    for (unsigned i = 0; i < sizeof(fio_unsupported_why) / sizeof(fio_unsupported_why[0]); i++)
        if (!key_cmp(key, fio_unsupported_why[i].name))
            return fio_unsupported_why[i].why;
    return NULL;
}

const struct job_opt *job_option_find(const char *key)
{
    for (unsigned i = 0; i < NOPTS; i++) {
        if (!key_cmp(key, opts[i].name))
            return &opts[i];
        for (unsigned a = 0; a < 3 && opts[i].alias[a]; a++)
            if (!key_cmp(key, opts[i].alias[a]))
                return &opts[i];
    }
    return NULL;
}

const struct job_opt *job_option_table(unsigned *n)
{
    *n = NOPTS;
    return opts;
}

const char *job_option_suggest(const char *key)
{
    struct suggest sg;
    suggest_init(&sg, key);
    for (unsigned i = 0; i < NOPTS; i++) {
        suggest_consider(&sg, opts[i].name);
        for (unsigned k = 0; k < 3; k++)
            suggest_consider(&sg, opts[i].alias[k]);
    }
    return suggest_result(&sg);
}

void job_extra_defaults(struct job_extra *x)
{
    memset(x, 0, sizeof(*x));
    x->kb_base = 1024;
    x->randrepeat = -1;
    x->numjobs = 1;
    steady_fio_defaults(&x->ss.cfg);
    x->ss.interval_ns = SPEC_NS_PER_S;
    x->zone_mode = -1;
}

static void fmt_bound(const struct job_opt *o, uint64_t v, char *buf, size_t len)
{
    if (o->type == JOPT_TIME && v % SPEC_NS_PER_S == 0)
        snprintf(buf, len, "%llus", (unsigned long long)(v / SPEC_NS_PER_S));
    else if (o->type == JOPT_TIME)
        snprintf(buf, len, "%llums", (unsigned long long)(v / SPEC_NS_PER_MS));
    else
        snprintf(buf, len, "%llu", (unsigned long long)v);
}

static int set_plain(const struct job_opt *o, struct job_opt_ctx *c, const char *v)
{
    char *base = o->extra ? (char *)c->x : (char *)c->job;
    void *field = base + o->off;
    uint64_t n = 0;
    int rc = 0;

    switch (o->type) {
    case JOPT_BOOL: {
        bool b;
        if ((rc = spec_parse_bool(v, &b, c->err, c->errlen)))
            return jopt_prefix(c, rc);
        *(bool *)field = o->negate ? !b : b;
        return 0;
    }
    case JOPT_STR:
        if (strlen(v) >= o->size)
            return jopt_fail(c, -EINVAL, "value '%.40s...' is longer than %zu characters", v, o->size - 1);
        strcpy((char *)field, v);
        return 0;
    case JOPT_UINT:
        rc = spec_parse_u64(v, &n, c->err, c->errlen);
        break;
    case JOPT_SIZE:
        rc = spec_parse_size(v, c->x->kb_base, &n, c->err, c->errlen);
        break;
    case JOPT_TIME:
        rc = spec_parse_time(v, o->unit_ns, &n, c->err, c->errlen);
        break;
    default:
        return jopt_fail(c, -EINVAL, "internal: bad option type");
    }
    if (rc)
        return jopt_prefix(c, rc);
    if (n < o->min || n > o->max) {
        char lo[32], hi[32];
        fmt_bound(o, o->min, lo, sizeof(lo));
        fmt_bound(o, o->max, hi, sizeof(hi));
        return jopt_fail(c, -EINVAL, "value '%s' is out of range (allowed %s..%s)", v, lo, hi);
    }
    if (o->size == sizeof(unsigned))
        *(unsigned *)field = (unsigned)n;
    else
        *(uint64_t *)field = n;
    return 0;
}

int job_set_option(struct job_spec *job, struct job_extra *extra, const char *key,
                   const char *value, char *err, size_t errlen)
{
    const struct job_opt *o = job_option_find(key);
    struct job_opt_ctx c = {.job = job, .x = extra, .key = key, .err = err, .errlen = errlen};

    if (!o) {
        const char *why = unsupported_why(key);
        if (why)
            return snprintf(err, errlen, "fio option '%s' is not supported by ssdbench (%s)", key, why), -ENOTSUP;
        for (unsigned i = 0; i < sizeof(fio_unsupported) / sizeof(fio_unsupported[0]); i++)
            if (!key_cmp(key, fio_unsupported[i]))
                return snprintf(err, errlen, "fio option '%s' is not supported by ssdbench", key),
                       -ENOTSUP;
        /* any other option fio knows: unsupported, not a typo */
        if (job_option_fio_known(key))
            return snprintf(err, errlen, "fio option '%s' is not supported by ssdbench", key),
                   -ENOTSUP;
        const char *s = job_option_suggest(key);
        if (s)
            snprintf(err, errlen, "unknown option '%s' (did you mean '%s'?)", key, s);
        else
            snprintf(err, errlen, "unknown option '%s'", key);
        return -ENOENT;
    }
    if (!value && o->type != JOPT_BOOL && !o->bare)
        return jopt_fail(&c, -EINVAL, "needs a value (%s)", o->arg);

    /* work on copies so a rejected value leaves the job as it was */
    struct job_spec *tj = malloc(sizeof(*tj));
    struct job_extra *tx = malloc(sizeof(*tx));
    if (!tj || !tx) {
        free(tj);
        free(tx);
        return jopt_fail(&c, -ENOMEM, "out of memory");
    }
    *tj = *job;
    *tx = *extra;
    c.job = tj;
    c.x = tx;
    int rc = o->type == JOPT_FUNC ? o->set(o, &c, value) : set_plain(o, &c, value ? value : "");
    if (!rc) {
        *job = *tj;
        *extra = *tx;
    }
    free(tj);
    free(tx);
    return rc;
}

void job_option_print(FILE *f)
{
    for (unsigned i = 0; i < NOPTS; i++) {
        const struct job_opt *o = &opts[i];
        char names[96];
        int n = snprintf(names, sizeof(names), "%s", o->name);
        for (unsigned a = 0; a < 3 && o->alias[a] && n > 0 && (size_t)n < sizeof(names); a++)
            n += snprintf(names + n, sizeof(names) - (size_t)n, ", %s", o->alias[a]);
        fprintf(f, "  %s=%s\n        %s\n", names, o->arg, o->help);
    }
}

/* --- the option table seen from fio's side (fio_names.h) --- */

bool job_option_fio_known(const char *key)
{
    return fio_name_find(key) != NULL;
}

const char *job_option_canonical(const char *key)
{
    const struct fio_name *n = fio_name_find(key);
    if (n)
        return n->canonical;
    const struct job_opt *o = job_option_find(key);
    return o ? o->name : NULL;
}

bool job_option_takes_arg(const char *key)
{
    const struct fio_name *n = fio_name_find(key);
    if (n)
        return n->takes_arg;
    const struct job_opt *o = job_option_find(key);
    /* an unknown key takes it too, so the error names the key, not its value */
    return !o || (o->type != JOPT_BOOL && !o->bare);
}
