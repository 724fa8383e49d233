/* SPDX-License-Identifier: MIT */
/* status.c - status strings and error filling. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

const char *slog_strerror(slog_status status)
{
    switch (status) {
    case SLOG_OK: return "success";
    case SLOG_ERR_IO: return "input/output error";
    case SLOG_ERR_NOMEM: return "out of memory";
    case SLOG_ERR_NOT_SLOG: return "not a .slog2 file";
    case SLOG_ERR_VERSION: return "unsupported .slog2 format version";
    case SLOG_ERR_TRUNCATED: return "file is truncated";
    case SLOG_ERR_CORRUPT: return "file is corrupt";
    case SLOG_ERR_CHECKSUM: return "checksum mismatch";
    case SLOG_ERR_ARG: return "invalid argument";
    case SLOG_ERR_ORDER: return "drawables not in end-time order";
    case SLOG_ERR_LIMIT: return "format limit exceeded";
    }
    return "unknown error";
}

slog_status slog_set_error(slog_error *err, slog_status st, const char *path, uint64_t offset, const char *fmt, ...)
{
    if (!err) return st;
    err->status = st;
    err->offset = offset;
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    /* An I/O failure's text already names the failed step and errno's
     * reason ("cannot open: No such file or directory"): the generic
     * "input/output error" in front would only mislead (a missing file
     * is no I/O error). Every other status keeps its name. */
    char status_name[64] = "";
    if (st != SLOG_ERR_IO) snprintf(status_name, sizeof status_name, "%s: ", slog_strerror(st));
    if (offset != SLOG_NO_OFFSET)
        snprintf(err->message, sizeof err->message, "%s: offset %llu: %s%s", path ? path : "(none)",
                 (unsigned long long)offset, status_name, what);
    else
        snprintf(err->message, sizeof err->message, "%s: %s%s", path ? path : "(none)", status_name, what);
    return st;
}

void slog_clear_error(slog_error *err)
{
    if (!err) return;
    err->status = SLOG_OK;
    err->offset = SLOG_NO_OFFSET;
    err->message[0] = 0;
}
