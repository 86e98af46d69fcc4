/* result_fileio.h - the records the fileio family (sysbench fileio) hands to
 * its renderers: a prepared file's state and one interval row, the same row
 * the document stores under "fileio"."intervals"."rows". The sysbench text
 * renderer prints these, live during a run and from a saved result alike. */
#ifndef SSDBENCH_RESULT_FILEIO_H
#define SSDBENCH_RESULT_FILEIO_H

enum fileio_file_state { FILEIO_FILE_CREATING, FILEIO_FILE_EXTENDING, FILEIO_FILE_REUSING };

/* One interval line: what sysbench prints per --report-interval. */
struct fileio_row {
    double t_s;             /* end of the interval since the start */
    double secs;            /* its length */
    double read_mibps, write_mibps, fsyncs_per_s;
    double pct_ms;          /* the --percentile latency of the interval's events */
};

#endif
