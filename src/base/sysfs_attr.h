/* sysfs_attr.h - reading one small text attribute (sysfs, procfs): the
 * first line, surrounding blanks trimmed. Used by the target's identity,
 * the write guard and the device module, so they read attributes alike. */
#ifndef SSDBENCH_SYSFS_ATTR_H
#define SSDBENCH_SYSFS_ATTR_H

#include <stdbool.h>
#include <stddef.h>

/* Reads DIR/NAME into out (len bytes, NUL-terminated; "" when absent or
 * unreadable). Returns true when the attribute was read. */
bool sysfs_attr(const char *dir, const char *name, char *out, size_t len);

#endif
