/* cmd_act_analyze.h - `ssdbench act-analyze`: ACT's slice tables and the
 * certification verdict for an ACT raw log (ours or ACT's own).
 *
 * Exit status: 0 analysed (verdict PASS, or no verdict because the run is
 * shorter than 24 h or still incomplete), 1 verdict FAIL (a limit reached in
 * some hour, or the run stopped early by the max-lag rule), 2 bad usage or
 * unreadable/invalid log, or no full slice to show.
 */
#ifndef SSDBENCH_CMD_ACT_ANALYZE_H
#define SSDBENCH_CMD_ACT_ANALYZE_H

/* argv[0] is "act-analyze" (the subcommand name); options follow. */
int cmd_act_analyze(int argc, char **argv);

#endif
