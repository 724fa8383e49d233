/* render.c - see render.h. */
#include "render.h"

#include <math.h>
#include <pango/pangocairo.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"

static const sv_theme LIGHT = {
    .bg = {1, 1, 1, 1},
    .alt_bg = {0.965, 0.965, 0.972, 1},
    .header_bg = {0.918, 0.918, 0.929, 1},
    .chrome_bg = {0.98, 0.98, 0.984, 1},
    .overview_bg = {0.965, 0.965, 0.972, 1},
    .grid = {0, 0, 0, 0.07},
    .border = {0, 0, 0, 0.18},
    .tick = {0, 0, 0, 0.25},
    .major_tick = {0, 0, 0, 0.45},
    .text = {0.180, 0.204, 0.212, 1},
    .dim_text = {0.467, 0.463, 0.482, 1},
    .accent = {0.208, 0.518, 0.894, 1},
    .veil = {1, 1, 1, 0.6},
    .dim_window = {0.2, 0.2, 0.25, 0.28},
    .strong = {0.1, 0.1, 0.12, 1},
    .meter_bg = {0, 0, 0, 0.06},
    .arrow_lift = 0,
};

/* Adwaita dark: view #1e1e1e, window #242424, headers #303030, accent
 * #78aeed; text and lines are the light theme's turned over. */
static const sv_theme DARK = {
    .bg = {0.118, 0.118, 0.118, 1},
    .alt_bg = {0.153, 0.153, 0.157, 1},
    .header_bg = {0.188, 0.188, 0.196, 1},
    .chrome_bg = {0.141, 0.141, 0.141, 1},
    .overview_bg = {0.165, 0.165, 0.169, 1},
    .grid = {1, 1, 1, 0.08},
    .border = {1, 1, 1, 0.15},
    .tick = {1, 1, 1, 0.3},
    .major_tick = {1, 1, 1, 0.5},
    .text = {0.93, 0.93, 0.93, 1},
    .dim_text = {0.64, 0.64, 0.66, 1},
    .accent = {0.471, 0.682, 0.929, 1},
    .veil = {0, 0, 0, 0.55},
    .dim_window = {0, 0, 0, 0.45},
    .strong = {0.96, 0.96, 0.97, 1},
    .meter_bg = {1, 1, 1, 0.08},
    .arrow_lift = 0.4,
};

static const sv_theme *theme = &LIGHT;

const sv_theme *sv_theme_current(void)
{
    return theme;
}

void sv_theme_set_dark(int dark)
{
    theme = dark ? &DARK : &LIGHT;
}

void sv_theme_source(cairo_t *cr, const double *c, double alpha)
{
    cairo_set_source_rgba(cr, c[0], c[1], c[2], c[3] * alpha);
}

#define THEME (*theme)

/* ------------------------------------------------------------ palette */

int sv_palette_init(sv_palette *p, const slog_reader *r)
{
    const slog_file_info *fi = slog_reader_info(r);
    memset(p, 0, sizeof *p);
    p->n = fi->n_categories;
    p->rgba = malloc(sizeof(uint32_t) * (p->n + 1));
    p->visible = malloc(p->n + 1);
    p->kind = malloc(p->n + 1);
    if (!p->rgba || !p->visible || !p->kind) {
        sv_palette_clear(p);
        return -1;
    }
    for (uint32_t i = 0; i < p->n; i++) {
        const slog_category *c = slog_reader_category(r, i);
        p->rgba[i] = c->rgba;
        p->visible[i] = 1;
        p->kind[i] = (uint8_t)c->kind;
    }
    return 0;
}

void sv_palette_clear(sv_palette *p)
{
    free(p->rgba);
    free(p->visible);
    free(p->kind);
    memset(p, 0, sizeof *p);
}

void sv_set_rgba(cairo_t *cr, uint32_t rgba, double shade, double alpha)
{
    double r = ((rgba >> 24) & 255) / 255.0, g = ((rgba >> 16) & 255) / 255.0,
           b = ((rgba >> 8) & 255) / 255.0, a = (rgba & 255) / 255.0;
    cairo_set_source_rgba(cr, r * shade, g * shade, b * shade, a * alpha);
}


/* ------------------------------------------------------------ text */

static PangoLayout *text_layout(cairo_t *cr, const char *text, int bold, double size)
{
    PangoLayout *l = pango_cairo_create_layout(cr);
    PangoFontDescription *fd = pango_font_description_new();
    pango_font_description_set_family(fd, "Cantarell, DejaVu Sans, Sans");
    pango_font_description_set_size(fd, (int)((size > 0 ? size : 9) * PANGO_SCALE));
    if (bold)
        pango_font_description_set_weight(fd, PANGO_WEIGHT_BOLD);
    pango_layout_set_font_description(l, fd);
    pango_font_description_free(fd);
    pango_layout_set_text(l, text, -1);
    return l;
}

double sv_text_width(cairo_t *cr, const char *text, int bold, double size)
{
    PangoLayout *l = text_layout(cr, text, bold, size);
    int w, h;
    pango_layout_get_pixel_size(l, &w, &h);
    g_object_unref(l);
    return w;
}

double sv_draw_text(cairo_t *cr, const char *text, double x, double y, int align, int bold,
                    double size)
{
    PangoLayout *l = text_layout(cr, text, bold, size);
    int w, h;
    pango_layout_get_pixel_size(l, &w, &h);
    double x0 = align == 1 ? x - w / 2.0 : align == 2 ? x - w : x;
    cairo_move_to(cr, round(x0), round(y));
    pango_cairo_show_layout(cr, l);
    g_object_unref(l);
    return w;
}

/* Text that must fit in max_w pixels: drawn ellipsised at the end. */
static void draw_text_clipped(cairo_t *cr, const char *text, double x, double y,
                              double max_w, int bold, double size)
{
    if (max_w < 8)
        return;
    PangoLayout *l = text_layout(cr, text, bold, size);
    pango_layout_set_width(l, (int)(max_w * PANGO_SCALE));
    pango_layout_set_ellipsize(l, PANGO_ELLIPSIZE_END);
    cairo_move_to(cr, round(x), round(y));
    pango_cairo_show_layout(cr, l);
    g_object_unref(l);
}

/* ------------------------------------------------------------ canvas */

static int same_item(const sv_item *a, const sv_item *b)
{
    return a && b && a->start == b->start && a->end == b->end && a->category == b->category &&
           a->timeline == b->timeline && a->kind == b->kind &&
           a->end_timeline == b->end_timeline;
}

static void draw_rows_background(cairo_t *cr, double w, double h, const sv_canvas_params *p)
{
    const sv_layout *lay = p->lay;
    sv_theme_source(cr, THEME.bg, 1);
    cairo_paint(cr);
    size_t k = 0;
    for (size_t i = 0; i < lay->n_rows; i++) {
        const sv_row *r = &lay->rows[i];
        double y = r->y - p->scroll_y;
        if (r->timeline < 0) {
            k = 0;
            if (y + r->h < 0 || y > h)
                continue;
            sv_theme_source(cr, THEME.header_bg, 1);
            cairo_rectangle(cr, 0, y, w, r->h);
            cairo_fill(cr);
            continue;
        }
        k++;
        if (y + r->h < 0 || y > h)
            continue;
        if ((long)i == p->hover_row) {
            sv_theme_source(cr, THEME.accent, 0.07);
            cairo_rectangle(cr, 0, y, w, r->h);
            cairo_fill(cr);
        } else if (k % 2 == 0) {
            sv_theme_source(cr, THEME.alt_bg, 1);
            cairo_rectangle(cr, 0, y, w, r->h);
            cairo_fill(cr);
        }
    }
    /* vertical grid at the ruler's major ticks */
    sv_ticks tk;
    sv_ticks_choose(p->vp->t0, p->vp->t1, w, 90, &tk);
    sv_theme_source(cr, THEME.grid, 1);
    cairo_set_line_width(cr, 1);
    for (int i = 0; i < tk.n; i++) {
        double x = floor(sv_viewport_time_to_x(p->vp, tk.first + i * tk.step)) + 0.5;
        cairo_move_to(cr, x, 0);
        cairo_line_to(cr, x, fmin(h, lay->total_h - p->scroll_y));
    }
    cairo_stroke(cr);
}

