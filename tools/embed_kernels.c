/* embed_kernels.c -- turn OpenCL source files into a C header of string literals.
 *
 * Usage: embed_kernels OUT.h FILE.cl...
 *
 * Files are embedded in the order given (the Makefile passes kernels/ *.cl
 * sorted with LC_ALL=C).  For every file an array of string literals
 * ("chunks") is emitted; concatenating a file's chunks in order gives back
 * the file's exact bytes, except that CRLF line ends become LF.  Each chunk
 * holds at most LCL_EMBED_CHUNK bytes of source, so that no string literal
 * exceeds the C99 minimum limit of 4095 characters (gcc's
 * -Woverlength-strings) nor MSVC's literal limits.  Chunks are split at line
 * ends; a single line longer than a chunk is split mid-line (at a UTF-8
 * character boundary where possible).
 *
 * For every file the names its kernels are declared with are listed too
 * (`__kernel [__attribute__((...))] void NAME` or `void SFX(NAME...)`, where a
 * name built by the preprocessor is cut at its first non-identifier
 * character), so the library can tell which file's program holds a kernel
 * without building them all: a kernel name starts with one of its file's.
 *
 * Output is byte-for-byte deterministic: it depends only on the basenames and
 * contents of the inputs and on the basename of OUT.h.  OUT.h is written to
 * OUT.h.tmp first and then renamed into place.
 *
 * Exit status: 0 on success, 1 on an I/O or input error, 2 on a usage error.
 *
 * Build: cc -std=c99 -O2 -o embed_kernels tools/embed_kernels.c
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LCL_EMBED_CHUNK 3000u /* max source bytes per chunk */
#define LCL_EMBED_PIECE 96u   /* max escaped chars per output line before wrapping */

static const char *progname = "embed_kernels";

typedef struct input_file {
    const char *path; /* as given on the command line */
    const char *base; /* basename (points into path) */
    char *ident;      /* C identifier: lcl__kernel_<sanitized basename> */
    unsigned char *data;
    size_t size;
} input_file;

static void die_oom(void)
{
    fprintf(stderr, "%s: error: out of memory\n", progname);
    exit(1);
}

static const char *basename_of(const char *path)
{
    const char *b = path;
    const char *p;
    for (p = path; *p; ++p) {
        if (*p == '/' || *p == '\\')
            b = p + 1;
    }
    return b;
}

/* Read a whole file in binary mode, dropping the CR of every CRLF pair.
 * Returns 0 on success, otherwise an errno value (or -1 if errno was 0). */
static int read_file(const char *path, unsigned char **out_data, size_t *out_size)
{
    FILE *f;
    unsigned char *buf = NULL;
    size_t cap = 0, len = 0, i, j;
    int err = 0;

    errno = 0;
    f = fopen(path, "rb");
    if (!f)
        return errno ? errno : -1;
    for (;;) {
        size_t n;
        if (cap - len < 4096) {
            size_t ncap = cap ? cap * 2 : 16384;
            unsigned char *nb;
            if (ncap < cap)
                die_oom();
            nb = (unsigned char *)realloc(buf, ncap);
            if (!nb)
                die_oom();
            buf = nb;
            cap = ncap;
        }
        errno = 0;
        n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) {
            if (ferror(f))
                err = errno ? errno : -1;
            break;
        }
    }
    if (fclose(f) != 0 && !err)
        err = errno ? errno : -1;
    if (err) {
        free(buf);
        return err;
    }
    /* CRLF -> LF */
    for (i = 0, j = 0; i < len; ++i) {
        if (buf[i] == '\r' && i + 1 < len && buf[i + 1] == '\n')
            continue;
        buf[j++] = buf[i];
    }
    *out_data = buf;
    *out_size = j;
    return 0;
}

static char *make_ident(const char *base)
{
    static const char prefix[] = "lcl__kernel_";
    size_t blen = strlen(base);
    size_t plen = sizeof prefix - 1;
    size_t i;
    char *id = (char *)malloc(plen + blen + 1);
    if (!id)
        die_oom();
    memcpy(id, prefix, plen);
    for (i = 0; i < blen; ++i) {
        unsigned char c = (unsigned char)base[i];
        int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        id[plen + i] = alnum ? (char)c : '_';
    }
    id[plen + blen] = '\0';
    return id;
}

/* ---- output helpers; errors are detected once via ferror() at the end ---- */

/* Text safe to put inside a C comment: printable ASCII except '?' (no
 * trigraphs) and '*' / '/' (no comment delimiters); others become '_'. */
static void put_comment_text(FILE *o, const char *s)
{
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c > 0x7e || c == '?' || c == '*' || c == '/' || c == '\\')
            c = '_';
        fputc(c, o);
    }
}

/* Escaped form of one byte; prev_q says whether the preceding byte of the
 * same literal sequence was '?'.  Returns the number of chars written to buf. */
