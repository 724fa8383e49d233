/* SPDX-License-Identifier: MIT */
/* slog2-print - show what a .slog2 file holds: summary, drawables in a window
 * (text, CSV, JSON), preview columns, and a full consistency check.
 * Data goes to stdout, diagnostics to stderr. Plain C11 + libslog only. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slog2/slog.h>

#include "foreign.h"

static const char usage_text[] = "Usage: slog2-print [OPTION]... FILE.slog2\n"
                                 "Show the contents of a .slog2 timeline file.\n"
                                 "\n"
                                 "With no option, print the header, the categories with their counts and\n"
                                 "total times, the timelines, the blocks and the overview (the level down to\n"
                                 "which it pictures the whole span, and busy stretches further down), the\n"
                                 "tree shape (levels, nodes, bytes) and the annotations.\n"
                                 "\n"
                                 "  -w, --window T0:T1|all   list the drawables overlapping the window; times\n"
                                 "                           are seconds from the trace start ('all' = whole span)\n"
                                 "  -t, --timeline A[-B]     only these timeline ids (repeatable)\n"
                                 "  -c, --category NAME      only this category (repeatable)\n"
                                 "  -f, --format FMT         text (default), csv or json\n"
                                 "  -p, --preview T0:T1|all  print the window as the viewer reads it: per\n"
                                 "                           (timeline, category) one value per pixel column\n"
                                 "                           (state: fraction covered; arrow/event: count,\n"
                                 "                           fractional where one of the file's preview bins\n"
                                 "                           is split over several columns; a row sums to the\n"
                                 "                           count in the window)\n"
                                 "  -b, --bins N             pixel columns for --preview (default 80)\n"
                                 "  -r, --rows R             with --preview: fold the timelines (all, or one\n"
                                 "                           -t A-B range) into at most R rows of consecutive\n"
                                 "                           timelines and print per (row, category) one value\n"
                                 "                           per column (state: mean fraction covered over the\n"
                                 "                           row's timelines; arrow/event: count); the rows are\n"
                                 "                           read from the file's overview where a row holds a\n"
                                 "                           whole group of timelines\n"
                                 "  -m, --matrix             the communication matrix of the window (--window,\n"
                                 "                           default all): per (sender, receiver) timeline the\n"
                                 "                           messages, bytes, total and mean transfer time and\n"
                                 "                           mean size\n"
                                 "      --slices N           with --matrix: the messages between the file's\n"
                                 "                           groups of timelines (its overview's rows) in about\n"
                                 "                           N time slices: per (slice, sender group, receiver\n"
                                 "                           group) the count; from the overview's message\n"
                                 "                           counts (format 5.x, thousands of timelines), or in\n"
                                 "                           a window finer than they count from the blocks'\n"
                                 "                           arrows in N even slices\n"
                                 "  -P, --profile            the state profile of the window: per category the\n"
                                 "                           calls, inclusive and exclusive time, shortest,\n"
                                 "                           mean and longest, and share of the window\n"
                                 "      --by-timeline        with --profile: per (category, timeline)\n"
                                 "  -M, --messages           list the messages sent in the window, filtered by\n"
                                 "      --from A[-B][,...]   sender timelines\n"
                                 "      --to A[-B][,...]     receiver timelines\n"
                                 "      --tag N              the field named tag\n"
                                 "      --comm N             the field named comm (else the first handle field)\n"
                                 "      --bytes MIN:MAX      the size (first bytes field), inclusive; messages\n"
                                 "                           of unknown size never match\n"
                                 "      --histogram tag|comm with --messages: instead of the list, per tag\n"
                                 "                           (or communicator) the messages and histograms of\n"
                                 "                           their sizes (powers of 2) and transfer times\n"
                                 "                           (powers of 10 ns)\n"
                                 "  -k, --check              read every node, verify checksums and placement\n"
                                 "                           invariants, recompute every summary and the\n"
                                 "                           overview's message counts from the records;\n"
                                 "                           exit 1 on any violation\n"
                                 "  -s, --stats              print nodes_read=N bytes_read=N of the query on stderr\n"
                                 "  -h, --help               show this help and exit\n"
                                 "      --version            print the version and the .slog2 format it reads\n"
                                 "\n"
                                 "CSV output (stable, for scripts): a header row\n"
                                 "  kind,category,timeline,start,end,end_timeline,<one column per info field>\n"
                                 "where kind is state/arrow/event, times are seconds, end_timeline is the\n"
                                 "receiver for arrows and empty otherwise, and info fields a drawable's\n"
                                 "category does not declare are empty.\n"
                                 "\n"
                                 "--matrix, --profile, --messages: what counts in a window T0:T1 (both\n"
                                 "ends included, docs/ANALYSIS.md):\n"
                                 "  a message (an arrow of any category) counts when its send time is in\n"
                                 "  the window; bytes are its category's first field of type bytes, and\n"
                                 "  a message of unknown size adds 0 (the count of such is given: the\n"
                                 "  unknown_bytes column); transfer time is receive minus send time.\n"
                                 "  a state counts when it overlaps the window, with the part inside it\n"
                                 "  (as the viewer's range statistics cut it); exclusive time is that\n"
                                 "  minus the inside parts of the states nested directly in it on its\n"
                                 "  timeline. share = inclusive time / (window length x timelines), or\n"
                                 "  / window length with --by-timeline. Events count in neither.\n"
                                 "CSV headers: sender,receiver,messages,bytes,time_s,mean_bytes,mean_time_s,\n"
                                 "unknown_bytes (matrix); slice,start_s,end_s,sender_first,sender_last,\n"
                                 "receiver_first,receiver_last,messages (--matrix --slices); category,calls,\n"
                                 "inclusive_s,exclusive_s,min_s,mean_s,max_s,share[,timeline] (profile);\n"
                                 "sender,receiver,send_s,recv_s,category,bytes,tag,comm (messages; empty\n"
                                 "where unknown); tag|comm,histogram,low,high,messages (--histogram:\n"
                                 "histogram bytes or time_s, the bin low <= v < high; bytes of unknown size\n"
                                 "and times <= 0 have low empty).\n"
                                 "The matrix and profile are exact and read the file's node summaries where\n"
                                 "it has them, so the whole span costs a summary per block of timelines (its\n"
                                 "root's); a file without them (a short trace, or thousands of ranks of a\n"
                                 "hundred calls or so each, where slog2-build makes none) is read record by\n"
                                 "record.\n"
                                 "\n"
                                 "A window, timeline or category the file does not have is a usage error:\n"
                                 "the message gives what the file has.\n"
                                 "\n"
                                 "Exit status:\n"
                                 "  0  success\n"
                                 "  1  the file cannot be read, is not a .slog2 file or is corrupt (--check)\n"
                                 "  2  usage error: a bad option or value, or a request outside the file\n";

typedef struct opts {
    const char *path;
    const char *window;
    const char *preview;
    const char *format;
    uint32_t bins, rows, slices;
    int check, stats;
    char **cats;
    int n_cats;
    uint32_t (*ranges)[2];
    int n_ranges;
    int matrix, profile, by_timeline, messages;
    const char *from, *to, *bytes;
    int64_t tag, comm;
    int has_tag, has_comm;
    const char *histogram; /* "tag" or "comm" */
} opts;

static const char *kind_name(slog_kind k)
{
    return k == SLOG_KIND_STATE ? "state" : k == SLOG_KIND_ARROW ? "arrow" : "event";
}

static double secs(int64_t ns)
{
    return (double)ns / 1e9;
}

/* Parse "T0:T1" seconds or "all" into ns. Returns 0, or prints why not
 * (the syntax, the order, or a window that misses the whole trace) and
 * returns -1: all are usage errors. */
