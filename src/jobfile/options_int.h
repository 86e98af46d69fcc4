/* options_int.h - shared between the option table (options.c) and its
 * setters (options_set.c). Not a public interface.
 */
#ifndef SSDBENCH_OPTIONS_INT_H
#define SSDBENCH_OPTIONS_INT_H

#include "jobfile/options.h"

struct job_opt_ctx {
    struct job_spec *job;
    struct job_extra *x;
    const char *key;      /* the key as the user wrote it, for messages */
    char *err;
    size_t errlen;
};

/* Writes "KEY: message" and returns rc. */
int jopt_fail(struct job_opt_ctx *c, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Prefixes the message a value parser left in c->err with "KEY: ". */
int jopt_prefix(struct job_opt_ctx *c, int rc);
/* Returns from the setter with the parser's message prefixed when call fails. */
#define PARSED(call) do { int rc_ = (call); if (rc_) return jopt_prefix(c, rc_); } while (0)
/* A whole percentage 0..100. */
int jopt_percent(struct job_opt_ctx *c, const char *v, unsigned *out);
/* fio's per-direction value "read,write,trim" (comma rule of spec_split_dirs):
 * sizes, integers up to max, or times (bare number = microseconds); a
 * direction not given keeps its value in out. */
enum jopt_dir_kind { JOPT_DIR_SIZE, JOPT_DIR_UINT, JOPT_DIR_TIME };
int jopt_per_dir(struct job_opt_ctx *c, const char *v, enum jopt_dir_kind kind, uint64_t max,
                 uint64_t out[DIR_COUNT]);

#define JOPT_SETTER(n) int jopt_set_##n(const struct job_opt *o, struct job_opt_ctx *c, const char *v)
JOPT_SETTER(name);
JOPT_SETTER(filename);
JOPT_SETTER(size);
JOPT_SETTER(offset);
JOPT_SETTER(range);
JOPT_SETTER(rw);
JOPT_SETTER(rw_sequencer);
JOPT_SETTER(rwmixread);
JOPT_SETTER(rwmixwrite);
JOPT_SETTER(bs);
JOPT_SETTER(bsrange);
JOPT_SETTER(bssplit);
JOPT_SETTER(blockalign);
JOPT_SETTER(engine);
JOPT_SETTER(sync);
JOPT_SETTER(rate);
JOPT_SETTER(rate_iops);
JOPT_SETTER(rate_process);
JOPT_SETTER(random_generator);
JOPT_SETTER(distribution);
JOPT_SETTER(randrepeat);
JOPT_SETTER(randseed);
JOPT_SETTER(pct_random);
JOPT_SETTER(zero_buffers);
JOPT_SETTER(buffer);
JOPT_SETTER(layout);
JOPT_SETTER(log);
JOPT_SETTER(percentiles);
JOPT_SETTER(steadystate);
JOPT_SETTER(kb_base);
/* verify (options_verify.c) */
JOPT_SETTER(verify);
JOPT_SETTER(verify_pattern);
/* fio job-file options (options_fio_set.c) */
JOPT_SETTER(continue_on_error);
JOPT_SETTER(ignore_error);
JOPT_SETTER(unified_rw);
JOPT_SETTER(thinktime_blocks_type);
JOPT_SETTER(off_only);
/* fio buffer contents (options_buf.c) */
JOPT_SETTER(buffer_pattern);
JOPT_SETTER(fio_compress);
JOPT_SETTER(dedupe_percentage);
JOPT_SETTER(dedupe_mode);
JOPT_SETTER(dedupe_ws_pct);
JOPT_SETTER(create_serialize);
JOPT_SETTER(scramble_buffers);
JOPT_SETTER(refill_buffers);
/* resolves them once the job is complete (called by job_option_finalize) */
void job_buf_finalize(struct job_spec *job, struct job_extra *x);
/* fio scheduling and clock (options_sched.c) */
JOPT_SETTER(cpus_allowed);
JOPT_SETTER(verify_async_cpus);
JOPT_SETTER(cpumask);
JOPT_SETTER(cpus_allowed_policy);
JOPT_SETTER(numa_cpu_nodes);
JOPT_SETTER(numa_mem_policy);
JOPT_SETTER(nice);
JOPT_SETTER(prio);
JOPT_SETTER(prioclass);
JOPT_SETTER(gtod_reduce);
JOPT_SETTER(clocksource);
/* fio's file set (options_files.c) */
JOPT_SETTER(file_service_type);
JOPT_SETTER(filesize);
JOPT_SETTER(fallocate);
JOPT_SETTER(invalidate);
/* The names of a job's files when filename is not given and nrfiles > 1,
 * filename_format or a filesize range asks for fio's naming: every clone's
 * files, inside its directory (dirs, ndirs). 1 when it named them, 0 when
 * the job is not such a job, -EINVAL with a message. */
int jopt_files_finalize(struct job_spec *job, struct job_extra *x, char **dirs, int ndirs,
                        char *err, size_t errlen);
/* fio zones, rate floors and latency limits (options_zone.c) */
JOPT_SETTER(zsize);
JOPT_SETTER(zoffset);
JOPT_SETTER(zio_size);
JOPT_SETTER(zoffset_inc);
JOPT_SETTER(zoneskip);
JOPT_SETTER(zonemode);
JOPT_SETTER(zone_reset_threshold);
JOPT_SETTER(zone_reset_frequency);
JOPT_SETTER(rate_min);
JOPT_SETTER(rate_iops_min);
JOPT_SETTER(max_latency);
JOPT_SETTER(latency_percentile);
/* fio's zone rules after all options are set: zonemode default and
 * checks, zonerange default, values in zones into bytes */
int jopt_finalize_zones(struct job_spec *job, struct job_extra *x, char *err, size_t errlen);
/* fio's rate floor rules: rate_min with rate_iops_min, a floor above the rate */
int jopt_finalize_limits(struct job_spec *job, const struct job_extra *x, char *err, size_t errlen);
/* fio's read_iolog (options_replay.c): the log read and checked, the job's
 * target, directions and block sizes set from it; refusals of what a
 * replay cannot combine with */
int jopt_finalize_replay(struct job_spec *job, struct job_extra *x, char *err, size_t errlen);
JOPT_SETTER(replay_skip);
JOPT_SETTER(iodepth);
/* fio's io_uring engine options (options_fio_set.c) */
JOPT_SETTER(uring_knob);
JOPT_SETTER(sqthread_poll_cpu);
JOPT_SETTER(cmd_type);
JOPT_SETTER(sg_write_mode);
/* fio's per-I/O priorities and io_submit_mode (options_prio.c) */
JOPT_SETTER(io_submit_mode);
JOPT_SETTER(cmdprio_percentage);
JOPT_SETTER(cmdprio_class);
JOPT_SETTER(cmdprio);
JOPT_SETTER(cmdprio_bssplit);
/* their rules once the job is complete: engine, exclusions, serialize_overlap */
int jopt_finalize_prio(struct job_spec *job, char *err, size_t errlen);
/* options_small.c: cpuio and filestat options; cpuio's thinktime and
 * run-length rule; a file-operation engine's name set (returns 1 when it
 * named the files) */
JOPT_SETTER(cpumode);
JOPT_SETTER(stat_type);
JOPT_SETTER(exit_what);
int jopt_small_finalize(struct job_spec *job, char *err, size_t errlen);
int jopt_names_finalize(struct job_spec *job, const char *fmt, const char *dir, char *err, size_t errlen);

#endif