/* A raster the histograms are written into pixel by pixel and then painted
 * in one operation. With 64 timelines at 1920 columns a stacked histogram
 * is hundreds of thousands of one-pixel-wide boxes; as Cairo paths they were
 * half of every frame, written directly they cost about a millisecond. */
typedef struct raster {
    cairo_surface_t *surf;
    uint32_t *px;      /* premultiplied ARGB32 */
    int w, h, stride;  /* stride in pixels */
} raster;

static uint32_t premul(uint32_t rgba, double shade, double alpha)
{
    double a = (rgba & 255) / 255.0 * alpha;
    uint32_t r = (uint32_t)lround(((rgba >> 24) & 255) * shade * a);
    uint32_t g = (uint32_t)lround(((rgba >> 16) & 255) * shade * a);
    uint32_t b = (uint32_t)lround(((rgba >> 8) & 255) * shade * a);
    return ((uint32_t)lround(a * 255) << 24) | (r << 16) | (g << 8) | b;
}

/* Premultiplied "over" of c on d, keep = 256 - alpha(c) - (alpha > 0):
 * ~(255 - a) / 255 in 1/256; two channels per multiply. */
static inline uint32_t over_keep(uint32_t d, uint32_t c, uint32_t keep)
{
    uint32_t rb = (((d & 0x00ff00ffu) * keep) >> 8) & 0x00ff00ffu;
    uint32_t ag = (((d >> 8) & 0x00ff00ffu) * keep) & 0xff00ff00u;
    return c + (rb | ag);
}

static inline uint32_t keep_of(uint32_t c)
{
    uint32_t a = c >> 24;
    return 256 - a - (a > 0 ? 1 : 0);
}

/* Fill [x0,x1) x [y0,y1) with a premultiplied colour, "over" when it is
 * translucent. */
static void raster_fill(raster *ras, int x0, int x1, int y0, int y1, uint32_t c)
{
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > ras->w) x1 = ras->w;
    if (y1 > ras->h) y1 = ras->h;
    if (x1 <= x0 || y1 <= y0)
        return;
    uint32_t keep = keep_of(c);
    for (int y = y0; y < y1; y++) {
        uint32_t *row = ras->px + (size_t)y * ras->stride;
        if (keep == 0) {
            for (int x = x0; x < x1; x++) row[x] = c;
            continue;
        }
        for (int x = x0; x < x1; x++) row[x] = over_keep(row[x], c, keep);
    }
}


static int raster_init(raster *ras, double w, double h)
{
    memset(ras, 0, sizeof *ras);
    if (w < 1 || h < 1)
        return 0;
    ras->w = (int)ceil(w);
    ras->h = (int)ceil(h);
    ras->surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, ras->w, ras->h);
    if (cairo_surface_status(ras->surf) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(ras->surf);
        ras->surf = NULL;
        return 0;
    }
    cairo_surface_flush(ras->surf);
    ras->px = (uint32_t *)(void *)cairo_image_surface_get_data(ras->surf);
    ras->stride = cairo_image_surface_get_stride(ras->surf) / 4;
    return 1;
}

/* The canvas layers are written into the raster in drawing order: boxes
 * and lines directly into its pixels, text and small shapes through a Cairo
 * context on the same surface (rc). raster_direct() must precede direct
 * writes and raster_cairo() Cairo drawing, so each sees the other's work;
 * the finished raster is painted onto the widget once. */
static void raster_direct(raster *ras)
{
    cairo_surface_flush(ras->surf);
}

static void raster_cairo(raster *ras)
{
    cairo_surface_mark_dirty(ras->surf);
}

static void raster_free(raster *ras)
{
    if (ras->surf)
        cairo_surface_destroy(ras->surf);
    memset(ras, 0, sizeof *ras);
}

/* States are drawn at 90 % of their colour over the (near white) row,
 * opaque so the fill is a plain store. */
static uint32_t histogram_colour(uint32_t rgba)
{
    uint32_t c = premul(rgba, 1, 1), mixed = 0xff000000u;
    for (int sh = 0; sh < 24; sh += 8)
        mixed |= (uint32_t)lround(((c >> sh) & 255) * 0.9 + 25.5) << sh;
    return mixed;
}

/* Pixel row of the top of a stack reaching v (0..1): round half up;
 * lround() per column showed in profiles. */
static inline int stack_y(double bottom, double H, float v)
{
    return (int)floor(bottom - v * H + 0.5);
}

/* The state stack of one timeline row for any mapping of scene columns to
 * pixels (a frame drawn re-mapped while the next is queried may put
 * several columns on a pixel, or a column over several): column by column,
 * all categories of a column together, the pixels of one column being a
 * few cache lines the next columns reuse. */
static void stack_columns(raster *ras, const int *xs, int i_lo, int i_hi, double bottom, double H,
                          uint32_t n_st, const float *const *st_cols, const uint32_t *st_c)
{
    for (int i = i_lo; i < i_hi; i++) {
        int x0 = xs[i], x1 = xs[i + 1];
        if (x1 <= x0)
            x1 = x0 + 1;
        if (x0 < 0)
            x0 = 0;
        if (x1 > ras->w)
            x1 = ras->w;
        if (x1 <= x0)
            continue;
        float bse = 0;
        for (uint32_t q = 0; q < n_st; q++) {
            float v = st_cols[q][i];
            if (v <= 0)
                continue;
            float top_v = bse + v > 1 ? 1 : bse + v;
            int y0 = stack_y(bottom, H, top_v), y1 = stack_y(bottom, H, bse);
            bse = top_v;
            if (y0 < 0)
                y0 = 0;
            if (y1 > ras->h)
                y1 = ras->h;
            uint32_t c = st_c[q];
            for (int y = y0; y < y1; y++) {
                uint32_t *px = ras->px + (size_t)y * ras->stride;
                for (int x = x0; x < x1; x++)
                    px[x] = c;
            }
        }
    }
}

/* The same stack when scene column i_first + k is exactly pixel x_first + k
 * (the scene was queried for this viewport: the usual case), a pixel row
 * at a time. Category q of column k spans rows [tops[q], tops[q-1]) with
 * tops[-1] = y_base, so pixel (k, y) shows category #{q : tops[q] > y},
 * or stays as it is when that is n_st. Column by column, the short
 * vertical runs of varying length mispredicted a branch at nearly every
 * step: the histograms were 6 ms of a 10 ms zoomed-out frame, about 3 ms
 * so.
 * tops: n * n_st ints, column k's at k * n_st. */
