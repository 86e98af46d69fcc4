/* io_dir.h - the directions of data I/O, the index of every per-direction
 * array (block sizes, statistics, logs, limits) on every floor. */
#ifndef SSDBENCH_IO_DIR_H
#define SSDBENCH_IO_DIR_H

/* Directions of data I/O. Trims (discards) are the third, as in fio: they
 * carry no data but destroy it like a write (see docs/design.md "Trim"). */
enum io_dir { DIR_READ = 0, DIR_WRITE = 1, DIR_TRIM = 2, DIR_COUNT = 3 };

#endif
