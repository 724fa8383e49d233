/* SPDX-License-Identifier: MIT */
/* build.c - the slog2-build pipeline (see build.h): setup, the leaf width,
 * the run (pipeline.c, lane.c, seq.c; build_internal.h tells how the work
 * is cut) and the end (footers, unmatched messages, the summary).
 *
 * Every record becomes a state (or, for a poll that found nothing, an
 * event) on its (rank, thread) timeline, is fed to the communicator replay
 * (comm.c) and to message matching (match.c), which produces arrows.
 * Memory is bounded by ranks, messages in flight and open states, not by
 * trace length.
 */
#include "build.h"

#include <glib.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#include <sys/mman.h>
#endif

#include "build_internal.h"
#include "palette.h"
#include "pin.h"
#include "signals.h"

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double now_s(void)
{
    return clock_s(CLOCK_MONOTONIC);
}

/* The bar's (or the opening count's) line erased, for a message or the
 * next line in its place. */
static void status_clear(const builder *b)
{
    if (b->o->progress) fputs("\r\033[K", b->err);
}

void build_warn(builder *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    status_clear(b);
    fputs("slog2-build: warning: ", b->err);
    vfprintf(b->err, fmt, ap);
    fputc('\n', b->err);
    va_end(ap);
    b->s->n_warnings++;
}

/* Columns of the terminal f is on; without one (--progress into a file or
 * pipe) $COLUMNS, else 80. */
static int terminal_columns(FILE *f)
{
    struct winsize ws;
    if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    const char *env = getenv("COLUMNS");
    int n = env ? atoi(env) : 0;
    return n > 0 && n < 10000 ? n : 80;
}

/* prefix then text in place of the last status line, cut to cols - 1
 * columns (a wrapped line is not erased by the next update's \r); a
 * newline after it when final. */
static void status_line(const builder *b, const char *prefix, const char *text, int cols, int final)
{
    int room = cols - 1 - (int)strlen(prefix);
    fprintf(b->err, "\r\033[K%s%.*s", prefix, room > 0 ? room : 0, text);
    if (final) fputc('\n', b->err);
    fflush(b->err);
}

void build_progress(builder *b, int final)
{
    if (!b->o->progress) return;
    double t = now_s();
    if (!final && t - b->last_progress < 0.2) return;
    b->last_progress = t;
    uint64_t done = 0, calls = 0;
    for (uint32_t i = 0; i < b->n_ranks; i++) {
        /* read while the lanes move on: a moment's view is all a bar needs */
        done += atomic_load_explicit(&b->ranks[i].pos, memory_order_relaxed);
        calls += atomic_load_explicit(&b->ranks[i].calls_done, memory_order_relaxed);
    }
    double el = t - b->t_start, frac = b->s->input_bytes ? (double)done / b->s->input_bytes : 1;
    if (frac > 1) frac = 1;
    /* The rate of the pipeline alone: with tens of thousands of ranks the
     * set-up took seconds in which no call was read, and counting them
     * put the first estimates hundreds of times too high. What open read
     * (each file's head and the sections after its stream: a third of a
     * short trace's bytes) counts as done but not in the rate. */
    double run = b->t_pipeline > 0 ? t - b->t_pipeline : el;
    uint64_t left = b->s->input_bytes > done ? b->s->input_bytes - done : 0;
    uint64_t since = done > b->read_at_open ? done - b->read_at_open : 0;
    bool known = !left || (double)since > 0.001 * (double)b->s->input_bytes;
    char eta[32] = "ETA -";
    if (known) snprintf(eta, sizeof eta, "ETA %.0fs", left ? run * (double)left / (double)since : 0.0);
    char text[128];
    int len = snprintf(text, sizeof text, "%5.1f%%  %.1f/%.1f MB  %.2f M calls/s  %s", frac * 100, done / 1e6,
                       b->s->input_bytes / 1e6, el > 0 ? calls / el / 1e6 : 0.0, eta);
    /* One line that fits the terminal: a wrapped line is not erased by
     * the next update's \r and the bar would scroll. The bar shrinks
     * first, then goes; the text is cut last. */
    int cols = terminal_columns(b->err);
    int width = cols - 1 - len - 3;
    if (width > 30) width = 30;
    char bar[34] = "";
    if (width >= 5) {
        int fill = (int)(frac * width);
        bar[0] = '[';
        for (int i = 0; i < width; i++) bar[1 + i] = i < fill ? '#' : '.';
        bar[1 + width] = ']';
        bar[2 + width] = ' ';
        bar[3 + width] = 0;
    }
    status_line(b, bar, text, cols, final);
}

/* While the ranks' files open (thousands of them, and on a cluster's
 * parallel file system each open is a round trip to its metadata server),
 * a line that counts them: without one the bar appeared only once the
 * pipeline started, after seconds or minutes of silence. Drawn for the
 * first rank, then at most five times a second, and for the last. */
void build_opening(builder *b, uint32_t i, uint32_t n)
{
    if (!b->o->progress) return;
    if (i && i + 1 < n && i % 64) return; /* the clock read less often than the files open */
    double t = now_s();
    if (i && i + 1 < n && t - b->last_progress < 0.2) return;
    b->last_progress = t;
    char text[96];
    snprintf(text, sizeof text, "opening rank files  %u/%u", i + 1, n);
    status_line(b, "", text, terminal_columns(b->err), 0);
}

/* f's datatype sizes, as a table shared with every rank file that has
 * the same (volume.h). The last tables made are compared, newest first
 * (files of one run nearly always agree), and only a few: files that all
 * differ get tables of their own, not a quadratic search. */
static const type_sizes *types_of(builder *b, const dumpi_file *f)
{
    type_sizes t;
    type_sizes_of(f, &t);
    if (!b->type_tables) b->type_tables = g_ptr_array_new_with_free_func(g_free);
    for (guint i = b->type_tables->len, k = 0; i-- > 0 && k++ < 8;) {
        const type_sizes *o = g_ptr_array_index(b->type_tables, i);
        if (!memcmp(o, &t, sizeof t)) return o;
    }
    type_sizes *n = g_memdup2(&t, sizeof t);
    g_ptr_array_add(b->type_tables, n);
    return n;
}

/* Every rank's file is read through a window of its own, so their sum
 * is the builder's largest allocation: a thousand ranks at the decoder's
 * default 256 KiB would take 256 MiB. Windows shrink to keep the sum near
 * READ_BUDGET (a record that does not fit is still read whole, through a
 * wider window for that record only), down to a few dozen records of a
 * rank of thousands: there a window of 16 KiB was most of a rank's
 * memory, and a smaller one costs a system call per dozen records, which
 * outweighed the memory it saved (docs/PERFORMANCE.md). */
#define READ_BUDGET     (4u << 20)
#define READ_WINDOW_MAX (256u << 10)
#define READ_WINDOW_MIN (2u << 10)

