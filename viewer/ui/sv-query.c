/* SPDX-License-Identifier: MIT */
/* sv-query.c - see sv-query.h. */
#include "sv-query.h"

#include <string.h>

#include "density.h"

G_DEFINE_QUARK(sv - error - quark, sv_error)

static int is_cancelled(void *user)
{
    return g_cancellable_is_cancelled(user);
}

static void return_slog_error(GTask *task, const slog_error *err)
{
    g_task_return_new_error(task, SV_ERROR, -err->status, "%s",
                            err->message[0] ? err->message : slog_strerror(err->status));
}

/* ------------------------------------------------------------ scene */

void sv_query_scan_density(sv_scene *s, slog_reader *r, const sv_search *q, unsigned gen, const uint8_t *want,
                           const uint8_t *visible, GCancellable *c)
{
    s->msg_filter_gen = gen;
    if (!q) return;
    sv_search_bound *b = sv_search_bind(q, r);
    slog_error err;
    if (b)
        s->msg_density = sv_density_scan(r, b, s->t0, s->t1, s->width, want, visible, SV_DENSITY_SCAN_BUDGET,
                                         c ? is_cancelled : NULL, c, &err);
    sv_search_bound_free(b);
}

typedef struct scene_job {
    SvDocRef *doc;
    double t0, t1;
    int width;
    uint8_t *want;
    gboolean filtered; /* count the messages matching msg_query (density.h) */
    sv_search msg_query;
    unsigned msg_gen;
    uint8_t *visible; /* the categories shown when the frame was asked for */
} scene_job;

static void scene_job_free(gpointer p)
{
    scene_job *j = p;
    sv_doc_ref_release(j->doc);
    g_free(j->want);
    g_free(j->visible);
    g_free(j);
}

static void scene_thread(GTask *task, gpointer src, gpointer data, GCancellable *c)
{
    scene_job *j = data;
    slog_error err;
    memset(&err, 0, sizeof err);
    sv_scene *s = sv_scene_query(j->doc->r, j->t0, j->t1, j->width, j->want, 0, c ? is_cancelled : NULL, c, &err);
    if (s) sv_query_scan_density(s, j->doc->r, j->filtered ? &j->msg_query : NULL, j->msg_gen, j->want, j->visible, c);
    if (s)
        g_task_return_pointer(task, s, (GDestroyNotify)sv_scene_free);
    else if (err.status == SLOG_OK)
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
    else
        return_slog_error(task, &err);
}

void sv_query_scene_async(SvDocRef *doc, double t0, double t1, int width, const uint8_t *want,
                          GCancellable *cancellable, GAsyncReadyCallback cb, gpointer user)
{
    scene_job *j = g_new0(scene_job, 1);
    j->doc = sv_doc_ref_acquire(doc);
    j->t0 = t0;
    j->t1 = t1;
    j->width = width;
    if (want) j->want = g_memdup2(want, doc->fi->n_timelines ? doc->fi->n_timelines : 1);
    j->msg_gen = doc->pal.msg_filter_gen;
    if (doc->pal.msg_filter) {
        j->filtered = TRUE;
        j->msg_query = *sv_search_bound_query(doc->pal.msg_filter);
        j->visible = g_memdup2(doc->pal.visible, doc->pal.n + 1);
    }
    GTask *task = g_task_new(NULL, cancellable, cb, user);
    g_task_set_task_data(task, j, scene_job_free);
    /* a newer frame makes this one useless: do not report it late */
    g_task_set_return_on_cancel(task, FALSE);
    g_task_run_in_thread(task, scene_thread);
    g_object_unref(task);
}

sv_scene *sv_query_scene_finish(GAsyncResult *res, GError **error)
{
    return g_task_propagate_pointer(G_TASK(res), error);
}

/* ------------------------------------------------------------ fold */

typedef struct fold_job {
    SvDocRef *doc;
    double t0, t1;
    int width;
    uint32_t first, last, rows;
    uint32_t *list, n_list; /* a fold of a list of timelines (rowfilter.h) */
} fold_job;

static void fold_job_free(gpointer p)
{
    fold_job *j = p;
    sv_doc_ref_release(j->doc);
    g_free(j->list);
    g_free(j);
}

static void fold_thread(GTask *task, gpointer src, gpointer data, GCancellable *c)
{
    fold_job *j = data;
    /* the view moved on before this job's turn: nothing is read */
    if (c && g_cancellable_is_cancelled(c)) {
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
        return;
    }
    slog_error err;
    memset(&err, 0, sizeof err);
    sv_fold *f = j->list ? sv_fold_query_list(j->doc->r, j->t0, j->t1, j->width, j->list, j->n_list, j->first, j->last,
                                              j->rows, &err)
                         : sv_fold_query(j->doc->r, j->t0, j->t1, j->width, j->first, j->last, j->rows, &err);
    if (f && c && g_cancellable_is_cancelled(c)) {
        sv_fold_free(f);
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
    } else if (f) {
        g_task_return_pointer(task, f, (GDestroyNotify)sv_fold_free);
    } else {
        return_slog_error(task, &err);
    }
}

