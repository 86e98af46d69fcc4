/* test_fio_text.c - the formatting rules of fio's human output
 * (output/fio_text_fmt.h): num2str's scaling and carry rounding, the unit
 * choice of latency lines, the percentile block's row layout and the
 * latency distribution rows. Expected strings are fio 3.33's own output for
 * the same figures (captured from /usr/bin/fio runs, see fio_text.sh). */
#include <stdlib.h>

#include "check.h"
#include "output/fio_text_fmt.h"

static const char *n2s(uint64_t num, int maxlen, bool pow2, enum fio_n2s unit)
{
    static char buf[64];
    fio_num2str(buf, sizeof(buf), num, maxlen, 1, pow2, unit);
    return buf;
}

TEST(num2str_bytes)
{
    CHECK(!strcmp(n2s(11534336, 4, true, FIO_N2S_BYTE), "11.0MiB"), "%s", n2s(11534336, 4, true, FIO_N2S_BYTE));
    CHECK(!strcmp(n2s(11534336, 4, false, FIO_N2S_BYTE), "11.5MB"), "%s", n2s(11534336, 4, false, FIO_N2S_BYTE));
    CHECK(!strcmp(n2s(5210112, 4, true, FIO_N2S_BYTE), "5088KiB"), "%s", n2s(5210112, 4, true, FIO_N2S_BYTE));
    CHECK(!strcmp(n2s(5210112, 4, false, FIO_N2S_BYTE), "5210kB"), "%s", n2s(5210112, 4, false, FIO_N2S_BYTE));
    CHECK(!strcmp(n2s(4096, 4, true, FIO_N2S_BYTE), "4096B"), "%s", n2s(4096, 4, true, FIO_N2S_BYTE));
    CHECK(!strcmp(n2s(131072, 4, true, FIO_N2S_BYTE), "128KiB"), "%s", n2s(131072, 4, true, FIO_N2S_BYTE));
}

TEST(num2str_rates)
{
    /* fio: 11567104 bytes in 193 ms -> "BW=57.2MiB/s (59.9MB/s)" */
    uint64_t bw = 1000ull * 11567104 / 193;
    CHECK(!strcmp(n2s(bw, 4, true, FIO_N2S_BYTEPERSEC), "57.2MiB/s"), "%s", n2s(bw, 4, true, FIO_N2S_BYTEPERSEC));
    CHECK(!strcmp(n2s(bw, 4, false, FIO_N2S_BYTEPERSEC), "59.9MB/s"), "%s", n2s(bw, 4, false, FIO_N2S_BYTEPERSEC));
    /* IOPS: 2824 I/Os in 193 ms -> "14.6k"; 6590 stays whole */
    CHECK(!strcmp(n2s(1000ull * 2824 / 193, 4, false, FIO_N2S_NONE), "14.6k"), "%s",
          n2s(1000ull * 2824 / 193, 4, false, FIO_N2S_NONE));
    CHECK(!strcmp(n2s(6590, 4, false, FIO_N2S_NONE), "6590"), "%s", n2s(6590, 4, false, FIO_N2S_NONE));
    CHECK(!strcmp(n2s(1, 4, false, FIO_N2S_BITPERSEC), "8bit/s"), "%s", n2s(1, 4, false, FIO_N2S_BITPERSEC));
}

TEST(num2str_carry)
{
    /* no room for decimals: the dropped part rounds the last digit */
    CHECK(!strcmp(n2s(1048575, 4, true, FIO_N2S_BYTE), "1024KiB"), "%s", n2s(1048575, 4, true, FIO_N2S_BYTE));
    CHECK(!strcmp(n2s(1049000, 4, true, FIO_N2S_BYTE), "1024KiB"), "%s", n2s(1049000, 4, true, FIO_N2S_BYTE));
    /* decimals that round up to 1.00 carry into the integer part */
    CHECK(!strcmp(n2s(10485759, 4, true, FIO_N2S_BYTE), "10.00MiB"), "%s", n2s(10485759, 4, true, FIO_N2S_BYTE));
    /* six digits for latency figures: 4081227 -> 4081.2k */
    CHECK(!strcmp(n2s(4081227, 6, false, FIO_N2S_NONE), "4081.2k"), "%s", n2s(4081227, 6, false, FIO_N2S_NONE));
    CHECK(!strcmp(n2s(0, 4, false, FIO_N2S_NONE), "0"), "%s", n2s(0, 4, false, FIO_N2S_NONE));
    char small[4];
    fio_num2str(small, sizeof(small), 11534336, 4, 1, true, FIO_N2S_BYTE);
    CHECK(small[0] == 0, "a too small buffer gives \"\", not a cut figure: %s", small);
}

/* not inlined: GCC 12 takes the memstream buffer for a dangling local */
__attribute__((noinline)) static char *lat_line(const char *name, uint64_t mn, uint64_t mx, double mean, double dev)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fio_text_lat_line(f, name, mn, mx, mean, dev);
    fclose(f);
    return buf;
}

