/* SPDX-License-Identifier: MIT */
/* doc.c - see doc.h. */
#include "doc.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "analysis.h"
#include "density.h"
#include "export.h"
#include "foreign.h"

slog_status sv_doc_open(sv_doc *d, const char *path, slog_error *err)
{
    memset(d, 0, sizeof *d);
    slog_status s = slog_reader_open(&d->r, path, err);
    if (s != SLOG_OK) {
        d->r = NULL;
        return s;
    }
    d->fi = slog_reader_info(d->r);
    /* zooms and pans ask again for most of the nodes the frame before
     * decoded; without memory for it the viewer works uncached */
    (void)slog_reader_set_cache(d->r, SV_NODE_CACHE_BYTES);
    uint32_t nt = d->fi->n_timelines, nc = d->fi->n_categories;
    d->tl_labels = calloc(nt + 1, sizeof(char *));
    d->tl_groups = calloc(nt + 1, sizeof(char *));
    d->tl_keys = calloc(nt + 1, sizeof(uint64_t));
    d->cat_names = calloc(nc + 1, sizeof(char *));
    if (!d->tl_labels || !d->tl_groups || !d->tl_keys || !d->cat_names || sv_palette_init(&d->pal, d->r)) {
        sv_doc_close(d);
        if (err) {
            memset(err, 0, sizeof *err);
            err->status = SLOG_ERR_NOMEM;
            err->offset = SLOG_NO_OFFSET;
            snprintf(err->message, sizeof err->message, "%s: out of memory", path);
        }
        return SLOG_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < nt; i++) {
        const slog_timeline *t = slog_reader_timeline(d->r, i);
        d->tl_labels[i] = t && t->label ? t->label : "";
        d->tl_groups[i] = t && t->group ? t->group : "";
        d->tl_keys[i] = t ? (uint64_t)t->rank << 32 | t->thread : i;
    }
    for (uint32_t i = 0; i < nc; i++) {
        const slog_category *c = slog_reader_category(d->r, i);
        d->cat_names[i] = c && c->name ? c->name : "?";
    }
    return SLOG_OK;
}

void sv_doc_close(sv_doc *d)
{
    sv_palette_clear(&d->pal);
    free(d->tl_labels);
    free(d->tl_groups);
    free(d->tl_keys);
    free(d->cat_names);
    if (d->r) slog_reader_close(d->r);
    memset(d, 0, sizeof *d);
}

void sv_doc_extent(const sv_doc *d, double *lo, double *hi)
{
    /* Times are relative to the trace start, so the view starts at 0 even
     * when the first drawable comes later (ruler labels then read as time
     * since MPI_Init). */
    double a = d->fi->t_min < 0 ? (double)d->fi->t_min : 0;
    double b = (double)d->fi->t_max;
    if (d->fi->n_drawables == 0 || b - a < 1000) b = a + 1000;
    *lo = a;
    *hi = b;
}

void sv_compose_geom_for(double W, double H, sv_compose_geom *g)
{
    g->overview_h = H >= 300 ? 40 : 0;
    g->gap = g->overview_h > 0 ? 4 : 0;
    g->ruler_h = 24;
    g->label_w = fmin(150, floor(W / 5));
    g->canvas_x = g->label_w;
    g->canvas_y = g->overview_h + g->gap + g->ruler_h;
    g->canvas_w = W - g->label_w;
    g->canvas_h = H - g->canvas_y;
    if (g->canvas_w < 1) g->canvas_w = 1;
    if (g->canvas_h < 1) g->canvas_h = 1;
}

/* What both compositions share: background, overview strip, ruler and
 * the label column's header. */
static void compose_chrome(cairo_t *cr, const sv_compose_geom *g, const sv_doc *d, const sv_viewport *vp,
                           const sv_overview *ov, const sv_rank_axis *ax)
{
    const sv_theme *th = sv_theme_current();
    /* the band above the rows: the labels, the ruler and the canvas paint
     * their own backgrounds over the rest */
    sv_theme_source(cr, th->chrome_bg, 1);
    cairo_rectangle(cr, 0, 0, g->canvas_x + g->canvas_w, g->canvas_y);
    cairo_fill(cr);
    if (g->overview_h > 0) {
        /* the overview spans the canvas columns, so it lines up with the
         * ruler below it */
        cairo_save(cr);
        cairo_translate(cr, g->canvas_x, 0);
        sv_render_overview(cr, g->canvas_w, g->overview_h, ov, vp, &d->pal);
        if (ax && (ax->r0 > ax->lo || ax->r1 < ax->hi)) sv_render_overview_ranks(cr, g->canvas_w, g->overview_h, ax);
        cairo_restore(cr);
        cairo_save(cr);
        sv_theme_source(cr, th->dim_text, 1);
        sv_draw_text(cr, "Overview", 8, (g->overview_h - 14) / 2, 0, 0, 8);
        cairo_restore(cr);
    }
    cairo_save(cr);
    cairo_translate(cr, g->canvas_x, g->overview_h + g->gap);
    sv_render_ruler(cr, g->canvas_w, g->ruler_h, vp, 0, 0, 0, 0);
    cairo_restore(cr);
}

