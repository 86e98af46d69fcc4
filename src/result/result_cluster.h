/* result_cluster.h - a phase run over many ranks (base/cluster.h) in the
 * results model: each rank describes its own part (host, version, targets
 * and their identity, the kernel's counts, its own totals, its start skew)
 * as one JSON object; rank 0 files every rank's under the phase's
 * "cluster", with a per-host sum. The phase's totals and intervals are
 * already the cluster's (merged in the runner). docs/results.md
 * "Cluster runs" has the fields. */
#ifndef SSDBENCH_RESULT_CLUSTER_H
#define SSDBENCH_RESULT_CLUSTER_H

#include <cjson/cJSON.h>

#include "base/cluster.h"
#include "runner/runner.h"

/* This rank's part of the phase ps (ps->cluster set). */
cJSON *result_rank_json(const struct phase_stats *ps, const struct cluster *c);

/* Adds "cluster" to phase: ranks (every rank's object, in rank order; owned
 * by phase afterwards), hosts (sums per host), skew and how the phase ended. */
void result_add_cluster(cJSON *phase, const struct phase_stats *ps, cJSON *ranks);

#endif
