/* SPDX-License-Identifier: MIT */
/* test_scene.c - preview-to-pixel aggregation, nesting depth, hit testing
 * (pure), then queries, range statistics and search on a generated file
 * compared with a brute-force model of what gen.c wrote. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aggregate.h"
#include "analysis.h"
#include "check.h"
#include "density.h"
#include "gen.h"
#include "scene.h"

/* The range queries of the search test, written out by hand. */
static int model_match(int i, const slog_drawable *d)
{
    int64_t dur = d->end > d->start ? d->end - d->start : d->start - d->end;
    int msg = d->category == GEN_CAT_MSG && d->n_info == 3;
    switch (i) {
    case 0: return msg && d->info[1] > 4096;
    case 1: return msg && d->info[1] <= 2048;
    case 2: return msg && dur > 20000;
    case 3: return d->category == GEN_CAT_SEND && dur < 30000;
    case 4: return msg && (d->timeline == 3 || d->end_timeline == 3);
    case 5: return msg && (d->timeline >= 6 || d->end_timeline >= 6) && d->info[0] == 1;
    default: return d->category == GEN_CAT_CHECKPOINT;
    }
}

typedef struct model_count {
    const sv_search_bound *b;
    int i;
    int64_t at;
    uint64_t total, before, all, disagree;
} model_count;

static slog_cb_result model_count_cb(void *user, const slog_drawable *d)
{
    model_count *m = user;
    m->all++;
    int want = model_match(m->i, d);
    if (want != sv_search_bound_match(m->b, d->kind, d->category, d->timeline, d->end_timeline, d->start, d->end,
                                      d->info, d->n_info))
        m->disagree++;
    if (want) {
        m->total++;
        m->before += d->start < m->at;
    }
    return SLOG_CONTINUE;
}

static void test_aggregate(void)
{
    float cols[10];
    /* 4 bins of 25 ns over [0,100); columns 50 ns wide from t0=0 */
    float v[4] = {1, 0.5f, 0, 1};
    memset(cols, 0, sizeof cols);
    sv_aggregate_bins(cols, 10, 0, 50, 0, 100, 4, v, SV_AGG_FRACTION);
    CHECK_NEAR(cols[0], 0.75, 1e-6); /* (1*25 + 0.5*25) / 50 */
    CHECK_NEAR(cols[1], 0.5, 1e-6);
    CHECK_NEAR(cols[2], 0, 0);
    /* a bin straddling two columns splits by overlap */
    memset(cols, 0, sizeof cols);
    float one = 1;
    sv_aggregate_bins(cols, 10, 0, 10, 5, 15, 1, &one, SV_AGG_FRACTION);
    CHECK_NEAR(cols[0], 0.5, 1e-6);
    CHECK_NEAR(cols[1], 0.5, 1e-6);
    /* counts are conserved */
    memset(cols, 0, sizeof cols);
    float c[3] = {3, 0, 6};
    sv_aggregate_bins(cols, 10, 0, 7, 0, 30, 3, c, SV_AGG_COUNT);
    double sum = 0;
    for (int i = 0; i < 10; i++) sum += cols[i];
    CHECK_NEAR(sum, 9, 1e-5);
    CHECK_NEAR(cols[0], 3 * 7.0 / 10, 1e-5);
    /* outside the window: dropped; window offset t0 */
    memset(cols, 0, sizeof cols);
    sv_aggregate_bins(cols, 10, 1000, 10, 0, 100, 4, v, SV_AGG_FRACTION);
    for (int i = 0; i < 10; i++) CHECK(cols[i] == 0);
    sv_aggregate_bins(cols, 10, 1000, 10, 990, 1010, 2, v, SV_AGG_FRACTION);
    CHECK_NEAR(cols[0], 0.5, 1e-6); /* second bin (0.5) covers column 0 */
    /* intervals */
    memset(cols, 0, sizeof cols);
    sv_aggregate_interval(cols, 10, 0, 10, 15, 35, 1);
    CHECK_NEAR(cols[1], 0.5, 1e-6);
    CHECK_NEAR(cols[2], 1, 1e-6);
    CHECK_NEAR(cols[3], 0.5, 1e-6);
    /* degenerate input is ignored */
    sv_aggregate_bins(cols, 10, 0, 0, 0, 100, 4, v, SV_AGG_FRACTION);
    sv_aggregate_bins(cols, 10, 0, 10, 100, 100, 4, v, SV_AGG_FRACTION);
}

static void add(sv_scene *s, slog_kind k, uint32_t cat, uint32_t tl, uint32_t etl, int64_t a, int64_t b)
{
    slog_drawable d = {k, cat, tl, etl, a, b, 0, NULL};
    CHECK(sv_scene_add_item(s, &d) == 0);
}

