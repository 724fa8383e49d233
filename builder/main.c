/* SPDX-License-Identifier: MIT */
/* main.c - slog2-build command line: options, input discovery, progress and
 * exit status. The work is in build.c. */
#include <glib.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "build.h"
#include "dumpi.h"
#include "otf2_build.h"
#include <slog2/slog.h>

static const char description[] = "Convert a DUMPI MPI trace (an ASCII .meta file plus one binary .bin per\n"
                                  "rank, as written by Sandia's libdumpi) into a .slog2 timeline file for\n"
                                  "slog2-view and slog2-print, in one pass with bounded memory.\n"
                                  "\n"
                                  "INPUT is the trace's .meta file, a directory holding exactly one .meta, or\n"
                                  "an explicit list of rank .bin files (rank = position in the list). The\n"
                                  ".bin files are looked up next to the .meta, whatever its fileprefix says.\n"
                                  "\n"
                                  "What is built:\n"
                                  "  - a state per MPI call on its (rank, thread) timeline, category = the\n"
                                  "    function, coloured by family, with bytes, peer (world rank), tag,\n"
                                  "    communicator, root and request info where the call has them;\n"
                                  "    collectives and Sendrecv carry the bytes this rank sent and received;\n"
                                  "  - an arrow per matched point-to-point message, from the send's start to\n"
                                  "    the completion of the receive (MPI matching rules, wildcards resolved\n"
                                  "    from statuses, sub-communicator ranks translated to world ranks); a\n"
                                  "    wildcard receive without a status takes the message MPI's ordering\n"
                                  "    rules give it, drawn as \"message (inferred)\";\n"
                                  "  - an event per polling call that found nothing (Test*, Iprobe with\n"
                                  "    flag 0) unless --poll-states; nested states for instrumented user\n"
                                  "    functions.\n"
                                  "\n"
                                  "The summary (on stdout) counts unmatched sends and receives (listed in\n"
                                  "the file's messages.unmatched annotation) and cancelled operations; a\n"
                                  "receive completed without a status after MPI_Cancel counts as\n"
                                  "cancelled (had the cancel failed, its message would show as an\n"
                                  "unmatched send). With more than one thread it also gives each\n"
                                  "thread's CPU time and how long it waited for work, and the CPU time of\n"
                                  "the two sequential steps (matching, writing): on many cores the match\n"
                                  "step's bounds the build.\n"
                                  "\n"
                                  "OTF2: INPUT may also be an OTF2 archive's anchor file (NAME.otf2, as\n"
                                  "Score-P, EZTrace and others write; recognised by its content): its\n"
                                  "locations become timelines, regions nested states, MPI records arrows\n"
                                  "and the info of their states (docs/OTF2.md). Receives recorded without\n"
                                  "their source or completion (EZTrace) are paired by MPI's ordering rules\n"
                                  "and drawn as \"message (inferred)\". Records that are not drawn are\n"
                                  "counted in the summary. Without recorded clock offsets the processes'\n"
                                  "clocks are aligned on synchronising collectives (--align-clocks never:\n"
                                  "times as recorded).\n"
                                  "\n"
                                  "Clocks: libdumpi records CLOCK_MONOTONIC, each host's own time since\n"
                                  "boot. When the ranks ran on several hosts (their DUMPI headers name\n"
                                  "them), each host's clock is shifted onto the first host's, within the\n"
                                  "bounds MPI_Init and the first synchronising collectives on COMM_WORLD\n"
                                  "(Barrier, Allreduce, ...) give: no rank leaves one before all entered\n"
                                  "(--align-clocks). The summary and the file's time.clock_offsets_ns\n"
                                  "annotation give the shifts and their bounds. A trace from one host is\n"
                                  "left as recorded.\n"
                                  "\n"
                                  "Output is written to a temporary file (OUTPUT.tmp.XXXXXX) and renamed\n"
                                  "into place only when complete. Stopped by SIGINT (Ctrl-C), SIGTERM,\n"
                                  "SIGHUP, SIGQUIT, SIGXCPU or SIGXFSZ (a batch system's limits), the\n"
                                  "build removes that file and ends as the signal would; so does a crash.\n"
                                  "A signal ignored at start (nohup) stays ignored.\n"
                                  "\n"
                                  "Exit status (the same 0, 1 and 2 as slog2-print, slog2-view and\n"
                                  "slog2-synth):\n"
                                  "  0  built\n"
                                  "  1  error: nothing written (bad input, unknown function label, I/O)\n"
                                  "  2  usage error: a bad option or value, no input; nothing written\n"
                                  "  3  built with warnings (a truncated rank, footer count mismatch,\n"
                                  "     --lenient skips, missing ranks with --allow-missing)\n"
                                  "\n"
                                  "Example:\n"
                                  "  slog2-build run/app-2026.11.21.22.37.02.meta -o app.slog2\n";