static size_t read_window(uint32_t n_ranks)
{
    size_t w = n_ranks ? READ_BUDGET / n_ranks : READ_WINDOW_MAX;
    return w > READ_WINDOW_MAX ? READ_WINDOW_MAX : w < READ_WINDOW_MIN ? READ_WINDOW_MIN : w;
}

/* With thousands of ranks in step, a burst (all of them leaving a
 * collective in one leaf) makes lists and batches of hundreds of KiB a
 * lane, given back once their slab is done (seq.c). glibc's mmap threshold
 * follows the largest block freed, so those came to live in the heap, where
 * what they left between bursts could not go back to the system: peak RSS
 * a sixth above the heap's peak. A fixed threshold keeps them mapped, given
 * back whole; the pages they take again are zeroed by the kernel, which
 * with fewer ranks (smaller bursts, more of them) costs more system time
 * than it saves memory (docs/PERFORMANCE.md). */
#define BURST_RANKS    8192
#define BURST_MMAP_MIN (128u << 10)

/* With fewer ranks a build is short, and the kernel handing its heap over
 * a 4 KiB page at a time took much of its CPU. So the heap is grown once,
 * ahead, into a region the kernel may back with 2 MiB pages (transparent
 * huge pages, where the system grants them on request), is never trimmed,
 * and every thread takes from it (one arena: glibc's per-thread arenas
 * cannot be marked from here). Where malloc is not glibc's (Valgrind, the
 * sanitizers) the block is not in the heap and nothing is marked. */
#define HEAP_AHEAD (30u << 20) /* below glibc's largest mmap threshold */
#define HEAP_STEP  (16u << 20)
#define HUGE_PAGE  ((uintptr_t)2 << 20)

static void heap_in_large_pages(void)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    static atomic_bool done;
    if (atomic_exchange(&done, true)) return;
    if (!mallopt(M_ARENA_MAX, 1) || !mallopt(M_MMAP_THRESHOLD, HEAP_AHEAD + (1u << 20)) ||
        !mallopt(M_TOP_PAD, HEAP_STEP) || !mallopt(M_TRIM_THRESHOLD, INT_MAX))
        return;
    uintptr_t lo = (uintptr_t)sbrk(0);
    void *p = malloc(HEAP_AHEAD);
    uintptr_t hi = (uintptr_t)sbrk(0), end = (uintptr_t)p + HEAP_AHEAD;
    if (p && end > lo && end <= hi) { /* the block grew the heap */
        uintptr_t from = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), to = hi & ~(HUGE_PAGE - 1);
        if (to > from) madvise((void *)from, to - from, MADV_HUGEPAGE);
    }
    free(p);
#endif
}

/* The heap for this many ranks; true when large freed blocks go back to
 * the system. */
static bool plan_heap(uint32_t n_ranks)
{
#ifdef __GLIBC__
    if (n_ranks < BURST_RANKS) {
        heap_in_large_pages();
        return false;
    }
    mallopt(M_MMAP_THRESHOLD, BURST_MMAP_MIN);
    return true;
#else
    (void)n_ranks;
    return false;
#endif
}

/* Descriptors the build holds besides the ranks' files: the standard
 * streams, the output and the writer's directory spill, the .meta while
 * it is read, GLib's, and room for the caller's; and at least, with the
 * ranks' files opened for each read (one per thread at a time). */
#define FD_RESERVE 32
#define FD_MIN     16

/* Whether every rank's file may stay open: the soft limit on descriptors
 * is raised up to the hard one for them if need be. If not, each file is
 * opened for each read of its window (dumpi_file_set_transient), which
 * costs an open and a close a window. False with a message when even
 * that cannot work. */
static bool plan_descriptors(builder *b, bool *transient)
{
    struct rlimit rl;
    *transient = false;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return true; /* unknown: try */
    uint64_t need = (uint64_t)b->n_ranks + FD_RESERVE + build_threads(b);
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
        struct rlimit up = rl;
        up.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ? need : rl.rlim_max;
        if (up.rlim_cur > rl.rlim_cur && setrlimit(RLIMIT_NOFILE, &up) == 0) rl = up;
    }
    if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need) return true;
    uint64_t least = FD_MIN + build_threads(b);
    if (rl.rlim_cur < least) {
        fprintf(b->err,
                "slog2-build: error: the process may open only %llu files (ulimit -n); the build needs at least "
                "%llu, even reading one rank file at a time\n",
                (unsigned long long)rl.rlim_cur, (unsigned long long)least);
        return false;
    }
    *transient = true;
    return true;
}

/* What the footers of some ranks tell: their records, their (rank,
 * function) pairs with calls, those of them that make states whatever the
 * records say (not polls, unless polls are states), the most calls of
 * one pair (each makes a state or an event on the rank's timeline in the
 * function's category), and their point-to-point operations, each of
 * which makes at most one message; `unbounded` when their drawables
 * cannot be told from the footers (a rank has none, starts any number of
 * requests with Startall, or has user functions, which a footer does not
 * count). */
typedef struct footer_counts {
    double records, rows, state_rows, max_row, p2p_ops;
    bool unbounded;
} footer_counts;

/* What a call of each function adds to footer_counts, looked up once for
 * all ranks' footers. */
#define OPS_ANY UINT8_MAX /* Startall */
typedef struct footer_plan {
    uint8_t p2p_ops[N_LABELS];
    bool state[N_LABELS];
} footer_plan;

static uint8_t p2p_ops_of(role_id role)
{
    switch (role) {
    case R_SEND:
    case R_ISEND:
    case R_RECV:
    case R_IRECV:
    case R_START: return 1;
    case R_SENDRECV: return 2;
    case R_STARTALL: return OPS_ANY;
    default: return 0;
    }
}

static void footer_plan_make(footer_plan *fp, bool poll_states)
{
    for (uint16_t l = 0; l < N_LABELS; l++) {
        fp->p2p_ops[l] = p2p_ops_of(call_role(l));
        fp->state[l] = poll_states || !call_is_poll(l);
    }
}

/* Its footer into r's check, added to *c and into the functions the trace
 * calls (`called`), then let go of it. False when r has none. */
static bool take_footer(rank_in *r, const footer_plan *fp, footer_counts *c, bool *called)
{
    const uint32_t *calls, *ignored;
    int n = dumpi_file_footer_counts(r->f, &calls, &ignored);
    r->has_footer = n > 0;
    if (!r->has_footer || dumpi_file_n_functions(r->f)) c->unbounded = true;
    for (int l = 0; l < n && l < DUMPI_LABEL_ALL_FUNCTIONS; l++) {
        r->footer_sum += calls[l] * label_tag((uint32_t)l);
        if (!calls[l]) continue;
        c->records += calls[l];
        c->rows++;
        if (calls[l] > c->max_row) c->max_row = calls[l];
        c->state_rows += fp->state[l];
        if (fp->p2p_ops[l] == OPS_ANY) c->unbounded = true;
        c->p2p_ops += (double)calls[l] * fp->p2p_ops[l];
        if (l < N_LABELS) called[l] = true;
    }
    dumpi_file_drop_footer(r->f);
    return r->has_footer;
}

