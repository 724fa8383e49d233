/* SPDX-License-Identifier: MIT */
/* test_viewport.c - time<->pixel mapping, zoom around a point, pan
 * clamping, tick choice, formatting and row layout (viewport.c). */
#include <string.h>

#include "check.h"
#include "render.h"
#include "viewport.h"

static void test_mapping(void)
{
    sv_viewport vp;
    sv_viewport_init(&vp, 0, 1e9, 1000);
    CHECK_NEAR(sv_viewport_pixel_ns(&vp), 1e6, 1e-6);
    CHECK_NEAR(sv_viewport_time_to_x(&vp, 5e8), 500, 1e-9);
    CHECK_NEAR(sv_viewport_x_to_time(&vp, 250), 2.5e8, 1e-3);
    for (double x = 0; x <= 1000; x += 37.5)
        CHECK_NEAR(sv_viewport_time_to_x(&vp, sv_viewport_x_to_time(&vp, x)), x, 1e-6);
    /* empty extent is widened */
    sv_viewport_init(&vp, 100, 100, 10);
    CHECK(vp.hi - vp.lo >= SV_MIN_SPAN_NS);
}

static void test_zoom(void)
{
    sv_viewport vp;
    sv_viewport_init(&vp, 0, 1e9, 1000);
    double t_under = sv_viewport_x_to_time(&vp, 300);
    CHECK(sv_viewport_zoom_at(&vp, 4, 300));
    CHECK_NEAR(sv_viewport_span(&vp), 2.5e8, 1);
    CHECK_NEAR(sv_viewport_x_to_time(&vp, 300), t_under, 1e-3); /* point stays fixed */
    /* zoom out past the extent clamps to fit */
    sv_viewport_zoom_at(&vp, 1e-6, 10);
    CHECK_NEAR(vp.t0, 0, 1e-9);
    CHECK_NEAR(vp.t1, 1e9, 1e-9);
    CHECK(!sv_viewport_zoom_at(&vp, 0.5, 500)); /* already at fit */
    /* deep zoom stops at the minimum span */
    for (int i = 0; i < 100; i++) sv_viewport_zoom_at(&vp, 10, 999);
    CHECK_NEAR(sv_viewport_span(&vp), SV_MIN_SPAN_NS, 1e-6);
    CHECK(vp.t1 <= vp.hi && vp.t0 >= vp.lo);
    /* zoom at the right edge keeps the window inside */
    sv_viewport_fit(&vp);
    sv_viewport_zoom_at(&vp, 2, 1000);
    CHECK_NEAR(vp.t1, 1e9, 1e-6);
    CHECK_NEAR(vp.t0, 5e8, 1e-6);
}

static void test_pan(void)
{
    sv_viewport vp;
    sv_viewport_init(&vp, 0, 1e9, 1000);
    CHECK(!sv_viewport_pan_px(&vp, 100)); /* at fit nothing moves */
    sv_viewport_set_window(&vp, 4e8, 5e8);
    CHECK(sv_viewport_pan_px(&vp, 100)); /* 100 px = 1e7 ns */
    CHECK_NEAR(vp.t0, 4.1e8, 1e-3);
    CHECK_NEAR(sv_viewport_span(&vp), 1e8, 1e-3);
    sv_viewport_pan_ns(&vp, -1e12);
    CHECK_NEAR(vp.t0, 0, 1e-9);
    CHECK_NEAR(vp.t1, 1e8, 1e-3);
    sv_viewport_pan_ns(&vp, 1e12);
    CHECK_NEAR(vp.t1, 1e9, 1e-3);
    CHECK_NEAR(sv_viewport_span(&vp), 1e8, 1e-3);
    /* set_window clamps and orders */
    sv_viewport_set_window(&vp, 2e9, -5);
    CHECK_NEAR(vp.t0, 0, 1e-9);
    CHECK_NEAR(vp.t1, 1e9, 1e-9);
    sv_viewport_center_on(&vp, 0);
    CHECK_NEAR(vp.t0, 0, 1e-9);
}

