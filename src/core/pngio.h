/* 8-bit greyscale PNG files through libpng: reading converts grey+alpha, RGB and RGBA to grey (Rec. 601
 * luma), 16-bit to 8-bit, palettes to RGB and drops alpha and tRNS transparency; writing produces 8-bit grey
 * or 8-bit RGB. */
#ifndef CG_PNGIO_H
#define CG_PNGIO_H
#include <stddef.h>
#include <stdint.h>
#include "core/status.h"

/* Reads path into a malloc'd w*h byte image. CG_E_IO with one logged line (missing, not a PNG, corrupt). */
cg_status cg_png_read_grey(const char *path, uint8_t **pix, size_t *w, size_t *h);
/* Reads only the header of path: its width and height. CG_E_IO with one logged line, as cg_png_read_grey. */
cg_status cg_png_read_size(const char *path, size_t *w, size_t *h);
/* Writes a w*h grey image all-or-nothing (cg_safefile_write: a unique temporary file renamed over path, whose
 * old content stays on any failure; nothing else is ever removed). CG_E_IO with one logged line when the
 * file cannot be written. */
cg_status cg_png_write_grey(const char *path, const uint8_t *pix, size_t w, size_t h);
/* The same for a w*h RGB image, 3 bytes a pixel (red, green, blue), row by row. */
cg_status cg_png_write_rgb(const char *path, const uint8_t *pix, size_t w, size_t h);

#endif
