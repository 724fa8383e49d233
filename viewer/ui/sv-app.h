/* SPDX-License-Identifier: MIT */
/* sv-app.h - the GtkApplication of slog2-view. */
#ifndef SV_APP_H
#define SV_APP_H

/* Run the application (calls gtk init through GApplication). */
int sv_app_run(int argc, char **argv);

#endif