void sv_query_fold_async(SvDocRef *doc, double t0, double t1, int width, uint32_t first, uint32_t last,
                         uint32_t max_rows, GCancellable *cancellable, GAsyncReadyCallback cb, gpointer user)
{
    sv_query_fold_list_async(doc, t0, t1, width, NULL, 0, first, last, max_rows, cancellable, cb, user);
}

void sv_query_fold_list_async(SvDocRef *doc, double t0, double t1, int width, const uint32_t *list, uint32_t n,
                              uint32_t first, uint32_t last, uint32_t max_rows, GCancellable *cancellable,
                              GAsyncReadyCallback cb, gpointer user)
{
    fold_job *j = g_new0(fold_job, 1);
    if (list && n) {
        j->list = g_memdup2(list, sizeof *list * n);
        j->n_list = n;
    }
    j->doc = sv_doc_ref_acquire(doc);
    j->t0 = t0;
    j->t1 = t1;
    j->width = width;
    j->first = first;
    j->last = last;
    j->rows = max_rows;
    GTask *task = g_task_new(NULL, cancellable, cb, user);
    g_task_set_task_data(task, j, fold_job_free);
    g_task_set_return_on_cancel(task, FALSE);
    g_task_run_in_thread(task, fold_thread);
    g_object_unref(task);
}

sv_fold *sv_query_fold_finish(GAsyncResult *res, GError **error)
{
    return g_task_propagate_pointer(G_TASK(res), error);
}

/* ------------------------------------------------------------ flows */

typedef struct flows_job {
    SvDocRef *doc;
    int64_t t0, t1;
    uint32_t n_slices, n_groups;
    uint32_t *group_first;
} flows_job;

static void flows_job_free(gpointer p)
{
    flows_job *j = p;
    sv_doc_ref_release(j->doc);
    g_free(j->group_first);
    g_free(j);
}

static void flows_thread(GTask *task, gpointer src, gpointer data, GCancellable *c)
{
    flows_job *j = data;
    slog_error err;
    memset(&err, 0, sizeof err);
    sv_flows *fl = sv_flows_compute(j->doc->r, j->t0, j->t1, j->n_slices, j->group_first, j->n_groups,
                                    c ? is_cancelled : NULL, c, &err);
    if (c && g_cancellable_is_cancelled(c)) {
        sv_flows_free(fl);
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
    } else if (fl) {
        g_task_return_pointer(task, fl, (GDestroyNotify)sv_flows_free);
    } else {
        return_slog_error(task, &err);
    }
}

void sv_query_flows_async(SvDocRef *doc, int64_t t0, int64_t t1, uint32_t n_slices, const uint32_t *group_first,
                          uint32_t n_groups, GCancellable *cancellable, GAsyncReadyCallback cb, gpointer user)
{
    flows_job *j = g_new0(flows_job, 1);
    j->doc = sv_doc_ref_acquire(doc);
    j->t0 = t0;
    j->t1 = t1;
    j->n_slices = n_slices;
    j->n_groups = n_groups;
    j->group_first = g_memdup2(group_first, sizeof *group_first * ((size_t)n_groups + 1));
    GTask *task = g_task_new(NULL, cancellable, cb, user);
    g_task_set_task_data(task, j, flows_job_free);
    g_task_set_return_on_cancel(task, FALSE);
    g_task_run_in_thread(task, flows_thread);
    g_object_unref(task);
}

sv_flows *sv_query_flows_finish(GAsyncResult *res, GError **error)
{
    return g_task_propagate_pointer(G_TASK(res), error);
}

/* ------------------------------------------------------------ stats */

typedef struct stats_job {
    SvDocRef *doc;
    int64_t t0, t1;
} stats_job;

static void stats_job_free(gpointer p)
{
    stats_job *j = p;
    sv_doc_ref_release(j->doc);
    g_free(j);
}

void sv_query_stats_free(sv_range_stats *st)
{
    if (!st) return;
    sv_range_stats_clear(st);
    g_free(st);
}

static void stats_thread(GTask *task, gpointer src, gpointer data, GCancellable *c)
{
    stats_job *j = data;
    sv_range_stats *st = g_new0(sv_range_stats, 1);
    slog_error err;
    memset(&err, 0, sizeof err);
    slog_status s = sv_range_stats_compute(j->doc->r, j->t0, j->t1, NULL, c ? is_cancelled : NULL, c, st, &err);
    if (s == SLOG_OK) {
        g_task_return_pointer(task, st, (GDestroyNotify)sv_query_stats_free);
        return;
    }
    g_free(st);
    if (s == SLOG_ERR_ARG)
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
    else
        return_slog_error(task, &err);
}

void sv_query_range_stats_async(SvDocRef *doc, int64_t t0, int64_t t1, GCancellable *cancellable,
                                GAsyncReadyCallback cb, gpointer user)
{
    stats_job *j = g_new0(stats_job, 1);
    j->doc = sv_doc_ref_acquire(doc);
    j->t0 = t0;
    j->t1 = t1;
    GTask *task = g_task_new(NULL, cancellable, cb, user);
    g_task_set_task_data(task, j, stats_job_free);
    g_task_run_in_thread(task, stats_thread);
    g_object_unref(task);
}

