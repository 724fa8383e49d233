/* SPDX-License-Identifier: MIT */
/* main.c - slog2-view command line. `--render`, `--help` and `--version`
 * need no display; everything else starts the GTK application. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gtk/gtk.h>

#include "doc.h"
#include "sv-app.h"
#include <slog2/slog.h>

static const char USAGE[] = "Usage:\n"
                            "  slog2-view [FILE.slog2 | TRACE.meta | ARCHIVE.otf2]\n"
                            "  slog2-view --render OUT.png|OUT.svg|OUT.pdf [--window T0:T1|all] [--size WxH]\n"
                            "             [--timelines A-B] [--rows R] [--theme light|dark] [--legend]\n"
                            "             [--messages size|tag|latency|category] [--stats] FILE.slog2\n"
                            "  slog2-view --help | --version\n"
                            "\n"
                            "Interactive Gantt viewer for .slog2 timeline files written by slog2-build.\n"
                            "\n"
                            "Without --render, opens a window showing FILE (or an empty window with an\n"
                            "Open button). A DUMPI TRACE.meta or an OTF2 archive's anchor file (told\n"
                            "by its content) is converted with slog2-build in the background first;\n"
                            "the result is cached next to the trace, or in\n"
                            "$XDG_CACHE_HOME/slog2 when that directory is not writable.\n"
                            "\n"
                            "Headless rendering (no display is used):\n"
                            "  --render OUT.png     draw the view of FILE into the image OUT with the same\n"
                            "                       drawing code as the window, then exit: PNG, or SVG or\n"
                            "                       PDF when OUT ends in .svg or .pdf; \"-\" is standard\n"
                            "                       output as PNG (a pipe or file, not a terminal)\n"
                            "  --window T0:T1       time window in seconds from the trace start, e.g.\n"
                            "                       0.25:0.5 (default: all)\n"
                            "  --window all         the whole trace\n"
                            "  --size WxH           image size in pixels (default: 1600x900, 16..16384)\n"
                            "  --timelines A-B      only timelines A to B (inclusive, 0-based); A alone is\n"
                            "                       one timeline (default: all)\n"
                            "  --rows R             fold the timelines into at most R rows, each showing\n"
                            "                       the share of its timelines in each state per pixel\n"
                            "                       column (default: fold, a row per pixel, only when the\n"
                            "                       timelines do not fit 3 pixels high each)\n"
                            "  --theme light|dark   the colours of the window's light or dark style\n"
                            "                       (default: light); the data keep their colours\n"
                            "  --legend             add a legend band at the bottom: file, time window,\n"
                            "                       timelines, and each category's colour and name\n"
                            "  --messages BY        colour message arrows by size (default; log scale,\n"
                            "                       1 B blue to 16 MiB orange), tag, latency (log scale,\n"
                            "                       100 ns to 100 ms) or category (the legend's colour)\n"
                            "  --stats              print what the frame's query read (nodes, bytes,\n"
                            "                       drawables, previews, time) on standard output (on\n"
                            "                       standard error with --render -)\n"
                            "\n"
                            "Window keys:\n"
                            "  + / -, Ctrl+scroll, pinch     zoom in / out around the pointer\n"
                            "  0, Ctrl+0                     zoom to fit the whole trace\n"
                            "  Left / Right, scroll, drag    pan; Home / End jump to the start / end\n"
                            "  Shift+drag, right drag        select a time range (statistics, zoom to it)\n"
                            "  Alt+Left / Alt+Right          back / forward in the zoom history\n"
                            "  Ctrl+F                        search: a category name or field=value, e.g.\n"
                            "                                \"MPI_Send tag=1337\"; Enter / Shift+Enter for\n"
                            "                                next / previous in time\n"
                            "  Ctrl+I                        trace information: the file, how it was\n"
                            "                                built (command line, source, clocks) and\n"
                            "                                its unmatched messages\n"
                            "  F3 / Shift+F3, Ctrl+G         next / previous match from anywhere\n"
                            "  Ctrl+E                        export the view with its legend: PNG, SVG\n"
                            "                                or PDF by the file name\n"
                            "  Ctrl+O                        open a file\n"
                            "  Ctrl+?                        the keyboard shortcuts\n"
                            "\n"
                            "The bare keys (+ - 0, arrows, Home, End) work wherever the focus is but in\n"
                            "a text entry; Enter in the search entry searches and hands them back.\n"
                            "Message arrows are coloured by size (log scale) unless the legend's\n"
                            "\"Messages by\" says tag, latency or category.\n"
                            "\n"
                            "Many timelines scroll vertically; the menu's Compact Rows fits them in\n"
                            "the window, rows down to 1 px, every few labelled.\n"
                            "\n"
                            "Light and dark: the window follows GTK's theme (GTK_THEME=Adwaita:dark, a\n"
                            "*-dark theme); the menu's Dark Style asks GTK for the dark variant and is\n"
                            "remembered in $XDG_CONFIG_HOME/slog2/view.ini.\n"
                            "\n"
                            "Environment:\n"
                            "  GSK_RENDERER        GTK's renderer; without a GPU (no /dev/dri render node)\n"
                            "                      slog2-view picks \"cairo\" unless this is set\n"
                            "  SLOG2_VIEW_TIMING   print on standard error how long after launch the first\n"
                            "                      frame of the file was drawn, and how long after asked\n"
                            "                      the Matrix and Profile windows showed each result\n"
                            "  SLOG2_VIEW_SCRIPT   semicolon-separated commands run after the file is open,\n"
                            "                      for tests: action NAME, select T0 T1, search TEXT,\n"
                            "                      popover, legend, scroll PX, screenshot FILE,\n"
                            "                      screenshot-info FILE, screenshot-shortcuts FILE,\n"
                            "                      expect-info KEY [VALUE], stats, mark,\n"
                            "                      expect-visible-nodes, expect-fewer-bytes, drop FILE,\n"
                            "                      expect-file NAME, set-colour CATEGORY COLOUR,\n"
                            "                      expect-colour CATEGORY COLOUR, expect-style light|dark,\n"
                            "                      expect-rows-fit yes|no, expect-rows-drawn,\n"
                            "                      export FILE, set-visible CATEGORY yes|no,\n"
                            "                      message-colour BY, expect-legend-names-whole,\n"
                            "                      where PART, wait-file PATH, expect-zoom N,\n"
                            "                      expect-splitter PX, expect-loading yes|no,\n"
                            "                      add-recent PATH, expect-recent [!]LABEL,\n"
                            "                      build-missing,\n"
                            "                      sleep MS, cancel\n"
                            "                      (a running .meta conversion, as its Cancel button;\n"
                            "                      the one command that does not wait for it), quit\n"
                            "\n"
                            "Exit status (errors are reported on standard error):\n"
                            "  0  success\n"
                            "  1  the file cannot be read or the image cannot be written, or there\n"
                            "     is no display for the window\n"
                            "  2  usage error: a bad option or value, or a --window or --timelines\n"
                            "     outside the file\n";

static int usage_error(const char *msg, const char *arg)
{
    fprintf(stderr, "slog2-view: %s%s%s\nTry 'slog2-view --help'.\n", msg, arg ? ": " : "", arg ? arg : "");
    return 2;
}

/* A value that parses but is out of range: "--size 10x10: why". */
static int usage_error_in(const char *opt, const char *val, const char *why)
{
    fprintf(stderr, "slog2-view: %s %s: %s\nTry 'slog2-view --help'.\n", opt, val, why);
    return 2;
}