static void stack_rows(raster *ras, int x_first, int i_first, int n, double bottom, double H,
                       uint32_t n_st, const float *const *st_cols, const uint32_t *st_c, int *tops)
{
    int y_base = stack_y(bottom, H, 0), y_min = y_base;
    for (int k = 0; k < n; k++) {
        int *t = tops + (size_t)k * n_st;
        float bse = 0;
        for (uint32_t q = 0; q < n_st; q++) {
            float v = st_cols[q][i_first + k];
            if (v > 0)
                bse = bse + v > 1 ? 1 : bse + v;
            t[q] = stack_y(bottom, H, bse);
        }
        if (t[n_st - 1] < y_min)
            y_min = t[n_st - 1];
    }
    if (y_min < 0)
        y_min = 0;
    int y_end = y_base < ras->h ? y_base : ras->h;
    for (int y = y_min; y < y_end; y++) {
        uint32_t *px = ras->px + (size_t)y * ras->stride + x_first;
        for (int k = 0; k < n; k++) {
            const int *t = tops + (size_t)k * n_st;
            uint32_t q = 0;
            for (uint32_t j = 0; j < n_st; j++)
                q += t[j] > y;
            px[k] = q < n_st ? st_c[q] : px[k];
        }
    }
}

/* Preview columns of one timeline as a stacked histogram: category
 * fractions (states) stacked from the row bottom, legend order; counts
 * (events, arrows) as a tick along the row top (events) or bottom
 * (arrows), over the stack. */
static void draw_histograms(cairo_t *cr, raster *rasp, double w, double h, const sv_canvas_params *p)
{
    const sv_scene *s = p->scene;
    if (!s->n_slots || !rasp->surf)
        return;
    raster *ras = rasp;
    int *xs = malloc(sizeof(int) * ((size_t)s->width + 1));
    const float **st_cols = malloc(sizeof *st_cols * (p->pal->n + 1));
    uint32_t *st_c = malloc(sizeof *st_c * (p->pal->n + 1));
    int *tops = malloc(sizeof(int) * ((size_t)s->width * p->pal->n + 1));
    if (!xs || !st_cols || !st_c || !tops) {
        free(xs);
        free(st_cols);
        free(st_c);
        free(tops);
        return;
    }
    raster_direct(ras);
    /* canvas x of scene column i */
    double cx0 = sv_viewport_time_to_x(p->vp, s->t0);
    double cdx = s->pixel_ns * p->vp->width / sv_viewport_span(p->vp);
    int i_lo = (int)floor((0 - cx0) / cdx) - 1, i_hi = (int)ceil((w - cx0) / cdx) + 1;
    if (i_lo < 0)
        i_lo = 0;
    if (i_hi > s->width)
        i_hi = s->width;
    /* pixel edges of the columns, once per frame rather than per slot */
    int one_to_one = 1;
    for (int i = i_lo; i <= i_hi; i++) {
        xs[i] = (int)floor(cx0 + i * cdx);
        one_to_one &= i == i_lo || xs[i] == xs[i - 1] + 1;
    }
    /* with one_to_one: the columns on the raster, x_first + k = xs[i_first + k] */
    int x_first = 0, i_first = i_lo, n = 0;
    if (one_to_one && i_hi > i_lo) {
        x_first = xs[i_lo] > 0 ? xs[i_lo] : 0;
        i_first = i_lo + (x_first - xs[i_lo]);
        int i_end = i_first + (ras->w - x_first) < i_hi ? i_first + (ras->w - x_first) : i_hi;
        n = i_end > i_first ? i_end - i_first : 0;
    }
    for (uint32_t tl = 0; tl < s->n_timelines; tl++) {
        size_t a = s->tl_first_slot[tl], b = s->tl_first_slot[tl + 1];
        const sv_row *row = sv_layout_row_of(p->lay, tl);
        if (a == b || !row)
            continue;
        double top = row->y - p->scroll_y;
        if (top + row->h < 0 || top > h)
            continue;
        double bottom = top + row->h - 1, H = row->h - 2;
        uint32_t n_st = 0;
        for (size_t k = a; k < b && n_st < p->pal->n; k++) {
            uint32_t cat = s->slot_cat[k];
            if (cat < p->pal->n && p->pal->visible[cat] && p->pal->kind[cat] == SLOG_KIND_STATE) {
                st_cols[n_st] = s->cols + k * (size_t)s->width;
                st_c[n_st++] = histogram_colour(p->pal->rgba[cat]);
            }
        }
        if (n_st && one_to_one)
            stack_rows(ras, x_first, i_first, n, bottom, H, n_st, st_cols, st_c, tops);
        else if (n_st)
            stack_columns(ras, xs, i_lo, i_hi, bottom, H, n_st, st_cols, st_c);
        for (size_t k = a; k < b; k++) {
            uint32_t cat = s->slot_cat[k];
            if (cat >= p->pal->n || !p->pal->visible[cat] || p->pal->kind[cat] == SLOG_KIND_STATE)
                continue;
            const float *cols = s->cols + k * (size_t)s->width;
            int ev = p->pal->kind[cat] == SLOG_KIND_EVENT;
            uint32_t c = premul(p->pal->rgba[cat], 0.8, ev ? 1 : 0.35);
            int y0 = (int)round(ev ? top + 1 : top + row->h - 3), y1 = y0 + (ev ? 3 : 2);
            if (!one_to_one) {
                for (int i = i_lo; i < i_hi; i++) {
                    if (cols[i] > 0.01f) {
                        int x0 = xs[i], x1 = xs[i + 1];
                        raster_fill(ras, x0, x1 > x0 ? x1 : x0 + 1, y0, y1, c);
                    }
                }
                continue;
            }
            /* raster_fill of each column's pixel, without a call per pixel */
            uint32_t keep = keep_of(c);
            for (int y = y0 < 0 ? 0 : y0; y < y1 && y < ras->h; y++) {
                uint32_t *px = ras->px + (size_t)y * ras->stride + x_first;
                for (int k = 0; k < n; k++)
                    if (cols[i_first + k] > 0.01f)
                        px[k] = keep == 0 ? c : over_keep(px[k], c, keep);
            }
        }
    }
    free(xs);
    free(st_cols);
    free(st_c);
    free(tops);
    raster_cairo(ras);
    (void)cr;
}

static void draw_arrowhead(cairo_t *cr, double x0, double y0, double x1, double y1, double sz)
{
    double dx = x1 - x0, dy = y1 - y0, len = hypot(dx, dy);
    if (len < 1e-6)
        return;
    dx /= len;
    dy /= len;
    cairo_move_to(cr, x1, y1);
    cairo_line_to(cr, x1 - sz * dx + sz * 0.45 * dy, y1 - sz * dy - sz * 0.45 * dx);
    cairo_line_to(cr, x1 - sz * dx - sz * 0.45 * dy, y1 - sz * dy + sz * 0.45 * dx);
    cairo_close_path(cr);
}

#define ARROW_BUDGET 3000

typedef struct arrow_seg {
    double x0, y0, x1, y1;
    uint32_t rgba;
} arrow_seg;

/* Arrows share a colour per category, so they are stroked as one path per
 * run of equal colour (one Cairo stroke instead of thousands), then heads
 * and sender dots filled likewise. Thousands of overlapping arrows would
 * paint a solid grey slab over the states: the ink is kept roughly constant
 * instead, so dense exchanges read as a haze and sparse ones stay crisp. */
