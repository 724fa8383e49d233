/* SPDX-License-Identifier: MIT */
/* signals.c - see signals.h. */
#include "signals.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Termination (a user, a batch system's limits), then crashes. Only the
 * first N_HELD may be held: a crash signal blocked when it is raised by a
 * fault kills the process outright. */
static const int handled[] = {SIGHUP,  SIGINT, SIGQUIT, SIGTERM, SIGXCPU, SIGXFSZ,
                              SIGSEGV, SIGBUS, SIGFPE,  SIGILL,  SIGABRT};
#define N_HANDLED (sizeof handled / sizeof handled[0])
#define N_HELD    6

/* What the handler uses, prepared beforehand: it may only make
 * async-signal-safe calls (unlink, write, raise). Freed only once
 * disarmed, after the handlers are restored. */
static char **temp_paths;
static size_t n_temp_paths;
static char *message;
static size_t message_len;
static volatile sig_atomic_t armed;
static struct sigaction previous[N_HANDLED];
static bool installed[N_HANDLED];
static sigset_t mask_before_hold;
static bool holding;

void signals_hold(void)
{
    if (holding) return;
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < N_HELD; i++) sigaddset(&set, handled[i]);
    holding = pthread_sigmask(SIG_BLOCK, &set, &mask_before_hold) == 0;
}

void signals_unhold(void)
{
    if (!holding) return;
    holding = false;
    pthread_sigmask(SIG_SETMASK, &mask_before_hold, NULL);
}

static void on_signal(int sig)
{
    if (armed) {
        armed = 0;
        bool removed = false;
        for (size_t i = 0; i < n_temp_paths; i++)
            if (unlink(temp_paths[i]) == 0) removed = true;
        if (removed && write(STDERR_FILENO, message, message_len) < 0) {
            /* nothing more can be done from here */
        }
    }
    /* SA_RESETHAND made the action the default again, and sig is blocked
     * until this returns: raised now, it ends the process right after. */
    raise(sig);
}

static void release(void)
{
    for (size_t i = 0; i < n_temp_paths; i++) free(temp_paths[i]);
    free(temp_paths);
    free(message);
    temp_paths = NULL;
    n_temp_paths = 0;
    message = NULL;
}

/* snprintf() of what the handler says. */
static int format_message(char *out, size_t size, const char *program, const char *const *paths, size_t n,
                          bool erase_line)
{
    const char *erase = erase_line ? "\r\033[K" : "";
    if (n == 1) return snprintf(out, size, "%s%s: stopped by a signal; removed %s\n", erase, program, paths[0]);
    return snprintf(out, size, "%s%s: stopped by a signal; removed its %zu temporary files (%s, ...)\n", erase, program,
                    n, paths[0]);
}

static bool arm(const char *program, const char *const *paths, size_t n, bool erase_line)
{
    if (temp_paths || n == 0) return false;
    temp_paths = calloc(n, sizeof *temp_paths);
    if (!temp_paths) return false;
    n_temp_paths = n;
    for (size_t i = 0; i < n; i++)
        if (!(temp_paths[i] = strdup(paths[i]))) {
            release();
            return false;
        }
    int len = format_message(NULL, 0, program, paths, n, erase_line);
    if (len < 0 || !(message = malloc((size_t)len + 1))) {
        release();
        return false;
    }
    format_message(message, (size_t)len + 1, program, paths, n, erase_line);
    message_len = (size_t)len;
    armed = 1;
    for (size_t i = 0; i < N_HANDLED; i++) {
        struct sigaction now;
        installed[i] = false;
        /* Only where the default action stands: an ignored signal (nohup)
         * stays ignored, a sanitizer's crash handler keeps its report. */
        if (sigaction(handled[i], NULL, &now) != 0 || (now.sa_flags & SA_SIGINFO) || now.sa_handler != SIG_DFL)
            continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigfillset(&sa.sa_mask); /* one handler run at a time, whatever arrives */
        sa.sa_flags = SA_RESETHAND;
        installed[i] = sigaction(handled[i], &sa, &previous[i]) == 0;
    }
    return true;
}

bool signals_arm(const char *program, const char *const *paths, size_t n, bool erase_line)
{
    bool ok = arm(program, paths, n, erase_line);
    /* A signal that came while held is delivered now, to the handler. */
    signals_unhold();
    return ok;
}

void signals_disarm(void)
{
    armed = 0;
    for (size_t i = 0; i < N_HANDLED; i++)
        if (installed[i]) {
            sigaction(handled[i], &previous[i], NULL);
            installed[i] = false;
        }
    release();
}