/* The first timeline of the output's blocks where a node summary may pay
 * (slog.h, slog_summaries_may_pay), from the footers of each block's ranks
 * (per_block[k], k below n_blocks): at thousands of ranks of few calls each
 * none below a block's root does, and making every node's summary for the
 * roots' alone was much of the write step. A record makes
 * a state or a poll's event, and an arrow stands in its sender's block
 * with a mirror in its receiver's, each an operation there. Rank r's main
 * thread is timeline r; other threads' timelines come after the ranks',
 * in blocks that cannot be told, so only blocks of ranks' timelines alone
 * are looked at, in order, up to the first that may pay. */
static uint32_t summaries_from(const footer_counts *per_block, uint32_t n_blocks, uint32_t n_ranks,
                               uint32_t block_ranks)
{
    uint32_t k = 0;
    while (k < n_blocks && (uint64_t)(k + 1) * block_ranks <= n_ranks && !per_block[k].unbounded &&
           !slog_summaries_may_pay(per_block[k].records + per_block[k].p2p_ops, per_block[k].state_rows,
                                   per_block[k].max_row))
        k++;
    return k * block_ranks;
}

/* The records the build decoded of r against its footer's counts: the
 * sums agree, or the file is read again (a new handle, the footer and
 * every record up to where the build stopped) to say which counts differ. */
static void check_footer(builder *b, const rank_in *r)
{
    if (!r->has_footer || r->label_sum == r->footer_sum) return;
    dumpi_file *f;
    dumpi_error e;
    if (dumpi_file_open(dumpi_file_path(r->f), &f, &e) != DUMPI_OK) {
        build_warn(b, "%s: footer counts differ from the calls decoded, and reading it again failed: %s",
                   dumpi_file_path(r->f), e.message);
        return;
    }
    uint32_t *counts = g_new0(uint32_t, N_LABELS);
    dumpi_call c;
    while (dumpi_file_next(f, &c, &e) == 1)
        if (c.label < N_LABELS) counts[c.label]++;
    const uint32_t *calls, *ignored;
    int n = dumpi_file_footer_counts(f, &calls, &ignored);
    int bad = 0;
    for (int l = 0; l < n && l < DUMPI_LABEL_ALL_FUNCTIONS; l++) {
        if (calls[l] != counts[l] && bad++ < 3)
            build_warn(b, "%s: footer counts %u calls of %s, %u were decoded", dumpi_file_path(r->f), calls[l],
                       dumpi_fn_lookup((uint16_t)l)->name, counts[l]);
    }
    g_free(counts);
    dumpi_file_close(f);
}

/* With several hosts, what was done to their clocks (a file from one
 * host has none of this: the times are the host's). */
static void annotate_clocks(builder *b)
{
    const clock_plan *p = &b->clocks;
    if (p->n_named < 2 && !p->aligned) return;
    if (!p->aligned) {
        char *v = g_strconcat("none: ", p->why_not, NULL);
        slog_writer_add_annotation(b->w, "time.clock_align", v);
        g_free(v);
        return;
    }
    slog_writer_add_annotation(b->w, "time.clock_align",
                               "shifted by MPI_Init and the synchronising collectives on COMM_WORLD");
    GString *v = g_string_new(NULL);
    for (size_t i = 0; i < p->n_hosts; i++) {
        const clock_host *h = &p->hosts[i];
        if (h->name[0])
            g_string_append_printf(v, "%s%s=", i ? "; " : "", h->name);
        else /* a rank without a header, a host of its own */
            g_string_append_printf(v, "%srank %u=", i ? "; " : "", h->first_rank);
        if (h->method == CLOCK_BY_NONE) {
            g_string_append(v, "unknown");
            continue;
        }
        g_string_append_printf(v, "%+" PRId64, h->offset_ns);
        if (h->method == CLOCK_BY_REFERENCE)
            g_string_append(v, " (reference)");
        else if (h->method == CLOCK_BY_INIT_CONFLICT)
            g_string_append(v, " (MPI_Init; the collectives disagree)");
        else
            g_string_append_printf(v, " (%s, within %" PRId64 " ns)",
                                   h->method == CLOCK_BY_COLLECTIVES ? "collectives" : "MPI_Init", h->error_ns);
    }
    slog_writer_add_annotation(b->w, "time.clock_offsets_ns", v->str);
    g_string_free(v, TRUE);
}

G_GNUC_NO_INLINE static void annotate(builder *b, const dumpi_meta *meta)
{
    char buf[64];
    slog_writer_add_annotation(b->w, "builder", "slog2-build " SLOG2_VERSION);
    if (b->o->command_line) slog_writer_add_annotation(b->w, "builder.command", b->o->command_line);
    if (dumpi_meta_path(meta)) slog_writer_add_annotation(b->w, "source.meta", dumpi_meta_path(meta));
    for (size_t i = 0; i < dumpi_meta_n_keys(meta); i++) {
        const char *k, *v;
        if (dumpi_meta_key_at(meta, i, &k, &v)) continue;
        char key[128];
        snprintf(key, sizeof key, "meta.%s", k);
        slog_writer_add_annotation(b->w, key, v);
    }
    snprintf(buf, sizeof buf, "%" PRId64, b->origin);
    slog_writer_add_annotation(b->w, "time.origin.clock_ns", buf);
    slog_writer_add_annotation(b->w, "time.clock", "DUMPI wall time (CLOCK_MONOTONIC in libdumpi 0.6+)");
    annotate_clocks(b);
}

/* "2, 5-9 (6 of 16)": ranks (ascending) as ranges, at most
 * RANK_LIST_MAX of them, so a .meta whose numprocs is far off does not
 * print millions of numbers. */
#define RANK_LIST_MAX 20
G_GNUC_NO_INLINE static GString *rank_list(const int *ranks, size_t n, int n_ranks)
{
    GString *l = g_string_new(NULL);
    size_t shown = 0, i = 0;
    while (i < n && shown < RANK_LIST_MAX) {
        size_t j = i;
        while (j + 1 < n && ranks[j + 1] == ranks[j] + 1) j++;
        g_string_append_printf(l, "%s%d", shown ? ", " : "", ranks[i]);
        if (j > i) g_string_append_printf(l, "-%d", ranks[j]);
        shown++;
        i = j + 1;
    }
    if (i < n) g_string_append(l, ", ...");
    g_string_append_printf(l, " (%zu of %d)", n, n_ranks);
    return l;
}

/* Put the hosts' clocks onto one (clocks.h); say so, and warn about the
 * hosts that could not be. */