static void compose_header(cairo_t *cr, const sv_compose_geom *g, const char *header)
{
    const sv_theme *th = sv_theme_current();
    sv_theme_source(cr, th->chrome_bg, 1);
    cairo_rectangle(cr, 0, g->overview_h + g->gap, g->label_w, g->ruler_h);
    cairo_fill(cr);
    sv_theme_source(cr, th->dim_text, 1);
    sv_draw_text_clipped(cr, header, 8, g->overview_h + g->gap + 4, g->label_w - 10, 1, 8);
    sv_theme_source(cr, th->border, 1);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, 0, g->canvas_y - 0.5);
    cairo_line_to(cr, g->label_w, g->canvas_y - 0.5);
    cairo_move_to(cr, g->label_w - 0.5, g->overview_h + g->gap);
    cairo_line_to(cr, g->label_w - 0.5, g->canvas_y);
    cairo_stroke(cr);
}

void sv_compose(cairo_t *cr, double W, double H, const sv_doc *d, const sv_viewport *vp, const sv_layout *lay,
                const sv_scene *scene, const sv_overview *ov)
{
    sv_compose_geom g;
    sv_compose_geom_for(W, H, &g);
    cairo_save(cr);
    compose_chrome(cr, &g, d, vp, ov, NULL);
    cairo_save(cr);
    cairo_translate(cr, 0, g.canvas_y);
    sv_render_labels(cr, g.label_w, g.canvas_h, lay, 0, d->tl_labels, -1);
    cairo_restore(cr);
    cairo_save(cr);
    cairo_translate(cr, g.canvas_x, g.canvas_y);
    sv_canvas_params p = {
        .vp = vp, .lay = lay, .scene = scene, .pal = &d->pal, .cat_names = d->cat_names, .hover_row = -1};
    sv_render_canvas(cr, g.canvas_w, g.canvas_h, &p);
    cairo_restore(cr);
    compose_header(cr, &g, "Timeline");
    cairo_restore(cr);
}

void sv_compose_fold(cairo_t *cr, double W, double H, const sv_doc *d, const sv_viewport *vp, const sv_rank_axis *ax,
                     const sv_fold *fold, const sv_flows *flows, const sv_overview *ov)
{
    sv_compose_geom g;
    sv_compose_geom_for(W, H, &g);
    cairo_save(cr);
    compose_chrome(cr, &g, d, vp, ov, ax);
    cairo_save(cr);
    cairo_translate(cr, 0, g.canvas_y);
    sv_render_fold_labels(cr, g.label_w, g.canvas_h, fold, ax, d->tl_keys, d->tl_labels, -1);
    cairo_restore(cr);
    cairo_save(cr);
    cairo_translate(cr, g.canvas_x, g.canvas_y);
    sv_fold_params p = {.vp = vp, .ax = ax, .fold = fold, .pal = &d->pal, .hover_row = -1};
    sv_render_fold(cr, g.canvas_w, g.canvas_h, &p);
    sv_render_flows(cr, g.canvas_w, g.canvas_h, flows, vp, ax, &d->pal);
    cairo_restore(cr);
    /* the header says the rows are folded, and how far */
    char hdr[64];
    if (fold && fold->n_rows) {
        unsigned per = (fold->row_first[fold->n_rows] - fold->row_first[0] + fold->n_rows - 1) / fold->n_rows;
        snprintf(hdr, sizeof hdr, "Timelines (%u per row)", per);
        /* the short form where the long one would be cut (from 100 a row
         * in a narrow label column): the figure is what it is there for */
        if (sv_text_width(cr, hdr, 1, 8) > g.label_w - 10) snprintf(hdr, sizeof hdr, "Timelines (%u/row)", per);
    } else {
        snprintf(hdr, sizeof hdr, "Timelines");
    }
    compose_header(cr, &g, hdr);
    cairo_restore(cr);
}

