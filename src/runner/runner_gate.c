/* runner_gate.c - the start gate of a phase's workers (runner_int.h): the
 * workers arrive and wait, the runner waits for the ones it started and
 * opens the gate once, for I/O or (setup_failed) for their exit. */
#include "runner/runner_int.h"

void runner_gate_init(struct runner_gate *g)
{
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    g->ready = 0;
    g->open = false;
}

void runner_gate_arrive(struct runner_gate *g)
{
    pthread_mutex_lock(&g->mu);
    g->ready++;
    pthread_cond_broadcast(&g->cv);
    while (!g->open)
        pthread_cond_wait(&g->cv, &g->mu);
    pthread_mutex_unlock(&g->mu);
}

void runner_gate_wait_ready(struct runner_gate *g, unsigned n)
{
    pthread_mutex_lock(&g->mu);
    while (g->ready < n)
        pthread_cond_wait(&g->cv, &g->mu);
    pthread_mutex_unlock(&g->mu);
}

void runner_gate_open(struct runner_gate *g)
{
    pthread_mutex_lock(&g->mu);
    g->open = true;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

void runner_gate_destroy(struct runner_gate *g)
{
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
}