G_GNUC_NO_INLINE static void plan_clocks(builder *b)
{
    clock_plan *p = &b->clocks;
    dumpi_file **files = g_new0(dumpi_file *, b->n_ranks);
    for (uint32_t i = 0; i < b->n_ranks; i++) files[i] = b->ranks[i].f;
    clock_plan_make(files, b->n_ranks, b->o->align_clocks, p);
    g_free(files);
    b->s->n_hosts = (uint32_t)p->n_named;
    b->s->clocks_aligned = p->aligned;
    b->s->max_clock_shift_ns = p->max_shift_ns;
    b->s->max_clock_error_ns = p->n_conflicts ? INT64_MAX : p->max_error_ns;
    b->s->clocks_not_aligned = !p->aligned ? p->why_not : NULL;
    for (size_t i = 0; p->aligned && i < p->n_hosts; i++) {
        const clock_host *h = &p->hosts[i];
        if (h->method != CLOCK_BY_NONE) continue;
        if (h->name[0])
            build_warn(b,
                       "host %s (%u rank%s from rank %u): no MPI_Init among the first %d records of its ranks; "
                       "its clock is left as recorded",
                       h->name, h->n_ranks, h->n_ranks == 1 ? "" : "s", h->first_rank, CLOCK_PROBE_RECORDS);
        else
            build_warn(b,
                       "rank %u (no hostname in its header): no MPI_Init among its first %d records; its clock is "
                       "left as recorded",
                       h->first_rank, CLOCK_PROBE_RECORDS);
    }
}

/* Whether path (following links) is file. */
static bool reaches(const char *path, const struct stat *file)
{
    struct stat st;
    return path && stat(path, &st) == 0 && st.st_dev == file->st_dev && st.st_ino == file->st_ino;
}

/* The input whose file the output path names, or NULL. The finished file
 * is renamed over the output path: `-o RANK.bin` or `-o TRACE.meta` would
 * replace part of the trace it was built from. lstat: a symlink given as
 * the output is replaced itself, its target is safe; inputs are compared
 * by the file they reach. The ranks' files, open by now, by the file
 * their open found: a stat of each was a system call per rank whenever
 * the output was there already (a rebuild); a file whose bytes the
 * caller supplies (open_rank) is looked up. */
G_GNUC_NO_INLINE static const char *input_named_by(const builder *b, const dumpi_meta *meta, const char *output)
{
    struct stat out;
    if (lstat(output, &out) != 0) return NULL; /* nothing there to replace */
    if (reaches(dumpi_meta_path(meta), &out)) return dumpi_meta_path(meta);
    for (uint32_t r = 0; r < b->n_ranks; r++) {
        const dumpi_file *f = b->ranks[r].f;
        uint64_t dev, ino;
        if (!f) continue;
        if (dumpi_file_identity(f, &dev, &ino) ? dev == (uint64_t)out.st_dev && ino == (uint64_t)out.st_ino
                                               : reaches(dumpi_file_path(f), &out))
            return dumpi_file_path(f);
    }
    return NULL;
}

/* ---------------------------------------------------------- leaf width */

/* Records sampled from the start of the trace to choose the leaf width:
 * the writer's own rule wants the first 65,536 drawables (docs/FORMAT.md),
 * which a lane-parallel build cannot buffer, so the first records of every
 * rank stand for them (as many per rank), but no more than SAMPLE_PER_RANK
 * of a rank: the sample is decoded again by the lanes, before any of them
 * can start, and with few ranks more records of each gave the same leaf
 * widths as SAMPLE_PER_RANK, on real and generated traces alike. */
#define SAMPLE_RECORDS  65536
#define SAMPLE_PER_RANK 4096
#define SAMPLE_MIN      16 /* records of every rank at least */
#define DEEP_SPAN_BINS  8192

/* The k-th smallest of v[0..n) (k < n), reordering v: selection with a
 * three-way partition; no sort is needed for one order statistic. */
static int64_t select_kth(int64_t *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n; /* k is in [lo, hi) */
    while (hi - lo > 1) {
        int64_t pivot = v[lo + (hi - lo) / 2];
        size_t lt = lo, i = lo, gt = hi;
        while (i < gt) {
            int64_t x = v[i];
            if (x < pivot) {
                v[i++] = v[lt];
                v[lt++] = x;
            } else if (x > pivot) {
                v[i] = v[--gt];
                v[gt] = x;
            } else {
                i++;
            }
        }
        if (k < lt)
            hi = lt;
        else if (k >= gt)
            lo = gt;
        else
            return pivot;
    }
    return v[lo];
}

/* One thread's share of the sample: ranks first, first + step, ... */
typedef struct sampler {
    builder *b;
    uint32_t first, step, per_rank;
    int64_t *starts, *keys; /* per_rank per rank, at the rank's place */
    uint32_t *n;            /* records sampled, per rank */
    const pin_plan *pin;    /* thread `first` keeps to the first-th CPU, or not */
    size_t rows;            /* distinct (rank, thread, function) */
    bool labels[N_LABELS];  /* MPI functions met */
} sampler;

static gpointer sample_ranks(gpointer data)
{
    sampler *sp = data;
    builder *b = sp->b;
    pin_self(sp->pin, sp->first);
    uint8_t seen[N_LABELS];                                                /* thread 0's functions, per rank */
    GHashTable *threads = g_hash_table_new(g_direct_hash, g_direct_equal); /* other threads' */
    dumpi_call c;
    dumpi_error e;
    for (uint32_t i = sp->first; i < b->n_ranks; i += sp->step) {
        rank_in *r = &b->ranks[i];
        if (!r->f) continue;
        memset(seen, 0, sizeof seen);
        g_hash_table_remove_all(threads);
        uint32_t k = 0;
        size_t at = (size_t)i * sp->per_rank;
        /* Times and labels only: the arguments are the lanes' to decode
         * (and the build's dumpi_file_next() keeps one caller, the lanes',
         * inlined there). */
        while (k < sp->per_rank && dumpi_file_next_times(r->f, &c, &e) == 1) {
            sp->starts[at + k] = c.wall_start;
            sp->keys[at + k] = c.wall_stop;
            k++;
            if (c.fn->family != DUMPI_FAMILY_USER) sp->labels[c.label] = true;
            if (c.thread == 0) {
                sp->rows += !seen[c.label];
                seen[c.label] = 1;
            } else {
                g_hash_table_add(threads, GSIZE_TO_POINTER(((gsize)c.thread << 16) | c.label));
            }
        }
        sp->rows += g_hash_table_size(threads);
        sp->n[i] = k;
        dumpi_file_rewind(r->f);
    }
    g_hash_table_destroy(threads);
    return NULL;
}

/* A record's exit on the build's axis, its entry at *t0: times before the
 * origin are 0, an exit before its entry is the entry. */
static inline int64_t axis_exit(const builder *b, int64_t start, int64_t stop, int64_t *t0)
{
    *t0 = start - b->origin < 0 ? 0 : start - b->origin;
    return stop - b->origin < *t0 ? *t0 : stop - b->origin;
}

