/* inuse_parse.h - pure parsers for the in-use walk (inuse_walk.h): the
 * kernel's text about other processes' descriptors and mappings and the
 * loop driver's device encoding. No system calls here, so every format can
 * be tested on fixed text (tests/unit/test_inuse_parse.c).
 *
 * Formats read (Linux 6.1 and later):
 *   /proc/PID/fdinfo/N  "flags:\t0100002" (octal open flags); for an
 *                       io_uring descriptor also "UserFiles:\tN" followed by
 *                       one "%5u: NAME" line per registered file: NAME is the
 *                       dentry name on 6.1, the path with " \t\n\\" escaped
 *                       as \ooo on later kernels (6.18), " (deleted)" after
 *                       an unlinked one; 6.1 lists nothing when the ring's
 *                       lock is busy.
 *   /proc/PID/maps      "start-end perms offset MAJ:MIN inode   path"
 *                       (hexadecimal addresses and device numbers).
 *   loop_info64         lo_device / lo_rdevice in the kernel's
 *                       new_encode_dev() form. */
#ifndef SSDBENCH_INUSE_PARSE_H
#define SSDBENCH_INUSE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The open flags of an fdinfo text; false when there is no "flags:" line. */
bool inuse_fdinfo_flags(const char *text, unsigned long *flags);

/* Walks the registered files of an io_uring fdinfo text: fn is called with
 * each name, unescaped (\ooo), " (deleted)" removed and *deleted set; a
 * non-zero return stops the walk and is returned. *declared is the
 * UserFiles count, *listed the entries seen. Returns -1 when the text has
 * no UserFiles line (not an io_uring descriptor), else 0 or fn's value. */
int inuse_uring_files(const char *text, int (*fn)(const char *name, bool deleted, void *arg),
                      void *arg, unsigned *declared, unsigned *listed);

struct inuse_map {
    uint64_t start, end;
    bool write, shared;    /* perms 'w' and 's' */
    unsigned major, minor; /* the mapped file's device */
    uint64_t inode;        /* 0: anonymous memory */
    const char *path;      /* into the line; "" when none */
};

/* Parses one line of /proc/PID/maps (the line is modified: the path is
 * cut at the newline). False when it does not have the form. */
bool inuse_maps_line(char *line, struct inuse_map *m);

/* Decodes the loop driver's device numbers (new_encode_dev form). */
dev_t inuse_decode_dev(uint64_t encoded);

/* Removes a trailing " (deleted)" (the kernel's mark of an unlinked file in
 * a path it prints); true when it was there. */
bool inuse_strip_deleted(char *path);

/* Copies in to out turning \ooo octal escapes into bytes. */
void inuse_unescape(const char *in, char *out, size_t len);

/* Whether [a, a + alen) and [b, b + blen) share a byte; a length of 0
 * means "to the end". */
bool inuse_ranges_overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen);

#endif