/* Blend premultiplied colour c at coverage cov (0..1) into pixel (x, y). */
static inline void raster_plot(raster *ras, int x, int y, uint32_t c, double cov)
{
    if (x < 0 || y < 0 || x >= ras->w || y >= ras->h || cov <= 0)
        return;
    uint32_t k = (uint32_t)(cov * 256);
    if (k > 256)
        k = 256;
    /* scale the premultiplied source by the coverage, then "over" */
    uint32_t srb = (((c & 0x00ff00ffu) * k) >> 8) & 0x00ff00ffu;
    uint32_t sag = ((((c >> 8) & 0x00ff00ffu) * k)) & 0xff00ff00u;
    uint32_t src = srb | sag, a = src >> 24, keep = 255 - a;
    uint32_t *px = ras->px + (size_t)y * ras->stride + x;
    uint32_t d = *px;
    uint32_t rb = (((d & 0x00ff00ffu) * keep) >> 8) & 0x00ff00ffu;
    uint32_t ag = (((d >> 8) & 0x00ff00ffu) * keep) & 0xff00ff00u;
    *px = src + (rb | ag);
}

/* An anti-aliased 1 px line (Xiaolin Wu): each step along the major axis
 * splits its ink between the two pixels nearest the exact line. Clipped to
 * the raster first, so a line far outside costs nothing. */
static void raster_line(raster *ras, double x0, double y0, double x1, double y1, uint32_t c)
{
    /* Liang-Barsky clip to [-1, w] x [-1, h] */
    double t0 = 0, t1 = 1, dx = x1 - x0, dy = y1 - y0;
    double p[4] = {-dx, dx, -dy, dy}, q[4] = {x0 + 1, ras->w - x0, y0 + 1, ras->h - y0};
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return;
        } else {
            double r = q[i] / p[i];
            if (p[i] < 0) {
                if (r > t1) return;
                if (r > t0) t0 = r;
            } else {
                if (r < t0) return;
                if (r < t1) t1 = r;
            }
        }
    }
    double ax = x0 + t0 * dx, ay = y0 + t0 * dy, bx = x0 + t1 * dx, by = y0 + t1 * dy;
    int steep = fabs(by - ay) > fabs(bx - ax);
    if (steep) {
        double t = ax; ax = ay; ay = t;
        t = bx; bx = by; by = t;
    }
    if (ax > bx) {
        double t = ax; ax = bx; bx = t;
        t = ay; ay = by; by = t;
    }
    double grad = bx - ax > 1e-9 ? (by - ay) / (bx - ax) : 0;
    int xs = (int)floor(ax + 0.5), xe = (int)floor(bx + 0.5);
    double y = ay + grad * (xs - ax);
    for (int x = xs; x <= xe; x++, y += grad) {
        int yi = (int)floor(y);
        double f = y - yi;
        if (steep) {
            raster_plot(ras, yi, x, c, 1 - f);
            raster_plot(ras, yi + 1, x, c, f);
        } else {
            raster_plot(ras, x, yi, c, 1 - f);
            raster_plot(ras, x, yi + 1, c, f);
        }
    }
}

/* Event diamonds (|x - cx| + |y - cy| <= SV_EVENT_R, filled, with a 1 px
 * outline) written into the raster. A Cairo fill and stroke per diamond
 * cost ~50,000 instructions each, most of a frame when a thousand
 * checkpoints are in view, even batched into one path. The outline of a
 * mitred 1 px stroke around a diamond is the band between the diamonds of
 * radius r - sqrt(2)/2 and r + sqrt(2)/2, so each pixel needs only the
 * covered area of three nested diamonds. Those depend on where the centre
 * lies within its pixel, quantised to 1/16 pixel (a quarter moved edges by
 * up to 65 of 255 levels against Cairo's, a sixteenth by at most 20): one
 * stamp of 11 x 11 pixels per phase, made when first used in a frame. */
#define STAMP_N 11 /* pixels -5..5 around the centre's pixel: r + 0.71 < 5 */
#define STAMP_PHASES 16

typedef struct diamond_stamps {
    uint8_t made[STAMP_PHASES * STAMP_PHASES];
    float fill[STAMP_PHASES * STAMP_PHASES][STAMP_N * STAMP_N];
    float line[STAMP_PHASES * STAMP_PHASES][STAMP_N * STAMP_N];
} diamond_stamps;

/* Area of the pixel [px, px+1) x [py, py+1) inside the diamond of radius
 * rad at (cx, cy): exact along y, 16 samples along x. */
static double diamond_cover(double px, double py, double cx, double cy, double rad)
{
    double sum = 0;
    for (int i = 0; i < 16; i++) {
        double half = rad - fabs(px + (i + 0.5) / 16 - cx);
        double a = fmax(py, cy - half), b = fmin(py + 1, cy + half);
        if (b > a)
            sum += b - a;
    }
    return sum / 16;
}

static void raster_diamond(raster *ras, diamond_stamps *st, double cx, double cy, uint32_t fill,
                           uint32_t line)
{
    int ix = (int)floor(cx), iy = (int)floor(cy);
    int qx = (int)((cx - ix) * STAMP_PHASES), qy = (int)((cy - iy) * STAMP_PHASES);
    int ph = qy * STAMP_PHASES + qx;
    if (!st->made[ph]) {
        double fx = (qx + 0.5) / STAMP_PHASES, fy = (qy + 0.5) / STAMP_PHASES, h = M_SQRT1_2;
        for (int j = 0; j < STAMP_N; j++)
            for (int i = 0; i < STAMP_N; i++) {
                double px = i - STAMP_N / 2, py = j - STAMP_N / 2;
                double in = diamond_cover(px, py, fx, fy, SV_EVENT_R - h);
                st->fill[ph][j * STAMP_N + i] = (float)diamond_cover(px, py, fx, fy, SV_EVENT_R);
                st->line[ph][j * STAMP_N + i] = (float)(diamond_cover(px, py, fx, fy, SV_EVENT_R + h) - in);
            }
        st->made[ph] = 1;
    }
    for (int j = 0; j < STAMP_N; j++)
        for (int i = 0; i < STAMP_N; i++) {
            int x = ix + i - STAMP_N / 2, y = iy + j - STAMP_N / 2;
            raster_plot(ras, x, y, fill, st->fill[ph][j * STAMP_N + i]);
            raster_plot(ras, x, y, line, st->line[ph][j * STAMP_N + i]);
        }
}

/* With a lift (dark theme) each channel c becomes c x 0.55 + lift; without
 * one rgba is returned as it is and drawn shaded by 0.55. */
static uint32_t arrow_colour(uint32_t rgba)
{
    if (THEME.arrow_lift <= 0)
        return rgba;
    uint32_t out = rgba & 255;
    for (int sh = 8; sh <= 24; sh += 8) {
        double v = ((rgba >> sh) & 255) * 0.55 + THEME.arrow_lift * 255;
        out |= (uint32_t)lround(v > 255 ? 255 : v) << sh;
    }
    return out;
}