/* The density of a sample of n exits keys[] (reordered) whose entries and
 * exits lie in [lo, hi]: *count records over *span ns, of the later half
 * by exit time when `more` (a rank went on past its sample: the trace's
 * slow start, MPI_Init and setup, left out). */
static void sample_density(int64_t *keys, size_t n, int64_t lo, int64_t hi, bool more, double *count, double *span)
{
    *span = (double)(hi - lo) + 1.0;
    *count = (double)n;
    if (more) {
        *span = (double)(hi - select_kth(keys, n, n / 2)) + 1.0;
        *count = (double)(n - n / 2);
    }
}

/* With so many ranks that each gives SAMPLE_MIN records, the sample is the
 * trace's start alone (MPI_Init, communicator setup, the first collectives),
 * which the ranks go through together: far denser than the trace. The
 * overview's preview levels chosen from it were low, and its previews and
 * own records were a large part of the file (docs/PERFORMANCE.md, "Where
 * the file's bytes go"). Then a few ranks spread over the ids stand for
 * the density: SAMPLE_PER_RANK records of each (the later half by exit
 * time when a rank goes on past them), times the ranks. *count and *span
 * as sample_start's; false if none of them has a record. Runs after the
 * samplers, on this thread; the files are rewound. */
static bool sample_deep(builder *b, double *count, double *span)
{
    uint32_t n_deep = SAMPLE_RECORDS / SAMPLE_PER_RANK, used = 0;
    if (n_deep > b->n_ranks) n_deep = b->n_ranks;
    int64_t *keys = g_new(int64_t, (gsize)n_deep * SAMPLE_PER_RANK);
    uint8_t every[N_LABELS];
    memset(every, 1, sizeof every);
    size_t n = 0;
    bool more = false;
    int64_t lo = INT64_MAX, hi = 0;
    for (uint32_t j = 0; j < n_deep; j++) {
        rank_in *r = &b->ranks[(uint64_t)b->n_ranks * j / n_deep];
        if (!r->f) continue;
        int budget = SAMPLE_PER_RANK;
        uint32_t k = 0;
        dumpi_call c;
        dumpi_error e;
        while (k < SAMPLE_PER_RANK && dumpi_file_find(r->f, every, &budget, &c, &e) == 1) {
            int64_t t0, key = axis_exit(b, c.wall_start, c.wall_stop, &t0);
            keys[n++] = key;
            if (t0 < lo) lo = t0;
            if (key > hi) hi = key;
            k++;
        }
        used += k > 0;
        more |= k == SAMPLE_PER_RANK;
        dumpi_file_rewind(r->f);
    }
    if (n) {
        sample_density(keys, n, lo, hi, more, count, span);
        *count *= (double)b->n_ranks / used;
    }
    g_free(keys);
    return n > 0;
}

/* Read the first records of every rank, on every thread: the time origin
 * (the earliest entry) and the leaf width (slog_leaf_shift_for_trace over them,
 * the later half by exit time when the trace goes on past them, as the
 * writer does with its first drawables; (rank, thread, function) stand for
 * the (timeline, category) pairs). The files are rewound; a record that
 * fails to decode ends that rank's sample quietly (the build reads it
 * again). */
G_GNUC_NO_INLINE static void sample_start(builder *b)
{
    uint32_t per_rank = SAMPLE_RECORDS / b->n_ranks;
    if (per_rank > SAMPLE_PER_RANK) per_rank = SAMPLE_PER_RANK;
    if (per_rank < SAMPLE_MIN) per_rank = SAMPLE_MIN;
    int64_t *starts = g_new(int64_t, (gsize)per_rank * b->n_ranks);
    int64_t *keys = g_new(int64_t, (gsize)per_rank * b->n_ranks);
    uint32_t *counts = g_new0(uint32_t, b->n_ranks);
    uint32_t n_threads = build_threads(b);
    if (n_threads > b->n_ranks) n_threads = b->n_ranks;
    sampler *sp = g_new0(sampler, n_threads);
    GThread **t = g_new0(GThread *, n_threads);
    pin_plan pin; /* as the pipeline's workers are (pin.h) */
    pin_begin(&pin, b->o->pin_threads, n_threads);
    for (uint32_t i = 0; i < n_threads; i++) {
        sp[i] = (sampler){.b = b,
                          .first = i,
                          .step = n_threads,
                          .per_rank = per_rank,
                          .starts = starts,
                          .keys = keys,
                          .n = counts,
                          .pin = &pin};
        if (i) t[i] = g_thread_new("slog2-sample", sample_ranks, &sp[i]);
    }
    sample_ranks(&sp[0]);
    size_t rows = 0;
    for (uint32_t i = 0; i < n_threads; i++) {
        if (i) g_thread_join(t[i]);
        rows += sp[i].rows;
        for (int l = 0; l < N_LABELS; l++) b->sampled[l] |= sp[i].labels[l];
    }
    pin_end(&pin);
    g_free(t);
    g_free(sp);
    /* The ranks' samples, packed. */
    size_t n = 0;
    bool more = false;
    b->origin = INT64_MAX;
    for (uint32_t i = 0; i < b->n_ranks; i++) {
        size_t at = (size_t)i * per_rank;
        if (counts[i] && starts[at] < b->origin) b->origin = starts[at];
        if (counts[i] == per_rank) more = true;
        memmove(starts + n, starts + at, counts[i] * sizeof *starts);
        memmove(keys + n, keys + at, counts[i] * sizeof *keys);
        n += counts[i];
    }
    g_free(counts);
    if (b->origin == INT64_MAX) b->origin = 0;
    b->shift = 20;
    if (n) {
        int64_t lo = INT64_MAX, hi = 0;
        for (size_t i = 0; i < n; i++) {
            int64_t t0;
            keys[i] = axis_exit(b, starts[i], keys[i], &t0);
            if (t0 < lo) lo = t0;
            if (keys[i] > hi) hi = keys[i];
        }
        double span, count;
        sample_density(keys, n, lo, hi, more, &count, &span);
        /* The output's blocks share the leaves (slog.h): the trace's rule,
         * and the preview levels for the sample's density and rows, so that
         * the writer keeps no preview rows below the levels where they pay
         * (its memory at many timelines). Records stand for drawables:
         * the arrows are not known yet. */
        b->shift = slog_leaf_shift_for_trace(count, span, (double)rows, b->n_ranks);
        double per_leaf = count * ldexp(1.0, b->shift) / span;
        /* With a deep sample its density sets the preview levels, not the
         * leaf width: the build's slabs are leaves, and wider ones held
         * more of the trace at once. */
        double deep_count, deep_span;
        bool deep = SAMPLE_RECORDS / b->n_ranks < SAMPLE_MIN && sample_deep(b, &deep_count, &deep_span);
        if (deep) per_leaf = deep_count * ldexp(1.0, b->shift) / deep_span;
        double all_rows = b->footer_rows < (double)rows ? (double)rows : b->footer_rows;
        /* With a deep sample, not so high that a picture of part of the
         * trace cannot use the overview (grid.c takes it while its lowest
         * bins are at most a few columns wide): the lowest level keeps at
         * least DEEP_SPAN_BINS bins over the deep sample's span (the
         * blocks' bound on their open bins still raises theirs). */
        uint32_t cap = UINT32_MAX;
        if (deep) {
            double bins = b->o->preview_bins ? b->o->preview_bins : SLOG_DEFAULT_PREVIEW_BINS;
            cap = 0;
            while (cap < 40 && ldexp(1.0, b->shift + (int)cap + 1) / bins * DEEP_SPAN_BINS <= deep_span) cap++;
        }
        slog_preview_levels_for(per_leaf, b->footer_records, all_rows, b->n_ranks, cap, &b->preview_level,
                                &b->overview_level);
    }
    g_free(starts);
    g_free(keys);
}