static int run_render(int argc, char **argv)
{
    sv_headless_opts o;
    memset(&o, 0, sizeof o);
    o.all = 1;
    o.width = 1600;
    o.height = 900;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        int needs = strcmp(a, "--render") == 0 || strcmp(a, "--window") == 0 || strcmp(a, "--size") == 0 ||
                    strcmp(a, "--timelines") == 0 || strcmp(a, "--theme") == 0 || strcmp(a, "--rows") == 0 ||
                    strcmp(a, "--messages") == 0;
        if (needs) {
            if (i + 1 >= argc) return usage_error("option needs an argument", a);
            val = argv[++i];
        }
        if (strcmp(a, "--render") == 0)
            o.out = val;
        else if (strcmp(a, "--window") == 0) {
            int bad = sv_parse_window(val, &o);
            if (bad == -2) return usage_error_in(a, val, "T0 must be before T1");
            if (bad) return usage_error("bad --window (want T0:T1 in seconds, or all)", val);
        } else if (strcmp(a, "--size") == 0) {
            int bad = sv_parse_size(val, &o);
            if (bad == -2) return usage_error_in(a, val, "width and height must each be 16 to 16384 pixels");
            if (bad) return usage_error("bad --size (want WxH, e.g. 1600x900)", val);
        } else if (strcmp(a, "--timelines") == 0) {
            if (sv_parse_timelines(val, &o)) return usage_error("bad --timelines (want A-B)", val);
        } else if (strcmp(a, "--rows") == 0) {
            if (sv_parse_rows(val, &o)) return usage_error("bad --rows (want a count of rows, 1 to 65536)", val);
        } else if (strcmp(a, "--theme") == 0) {
            if (sv_parse_theme(val, &o)) return usage_error("bad --theme (want light or dark)", val);
        } else if (strcmp(a, "--messages") == 0) {
            if (sv_parse_messages(val, &o))
                return usage_error("bad --messages (want size, tag, latency or category)", val);
        } else if (strcmp(a, "--stats") == 0)
            o.print_stats = 1;
        else if (strcmp(a, "--legend") == 0)
            o.legend = 1;
        else if (a[0] == '-' && a[1])
            return usage_error("unknown option", a);
        else if (o.file)
            return usage_error("more than one FILE", a);
        else
            o.file = a;
    }
    if (!o.file) return usage_error("--render needs a FILE.slog2", NULL);
    return sv_headless_render(&o, stderr);
}

