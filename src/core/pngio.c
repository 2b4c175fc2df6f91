/* PNG input and output through libpng. Reading accepts every PNG colour type and bit depth and lets libpng's
 * transforms produce 8-bit grey (palette -> RGB, 1/2/4-bit grey -> 8, 16 -> 8 by scaling, RGB -> Rec. 601
 * luma, alpha and tRNS transparency stripped). Writing goes through core/safefile: all-or-nothing, and a
 * failed write never removes anything but its own temporary file. libpng reports errors by longjmp: the error
 * callback keeps libpng's message, and the one setjmp per function frees everything, so a corrupt or
 * truncated file leaks nothing and logs one line.
 */
#include "core/pngio.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/fs.h"
#include "core/log.h"
#include "core/safefile.h"

/* What the error callback records before it jumps back to the setjmp in the reader or writer. */
typedef struct png_err {
    char msg[128];
} png_err;

static void on_error(png_structp png, png_const_charp msg)
{
    png_err *e = png_get_error_ptr(png);
    if (e) snprintf(e->msg, sizeof e->msg, "%s", msg ? msg : "unknown error");
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    CG_DEBUG("libpng: %s", msg ? msg : "");
}

/* Asks libpng for 8-bit single-channel rows whatever the file holds. */
static void set_grey_transforms(png_structp png, png_infop info)
{
    int type = png_get_color_type(png, info);
    int depth = png_get_bit_depth(png, info);
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (depth == 16) png_set_scale_16(png);
    if (type == PNG_COLOR_TYPE_RGB || type == PNG_COLOR_TYPE_RGB_ALPHA || type == PNG_COLOR_TYPE_PALETTE)
        png_set_rgb_to_gray_fixed(png, PNG_ERROR_ACTION_NONE, 29900, 58700); /* Rec. 601: .299 R + .587 G */
    /* A tRNS chunk (transparency of a palette entry or of one grey or RGB value) becomes alpha under the
     * palette expansion: strip it like a real alpha channel. */
    if ((type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS)) png_set_strip_alpha(png);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);
}

/* Reads an opened, signature-checked file: its header only when pix is NULL (*w, *h), else its rows as 8-bit
 * grey too (*pix set only on success). Any libpng error jumps back here; the volatile pointers keep their
 * values across the jump so they can be freed. */
static cg_status read_png(const char *path, FILE *f, png_err *err, uint8_t **pix, size_t *w, size_t *h)
{
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, err, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    uint8_t *volatile buf = NULL;
    png_bytep *volatile rows = NULL;
    cg_status st = CG_E_IO;
    if (!info) {
        CG_ERROR("%s: out of memory while reading the PNG file", path);
        goto out;
    }
    if (setjmp(png_jmpbuf(png))) {
        CG_ERROR("%s: corrupt PNG data (%s)", path, feof(f) ? "file ends early: truncated" : err->msg);
        goto out;
    }
    png_init_io(png, f);
    png_set_sig_bytes(png, 8);
    png_read_info(png, info);
    if (!pix) {
        *w = png_get_image_width(png, info);
        *h = png_get_image_height(png, info);
        st = CG_OK;
        goto out;
    }
    set_grey_transforms(png, info);
    size_t width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    if (png_get_channels(png, info) != 1 || png_get_bit_depth(png, info) != 8 ||
        png_get_rowbytes(png, info) != width) {
        CG_ERROR("%s: unsupported PNG layout (cannot convert to 8-bit grey)", path);
        goto out;
    }
    if (height > INT32_MAX / width) { /* a 67-byte file may claim 10^12 pixels: refuse before allocating */
        CG_ERROR("%s: %zux%zu pixels is above the 2^31-1 the kernels index: use a smaller picture", path,
                 width, height);
        goto out;
    }
    if (!(buf = malloc(width * height)) || !(rows = malloc(height * sizeof *rows))) {
        CG_ERROR("%s: out of memory for a %zux%zu picture", path, width, height);
        goto out;
    }
    for (size_t y = 0; y < height; y++)
        rows[y] = buf + y * width;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    *pix = buf;
    buf = NULL;
    *w = width;
    *h = height;
    st = CG_OK;
out:
    free(rows);
    free(buf);
    png_destroy_read_struct(png ? &png : NULL, info ? &info : NULL, NULL);
    return st;
}