static int parse_window(const char *opt, const char *s, const slog_reader *r, int64_t *t0, int64_t *t1)
{
    const slog_file_info *fi = slog_reader_info(r);
    if (strcmp(s, "all") == 0) {
        *t0 = fi->t_min;
        *t1 = fi->t_max;
        return 0;
    }
    char *end;
    errno = 0;
    double a = strtod(s, &end);
    const char *s2 = end + 1;
    double b = end == s || *end != ':' ? NAN : strtod(s2, &end);
    if (end == s2 || *end || errno || !isfinite(a) || !isfinite(b) || fabs(a) > 9e9 || fabs(b) > 9e9) {
        fprintf(stderr, "slog2-print: %s takes T0:T1 (seconds) or 'all', got '%s'\n", opt, s);
        return -1;
    }
    if (a > b) {
        fprintf(stderr, "slog2-print: %s %s: T0 must not be after T1\n", opt, s);
        return -1;
    }
    *t0 = (int64_t)llround(a * 1e9);
    *t1 = (int64_t)llround(b * 1e9);
    /* The trace starts at 0 even when its first drawable comes later, as
     * in the viewer, whose rule for a window outside the trace this is. */
    int64_t lo = fi->t_min < 0 ? fi->t_min : 0;
    if (*t1 < lo || *t0 > fi->t_max) {
        fprintf(stderr, "slog2-print: %s: %s %s is outside the trace (%.9g to %.9g s)\n", slog_reader_path(r), opt, s,
                secs(lo), secs(fi->t_max));
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ summary */

static void print_summary(slog_reader *r)
{
    const slog_file_info *fi = slog_reader_info(r);
    printf("file:        %s (%" PRIu64 " bytes)\n", slog_reader_path(r), fi->file_size);
    printf("format:      slog2 %u.%u, %u children per node, %u preview bins, leaf width 2^%d ns\n", fi->version_major,
           fi->version_minor, fi->children_per_node, fi->preview_bins, fi->leaf_shift);
    printf("span:        %.9f s .. %.9f s (%.9f s), time origin %" PRId64 " ns\n", secs(fi->t_min), secs(fi->t_max),
           secs(fi->t_max - fi->t_min), fi->time_origin_ns);
    printf("drawables:   %" PRIu64 " (%" PRIu64 " states, %" PRIu64 " arrows, %" PRIu64 " events)\n", fi->n_drawables,
           fi->n_states, fi->n_arrows, fi->n_events);
    if (fi->n_drawables) printf("bytes/drawable: %.2f\n", (double)fi->file_size / (double)fi->n_drawables);
    printf("\ncategories (%u):\n", fi->n_categories);
    /* The group column is as wide as its longest entry, so a long group
     * name does not push its row's name out of line with the others. */
    int gw = (int)strlen("group");
    for (uint32_t i = 0; i < fi->n_categories; i++) {
        size_t len = strlen(slog_reader_category(r, i)->group);
        if (len > (size_t)gw) gw = len > 64 ? 64 : (int)len;
    }
    printf("  %4s  %-5s  %-9s  %12s  %14s  %-*s  %s\n", "id", "kind", "colour", "count", "total time s", gw, "group",
           "name [fields]");
    for (uint32_t i = 0; i < fi->n_categories; i++) {
        const slog_category *c = slog_reader_category(r, i);
        const slog_category_stats *s = slog_reader_category_stats(r, i);
        printf("  %4u  %-5s  #%08x  %12" PRIu64 "  %14.9f  %-*s  %s", i, kind_name(c->kind), c->rgba, s->count,
               secs(s->total_ns), gw, c->group, c->name);
        for (uint32_t f = 0; f < c->n_fields; f++) printf("%s%s", f ? "," : " [", c->field_names[f]);
        printf("%s\n", c->n_fields ? "]" : "");
    }
    printf("\ntimelines (%u):\n", fi->n_timelines);
    for (uint32_t i = 0; i < fi->n_timelines; i++) {
        const slog_timeline *t = slog_reader_timeline(r, i);
        printf("  %4u  rank %-6u thread %-3u %-24s %s\n", i, t->rank, t->thread, t->label, t->group);
    }
    printf("\nblocks: %u of %u timelines, %" PRIu64 " arrows mirrored; ", fi->n_blocks, fi->block_timelines,
           fi->n_mirrors);
    /* Per tree and level: nodes, drawables, node bytes, previews. The
     * overview pictures the whole span down to the highest level with a
     * node that leaves its children out (to the blocks) or has none below
     * it, and busy stretches further down where that is not its lowest. */
    uint64_t per[2][64][4] = {{{0}}};
    uint32_t whole = 0, lowest = UINT32_MAX;
    for (uint64_t i = 0; i < fi->n_nodes; i++) {
        slog_node_info n;
        if (slog_reader_node(r, i, &n) || n.level >= 64) continue;
        uint64_t *v = per[n.tree == SLOG_TREE_OVERVIEW][n.level];
        v[0]++;
        v[1] += n.n_drawables;
        v[2] += n.size;
        v[3] += n.has_preview;
        if (n.tree != SLOG_TREE_OVERVIEW) continue;
        bool all_own = !n.offset && n.n_drawables && n.n_drawables == n.n_subtree;
        if ((n.left_out || all_own) && n.level > whole) whole = n.level;
        if (n.level < lowest) lowest = n.level;
    }
    if (whole < lowest) whole = lowest;
    if (fi->overview_depth) {
        printf("overview: groups of %u timelines, depth %u, the whole span from level %u", fi->group_timelines,
               fi->overview_depth, whole);
        if (lowest < whole) printf(", busy stretches from level %u", lowest);
        printf("\n");
    } else {
        printf("no overview\n");
    }
    printf("\ntrees: depth %u, %" PRIu64 " nodes (the blocks' per level, then the overview's)\n", fi->depth,
           fi->n_nodes);
    printf("  %-8s  %5s  %8s  %12s  %14s  %9s\n", "tree", "level", "nodes", "drawables", "node bytes", "previews");
    for (int t = 0; t < 2; t++)
        for (int l = 63; l >= 0; l--)
            if (per[t][l][0])
                printf("  %-8s  %5d  %8" PRIu64 "  %12" PRIu64 "  %14" PRIu64 "  %9" PRIu64 "\n",
                       t ? "overview" : "blocks", l, per[t][l][0], per[t][l][1], per[t][l][2], per[t][l][3]);
    printf("\nannotations (%u):\n", fi->n_annotations);
    for (uint32_t i = 0; i < fi->n_annotations; i++) {
        const char *k, *v;
        slog_reader_annotation(r, i, &k, &v);
        printf("  %s = %s\n", k, v);
    }
}

/* ------------------------------------------------------------ listing */

typedef struct listing {
    slog_reader *r;
    const opts *o;
    uint8_t *cat_ok;      /* category filter */
    const char **columns; /* union of info field names */
    uint32_t n_columns;
    uint32_t **col_of; /* per category: field index -> column */
    int json_first;
    uint64_t n;
} listing;

static void csv_string(const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"') putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            printf("\\%c", ch);
        else if (ch < 0x20)
            printf("\\u%04x", ch);
        else
            putchar(ch);
    }
    putchar('"');
}

static slog_cb_result on_list(void *user, const slog_drawable *d)
{
    listing *L = user;
    if (L->cat_ok && !L->cat_ok[d->category]) return SLOG_CONTINUE;
    const slog_category *c = slog_reader_category(L->r, d->category);
    const char *fmt = L->o->format;
    L->n++;
    if (strcmp(fmt, "csv") == 0) {
        printf("%s,", kind_name(d->kind));
        csv_string(c->name);
        printf(",%u,%.9f,%.9f,", d->timeline, secs(d->start), secs(d->end));
        if (d->kind == SLOG_KIND_ARROW) printf("%u", d->end_timeline);
        for (uint32_t col = 0; col < L->n_columns; col++) {
            putchar(',');
            for (uint32_t f = 0; f < c->n_fields; f++)
                if (L->col_of[d->category][f] == col && d->info[f] != SLOG_INFO_UNKNOWN) printf("%" PRId64, d->info[f]);
        }
        putchar('\n');
    } else if (strcmp(fmt, "json") == 0) {
        printf("%s\n  {\"kind\":\"%s\",\"category\":", L->json_first ? "" : ",", kind_name(d->kind));
        L->json_first = 0;
        json_string(c->name);
        printf(",\"timeline\":%u,\"start\":%.9f,\"end\":%.9f", d->timeline, secs(d->start), secs(d->end));
        if (d->kind == SLOG_KIND_ARROW) printf(",\"end_timeline\":%u", d->end_timeline);
        printf(",\"info\":{");
        int first = 1;
        for (uint32_t f = 0; f < c->n_fields; f++) {
            if (d->info[f] == SLOG_INFO_UNKNOWN) continue;
            printf("%s", first ? "" : ",");
            first = 0;
            json_string(c->field_names[f]);
            printf(":%" PRId64, d->info[f]);
        }
        printf("}}");
    } else {
        printf("%-5s %-24s tl %-4u %.9f .. %.9f (%.3f us)", kind_name(d->kind), c->name, d->timeline, secs(d->start),
               secs(d->end), (double)(d->end - d->start) / 1e3);
        if (d->kind == SLOG_KIND_ARROW) printf(" -> tl %u", d->end_timeline);
        for (uint32_t f = 0; f < c->n_fields; f++) {
            if (d->info[f] == SLOG_INFO_UNKNOWN)
                printf(" %s=unknown", c->field_names[f]);
            else
                printf(" %s=%" PRId64, c->field_names[f], d->info[f]);
        }
        putchar('\n');
    }
    return SLOG_CONTINUE;
}

static int setup_listing(listing *L, slog_reader *r, const opts *o)
{
    const slog_file_info *fi = slog_reader_info(r);
    L->r = r;
    L->o = o;
    L->json_first = 1;
    uint32_t nc = fi->n_categories;
    L->col_of = calloc(nc + 1u, sizeof *L->col_of);
    L->columns = calloc((size_t)nc * SLOG_MAX_FIELDS + 1, sizeof *L->columns);
    if (!L->col_of || !L->columns) return -1;
    for (uint32_t k = 0; k < nc; k++) {
        const slog_category *c = slog_reader_category(r, k);
        L->col_of[k] = calloc(c->n_fields + 1u, sizeof **L->col_of);
        if (!L->col_of[k]) return -1;
        for (uint32_t f = 0; f < c->n_fields; f++) {
            uint32_t col = 0;
            while (col < L->n_columns && strcmp(L->columns[col], c->field_names[f]) != 0) col++;
            if (col == L->n_columns) L->columns[L->n_columns++] = c->field_names[f];
            L->col_of[k][f] = col;
        }
    }
    if (o->n_cats) {
        L->cat_ok = calloc(nc + 1u, 1);
        if (!L->cat_ok) return -1;
        for (int i = 0; i < o->n_cats; i++) {
            int found = 0;
            for (uint32_t k = 0; k < nc; k++)
                if (strcmp(slog_reader_category(r, k)->name, o->cats[i]) == 0) L->cat_ok[k] = 1, found = 1;
            if (!found) {
                fprintf(stderr, "slog2-print: %s: no category named '%s'\n", slog_reader_path(r), o->cats[i]);
                return -2;
            }
        }
    }
    return 0;
}

static void free_listing(listing *L, uint32_t nc)
{
    if (L->col_of)
        for (uint32_t k = 0; k < nc; k++) free(L->col_of[k]);
    free(L->col_of);
    free(L->columns);
    free(L->cat_ok);
}

/* ------------------------------------------------------------ preview */

typedef struct pv {
    slog_columns *cols;
    const uint8_t *is_state;
    const uint8_t *cat_ok;
} pv;

static slog_cb_result on_pv_preview(void *user, const slog_preview *p)
{
    pv *x = user;
    slog_columns_add_preview(x->cols, p, x->is_state);
    return SLOG_CONTINUE;
}

static slog_cb_result on_pv_drawable(void *user, const slog_drawable *d)
{
    pv *x = user;
    slog_columns_add_drawable(x->cols, d);
    return SLOG_CONTINUE;
}

/* ------------------------------------------------------------ rows */

/* v with three decimals ("0" for zero), without printf: a folded picture
 * of a thousand rows is tens of millions of values, most of them state
 * fractions in [0, 1], whose texts come from a table. */
static char frac_text[1001][7];

/* Appends v as text to dst (room for 64 bytes); returns its length. A
 * line of a folded overview has thousands of values: they are put into one
 * buffer and written once, as a stdio call per value cost most of the
 * command's time. */
static size_t put_value(double v, char *dst)
{
    if (v == 0) {
        memcpy(dst, " 0", 2);
        return 2;
    }
    if (!frac_text[0][0])
        for (int i = 0; i <= 1000; i++) snprintf(frac_text[i], sizeof frac_text[i], " %d.%03d", i / 1000, i % 1000);
    if (v > 0 && v < 1.0005) {
        memcpy(dst, frac_text[(int)(v * 1000.0 + 0.5)], 6);
        return 6;
    }
    /* a float's largest value takes 44 characters here */
    int n = snprintf(dst, 64, " %.3f", v);
    return n > 0 && n < 64 ? (size_t)n : 0;
}

/* --preview with --rows: the timelines folded into rows (slog_reader_grid). */
static int print_rows(slog_reader *r, const opts *o, int64_t t0, int64_t t1, slog_query_stats *qs)
{
    const slog_file_info *fi = slog_reader_info(r);
    if (!fi->n_timelines) {
        printf("# no timelines\n");
        return 0;
    }
    slog_grid_query gq = {
        .t0 = t0, .t1 = t1, .tl_first = 0, .tl_last = fi->n_timelines - 1, .n_cols = o->bins, .n_rows = o->rows};
    if (o->n_ranges) {
        gq.tl_first = o->ranges[0][0];
        gq.tl_last = o->ranges[0][1];
        if (gq.tl_first >= fi->n_timelines) {
            fprintf(stderr, "slog2-print: -t %u: the file has timelines 0 to %u\n", gq.tl_first, fi->n_timelines - 1);
            return 2;
        }
    }
    slog_grid *g;
    slog_error err;
    if (slog_reader_grid(r, &gq, &g, qs, &err) != SLOG_OK) {
        fprintf(stderr, "slog2-print: %s\n", err.message);
        return 1;
    }
    int csv = strcmp(o->format, "csv") == 0;
    uint32_t n_rows = slog_grid_n_rows(g);
    static char outbuf[1 << 20];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    if (csv) {
        printf("first_timeline,last_timeline,category");
        for (uint32_t j = 0; j < o->bins; j++) printf(",c%u", j);
        putchar('\n');
    } else {
        uint32_t a0, b0;
        slog_grid_row_range(g, 0, &a0, &b0);
        printf("# %u rows of up to %u timelines (read from the %s), %u columns of %.9f s over %.9f .. %.9f s;\n"
               "# state rows: mean fraction covered over the row's timelines, others: counts\n",
               n_rows, b0 - a0 + 1, slog_grid_unit(g) > 1 ? "overview" : "blocks' trees", o->bins,
               secs(t1 - t0 + 1) / o->bins, secs(t0), secs(t1));
    }
    char *line = malloc((size_t)o->bins * 64 + 1);
    if (!line) {
        fprintf(stderr, "slog2-print: out of memory\n");
        slog_grid_free(g);
        return 1;
    }
    for (uint32_t row = 0; row < n_rows; row++) {
        uint32_t a, b;
        slog_grid_row_range(g, row, &a, &b);
        for (uint32_t k = 0; k < fi->n_categories; k++) {
            const float *v = slog_grid_values(g, row, k);
            if (!v) continue;
            const slog_category *c = slog_reader_category(r, k);
            if (csv) {
                printf("%u,%u,", a, b);
                csv_string(c->name);
                for (uint32_t j = 0; j < o->bins; j++) printf(",%.4f", v[j]);
            } else {
                printf("%6u-%-6u %-22s", a, b, c->name);
                size_t n = 0;
                for (uint32_t j = 0; j < o->bins; j++) n += put_value(v[j], line + n);
                fwrite(line, 1, n, stdout);
            }
            putchar('\n');
        }
    }
    free(line);
    if (o->stats)
        fprintf(stderr, "timelines=%u-%u rows=%u unit=%u ", gq.tl_first,
                gq.tl_last < fi->n_timelines ? gq.tl_last : fi->n_timelines - 1, n_rows, slog_grid_unit(g));
    slog_grid_free(g);
    return 0;
}

/* ------------------------------------------------------------ analysis */

static void num_s(double ns, int json)
{
    (void)json;
    printf("%.9f", ns / 1e9);
}

/* Timelines first..last of group g of groups of gt. */
static void group_span(const slog_file_info *fi, uint32_t g, uint32_t gt, uint64_t *first, uint64_t *last)
{
    *first = (uint64_t)g * gt;
    *last = *first + gt - 1 < fi->n_timelines ? *first + gt - 1 : fi->n_timelines - 1;
}

/* --matrix --slices: the messages between the overview's groups per slice. */
static int run_group_messages(slog_reader *r, const opts *o, int64_t t0, int64_t t1, slog_query_stats *qs)
{
    const slog_file_info *fi = slog_reader_info(r);
    slog_group_messages *gm = NULL;
    slog_error err;
    if (slog_reader_group_messages(r, t0, t1, o->slices, &gm, qs, &err) != SLOG_OK) {
        fprintf(stderr, "slog2-print: %s\n", err.message);
        return 1;
    }
    if (!gm) {
        if (fi->version_major < 5 || fi->group_timelines <= 1 || !fi->overview_depth)
            fprintf(stderr,
                    "slog2-print: %s: format %u.%u, %u timelines: no message counts between groups of timelines "
                    "(format 5.x files of more than 1,024 timelines have them); --matrix without --slices gives "
                    "the messages per timeline\n",
                    o->path, fi->version_major, fi->version_minor, fi->n_timelines);
        else
            fprintf(stderr, "slog2-print: %s: no message in the file\n", o->path);
        return 2;
    }
    uint32_t gt = gm->group_timelines;
    uint64_t total = 0;
    for (size_t i = 0; i < gm->n_cells; i++) total += gm->cells[i].messages;
    int csv = strcmp(o->format, "csv") == 0, json = strcmp(o->format, "json") == 0;
    if (csv)
        printf("slice,start_s,end_s,sender_first,sender_last,receiver_first,receiver_last,messages\n");
    else if (json)
        printf("{\"group_timelines\":%u,\"slices\":%u,\"from\":\"%s\",\"messages\":%" PRIu64 ",\"cells\":[", gt,
               gm->n_slices, gm->from_blocks ? "blocks" : "overview", total);
    else
        printf("# %u slices, groups of %u timelines, %" PRIu64 " messages in %zu cells, from the %s\n"
               "%6s %14s %14s %13s %13s %10s\n",
               gm->n_slices, gt, total, gm->n_cells, gm->from_blocks ? "blocks' arrows" : "overview", "slice",
               "start s", "end s", "senders", "receivers", "messages");
    for (size_t i = 0; i < gm->n_cells; i++) {
        const slog_group_cell *c = &gm->cells[i];
        uint64_t sa, sb, ra, rb;
        group_span(fi, c->sender, gt, &sa, &sb);
        group_span(fi, c->receiver, gt, &ra, &rb);
        /* a slice's end: the last nanosecond before the next one */
        double a = secs(gm->edges[c->slice]), b = secs(gm->edges[c->slice + 1] - 1);
        if (csv) {
            printf("%u,%.9f,%.9f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", c->slice, a, b, sa, sb,
                   ra, rb, c->messages);
        } else if (json) {
            printf("%s\n  {\"slice\":%u,\"start_s\":%.9f,\"end_s\":%.9f,\"sender_first\":%" PRIu64
                   ",\"sender_last\":%" PRIu64 ",\"receiver_first\":%" PRIu64 ",\"receiver_last\":%" PRIu64
                   ",\"messages\":%" PRIu64 "}",
                   i ? "," : "", c->slice, a, b, sa, sb, ra, rb, c->messages);
        } else {
            char sn[32], rn[32];
            snprintf(sn, sizeof sn, "%" PRIu64 "-%" PRIu64, sa, sb);
            snprintf(rn, sizeof rn, "%" PRIu64 "-%" PRIu64, ra, rb);
            printf("%6u %14.9f %14.9f %13s %13s %10" PRIu64 "\n", c->slice, a, b, sn, rn, c->messages);
        }
    }
    if (json) printf("\n]}\n");
    slog_group_messages_free(gm);
    return 0;
}

static int print_matrix(slog_reader *r, const opts *o, const slog_analysis *a)
{
    size_t n;
    const slog_matrix_cell *c = slog_analysis_matrix(a, &n);
    const char *fmt = o->format;
    uint64_t unknown = 0, msgs = 0;
    for (size_t i = 0; i < n; i++) unknown += c[i].unknown_bytes, msgs += c[i].messages;
    if (strcmp(fmt, "csv") == 0) {
        printf("sender,receiver,messages,bytes,time_s,mean_bytes,mean_time_s,unknown_bytes\n");
        for (size_t i = 0; i < n; i++) {
            printf("%u,%u,%" PRIu64 ",%" PRIu64 ",", c[i].sender, c[i].receiver, c[i].messages, c[i].bytes);
            num_s((double)c[i].time_ns, 0);
            uint64_t known = c[i].messages - c[i].unknown_bytes;
            if (known)
                printf(",%.3f,", (double)c[i].bytes / (double)known);
            else
                printf(",,");
            num_s((double)c[i].time_ns / (double)c[i].messages, 0);
            printf(",%" PRIu64 "\n", c[i].unknown_bytes);
        }
    } else if (strcmp(fmt, "json") == 0) {
        printf("[");
        for (size_t i = 0; i < n; i++) {
            uint64_t known = c[i].messages - c[i].unknown_bytes;
            printf("%s\n  {\"sender\":%u,\"receiver\":%u,\"messages\":%" PRIu64 ",\"bytes\":%" PRIu64
                   ",\"time_s\":%.9f,\"mean_bytes\":",
                   i ? "," : "", c[i].sender, c[i].receiver, c[i].messages, c[i].bytes, secs(c[i].time_ns));
            if (known)
                printf("%.3f", (double)c[i].bytes / (double)known);
            else
                printf("null");
            printf(",\"mean_time_s\":%.9f,\"unknown_bytes\":%" PRIu64 "}",
                   (double)c[i].time_ns / (double)c[i].messages / 1e9, c[i].unknown_bytes);
        }
        printf("\n]\n");
    } else {
        printf("# %zu sender/receiver pairs, %" PRIu64 " messages", n, msgs);
        if (unknown) printf(" (%" PRIu64 " of unknown size, counted as 0 bytes)", unknown);
        printf("\n%8s %8s %10s %14s %12s %14s %14s\n", "sender", "receiver", "messages", "bytes", "mean bytes",
               "time s", "mean time s");
        for (size_t i = 0; i < n; i++) {
            uint64_t known = c[i].messages - c[i].unknown_bytes;
            printf("%8u %8u %10" PRIu64 " %14" PRIu64 " %12.1f %14.9f %14.9f\n", c[i].sender, c[i].receiver,
                   c[i].messages, c[i].bytes, known ? (double)c[i].bytes / (double)known : 0.0, secs(c[i].time_ns),
                   (double)c[i].time_ns / (double)c[i].messages / 1e9);
        }
    }
    (void)r;
    return 0;
}

static int cmp_prof_cat(const void *a, const void *b)
{
    const slog_profile_row *x = a, *y = b;
    if (x->category != y->category) return x->category < y->category ? -1 : 1;
    return x->timeline < y->timeline ? -1 : x->timeline > y->timeline;
}

static int print_profile(slog_reader *r, const opts *o, const slog_analysis *a, int64_t t0, int64_t t1)
{
    const slog_file_info *fi = slog_reader_info(r);
    size_t n;
    const slog_profile_row *src = slog_analysis_profile(a, &n);
    slog_profile_row *rows = malloc((n + 1) * sizeof *rows);
    if (!rows) return 1;
    size_t m = 0;
    if (o->by_timeline) {
        if (n) /* src is NULL when there are none */
            memcpy(rows, src, n * sizeof *rows);
        m = n;
        if (m > 1) qsort(rows, m, sizeof *rows, cmp_prof_cat);
    } else {
        /* per category over the timelines */
        for (uint32_t k = 0; k < fi->n_categories; k++) {
            slog_profile_row t = {.category = k, .min_ns = INT64_MAX};
            for (size_t i = 0; i < n; i++) {
                if (src[i].category != k) continue;
                t.calls += src[i].calls;
                t.inclusive_ns += src[i].inclusive_ns;
                t.exclusive_ns += src[i].exclusive_ns;
                if (src[i].min_ns < t.min_ns) t.min_ns = src[i].min_ns;
                if (src[i].max_ns > t.max_ns) t.max_ns = src[i].max_ns;
            }
            if (t.calls) rows[m++] = t;
        }
    }
    double span = (double)(t1 - t0) * (o->by_timeline ? 1.0 : (double)fi->n_timelines);
    const char *fmt = o->format;
    int csv = strcmp(fmt, "csv") == 0, json = strcmp(fmt, "json") == 0;
    if (csv)
        printf("category,calls,inclusive_s,exclusive_s,min_s,mean_s,max_s,share%s\n",
               o->by_timeline ? ",timeline" : "");
    else if (json)
        printf("[");
    else
        printf("# window %.9f .. %.9f s; share of %s\n%-28s %10s %14s %14s %12s %12s %12s %7s%s\n", secs(t0), secs(t1),
               o->by_timeline ? "the window" : "the window x timelines", "category", "calls", "inclusive s",
               "exclusive s", "min s", "mean s", "max s", "share", o->by_timeline ? "  timeline" : "");
    for (size_t i = 0; i < m; i++) {
        const slog_profile_row *p = &rows[i];
        const slog_category *c = slog_reader_category(r, p->category);
        double mean = (double)p->inclusive_ns / (double)p->calls / 1e9;
        double share = span > 0 ? (double)p->inclusive_ns / span : 0;
        if (csv) {
            csv_string(c->name);
            printf(",%" PRIu64 ",%.9f,%.9f,%.9f,%.9f,%.9f,%.6f", p->calls, secs(p->inclusive_ns), secs(p->exclusive_ns),
                   secs(p->min_ns), mean, secs(p->max_ns), share);
            if (o->by_timeline) printf(",%u", p->timeline);
            putchar('\n');
        } else if (json) {
            printf("%s\n  {\"category\":", i ? "," : "");
            json_string(c->name);
            printf(",\"calls\":%" PRIu64 ",\"inclusive_s\":%.9f,\"exclusive_s\":%.9f,\"min_s\":%.9f,"
                   "\"mean_s\":%.9f,\"max_s\":%.9f,\"share\":%.6f",
                   p->calls, secs(p->inclusive_ns), secs(p->exclusive_ns), secs(p->min_ns), mean, secs(p->max_ns),
                   share);
            if (o->by_timeline) printf(",\"timeline\":%u", p->timeline);
            printf("}");
        } else {
            printf("%-28s %10" PRIu64 " %14.9f %14.9f %12.9f %12.9f %12.9f %6.2f%%", c->name, p->calls,
                   secs(p->inclusive_ns), secs(p->exclusive_ns), secs(p->min_ns), mean, secs(p->max_ns), 100 * share);
            if (o->by_timeline) printf("  %8u", p->timeline);
            putchar('\n');
        }
    }
    if (json) printf("\n]\n");
    free(rows);
    return 0;
}

/* "A[-B][,...]" timeline ids into a mask of n; -1 when malformed. */
static int parse_set(const char *s, uint8_t *mask, uint32_t n)
{
    while (*s) {
        char *end;
        unsigned long a = strtoul(s, &end, 10), b = a;
        if (end == s) return -1;
        if (*end == '-') {
            const char *s2 = end + 1;
            b = strtoul(s2, &end, 10);
            if (end == s2) return -1;
        }
        if (b < a || (*end && *end != ',')) return -1;
        for (unsigned long t = a; t <= b && t < n; t++) mask[t] = 1;
        s = *end ? end + 1 : end;
    }
    return 0;
}

/* --histogram: per key (a tag or communicator value, SLOG_INFO_UNKNOWN
 * without one) the messages, by size (bin 0: 0 bytes, bin k + 1: [2^k,
 * 2^(k+1)), HB_UNKNOWN: unknown) and by transfer time (bin 0: <= 0 ns, bin
 * k + 1: [10^k, 10^(k+1)) ns). */
#define HB_BINS    66
#define HB_UNKNOWN 65
#define HT_BINS    20

typedef struct hist {
    int64_t key;
    uint64_t n;
    uint64_t bytes[HB_BINS], time[HT_BINS];
} hist;

typedef struct hists {
    hist *h; /* open addressing on key, cap a power of 2 */
    size_t n, cap;
} hists;

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static hist *hist_slot(hists *hs, int64_t key)
{
    if (2 * (hs->n + 1) > hs->cap) {
        size_t cap = hs->cap ? 2 * hs->cap : 64;
        hist *h = calloc(cap, sizeof *h);
        if (!h) return NULL;
        for (size_t i = 0; i < hs->cap; i++) {
            if (!hs->h[i].n) continue;
            size_t j = mix64((uint64_t)hs->h[i].key) & (cap - 1);
            while (h[j].n) j = (j + 1) & (cap - 1);
            h[j] = hs->h[i];
        }
        free(hs->h);
        hs->h = h;
        hs->cap = cap;
    }
    size_t j = mix64((uint64_t)key) & (hs->cap - 1);
    while (hs->h[j].n && hs->h[j].key != key) j = (j + 1) & (hs->cap - 1);
    if (!hs->h[j].n) {
        hs->h[j].key = key;
        hs->n++;
    }
    return &hs->h[j];
}

static int bytes_bin(int64_t b)
{
    if (b == SLOG_INFO_UNKNOWN || b < 0) return HB_UNKNOWN;
    int k = 0;
    while (k < 63 && ((uint64_t)b >> k) > 1) k++;
    return b == 0 ? 0 : k + 1;
}

static int time_bin(int64_t t)
{
    if (t <= 0) return 0;
    int k = 0;
    for (int64_t p = 10; k < HT_BINS - 2 && t >= p; k++) p = p > INT64_MAX / 10 ? INT64_MAX : p * 10;
    return k + 1;
}

static int cmp_hist(const void *a, const void *b)
{
    const hist *x = a, *y = b;
    /* values first, unknown last */
    int ux = x->key == SLOG_INFO_UNKNOWN, uy = y->key == SLOG_INFO_UNKNOWN;
    if (ux != uy) return ux - uy;
    return x->key < y->key ? -1 : x->key > y->key;
}

static void bin_text(char *buf, size_t size, int is_time, int bin)
{
    static const char *const U[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    static const char *const T[] = {"ns", "µs", "ms", "s"};
    if (!is_time && bin == HB_UNKNOWN) {
        snprintf(buf, size, "unknown");
    } else if (!is_time && bin == 0) {
        snprintf(buf, size, "0 B");
    } else if (!is_time) {
        int k = bin - 1, k2 = k + 1;
        snprintf(buf, size, "[%d %s, %d %s)", 1 << (k % 10), U[k / 10], 1 << (k2 % 10), U[k2 / 10 < 7 ? k2 / 10 : 6]);
    } else if (bin == 0) {
        snprintf(buf, size, "<= 0");
    } else {
        int k = bin - 1, k2 = k + 1;
        int u = k / 3 < 3 ? k / 3 : 3, u2 = k2 / 3 < 3 ? k2 / 3 : 3;
        double a = pow(10, k - 3 * u), b = pow(10, k2 - 3 * u2);
        snprintf(buf, size, "[%g %s, %g %s)", a, T[u], b, T[u2]);
    }
}

/* low / high of a bin as the CSV and JSON give them: bytes, or seconds;
 * "" where open. */
static void bin_ends(int is_time, int bin, char *lo, char *hi, size_t size)
{
    lo[0] = hi[0] = 0;
    if (!is_time) {
        if (bin == HB_UNKNOWN) return;
        if (bin == 0) {
            snprintf(lo, size, "0");
            snprintf(hi, size, "1");
        } else {
            snprintf(lo, size, "%" PRIu64, (uint64_t)1 << (bin - 1));
            if (bin < 64)
                snprintf(hi, size, "%" PRIu64, (uint64_t)1 << bin);
            else
                snprintf(hi, size, "18446744073709551616");
        }
    } else if (bin == 0) {
        snprintf(hi, size, "0.000000000");
    } else {
        int64_t a = 1;
        for (int i = 1; i < bin; i++) a *= 10;
        snprintf(lo, size, "%" PRId64 ".%09" PRId64, a / 1000000000, a % 1000000000);
        if (bin < 19) {
            int64_t b = a * 10;
            snprintf(hi, size, "%" PRId64 ".%09" PRId64, b / 1000000000, b % 1000000000);
        } else {
            snprintf(hi, size, "10000000000.000000000");
        }
    }
}

static void print_histograms(hists *hs, const opts *o, int64_t t0, int64_t t1, uint64_t n_msgs)
{
    size_t m = 0;
    for (size_t i = 0; i < hs->cap; i++)
        if (hs->h[i].n) hs->h[m++] = hs->h[i];
    if (m > 1) qsort(hs->h, m, sizeof *hs->h, cmp_hist);
    const char *key = o->histogram;
    int csv = strcmp(o->format, "csv") == 0, json = strcmp(o->format, "json") == 0;
    if (csv)
        printf("%s,histogram,low,high,messages\n", key);
    else if (json)
        printf("[");
    else
        printf("# %" PRIu64 " messages sent in %.9f .. %.9f s by %s (%zu values): sizes in powers of 2, transfer "
               "times in powers of 10\n",
               n_msgs, secs(t0), secs(t1), key, m);
    for (size_t i = 0; i < m; i++) {
        const hist *h = &hs->h[i];
        int unknown = h->key == SLOG_INFO_UNKNOWN;
        if (json) {
            printf("%s\n  {\"%s\":", i ? "," : "", key);
            if (unknown)
                printf("null");
            else
                printf("%" PRId64, h->key);
            printf(",\"messages\":%" PRIu64, h->n);
        } else if (!csv) {
            if (unknown)
                printf("%s unknown: %" PRIu64 " messages\n", key, h->n);
            else
                printf("%s %" PRId64 ": %" PRIu64 " messages\n", key, h->key, h->n);
        }
        for (int is_time = 0; is_time < 2; is_time++) {
            const uint64_t *v = is_time ? h->time : h->bytes;
            int nb = is_time ? HT_BINS : HB_BINS, first = 1;
            if (json) printf(",\"%s\":[", is_time ? "time_s" : "bytes");
            for (int b = 0; b < nb; b++) {
                if (!v[b]) continue;
                char lo[48], hi[48], t[64];
                bin_ends(is_time, b, lo, hi, sizeof lo);
                if (csv) {
                    if (!unknown) printf("%" PRId64, h->key);
                    printf(",%s,%s,%s,%" PRIu64 "\n", is_time ? "time_s" : "bytes", lo, hi, v[b]);
                } else if (json) {
                    printf("%s{\"low\":%s,\"high\":%s,\"messages\":%" PRIu64 "}", first ? "" : ",", *lo ? lo : "null",
                           *hi ? hi : "null", v[b]);
                } else {
                    bin_text(t, sizeof t, is_time, b);
                    printf("  %-6s %-22s %12" PRIu64 "\n", is_time ? "time" : "bytes", t, v[b]);
                }
                first = 0;
            }
            if (json) printf("]");
        }
        if (json) printf("}");
    }
    if (json) printf("\n]\n");
}

typedef struct msgs {
    slog_reader *r;
    const opts *o;
    int64_t t0, t1, bmin, bmax;
    const uint8_t *from, *to;
    uint64_t n;
    hists *hist; /* --histogram */
    int hist_failed;
} msgs;

static int field_named(const slog_category *c, const char *name, int type)
{
    for (uint32_t f = 0; f < c->n_fields; f++)
        if (strcmp(c->field_names[f], name) == 0) return (int)f;
    if (type >= 0)
        for (uint32_t f = 0; f < c->n_fields; f++)
            if (c->field_types[f] == type) return (int)f;
    return -1;
}

static int bytes_field_of(const slog_category *c)
{
    for (uint32_t f = 0; f < c->n_fields; f++)
        if (c->field_types[f] == SLOG_FIELD_BYTES) return (int)f;
    return -1;
}

static slog_cb_result on_msg(void *user, const slog_drawable *d)
{
    msgs *m = user;
    if (d->kind != SLOG_KIND_ARROW || d->start < m->t0 || d->start > m->t1) return SLOG_CONTINUE;
    if ((m->from && !m->from[d->timeline]) || (m->to && !m->to[d->end_timeline])) return SLOG_CONTINUE;
    const slog_category *c = slog_reader_category(m->r, d->category);
    int fb = bytes_field_of(c), ft = field_named(c, "tag", -1), fc = field_named(c, "comm", SLOG_FIELD_HANDLE);
    int64_t b = fb >= 0 ? d->info[fb] : SLOG_INFO_UNKNOWN, t = ft >= 0 ? d->info[ft] : SLOG_INFO_UNKNOWN,
            k = fc >= 0 ? d->info[fc] : SLOG_INFO_UNKNOWN;
    const opts *o = m->o;
    if (o->has_tag && t != o->tag) return SLOG_CONTINUE;
    if (o->has_comm && k != o->comm) return SLOG_CONTINUE;
    if (o->bytes && (b == SLOG_INFO_UNKNOWN || b < m->bmin || b > m->bmax)) return SLOG_CONTINUE;
    m->n++;
    if (m->hist) {
        hist *h = hist_slot(m->hist, strcmp(o->histogram, "tag") == 0 ? t : k);
        if (!h) {
            m->hist_failed = 1;
            return SLOG_STOP;
        }
        h->n++;
        h->bytes[bytes_bin(b)]++;
        h->time[time_bin(d->end - d->start)]++;
        return SLOG_CONTINUE;
    }
    int csv = strcmp(o->format, "csv") == 0, json = strcmp(o->format, "json") == 0;
    const int64_t v[3] = {b, t, k};
    static const char *const names[3] = {"bytes", "tag", "comm"};
    if (csv) {
        printf("%u,%u,%.9f,%.9f,", d->timeline, d->end_timeline, secs(d->start), secs(d->end));
        csv_string(c->name);
        for (int i = 0; i < 3; i++) {
            putchar(',');
            if (v[i] != SLOG_INFO_UNKNOWN) printf("%" PRId64, v[i]);
        }
        putchar('\n');
    } else if (json) {
        printf("%s\n  {\"sender\":%u,\"receiver\":%u,\"send_s\":%.9f,\"recv_s\":%.9f,\"category\":",
               m->n > 1 ? "," : "", d->timeline, d->end_timeline, secs(d->start), secs(d->end));
        json_string(c->name);
        for (int i = 0; i < 3; i++) {
            printf(",\"%s\":", names[i]);
            if (v[i] != SLOG_INFO_UNKNOWN)
                printf("%" PRId64, v[i]);
            else
                printf("null");
        }
        printf("}");
    } else {
        printf("%6u -> %-6u %.9f .. %.9f %-12s", d->timeline, d->end_timeline, secs(d->start), secs(d->end), c->name);
        for (int i = 0; i < 3; i++) {
            if (v[i] != SLOG_INFO_UNKNOWN)
                printf(" %s=%" PRId64, names[i], v[i]);
            else
                printf(" %s=unknown", names[i]);
        }
        putchar('\n');
    }
    return SLOG_CONTINUE;
}

static int run_messages(slog_reader *r, const opts *o, int64_t t0, int64_t t1, slog_query_stats *qs)
{
    const slog_file_info *fi = slog_reader_info(r);
    uint8_t *from = NULL, *to = NULL;
    int rc = 0;
    msgs m = {.r = r, .o = o, .t0 = t0, .t1 = t1};
    if (o->bytes) {
        char *end;
        errno = 0;
        m.bmin = strtoll(o->bytes, &end, 10);
        const char *s2 = end + 1;
        m.bmax = *end == ':' ? strtoll(s2, &end, 10) : 0;
        if (errno || end == s2 || *end || m.bmin > m.bmax) {
            fprintf(stderr, "slog2-print: --bytes takes MIN:MAX, got '%s'\n", o->bytes);
            return 2;
        }
    }
    if (o->from && (!(from = calloc(fi->n_timelines + 1u, 1)) || parse_set(o->from, from, fi->n_timelines))) {
        fprintf(stderr, "slog2-print: --from takes timeline ids A[-B][,...], got '%s'\n", o->from);
        rc = 2;
    }
    if (!rc && o->to && (!(to = calloc(fi->n_timelines + 1u, 1)) || parse_set(o->to, to, fi->n_timelines))) {
        fprintf(stderr, "slog2-print: --to takes timeline ids A[-B][,...], got '%s'\n", o->to);
        rc = 2;
    }
    hists hs = {0};
    if (!rc) {
        m.from = from;
        m.to = to;
        if (o->histogram) m.hist = &hs;
        int csv = strcmp(o->format, "csv") == 0, json = strcmp(o->format, "json") == 0;
        if (!m.hist && csv) printf("sender,receiver,send_s,recv_s,category,bytes,tag,comm\n");
        if (!m.hist && json) printf("[");
        slog_query q = {.t0 = t0, .t1 = t1, .flags = SLOG_QUERY_NO_PREVIEW};
        slog_error err;
        if (slog_reader_query(r, &q, on_msg, NULL, &m, qs, &err) != SLOG_OK) {
            fprintf(stderr, "slog2-print: %s\n", err.message);
            rc = 1;
        } else if (m.hist_failed) {
            fprintf(stderr, "slog2-print: out of memory\n");
            rc = 1;
        } else if (m.hist) {
            print_histograms(&hs, o, t0, t1, m.n);
        }
        if (!m.hist && json) printf("\n]\n");
    }
    free(hs.h);
    free(from);
    free(to);
    return rc;
}

/* ------------------------------------------------------------ main */

static int add_range(opts *o, const char *s)
{
    char *end;
    unsigned long a = strtoul(s, &end, 10), b = a;
    if (end == s) return -1;
    if (*end == '-') {
        const char *s2 = end + 1;
        b = strtoul(s2, &end, 10);
        if (end == s2) return -1;
    }
    if (*end || b < a || b > UINT32_MAX) return -1;
    void *n = realloc(o->ranges, (size_t)(o->n_ranges + 1) * sizeof *o->ranges);
    if (!n) return -1;
    o->ranges = n;
    o->ranges[o->n_ranges][0] = (uint32_t)a;
    o->ranges[o->n_ranges][1] = (uint32_t)b;
    o->n_ranges++;
    return 0;
}

/* A count of 1 to 65536 for option opt into *out; -1 (said on stderr) when
 * arg is not one. */
static int parse_count(const char *opt, const char *arg, uint32_t *out)
{
    char *end;
    unsigned long v = strtoul(arg, &end, 10);
    if (*end || end == arg || v == 0 || v > 65536) {
        fprintf(stderr, "slog2-print: %s takes a number from 1 to 65536, got '%s'\n", opt, arg);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

int main(int argc, char **argv)
{
    /* clang-format off */
    static const struct option longopts[] = {{"window", required_argument, 0, 'w'},
                                             {"timeline", required_argument, 0, 't'},
                                             {"category", required_argument, 0, 'c'},
                                             {"format", required_argument, 0, 'f'},
                                             {"preview", required_argument, 0, 'p'},
                                             {"bins", required_argument, 0, 'b'},
                                             {"rows", required_argument, 0, 'r'},
                                             {"check", no_argument, 0, 'k'},
                                             {"stats", no_argument, 0, 's'},
                                             {"matrix", no_argument, 0, 'm'},
                                             {"profile", no_argument, 0, 'P'},
                                             {"by-timeline", no_argument, 0, 1},
                                             {"messages", no_argument, 0, 'M'},
                                             {"from", required_argument, 0, 2},
                                             {"to", required_argument, 0, 3},
                                             {"tag", required_argument, 0, 4},
                                             {"comm", required_argument, 0, 5},
                                             {"bytes", required_argument, 0, 6},
                                             {"histogram", required_argument, 0, 7},
                                             {"slices", required_argument, 0, 8},
                                             {"help", no_argument, 0, 'h'},
                                             {"version", no_argument, 0, 'V'},
                                             {0, 0, 0, 0}};
    /* clang-format on */
    opts o = {.format = "text", .bins = 80};
    int ch, rc = 0;
    char **cats = calloc((size_t)argc + 1, sizeof *cats);
    if (!cats) return 1;
    o.cats = cats;
    while ((ch = getopt_long(argc, argv, "w:t:c:f:p:b:r:kshmPM", longopts, NULL)) != -1) {
        switch (ch) {
        case 'w': o.window = optarg; break;
        case 'p': o.preview = optarg; break;
        case 'c': o.cats[o.n_cats++] = optarg; break;
        case 'f': o.format = optarg; break;
        case 'k': o.check = 1; break;
        case 'm': o.matrix = 1; break;
        case 'P': o.profile = 1; break;
        case 'M': o.messages = 1; break;
        case 1: o.by_timeline = 1; break;
        case 2: o.from = optarg; break;
        case 3: o.to = optarg; break;
        case 6: o.bytes = optarg; break;
        case 7:
            o.histogram = optarg;
            if (strcmp(optarg, "tag") && strcmp(optarg, "comm")) {
                fprintf(stderr, "slog2-print: --histogram takes tag or comm, got '%s'\n", optarg);
                rc = 2;
            }
            break;
        case 4:
        case 5: {
            char *end;
            errno = 0;
            long long v = strtoll(optarg, &end, 0);
            if (errno || end == optarg || *end) {
                fprintf(stderr, "slog2-print: --%s takes an integer, got '%s'\n", ch == 4 ? "tag" : "comm", optarg);
                rc = 2;
            }
            if (ch == 4)
                o.tag = v, o.has_tag = 1;
            else
                o.comm = v, o.has_comm = 1;
            break;
        }
        case 's': o.stats = 1; break;
        case 'b': {
            char *end;
            unsigned long v = strtoul(optarg, &end, 10);
            if (*end || v == 0 || v > 1000000) {
                fprintf(stderr, "slog2-print: --bins takes a number from 1 to 1000000\n");
                rc = 2;
            }
            o.bins = (uint32_t)v;
            break;
        }
        case 8:
            if (parse_count("--slices", optarg, &o.slices)) rc = 2;
            break;
        case 'r':
            if (parse_count("--rows", optarg, &o.rows)) rc = 2;
            break;
        case 't':
            if (add_range(&o, optarg)) {
                fprintf(stderr, "slog2-print: --timeline takes A or A-B, got '%s'\n", optarg);
                rc = 2;
            }
            break;
        case 'h':
            fputs(usage_text, stdout);
            free(cats);
            free(o.ranges);
            return 0;
        case 'V':
            printf("slog2-print %s (reads .slog2 format %d.x)\n", SLOG2_VERSION, SLOG_FORMAT_MAJOR);
            free(cats);
            free(o.ranges);
            return 0;
        default: rc = 2;
        }
    }
    if (!rc && optind != argc - 1) {
        fprintf(stderr, "slog2-print: expected exactly one FILE\n");
        rc = 2;
    }
    if (!rc && strcmp(o.format, "text") && strcmp(o.format, "csv") && strcmp(o.format, "json")) {
        fprintf(stderr, "slog2-print: --format must be text, csv or json\n");
        rc = 2;
    }
    if (!rc && o.rows && (!o.preview || o.n_ranges > 1)) {
        fprintf(stderr, "slog2-print: --rows goes with --preview, and with at most one -t A-B range\n");
        rc = 2;
    }
    if (!rc && o.rows && o.bins > 65536) {
        fprintf(stderr, "slog2-print: --bins with --rows takes a number from 1 to 65536\n");
        rc = 2;
    }
    if (!rc && o.slices && !o.matrix) {
        fprintf(stderr, "slog2-print: --slices goes with --matrix\n");
        rc = 2;
    }
    if (!rc && (o.by_timeline && !o.profile)) {
        fprintf(stderr, "slog2-print: --by-timeline goes with --profile\n");
        rc = 2;
    }
    if (!rc && !o.messages && (o.from || o.to || o.has_tag || o.has_comm || o.bytes || o.histogram)) {
        fprintf(stderr, "slog2-print: --from, --to, --tag, --comm, --bytes and --histogram go with --messages\n");
        rc = 2;
    }
    if (!rc && o.matrix + o.profile + o.messages > 1) {
        fprintf(stderr, "slog2-print: one of --matrix, --profile and --messages at a time\n");
        rc = 2;
    }
    if (!rc && (o.matrix || o.profile || o.messages) && (o.preview || o.n_cats || o.n_ranges)) {
        fprintf(stderr, "slog2-print: --matrix, --profile and --messages take no --preview, --category or "
                        "--timeline (--messages: --from, --to)\n");
        rc = 2;
    }
    if (!rc && strcmp(argv[optind], "-") == 0) {
        /* A reader starts from the directory at the end of the file and
         * seeks to the nodes a window needs: a pipe cannot do that. */
        fprintf(stderr, "slog2-print: -: a .slog2 file cannot be read from standard input (it is read from its "
                        "end); give its name\n");
        rc = 2;
    }
    if (rc) {
        fputs("Try 'slog2-print --help'.\n", stderr);
        free(cats);
        free(o.ranges);
        return 2;
    }
    o.path = argv[optind];

    slog_reader *r;
    slog_error err;
    if (slog_reader_open(&r, o.path, &err) != SLOG_OK) {
        const char *hint = err.status == SLOG_ERR_NOT_SLOG ? slog2_foreign_hint(o.path) : NULL;
        if (hint)
            fprintf(stderr, "slog2-print: %s: %s\n", o.path, hint);
        else
            fprintf(stderr, "slog2-print: %s\n", err.message);
        free(cats);
        free(o.ranges);
        return 1;
    }
    const slog_file_info *fi = slog_reader_info(r);
    uint8_t *mask = NULL;
    for (int i = 0; i < o.n_ranges && !rc; i++)
        if (o.ranges[i][0] >= fi->n_timelines) {
            fprintf(stderr, "slog2-print: %s: --timeline %u", o.path, o.ranges[i][0]);
            if (o.ranges[i][1] != o.ranges[i][0]) fprintf(stderr, "-%u", o.ranges[i][1]);
            fprintf(stderr, ": the file has %u timelines (0 to %u)\n", fi->n_timelines,
                    fi->n_timelines ? fi->n_timelines - 1 : 0);
            rc = 2;
        }
    if (o.n_ranges) {
        mask = calloc(fi->n_timelines + 1u, 1);
        for (int i = 0; mask && i < o.n_ranges; i++)
            for (uint64_t t = o.ranges[i][0]; t <= o.ranges[i][1] && t < fi->n_timelines; t++) mask[t] = 1;
    }
    slog_query_stats qs = {0};
    int did = 0;
    if (!rc && o.check) {
        did = 1;
        if (slog_reader_check(r, &qs, &err) != SLOG_OK) {
            fprintf(stderr, "slog2-print: check failed: %s\n", err.message);
            rc = 1;
        } else {
            printf("check: OK (%" PRIu64 " nodes, %" PRIu64 " drawables, %" PRIu64 " previews verified)\n", fi->n_nodes,
                   qs.drawables, qs.previews);
            /* the summaries against the records they sum */
            uint64_t n_summ = 0;
            slog_query_stats ss;
            if (slog_reader_check_summaries(r, &n_summ, &ss, &err) != SLOG_OK) {
                fprintf(stderr, "slog2-print: check failed: %s\n", err.message);
                rc = 1;
            } else {
                printf("check: OK (%" PRIu64 " summaries recomputed from the records)\n", n_summ);
            }
            qs.nodes_read += ss.nodes_read;
            qs.bytes_read += ss.bytes_read;
        }
    }
    if (!rc && (o.matrix || o.profile || o.messages)) {
        did = 1;
        int64_t t0, t1;
        if (parse_window("--window", o.window ? o.window : "all", r, &t0, &t1)) {
            rc = 2;
        } else if (o.messages) {
            rc = run_messages(r, &o, t0, t1, &qs);
        } else if (o.slices) {
            rc = run_group_messages(r, &o, t0, t1, &qs);
        } else {
            slog_analysis_query aq = {
                .t0 = t0, .t1 = t1, .flags = o.matrix ? SLOG_ANALYSIS_MATRIX : SLOG_ANALYSIS_PROFILE};
            if (getenv("SLOG2_NO_SUMMARY")) aq.flags |= SLOG_ANALYSIS_NO_SUMMARY;
            slog_analysis *an;
            if (slog_reader_analyse(r, &aq, &an, &qs, &err) != SLOG_OK) {
                fprintf(stderr, "slog2-print: %s\n", err.message);
                rc = 1;
            } else {
                rc = o.matrix ? print_matrix(r, &o, an) : print_profile(r, &o, an, t0, t1);
                slog_analysis_free(an);
            }
        }
    }
    if (!rc && o.window && !(o.matrix || o.profile || o.messages)) {
        did = 1;
        slog_query q = {.timelines = mask};
        listing L = {0};
        int s = setup_listing(&L, r, &o);
        if (s) {
            rc = s == -2 ? 2 : 1;
        } else if (parse_window("--window", o.window, r, &q.t0, &q.t1)) {
            rc = 2;
        } else {
            if (strcmp(o.format, "csv") == 0) {
                printf("kind,category,timeline,start,end,end_timeline");
                for (uint32_t c = 0; c < L.n_columns; c++) {
                    putchar(',');
                    csv_string(L.columns[c]);
                }
                putchar('\n');
            } else if (strcmp(o.format, "json") == 0) {
                printf("[");
            }
            if (slog_reader_query(r, &q, on_list, NULL, &L, &qs, &err) != SLOG_OK) {
                fprintf(stderr, "slog2-print: %s\n", err.message);
                rc = 1;
            }
            if (strcmp(o.format, "json") == 0) printf("\n]\n");
        }
        free_listing(&L, fi->n_categories);
    }
    if (!rc && o.preview) {
        did = 1;
        int64_t t0, t1;
        if (parse_window("--preview", o.preview, r, &t0, &t1)) {
            rc = 2;
        } else if (o.rows) {
            rc = print_rows(r, &o, t0, t1, &qs);
        } else {
            uint8_t *is_state = calloc(fi->n_categories + 1u, 1);
            for (uint32_t k = 0; is_state && k < fi->n_categories; k++)
                is_state[k] = slog_reader_category(r, k)->kind == SLOG_KIND_STATE;
            pv x = {.cols = slog_columns_new(t0, t1, o.bins), .is_state = is_state};
            int64_t px = (t1 - t0 + 1) / (int64_t)o.bins;
            slog_query q = {.t0 = t0, .t1 = t1, .timelines = mask, .pixel_ns = px > 0 ? px : 1};
            if (!is_state || !x.cols) {
                fprintf(stderr, "slog2-print: out of memory\n");
                rc = 1;
            } else if (slog_reader_query(r, &q, on_pv_drawable, on_pv_preview, &x, &qs, &err) != SLOG_OK) {
                fprintf(stderr, "slog2-print: %s\n", err.message);
                rc = 1;
            } else {
                slog_columns_finish(x.cols);
                int csv = strcmp(o.format, "csv") == 0;
                if (csv) {
                    printf("timeline,category");
                    for (uint32_t j = 0; j < o.bins; j++) printf(",c%u", j);
                    putchar('\n');
                } else {
                    printf("# %u columns of %.9f s over %.9f .. %.9f s; state rows: fraction covered, others: counts "
                           "(split over columns)\n",
                           o.bins, secs(t1 - t0 + 1) / o.bins, secs(t0), secs(t1));
                }
                for (uint32_t i = 0; i < slog_columns_n_rows(x.cols); i++) {
                    uint32_t tl, cat;
                    const float *v = slog_columns_row(x.cols, i, &tl, &cat);
                    const slog_category *c = slog_reader_category(r, cat);
                    if (csv) {
                        printf("%u,", tl);
                        csv_string(c->name);
                    } else {
                        printf("%4u %-22s", tl, c->name);
                    }
                    for (uint32_t j = 0; j < o.bins; j++) printf(csv ? ",%.4f" : " %.3f", v[j]);
                    putchar('\n');
                }
            }
            slog_columns_free(x.cols);
            free(is_state);
        }
    }
    if (!rc && !did) print_summary(r);
    if (o.stats)
        fprintf(stderr, "nodes_read=%" PRIu64 " bytes_read=%" PRIu64 " drawables=%" PRIu64 " previews=%" PRIu64 "\n",
                qs.nodes_read, qs.bytes_read, qs.drawables, qs.previews);
    free(mask);
    free(cats);
    free(o.ranges);
    slog_reader_close(r);
    return rc;
}