static size_t escape_byte(unsigned char c, int prev_q, char buf[5])
{
    switch (c) {
    case '\\': buf[0] = '\\'; buf[1] = '\\'; return 2;
    case '"':  buf[0] = '\\'; buf[1] = '"';  return 2;
    case '\t': buf[0] = '\\'; buf[1] = 't';  return 2;
    case '\n': buf[0] = '\\'; buf[1] = 'n';  return 2;
    case '?':
        if (prev_q) { buf[0] = '\\'; buf[1] = '?'; return 2; }
        buf[0] = '?';
        return 1;
    default:
        break;
    }
    if (c < 0x20 || c >= 0x7f) {
        buf[0] = '\\';
        buf[1] = (char)('0' + ((c >> 6) & 7));
        buf[2] = (char)('0' + ((c >> 3) & 7));
        buf[3] = (char)('0' + (c & 7));
        return 4;
    }
    buf[0] = (char)c;
    return 1;
}

/* Emit bytes [p, p+n) as one or more adjacent string literals, one per output
 * line, each line indented by 4 spaces.  Long runs are wrapped every
 * LCL_EMBED_PIECE escaped characters (wrapping never changes the bytes). */
static void put_literal(FILE *o, const unsigned char *p, size_t n, int prev_q)
{
    size_t i, col = 0;
    char esc[5];
    fputs("    \"", o);
    for (i = 0; i < n; ++i) {
        size_t k = escape_byte(p[i], prev_q, esc);
        if (col + k > LCL_EMBED_PIECE) {
            fputs("\"\n    \"", o);
            col = 0;
        }
        fwrite(esc, 1, k, o);
        col += k;
        prev_q = (p[i] == '?');
    }
    fputc('"', o);
}