/* Opens path (a regular file only: a FIFO never blocks) and checks the PNG signature; NULL with one logged
 * line otherwise. */
static FILE *open_png(const char *path)
{
    unsigned char sig[8];
    FILE *f = cg_fs_fopen_regular(path, NULL);
    if (!f) {
        CG_ERROR("cannot open %s: %s", path, cg_fs_strerror(errno));
        return NULL;
    }
    if (fread(sig, 1, sizeof sig, f) != sizeof sig || png_sig_cmp(sig, 0, sizeof sig) != 0) {
        CG_ERROR("%s: not a PNG file", path);
        fclose(f);
        return NULL;
    }
    return f;
}

cg_status cg_png_read_grey(const char *path, uint8_t **pix, size_t *w, size_t *h)
{
    png_err err = {{0}};
    FILE *f = open_png(path);
    if (!f) return CG_E_IO;
    cg_status st = read_png(path, f, &err, pix, w, h);
    fclose(f);
    return st;
}

/* What the PNG writer's emit callback needs; logged records whether it already logged its failure. */
typedef struct png_out {
    const char *path;
    const uint8_t *pix;
    size_t w, h;
    int channels; /* 1: grey, 3: RGB */
    bool logged;
} png_out;

/* Writes the rows to an opened file; libpng errors jump back to the setjmp here. */
static int write_rows(FILE *f, const void *ctx)
{
    png_out *o = (png_out *)ctx;
    png_err err = {{0}};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &err, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    int rc = -1;
    if (!info) {
        CG_ERROR("%s: out of memory while writing the PNG file", o->path);
        o->logged = true;
        goto out;
    }
    if (setjmp(png_jmpbuf(png))) {
        int e = errno;
        CG_ERROR("cannot write %s: %s", o->path, err.msg);
        o->logged = true;
        errno = e ? e : EIO;
        goto out;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)o->w, (png_uint_32)o->h, 8,
                 o->channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (size_t y = 0; y < o->h; y++)
        png_write_row(png, o->pix + y * o->w * (size_t)o->channels);
    png_write_end(png, NULL);
    rc = 0;
out:
    png_destroy_write_struct(png ? &png : NULL, info ? &info : NULL);
    return rc;
}

static cg_status write_png(const char *path, const uint8_t *pix, size_t w, size_t h, int channels)
{
    if (w == 0 || h == 0 || w > 0x7fffffffu || h > 0x7fffffffu) {
        CG_ERROR("cannot write %s: a PNG picture must be 1 to 2^31-1 pixels wide and high, not %zux%zu", path,
                 w, h);
        return CG_E_IO;
    }
    png_out o = {path, pix, w, h, channels, false};
    if (cg_safefile_write(path, write_rows, &o) == 0) return CG_OK;
    if (!o.logged) CG_ERROR("cannot write %s: %s", path, cg_fs_strerror(errno));
    return CG_E_IO;
}

cg_status cg_png_write_grey(const char *path, const uint8_t *pix, size_t w, size_t h)
{
    return write_png(path, pix, w, h, 1);
}

cg_status cg_png_write_rgb(const char *path, const uint8_t *pix, size_t w, size_t h)
{
    return write_png(path, pix, w, h, 3);
}

cg_status cg_png_read_size(const char *path, size_t *w, size_t *h)
{
    png_err err = {{0}};
    FILE *f = open_png(path);
    if (!f) return CG_E_IO;
    cg_status st = read_png(path, f, &err, NULL, w, h);
    fclose(f);
    return st;
}