static void test_scene_pure(void)
{
    uint8_t kinds[3] = {SLOG_KIND_STATE, SLOG_KIND_ARROW, SLOG_KIND_EVENT};
    sv_scene *s = sv_scene_new(0, 1000, 100, 2, 3, kinds);
    /* timeline 0: outer [100,600] with nested [200,300] and [250,280] */
    add(s, SLOG_KIND_STATE, 0, 0, 0, 200, 300);
    add(s, SLOG_KIND_STATE, 0, 0, 0, 100, 600);
    add(s, SLOG_KIND_STATE, 0, 0, 0, 250, 280);
    add(s, SLOG_KIND_STATE, 0, 1, 1, 700, 800);
    add(s, SLOG_KIND_ARROW, 1, 0, 1, 400, 450);
    add(s, SLOG_KIND_EVENT, 2, 1, 1, 900, 900);
    slog_preview_row row = {1, 0, (const float[]){1, 1}};
    slog_preview p = {0, 100, 0, 2, 1, &row, 0};
    CHECK(sv_scene_add_preview(s, &p) == 0);
    CHECK(sv_scene_finish(s) == 0);
    CHECK(s->items[0].depth == 1);
    CHECK(s->items[1].depth == 0);
    CHECK(s->items[2].depth == 2);
    CHECK(s->items[3].depth == 0);
    CHECK(s->max_depth == 2);
    /* draw order: states by depth, then events, then arrows */
    CHECK(s->items[s->order[0]].depth == 0);
    CHECK(s->items[s->order[s->n_items - 1]].kind == SLOG_KIND_ARROW);
    const float *cols = sv_scene_cols(s, 1, 0);
    CHECK(cols && cols[0] == 1 && cols[9] == 1 && cols[10] == 0);
    CHECK(sv_scene_cols(s, 0, 0) == NULL);
    CHECK(s->tl_first_slot[1] == 0 && s->tl_first_slot[2] == 1);

    /* geometry: 1000 px for 1000 ns, rows of 30 px, no groups */
    sv_viewport vp;
    sv_viewport_init(&vp, 0, 1000, 1000);
    sv_layout lay;
    sv_layout_build(&lay, 2, NULL, NULL, 0, 1, 30, 10);
    sv_geom g = {&vp, &lay, 0, NULL};
    /* deepest state under the pointer */
    CHECK(sv_scene_hit(s, &g, NULL, 260, 15) == 2);
    CHECK(sv_scene_hit(s, &g, NULL, 220, 15) == 0);
    CHECK(sv_scene_hit(s, &g, NULL, 150, 15) == 1);
    /* near the top edge only the outer state is there (nested are inset) */
    CHECK(sv_scene_hit(s, &g, NULL, 260, 2) == 1);
    CHECK(sv_scene_hit(s, &g, NULL, 650, 15) == -1);
    /* arrow from (400, 15) to (450, 45): its midpoint wins over the state */
    CHECK(sv_scene_hit(s, &g, NULL, 425, 30) == 4);
    /* event marker on timeline 1 at x=900 */
    double ex, ey;
    CHECK(sv_geom_event(&g, &s->items[5], &ex, &ey));
    CHECK(sv_scene_hit(s, &g, NULL, 901, ey + 1) == 5);
    /* hidden categories are not hit */
    uint8_t vis[3] = {0, 1, 1};
    CHECK(sv_scene_hit(s, &g, vis, 150, 15) == -1);
    /* scrolling moves rows up */
    g.scroll_y = 30;
    CHECK(sv_scene_hit(s, &g, NULL, 750, 15) == 3);
    CHECK_NEAR(sv_segment_distance(0, 5, -10, 0, 10, 0), 5, 1e-12);
    CHECK_NEAR(sv_segment_distance(20, 0, -10, 0, 10, 0), 10, 1e-12);
    sv_layout_clear(&lay);
    sv_scene_free(s);
}

typedef struct model {
    uint64_t n_by_cat[GEN_N_CATS];
} model;

static slog_cb_result count_cb(void *user, const slog_drawable *d)
{
    ((model *)user)->n_by_cat[d->category]++;
    return SLOG_CONTINUE;
}

/* The scene's query leaves out the fields of the drawables it folds into
 * columns (SLOG_QUERY_NARROW_NO_INFO); every item it keeps must still have
 * all of them, or its tooltip and popover would show none. */
