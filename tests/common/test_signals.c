/* SPDX-License-Identifier: MIT */
/* test_signals.c - a tool killed while writing leaves no temporary file
 * (common/signals.h), in a child process per case: the signal must end
 * the child as it would have (status), after removing the file and saying
 * so (stderr), including a signal that came while held, between creating
 * the file and arming. The scripted tests kill whole builds, where that
 * window is too short to hit on purpose. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "signals.h"

static char dir[] = "/tmp/slog2-signals.XXXXXX";
static char temp[128], err_path[128];

/* What a case does in its child, the file already created. */
typedef void (*child_fn)(void);

/* Runs fn in a child with stderr to err_path; its wait status. */
static int run_child(child_fn fn)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (e < 0 || dup2(e, STDERR_FILENO) < 0) _exit(100);
        close(e);
        fn();
        _exit(0);
    }
    int status = -1;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
    return status;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static bool err_says(const char *what)
{
    char buf[512] = "";
    FILE *f = fopen(err_path, "r");
    if (!f) return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strstr(buf, what) != NULL;
}

static void make_temp(void)
{
    int fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, "x", 1) != 1) _exit(101);
    close(fd);
}

static void arm(void)
{
    const char *p = temp;
    if (!signals_arm("test", &p, 1, false)) _exit(102);
}

/* SIGTERM after creating the file, before arming: held, it is delivered
 * once armed, to the handler. */
static void held_then_armed(void)
{
    signals_hold();
    make_temp();
    raise(SIGTERM);
    arm();
    _exit(0); /* not reached when the handler took the signal */
}

/* The same without the hold: the default action, the file left. */
static void not_held(void)
{
    make_temp();
    raise(SIGTERM);
    arm();
    _exit(0);
}

/* Creating the file failed: unhold, and a held signal acts as it would
 * have, nothing removed. */
static void held_then_unheld(void)
{
    signals_hold();
    make_temp();
    raise(SIGTERM);
    signals_unhold();
    _exit(0);
}

/* Disarmed (the file renamed): signals act as before. */
static void armed_then_disarmed(void)
{
    signals_hold();
    make_temp();
    arm();
    signals_disarm();
    raise(SIGTERM);
    _exit(0);
}

/* An ignored signal (nohup) stays ignored while armed. */
static void ignored_stays_ignored(void)
{
    signal(SIGHUP, SIG_IGN);
    signals_hold();
    make_temp();
    raise(SIGHUP);
    arm();
    raise(SIGHUP);
    signals_disarm();
    _exit(0);
}

/* Each case's child, and how it must end: killed by sig (0: exits 0),
 * the temporary file removed and the removal told on stderr, or left. */
static const struct {
    const char *name;
    child_fn fn;
    int sig;
    bool removed;
} cases[] = {
    {"held_then_armed", held_then_armed, SIGTERM, true},
    {"not_held", not_held, SIGTERM, false},
    {"held_then_unheld", held_then_unheld, SIGTERM, false},
    {"armed_then_disarmed", armed_then_disarmed, SIGTERM, false},
    {"ignored_stays_ignored", ignored_stays_ignored, 0, false},
};

static void check_case(size_t i)
{
    unlink(temp);
    int st = run_child(cases[i].fn);
    if (cases[i].sig)
        CHECK(WIFSIGNALED(st) && WTERMSIG(st) == cases[i].sig);
    else
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    if (cases[i].removed) {
        CHECK(!exists(temp));
        CHECK(err_says("test: stopped by a signal; removed "));
        CHECK(err_says(temp));
    } else {
        CHECK(exists(temp));
        CHECK(!err_says("removed"));
    }
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(temp, sizeof temp, "%s/out.slog2.tmp.test", dir);
    snprintf(err_path, sizeof err_path, "%s/stderr", dir);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_CONTEXT("%s", cases[i].name);
        check_case(i);
        printf("ok   %s\n", cases[i].name);
    }
    unlink(temp);
    unlink(err_path);
    rmdir(dir);
    return 0;
}