TEST(lat_line_units)
{
    char *s = lat_line("clat", 30000, 4265000, 63290, 199050);
    CHECK(!strcmp(s, "    clat (usec): min=30, max=4265, avg=63.29, stdev=199.05\n"), "%s", s);
    free(s);
    s = lat_line(" lat", 966, 4081227, 2918.05, 76097.5);
    CHECK(!strcmp(s, "     lat (nsec): min=966, max=4081.2k, avg=2918.05, stdev=76097.50\n"), "%s", s);
    free(s);
    /* usec needs all three: a stdev of 1000 ns or less stays in nsec */
    s = lat_line("clat", 2016, 100000, 6123.42, 999);
    CHECK(!strcmp(s, "    clat (nsec): min=2016, max=100000, avg=6123.42, stdev=999.00\n"), "%s", s);
    free(s);
    s = lat_line("clat", 5000000, 150000000, 20e6, 3e6);
    CHECK(!strcmp(s, "    clat (msec): min=5, max=150, avg=20.00, stdev= 3.00\n"), "%s", s);
    free(s);
    s = lat_line("clat", 2000, 4060000, 8260, 113930);
    CHECK(!strcmp(s, "    clat (nsec): min=2000, max=4060.0k, avg=8260.00, stdev=113930.00\n"), "%s", s);
    free(s);
}

static const double fio_pcts[17] = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

__attribute__((noinline)) static char *pct_block(const uint64_t *val, unsigned n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fio_text_pct_block(f, "clat", fio_pcts, val, n, 2);
    fclose(f);
    return buf;
}

TEST(percentile_rows_usec)
{
    /* fio's rows for these values: four per row, width 5 */
    static const unsigned us[17] = {34, 35, 36, 37, 38, 39, 40, 41, 44, 51, 66, 96, 465, 1029, 3687, 4080, 4293};
    uint64_t v[17];
    for (int i = 0; i < 17; i++)
        v[i] = us[i] * 1000ull - 500; /* fio rounds up to whole usec */
    char *s = pct_block(v, 17);
    const char *want = "    clat percentiles (usec):\n"
                       "     |  1.00th=[   34],  5.00th=[   35], 10.00th=[   36], 20.00th=[   37],\n"
                       "     | 30.00th=[   38], 40.00th=[   39], 50.00th=[   40], 60.00th=[   41],\n"
                       "     | 70.00th=[   44], 80.00th=[   51], 90.00th=[   66], 95.00th=[   96],\n"
                       "     | 99.00th=[  465], 99.50th=[ 1029], 99.90th=[ 3687], 99.95th=[ 4080],\n"
                       "     | 99.99th=[ 4293]\n";
    CHECK(!strcmp(s, want), "got\n%s", s);
    free(s);
}

TEST(percentile_rows_wide)
{
    /* nsec values of seven digits: the column widens and three fit a row */
    uint64_t v[4] = {1092, 1172, 9504, 4081227};
    char *s = pct_block(v, 4);
    const char *want = "    clat percentiles (nsec):\n"
                       "     |  1.00th=[   1092],  5.00th=[   1172], 10.00th=[   9504],\n"
                       "     | 20.00th=[4081227]\n";
    CHECK(!strcmp(s, want), "got\n%s", s);
    free(s);
    /* msec: min above 2 ms and max above 100 ms */
    uint64_t m[2] = {2500000, 150000001};
    s = pct_block(m, 2);
    CHECK(!strcmp(s, "    clat percentiles (msec):\n     |  1.00th=[    3],  5.00th=[  151]\n"), "got\n%s", s);
    free(s);
    s = pct_block(m, 0);
    CHECK(s && !*s, "no percentiles, no block: %s", s);
    free(s);
}

TEST(latency_distribution_rows)
{
    static const char *const r[] = {"2=", "4=", "10=", "20=", "50=", "100=", "250=", "500=", "750=", "1000="};
    double sh[10] = {0, 16.82, 12.57, 1.34, 54.57, 11.40, 2.08, 0.59, 0.17, 0.07};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fio_text_lat_dist(f, "usec", r, sh, 10);
    double tiny[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0.001, 0};
    fio_text_lat_dist(f, "msec", r, tiny, 10);
    double none[10] = {0};
    fio_text_lat_dist(f, "nsec", r, none, 10);
    fclose(f);
    const char *want = "  lat (usec)   : 4=16.82%, 10=12.57%, 20=1.34%, 50=54.57%, 100=11.40%\n"
                       "  lat (usec)   : 250=2.08%, 500=0.59%, 750=0.17%, 1000=0.07%\n"
                       "  lat (msec)   : 750=0.01%\n";
    CHECK(!strcmp(buf, want), "got\n%s", buf);
    free(buf);
    CHECK(fio_text_min_share(0.04, 0.1) == 0.1 && fio_text_min_share(0, 0.1) == 0 &&
              fio_text_min_share(50, 0.1) == 50,
          "min share");
}

CHECK_MAIN()
