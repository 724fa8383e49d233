/* SPDX-License-Identifier: MIT */
/* test_metadata.c - metadata round trip: categories (names, groups, rgba,
 * fields), timelines (rank, thread, label, group), annotations, category
 * stats (count, total_ns), file info counts and span, directory entries. */
#include "testutil.h"

#include <inttypes.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
    char *dir = t_mkdtemp("metadata");
    char *path = t_path(dir, "meta.slog2");
    CHECK_CONTEXT("metadata test, file %s", path);

    t_model m;
    t_model_init(&m);
    /* categories: every kind, 0..SLOG_MAX_FIELDS fields, every field type,
     * odd strings (empty group, UTF-8, long name) */
    static const char *names[] = {
        "MPI_Send", "MPI_Recv",       "message", "MPI_Barrier", "\xc3\xa9v\xc3\xa9nement \xe2\x86\x92",
        "x",        "no fields event"};
    static const slog_kind kinds[] = {SLOG_KIND_STATE, SLOG_KIND_STATE, SLOG_KIND_ARROW, SLOG_KIND_STATE,
                                      SLOG_KIND_EVENT, SLOG_KIND_STATE, SLOG_KIND_EVENT};
    static const uint32_t nf[] = {3, 0, 5, SLOG_MAX_FIELDS, 1, 2, 0};
    for (unsigned i = 0; i < 7; i++) {
        uint32_t id = t_model_add_cat(&m, kinds[i], names[i], nf[i]);
        t_cat *c = &m.cats[id];
        snprintf(c->group, sizeof c->group, "%s", i == 0 ? "" : i % 2 ? "point-to-point" : "collective");
        c->rgba = i == 0 ? 0xFFFFFFFFu : i == 1 ? 0 : 0x12345678u * (i + 1);
        for (uint32_t f = 0; f < c->n_fields; f++) {
            snprintf(c->field_name_buf[f], sizeof c->field_name_buf[f], "%s_f%u", i == 4 ? "\xe2\x82\xac" : "fld", f);
            c->field_types[f] = (uint8_t)((f + i) % 5);
        }
    }
    /* a long category name */
    uint32_t longcat = t_model_add_cat(&m, SLOG_KIND_STATE, "", 0);
    memset(m.cats[longcat].name, 'L', sizeof m.cats[longcat].name - 1);

    for (uint32_t i = 0; i < 9; i++) {
        uint32_t id = t_model_add_tl(&m, i == 8 ? UINT32_MAX : i * 3, i % 3);
        if (i == 2) m.tls[id].group[0] = 0;
        if (i == 3) m.tls[id].label[0] = 0;
    }
    t_model_add_ann(&m, "program", "slog2 test");
    t_model_add_ann(&m, "empty", "");
    t_model_add_ann(&m, "utf8 \xe2\x9c\x93", "\xe2\x9c\x93 ok");
    t_model_add_ann(&m, "dumpi.version", "0.6.5");

    /* drawables with known durations per category */
    uint64_t cnt[16] = {0};
    int64_t tot[16] = {0};
    t_rng r = {7};
    for (int i = 0; i < 500; i++) {
        t_draw *d = t_model_push(&m);
        d->cat = (uint32_t)t_below(&r, m.n_cats);
        d->kind = m.cats[d->cat].kind;
        d->tl = d->etl = (uint32_t)t_below(&r, m.n_tls);
        d->start = t_range(&r, 0, 1000000);
        d->end = d->kind == SLOG_KIND_EVENT ? d->start : d->start + t_range(&r, 0, 50000);
        if (d->kind == SLOG_KIND_ARROW) {
            d->etl = (uint32_t)t_below(&r, m.n_tls);
            if (i % 5 == 0) d->end = d->start - t_range(&r, 0, d->start); /* received "before" sent */
        }
        d->n_info = m.cats[d->cat].n_fields;
        for (uint32_t f = 0; f < d->n_info; f++)
            d->info[f] = f % 3 == 0 ? SLOG_INFO_UNKNOWN : f % 3 == 1 ? INT64_MAX : -(int64_t)f;
        cnt[d->cat]++;
        if (d->kind == SLOG_KIND_STATE) tot[d->cat] += d->end - d->start;
    }
    t_model_sort_end_order(&m);

    slog_writer_options o;
    slog_writer_options_init(&o);
    o.time_origin_ns = 1700000000123456789ll;
    slog_error err;
    /* Written as t_model_write() does, finishing with the info the
     * writer reports, which must be what a reader of the file sees. */
    slog_writer *w = NULL;
    CHECK_OK(t_model_open_writer(&m, path, &o, &w, &err), &err);
    for (size_t i = 0; i < m.n; i++) {
        const t_draw *td = &m.d[i];
        slog_drawable sd = {td->kind, td->cat, td->tl, td->etl, td->start, td->end, td->n_info, td->info};
        CHECK_OK(slog_writer_add(w, &sd), slog_writer_error(w));
    }
    slog_file_info written;
    memset(&written, 0xa5, sizeof written);
    CHECK_OK(slog_writer_finish_info(w, &written, &err), &err);

    slog_reader *rd = NULL;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);
    CHECK(strcmp(slog_reader_path(rd), path) == 0);
    const slog_file_info *fi = slog_reader_info(rd);
    struct stat sb;
    CHECK(stat(path, &sb) == 0);
    CHECKF(fi->file_size == (uint64_t)sb.st_size, "file_size %" PRIu64 " vs stat %lld", fi->file_size,
           (long long)sb.st_size);
    /* The blocks the writer reserved past the end (at least 4 MiB where
     * the file system lets it) were given back: a small file holds about
     * its size. */
    CHECKF((uint64_t)sb.st_blocks * 512 <= (uint64_t)sb.st_size + (1u << 20), "%lld bytes allocated for %lld",
           (long long)sb.st_blocks * 512, (long long)sb.st_size);
    CHECK(fi->version_major == SLOG_FORMAT_MAJOR && fi->version_minor == SLOG_FORMAT_MINOR);
    CHECKF(written.file_size == fi->file_size && written.t_min == fi->t_min && written.t_max == fi->t_max &&
               written.n_drawables == fi->n_drawables && written.n_states == fi->n_states &&
               written.n_arrows == fi->n_arrows && written.n_events == fi->n_events && written.n_nodes == fi->n_nodes &&
               written.depth == fi->depth && written.leaf_shift == fi->leaf_shift &&
               written.preview_bins == fi->preview_bins && written.flags == fi->flags &&
               written.version_major == fi->version_major && written.version_minor == fi->version_minor &&
               written.time_origin_ns == fi->time_origin_ns && written.n_categories == fi->n_categories &&
               written.n_timelines == fi->n_timelines && written.n_annotations == fi->n_annotations &&
               written.children_per_node == fi->children_per_node,
           "slog_writer_finish_info: size %" PRIu64 "/%" PRIu64 " drawables %" PRIu64 "/%" PRIu64, written.file_size,
           fi->file_size, written.n_drawables, fi->n_drawables);
    CHECK(fi->time_origin_ns == o.time_origin_ns);
    CHECK(fi->n_categories == m.n_cats && fi->n_timelines == m.n_tls && fi->n_annotations == m.n_ann);
    uint64_t ns = 0, na = 0, ne = 0;
    int64_t tmin = INT64_MAX, tmax = INT64_MIN;
    for (size_t i = 0; i < m.n; i++) {
        ns += m.d[i].kind == SLOG_KIND_STATE;
        na += m.d[i].kind == SLOG_KIND_ARROW;
        ne += m.d[i].kind == SLOG_KIND_EVENT;
        tmin = t_dlo(&m.d[i]) < tmin ? t_dlo(&m.d[i]) : tmin;
        tmax = t_dhi(&m.d[i]) > tmax ? t_dhi(&m.d[i]) : tmax;
    }
    CHECK(fi->n_drawables == m.n);
    CHECKF(fi->n_states == ns && fi->n_arrows == na && fi->n_events == ne,
           "states %" PRIu64 "/%" PRIu64 " arrows %" PRIu64 "/%" PRIu64 " events %" PRIu64 "/%" PRIu64, fi->n_states,
           ns, fi->n_arrows, na, fi->n_events, ne);
    CHECKF(fi->t_min == tmin && fi->t_max == tmax, "t_min %" PRId64 "/%" PRId64 " t_max %" PRId64 "/%" PRId64,
           fi->t_min, tmin, fi->t_max, tmax);

    for (uint32_t i = 0; i < m.n_cats; i++) {
        const slog_category *c = slog_reader_category(rd, i);
        const t_cat *e = &m.cats[i];
        CHECK(c != NULL);
        CHECKF(c->kind == e->kind && strcmp(c->name, e->name) == 0 && strcmp(c->group, e->group) == 0 &&
                   c->rgba == e->rgba && c->n_fields == e->n_fields,
               "category %u: kind %d name '%s' group '%s' rgba %08x fields %u", i, (int)c->kind, c->name, c->group,
               c->rgba, c->n_fields);
        for (uint32_t f = 0; f < e->n_fields; f++)
            CHECKF(strcmp(c->field_names[f], e->field_name_buf[f]) == 0 && c->field_types[f] == e->field_types[f],
                   "category %u field %u: '%s' type %u", i, f, c->field_names[f], c->field_types[f]);
        const slog_category_stats *s = slog_reader_category_stats(rd, i);
        CHECK(s != NULL);
        CHECKF(s->count == cnt[i], "category %u count %" PRIu64 " expected %" PRIu64, i, s->count, cnt[i]);
        if (e->kind == SLOG_KIND_STATE)
            CHECKF(s->total_ns == tot[i], "category %u total_ns %" PRId64 " expected %" PRId64, i, s->total_ns, tot[i]);
    }
    CHECKF(slog_reader_category(rd, m.n_cats) == NULL, "slog_reader_category(out of range) is not NULL");
    CHECKF(slog_reader_category_stats(rd, m.n_cats) == NULL, "slog_reader_category_stats(out of range) is not NULL");
    CHECKF(slog_reader_timeline(rd, m.n_tls) == NULL, "slog_reader_timeline(out of range) is not NULL");

    for (uint32_t i = 0; i < m.n_tls; i++) {
        const slog_timeline *t = slog_reader_timeline(rd, i);
        CHECK(t != NULL);
        CHECKF(t->rank == m.tls[i].rank && t->thread == m.tls[i].thread && strcmp(t->label, m.tls[i].label) == 0 &&
                   strcmp(t->group, m.tls[i].group) == 0,
               "timeline %u: rank %u thread %u label '%s' group '%s'", i, t->rank, t->thread, t->label, t->group);
    }

    for (uint32_t i = 0; i < m.n_ann; i++) {
        const char *k = NULL, *v = NULL;
        CHECK_OK(slog_reader_annotation(rd, i, &k, &v), NULL);
        CHECKF(k && v && strcmp(k, m.ann_key[i]) == 0 && strcmp(v, m.ann_val[i]) == 0, "annotation %u: '%s'='%s'", i,
               k ? k : "(null)", v ? v : "(null)");
        const char *g = slog_reader_annotation_get(rd, m.ann_key[i]);
        CHECK(g && strcmp(g, m.ann_val[i]) == 0);
    }
    {
        const char *k = NULL, *v = NULL;
        CHECK(slog_reader_annotation(rd, m.n_ann, &k, &v) != SLOG_OK);
        CHECK(slog_reader_annotation_get(rd, "no such key") == NULL);
    }

    /* directory: level descending then index, node intervals, counts */
    uint64_t sum = 0, root_subtree = 0;
    slog_node_info prev = {0};
    for (uint64_t i = 0; i < fi->n_nodes; i++) {
        slog_node_info ni;
        CHECK_OK(slog_reader_node(rd, i, &ni), NULL);
        CHECK(ni.level < fi->depth);
        int s = fi->leaf_shift + (int)ni.level;
        CHECK(s < 63);
        CHECKF(ni.lo == (int64_t)(ni.index << s) && ni.hi == (int64_t)((ni.index + 1) << s),
               "node %" PRIu64 " level %u index %" PRIu64 " lo %" PRId64 " hi %" PRId64, i, ni.level, ni.index, ni.lo,
               ni.hi);
        if (i > 0)
            CHECKF(ni.level < prev.level || (ni.level == prev.level && ni.index > prev.index),
                   "directory order: entry %" PRIu64 " (level %u index %" PRIu64 ") after (level %u index %" PRIu64 ")",
                   i, ni.level, ni.index, prev.level, prev.index);
        else
            CHECK(ni.level == fi->depth - 1);
        CHECK(ni.offset + ni.size <= fi->file_size && ni.size > 0);
        CHECK(ni.n_subtree >= ni.n_drawables);
        if (ni.level == fi->depth - 1) root_subtree += ni.n_subtree;
        sum += ni.n_drawables;
        prev = ni;
    }
    CHECK(slog_reader_node(rd, fi->n_nodes, &prev) != SLOG_OK);
    CHECKF(sum == m.n, "sum of node n_drawables %" PRIu64 " vs %zu", sum, m.n);
    CHECKF(root_subtree == m.n, "root n_subtree %" PRIu64 " vs %zu", root_subtree, m.n);

    /* the drawables themselves */
    t_index ix;
    t_model_index_by_lo(&m, &ix);
    slog_query q = {INT64_MIN / 2, INT64_MAX / 2, NULL, 0, 0};
    t_result res = {0};
    slog_query_stats st;
    CHECK_OK(slog_reader_query(rd, &q, t_res_drawable, t_res_preview, &res, &st, &err), &err);
    t_verify_query(&m, &ix, fi, &q, &res, &st);
    t_result_free(&res);
    CHECK_OK(slog_reader_check(rd, &st, &err), &err);
    CHECK(st.nodes_read == fi->n_nodes || st.nodes_read >= fi->n_nodes);
    CHECK(slog_reader_bytes_read(rd) > 0 && slog_reader_nodes_read(rd) > 0);
    t_index_free(&ix);
    slog_reader_close(rd);

    t_model_free(&m);
    t_rmtree(dir);
    free(path);
    free(dir);
    printf("PASS\n");
    return 0;
}