/* Each rank's .bin stays open while it is read (dumpi_internal.h): allow
 * as many files as the system lets us, so a trace of thousands of ranks
 * does not stop at the usual soft limit of 1024. */
static void raise_file_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* GOption reads "-j2" as -j taking the next argument, then an unknown
 * option -2; make(1) taught users to write it attached, so such a word is
 * split into "-j" "2" before parsing (any short option taking a value,
 * up to "--"). The strings and the vector are the caller's. */
static char **split_attached_values(int argc, char **argv, const GOptionEntry *entries)
{
    GPtrArray *out = g_ptr_array_new();
    bool options = true;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        size_t split = 0; /* split after this many bytes (0: not) */
        if (options && i > 0 && a[0] == '-' && a[1] != '-')
            for (size_t k = 1; a[k] && !split; k++) { /* grouped flags, as in -qj2 */
                const GOptionEntry *e = entries;
                while (e->long_name && e->short_name != a[k]) e++;
                if (!e->long_name) break; /* not ours: GOption will say so */
                if (e->arg != G_OPTION_ARG_NONE && a[k + 1]) split = k + 1;
            }
        if (options && strcmp(a, "--") == 0) options = false;
        if (split) {
            g_ptr_array_add(out, g_strndup(a, split));
            g_ptr_array_add(out, g_strdup(a + split));
        } else {
            g_ptr_array_add(out, g_strdup(a));
        }
    }
    g_ptr_array_add(out, NULL);
    return (char **)g_ptr_array_free(out, FALSE);
}

/* Exit statuses: 0 and 1 are build_run's; usage errors take 2, as in the
 * other tools and GNU programs, so "built with warnings" (BUILD_WARNINGS
 * inside) leaves the command as 3. */
enum { EXIT_USAGE = 2, EXIT_WARNINGS = 3 };

/* GOption's own --help writes "[OPTION…]" through g_print, which turns
 * the ellipsis into "?" outside a UTF-8 locale: print it in ASCII. */
static void print_help(GOptionContext *ctx)
{
    gchar *help = g_option_context_get_help(ctx, TRUE, NULL);
    for (const char *p = help; *p; p++) {
        if (strncmp(p, "\xe2\x80\xa6", 3) == 0) {
            fputs("...", stdout);
            p += 2;
        } else {
            putchar(*p);
        }
    }
    g_free(help);
}

/* An OTF2 archive (otf2/): one anchor file, detected by its content. */
static int run_otf2(const char *anchor, const char *output, bool quiet, int bins, clock_align align,
                    const char *cmdline, int threads)
{
#ifdef SLOG2_HAVE_OTF2
    otf2_build_options o = {.output = output,
                            .quiet = quiet,
                            .preview_bins = (uint32_t)bins,
                            .align = align == CLOCK_ALIGN_NEVER    ? OTF2_ALIGN_NEVER
                                     : align == CLOCK_ALIGN_ALWAYS ? OTF2_ALIGN_ALWAYS
                                                                   : OTF2_ALIGN_AUTO,
                            .command_line = cmdline,
                            .remove_on_signal = 1,
                            .threads = threads};
    int st = otf2_build_run(anchor, &o, stderr, quiet ? NULL : stdout);
    return st == OTF2_BUILD_WARNINGS ? EXIT_WARNINGS : st;
#else
    fprintf(stderr,
            "slog2-build: error: %s: an OTF2 archive, but this slog2-build was built without OTF2 "
            "support (configure with -DSLOG2_OTF2=ON and libotf2 installed)\n",
            anchor);
    return 1;
#endif
}

/* -j not given: g_get_num_processors() honours the CPU affinity a batch
 * system sets, so a job uses the cores it was given. */
#define THREADS_UNSET INT_MIN

