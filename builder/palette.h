/* SPDX-License-Identifier: MIT */
/* palette.h - legend colours for MPI function families.
 *
 * Colours are stable: a function's colour depends only on its family and its
 * name, so the same function looks the same in every file. */
#ifndef SLOG2_PALETTE_H
#define SLOG2_PALETTE_H

#include <stdint.h>

#include "dumpi_table.h"

/* 0xRRGGBBAA for a function of the given family. */
uint32_t palette_colour(dumpi_family family, const char *name);
/* Colour of matched-message arrows and of polling events. */
#define PALETTE_ARROW          0xffffffffu
/* Messages whose receive had no status (paired by MPI's ordering rules). */
#define PALETTE_ARROW_INFERRED 0xe0218affu
uint32_t palette_event_colour(const char *name);

#endif