sv_range_stats *sv_query_range_stats_finish(GAsyncResult *res, GError **error)
{
    return g_task_propagate_pointer(G_TASK(res), error);
}

/* ------------------------------------------------------------ search */

typedef struct search_job {
    SvDocRef *doc;
    sv_search q;
    int64_t from;
    int dir;
} search_job;

static void search_job_free(gpointer p)
{
    search_job *j = p;
    sv_doc_ref_release(j->doc);
    g_free(j);
}

static void search_thread(GTask *task, gpointer src, gpointer data, GCancellable *c)
{
    search_job *j = data;
    sv_found *f = g_new0(sv_found, 1);
    slog_error err;
    memset(&err, 0, sizeof err);
    int rc = sv_search_find(j->doc->r, &j->q, j->from, j->dir, c ? is_cancelled : NULL, c, f, &err);
    if (rc == 1) {
        g_task_return_pointer(task, f, g_free);
        return;
    }
    g_free(f);
    if (rc < 0)
        return_slog_error(task, &err);
    else
        g_task_return_pointer(task, NULL, NULL);
}

void sv_query_search_async(SvDocRef *doc, const sv_search *q, int64_t from, int dir, GCancellable *cancellable,
                           GAsyncReadyCallback cb, gpointer user)
{
    search_job *j = g_new0(search_job, 1);
    j->doc = sv_doc_ref_acquire(doc);
    j->q = *q;
    j->from = from;
    j->dir = dir;
    GTask *task = g_task_new(NULL, cancellable, cb, user);
    g_task_set_task_data(task, j, search_job_free);
    g_task_run_in_thread(task, search_thread);
    g_object_unref(task);
}

sv_found *sv_query_search_finish(GAsyncResult *res, gboolean *found, GError **error)
{
    GError *e = NULL;
    sv_found *f = g_task_propagate_pointer(G_TASK(res), &e);
    if (e) g_propagate_error(error, e);
    if (found) *found = f != NULL;
    return f;
}

/* ------------------------------------------------------------ analyse */

typedef struct analyse_job {
    SvDocRef *doc;
    slog_analysis_query q;
    slog_query_stats stats;
    double ms;
} analyse_job;

static void analyse_job_free(gpointer p)
{
    analyse_job *j = p;
    sv_doc_ref_release(j->doc);
    g_free(j);
}

static void analyse_thread(GTask *task, gpointer src, gpointer data, GCancellable *c)
{
    analyse_job *j = data;
    if (c && g_cancellable_is_cancelled(c)) {
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
        return;
    }
    slog_error err;
    memset(&err, 0, sizeof err);
    slog_analysis *a = NULL;
    gint64 t = g_get_monotonic_time();
    if (slog_reader_analyse(j->doc->r, &j->q, &a, &j->stats, &err) == SLOG_OK) {
        j->ms = (double)(g_get_monotonic_time() - t) / 1000.0;
        g_task_return_pointer(task, a, (GDestroyNotify)slog_analysis_free);
    } else {
        return_slog_error(task, &err);
    }
}

void sv_query_analyse_async(SvDocRef *doc, int64_t t0, int64_t t1, uint32_t flags, GCancellable *cancellable,
                            GAsyncReadyCallback cb, gpointer user)
{
    analyse_job *j = g_new0(analyse_job, 1);
    j->doc = sv_doc_ref_acquire(doc);
    j->q.t0 = t0;
    j->q.t1 = t1;
    j->q.flags = flags;
    GTask *task = g_task_new(NULL, cancellable, cb, user);
    g_task_set_task_data(task, j, analyse_job_free);
    g_task_run_in_thread(task, analyse_thread);
    g_object_unref(task);
}

slog_analysis *sv_query_analyse_finish(GAsyncResult *res, slog_query_stats *stats, double *ms, GError **error)
{
    const analyse_job *j = g_task_get_task_data(G_TASK(res));
    slog_analysis *a = g_task_propagate_pointer(G_TASK(res), error);
    if (stats) *stats = a ? j->stats : (slog_query_stats){0};
    if (ms) *ms = a ? j->ms : 0;
    return a;
}

/* ------------------------------------------------------------ open */

static void open_thread(GTask *task, gpointer src, gpointer data, GCancellable *c)
{
    slog_error err;
    memset(&err, 0, sizeof err);
    SvDocRef *d = sv_doc_ref_open(data, &err);
    if (d)
        g_task_return_pointer(task, d, (GDestroyNotify)sv_doc_ref_release);
    else
        return_slog_error(task, &err);
}

void sv_query_open_async(const char *path, GCancellable *cancellable, GAsyncReadyCallback cb, gpointer user)
{
    GTask *task = g_task_new(NULL, cancellable, cb, user);
    g_task_set_task_data(task, g_strdup(path), g_free);
    g_task_run_in_thread(task, open_thread);
    g_object_unref(task);
}

SvDocRef *sv_query_open_finish(GAsyncResult *res, GError **error)
{
    return g_task_propagate_pointer(G_TASK(res), error);
}
