/* signals.c - see signals.h. */
#include "signals.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Termination (a user, a batch system's limits) and crashes. */
static const int handled[] = {SIGHUP, SIGINT,  SIGQUIT, SIGTERM, SIGXCPU, SIGXFSZ,
                              SIGSEGV, SIGBUS, SIGFPE,  SIGILL,  SIGABRT};
#define N_HANDLED (sizeof handled / sizeof handled[0])

/* What the handler uses, prepared beforehand: it may only make
 * async-signal-safe calls (unlink, write, raise). */
static char temp_path[PATH_MAX];
static char message[PATH_MAX + 128];
static size_t message_len;
static volatile sig_atomic_t armed;
static struct sigaction previous[N_HANDLED];
static bool installed[N_HANDLED];

static void on_signal(int sig) {
    if (armed) {
        armed = 0;
        if (unlink(temp_path) == 0 && write(STDERR_FILENO, message, message_len) < 0) {
            /* nothing more can be done from here */
        }
    }
    /* SA_RESETHAND made the action the default again, and sig is blocked
     * until this returns: raised now, it ends the process right after. */
    raise(sig);
}

bool signals_arm(const char *path, bool erase_line) {
    int len = snprintf(message, sizeof message, "%sslog2-build: stopped by a signal; removed %s\n",
                       erase_line ? "\r\033[K" : "", path);
    if (strlen(path) >= sizeof temp_path || len < 0 || (size_t)len >= sizeof message) return false;
    strcpy(temp_path, path);
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

void signals_disarm(void) {
    armed = 0;
    for (size_t i = 0; i < N_HANDLED; i++)
        if (installed[i]) sigaction(handled[i], &previous[i], NULL);
}
