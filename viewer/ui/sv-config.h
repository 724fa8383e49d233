/* SPDX-License-Identifier: MIT */
/* sv-config.h - the viewer's settings files in $XDG_CONFIG_HOME/slog2/
 * (colors.ini: legend colours; view.ini: Dark Style). A file that cannot
 * be read as a key file is reported on stderr, naming it and the line, and
 * ignored: settings never stop the viewer. */
#ifndef SV_CONFIG_H
#define SV_CONFIG_H

#include <glib.h>

/* The file's keys, or an empty key file when it is missing or unreadable
 * (then reported). Free with g_key_file_free. */
GKeyFile *sv_config_load(const char *name);

/* Write kf as the file (creating the directory); a failure is reported.
 * Returns whether it was written. */
gboolean sv_config_save(GKeyFile *kf, const char *name);

/* Report a value of the file that is not what the key wants; it is
 * ignored. */
void sv_config_bad_value(const char *name, const char *group, const char *key, const char *why);

#endif
