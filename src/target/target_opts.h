/* target_opts.h - what opening a target is told by the job above it: the
 * longest path a target may have and fio's fallocate modes for a file
 * ssdbench creates (target.h, fileset.h). Plain data, no functions. */
#ifndef SSDBENCH_TARGET_OPTS_H
#define SSDBENCH_TARGET_OPTS_H

/* bytes of a target's path, its terminating NUL included */
#define TARGET_PATH_MAX 256

/* fio fallocate: how a file ssdbench creates is allocated (UNSET keeps
 * ssdbench's own way: written in full with random data) */
enum target_fallocate { FALLOC_UNSET, FALLOC_NONE, FALLOC_NATIVE, FALLOC_POSIX, FALLOC_KEEP,
                        FALLOC_TRUNCATE };

#endif
