/* SPDX-License-Identifier: MIT */
/* test_golden.c - golden-image tests of `slog2-view --render`: small
 * generated files rendered headless and compared with tests/viewer/golden/
 * with a tolerance (a pixel differs when a channel differs by more than
 * PIXEL_DELTA; at most MAX_DIFF_FRACTION of the pixels may differ, which
 * absorbs font rasterisation differences between machines).
 * SLOG2_UPDATE_GOLDEN=1 rewrites the golden files.
 *
 * usage: test_golden SLOG2_VIEW GOLDEN_DIR WORK_DIR */
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"
#include "gen.h"

#define PIXEL_DELTA       48
#define MAX_DIFF_FRACTION 0.01

typedef struct gcase {
    const char *name;
    int file; /* 0 small, 1 wide */
    const char *args;
} gcase;

static const gcase CASES[] = {
    {"small-all", 0, "--window all --size 900x420"},
    {"small-exchange", 0, "--window 0.0043:0.0049 --size 900x420"},
    {"small-timelines", 0, "--window 0.002:0.006 --timelines 1-2 --size 700x260"},
    {"wide-preview", 1, "--window all --size 1000x600"},
    {"wide-zoom", 1, "--window 0.1:0.104 --timelines 0-15 --size 1000x600"},
    /* rows too low for a label each: every few rows one, with a tick */
    {"wide-dense", 1, "--window all --size 700x220"},
    /* the dark style: chrome, rows, text and lines change, the data not */
    {"small-exchange-dark", 0, "--window 0.0043:0.0049 --size 900x420 --theme dark"},
    {"wide-preview-dark", 1, "--window all --size 1000x600 --theme dark"},
};

static int compare(const char *got, const char *want, double *frac)
{
    cairo_surface_t *a = cairo_image_surface_create_from_png(got);
    cairo_surface_t *b = cairo_image_surface_create_from_png(want);
    int rc = -1;
    if (cairo_surface_status(a) || cairo_surface_status(b)) {
        fprintf(stderr, "cannot load %s or %s\n", got, want);
        goto out;
    }
    int w = cairo_image_surface_get_width(a), h = cairo_image_surface_get_height(a);
    if (w != cairo_image_surface_get_width(b) || h != cairo_image_surface_get_height(b)) {
        fprintf(stderr, "%s: size %dx%d differs from the golden image\n", got, w, h);
        goto out;
    }
    cairo_surface_flush(a);
    cairo_surface_flush(b);
    long diff = 0;
    for (int y = 0; y < h; y++) {
        const uint32_t *pa =
            (const uint32_t *)(cairo_image_surface_get_data(a) + y * cairo_image_surface_get_stride(a));
        const uint32_t *pb =
            (const uint32_t *)(cairo_image_surface_get_data(b) + y * cairo_image_surface_get_stride(b));
        for (int x = 0; x < w; x++) {
            int d = 0;
            for (int c = 0; c < 24; c += 8) {
                int e = abs((int)((pa[x] >> c) & 255) - (int)((pb[x] >> c) & 255));
                if (e > d) d = e;
            }
            diff += d > PIXEL_DELTA;
        }
    }
    *frac = (double)diff / ((double)w * h);
    rc = 0;
out:
    cairo_surface_destroy(a);
    cairo_surface_destroy(b);
    return rc;
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    int ok = in && out;
    char buf[65536];
    size_t n;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
    if (in) fclose(in);
    if (out && fclose(out)) ok = 0;
    return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s SLOG2_VIEW GOLDEN_DIR WORK_DIR\n", argv[0]);
        return 2;
    }
    const char *view = argv[1], *golden = argv[2], *work = argv[3];
    int update = getenv("SLOG2_UPDATE_GOLDEN") && atoi(getenv("SLOG2_UPDATE_GOLDEN"));
    char files[2][4096];
    snprintf(files[0], sizeof files[0], "%s/golden-small.slog2", work);
    snprintf(files[1], sizeof files[1], "%s/golden-wide.slog2", work);
    sv_gen_opts o;
    sv_gen_opts_small(&o);
    slog_error err = {0};
    CHECK(sv_gen_write(files[0], &o, &err) == SLOG_OK);
    o.n_timelines = 24;
    o.n_iterations = 400;
    o.per_host = 8;
    o.seed = 7;
    CHECK(sv_gen_write(files[1], &o, &err) == SLOG_OK);
    /* every image is compared before the verdict: an intended change to
     * the drawing shows all the images it changes at once */
    int n_bad = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const gcase *c = &CASES[i];
        char out[4096], want[4096], cmd[16384];
        snprintf(out, sizeof out, "%s/%s.png", work, c->name);
        snprintf(want, sizeof want, "%s/%s.png", golden, c->name);
        snprintf(cmd, sizeof cmd, "'%s' --render '%s' %s '%s'", view, out, c->args, files[c->file]);
        int st = system(cmd);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "%s: command failed (status %d): %s\n", c->name, st, cmd);
            n_bad++;
            continue;
        }
        if (update) {
            CHECK(copy_file(out, want) == 0);
            printf("%s: golden image updated\n", c->name);
            continue;
        }
        double frac = 1;
        if (compare(out, want, &frac)) {
            fprintf(stderr, "%s: no golden image; run with SLOG2_UPDATE_GOLDEN=1\n", c->name);
            n_bad++;
            continue;
        }
        printf("%s: %.4f%% of pixels differ\n", c->name, frac * 100);
        if (frac > MAX_DIFF_FRACTION) {
            fprintf(stderr, "%s: %s differs from %s in %.2f%% of pixels\n", c->name, out, want, frac * 100);
            n_bad++;
        }
    }
    remove(files[0]);
    remove(files[1]);
    if (n_bad) FAIL("%d of %zu images not as the golden ones", n_bad, sizeof CASES / sizeof CASES[0]);
    return 0;
}