int main(int argc, char **argv)
{
    raise_file_limit();
    gchar *output = NULL;
    gboolean help = FALSE, version = FALSE, quiet = FALSE, lenient = FALSE, allow_missing = FALSE, poll_states = FALSE,
             progress_flag = FALSE, no_pin = FALSE;
    gint bins = 0, threads = THREADS_UNSET;
    gchar *align = NULL;
    gchar **inputs = NULL;
    GOptionEntry entries[] = {
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
         "Write the .slog2 file to FILE (default: INPUT with .slog2; not one of the inputs, a directory or a device)",
         "FILE"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "No progress bar and no summary", NULL},
        {"progress", 0, 0, G_OPTION_ARG_NONE, &progress_flag,
         "Show the progress bar even when stderr is not a terminal", NULL},
        {"lenient", 0, 0, G_OPTION_ARG_NONE, &lenient,
         "On an unknown function label keep the rank's records before it and go on (exit 3)", NULL},
        {"allow-missing", 0, 0, G_OPTION_ARG_NONE, &allow_missing,
         "Build even when some ranks' .bin files are missing (exit 3)", NULL},
        {"poll-states", 0, 0, G_OPTION_ARG_NONE, &poll_states,
         "Draw unsuccessful Test*/Iprobe calls as states, not events", NULL},
        {"align-clocks", 0, 0, G_OPTION_ARG_STRING, &align,
         "auto (default): put the clocks of ranks on different hosts onto one, bounded by MPI_Init and collectives on "
         "COMM_WORLD, when they are boot clocks (CLOCK_MONOTONIC); always: also epoch clocks; never: times as recorded",
         "WHEN"},
        {"preview-bins", 0, 0, G_OPTION_ARG_INT, &bins,
         "Preview bins per tree node (even, 2..4096; default 64); memory grows with N x timelines x categories", "N"},
        {"threads", 'j', 0, G_OPTION_ARG_INT, &threads,
         "Work on N threads (default: one per CPU this process may use, at most 64); 1 runs everything on this one. "
         "The output is byte-identical for every N",
         "N"},
        {"no-pin", 0, 0, G_OPTION_ARG_NONE, &no_pin,
         "Let the system move the threads between CPUs (by default, when there is one thread per CPU this process may "
         "use, each keeps to its own)",
         NULL},
        {"version", 0, 0, G_OPTION_ARG_NONE, &version, "Print the version and the .slog2 format written, then exit",
         NULL},
        {"help", 'h', 0, G_OPTION_ARG_NONE, &help, "Show this help and exit", NULL},
        {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &inputs, NULL, "INPUT..."},
        {NULL, 0, 0, 0, NULL, NULL, NULL}};
    GOptionContext *ctx = g_option_context_new("- convert DUMPI MPI traces to .slog2");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(ctx, description);
    g_option_context_set_help_enabled(ctx, FALSE);
    char **args = split_attached_values(argc, argv, entries);
    argc = (int)g_strv_length(args);
    /* Parsing drops entries from args; this copy of the pointers frees them. */
    char **args_owned = g_memdup2(args, ((gsize)argc + 1) * sizeof *args);
    argv = args;
    GError *gerr = NULL;
    gchar *cmdline = NULL, *usage = NULL;
    dumpi_meta *meta = NULL;
    int status = 1;
    if (!g_option_context_parse(ctx, &argc, &argv, &gerr)) {
        usage = g_strdup(gerr->message);
        g_error_free(gerr);
        goto done;
    }
    if (help) {
        print_help(ctx);
        status = 0;
        goto done;
    }
    if (version) {
        printf("slog2-build %s (writes .slog2 format %d.%d)\n", SLOG2_VERSION, SLOG_FORMAT_MAJOR, SLOG_FORMAT_MINOR);
        status = 0;
        goto done;
    }
    int n_in = inputs ? (int)g_strv_length(inputs) : 0;
    /* The file records its source and command line (source.meta,
     * builder.command): relative names would only mean something in the
     * directory the build ran in. */
    for (int i = 0; i < n_in; i++)
        if (inputs[i][0]) {
            gchar *abs = g_canonicalize_filename(inputs[i], NULL);
            g_free(inputs[i]);
            inputs[i] = abs;
        }
    clock_align align_mode = CLOCK_ALIGN_AUTO;
    /* Recorded in the file: the options that shape its content and the
     * inputs, not -o, -q or -j, so the bytes depend on nothing else. */
    GString *cl = g_string_new("slog2-build");
    if (poll_states) g_string_append(cl, " --poll-states");
    if (lenient) g_string_append(cl, " --lenient");
    if (allow_missing) g_string_append(cl, " --allow-missing");
    if (bins) g_string_append_printf(cl, " --preview-bins %d", bins);
    if (align) g_string_append_printf(cl, " --align-clocks %s", align);
    for (int i = 0; i < n_in; i++) g_string_append_printf(cl, " %s", inputs[i]);
    cmdline = g_string_free(cl, FALSE);
    if (threads == THREADS_UNSET) threads = (gint)MIN(g_get_num_processors(), BUILD_MAX_THREADS);
    /* Usage errors, one at a time. */
    if (n_in == 0)
        usage = g_strdup("no input given");
    else if (output && strcmp(output, "-") == 0)
        /* Not a file named "-": users mean standard output, which cannot
         * take a .slog2 (its header is patched in last, at offset 0). */
        usage = g_strdup("-o -: a .slog2 file cannot be written to standard output (its header is written "
                         "last); give a file name");
    else if (align && !clock_align_parse(align, &align_mode))
        usage = g_strdup_printf("--align-clocks must be auto, always or never, not '%s'", align);
    else if (threads < 1)
        usage = g_strdup_printf("-j must be at least 1, got %d", threads);
    else if (bins && (bins < 2 || bins > 4096 || bins % 2))
        usage = g_strdup("--preview-bins must be even, from 2 to 4096");
    for (int i = 0; !usage && i < n_in; i++)
        if (!inputs[i][0]) usage = g_strdup_printf("input %d of %d is an empty name", i + 1, n_in);
    for (int i = 0; !usage && n_in > 1 && i < n_in; i++)
        if (g_str_has_suffix(inputs[i], ".meta"))
            usage = g_strdup_printf("%s: a .meta among %d inputs; give the .meta alone, or only .bin files", inputs[i],
                                    n_in);
    if (usage) goto done;
    if (n_in == 1 && otf2_is_anchor(inputs[0])) {
        if (!output) {
            gchar *stem = g_strdup(inputs[0]);
            char *dot = strrchr(stem, '.');
            if (dot && !strchr(dot, '/')) *dot = 0;
            output = g_strconcat(stem, ".slog2", NULL);
            g_free(stem);
        }
        gchar *abs_out = g_canonicalize_filename(output, NULL);
        if (strcmp(abs_out, inputs[0]) == 0)
            usage = g_strdup_printf("-o %s: that is the input archive's anchor file", output);
        else
            status = run_otf2(inputs[0], output, quiet, bins, align_mode, cmdline, threads);
        g_free(abs_out);
        goto done;
    }
    dumpi_error err;
    int rc;
    if (n_in == 1 && !g_str_has_suffix(inputs[0], ".bin"))
        rc = dumpi_meta_open(inputs[0], &meta, &err);
    else
        rc = dumpi_meta_from_bins((const char *const *)inputs, (size_t)n_in, &meta, &err);
    if (rc != DUMPI_OK) {
        fprintf(stderr, "slog2-build: error: %s\n", err.message);
    } else {
        if (!output) {
            const char *base = dumpi_meta_path(meta) ? dumpi_meta_path(meta) : inputs[0];
            gchar *stem = g_strdup(base);
            char *dot = strrchr(stem, '.');
            if (dot && !strchr(dot, '/')) *dot = 0;
            output = g_strconcat(stem, ".slog2", NULL);
            g_free(stem);
        }
        build_options o = {.output = output,
                           .quiet = quiet,
                           .lenient = lenient,
                           .allow_missing = allow_missing,
                           .poll_states = poll_states,
                           .preview_bins = (uint32_t)bins,
                           .threads = threads,
                           .align_clocks = align_mode,
                           .pin_threads = !no_pin,
                           .command_line = cmdline,
                           .remove_on_signal = 1,
                           .leave_memory = 1};
        o.progress = !quiet && (progress_flag || isatty(STDERR_FILENO));
        build_summary s;
        status = build_run(meta, &o, &s, stderr);
        if (status != BUILD_FAILED && !quiet) build_print_summary(&s, output, stdout);
        if (status == BUILD_WARNINGS) status = EXIT_WARNINGS;
    }
done:
    /* Usage errors (option parsing included) have one exit path. */
    if (usage) {
        fprintf(stderr, "slog2-build: %s\nTry 'slog2-build --help'.\n", usage);
        status = EXIT_USAGE;
    }
    g_free(usage);
    dumpi_meta_free(meta);
    g_option_context_free(ctx);
    g_strfreev(inputs);
    g_free(output);
    g_free(align);
    g_free(cmdline);
    g_free(args);
    g_strfreev(args_owned);
    return status;
}
