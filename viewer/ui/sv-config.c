/* SPDX-License-Identifier: MIT */
/* sv-config.c - see sv-config.h. */
#include "sv-config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

/* GLib's messages may end in a full stop; ours go on after them. */
static int len_without_stop(const char *m)
{
    size_t n = strlen(m);
    return (int)(n && m[n - 1] == '.' ? n - 1 : n);
}

static char *sv_config_path(const char *name)
{
    return g_build_filename(g_get_user_config_dir(), "slog2", name, NULL);
}

GKeyFile *sv_config_load(const char *name)
{
    char *path = sv_config_path(name);
    GKeyFile *kf = g_key_file_new();
    GError *e = NULL;
    if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_KEEP_COMMENTS, &e)) {
        if (!g_error_matches(e, G_FILE_ERROR, G_FILE_ERROR_NOENT))
            g_printerr("slog2-view: %s: %.*s; its settings are ignored\n", path, len_without_stop(e->message),
                       e->message);
        g_key_file_free(kf);
        kf = g_key_file_new(); /* a failed load may leave part of the file */
    }
    g_clear_error(&e);
    g_free(path);
    return kf;
}

gboolean sv_config_save(GKeyFile *kf, const char *name)
{
    char *path = sv_config_path(name), *dir = g_path_get_dirname(path);
    GError *e = NULL;
    gboolean ok = g_mkdir_with_parents(dir, 0700) == 0;
    if (!ok)
        g_printerr("slog2-view: cannot create %s: %s\n", dir, g_strerror(errno));
    else if (!(ok = g_key_file_save_to_file(kf, path, &e)))
        g_printerr("slog2-view: cannot save %s: %s\n", path, e->message);
    g_clear_error(&e);
    g_free(dir);
    g_free(path);
    return ok;
}

void sv_config_bad_value(const char *name, const char *group, const char *key, const char *why)
{
    char *path = sv_config_path(name);
    g_printerr("slog2-view: %s: [%s] %s: %.*s; ignored\n", path, group, key, len_without_stop(why), why);
    g_free(path);
}
