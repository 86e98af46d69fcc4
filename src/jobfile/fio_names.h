/* fio_names.h - the names of every option fio knows (fio 3.33's core and
 * engine options, with aliases), generated from fio's source by
 * scripts/gen-fio-names.sh. It decides "unknown" against "unsupported": a key
 * fio knows that ssdbench's option table lacks is unsupported; a key neither
 * knows is unknown (a typo). It also says whether fio's command line takes
 * the next argument as the option's value ("--rw randread"): every fio
 * option does except the empty-or-boolean ones (time_based,
 * group_reporting, ...). */
#ifndef SSDBENCH_FIO_NAMES_H
#define SSDBENCH_FIO_NAMES_H

#include <stdbool.h>

struct fio_name {
    const char *name;       /* as fio spells it (an alias is its own entry) */
    const char *canonical;  /* the option's main name */
    bool takes_arg;         /* fio's getopt: required_argument (else optional) */
};

extern const struct fio_name fio_names[];
extern const unsigned fio_names_count;
extern const char fio_names_version[];   /* "fio-3.33" */

/* The entry of key in fio_names ('-' and '_' alike, any case), or NULL
 * (options_fio.c). */
const struct fio_name *fio_name_find(const char *key);

#endif