/* ------------------------------------------------------------ the lanes */

/* Ranks in lanes of about equal size: as many lanes as ranks up to
 * MAX_LANES (the task per slab is a lane's share of the leaf). */
static void make_lanes(builder *b)
{
    uint32_t n = b->n_ranks < MAX_LANES ? b->n_ranks : MAX_LANES;
    b->n_lanes = n;
    b->lanes = g_new0(lane, n);
    for (uint32_t i = 0; i < n; i++) {
        b->lanes[i].first = (uint32_t)((uint64_t)b->n_ranks * i / n);
        b->lanes[i].n = (uint32_t)((uint64_t)b->n_ranks * (i + 1) / n) - b->lanes[i].first;
        for (int k = 0; k < SLOTS_MAX; k++) {
            b->lanes[i].listed[k] = g_new(uint32_t, b->lanes[i].n);
            b->lanes[i].listed_at[k] = g_new(uint32_t, b->lanes[i].n);
        }
        b->lanes[i].keys = g_new(int64_t, b->lanes[i].n);
        b->lanes[i].due = g_new(uint32_t, b->lanes[i].n);
    }
}

/* Each rank's first record, and the lanes' earliest exits. */
static void prime(builder *b)
{
    for (uint32_t i = 0; i < b->n_lanes; i++) {
        lane *l = &b->lanes[i];
        l->next_key = INT64_MAX;
        for (uint32_t k = 0; k < l->n; k++) {
            rank_in *r = &b->ranks[l->first + k];
            lane_advance_rank(b, r);
            l->keys[k] = r->state == RANK_READING ? r->head.wall_stop - b->origin : INT64_MAX;
            if (l->keys[k] < l->next_key) l->next_key = l->keys[k];
        }
    }
}

/* What the lanes found wrong, in rank order. Returns false when the build
 * must fail (the first failed rank's error is printed). */
static bool report_ranks(builder *b)
{
    for (uint32_t i = 0; i < b->n_ranks; i++) {
        const rank_in *r = &b->ranks[i];
        if (r->state == RANK_FAILED) {
            fprintf(b->err, "slog2-build: error: %s\n", r->err->message);
            return false;
        }
    }
    for (uint32_t i = 0; i < b->n_ranks; i++) {
        const rank_in *r = &b->ranks[i];
        if (r->state == RANK_TRUNCATED)
            build_warn(b, "rank %u: %s; keeping every complete record before the cut", r->rank, r->err->message);
        else if (r->state == RANK_SKIPPED)
            build_warn(b, "rank %u: %s; --lenient: keeping what was decoded before it", r->rank, r->err->message);
    }
    return true;
}

static void report_unmatched(builder *b)
{
    size_t nu = 0;
    const match_unmatched *um = match_unmatched_list(b->match, &nu);
    match_stats ms;
    match_get_stats(b->match, &ms);
    build_summary *s = b->s;
    s->n_arrows = ms.n_arrows;
    s->n_cancelled = ms.n_cancelled;
    for (size_t i = 0; i < nu; i++) {
        if (um[i].kind == MATCH_UNMATCHED_SEND)
            s->n_unmatched_sends += um[i].count;
        else if (um[i].kind == MATCH_UNMATCHED_RECV)
            s->n_unmatched_recvs += um[i].count;
        else
            s->n_unmatched_other += um[i].count;
    }
    if (!nu) return;
    GString *u = g_string_new(NULL);
    static const char *kinds[] = {"send", "recv", "incomplete", "no-status", "bad-comm"};
    for (size_t i = 0; i < nu && i < 200; i++)
        g_string_append_printf(u, "%s%s %d->%d tag %d comm %d x%" PRIu64, i ? "; " : "", kinds[um[i].kind], um[i].src,
                               um[i].dst, um[i].tag, um[i].comm, um[i].count);
    slog_writer_add_annotation(b->w, "messages.unmatched", u->str);
    if (!b->o->quiet) {
        status_clear(b);
        fprintf(b->err, "slog2-build: unmatched messages (%zu kinds):", nu);
        for (size_t i = 0; i < nu && i < 10; i++)
            fprintf(b->err, "\n  %-10s %d -> %d tag %d comm %d: %" PRIu64, kinds[um[i].kind], um[i].src, um[i].dst,
                    um[i].tag, um[i].comm, um[i].count);
        if (nu > 10) fprintf(b->err, "\n  ... (%zu more, see the messages.unmatched annotation)", nu - 10);
        fputc('\n', b->err);
    }
    g_string_free(u, TRUE);
}

/* The writer and what every drawable needs before the first: timelines of
 * thread 0, the arrow category, annotations, the batches. */
static bool open_output(builder *b, const dumpi_meta *meta)
{
    slog_writer_options wo;
    slog_writer_options_init(&wo);
    wo.preview_bins = b->o->preview_bins;
    wo.time_origin_ns = b->origin;
    wo.leaf_shift = b->shift;
    wo.expected_timelines = b->n_ranks;
    wo.preview_level = b->preview_level;
    wo.overview_level = b->overview_level;
    wo.no_summaries_below = b->summaries_from;
    slog_error werr;
    if (b->o->remove_on_signal) signals_hold(); /* until armed: the file is created first */
    if (slog_writer_open(&b->w, b->o->output, &wo, &werr) != SLOG_OK) {
        signals_unhold(); /* nothing if not held */
        fprintf(b->err, "slog2-build: error: %s\n", werr.message);
        return false;
    }
    if (b->o->remove_on_signal) {
        const char *temp = slog_writer_temp_path(b->w);
        signals_arm("slog2-build", &temp, 1, b->o->progress);
    }
    for (uint32_t i = 0; i < b->n_ranks; i++) {
        char label[32];
        snprintf(label, sizeof label, "rank %u", i);
        const char *host = b->ranks[i].f ? dumpi_file_hostname(b->ranks[i].f) : "";
        slog_timeline t = {i, 0, label, host ? host : ""};
        slog_writer_add_timeline(b->w, &t, NULL);
    }
    b->s->n_timelines = b->n_ranks;
    const char *arrow_names[N_ARROW_FIELDS];
    uint8_t arrow_types[N_ARROW_FIELDS];
    call_field_columns(call_arrow_fields, N_ARROW_FIELDS, arrow_names, arrow_types);
    slog_category arrows = {SLOG_KIND_ARROW, "message",   "message",  PALETTE_ARROW,
                            N_ARROW_FIELDS,  arrow_names, arrow_types};
    slog_writer_add_category(b->w, &arrows, &b->arrow_category);
    b->inferred_category = UINT32_MAX;
    b->n_categories = 1;
    b->n_timelines = b->n_ranks;
    annotate(b, meta);
    bool ok = slog_batch_new(b->w, &b->arrow_batch) == SLOG_OK;
    int slots = SLOTS_FOR(b->lag); /* the slots in use; outs[SLOTS_MAX] is the end's */
    ok = ok && slog_batch_new(b->w, &b->outs[SLOTS_MAX].batch) == SLOG_OK;
    for (int k = 0; ok && k < slots; k++) ok = slog_batch_new(b->w, &b->outs[k].batch) == SLOG_OK;
    for (uint32_t i = 0; ok && i < b->n_lanes; i++)
        for (int k = 0; ok && k < slots; k++) ok = slog_batch_new(b->w, &b->lanes[i].batch[k]) == SLOG_OK;
    if (!ok) fprintf(b->err, "slog2-build: error: out of memory for the writer's batches\n");
    return ok;
}