/* ------------------------------------------------------------ options */

int sv_parse_window(const char *s, sv_headless_opts *o)
{
    if (strcmp(s, "all") == 0) {
        o->all = 1;
        return 0;
    }
    char *end;
    errno = 0;
    double a = strtod(s, &end);
    if (errno || end == s || *end != ':') return -1;
    const char *b = end + 1;
    double c = strtod(b, &end);
    if (errno || end == b || *end || !isfinite(a) || !isfinite(c)) return -1;
    if (!(c > a)) return -2;
    o->all = 0;
    o->t0_s = a;
    o->t1_s = c;
    return 0;
}

int sv_parse_size(const char *s, sv_headless_opts *o)
{
    char *end;
    errno = 0;
    long w = strtol(s, &end, 10);
    if (errno || end == s || (*end != 'x' && *end != 'X')) return -1;
    const char *b = end + 1;
    long h = strtol(b, &end, 10);
    if (errno || end == b || *end) return -1;
    if (w < SV_SIZE_MIN || h < SV_SIZE_MIN || w > SV_SIZE_MAX || h > SV_SIZE_MAX) return -2;
    o->width = (int)w;
    o->height = (int)h;
    return 0;
}

int sv_parse_timelines(const char *s, sv_headless_opts *o)
{
    char *end;
    errno = 0;
    long a = strtol(s, &end, 10), b;
    if (errno || end == s || a < 0) return -1;
    if (*end == 0) {
        b = a;
    } else {
        if (*end != '-') return -1;
        const char *p = end + 1;
        b = strtol(p, &end, 10);
        if (errno || end == p || *end || b < a) return -1;
    }
    o->have_timelines = 1;
    o->tl_first = (unsigned)a;
    o->tl_last = (unsigned)(b > 0xfffffffeL ? 0xfffffffeL : b);
    return 0;
}

/* Whether writing out would replace the file being drawn (lstat: a symlink
 * as OUT is replaced itself). */
static int replaces(const char *out, const char *in)
{
    struct stat so, si;
    return lstat(out, &so) == 0 && stat(in, &si) == 0 && so.st_dev == si.st_dev && so.st_ino == si.st_ino;
}

int sv_parse_theme(const char *s, sv_headless_opts *o)
{
    if (strcmp(s, "dark") == 0)
        o->dark = 1;
    else if (strcmp(s, "light") == 0)
        o->dark = 0;
    else
        return -1;
    return 0;
}

int sv_parse_rows(const char *s, sv_headless_opts *o)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > 65536) return -1;
    o->rows = (unsigned)v;
    return 0;
}

/* What --render draws: the composed view (the folded one when fold is
 * set), and the legend band below it. */
typedef struct picture {
    const sv_doc *d;
    const sv_viewport *vp;
    const sv_layout *lay;
    const sv_scene *scene;
    const sv_rank_axis *ax;
    const sv_fold *fold;
    const sv_flows *flows;
    const sv_overview *ov;
    double w, h, legend_h;
    const char *caption;
} picture;

static void draw_picture(cairo_t *cr, void *user)
{
    const picture *p = user;
    if (p->fold)
        sv_compose_fold(cr, p->w, p->h, p->d, p->vp, p->ax, p->fold, p->flows, p->ov);
    else
        sv_compose(cr, p->w, p->h, p->d, p->vp, p->lay, p->scene, p->ov);
    if (p->legend_h > 0) {
        cairo_save(cr);
        cairo_translate(cr, 0, p->h);
        sv_render_legend(cr, p->w, p->legend_h, &p->d->pal, p->d->cat_names, p->caption, NULL);
        cairo_restore(cr);
    }
}

/* --render when the timelines fold (fold.h): one grid for the canvas and a
 * one-row grid of every timeline for the overview strip. */
