/* signal.h - stop signals. SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and
 * SIGUSR2 all stop a run the same way: the handler only records which signal
 * arrived in the project's single mutable global; workers poll it, stop
 * issuing new I/O, drain what is in flight, and the CLI writes a complete
 * result marked interrupted and exits 128 + signal. SIGPIPE is ignored: a
 * write to a closed pipe fails with EPIPE instead of killing the run before
 * its result is saved. */
#ifndef SSDBENCH_SIGNAL_H
#define SSDBENCH_SIGNAL_H

#include <signal.h>

void signal_install(void);
int signal_received(void);       /* 0 or the stop signal that arrived */
void signal_raise_stop(int sig); /* lets tests and timers request the same stop */
const char *signal_name(int sig); /* "SIGHUP", ...; "?" for others */

#endif
