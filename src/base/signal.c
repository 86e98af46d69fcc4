/* signal.c - see signal.h. */
#include <string.h>

#include "base/signal.h"

static volatile sig_atomic_t signal_flag; /* the one mutable global */

static void on_signal(int sig)
{
    signal_flag = sig;
}

void signal_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int signal_received(void)
{
    return signal_flag;
}

void signal_raise_stop(int sig)
{
    signal_flag = sig;
}