/* A builder left for the process's end (build_options.leave_memory): with
 * thousands of ranks, freeing it piece by piece and closing every rank file
 * held up the end of the build, and the system takes it all back at once
 * when the process exits. Kept here, it stays reachable to leak checkers. */
static builder *left_for_exit;

static void free_builder(builder *b)
{
    seq_drop_snaps(b);
    if (b->pending_snaps) g_array_free(b->pending_snaps, TRUE);
    match_ctx_free(b->match);
    comm_ctx_free(b->comms);
    seq_end(b);
    for (uint32_t i = 0; i < b->n_lanes; i++)
        for (int k = 0; k < SLOTS_MAX; k++) {
            slog_batch_free(b->lanes[i].batch[k]);
            g_free(b->lanes[i].listed[k]);
            g_free(b->lanes[i].listed_at[k]);
            item_list *l = &b->lanes[i].items[k];
            for (uint32_t j = 0; j < l->n; j++) {
                seq_item *it = &l->v[j];
                if (it->op.kind != OP_DEFERRED) continue;
                free(it->def.call);
                comm_snap_unref(it->def.snap);
            }
            free(l->v);
        }
    for (uint32_t i = 0; i < b->n_lanes; i++) {
        g_free(b->lanes[i].keys);
        g_free(b->lanes[i].due);
        free(atomic_load(&b->lanes[i].spare));
    }
    g_free(b->lanes);
    for (uint32_t i = 0; i < b->n_ranks; i++) {
        rank_in *r = &b->ranks[i];
        if (r->f) dumpi_file_close(r->f);
        rank_error_free(r);
        if (r->user_stack) g_array_free(r->user_stack, TRUE);
        comm_table_free(&r->comms);
    }
    g_free(b->ranks);
    if (b->type_tables) g_ptr_array_free(b->type_tables, TRUE);
    if (b->timelines) g_hash_table_destroy(b->timelines);
    if (b->user_cats) g_hash_table_destroy(b->user_cats);
}