static void check_item_info(slog_reader *r, const sv_scene *s)
{
    for (size_t i = 0; i < s->n_items; i++) {
        const sv_item *it = &s->items[i];
        uint32_t nf = slog_reader_category(r, it->category)->n_fields;
        if (it->n_info != nf || it->info_off + it->n_info > s->n_info) {
            fprintf(stderr, "item %zu (category %u, %lld..%lld ns, pixel %.1f ns): %u of %u fields\n", i, it->category,
                    (long long)it->start, (long long)it->end, s->pixel_ns, it->n_info, nf);
            CHECK(it->n_info == nf);
            return;
        }
    }
}

/* Arrows of the generated file by sender timeline, those with sender or
 * receiver on timeline `peer` (a ring: only two senders). */
typedef struct peer_model {
    uint32_t peer;
    uint64_t by_sender[8];
    uint64_t all;
} peer_model;

static slog_cb_result peer_cb(void *user, const slog_drawable *d)
{
    peer_model *m = user;
    if (d->kind != SLOG_KIND_ARROW) return SLOG_CONTINUE;
    m->all++;
    if ((d->timeline == m->peer || d->end_timeline == m->peer) && d->timeline < 8) m->by_sender[d->timeline]++;
    return SLOG_CONTINUE;
}

/* The message filter, the density band and the column description. */
static void test_density(slog_reader *r)
{
    const slog_file_info *fi = slog_reader_info(r);
    slog_error err = {0};
    sv_search q;
    CHECK(sv_search_parse("peer=3", &q) == 0);
    sv_search_bound *f = sv_search_bind(&q, r);
    CHECK(f != NULL);
    if (!f) return;
    peer_model pm = {.peer = 3};
    slog_query all = {.t0 = fi->t_min, .t1 = fi->t_max, .flags = SLOG_QUERY_NO_PREVIEW};
    CHECK(slog_reader_query(r, &all, peer_cb, NULL, &pm, NULL, &err) == SLOG_OK);
    CHECK(pm.by_sender[2] > 0 && pm.by_sender[3] > 0 && pm.by_sender[0] == 0);

    /* counted from every drawable: the model's numbers, by sender */
    double t0 = (double)fi->t_min, t1 = (double)fi->t_max + 1;
    sv_density *d = sv_density_scan(r, f, t0, t1, 200, NULL, NULL, UINT64_MAX, NULL, NULL, &err);
    CHECK(d != NULL);
    if (d) {
        for (uint32_t tl = 0; tl < 8; tl++) {
            double sum = 0;
            for (int i = 0; i < 200; i++) sum += d->drawn[tl * 200 + (uint32_t)i];
            CHECK(sum == (double)pm.by_sender[tl]);
        }
        CHECK(d->max >= 1 && !d->folded_unfiltered);
    }
    /* a budget too small gives up rather than undercount */
    CHECK(sv_density_scan(r, f, t0, t1, 200, NULL, NULL, 10, NULL, NULL, &err) == NULL && err.status == SLOG_OK);
    /* a hidden message category is not counted; the other timelines are
     * left out when only some are wanted */
    uint8_t vis[GEN_N_CATS] = {1, 1, 1, 1, 0, 1}, want[8] = {0, 0, 1, 0, 0, 0, 0, 0};
    sv_density *h = sv_density_scan(r, f, t0, t1, 200, NULL, vis, UINT64_MAX, NULL, NULL, &err);
    CHECK(h && h->n_drawn == 0 && h->max == 0);
    sv_density_free(h);
    h = sv_density_scan(r, f, t0, t1, 200, want, NULL, UINT64_MAX, NULL, NULL, &err);
    CHECK(h && h->n_drawn == pm.by_sender[2]);
    /* counts kept for the wanted timelines only, as the whole file's */
    CHECK(h && h->tl_first == 2 && h->n_timelines == 1);
    if (h && d && h->n_timelines == 1) CHECK(memcmp(h->drawn, d->drawn + 2 * 200, 200 * sizeof(float)) == 0);
    sv_density_free(h);

    /* zoomed out: the arrows are folded into columns; the scene's density
     * conserves their count; with a filter the folded part is marked */
    sv_palette pal;
    CHECK(sv_palette_init(&pal, r) == 0);
    sv_scene *s = sv_scene_query(r, t0, t1, 200, NULL, 0, NULL, NULL, &err);
    CHECK(s != NULL);
    if (s && d) {
        sv_density tmp;
        int show;
        const sv_density *sd = sv_density_for(s, &pal, &tmp, &show);
        CHECK(sd == &tmp && show && tmp.n_folded > 0 && !tmp.folded_unfiltered);
        CHECK(fabs(tmp.n_folded + (double)tmp.n_drawn - (double)pm.all) < 0.5);
        /* a scene of some timelines: counts over the span of its
         * messages' senders only, the wanted ones' as the whole scene's */
        uint8_t some[8] = {0, 0, 1, 1, 0, 1, 0, 0};
        sv_scene *s2 = sv_scene_query(r, t0, t1, 200, some, 0, NULL, NULL, &err);
        sv_density part;
        CHECK(s2 != NULL && sv_density_build(&part, s2, &pal) == 0);
        /* the span holds every sender of the scene's messages (some sent
         * to the wanted timelines from others) */
        for (size_t k = 0; s2 && k < s2->n_items; k++)
            if (s2->items[k].kind == SLOG_KIND_ARROW) CHECK(s2->items[k].timeline - part.tl_first < part.n_timelines);
        CHECKF(part.tl_first <= 2 && part.tl_first + part.n_timelines >= 6 && part.n_timelines < fi->n_timelines,
               "%u + %u", part.tl_first, part.n_timelines);
        for (uint32_t tl = 2; s2 && part.tl_first <= 2 && tl < 6; tl++) {
            if (!some[tl] || tl - part.tl_first >= part.n_timelines) continue;
            size_t a = (size_t)(tl - part.tl_first) * 200, b = (size_t)tl * 200;
            CHECK(memcmp(part.drawn + a, tmp.drawn + b, 200 * sizeof(float)) == 0);
            CHECK(memcmp(part.folded + a, tmp.folded + b, 200 * sizeof(float)) == 0);
        }
        sv_density_clear(&part);
        sv_scene_free(s2);
        sv_density_clear(&tmp);
        pal.msg_filter = f;
        pal.msg_filter_gen = 7;
        sd = sv_density_for(s, &pal, &tmp, &show);
        CHECK(sd == &tmp && tmp.folded_unfiltered); /* no scan for this filter yet */
        sv_density_clear(&tmp);
        s->msg_density = d;
        s->msg_filter_gen = 7;
        d = NULL;
        CHECK(sv_density_for(s, &pal, &tmp, &show) == s->msg_density && show);
        sv_density_clear(&tmp);
        pal.msg_filter_gen = 8; /* another filter since */
        CHECK(sv_density_for(s, &pal, &tmp, &show) == &tmp);
        sv_density_clear(&tmp);

        /* a column of a row: its span, the states' shares, its messages */
        char buf[1024];
        int col = -1;
        for (int i = 0; i < 200 && col < 0; i++)
            if (s->msg_density->drawn[3 * 200 + (uint32_t)i] > 0) col = i;
        CHECK(col >= 0);
        CHECK(sv_column_describe(s, &pal, NULL, s->msg_density, 0, 3, col, buf, sizeof buf) == 0);
        CHECK(strstr(buf, "% of the time") && strstr(buf, "messages sent") && strstr(buf, " – "));
        const char *names[GEN_N_CATS] = {"MPI_Send", "MPI_Recv", "MPI_Allreduce", "MPI_Wait", "message", "Checkpoint"};
        CHECK(sv_column_describe(s, &pal, names, s->msg_density, 0, 3, col, buf, sizeof buf) == 0);
        CHECK(strstr(buf, "MPI_") != NULL);
        CHECK(sv_column_describe(s, &pal, names, NULL, 0, 99, col, buf, sizeof buf) == -1 && buf[0] == 0);
    }
    sv_scene_free(s);
    sv_density_free(d);

    /* zoomed in: an arrow drawn as itself is hit, unless the filter
     * rejects it */
    s = sv_scene_query(r, 100000000, 101000000, 1000, NULL, 0, NULL, NULL, &err);
    CHECK(s != NULL);
    if (s) {
        sv_viewport vp;
        sv_viewport_init(&vp, 100000000, 101000000, 1000);
        sv_layout lay;
        sv_layout_build(&lay, 8, NULL, NULL, 0, 7, 30, 10);
        long arrow = -1;
        for (size_t k = 0; k < s->n_items && arrow < 0; k++)
            if (s->items[k].kind == SLOG_KIND_ARROW && s->items[k].timeline == 2 && s->items[k].end_timeline == 3)
                arrow = (long)k;
        CHECK(arrow >= 0);
        if (arrow >= 0) {
            sv_geom g = {&vp, &lay, 0, NULL};
            double x0, y0, x1, y1;
            CHECK(sv_geom_arrow(&g, &s->items[arrow], &x0, &y0, &x1, &y1));
            double mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
            CHECK(sv_scene_hit(s, &g, NULL, mx, my) == arrow);
            g.msg_filter = f;
            CHECK(sv_scene_hit(s, &g, NULL, mx, my) == arrow);
            sv_search q2;
            CHECK(sv_search_parse("peer=5", &q2) == 0);
            sv_search_bound *f2 = sv_search_bind(&q2, r);
            g.msg_filter = f2;
            CHECK(sv_scene_hit(s, &g, NULL, mx, my) != arrow);
            CHECK(!sv_msg_filter_item(f2, s, &s->items[arrow]) && sv_msg_filter_item(f, s, &s->items[arrow]));
            sv_search_bound_free(f2);
        }
        sv_layout_clear(&lay);
    }
    sv_scene_free(s);
    sv_palette_clear(&pal);
    sv_search_bound_free(f);
}