static int render_folded(const sv_headless_opts *o, const sv_doc *d, const sv_compose_geom *g, const sv_viewport *vp,
                         uint32_t first, uint32_t last, uint32_t rows, bool to_stdout, double pic_h, double legend_h,
                         const char *caption, FILE *errf)
{
    int rc = 1;
    slog_error err;
    memset(&err, 0, sizeof err);
    sv_fold *fold = NULL, *ov_fold = NULL;
    sv_flows *flows = NULL;
    sv_overview *ov = NULL;
    sv_rank_axis ax;
    sv_rank_axis_init(&ax, first, (double)last + 1, g->canvas_h);
    fold = sv_fold_query(d->r, vp->t0, vp->t1, (int)g->canvas_w, first, last, rows, &err);
    if (!fold) {
        fprintf(errf, "slog2-view: %s\n", err.message);
        goto out;
    }
    if (g->overview_h > 0) {
        double lo, hi;
        sv_doc_extent(d, &lo, &hi);
        ov_fold = sv_fold_query(d->r, lo, hi, (int)g->canvas_w, 0, d->fi->n_timelines - 1, 1, &err);
        if (!ov_fold) {
            fprintf(errf, "slog2-view: %s\n", err.message);
            goto out;
        }
        ov = sv_overview_from_fold(ov_fold);
    }
    /* the messages between the bands, as flows between groups of them */
    if (sv_flows_visible(&d->pal)) {
        uint32_t *gf = NULL;
        uint32_t ng = sv_flows_groups_for_fold(fold, &ax, SV_FLOWS_MIN_GROUP_PX, &gf);
        if (ng)
            flows = sv_flows_compute(d->r, (int64_t)floor(vp->t0), (int64_t)ceil(vp->t1), SV_FLOWS_SLICES, gf, ng, NULL,
                                     NULL, &err);
        free(gf);
        if (ng && !flows) {
            fprintf(errf, "slog2-view: %s\n", err.message);
            goto out;
        }
    }
    picture pic = {.d = d,
                   .vp = vp,
                   .ax = &ax,
                   .fold = fold,
                   .flows = flows,
                   .ov = ov,
                   .w = o->width,
                   .h = pic_h,
                   .legend_h = legend_h,
                   .caption = caption};
    sv_image_format fmt = sv_image_format_for(o->out);
    char why[512];
    if (sv_image_write(o->out, fmt, o->width, o->height, draw_picture, &pic, caption[0] ? caption : o->file, "", why,
                       sizeof why)) {
        fprintf(errf, "slog2-view: %s: cannot write %s: %s\n", to_stdout ? "standard output" : o->out,
                sv_image_format_name(fmt), why);
        goto out;
    }
    if (o->print_stats)
        fprintf(to_stdout ? errf : stdout,
                "window %.9f:%.9f s, %u timelines, rows %u (%u per unit), nodes_read %llu, bytes_read %llu, "
                "drawables %llu, previews %llu, query %.2f ms, overview bytes_read %llu\n",
                vp->t0 / 1e9, vp->t1 / 1e9, last - first + 1, fold->n_rows, fold->unit,
                (unsigned long long)fold->stats.nodes_read, (unsigned long long)fold->stats.bytes_read,
                (unsigned long long)fold->stats.drawables, (unsigned long long)fold->stats.previews, fold->query_ms,
                (unsigned long long)(ov_fold ? ov_fold->stats.bytes_read : 0));
    if (o->print_stats && flows)
        fprintf(to_stdout ? errf : stdout,
                "flows %zu in %u groups x %u slices, messages %llu, outside %llu, %.2f ms, from the %s\n",
                flows->n_flows, flows->n_groups, flows->n_slices, (unsigned long long)flows->total,
                (unsigned long long)flows->outside, flows->query_ms, sv_flows_source_name(flows->source));
    rc = 0;
out:
    sv_flows_free(flows);
    sv_overview_free(ov);
    sv_fold_free(ov_fold);
    sv_fold_free(fold);
    return rc;
}

int sv_parse_messages(const char *s, sv_headless_opts *o)
{
    int c = sv_arrow_colour_parse(s);
    if (c < 0) return -1;
    o->arrows = (sv_arrow_colour)c;
    return 0;
}

