/* signal.h - SIGINT/SIGTERM handling. The handler only records which signal
 * arrived in the project's single mutable global; workers poll it, stop issuing
 * new I/O, drain what is in flight, and the CLI writes a complete result marked
 * interrupted and exits 128 + signal. */
#ifndef SSDBENCH_SIGNAL_H
#define SSDBENCH_SIGNAL_H

#include <signal.h>

void signal_install(void);
int signal_received(void);    /* 0, SIGINT or SIGTERM */
void signal_raise_stop(int sig); /* lets tests and timers request the same stop */

#endif
