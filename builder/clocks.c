/* SPDX-License-Identifier: MIT */
/* clocks.c - see clocks.h. */
#include "clocks.h"

#include <glib.h>
#include <string.h>

#include "dumpi_table.h"

static const char *const align_names[] = {"auto", "always", "never"};

bool clock_align_parse(const char *s, clock_align *out)
{
    for (size_t i = 0; i < G_N_ELEMENTS(align_names); i++)
        if (strcmp(s, align_names[i]) == 0) {
            *out = (clock_align)i;
            return true;
        }
    return false;
}

/* Ranks to hosts by name; unnamed ranks one entry each. */
static void group_hosts(dumpi_file *const *files, uint32_t n, clock_plan *p)
{
    GHashTable *by_name = g_hash_table_new(g_str_hash, g_str_equal);
    p->hosts = g_new0(clock_host, n ? n : 1);
    p->host_of = g_new0(uint32_t, n ? n : 1);
    for (uint32_t r = 0; r < n; r++) {
        p->host_of[r] = UINT32_MAX;
        if (!files[r]) continue;
        const char *name = dumpi_file_hostname(files[r]);
        if (!name) name = "";
        gpointer v = name[0] ? g_hash_table_lookup(by_name, name) : NULL;
        size_t h;
        if (v) {
            h = GPOINTER_TO_SIZE(v) - 1;
        } else {
            h = p->n_hosts++;
            p->hosts[h].name = g_strdup(name);
            p->hosts[h].first_rank = r;
            for (int k = 0; k < CLOCK_POINTS; k++) {
                p->hosts[h].entry_ns[k] = INT64_MIN;
                p->hosts[h].exit_ns[k] = INT64_MAX;
            }
            if (name[0]) {
                g_hash_table_insert(by_name, p->hosts[h].name, GSIZE_TO_POINTER(h + 1));
                p->n_named++;
            }
        }
        p->hosts[h].n_ranks++;
        p->host_of[r] = (uint32_t)h;
    }
    g_hash_table_destroy(by_name);
}

/* The calls that end on every rank only after every rank entered them. */
static const char *const sync_names[] = {
    "MPI_Barrier",  "MPI_Allreduce", "MPI_Allgather", "MPI_Allgatherv",
    "MPI_Alltoall", "MPI_Alltoallv", "MPI_Alltoallw", "MPI_Reduce_scatter",
};

typedef struct probe {
    uint8_t labels[DUMPI_N_LABELS]; /* MPI_Init(_thread) and sync_names */
    int comm_arg[DUMPI_N_LABELS];   /* table index of a collective's comm */
} probe;

static void probe_init(probe *pr)
{
    memset(pr, 0, sizeof *pr);
    pr->labels[DUMPI_LABEL_INIT] = pr->labels[DUMPI_LABEL_INIT_THREAD] = 1;
    for (size_t i = 0; i < G_N_ELEMENTS(sync_names); i++) {
        const dumpi_fn_info *fn = dumpi_fn_by_name(sync_names[i]);
        if (!fn) continue;
        pr->labels[fn->label] = 1;
        pr->comm_arg[fn->label] = dumpi_fn_arg_index(fn->label, "comm");
    }
}

/* f's MPI_Init and first synchronising collectives on COMM_WORLD (main
 * thread), entry and exit, folded into host h; f is rewound. */
static void probe_rank(const probe *pr, dumpi_file *f, clock_host *h)
{
    dumpi_call c;
    dumpi_error e;
    int budget = CLOCK_PROBE_RECORDS, n = 0;
    while (n < CLOCK_POINTS && dumpi_file_find(f, pr->labels, &budget, &c, &e) == 1) {
        if (c.thread != 0 || !(c.mask & DUMPI_MASK_WALLTIME)) continue;
        bool init = c.label == DUMPI_LABEL_INIT || c.label == DUMPI_LABEL_INIT_THREAD;
        if (init != (n == 0)) continue; /* MPI_Init first, once */
        if (!init && dumpi_call_int(&c, pr->comm_arg[c.label]) != DUMPI_COMM_WORLD) continue;
        if (c.wall_start > h->entry_ns[n]) h->entry_ns[n] = c.wall_start;
        if (c.wall_stop < h->exit_ns[n]) h->exit_ns[n] = c.wall_stop;
        n++;
    }
    dumpi_file_rewind(f);
}

