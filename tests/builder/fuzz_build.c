/* SPDX-License-Identifier: MIT */
/* fuzz_build.c - libFuzzer target: the whole slog2-build pipeline (decoding,
 * lanes, the merge of their lists, communicator replay, matching, volumes,
 * the libslog writer's batches) on one fuzzed rank file, in the fuzz build
 * where all of it is compiled with ASan and UBSan.
 *
 * Besides "no crash, no sanitizer report": a build that fails must leave
 * no file under the output name (the writer renames its temporary file
 * into place only when complete). The seeds are small real .bin files.
 * Odd-sized inputs build with --lenient, so both ways an unknown label is
 * handled are reached.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "build.h"
#include "dumpi.h"

static char bin[64], out[64];
static FILE *quiet_err;

static void remove_input(void)
{
    unlink(bin);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!bin[0]) {
        snprintf(bin, sizeof bin, "/tmp/fuzz_build.%d.bin", (int)getpid());
        snprintf(out, sizeof out, "/tmp/fuzz_build.%d.slog2", (int)getpid());
        quiet_err = fopen("/dev/null", "w");
        if (!quiet_err) abort();
        atexit(remove_input);
    }
    unlink(bin); /* a new inode each time: the decoder maps the file */
    FILE *fp = fopen(bin, "wb");
    if (!fp) return 0;
    if (size) fwrite(data, 1, size, fp);
    fclose(fp);

    const char *paths[1] = {bin};
    dumpi_meta *meta = NULL;
    dumpi_error err;
    if (dumpi_meta_from_bins(paths, 1, &meta, &err) != DUMPI_OK) return 0;
    build_options o = {.output = out, .quiet = 1, .threads = 1, .lenient = (int)(size & 1), .command_line = "fuzz"};
    build_summary s;
    int rc = build_run(meta, &o, &s, quiet_err);
    dumpi_meta_free(meta);
    if (rc == BUILD_FAILED && access(out, F_OK) == 0) abort(); /* a failed build left an output file */
    unlink(out);
    return 0;
}
