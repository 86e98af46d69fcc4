/* signal.c - see signal.h. */
#include <string.h>

#include "base/signal.h"

static volatile sig_atomic_t signal_flag; /* the one mutable global */

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};

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
    for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
        sigaction(stop_signals[i], &sa, NULL);
    /* a reader that went away (ssdbench run | head -1) is an EPIPE on the
     * write, which the writer turns into a clean stop; the result is still
     * saved */
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
}

int signal_received(void)
{
    return signal_flag;
}

void signal_raise_stop(int sig)
{
    signal_flag = sig;
}

const char *signal_name(int sig)
{
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGQUIT: return "SIGQUIT";
    case SIGUSR1: return "SIGUSR1";
    case SIGUSR2: return "SIGUSR2";
    case SIGPIPE: return "SIGPIPE";
    }
    return "?";
}
