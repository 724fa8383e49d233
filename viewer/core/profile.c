/* SPDX-License-Identifier: MIT */
/* profile.c - see profile.h. */
#include "profile.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

size_t sv_profile_by_category(const slog_profile_row *src, size_t n, uint32_t n_categories, slog_profile_row **out)
{
    slog_profile_row *all = calloc((size_t)n_categories + 1, sizeof *all);
    *out = NULL;
    if (!all) return (size_t)-1;
    for (uint32_t k = 0; k < n_categories; k++) {
        all[k].category = k;
        all[k].min_ns = INT64_MAX;
    }
    for (size_t i = 0; i < n; i++) {
        const slog_profile_row *p = &src[i];
        if (p->category >= n_categories || !p->calls) continue;
        slog_profile_row *t = &all[p->category];
        t->calls += p->calls;
        t->inclusive_ns += p->inclusive_ns;
        t->exclusive_ns += p->exclusive_ns;
        if (p->min_ns < t->min_ns) t->min_ns = p->min_ns;
        if (p->max_ns > t->max_ns) t->max_ns = p->max_ns;
    }
    size_t m = 0;
    for (uint32_t k = 0; k < n_categories; k++)
        if (all[k].calls) all[m++] = all[k];
    *out = all;
    return m;
}

slog_profile_row *sv_profile_per_timeline(const slog_profile_row *src, size_t n, uint32_t k, uint32_t n_timelines)
{
    slog_profile_row *rows = calloc((size_t)n_timelines + 1, sizeof *rows);
    if (!rows) return NULL;
    for (uint32_t t = 0; t < n_timelines; t++) {
        rows[t].timeline = t;
        rows[t].category = k;
    }
    for (size_t i = 0; i < n; i++)
        if (src[i].category == k && src[i].timeline < n_timelines) rows[src[i].timeline] = src[i];
    return rows;
}

double sv_profile_mean_ns(const slog_profile_row *p)
{
    return p->calls ? (double)p->inclusive_ns / (double)p->calls : 0;
}

double sv_profile_share(const slog_profile_row *p, int64_t t0, int64_t t1, uint32_t n_timelines)
{
    double span = (double)(t1 - t0) * (double)n_timelines;
    return span > 0 ? (double)p->inclusive_ns / span : 0;
}

static void csv_string(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int sv_profile_write_csv(FILE *f, const slog_profile_row *rows, size_t n, const char *const *names, int64_t t0,
                         int64_t t1, uint32_t n_timelines)
{
    fprintf(f, "category,calls,inclusive_s,exclusive_s,min_s,mean_s,max_s,share\n");
    for (size_t i = 0; i < n; i++) {
        const slog_profile_row *p = &rows[i];
        csv_string(f, names[p->category] ? names[p->category] : "");
        fprintf(f, ",%" PRIu64 ",%.9f,%.9f,%.9f,%.9f,%.9f,%.6f\n", p->calls, (double)p->inclusive_ns / 1e9,
                (double)p->exclusive_ns / 1e9, (double)p->min_ns / 1e9,
                (double)p->inclusive_ns / (double)p->calls / 1e9, (double)p->max_ns / 1e9,
                sv_profile_share(p, t0, t1, n_timelines));
    }
    return ferror(f) ? -1 : 0;
}