static void draw_arrow_segs(cairo_t *cr, raster *ras, const arrow_seg *segs, size_t n, size_t n_arrows,
                            double w, double h)
{
    /* Ink by coverage: if the arrows' strokes would cover more than 4 % of
     * the canvas, lower their alpha so the covered share stays about that. */
    double area = 0;
    for (size_t i = 0; i < n; i++)
        area += hypot(segs[i].x1 - segs[i].x0, segs[i].y1 - segs[i].y0);
    double cover = area / fmax(1.0, w * h);
    double ink = cover > 0.04 ? fmax(0.10, 0.04 / cover) : 1.0;
    int heads = n_arrows < 2000;
    /* Arrows are their category's colour darkened, to stand out from the
     * states' bright fills; on dark rows it is lifted too (the generated
     * files' black messages, the real ones' white): arrow_colour() then
     * applies the 0.55 itself. */
    double shade = THEME.arrow_lift > 0 ? 1 : 0.55;
    /* The lines go through the raster (thousands of Cairo strokes were a
     * fifth of a frame); heads and sender dots stay Cairo paths. */
    if (ras->surf) {
        raster_direct(ras);
        for (size_t i = 0; i < n; i++)
            raster_line(ras, segs[i].x0, segs[i].y0, segs[i].x1, segs[i].y1,
                        premul(arrow_colour(segs[i].rgba), shade, ink));
        raster_cairo(ras);
    }
    for (size_t a = 0; heads && a < n;) {
        size_t b = a;
        while (b < n && segs[b].rgba == segs[a].rgba)
            b++;
        sv_set_rgba(cr, arrow_colour(segs[a].rgba), shade, ink);
        for (size_t i = a; i < b; i++) {
            const arrow_seg *g = &segs[i];
            if (hypot(g->x1 - g->x0, g->y1 - g->y0) <= 12)
                continue;
            draw_arrowhead(cr, g->x0, g->y0, g->x1, g->y1, 7);
            /* a dot marks the sending end */
            cairo_new_sub_path(cr);
            cairo_arc(cr, g->x0, g->y0, 1.8, 0, 2 * M_PI);
        }
        cairo_fill(cr);
        a = b;
    }
}

/* Names inside wide states of one nesting level, over their visible part. */
static void draw_state_names(cairo_t *cr, double w, const sv_canvas_params *p, const sv_geom *g,
                             size_t k0, size_t k1, PangoLayout **name_layout, size_t *n_names)
{
    const sv_scene *s = p->scene;
    for (size_t k = k0; k < k1 && p->cat_names && *n_names < 3000; k++) {
        const sv_item *it = &s->items[s->order[k]];
        if (it->category >= p->pal->n || !p->pal->visible[it->category])
            continue;
        sv_rect r;
        if (!sv_geom_state(g, it, &r) || r.w <= 40 || r.h < 11)
            continue;
        double vx0 = fmax(r.x, 0), vx1 = fmin(r.x + r.w, w);
        if (vx1 - vx0 <= 40)
            continue;
        uint32_t c = p->pal->rgba[it->category];
        double lum = 0.299 * (c >> 24 & 255) + 0.587 * (c >> 16 & 255) + 0.114 * (c >> 8 & 255);
        if (lum > 150)
            cairo_set_source_rgba(cr, 0, 0, 0, 0.85);
        else
            cairo_set_source_rgba(cr, 1, 1, 1, 0.95);
        int big = r.h >= 16;
        double size = big ? 8 : 6.5;
        /* one layout per size for the whole frame: creating a PangoLayout
         * per label dominated the draw time */
        if (!name_layout[big]) {
            name_layout[big] = text_layout(cr, "", 0, size);
            pango_layout_set_ellipsize(name_layout[big], PANGO_ELLIPSIZE_END);
        }
        PangoLayout *l = name_layout[big];
        pango_layout_set_text(l, p->cat_names[it->category], -1);
        pango_layout_set_width(l, (int)((vx1 - vx0 - 8) * PANGO_SCALE));
        cairo_move_to(cr, round(vx0 + 4), round(r.y + (r.h - size * 1.6) / 2));
        pango_cairo_show_layout(cr, l);
        (*n_names)++;
    }
}

/* States of one nesting level, written into the raster (a darker border box
 * under a 1 px smaller one when there is room), painted at once, then their
 * names; the next level is drawn over both, so nesting shows. */
static void draw_state_group(cairo_t *cr, raster *ras, double w, double h, const sv_canvas_params *p,
                             const sv_geom *g, size_t k0, size_t k1, PangoLayout **name_layout,
                             size_t *n_names)
{
    const sv_scene *s = p->scene;
    raster_direct(ras);
    for (size_t k = k0; k < k1; k++) {
        const sv_item *it = &s->items[s->order[k]];
        if (it->category >= p->pal->n || !p->pal->visible[it->category])
            continue;
        sv_rect r;
        if (!sv_geom_state(g, it, &r) || r.x > w || r.x + r.w < 0 || r.y > h || r.y + r.h < 0)
            continue;
        uint32_t rgba = p->pal->rgba[it->category];
        int bx0 = (int)round(fmax(r.x, -2)), bx1 = (int)round(fmin(r.x + r.w, w + 2));
        int by0 = (int)round(r.y), by1 = (int)round(r.y + r.h);
        if (bx1 <= bx0)
            bx1 = bx0 + 1;
        if (bx1 - bx0 >= 4 && by1 - by0 >= 4) {
            raster_fill(ras, bx0, bx1, by0, by1, premul(rgba, 0.6, 1));
            raster_fill(ras, bx0 + 1, bx1 - 1, by0 + 1, by1 - 1, premul(rgba, 1, 1));
        } else {
            raster_fill(ras, bx0, bx1, by0, by1, premul(rgba, 1, 1));
        }
    }
    raster_cairo(ras);
    draw_state_names(cr, w, p, g, k0, k1, name_layout, n_names);
}

/* Height of timeline tl's row (0 when it is not shown). */
static double row_height(const sv_layout *lay, uint32_t tl)
{
    const sv_row *r = sv_layout_row_of(lay, tl);
    return r ? r->h : 0;
}

/* Markers of a run of events of one category (consecutive in draw order):
 * ticks on timelines with more than one event per 12 pixels or rows lower
 * than a diamond, as one Cairo path, and outlined diamonds elsewhere, into
 * the raster. */
static void draw_event_run(cairo_t *cr, raster *ras, double w, double h, const sv_canvas_params *p,
                           const sv_geom *g, size_t k0, size_t k1, const uint32_t *n_ev,
                           diamond_stamps *stamps)
{
    const sv_scene *s = p->scene;
    uint32_t cat = s->items[s->order[k0]].category;
    if (cat >= p->pal->n || !p->pal->visible[cat])
        return;
    uint32_t rgba = p->pal->rgba[cat];
    double r = SV_EVENT_R;
    int any_tick = 0;
    for (size_t k = k0; k < k1; k++) {
        const sv_item *it = &s->items[s->order[k]];
        double x, y, rh = row_height(p->lay, it->timeline);
        if ((rh < SV_EVENT_ROW_MIN || (n_ev && n_ev[it->timeline] * 12.0 > w)) &&
            sv_geom_event(g, it, &x, &y) && x >= -8 && x <= w + 8 && y >= -8 && y <= h + 8) {
            double th = rh < SV_EVENT_ROW_MIN ? rh / 2 : r;
            cairo_rectangle(cr, floor(x), y - th, 1, 2 * th);
            any_tick = 1;
        }
    }
    if (any_tick) {
        sv_set_rgba(cr, rgba, 0.8, 1);
        cairo_fill(cr);
    }
    if (!stamps)
        return;
    uint32_t fill = premul(rgba, 1, 1), line = premul(rgba, 0.45, 1);
    raster_direct(ras);
    for (size_t k = k0; k < k1; k++) {
        const sv_item *it = &s->items[s->order[k]];
        double x, y;
        if (!(n_ev && n_ev[it->timeline] * 12.0 > w) &&
            row_height(p->lay, it->timeline) >= SV_EVENT_ROW_MIN && sv_geom_event(g, it, &x, &y) &&
            x >= -8 && x <= w + 8 && y >= -8 && y <= h + 8)
            raster_diamond(ras, stamps, x, y, fill, line);
    }
    raster_cairo(ras);
}