/* A GPU's render node (Mesa's /dev/dri/renderD*, or NVIDIA's device). */
static int have_gpu(void)
{
    if (access("/dev/nvidia0", F_OK) == 0) return 1;
    DIR *d = opendir("/dev/dri");
    int found = 0;
    for (struct dirent *e; d && !found && (e = readdir(d));) found = strncmp(e->d_name, "renderD", 7) == 0;
    if (d) closedir(d);
    return found;
}

/* Without a GPU (VNC and X forwarding from a cluster's login node, Xvfb)
 * GTK's GL renderer runs in software: the window's first frame came
 * about twice as late, and every frame copies the
 * canvas into a texture. The canvas is a Cairo raster already, so GTK's
 * Cairo renderer shows it as it is. GSK_RENDERER set by the user wins. */
static void prefer_cairo_without_gpu(void)
{
    if (!getenv("GSK_RENDERER") && !have_gpu()) setenv("GSK_RENDERER", "cairo", 0);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(USAGE, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--version") == 0) {
            printf("slog2-view %s (reads .slog2 format %d.x; GTK %u.%u)\n", SLOG2_VERSION, SLOG_FORMAT_MAJOR,
                   gtk_get_major_version(), gtk_get_minor_version());
            return 0;
        }
    }
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--render") == 0) return run_render(argc, argv);
    static const char *const render_only[] = {"--window", "--size",  "--timelines", "--rows",
                                              "--theme",  "--stats", "--legend",    "--messages"};
    for (int i = 1; i < argc; i++) {
        for (size_t k = 0; k < sizeof render_only / sizeof render_only[0]; k++)
            if (strcmp(argv[i], render_only[k]) == 0) {
                fprintf(stderr,
                        "slog2-view: %s is valid only with --render OUT.png (the window has its own "
                        "controls)\nTry 'slog2-view --help'.\n",
                        argv[i]);
                return 2;
            }
        if (argv[i][0] == '-' && argv[i][1] && strcmp(argv[i], "--") != 0)
            return usage_error("unknown option", argv[i]);
    }
    prefer_cairo_without_gpu();
    /* GtkApplication would end with GTK's bare "cannot open display";
     * where there is none (ssh without X forwarding, a batch job) say what
     * works without one. */
    if (!gtk_init_check()) {
        const char *wl = getenv("WAYLAND_DISPLAY"), *x = getenv("DISPLAY");
        const char *which = wl && *wl ? "WAYLAND_DISPLAY="
                            : x && *x ? "DISPLAY="
                                      : "neither DISPLAY nor WAYLAND_DISPLAY is set";
        fprintf(stderr,
                "slog2-view: cannot open a display (%s%s); the window needs one (X11 or Wayland, or\n"
                "ssh -X). Without a display, draw the view into a PNG:\n"
                "  slog2-view --render OUT.png [--window T0:T1] FILE.slog2\n",
                which,
                wl && *wl ? wl
                : x && *x ? x
                          : "");
        return 1;
    }
    return sv_app_run(argc, argv);
}
