/* round.h - Python's round(x, ndigits) for the values we print: correctly
 * rounded, ties to even on the exact binary value. ACT's act_latency.py rounds
 * this way, so the ACT tables (text and html) use it to match it digit for
 * digit. */
#ifndef SSDBENCH_BASE_ROUND_H
#define SSDBENCH_BASE_ROUND_H

double round_decimal(double x, int ndigits);

#endif
