/* SPDX-License-Identifier: MIT */
/* test_errors.c - corrupt, truncated, foreign and missing files: the
 * viewer's document layer returns libslog's error, and `slog2-view
 * --render` prints it on stderr and exits 1 without crashing; bad usage
 * exits 2.
 *
 * usage: test_errors SLOG2_VIEW WORK_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "check.h"
#include "doc.h"
#include "gen.h"

static long file_size(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (n) fwrite(data, 1, n, f);
    fclose(f);
}

static char *read_all(const char *path, long *n)
{
    *n = file_size(path);
    char *b = malloc((size_t)*n + 1);
    FILE *f = fopen(path, "rb");
    if (!b || !f || fread(b, 1, (size_t)*n, f) != (size_t)*n) abort();
    fclose(f);
    return b;
}

/* Run the viewer; return its exit status, or -signal. */
static int run(const char *cmd)
{
    int st = system(cmd);
    if (WIFSIGNALED(st)) return -WTERMSIG(st);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1000;
}

static void expect_error(const char *view, const char *work, const char *file, int must_fail)
{
    char cmd[16384], errf[4096];
    snprintf(errf, sizeof errf, "%s/stderr.txt", work);
    snprintf(cmd, sizeof cmd, "'%s' --render '%s/err.png' --size 300x200 '%s' 2>'%s'", view, work, file, errf);
    int rc = run(cmd);
    long n = file_size(errf);
    printf("%s: exit %d, %ld bytes on stderr\n", file, rc, n);
    CHECK(rc >= 0); /* no crash */
    if (must_fail) {
        CHECK(rc == 1);
        CHECK(n > 0);
        long m;
        char *text = read_all(errf, &m);
        text[m] = 0;
        const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
        CHECK(strstr(text, base) != NULL); /* the message names the file */
        fputs(text, stdout);
        free(text);
    } else {
        CHECK(rc == 0 || rc == 1);
    }
    /* the document layer reports the same without a process */
    sv_doc d;
    slog_error e = {0};
    slog_status s = sv_doc_open(&d, file, &e);
    if (s == SLOG_OK)
        sv_doc_close(&d);
    else
        CHECK(e.message[0] != 0);
    if (must_fail && s == SLOG_OK) {
        /* opening may be lazy about node blocks; the render must then fail */
        CHECK(rc == 1);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s SLOG2_VIEW WORK_DIR\n", argv[0]);
        return 2;
    }
    const char *view = argv[1], *work = argv[2];
    char good[4096], path[4096], cmd[16384];
    snprintf(good, sizeof good, "%s/errors-good.slog2", work);
    sv_gen_opts o;
    sv_gen_opts_small(&o);
    o.n_iterations = 100;
    slog_error err = {0};
    CHECK(sv_gen_write(good, &o, &err) == SLOG_OK);
    long n;
    char *bytes = read_all(good, &n);

    snprintf(path, sizeof path, "%s/errors-truncated.slog2", work);
    write_bytes(path, bytes, (size_t)n / 2);
    expect_error(view, work, path, 1);

    snprintf(path, sizeof path, "%s/errors-empty.slog2", work);
    write_bytes(path, "", 0);
    expect_error(view, work, path, 1);

    snprintf(path, sizeof path, "%s/errors-foreign.slog2", work);
    const char *text = "This is not a trace, just some text that happens to be here.\n";
    write_bytes(path, text, strlen(text));
    expect_error(view, work, path, 1);

    snprintf(path, sizeof path, "%s/errors-magic.slog2", work);
    bytes[0] ^= 0x20;
    write_bytes(path, bytes, (size_t)n);
    bytes[0] ^= 0x20;
    expect_error(view, work, path, 1);

    /* a flipped byte inside the node blocks: caught by the checksum when
     * the node is read, or harmless; never a crash */
    snprintf(path, sizeof path, "%s/errors-flipped.slog2", work);
    for (long off = n / 4; off < n * 3 / 4; off += n / 16) {
        bytes[off] ^= 0x5a;
        write_bytes(path, bytes, (size_t)n);
        bytes[off] ^= 0x5a;
        expect_error(view, work, path, 0);
    }

    snprintf(path, sizeof path, "%s/errors-missing.slog2", work);
    remove(path);
    expect_error(view, work, path, 1);

    /* usage errors */
    snprintf(cmd, sizeof cmd, "'%s' --render x.png --size 10 '%s' 2>/dev/null", view, good);
    CHECK(run(cmd) == 2);
    snprintf(cmd, sizeof cmd, "'%s' --render x.png --window 3:1 '%s' 2>/dev/null", view, good);
    CHECK(run(cmd) == 2);
    snprintf(cmd, sizeof cmd, "'%s' --render x.png --bogus '%s' 2>/dev/null", view, good);
    CHECK(run(cmd) == 2);
    snprintf(cmd, sizeof cmd, "'%s' --render x.png --theme sepia '%s' 2>/dev/null", view, good);
    CHECK(run(cmd) == 2);
    snprintf(cmd, sizeof cmd, "'%s' --render x.png '%s' --theme 2>/dev/null", view, good);
    CHECK(run(cmd) == 2);
    /* Each usage error says what is wrong, and a request outside the file
     * is one too (exit 2, as in slog2-print). */
    static const struct {
        const char *args, *says;
        int exit;
    } said[] = {
        {"--render x.png --timelines 99", "the file has", 2},
        {"--render x.png --window 100:200", "outside the trace", 2},
        {"--render x.png --window 0.6:0.5", "T0 must be before T1", 2},
        {"--render x.png --size 10x10", "16 to 16384", 2},
        {"--window 0:1", "only with --render", 2},
        {"--size 300x200", "only with --render", 2},
    };
    for (size_t i = 0; i < sizeof said / sizeof said[0]; i++) {
        snprintf(cmd, sizeof cmd,
                 "cd '%s' && '%s' %s '%s' 2>said.err; rc=$?; cat said.err; test $rc -eq %d && grep -q '%s' said.err",
                 work, view, said[i].args, good, said[i].exit, said[i].says);
        printf("slog2-view %s: want exit %d and '%s'\n", said[i].args, said[i].exit, said[i].says);
        CHECK(run(cmd) == 0);
    }
    /* No display: a hint that --render needs none. */
    snprintf(cmd, sizeof cmd,
             "env -u DISPLAY -u WAYLAND_DISPLAY '%s' '%s' 2>'%s/nodisplay.err'; rc=$?; cat '%s/nodisplay.err'; "
             "test $rc -eq 1 && grep -q -- '--render' '%s/nodisplay.err'",
             view, good, work, work, work);
    CHECK(run(cmd) == 0);
    /* A DUMPI .meta (by content, whatever its name) points to slog2-build. */
    snprintf(path, sizeof path, "%s/errors-trace.txt", work);
    const char *meta = "hostname=vm\nnumprocs=2\nusername=u\nfileprefix=/tmp/t\nversion=13\n";
    write_bytes(path, meta, strlen(meta));
    snprintf(cmd, sizeof cmd,
             "'%s' --render '%s/x.png' '%s' 2>'%s/meta.err'; rc=$?; cat '%s/meta.err'; "
             "test $rc -eq 1 && grep -q 'slog2-build' '%s/meta.err'",
             view, work, path, work, work, work);
    CHECK(run(cmd) == 0);
    /* A missing file is not an I/O error. */
    snprintf(path, sizeof path, "%s/errors-missing.slog2", work);
    snprintf(cmd, sizeof cmd,
             "'%s' --render '%s/x.png' '%s' 2>'%s/missing.err'; rc=$?; cat '%s/missing.err'; "
             "test $rc -eq 1 && grep -q 'No such file' '%s/missing.err' && ! grep -q 'input/output' '%s/missing.err'",
             view, work, path, work, work, work, work);
    CHECK(run(cmd) == 0);
    snprintf(cmd, sizeof cmd, "'%s' --help >/dev/null", view);
    CHECK(run(cmd) == 0);
    /* --version needs no display either */
    snprintf(cmd, sizeof cmd, "env -u DISPLAY -u WAYLAND_DISPLAY '%s' --version | grep -q '^slog2-view [0-9]'", view);
    CHECK(run(cmd) == 0);
    /* and the good file renders */
    snprintf(cmd, sizeof cmd, "'%s' --render '%s/ok.png' --size 300x200 '%s'", view, work, good);
    CHECK(run(cmd) == 0);

    /* SVG and PDF by the extension, the legend naming the categories (in
     * the SVG's <desc>: Cairo draws text as glyph outlines) */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && V='%s' G='%s' && \"$V\" --render out.svg --legend --size 600x400 \"$G\" && "
             "head -c 64 out.svg | grep -q '^<?xml' && grep -q '<svg' out.svg && "
             "grep -q '<desc>.*MPI_Send.*MPI_Wait' out.svg && "
             "\"$V\" --render out.pdf --legend \"$G\" && head -c 5 out.pdf | grep -q '^%%PDF' && "
             "\"$V\" --render OUT.PDF \"$G\" && head -c 5 OUT.PDF | grep -q '^%%PDF' && "
             "\"$V\" --render out.png --legend \"$G\" && head -c 8 out.png | grep -q PNG",
             work, view, good);
    CHECK(run(cmd) == 0);

    /* the image may not replace the file it draws */
    snprintf(cmd, sizeof cmd, "'%s' --render '%s' '%s' 2>'%s/self.err'", view, good, good, work);
    CHECK(run(cmd) == 1);
    long m;
    char *again = read_all(good, &m);
    CHECK(m == n && memcmp(again, bytes, (size_t)n) == 0);
    free(again);
    snprintf(path, sizeof path, "%s/self.err", work);
    char *msg = read_all(path, &m);
    msg[m] = 0;
    CHECK(strstr(msg, "errors-good.slog2") != NULL && strstr(msg, "replace") != NULL);
    free(msg);

    /* nor a directory or a device: refused before drawing, /dev/null stays
     * a device, nothing is left in the directory */
    char outdir[4096];
    snprintf(outdir, sizeof outdir, "%s/outdir", work);
    mkdir(outdir, 0755);
    snprintf(cmd, sizeof cmd,
             "'%s' --render '%s' '%s' 2>'%s/dir.err' && exit 9; grep -q 'is a directory' '%s/dir.err' && "
             "test -z \"$(ls -A '%s')\"",
             view, outdir, good, work, work, outdir);
    CHECK(run(cmd) == 0);
    snprintf(cmd, sizeof cmd,
             "'%s' --render /dev/null '%s' 2>'%s/null.err' && exit 9; "
             "grep -q 'not a regular file' '%s/null.err' && test -c /dev/null",
             view, good, work, work);
    CHECK(run(cmd) == 0);

    /* "-": the PNG goes to standard output (byte for byte the image a file
     * gets), --stats to standard error, and no file named "-" appears */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && rm -f ./- && '%s' --render - --stats --size 300x200 '%s' >'%s/pipe.png' 2>'%s/pipe.err' && "
             "cmp -s '%s/pipe.png' '%s/ok.png' && grep -q '^window .*nodes_read' '%s/pipe.err' && test ! -e '%s/-'",
             work, view, good, work, work, work, work, work, work);
    CHECK(run(cmd) == 0);
    /* but not onto a terminal (script(1) gives it one) */
    snprintf(cmd, sizeof cmd,
             "command -v script >/dev/null || exit 0; cd '%s' && "
             "script -qec \"'%s' --render - '%s'\" /dev/null >'%s/tty.out' 2>&1; rc=$?; "
             "test $rc -eq 1 && grep -q 'is a terminal' '%s/tty.out' && ! grep -q PNG '%s/tty.out' && test ! -e '%s/-'",
             work, view, good, work, work, work, work);
    CHECK(run(cmd) == 0);

    /* an image that cannot be written whole (file size limit standing in
     * for a full disk): exit 1, and neither a half image nor a temporary
     * file is left */
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/pngfull", work);
    mkdir(dir, 0755);
    snprintf(cmd, sizeof cmd,
             "sh -c \"ulimit -f 8; trap '' XFSZ; exec '%s' --render '%s/big.png' --size 2000x1500 '%s'\" "
             "2>'%s/full.err'",
             view, dir, good, work);
    CHECK(run(cmd) == 1);
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", dir);
    CHECK(run(cmd) == 0); /* nothing left in dir */
    snprintf(path, sizeof path, "%s/full.err", work);
    msg = read_all(path, &m);
    msg[m] = 0;
    CHECK(strstr(msg, "big.png") != NULL);
    fputs(msg, stdout);
    free(msg);

    free(bytes);
    remove(good);
    return 0;
}
