/* fio_text_fmt.c - see fio_text_fmt.h. The rules follow fio 3.33's
 * lib/num2str.c and stat.c (display_lat, show_clat_percentiles, show_lat). */
#include "output/fio_text_fmt.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void fio_num2str(char *buf, size_t len, uint64_t num, int maxlen, int base, bool pow2, enum fio_n2s unit)
{
    static const char *const si[] = {"", "k", "M", "G", "T", "P", "E"};
    static const char *const iec[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    static const char *const us[] = {"", "/s", "B", "bit", "B/s", "bit/s"};
    const char *const *pfx = pow2 ? iec : si;
    const unsigned thousand = pow2 ? 1024 : 1000;
    unsigned npfx = sizeof(si) / sizeof(si[0]);
    unsigned post = 0;
    for (; base > 1; post++)
        base /= (int)thousand;
    if (unit == FIO_N2S_BIT || unit == FIO_N2S_BITPERSEC)
        num *= 8;
    char tmp[32];
    unsigned modulo = UINT32_MAX;
    bool carry = false;
    while (post < npfx) {
        snprintf(tmp, sizeof(tmp), "%" PRIu64, num);
        if ((int)strlen(tmp) <= maxlen)
            break;
        modulo = (unsigned)(num % thousand);
        num /= thousand;
        carry = modulo >= thousand / 2;
        post++;
    }
    if (post >= npfx)
        post = 0;
    int w;
    if (modulo == UINT32_MAX) {
        w = snprintf(buf, len, "%" PRIu64 "%s%s", num, pfx[post], us[unit]);
    } else {
        snprintf(tmp, sizeof(tmp), "%" PRIu64, num);
        int room = maxlen - (int)strlen(tmp);
        if (room <= 1) {
            w = snprintf(buf, len, "%" PRIu64 "%s%s", num + (carry ? 1 : 0), pfx[post], us[unit]);
        } else {
            char fr[32];
            snprintf(fr, sizeof(fr), "%.*f", room - 1, (double)modulo / (double)thousand);
            if (fr[0] == '1')
                num++;
            w = snprintf(buf, len, "%" PRIu64 ".%s%s%s", num, fr + 2, pfx[post], us[unit]);
        }
    }
    if (w < 0 || (size_t)w >= len)
        buf[0] = 0;
}

void fio_text_lat_line(FILE *f, const char *name, uint64_t min, uint64_t max, double mean, double dev)
{
    const char *base = "(nsec)";
    if (min > 2000000 && max > 99999999ull && dev > 1000000.0) {
        min /= 1000000;
        max /= 1000000;
        mean /= 1e6;
        dev /= 1e6;
        base = "(msec)";
    } else if (min > 2000 && max > 99999 && dev > 1000.0) {
        min /= 1000;
        max /= 1000;
        mean /= 1e3;
        dev /= 1e3;
        base = "(usec)";
    }
    char a[32], b[32];
    fio_num2str(a, sizeof(a), min, 6, 1, false, FIO_N2S_NONE);
    fio_num2str(b, sizeof(b), max, 6, 1, false, FIO_N2S_NONE);
    fprintf(f, "    %s %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, base, a, b, mean, dev);
}

void fio_text_pct_block(FILE *f, const char *pre, const double *pct, const uint64_t *val, unsigned n,
                        unsigned precision)
{
    if (!n)
        return;
    uint64_t minv = UINT64_MAX, maxv = 0;
    for (unsigned i = 0; i < n; i++) {
        if (val[i] < minv)
            minv = val[i];
        if (val[i] > maxv)
            maxv = val[i];
    }
    unsigned scale = 0;
    uint64_t divisor = 1;
    const char *unit = "nsec";
    if (minv > 2000000 && maxv > 99999999ull) {
        scale = 2, divisor = 1000000, unit = "msec";
    } else if (minv > 2000 && maxv > 99999) {
        scale = 1, divisor = 1000, unit = "usec";
    }
    fprintf(f, "    %s percentiles (%s):\n     |", pre, unit);
    uint64_t top = maxv / divisor;
    int tw = top ? (int)(log10((double)top) + 1) : 0;
    if (tw < 5)
        tw = 5;
    int per_line = (80 - 7) / ((int)precision + 10 + tw);
    if (per_line < 1)
        per_line = 1;
    for (unsigned j = 0; j < n; j++) {
        if (j != 0 && j % (unsigned)per_line == 0)
            fputs("     |", f);
        bool last = j == n - 1;
        uint64_t v = val[j];
        for (unsigned i = 0; i < scale; i++)
            v = (v + 999) / 1000;
        fprintf(f, " %*.*fth=[%*" PRIu64 "]%c", (int)precision + 3, (int)precision, pct[j], tw, v,
                last ? '\n' : ',');
        if (last)
            break;
        if (j % (unsigned)per_line == (unsigned)per_line - 1)
            fputc('\n', f);
    }
}

double fio_text_min_share(double v, double step)
{
    return v > 0 && v < step ? step : v;
}

void fio_text_lat_dist(FILE *f, const char *unit, const char *const *ranges, const double *share, unsigned n)
{
    bool new_line = true, shown = false;
    int line = 0;
    for (unsigned i = 0; i < n; i++) {
        if (share[i] <= 0.0)
            continue;
        shown = true;
        if (new_line) {
            if (line)
                fputc('\n', f);
            fprintf(f, "  lat (%s)   : ", unit);
            new_line = false;
            line = 0;
        }
        if (line)
            fputs(", ", f);
        fprintf(f, "%s%3.2f%%", ranges[i], fio_text_min_share(share[i], 0.01));
        if (++line == 5)
            new_line = true;
    }
    if (shown)
        fputc('\n', f);
}