/* Whether one of h's ranks had an MPI_Init: the anchor of its shift. */
static bool has_init(const clock_host *h)
{
    return h->exit_ns[0] != INT64_MAX;
}

/* h's shift onto ref's clock (see clocks.h). */
static void choose_shift(const clock_host *ref, clock_host *h)
{
    /* Shifts s with, in every call both hosts reached, h's earliest exit
     * + s >= ref's latest entry and ref's earliest exit >= h's latest
     * entry + s. Point 0 (MPI_Init) alone, then with the collectives. */
    int64_t lo = INT64_MIN, hi = INT64_MAX, lo0 = INT64_MIN, hi0 = INT64_MAX;
    int n = 0;
    for (int k = 0; k < CLOCK_POINTS; k++) {
        if (ref->entry_ns[k] == INT64_MIN || h->entry_ns[k] == INT64_MIN) continue;
        int64_t a = ref->entry_ns[k] - h->exit_ns[k], b = ref->exit_ns[k] - h->entry_ns[k];
        if (a > lo) lo = a;
        if (b < hi) hi = b;
        if (k == 0)
            lo0 = lo, hi0 = hi;
        else
            n++;
    }
    int64_t init_shift = ref->exit_ns[0] - h->exit_ns[0];
    if (n > 0 && lo <= hi) {
        h->method = CLOCK_BY_COLLECTIVES;
        h->offset_ns = lo + (hi - lo) / 2;
        h->error_ns = (hi - lo) / 2 + 1;
    } else if (lo0 <= hi0 && lo <= hi) {
        h->method = CLOCK_BY_INIT;
        h->offset_ns = init_shift < lo0 ? lo0 : init_shift > hi0 ? hi0 : init_shift;
        h->error_ns = (hi0 - lo0) / 2 + 1; /* point 0 is on both: finite */
    } else {
        h->method = CLOCK_BY_INIT_CONFLICT;
        h->offset_ns = init_shift;
        h->error_ns = INT64_MAX;
    }
}

void clock_plan_make(dumpi_file *const *files, uint32_t n, clock_align mode, clock_plan *p)
{
    memset(p, 0, sizeof *p);
    group_hosts(files, n, p);
    if (p->n_hosts < 2) return;
    if (mode == CLOCK_ALIGN_NEVER) {
        p->why_not = "--align-clocks never";
        return;
    }
    if (mode == CLOCK_ALIGN_AUTO && p->n_named < 2) {
        p->why_not = "fewer than two hosts are named in the ranks' headers";
        return;
    }
    probe pr;
    probe_init(&pr);
    for (uint32_t r = 0; r < n; r++)
        if (files[r]) probe_rank(&pr, files[r], &p->hosts[p->host_of[r]]);
    clock_host *ref = NULL; /* hosts are in order of first rank */
    for (size_t i = 0; i < p->n_hosts && !ref; i++)
        if (has_init(&p->hosts[i])) ref = &p->hosts[i];
    if (!ref) {
        p->why_not = "no rank has an MPI_Init record";
        return;
    }
    if (mode == CLOCK_ALIGN_AUTO && ref->exit_ns[0] >= CLOCK_EPOCH_MIN_NS) {
        p->why_not = "the clocks are epoch time (kept in step by NTP)";
        return;
    }
    p->aligned = true;
    ref->method = CLOCK_BY_REFERENCE;
    for (size_t i = 0; i < p->n_hosts; i++) {
        clock_host *h = &p->hosts[i];
        if (!has_init(h) || h == ref) continue; /* CLOCK_BY_NONE: left as recorded (build.c warns) */
        choose_shift(ref, h);
        int64_t mag = h->offset_ns < 0 ? -h->offset_ns : h->offset_ns;
        if (mag > p->max_shift_ns) p->max_shift_ns = mag;
        if (h->error_ns > p->max_error_ns) p->max_error_ns = h->error_ns;
        if (h->method == CLOCK_BY_INIT_CONFLICT) p->n_conflicts++;
    }
    for (uint32_t r = 0; r < n; r++)
        if (files[r]) dumpi_file_set_wall_offset(files[r], p->hosts[p->host_of[r]].offset_ns);
}

void clock_plan_free(clock_plan *p)
{
    for (size_t i = 0; i < p->n_hosts; i++) g_free(p->hosts[i].name);
    g_free(p->hosts);
    g_free(p->host_of);
    memset(p, 0, sizeof *p);
}