int build_run(const dumpi_meta *meta, const build_options *o, build_summary *s, FILE *err_out)
{
    memset(s, 0, sizeof *s);
    builder *bp = g_new0(builder, 1); /* the plans table is large: not on the stack */
    builder *b = bp;
    b->o = o;
    b->s = s;
    b->err = err_out;
    b->t_start = now_s();
    int fatal = 0, rc = BUILD_OK;
    int n = dumpi_meta_n_ranks(meta);
    size_t n_missing = 0;
    const int *missing = dumpi_meta_missing(meta, &n_missing);
    if (n <= 0) {
        fprintf(err_out, "slog2-build: error: the trace has no ranks\n");
        g_free(bp);
        return BUILD_FAILED;
    }
    if (n_missing) {
        GString *l = rank_list(missing, n_missing, n);
        if (!o->allow_missing) {
            fprintf(err_out,
                    "slog2-build: error: rank files missing for ranks %s; use --allow-missing to build without them\n",
                    l->str);
            g_string_free(l, TRUE);
            g_free(bp);
            return BUILD_FAILED;
        }
        build_warn(b, "rank files missing for ranks %s; building without them", l->str);
        g_string_free(l, TRUE);
    }
    for (int i = 0; i < N_LABELS; i++) {
        atomic_init(&b->plans[i].usable_from, PLAN_NOT_READY);
        call_comm_binding((uint16_t)i, &b->bindings[i]);
        req_use_of((uint16_t)i, &b->req_uses[i]);
        b->label_tags[i] = label_tag((uint32_t)i);
    }
    atomic_init(&b->stop, 0);
    b->n_ranks = (uint32_t)n;
    b->lag = b->n_ranks <= FEW_RANKS ? LAG_FEW_RANKS : LAG_MANY_RANKS;
    b->lists_unmapped = plan_heap(b->n_ranks);
    s->n_ranks = b->n_ranks;
    b->ranks = g_new0(rank_in, b->n_ranks);
    b->timelines = g_hash_table_new(g_direct_hash, g_direct_equal);
    b->user_cats = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    bool transient = false, footers = true;
    uint32_t block_ranks = slog_block_timelines_for(b->n_ranks);
    uint32_t n_blocks = (b->n_ranks + block_ranks - 1) / block_ranks;
    footer_counts *per_block = g_new0(footer_counts, n_blocks);
    footer_plan fp;
    footer_plan_make(&fp, o->poll_states);
    size_t window = read_window(b->n_ranks);
    if (!plan_descriptors(b, &transient)) fatal = 1;
    dumpi_read_ahead ahead;
    dumpi_read_ahead_init(&ahead, meta, b->n_ranks, window);
    for (uint32_t i = 0; i < b->n_ranks && !fatal; i++) {
        rank_in *r = &b->ranks[i];
        r->rank = i;
        r->user_stack = g_array_new(FALSE, FALSE, sizeof(user_frame));
        comm_table_init(&r->comms);
        const char *path = dumpi_meta_bin_path(meta, (int)i);
        r->state = path ? RANK_READING : RANK_DONE;
        build_opening(b, i, b->n_ranks);
        if (!path) continue;
        dumpi_error e;
        int orc;
        if (o->open_rank) {
            orc = o->open_rank(o->open_ctx, i, path, &r->f, &e);
        } else {
            dumpi_read_ahead_before(&ahead, i);
            orc = dumpi_file_open_window(path, window, &r->f, &e);
            dumpi_read_ahead_after(&ahead, i);
        }
        if (orc != DUMPI_OK) {
            status_clear(b); /* the opening line */
            fprintf(err_out, "slog2-build: error: %s\n", e.message);
            r->state = RANK_DONE;
            fatal = 1;
            break;
        }
        if (transient) dumpi_file_set_transient(r->f, 1);
        dumpi_file_skip_cpu_times(r->f); /* the timelines are wall time */
        dumpi_file_set_window(r->f, window);
        r->types = types_of(b, r->f);
        s->input_bytes += dumpi_file_size(r->f);
        uint64_t sb, se;
        dumpi_file_stream_range(r->f, &sb, &se);
        uint64_t size = dumpi_file_size(r->f), tail = se < size ? size - se : 0;
        r->tail = tail < UINT32_MAX ? (uint32_t)tail : UINT32_MAX;
        atomic_store_explicit(&r->pos, sb + r->tail, memory_order_relaxed);
        b->read_at_open += sb + r->tail;
        if (!take_footer(r, &fp, &per_block[i / block_ranks], b->sampled)) footers = false;
        if (!dumpi_file_has_index(r->f))
            build_warn(b, "%s: no index record at the end (rank %u killed mid-run?)", path, i);
    }
    if (!fatal) status_clear(b); /* the bar takes its place */
    for (uint32_t k = 0; k < n_blocks; k++) {
        b->footer_records += per_block[k].records;
        b->footer_rows += per_block[k].rows;
    }
    if (!footers) b->footer_records = 0; /* not known */
    b->summaries_from = summaries_from(per_block, n_blocks, b->n_ranks, block_ranks);
    g_free(per_block);
    const char *input = fatal ? NULL : input_named_by(b, meta, o->output);
    if (input) {
        fprintf(err_out, "slog2-build: error: %s: the output would replace the input %s; choose another -o\n",
                o->output, input);
        fatal = 1;
    }
    if (!fatal) {
        plan_clocks(b);
        sample_start(b);
        make_lanes(b);
        prime(b);
        if (atomic_load(&b->stop)) fatal = !report_ranks(b);
    }
    if (!fatal && !open_output(b, meta)) fatal = 1;
    if (!fatal) {
        seq_begin(b);
        b->t_pipeline = now_s();
        bool ran = pipeline_run(b);
        if (ran) seq_finish(b);
        /* The ranks first: a failed rank's error is the one that matters. */
        if (!report_ranks(b)) fatal = 1;
        if (!fatal && atomic_load(&b->stop)) {
            fprintf(err_out, "slog2-build: error: %s\n", b->werr.status ? b->werr.message : b->merr.message);
            fatal = 1;
        }
    }
    if (!fatal) {
        for (uint32_t i = 0; i < b->n_ranks; i++) {
            rank_in *r = &b->ranks[i];
            s->n_calls += r->n_calls;
            s->n_states += r->n_states;
            s->n_events += r->n_events;
            if (!r->f) continue;
            check_footer(b, r);
            for (guint k = 0; k < r->user_stack->len; k++) build_warn(b, "rank %u: user function never exited", i);
        }
        s->n_clamped = b->n_clamped;
        report_unmatched(b);
        build_progress(b, 1);
    }
    if (b->w) {
        slog_error werr;
        slog_file_info written;
        if (fatal) {
            slog_writer_abort(b->w);
        } else if (slog_writer_finish_info(b->w, &written, &werr) != SLOG_OK) {
            fprintf(err_out, "slog2-build: error: %s\n", werr.message);
            fatal = 1;
        } else { /* the writer's account: reading the file back costs a re-open */
            s->output_bytes = written.file_size;
            s->span_ns = written.t_max - written.t_min;
        }
        if (o->remove_on_signal) signals_disarm(); /* renamed or removed by now */
    }
    double t_start = b->t_start;
    if (o->leave_memory) {
        left_for_exit = bp;
    } else {
        free_builder(b);
        clock_plan_free(&b->clocks);
        g_free(bp);
    }
    s->seconds = now_s() - t_start;
    if (fatal) return BUILD_FAILED;
    if (s->n_warnings) rc = BUILD_WARNINGS;
    return rc;
}

void build_print_summary(const build_summary *s, const char *output, FILE *out)
{
    fprintf(out,
            "slog2-build: %s\n"
            "  ranks %u, timelines %u, MPI calls %" PRIu64 "\n"
            "  states %" PRIu64 ", events %" PRIu64 ", arrows %" PRIu64 " matched\n"
            "  unmatched: %" PRIu64 " sends, %" PRIu64 " receives, %" PRIu64 " other; %" PRIu64 " cancelled\n"
            "  span %.6f s, input %.1f MB, output %.1f MB (%.1f bytes/call)\n"
            "  %.3f s, %.2f M calls/s, %.1f MB/s%s\n",
            output, s->n_ranks, s->n_timelines, s->n_calls, s->n_states, s->n_events, s->n_arrows, s->n_unmatched_sends,
            s->n_unmatched_recvs, s->n_unmatched_other, s->n_cancelled, s->span_ns / 1e9, s->input_bytes / 1e6,
            s->output_bytes / 1e6, s->n_calls ? (double)s->output_bytes / s->n_calls : 0.0, s->seconds,
            s->seconds > 0 ? s->n_calls / s->seconds / 1e6 : 0.0,
            s->seconds > 0 ? s->input_bytes / s->seconds / 1e6 : 0.0, s->n_warnings ? ", with warnings" : "");
    if (s->clocks_aligned) {
        fprintf(out, "  clocks: %u host%s, aligned by MPI_Init and collectives (largest shift %.6f s", s->n_hosts,
                s->n_hosts == 1 ? "" : "s", s->max_clock_shift_ns / 1e9);
        if (s->max_clock_error_ns < INT64_MAX)
            fprintf(out, ", each within %.1f us)\n", s->max_clock_error_ns / 1e3);
        else
            fputs(", some only roughly: see time.clock_offsets_ns)\n", out);
    } else if (s->n_hosts > 1)
        fprintf(out, "  clocks: %u hosts, times as recorded (%s)\n", s->n_hosts,
                s->clocks_not_aligned ? s->clocks_not_aligned : "not aligned");
    if (s->n_clamped)
        fprintf(out, "  %" PRIu64 " drawables arrived late and were clamped to the written edge\n", s->n_clamped);
    /* How busy each thread was, and the parts only one can do at a time:
     * a chain of sequential steps bounds the build when it takes more than
     * a thread's share. */
    if (s->n_threads > 1) {
        fprintf(out, "  threads: %u%s; CPU s:", s->n_threads, s->pinned ? ", each on its own CPU" : "");
        for (uint32_t i = 0; i < s->n_threads; i++) fprintf(out, " %.3f", s->thread_cpu_s[i]);
        fputs("; waited s:", out);
        for (uint32_t i = 0; i < s->n_threads; i++) fprintf(out, " %.3f", s->thread_wait_s[i]);
        fprintf(out, "; sequential steps: match %.3f s, write %.3f s CPU\n", s->match_cpu_s, s->write_cpu_s);
    }
}