static void draw_items(cairo_t *cr, raster *ras, double w, double h, const sv_canvas_params *p)
{
    const sv_scene *s = p->scene;
    sv_geom g = {p->vp, p->lay, p->scroll_y};
    size_t n_arrows = 0, n_names = 0, i_arrow = 0;
    arrow_seg *segs = NULL;
    size_t n_seg = 0, cap_seg = 0;
    PangoLayout *name_layout[2] = {NULL, NULL};
    diamond_stamps *stamps = calloc(1, sizeof *stamps);
    /* Dense events become ticks instead of overlapping diamonds: a
     * timeline with more than one event per 12 pixels gets ticks. */
    uint32_t *n_ev = calloc((size_t)s->n_timelines + 1, sizeof(uint32_t));
    for (size_t k = 0; k < s->n_items; k++) {
        n_arrows += s->items[k].kind == SLOG_KIND_ARROW;
        if (n_ev && s->items[k].kind == SLOG_KIND_EVENT)
            n_ev[s->items[k].timeline]++;
    }
    for (size_t k = 0; k < s->n_items; k++) {
        const sv_item *it = &s->items[s->order[k]];
        if (it->kind == SLOG_KIND_STATE && ras->surf) {
            /* the scene orders states first, by nesting depth */
            size_t e = k;
            while (e < s->n_items && s->items[s->order[e]].kind == SLOG_KIND_STATE &&
                   s->items[s->order[e]].depth == it->depth)
                e++;
            draw_state_group(cr, ras, w, h, p, &g, k, e, name_layout, &n_names);
            k = e - 1;
            continue;
        }
        if (it->category >= p->pal->n || !p->pal->visible[it->category])
            continue;
        uint32_t rgba = p->pal->rgba[it->category];
        if (it->kind == SLOG_KIND_STATE) {
            continue; /* no raster (allocation failed): states are skipped */
        } else if (it->kind == SLOG_KIND_EVENT) {
            size_t e = k;
            while (e < s->n_items && s->items[s->order[e]].kind == SLOG_KIND_EVENT &&
                   s->items[s->order[e]].category == it->category)
                e++;
            draw_event_run(cr, ras, w, h, p, &g, k, e, n_ev, stamps);
            k = e - 1;
        } else {
            double x0, y0, x1, y1;
            /* Past a few thousand arrows individual lines carry no more
             * information, only ink: draw an even sample of them. */
            size_t stride = n_arrows / ARROW_BUDGET + 1;
            if (i_arrow++ % stride)
                continue;
            if (!sv_geom_arrow(&g, it, &x0, &y0, &x1, &y1))
                continue;
            if ((x0 < 0 && x1 < 0) || (x0 > w && x1 > w) || (y0 < 0 && y1 < 0) ||
                (y0 > h && y1 > h))
                continue;
            /* Zoomed out, messages become vertical strokes that fuse into a
             * grey wall hiding the states; the preview already shows where
             * the time goes, so draw such arrows only when they are few. */
            if (n_arrows > 300 && fabs(x1 - x0) < 2)
                continue;
            /* Thousands of overlapping arrows would paint a solid grey slab
             * over the states: keep the total ink roughly constant instead,
             * so dense exchanges read as a haze and sparse ones stay crisp. */
            if (n_seg == cap_seg) {
                size_t cap = cap_seg ? 2 * cap_seg : 256;
                arrow_seg *ns = realloc(segs, cap * sizeof *ns);
                if (!ns)
                    continue;
                segs = ns;
                cap_seg = cap;
            }
            segs[n_seg++] = (arrow_seg){x0, y0, x1, y1, rgba};
        }
    }
    draw_arrow_segs(cr, ras, segs, n_seg, n_arrows, w, h);
    free(segs);
    free(n_ev);
    free(stamps);
    for (int i = 0; i < 2; i++)
        if (name_layout[i])
            g_object_unref(name_layout[i]);
}

static void outline_item(cairo_t *cr, const sv_canvas_params *p, const sv_item *it,
                         int strong)
{
    sv_geom g = {p->vp, p->lay, p->scroll_y};
    cairo_set_line_width(cr, strong ? 2.5 : 2);
    if (strong)
        sv_theme_source(cr, THEME.strong, 1);
    else
        sv_theme_source(cr, THEME.accent, 1);
    if (it->kind == SLOG_KIND_STATE) {
        sv_rect r;
        if (sv_geom_state(&g, it, &r)) {
            cairo_rectangle(cr, r.x - 1, r.y - 1, r.w + 2, r.h + 2);
            cairo_stroke(cr);
        }
    } else if (it->kind == SLOG_KIND_EVENT) {
        double x, y;
        if (sv_geom_event(&g, it, &x, &y)) {
            cairo_arc(cr, x, y, SV_EVENT_R + 2.5, 0, 2 * M_PI);
            cairo_stroke(cr);
        }
    } else {
        double x0, y0, x1, y1;
        if (sv_geom_arrow(&g, it, &x0, &y0, &x1, &y1)) {
            cairo_set_line_width(cr, strong ? 3 : 2.5);
            cairo_move_to(cr, x0, y0);
            cairo_line_to(cr, x1, y1);
            cairo_stroke(cr);
            draw_arrowhead(cr, x0, y0, x1, y1, 9);
            cairo_fill(cr);
        }
    }
}

void sv_render_canvas(cairo_t *cr, double w, double h, const sv_canvas_params *p)
{
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_clip(cr);
    raster ras;
    if (p->scene && raster_init(&ras, w, h)) {
        /* Everything goes into the raster, the row background first: it is
         * opaque then, and a copy (SOURCE) replaces blending 8 MiB of
         * mostly transparent pixels over a background painted beneath. */
        cairo_t *rc = cairo_create(ras.surf);
        draw_rows_background(rc, w, h, p);
        draw_histograms(rc, &ras, w, h, p);
        draw_items(rc, &ras, w, h, p);
        cairo_destroy(rc);
        raster_cairo(&ras);
        cairo_set_source_surface(cr, ras.surf, 0, 0);
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
        cairo_paint(cr);
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
        raster_free(&ras);
    } else {
        draw_rows_background(cr, w, h, p);
    }
    if (p->have_range) {
        double x0 = sv_viewport_time_to_x(p->vp, fmin(p->range_t0, p->range_t1));
        double x1 = sv_viewport_time_to_x(p->vp, fmax(p->range_t0, p->range_t1));
        x0 = fmax(x0, -2);
        x1 = fmin(x1, w + 2);
        /* Veil what lies outside the range rather than tint what lies
         * inside: over rows full of coloured states a light tint vanishes,
         * a washed-out surround does not. */
        sv_theme_source(cr, THEME.veil, 1);
        cairo_rectangle(cr, -2, 0, x0 + 2, h);
        cairo_rectangle(cr, x1, 0, w + 2 - x1, h);
        cairo_fill(cr);
        sv_theme_source(cr, THEME.accent, 0.9);
        cairo_set_line_width(cr, 2);
        cairo_move_to(cr, floor(x0), 0);
        cairo_line_to(cr, floor(x0), h);
        cairo_move_to(cr, floor(x1), 0);
        cairo_line_to(cr, floor(x1), h);
        cairo_stroke(cr);
    }
    if (p->hover && !same_item(p->hover, p->selected))
        outline_item(cr, p, p->hover, 0);
    if (p->selected)
        outline_item(cr, p, p->selected, 1);
    cairo_restore(cr);
}

