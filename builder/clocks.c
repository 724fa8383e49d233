/* clocks.c - see clocks.h. */
#include "clocks.h"

#include <glib.h>
#include <string.h>

#include "dumpi_table.h"

static const char *const align_names[] = {"auto", "always", "never"};

bool clock_align_parse(const char *s, clock_align *out) {
    for (size_t i = 0; i < G_N_ELEMENTS(align_names); i++)
        if (strcmp(s, align_names[i]) == 0) {
            *out = (clock_align)i;
            return true;
        }
    return false;
}

/* Ranks to hosts by name; unnamed ranks one entry each. */
static void group_hosts(dumpi_file *const *files, uint32_t n, clock_plan *p) {
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

/* The exit time of f's first MPI_Init or MPI_Init_thread, if among the
 * first CLOCK_PROBE_RECORDS records; f is rewound. */
static bool init_exit(dumpi_file *f, int64_t *exit_ns) {
    dumpi_call c;
    dumpi_error e;
    bool found = dumpi_file_find(f, DUMPI_LABEL_INIT, DUMPI_LABEL_INIT_THREAD, CLOCK_PROBE_RECORDS, &c, &e) == 1 &&
                 (c.mask & DUMPI_MASK_WALLTIME);
    if (found) *exit_ns = c.wall_stop;
    dumpi_file_rewind(f);
    return found;
}

void clock_plan_make(dumpi_file *const *files, uint32_t n, clock_align mode, clock_plan *p) {
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
    for (uint32_t r = 0; r < n; r++) {
        int64_t t;
        if (!files[r] || !init_exit(files[r], &t)) continue;
        clock_host *h = &p->hosts[p->host_of[r]];
        if (!h->anchored || t < h->anchor_ns) h->anchor_ns = t;
        h->anchored = true;
    }
    const clock_host *ref = NULL; /* hosts are in order of first rank */
    for (size_t i = 0; i < p->n_hosts && !ref; i++)
        if (p->hosts[i].anchored) ref = &p->hosts[i];
    if (!ref) {
        p->why_not = "no rank has an MPI_Init record";
        return;
    }
    if (mode == CLOCK_ALIGN_AUTO && ref->anchor_ns >= CLOCK_EPOCH_MIN_NS) {
        p->why_not = "the clocks are epoch time (kept in step by NTP)";
        return;
    }
    p->aligned = true;
    for (size_t i = 0; i < p->n_hosts; i++) {
        clock_host *h = &p->hosts[i];
        if (!h->anchored) continue; /* left as recorded (build.c warns) */
        h->offset_ns = ref->anchor_ns - h->anchor_ns;
        int64_t mag = h->offset_ns < 0 ? -h->offset_ns : h->offset_ns;
        if (mag > p->max_shift_ns) p->max_shift_ns = mag;
    }
    for (uint32_t r = 0; r < n; r++)
        if (files[r]) dumpi_file_set_wall_offset(files[r], p->hosts[p->host_of[r]].offset_ns);
}

void clock_plan_free(clock_plan *p) {
    for (size_t i = 0; i < p->n_hosts; i++) g_free(p->hosts[i].name);
    g_free(p->hosts);
    g_free(p->host_of);
    memset(p, 0, sizeof *p);
}