static void test_ticks(void)
{
    int m;
    CHECK_NEAR(sv_nice_step(1, &m), 1, 0);
    CHECK(m == 1);
    CHECK_NEAR(sv_nice_step(1.01, &m), 2, 1e-12);
    CHECK(m == 2);
    CHECK_NEAR(sv_nice_step(2e6, &m), 2e6, 1e-3);
    CHECK_NEAR(sv_nice_step(3e6, &m), 5e6, 1e-3);
    CHECK(m == 5);
    CHECK_NEAR(sv_nice_step(7.3e-1 * 1e3, &m), 1e3, 1e-6);
    CHECK_NEAR(sv_nice_step(999, NULL), 1000, 1e-9);
    CHECK_STR(sv_unit_for(5e8).name, "ms");
    CHECK_STR(sv_unit_for(2e9).name, "s");
    CHECK_STR(sv_unit_for(1e9).name, "s");
    CHECK_STR(sv_unit_for(1e3).name, "\xc2\xb5s");
    CHECK_STR(sv_unit_for(20).name, "ns");

    sv_ticks tk;
    char buf[64];
    /* 1 s over 1000 px, >= 100 px per label: 100 ms ticks, labels in ms */
    sv_ticks_choose(0, 1e9, 1000, 100, &tk);
    CHECK_NEAR(tk.step, 1e8, 1e-3);
    CHECK_STR(tk.unit.name, "ms");
    CHECK(tk.n == 11);
    CHECK(tk.anchor == 0);
    sv_ticks_label(&tk, 3e8, buf, sizeof buf);
    CHECK_STR(buf, "300 ms");
    /* 10 s: 2 s ticks, seconds */
    sv_ticks_choose(0, 1e10, 1000, 150, &tk);
    CHECK_NEAR(tk.step, 2e9, 1e-3);
    CHECK_STR(tk.unit.name, "s");
    sv_ticks_label(&tk, 4e9, buf, sizeof buf);
    CHECK_STR(buf, "4 s");
    /* 2.5 us window: 500 ns ticks -> ns labels */
    sv_ticks_choose(1000, 3500, 500, 100, &tk);
    CHECK_NEAR(tk.step, 500, 1e-9);
    CHECK_STR(tk.unit.name, "ns");
    CHECK_NEAR(tk.first, 1000, 0);
    /* 1.5 ms step: unit ms, one decimal when the step is 0.5 ms */
    sv_ticks_choose(0, 5e6, 1000, 100, &tk);
    CHECK_NEAR(tk.step, 5e5, 1e-6);
    CHECK_STR(tk.unit.name, "\xc2\xb5s");
    /* far from 0 with a tiny window: an anchor keeps labels short */
    sv_ticks_choose(12.3456789e9, 12.3456789e9 + 1000, 1000, 100, &tk);
    CHECK(tk.anchor != 0);
    CHECK(tk.anchor <= 12.3456789e9);
    sv_ticks_label(&tk, tk.first, buf, sizeof buf);
    CHECK(strlen(buf) < 16);
    /* ticks are in the window and step apart */
    sv_ticks_choose(123456, 987654321, 1234, 80, &tk);
    CHECK(tk.first >= 123456 && tk.first - tk.step < 123456);
    CHECK(tk.first + (tk.n - 1) * tk.step <= 987654321);
    CHECK(tk.step * 1234 / (987654321 - 123456) >= 80);
}

static void test_format(void)
{
    char b[64];
    sv_format_duration(1234567, b, sizeof b);
    CHECK_STR(b, "1.23 ms");
    sv_format_duration(15, b, sizeof b);
    CHECK_STR(b, "15 ns");
    sv_format_duration(2.5e9, b, sizeof b);
    CHECK_STR(b, "2.5 s");
    sv_format_duration(123456, b, sizeof b);
    CHECK_STR(b, "123 \xc2\xb5s");
    sv_format_time(1234567890, b, sizeof b);
    CHECK_STR(b, "1.23456789 s");
    sv_format_time(5000000, b, sizeof b);
    CHECK_STR(b, "0.005 s");
    sv_format_time(-1500000000, b, sizeof b);
    CHECK_STR(b, "-1.500 s");
    sv_format_bytes(512, b, sizeof b);
    CHECK_STR(b, "512 B");
    sv_format_bytes(1536, b, sizeof b);
    CHECK_STR(b, "1.5 KiB");
    sv_format_bytes(3.2 * 1024 * 1024, b, sizeof b);
    CHECK_STR(b, "3.2 MiB");
}