/* ------------------------------------------------------------ ruler */

void sv_render_ruler(cairo_t *cr, double w, double h, const sv_viewport *vp,
                     double label_offset, int have_range, double r0, double r1)
{
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_clip(cr);
    sv_theme_source(cr, THEME.chrome_bg, 1);
    cairo_paint(cr);
    if (have_range) {
        double x0 = sv_viewport_time_to_x(vp, fmin(r0, r1));
        double x1 = sv_viewport_time_to_x(vp, fmax(r0, r1));
        sv_theme_source(cr, THEME.accent, 0.25);
        cairo_rectangle(cr, x0, 0, x1 - x0, h);
        cairo_fill(cr);
    }
    sv_ticks tk;
    sv_ticks_choose(vp->t0 + label_offset, vp->t1 + label_offset, w, 90, &tk);
    cairo_set_line_width(cr, 1);
    sv_theme_source(cr, THEME.tick, 1);
    /* minor ticks */
    double m0 = ceil((vp->t0 + label_offset) / tk.minor_step) * tk.minor_step;
    for (double t = m0; t <= vp->t1 + label_offset; t += tk.minor_step) {
        double x = floor(sv_viewport_time_to_x(vp, t - label_offset)) + 0.5;
        cairo_move_to(cr, x, h - 4);
        cairo_line_to(cr, x, h);
        if (tk.minor_step <= 0)
            break;
    }
    cairo_stroke(cr);
    sv_theme_source(cr, THEME.major_tick, 1);
    for (int i = 0; i < tk.n; i++) {
        double x = floor(sv_viewport_time_to_x(vp, tk.first + i * tk.step - label_offset)) + 0.5;
        cairo_move_to(cr, x, h - 10);
        cairo_line_to(cr, x, h);
    }
    cairo_stroke(cr);
    sv_theme_source(cr, THEME.text, 1);
    double left_limit = 0;
    if (tk.anchor != 0) {
        char ab[64], buf[80];
        sv_format_time((int64_t)tk.anchor, ab, sizeof ab);
        snprintf(buf, sizeof buf, "%s", ab);
        sv_theme_source(cr, THEME.accent, 1);
        left_limit = 6 + sv_draw_text(cr, buf, 4, 3, 0, 1, 8) + 8;
        sv_theme_source(cr, THEME.text, 1);
    }
    for (int i = 0; i < tk.n; i++) {
        double t = tk.first + i * tk.step;
        double x = floor(sv_viewport_time_to_x(vp, t - label_offset)) + 0.5;
        char buf[48];
        sv_ticks_label(&tk, t, buf, sizeof buf);
        if (x + 3 < left_limit)
            continue;
        /* A label that would run past the right edge (its unit cut off)
         * goes left of its tick, where it is whole, unless the label
         * before it is there. */
        double tw = sv_text_width(cr, buf, 0, 8);
        if (x + 3 + tw <= w)
            left_limit = x + 3 + sv_draw_text(cr, buf, x + 3, 3, 0, 0, 8) + 6;
        else if (x - 3 - tw >= left_limit)
            sv_draw_text(cr, buf, x - 3, 3, 2, 0, 8);
    }
    sv_theme_source(cr, THEME.border, 1);
    cairo_move_to(cr, 0, h - 0.5);
    cairo_line_to(cr, w, h - 0.5);
    cairo_stroke(cr);
    cairo_restore(cr);
}

/* ------------------------------------------------------------ labels */

void sv_render_labels(cairo_t *cr, double w, double h, const sv_layout *lay, double scroll_y,
                      const char *const *labels, long hover_row)
{
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_clip(cr);
    sv_theme_source(cr, THEME.chrome_bg, 1);
    cairo_paint(cr);
    /* Backgrounds first, then the labels: a label may be taller than its
     * row (below), and the next row's background must not cut it. */
    size_t k = 0;
    for (size_t i = 0; i < lay->n_rows; i++) {
        const sv_row *r = &lay->rows[i];
        double y = r->y - scroll_y;
        k = r->timeline < 0 ? 0 : k + 1;
        if (y + r->h < 0 || y > h)
            continue;
        if (r->timeline < 0) {
            sv_theme_source(cr, THEME.header_bg, 1);
            cairo_rectangle(cr, 0, y, w, r->h);
            cairo_fill(cr);
            sv_theme_source(cr, THEME.text, 1);
            if (r->h >= 9)
                draw_text_clipped(cr, lay->group_names[r->group][0] ? lay->group_names[r->group]
                                                                    : "(no host)",
                                  6, y + (r->h - 13) / 2, w - 10, 1, r->h >= 14 ? 8.5 : 7);
        } else if ((long)i == hover_row) {
            sv_theme_source(cr, THEME.accent, 0.12);
            cairo_rectangle(cr, 0, y, w, r->h);
            cairo_fill(cr);
        } else if (k % 2 == 0) {
            sv_theme_source(cr, THEME.alt_bg, 1);
            cairo_rectangle(cr, 0, y, w, r->h);
            cairo_fill(cr);
        }
    }
    /* Rows too low for a label each (hundreds of ranks): a row gets one
     * when its centre is 14 px below the last labelled one's (counted from
     * the top of the file, so labels do not move as rows scroll), centred
     * on it, with a tick pointing at its row. */
    double last_cy = -INFINITY;
    for (size_t i = 0; i < lay->n_rows; i++) {
        const sv_row *r = &lay->rows[i];
        double y = r->y - scroll_y, cy = r->y + r->h / 2;
        int small = r->h < 8;
        if (r->timeline < 0 || (small && cy - last_cy < 14))
            continue;
        last_cy = cy;
        if (y + r->h < -16 || y > h + 16)
            continue;
        if (small) {
            sv_theme_source(cr, THEME.dim_text, 1);
            cairo_rectangle(cr, w - 5, floor(y + r->h / 2), 4, 1);
            cairo_fill(cr);
        }
        double size = r->h >= 16 ? 8.5 : r->h >= 11 ? 7 : r->h >= 8 ? 5.5 : 6;
        double text_h = size * 1.6;
        sv_theme_source(cr, THEME.text, 1);
        char fallback[32];
        const char *l = labels ? labels[r->timeline] : NULL;
        if (!l || !*l) {
            snprintf(fallback, sizeof fallback, "timeline %d", r->timeline);
            l = fallback;
        }
        double ty = y + (r->h - text_h) / 2;
        if (small) /* taller than its row: kept whole at the edges */
            ty = fmax(0, fmin(ty, h - text_h));
        draw_text_clipped(cr, l, lay->n_groups > 1 || lay->group_names[0][0] ? 14 : 8, ty, w - 18, 0,
                          size);
    }
    sv_theme_source(cr, THEME.border, 1);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, w - 0.5, 0);
    cairo_line_to(cr, w - 0.5, h);
    cairo_stroke(cr);
    cairo_restore(cr);
}

/* ------------------------------------------------------------ overview */

