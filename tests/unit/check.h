/* check.h - the tiny unit-test harness used by every tests/unit/test_*.c.
 *
 * Each test is a function registered with TEST(name). The runner executes them
 * in order and prints one line per test: "PASS <file>:<name>" or
 * "FAIL <file>:<name>: <reason>". tests/run.sh counts those lines, so a test
 * binary that crashes part-way loses the remaining PASS lines and is counted as
 * a failure by the runner (non-zero exit).
 */
#ifndef SSDBENCH_TEST_CHECK_H
#define SSDBENCH_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct check_case {
    const char *name;
    void (*fn)(int *failed);
};

#define CHECK_MAX_CASES 256
static struct check_case check_cases[CHECK_MAX_CASES];
static int check_ncases;

#define TEST(name)                                                        \
    static void test_##name(int *check_failed_);                          \
    __attribute__((constructor)) static void check_register_##name(void)  \
    {                                                                     \
        if (check_ncases < CHECK_MAX_CASES)                               \
            check_cases[check_ncases++] =                                 \
                (struct check_case){#name, test_##name};                  \
    }                                                                     \
    static void test_##name(int *check_failed_)

/* Fails the current test (and returns from it) when cond is false. */
#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (!(cond)) {                                                    \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);        \
            printf(__VA_ARGS__);                                          \
            printf("\n");                                                 \
            *check_failed_ = 1;                                           \
            return;                                                       \
        }                                                                 \
    } while (0)

#define CHECK_MAIN()                                                      \
    int main(void)                                                        \
    {                                                                     \
        int nfail = 0;                                                    \
        setvbuf(stdout, NULL, _IOLBF, 0);                                 \
        for (int i = 0; i < check_ncases; i++) {                          \
            int failed = 0;                                               \
            check_cases[i].fn(&failed);                                   \
            if (failed) {                                                 \
                printf("FAIL %s:%s\n", __FILE__, check_cases[i].name);    \
                nfail++;                                                  \
            } else {                                                      \
                printf("PASS %s:%s\n", __FILE__, check_cases[i].name);    \
            }                                                             \
        }                                                                 \
        return nfail ? 1 : 0;                                             \
    }

#endif