static void test_file(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/test_scene.slog2", dir);
    sv_gen_opts o;
    sv_gen_opts_small(&o);
    o.n_timelines = 8;
    o.n_iterations = 200;
    o.per_host = 4;
    slog_error err = {0};
    CHECK(sv_gen_write(path, &o, &err) == SLOG_OK);
    slog_reader *r;
    if (slog_reader_open(&r, path, &err) != SLOG_OK) {
        FAIL("open: %s", err.message);
    }
    const slog_file_info *fi = slog_reader_info(r);
    /* brute force: every drawable of the file via a full query */
    model m = {{0}};
    slog_query all = {fi->t_min, fi->t_max, NULL, 0, SLOG_QUERY_NO_PREVIEW};
    CHECK(slog_reader_query(r, &all, count_cb, NULL, &m, NULL, &err) == SLOG_OK);
    CHECK(m.n_by_cat[GEN_CAT_SEND] == 8 * 200);
    CHECK(m.n_by_cat[GEN_CAT_MSG] == 8 * 200);
    CHECK(m.n_by_cat[GEN_CAT_CHECKPOINT] == 8 * 40);

    /* a scene without previews holds every drawable once */
    sv_scene *s = sv_scene_query(r, fi->t_min, fi->t_max, 100, NULL, SLOG_QUERY_NO_PREVIEW, NULL, NULL, &err);
    CHECK(s != NULL);
    if (s) {
        uint64_t n = 0;
        /* pixel_ns is > 1 here, so sub-pixel drawables were folded into
         * columns; count both */
        n = s->n_items;
        CHECK(s->stats.drawables ==
              m.n_by_cat[0] + m.n_by_cat[1] + m.n_by_cat[2] + m.n_by_cat[3] + m.n_by_cat[4] + m.n_by_cat[5]);
        CHECK(n <= s->stats.drawables);
        CHECK(n > 0);
        check_item_info(r, s);
        sv_scene_free(s);
    }
    /* a scene of some timelines holds those and says so: the window asks
     * again for rows scrolled into view */
    uint8_t some[8] = {0, 1, 1, 0, 0, 0, 0, 0}, one[8] = {0, 0, 1, 0, 0, 0, 0, 0}, other[8] = {0, 0, 1, 1, 0, 0, 0, 0};
    s = sv_scene_query(r, fi->t_min, fi->t_max, 100, some, 0, NULL, NULL, &err);
    CHECK(s != NULL);
    if (s) {
        CHECK(sv_scene_covers(s, some) && sv_scene_covers(s, one));
        CHECK(!sv_scene_covers(s, other) && !sv_scene_covers(s, NULL));
        for (size_t i = 0; i < s->n_items; i++) CHECK(some[s->items[i].timeline]);
        sv_scene_free(s);
    }
    s = sv_scene_query(r, fi->t_min, fi->t_max, 100, NULL, 0, NULL, NULL, &err);
    CHECK(s != NULL);
    if (s) {
        CHECK(sv_scene_covers(s, other) && sv_scene_covers(s, NULL));
        sv_scene_free(s);
    }
    /* zoomed into one iteration (1 ms at 1000 px): all real, nested */
    s = sv_scene_query(r, 100e6, 101e6, 1000, NULL, 0, NULL, NULL, &err);
    CHECK(s != NULL);
    if (s) {
        int nested = 0, arrows = 0;
        for (size_t i = 0; i < s->n_items; i++) {
            nested += s->items[i].category == GEN_CAT_WAIT && s->items[i].depth == 1;
            arrows += s->items[i].kind == SLOG_KIND_ARROW;
        }
        CHECK(nested >= 8);
        CHECK(arrows >= 8);
        check_item_info(r, s);
        CHECK(s->stats.nodes_read < fi->n_nodes);
        sv_scene_free(s);
    }
    /* items keep their fields at every pixel width, from coarse (most
     * drawables folded) to finer than the shortest drawable */
    for (double w = 1e8; w >= 1e4; w /= 2) {
        for (double t = fi->t_min + 1.5e6; t < fi->t_min + 1.5e6 + 2 * w; t += w) {
            s = sv_scene_query(r, t, t + w, 997, NULL, 0, NULL, NULL, &err);
            CHECK(s != NULL);
            if (s) {
                check_item_info(r, s);
                sv_scene_free(s);
            }
        }
    }
    /* whole trace in preview mode at 100 px reads fewer bytes than all */
    slog_query_stats full;
    CHECK(slog_reader_query(r, &all, NULL, NULL, NULL, &full, &err) == SLOG_OK);
    s = sv_scene_query(r, fi->t_min, fi->t_max, 100, NULL, 0, NULL, NULL, &err);
    CHECK(s != NULL);
    if (s) {
        CHECK(s->stats.bytes_read <= full.bytes_read);
        sv_scene_free(s);
    }

    /* range statistics over iterations [10, 20) */
    sv_range_stats st;
    CHECK(sv_range_stats_compute(r, 10000000, 19999999, NULL, NULL, NULL, &st, &err) == SLOG_OK);
    CHECK(st.n_messages == 8 * 10);
    CHECK(st.cat_count[GEN_CAT_SEND] == 8 * 10);
    uint64_t bytes = 0;
    for (int it = 10; it < 20; it++) bytes += 8 * (1024ull << (it % 8));
    CHECK(st.msg_bytes == bytes);
    CHECK(st.cat_ns[GEN_CAT_SEND] > 0);
    for (uint32_t t = 0; t < 8; t++) {
        CHECK(st.tl_busy_ns[t] > 0 && st.tl_busy_ns[t] <= 10000000);
        CHECK(st.tl_messages[t] == 10);
    }
    /* busy <= sum of state times (nesting is not counted twice) */
    int64_t sum = 0;
    for (int c = 0; c < GEN_N_CATS; c++) sum += st.cat_ns[c];
    int64_t busy = 0;
    for (uint32_t t = 0; t < 8; t++) busy += st.tl_busy_ns[t];
    CHECK(busy < sum);
    sv_range_stats_clear(&st);

    /* search */
    sv_search q;
    CHECK(sv_search_parse("tag=1337", &q) == 0 && q.n_terms == 1 && q.terms[0].is_field);
    CHECK(sv_search_parse("send tag=0x10", &q) == 0 && q.n_terms == 2 && q.terms[1].value == 16);
    CHECK(sv_search_parse("tag=", &q) == -1);
    CHECK(sv_search_parse("tag=abc", &q) == -1);
    CHECK(sv_search_parse("   ", &q) == -1);
    sv_found f;
    CHECK(sv_search_parse("MPI_Send tag=1337", &q) == 0);
    CHECK(sv_search_find(r, &q, -1, 1, NULL, NULL, &f, &err) == 1);
    CHECK(f.item.category == GEN_CAT_SEND && f.item.timeline == 1);
    CHECK(f.item.start >= 100000000 && f.item.start < 101000000); /* iteration 100 */
    int64_t at = f.item.start;
    CHECK(sv_search_find(r, &q, at, 1, NULL, NULL, &f, &err) == 0);
    CHECK(sv_search_find(r, &q, fi->t_max + 1, -1, NULL, NULL, &f, &err) == 1);
    CHECK(f.item.start == at);
    /* by name: next Checkpoint after 1 ms is iteration 5's */
    CHECK(sv_search_parse("checkpoint", &q) == 0);
    CHECK(sv_search_find(r, &q, 1000000, 1, NULL, NULL, &f, &err) == 1);
    CHECK(f.item.kind == SLOG_KIND_EVENT && f.item.start > 5000000 && f.item.start < 6000000);
    CHECK(f.item.n_info == 2 && f.info[0] == 1);
    /* previous Checkpoint before that one: iteration 0's */
    CHECK(sv_search_find(r, &q, f.item.start, -1, NULL, NULL, &f, &err) == 1);
    CHECK(f.item.start < 1000000);
    CHECK(sv_search_parse("peer=3 MPI_Recv", &q) == 0);
    CHECK(sv_search_find(r, &q, -1, 1, NULL, NULL, &f, &err) == 1);
    CHECK(f.item.category == GEN_CAT_RECV && f.item.timeline == 4 && f.info[0] == 3);
    CHECK(sv_search_parse("nosuchthing", &q) == 0);
    CHECK(sv_search_find(r, &q, -1, 1, NULL, NULL, &f, &err) == 0);

    /* range predicates, and what a malformed query says */
    sv_search_error se;
    CHECK(sv_search_parse_ex("bytes>4096 duration<=10us", &q, &se) == 0 && q.n_terms == 2);
    CHECK(q.terms[0].op == SV_OP_GT && q.terms[0].value == 4096 && q.terms[0].subject == SV_SUBJ_FIELD);
    CHECK(q.terms[1].op == SV_OP_LE && q.terms[1].value == 10000 && q.terms[1].subject == SV_SUBJ_DURATION);
    CHECK(sv_search_parse_ex("duration>1.5ms bytes<=4KiB tag!=3", &q, &se) == 0);
    CHECK(q.terms[0].value == 1500000 && q.terms[1].value == 4096 && q.terms[2].op == SV_OP_NE);
    CHECK(sv_search_parse_ex("MPI_Send tag=abc", &q, &se) == -1 && se.pos == 13 && strstr(se.message, "abc"));
    CHECK(sv_search_parse_ex("send >5", &q, &se) == -1 && se.pos == 5 && strstr(se.message, "field name"));
    CHECK(sv_search_parse_ex("duration>3xs", &q, &se) == -1 && se.pos == 10 && strstr(se.message, "unit"));
    CHECK(sv_search_parse_ex("tag<", &q, &se) == -1 && se.pos == 4 && strstr(se.message, "no value"));
    CHECK(sv_search_parse_ex("tag=<3", &q, &se) == -1 && se.pos == 4);
    CHECK(sv_search_parse_ex("tag!3", &q, &se) == -1 && se.pos == 3);
    CHECK(sv_search_parse_ex("a b c d e f g h i", &q, &se) == -1 && se.pos == 16);
    CHECK(sv_search_parse_ex("  ", &q, &se) == -1 && strstr(se.message, "empty"));
    CHECK(sv_search_parse_ex("bytes>99999999999999999999", &q, &se) == -1 && strstr(se.message, "range"));
    /* any text: a query, or an error inside it with a message */
    {
        static const char alphabet[] = "tagbyesdurion=<>!=0123456789.xkKMGiBmsu \t-";
        uint64_t seed = 12345;
        for (int n = 0; n < 20000; n++) {
            char text[64];
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t len = (size_t)(seed >> 58);
            for (size_t k = 0; k < len; k++) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                text[k] = alphabet[(seed >> 33) % (sizeof alphabet - 1)];
            }
            text[len] = 0;
            if (sv_search_parse_ex(text, &q, &se) == 0) {
                CHECK(q.n_terms >= 1 && q.n_terms <= SV_SEARCH_MAX_TERMS);
                for (int k = 0; k < q.n_terms; k++)
                    CHECK(q.terms[k].text[0] && q.terms[k].op <= SV_OP_GE &&
                          (q.terms[k].subject == SV_SUBJ_NAME) == !q.terms[k].is_field);
            } else {
                CHECK(se.pos >= 0 && (size_t)se.pos <= len && se.message[0]);
            }
        }
    }
    /* a brute-force model: every drawable of the file against the ranges */
    {
        static const char *const QS[] = {"message bytes>4096",     "message bytes<=2048", "message duration>20us",
                                         "MPI_Send duration<30us", "message peer=3",      "message peer>=6 tag=1",
                                         "Checkpoint duration=0"};
        for (size_t i = 0; i < sizeof QS / sizeof QS[0]; i++) {
            CHECK(sv_search_parse(QS[i], &q) == 0);
            sv_search_bound *b = sv_search_bind(&q, r);
            CHECK(b != NULL);
            model_count mc = {.b = b, .i = (int)i, .at = fi->t_min + (fi->t_max - fi->t_min) / 3};
            slog_query all = {.t0 = fi->t_min, .t1 = fi->t_max, .flags = SLOG_QUERY_NO_PREVIEW};
            CHECK(slog_reader_query(r, &all, model_count_cb, NULL, &mc, NULL, &err) == SLOG_OK);
            CHECK(mc.total > 0 && mc.total < mc.all && mc.disagree == 0);
            uint64_t total, before;
            int exact, complete;
            CHECK(sv_search_count(r, b, mc.at, UINT64_MAX, UINT64_MAX, NULL, NULL, &total, &before, &exact, &complete,
                                  &err) == 0);
            CHECK(complete && exact && total == mc.total && before == mc.before);
            /* bounded: stops once enough are counted past `at`, before exact */
            CHECK(sv_search_count(r, b, mc.at, 5, UINT64_MAX, NULL, NULL, &total, &before, &exact, &complete, &err) ==
                  0);
            CHECK(exact && before == mc.before && (complete || total - before >= 5) && total <= mc.total);
            CHECK(!complete || total == mc.total);
            /* out of budget: lower bounds */
            CHECK(sv_search_count(r, b, fi->t_max, UINT64_MAX, 10, NULL, NULL, &total, &before, &exact, &complete,
                                  &err) == 0);
            CHECK(!complete && total < mc.total && before <= mc.before);
            sv_search_bound_free(b);
        }
    }

    test_density(r);
    slog_reader_close(r);
    unlink(path);
}