sv_overview *sv_overview_from_scene(const sv_scene *s, uint32_t n_timelines)
{
    sv_overview *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->width = s->width;
    o->t0 = s->t0;
    o->t1 = s->t1;
    o->n_categories = s->n_categories;
    o->bytes_read = s->stats.bytes_read;
    o->cols = calloc((size_t)s->n_categories * s->width + 1, sizeof(float));
    if (!o->cols) {
        free(o);
        return NULL;
    }
    for (size_t k = 0; k < s->n_slots; k++) {
        uint32_t cat = s->slot_cat[k];
        if (s->cat_kind[cat] != SLOG_KIND_STATE)
            continue;
        float *dst = o->cols + (size_t)cat * s->width;
        const float *src = s->cols + k * (size_t)s->width;
        for (int i = 0; i < s->width; i++)
            dst[i] += src[i];
    }
    for (size_t i = 0; i < s->n_items; i++) {
        const sv_item *it = &s->items[i];
        if (it->kind != SLOG_KIND_STATE)
            continue;
        sv_aggregate_interval(o->cols + (size_t)it->category * s->width, s->width, s->t0,
                              s->pixel_ns, (double)it->start, (double)it->end, 1);
    }
    double norm = n_timelines ? 1.0 / n_timelines : 1;
    for (size_t i = 0; i < (size_t)s->n_categories * s->width; i++)
        o->cols[i] *= (float)norm;
    return o;
}

void sv_overview_free(sv_overview *o)
{
    if (!o)
        return;
    free(o->cols);
    free(o);
}

/* The stacked histogram of the overview, into cr (background included). */
static void overview_histogram(cairo_t *cr, double w, double h, const sv_overview *o, const sv_palette *pal)
{
    sv_theme_source(cr, THEME.overview_bg, 1);
    cairo_paint(cr);
    double pad = 3, H = h - 2 * pad;
    if (!o || o->width <= 0)
        return;
    double dx = w / o->width;
    float *base = calloc((size_t)o->width, sizeof(float));
    for (uint32_t c = 0; base && c < o->n_categories && c < pal->n; c++) {
        if (!pal->visible[c] || pal->kind[c] != SLOG_KIND_STATE)
            continue;
        const float *v = o->cols + (size_t)c * o->width;
        int any = 0;
        for (int i = 0; i < o->width; i++) {
            if (v[i] <= 0)
                continue;
            float b = base[i], t = b + v[i] > 1 ? 1 : b + v[i];
            /* whole pixels: Cairo fills aligned boxes without
             * tessellating them */
            double x0 = floor(i * dx), x1 = floor((i + 1) * dx);
            double y0 = round(h - pad - t * H), y1 = round(h - pad - b * H);
            if (x1 > x0 && y1 > y0)
                cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
            base[i] = t;
            any = 1;
        }
        if (any) {
            sv_set_rgba(cr, pal->rgba[c], 1, 0.95);
            cairo_fill(cr);
        }
    }
    free(base);
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* What the histogram image depends on: the columns, the size, the device
 * scale, the palette (colours, visibility) and the theme. */
static uint64_t overview_key(double w, double h, double sx, double sy, const sv_overview *o,
                             const sv_palette *pal)
{
    uint64_t k = 0xcbf29ce484222325ull;
    double dims[4] = {w, h, sx, sy};
    k = fnv1a(k, dims, sizeof dims);
    if (o && o->width > 0) {
        k = fnv1a(k, &o->width, sizeof o->width);
        k = fnv1a(k, &o->n_categories, sizeof o->n_categories);
        k = fnv1a(k, o->cols, sizeof(float) * (size_t)o->width * o->n_categories);
    }
    const sv_theme *t = sv_theme_current();
    k = fnv1a(k, &t, sizeof t);
    k = fnv1a(k, pal->rgba, sizeof *pal->rgba * pal->n);
    k = fnv1a(k, pal->visible, sizeof *pal->visible * pal->n);
    return fnv1a(k, pal->kind, sizeof *pal->kind * pal->n);
}

void sv_render_overview(cairo_t *cr, double w, double h, const sv_overview *o,
                        const sv_viewport *vp, const sv_palette *pal)
{
    /* The histogram changes with the document, the size and the palette;
     * the visible window moves on every pan and zoom. So it is drawn once
     * into an image kept for the next frames (one per thread: frames are
     * drawn on the UI thread, or the headless renderer's), and each frame
     * only paints that and the window. */
    static _Thread_local cairo_surface_t *cache;
    static _Thread_local uint64_t cache_key;
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_clip(cr);
    double sx = 1, sy = 1;
    cairo_surface_get_device_scale(cairo_get_target(cr), &sx, &sy);
    uint64_t key = overview_key(w, h, sx, sy, o, pal);
    if (!cache || key != cache_key) {
        if (cache)
            cairo_surface_destroy(cache);
        cache = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(w * sx), (int)ceil(h * sy));
        cairo_surface_set_device_scale(cache, sx, sy);
        cairo_t *c2 = cairo_create(cache);
        overview_histogram(c2, w, h, o, pal);
        cairo_destroy(c2);
        cache_key = key;
    }
    if (cairo_surface_status(cache) == CAIRO_STATUS_SUCCESS) {
        cairo_set_source_surface(cr, cache, 0, 0);
        cairo_paint(cr);
    } else {
        overview_histogram(cr, w, h, o, pal);
    }
    /* dim outside the visible window; outline the window */
    double x0 = (vp->t0 - vp->lo) / (vp->hi - vp->lo) * w;
    double x1 = (vp->t1 - vp->lo) / (vp->hi - vp->lo) * w;
    if (x1 - x0 < 3) {
        double c = (x0 + x1) / 2;
        x0 = c - 1.5;
        x1 = c + 1.5;
    }
    sv_theme_source(cr, THEME.dim_window, 1);
    cairo_rectangle(cr, 0, 0, x0, h);
    cairo_rectangle(cr, x1, 0, w - x1, h);
    cairo_fill(cr);
    sv_theme_source(cr, THEME.accent, 1);
    cairo_set_line_width(cr, 2);
    cairo_rectangle(cr, x0 + 1, 1, x1 - x0 - 2, h - 2);
    cairo_stroke(cr);
    sv_theme_source(cr, THEME.border, 1);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, 0, h - 0.5);
    cairo_line_to(cr, w, h - 0.5);
    cairo_stroke(cr);
    cairo_restore(cr);
}

double sv_fit_header_height(double row_h, double header_h)
{
    return row_h >= header_h ? header_h : fmax(1, floor(row_h * 0.75));
}

double sv_fit_row_height(double avail, size_t n_rows, size_t n_headers, double header_h,
                         double min_h)
{
    if (n_rows == 0)
        return 24;
    double h = (avail - n_headers * header_h) / n_rows;
    /* Rows smaller than headers: the picture's headers shrink with the rows
     * (doc.c), to about three quarters of one. */
    if (h < header_h)
        h = avail / (n_rows + n_headers * 0.75);
    /* Few timelines: the rows share the whole canvas (4 ranks, the usual
     * real trace, fill it), but none is taller than a quarter of it, so one
     * to three timelines keep bars that read as bars and the rest stays
     * empty; 96 px (the old cap) still when a quarter is less. */
    double cap = fmax(96, avail / 4);
    if (h > cap)
        h = cap;
    if (h < min_h)
        h = min_h;
    return floor(h);
}