int sv_headless_render(const sv_headless_opts *o, FILE *errf)
{
    sv_doc d;
    slog_error err;
    memset(&err, 0, sizeof err);
    bool to_stdout = strcmp(o->out, "-") == 0;
    if (to_stdout && isatty(STDOUT_FILENO)) {
        fprintf(errf, "slog2-view: --render -: standard output is a terminal; redirect it to a file or a "
                      "pipe, or name the image file\n");
        return 1;
    }
    if (!to_stdout && replaces(o->out, o->file)) {
        fprintf(errf, "slog2-view: %s: the image would replace the file it draws; choose another --render\n", o->out);
        return 1;
    }
    /* Renamed over OUT at the end: a directory would fail only then, and a
     * device (--render /dev/null as root) would be replaced. */
    const char *problem = to_stdout ? NULL : slog_rename_target_problem(o->out);
    if (problem) {
        fprintf(errf,
                "slog2-view: %s: exists and is %s; the image is renamed into place, so --render must name "
                "a regular file or a new one\n",
                o->out, problem);
        return 1;
    }
    if (sv_doc_open(&d, o->file, &err) != SLOG_OK) {
        const char *hint = err.status == SLOG_ERR_NOT_SLOG ? slog2_foreign_hint(o->file) : NULL;
        if (hint)
            fprintf(errf, "slog2-view: %s: %s (or open it without --render)\n", o->file, hint);
        else
            fprintf(errf, "slog2-view: %s\n", err.message[0] ? err.message : slog_strerror(err.status));
        return 1;
    }
    /* one picture: no later query would use the decoded nodes */
    (void)slog_reader_set_cache(d.r, 0);
    sv_theme_set_dark(o->dark);
    int rc = 1;
    sv_layout lay = {0};
    sv_scene *scene = NULL, *ov_scene = NULL;
    sv_overview *ov = NULL;
    uint8_t *want = NULL;
    sv_search_bound *mf = NULL;

    uint32_t nt = d.fi->n_timelines;
    unsigned first = 0, last = nt ? nt - 1 : 0;
    if (o->have_timelines) {
        if (nt == 0 || o->tl_first >= nt) {
            fprintf(errf, "slog2-view: %s: --timelines %u-%u: the file has %u timelines (0 to %u)\n", o->file,
                    o->tl_first, o->tl_last, nt, nt ? nt - 1 : 0);
            rc = 2; /* a request outside the file is a usage error, as in slog2-print */
            goto out;
        }
        first = o->tl_first;
        last = o->tl_last < nt ? o->tl_last : nt - 1;
    }
    if (o->rgba) memcpy(d.pal.rgba, o->rgba, d.pal.n * sizeof *d.pal.rgba);
    if (o->visible) memcpy(d.pal.visible, o->visible, d.pal.n);
    d.pal.arrows = o->arrows;
    if (o->message_filter) {
        sv_search q;
        sv_search_error se;
        if (sv_search_parse_ex(o->message_filter, &q, &se)) {
            fprintf(errf, "slog2-view: --message-filter '%s': not a valid query: %s (at character %d)\n",
                    o->message_filter, se.message, se.pos + 1);
            rc = 2;
            goto out;
        }
        if (!(mf = sv_search_bind(&q, d.r))) {
            fprintf(errf, "slog2-view: out of memory\n");
            goto out;
        }
        d.pal.msg_filter = mf;
        d.pal.msg_filter_gen = 1;
    }
    double lo, hi;
    sv_doc_extent(&d, &lo, &hi);
    sv_viewport vp;
    /* the legend band's caption says what the picture shows */
    char caption[1024] = "";
    double legend_h = 0;
    if (o->legend) {
        char a[64], b[64], dur[64];
        double t0 = o->all ? lo : o->t0_s * 1e9, t1 = o->all ? hi : o->t1_s * 1e9;
        sv_format_time((int64_t)t0, a, sizeof a);
        sv_format_time((int64_t)t1, b, sizeof b);
        sv_format_duration(t1 - t0, dur, sizeof dur);
        const char *base = strrchr(o->file, '/') ? strrchr(o->file, '/') + 1 : o->file;
        int n = snprintf(caption, sizeof caption, "%s  ·  %s – %s (%s)  ·  timelines %u–%u of %u", base, a, b, dur,
                         first, last, nt);
        if (o->message_filter && n > 0 && (size_t)n < sizeof caption)
            snprintf(caption + n, sizeof caption - (size_t)n, "  ·  messages %s", o->message_filter);
        legend_h = sv_legend_height(o->width, &d.pal, d.cat_names, caption, NULL);
        if (legend_h > o->height / 2) legend_h = floor(o->height / 2);
    }
    double pic_h = o->height - legend_h;
    sv_compose_geom g;
    sv_compose_geom_for(o->width, pic_h, &g);
    sv_viewport_init(&vp, lo, hi, g.canvas_w);
    if (!o->all) {
        double t0 = o->t0_s * 1e9, t1 = o->t1_s * 1e9;
        if (t1 < lo || t0 > hi) {
            fprintf(errf, "slog2-view: %s: --window %g:%g is outside the trace (%.9g to %.9g s)\n", o->file, o->t0_s,
                    o->t1_s, lo / 1e9, hi / 1e9);
            rc = 2;
            goto out;
        }
        sv_viewport_set_window(&vp, t0, t1);
    }
    uint32_t fold_rows = nt ? sv_fold_rows_for(first, last, g.canvas_h, o->rows) : 0;
    if (fold_rows) {
        rc = render_folded(o, &d, &g, &vp, first, last, fold_rows, to_stdout, pic_h, legend_h, caption, errf);
        goto out;
    }
    if (sv_layout_build(&lay, nt, d.tl_groups, d.tl_keys, first, last, 20, 16)) {
        fprintf(errf, "slog2-view: out of memory\n");
        goto out;
    }
    size_t n_tl_rows = sv_layout_n_timeline_rows(&lay);
    double row_h = sv_fit_row_height(g.canvas_h, n_tl_rows, lay.n_rows - n_tl_rows, 16, 3);
    sv_layout_set_heights(&lay, row_h, fmin(16, fmax(row_h, 8)));

    if (nt) {
        want = calloc(nt, 1);
        if (!want) goto out;
        for (unsigned i = first; i <= last; i++) want[i] = 1;
    }
    scene = sv_scene_query(d.r, vp.t0, vp.t1, (int)g.canvas_w, o->have_timelines ? want : NULL, 0, NULL, NULL, &err);
    if (!scene) {
        fprintf(errf, "slog2-view: %s\n", err.message);
        goto out;
    }
    if (scene->n_bad) fprintf(errf, "slog2-view: %s; drawn without that part (hatched)\n", scene->bad_msg);
    if (mf) {
        /* the folded messages counted through the filter: no hurry here */
        scene->msg_density =
            sv_density_scan(d.r, mf, scene->t0, scene->t1, scene->width, o->have_timelines ? want : NULL, d.pal.visible,
                            16 * (uint64_t)SV_DENSITY_SCAN_BUDGET, NULL, NULL, &err);
        scene->msg_filter_gen = d.pal.msg_filter_gen;
        if (!scene->msg_density && err.status != SLOG_OK) {
            fprintf(errf, "slog2-view: %s\n", err.message);
            goto out;
        }
    }
    if (g.overview_h > 0) {
        ov_scene = sv_scene_query(d.r, lo, hi, (int)g.canvas_w, NULL, 0, NULL, NULL, &err);
        if (!ov_scene) {
            fprintf(errf, "slog2-view: %s\n", err.message);
            goto out;
        }
        ov = sv_overview_from_scene(ov_scene, nt);
    }
    picture pic = {.d = &d,
                   .vp = &vp,
                   .lay = &lay,
                   .scene = scene,
                   .ov = ov,
                   .w = o->width,
                   .h = pic_h,
                   .legend_h = legend_h,
                   .caption = caption};
    sv_image_format fmt = sv_image_format_for(o->out);
    GString *names = g_string_new(NULL);
    for (uint32_t i = 0; i < d.pal.n; i++)
        if (d.pal.visible[i]) g_string_append_printf(names, "%s%s", names->len ? ", " : "", d.cat_names[i]);
    char why[512];
    int bad = sv_image_write(o->out, fmt, o->width, o->height, draw_picture, &pic, caption[0] ? caption : o->file,
                             names->str, why, sizeof why);
    g_string_free(names, TRUE);
    if (bad) {
        fprintf(errf, "slog2-view: %s: cannot write %s: %s\n", to_stdout ? "standard output" : o->out,
                sv_image_format_name(fmt), why);
        goto out;
    }
    if (o->print_stats) /* on standard error when the image took standard output */
        fprintf(to_stdout ? errf : stdout,
                "window %.9f:%.9f s, %zu timelines, nodes_read %llu, bytes_read %llu, "
                "drawables %llu, previews %llu, query %.2f ms\n",
                vp.t0 / 1e9, vp.t1 / 1e9, n_tl_rows, (unsigned long long)scene->stats.nodes_read,
                (unsigned long long)scene->stats.bytes_read, (unsigned long long)scene->stats.drawables,
                (unsigned long long)scene->stats.previews, scene->query_ms);
    rc = 0;
out:
    free(want);
    sv_search_bound_free(mf);
    sv_overview_free(ov);
    sv_scene_free(ov_scene);
    sv_scene_free(scene);
    sv_layout_clear(&lay);
    sv_doc_close(&d);
    return rc;
}