/* The draw order and the slot rows of a scene of many items and previews
 * (runs of rising starts broken up, as a query delivers them, and slots
 * made in no particular order), against the orders checked pairwise. */
static void test_scene_orders(void)
{
    uint8_t kinds[3] = {SLOG_KIND_STATE, SLOG_KIND_ARROW, SLOG_KIND_EVENT};
    /* timeline t's preview spans [0, PREV_END + PREV_STEP * t) */
    enum { N_TL = 9, W = 50, SPAN = 100000, PREV_END = 40000, PREV_STEP = 1000 };
    sv_scene *s = sv_scene_new(0, SPAN, W, N_TL, 3, kinds);
    uint32_t rng = 12345;
    for (int i = 0; i < 5000; i++) {
        rng = rng * 1103515245u + 12345u;
        uint32_t r = rng >> 8;
        /* a new run every 40 items or so: starts rise inside a run */
        int64_t a = (int64_t)(r % 97) * 1000 + (i % 40) * 20 + (int64_t)(r % 7);
        uint32_t tl = r % N_TL, k = (r >> 4) % 3;
        if (k == 0) add(s, SLOG_KIND_STATE, 0, tl, tl, a, a + 1 + (int64_t)(r % 3000));
        if (k == 1) add(s, SLOG_KIND_ARROW, 1, tl, (tl + 1) % N_TL, a, a + 500);
        if (k == 2) add(s, SLOG_KIND_EVENT, 2, tl, tl, a, a);
    }
    float ones[4] = {1, 1, 1, 1};
    for (uint32_t t = N_TL; t-- > 0;)
        for (uint32_t c = 0; c < 3; c++) {
            if ((t + c) % 2) continue;
            slog_preview_row row = {t, c, ones};
            slog_preview p = {0, PREV_END + PREV_STEP * (int64_t)t, 0, 4, 1, &row, 0};
            CHECK(sv_scene_add_preview(s, &p) == 0);
        }
    CHECK(sv_scene_finish(s) == 0);
    uint8_t *seen = calloc(s->n_items, 1);
    CHECK(seen != NULL);
    for (size_t i = 0; i < s->n_items; i++) {
        CHECK(s->order[i] < s->n_items && !seen[s->order[i]]);
        seen[s->order[i]] = 1;
        if (i == 0) continue;
        const sv_item *x = &s->items[s->order[i - 1]], *y = &s->items[s->order[i]];
        int rx = x->kind == SLOG_KIND_STATE ? 0 : x->kind == SLOG_KIND_EVENT ? 1 : 2;
        int ry = y->kind == SLOG_KIND_STATE ? 0 : y->kind == SLOG_KIND_EVENT ? 1 : 2;
        int before = rx != ry               ? rx < ry
                     : x->depth != y->depth ? x->depth < y->depth
                     : x->start != y->start ? x->start < y->start
                                            : s->order[i - 1] < s->order[i];
        CHECK(before);
    }
    free(seen);
    /* slots in (timeline, category) order, each row where sv_scene_cols
     * finds it, with its preview's columns */
    CHECK(s->n_slots == 14);
    for (size_t k = 1; k < s->n_slots; k++)
        CHECK(s->slot_tl[k - 1] < s->slot_tl[k] ||
              (s->slot_tl[k - 1] == s->slot_tl[k] && s->slot_cat[k - 1] < s->slot_cat[k]));
    for (size_t k = 0; k < s->n_slots; k++) {
        const float *cols = sv_scene_cols(s, s->slot_tl[k], s->slot_cat[k]);
        CHECK(cols == s->cols + k * W);
        /* the columns the row's preview covers whole */
        int full = (PREV_END + PREV_STEP * (int)s->slot_tl[k]) / (SPAN / W);
        if (s->slot_cat[k] == 0) CHECK_NEAR(cols[full - 1], 1, 1e-6);
        CHECK(cols[0] > 0 && cols[full - 1] > 0 && cols[full + 1] == 0);
    }
    sv_scene_free(s);
}

int main(int argc, char **argv)
{
    test_aggregate();
    test_scene_pure();
    test_scene_orders();
    test_file(argc > 1 ? argv[1] : ".");
    return 0;
}