static int is_ident(unsigned char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Write the kernel names of f as one space-separated string literal. */
static void emit_kernel_names(FILE *o, const input_file *f)
{
    const unsigned char *d = f->data;
    size_t n = f->size, i = 0, count = 0;
    fputs("\"", o);
    while (i + 8 <= n) {
        size_t p, q;
        if (memcmp(d + i, "__kernel", 8) != 0 || (i > 0 && is_ident(d[i - 1])) || (i + 8 < n && is_ident(d[i + 8]))) {
            ++i;
            continue;
        }
        p = i + 8;
        for (;;) {  /* skip blanks and __attribute__((...)) up to "void" */
            while (p < n && (d[p] == ' ' || d[p] == '\t' || d[p] == '\n' || d[p] == '\\'))
                ++p;
            if (p + 13 <= n && memcmp(d + p, "__attribute__", 13) == 0) {
                int depth = 0;
                p += 13;
                while (p < n && d[p] != '(')
                    ++p;
                while (p < n) {
                    if (d[p] == '(')
                        ++depth;
                    else if (d[p] == ')' && --depth == 0) {
                        ++p;
                        break;
                    }
                    ++p;
                }
                continue;
            }
            break;
        }
        i = p;
        if (p + 4 > n || memcmp(d + p, "void", 4) != 0)
            continue;
        p += 4;
        while (p < n && (d[p] == ' ' || d[p] == '\t'))
            ++p;
        if (p + 4 <= n && memcmp(d + p, "SFX(", 4) == 0)
            p += 4;
        for (q = p; q < n && is_ident(d[q]); ++q) {
        }
        if (q > p) {
            if (count++)
                fputc(' ', o);
            fwrite(d + p, 1, q - p, o);
        }
        i = q;
    }
    fputs("\"", o);
}

static void emit_file(FILE *o, const input_file *f)
{
    const unsigned char *d = f->data;
    size_t n = f->size, pos = 0;

    fputs("/* ", o);
    put_comment_text(o, f->base);
    fputs(" */\n", o);
    fprintf(o, "static const char *const %s[] = {\n", f->ident);
    if (n == 0)
        fputs("    \"\",\n", o);
    while (pos < n) {
        size_t chunk_len = 0;
        /* one chunk */
        for (;;) {
            size_t e = pos, len;
            while (e < n && d[e] != '\n')
                ++e;
            if (e < n)
                ++e; /* include the '\n' */
            len = e - pos;
            if (chunk_len + len <= LCL_EMBED_CHUNK) {
                if (chunk_len)
                    fputc('\n', o);
                put_literal(o, d + pos, len, pos > 0 && d[pos - 1] == '?');
                chunk_len += len;
                pos = e;
                if (pos >= n)
                    break;
                continue;
            }
            if (chunk_len == 0) {
                /* single over-long line: split it mid-line, preferably not
                 * inside a UTF-8 multi-byte sequence */
                size_t cut = pos + LCL_EMBED_CHUNK, back = 0;
                while (back < 3 && cut - back > pos && (d[cut - back] & 0xC0) == 0x80)
                    ++back;
                if ((d[cut - back] & 0xC0) != 0x80 && cut - back > pos)
                    cut -= back;
                put_literal(o, d + pos, cut - pos, pos > 0 && d[pos - 1] == '?');
                pos = cut;
            }
            break;
        }
        fputs(",\n", o);
    }
    fputs("    0\n};\n", o);
}

int main(int argc, char **argv)
{
    const char *out_path;
    const char *out_base;
    char *tmp_path = NULL;
    input_file *files = NULL;
    int nfiles, i, j, status = 1;
    FILE *o;

    if (argc < 3) {
        fprintf(stderr, "usage: %s OUT.h FILE.cl...\n", progname);
        return 2;
    }
    out_path = argv[1];
    out_base = basename_of(out_path);
    if (*out_base == '\0') {
        fprintf(stderr, "%s: error: invalid output file name '%s'\n", progname, out_path);
        fprintf(stderr, "usage: %s OUT.h FILE.cl...\n", progname);
        return 2;
    }
    nfiles = argc - 2;
    files = (input_file *)calloc((size_t)nfiles, sizeof *files);
    if (!files)
        die_oom();

    for (i = 0; i < nfiles; ++i) {
        input_file *f = &files[i];
        int err;
        f->path = argv[i + 2];
        f->base = basename_of(f->path);
        if (*f->base == '\0') {
            fprintf(stderr, "%s: error: cannot read %s: not a file name\n", progname, f->path);
            goto done;
        }
        f->ident = make_ident(f->base);
        for (j = 0; j < i; ++j) {
            if (strcmp(files[j].ident, f->ident) == 0) {
                fprintf(stderr,
                        "%s: error: %s and %s both map to the C identifier %s; rename one of them\n",
                        progname, files[j].path, f->path, f->ident);
                goto done;
            }
        }
        err = read_file(f->path, &f->data, &f->size);
        if (err) {
            fprintf(stderr, "%s: error: cannot read %s: %s\n", progname, f->path,
                    err > 0 ? strerror(err) : "I/O error");
            goto done;
        }
        if (memchr(f->data, '\0', f->size)) {
            fprintf(stderr, "%s: error: %s contains a NUL byte, which cannot be embedded\n",
                    progname, f->path);
            goto done;
        }
    }

    tmp_path = (char *)malloc(strlen(out_path) + 5);
    if (!tmp_path)
        die_oom();
    strcpy(tmp_path, out_path);
    strcat(tmp_path, ".tmp");

    errno = 0;
    o = fopen(tmp_path, "wb");
    if (!o) {
        fprintf(stderr, "%s: error: cannot write %s: %s\n", progname, tmp_path,
                errno ? strerror(errno) : "cannot open");
        goto done;
    }

    fputs("/* ", o);
    put_comment_text(o, out_base);
    fputs(" -- generated by tools/embed_kernels.c from kernels/<name>.cl by `make kernels`."
          " Do not edit. */\n", o);
    fputs("#ifndef LCL_KERNELS_EMBEDDED_H\n#define LCL_KERNELS_EMBEDDED_H\n", o);
    for (i = 0; i < nfiles; ++i)
        emit_file(o, &files[i]);
    fputs("/* a file's kernels are those whose names start with one of `kernels` */\n", o);
    fputs("typedef struct lcl__kernel_file { const char *name; const char *const *chunks; const char *kernels; }"
          " lcl__kernel_file;\n", o);
    fputs("static const lcl__kernel_file lcl__kernel_files[] = {\n", o);
    for (i = 0; i < nfiles; ++i) {
        const char *b = files[i].base;
        size_t k;
        char esc[5];
        int prev_q = 0;
        fputs("    { \"", o);
        for (; *b; ++b) {
            k = escape_byte((unsigned char)*b, prev_q, esc);
            fwrite(esc, 1, k, o);
            prev_q = (*b == '?');
        }
        fprintf(o, "\", %s, ", files[i].ident);
        emit_kernel_names(o, &files[i]);
        fprintf(o, " }%s\n", i + 1 < nfiles ? "," : "");
    }
    fputs("};\n", o);
    fprintf(o, "#define LCL__KERNEL_FILE_COUNT %d\n", nfiles);
    fputs("#endif\n", o);

    errno = 0;
    if (fflush(o) != 0 || ferror(o)) {
        int e = errno;
        fclose(o);
        remove(tmp_path);
        fprintf(stderr, "%s: error: cannot write %s: %s\n", progname, tmp_path,
                e ? strerror(e) : "I/O error");
        goto done;
    }
    errno = 0;
    if (fclose(o) != 0) {
        int e = errno;
        remove(tmp_path);
        fprintf(stderr, "%s: error: cannot write %s: %s\n", progname, tmp_path,
                e ? strerror(e) : "I/O error");
        goto done;
    }
    errno = 0;
    if (rename(tmp_path, out_path) != 0) {
        /* C99 leaves rename() onto an existing file implementation-defined
         * (it fails on Windows): remove the target and retry once. */
        remove(out_path);
        errno = 0;
        if (rename(tmp_path, out_path) != 0) {
            int e = errno;
            remove(tmp_path);
            fprintf(stderr, "%s: error: cannot rename %s to %s: %s\n", progname, tmp_path,
                    out_path, e ? strerror(e) : "rename failed");
            goto done;
        }
    }

    status = 0;
done:
    for (i = 0; i < nfiles; ++i) {
        free(files[i].ident);
        free(files[i].data);
    }
    free(files);
    free(tmp_path);
    return status;
}