static void test_layout(void)
{
    const char *groups[] = {"hostA", "hostB", "hostA", "hostB", "hostC"};
    sv_layout lay;
    CHECK(sv_layout_build(&lay, 5, groups, NULL, 0, 4, 20, 10) == 0);
    /* A: header, 0, 2; B: header, 1, 3; C: header, 4 */
    CHECK(lay.n_rows == 8);
    CHECK(lay.n_groups == 3);
    CHECK(lay.rows[0].timeline == -1);
    CHECK(lay.rows[1].timeline == 0 && lay.rows[2].timeline == 2);
    CHECK(lay.rows[4].timeline == 1 && lay.rows[5].timeline == 3);
    CHECK(lay.rows[7].timeline == 4);
    CHECK_NEAR(lay.total_h, 3 * 10 + 5 * 20, 0);
    CHECK(lay.row_of_timeline[3] == 5);
    CHECK(sv_layout_row_at(&lay, 0) == 0);
    CHECK(sv_layout_row_at(&lay, 10) == 1);
    CHECK(sv_layout_row_at(&lay, 29.9) == 1);
    CHECK(sv_layout_row_at(&lay, 30) == 2);
    CHECK(sv_layout_row_at(&lay, -1) == -1);
    CHECK(sv_layout_row_at(&lay, lay.total_h) == -1);
    CHECK(sv_layout_n_timeline_rows(&lay) == 5);
    sv_layout_set_heights(&lay, 10, 5);
    CHECK_NEAR(lay.total_h, 3 * 5 + 5 * 10, 0);
    sv_layout_clear(&lay);
    /* no groups: no header rows; a sub-range */
    CHECK(sv_layout_build(&lay, 10, NULL, NULL, 3, 5, 20, 10) == 0);
    CHECK(lay.n_rows == 3);
    CHECK(lay.rows[0].timeline == 3);
    CHECK(lay.row_of_timeline[0] == -1 && lay.row_of_timeline[5] == 2);
    sv_layout_clear(&lay);
    /* keys (rank << 32 | thread): threads met in any order go under their
     * rank, within each host, ties by id; a sub-range keeps only its own */
    const char *hosts[] = {"h", "h", "h", "h", "h", "g"};
    const uint64_t keys[] = {0, 1ull << 32, 1, (1ull << 32) | 1, 1ull << 32, 5};
    CHECK(sv_layout_build(&lay, 6, hosts, keys, 0, 5, 20, 10) == 0);
    /* h: header, 0 (r0), 2 (r0/t1), 1 (r1), 4 (r1, tie), 3 (r1/t1); g: header, 5 */
    CHECK(lay.n_rows == 8);
    CHECK(lay.rows[1].timeline == 0 && lay.rows[2].timeline == 2 && lay.rows[3].timeline == 1);
    CHECK(lay.rows[4].timeline == 4 && lay.rows[5].timeline == 3 && lay.rows[7].timeline == 5);
    CHECK(lay.row_of_timeline[2] == 2 && lay.row_of_timeline[3] == 5);
    sv_layout_clear(&lay);
    CHECK(sv_layout_build(&lay, 6, hosts, keys, 1, 3, 20, 10) == 0);
    CHECK(lay.n_rows == 4 && lay.rows[1].timeline == 2 && lay.rows[2].timeline == 1 && lay.rows[3].timeline == 3);
    CHECK(lay.row_of_timeline[0] == -1 && lay.row_of_timeline[4] == -1);
    sv_layout_clear(&lay);
    CHECK_NEAR(sv_clamp_scroll(50, 100, 80), 20, 0);
    CHECK_NEAR(sv_clamp_scroll(-5, 100, 80), 0, 0);
    CHECK_NEAR(sv_clamp_scroll(10, 50, 80), 0, 0);
}

/* sv_fit_row_height: the default row height of the window (18 px headers,
 * rows at least 18) and of --render (16 px headers, rows at least 3). */
static void test_row_fit(void)
{
    /* 4 ranks on one host in the screenshots' canvas (712 px): the rows
     * fill it, to the pixel lost by rounding down each */
    double h = sv_fit_row_height(712, 4, 1, 18, 18);
    CHECK(4 * h + 18 <= 712 && 4 * (h + 1) + 18 > 712);
    /* and in a picture 420 px high (the goldens' small file: 4 on 2 hosts) */
    h = sv_fit_row_height(420, 4, 2, 16, 3);
    CHECK(4 * h + 2 * 16 <= 420 && 4 * (h + 1) + 2 * 16 > 420);
    /* 1-3 timelines: a quarter of the canvas each, the rest left empty */
    CHECK_NEAR(sv_fit_row_height(712, 1, 1, 18, 18), 178, 0);
    CHECK_NEAR(sv_fit_row_height(712, 2, 0, 18, 18), 178, 0);
    CHECK_NEAR(sv_fit_row_height(800, 3, 1, 18, 18), 200, 0);
    /* a small canvas still lets rows grow to 96 px */
    CHECK_NEAR(sv_fit_row_height(300, 1, 0, 18, 18), 96, 0);
    /* many timelines: at least min_h, the rows scroll */
    CHECK_NEAR(sv_fit_row_height(712, 256, 16, 18, 18), 18, 0);
    /* rows below header height: headers shrink with them (--render) */
    CHECK_NEAR(sv_fit_row_height(1000, 64, 4, 16, 3), 14, 0); /* 1000 / (64 + 3) */
    CHECK_NEAR(sv_fit_row_height(100, 0, 0, 16, 3), 24, 0);
}

int main(void)
{
    test_mapping();
    test_zoom();
    test_pan();
    test_ticks();
    test_format();
    test_layout();
    test_row_fit();
    return 0;
}
