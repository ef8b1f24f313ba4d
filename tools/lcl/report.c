/* report.c -- what the commands write besides plain text: JSON numbers, CSV fields, SVG charts
   (self-contained, written by hand), and the clock and median every timing uses. */
#include "lcl.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double now_s(void) {
#if defined(_WIN32)
    return (double)clock() / CLOCKS_PER_SEC;
#else
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
#endif
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
double median(double *t, long n) {
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}
double amax(double m, double v) { return (v > m || v != v) ? v : m; }

void json_double(FILE *f, double v, int valid) {
    if (valid && v - v == 0) fprintf(f, "%.6g", v);
    else fputs("null", f);
}
void csv_field(FILE *f, const char *s) {
    if (!strpbrk(s, ",\"\n")) { fputs(s, f); return; }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}
static void xml_text(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '&') fputs("&amp;", f);
        else if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '"') fputs("&quot;", f);
        else fputc(*s, f);
    }
}
static double nice_step(double raw) {
    double p = pow(10.0, floor(log10(raw))), m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* Self-contained SVG charts written by hand: svg_frame draws what every chart shares (the page,
   its title, the y grid with values, both axes, the y label), svg_legend_label a legend line. */
static const char *const svg_colors[10] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
                                           "#bcbd22", "#7f7f7f"};
static void svg_frame(FILE *f, double W, double H, double L, double T, double pw, double ph, double ytop, double ystep,
                      const char *title, const char *ylabel) {
    double y;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
               "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n", W, H, W, H);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", W, H);
    fprintf(f, "<text x=\"%.1f\" y=\"26\" text-anchor=\"middle\" font-size=\"16\">", L + pw / 2);
    xml_text(f, title);
    fprintf(f, "</text>\n");
    for (y = 0; y <= ytop + ystep * 0.5; y += ystep) {
        double py = T + ph * (1 - y / ytop);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n", L, py, L + pw, py);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6, py + 4, y);
    }
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", L, T + ph, L + pw, T + ph);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", L, T, L, T + ph);
    fprintf(f, "<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 18 %.1f)\">", T + ph / 2, T + ph / 2);
    xml_text(f, ylabel);
    fprintf(f, "</text>\n");
}
static void svg_legend_label(FILE *f, double x, double y, const char *label) {
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x, y);
    if (strlen(label) > 40) {   /* long device names: keep the legend inside the picture */
        char shortl[48];
        snprintf(shortl, sizeof shortl, "%.37s...", label);
        xml_text(f, shortl);
    } else xml_text(f, label);
    fprintf(f, "</text>\n");
}


/* Lines: point i belongs to the series label[i], at (x[i], y[i]); y[i] < 0 marks a failed run,
   left out of its line but ticked on the x axis. */
int write_svg_lines(const char *path, const char *title, const char *xlabel, const char *ylabel, char **label,
                    const int64_t *x, const double *y, int npts) {
    enum { MAX_SERIES = 64, MAX_TICKS = 64 };
    const double W = 860, H = 480, L = 72, R = 300, T = 48, Bm = 58, pw = W - L - R, ph = H - T - Bm;
    const char *labels[MAX_SERIES];
    int nser = 0, i, j, s, logx;
    double xmin = 0, xmax = 0, ymax = 0, ystep, ytop;
    int64_t ticks[MAX_TICKS];
    int nticks = 0, every;
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    for (i = 0; i < npts; i++) {
        if (i == 0 || (double)x[i] < xmin) xmin = (double)x[i];
        if (i == 0 || (double)x[i] > xmax) xmax = (double)x[i];
        if (y[i] > ymax) ymax = y[i];
        for (j = 0; j < nticks && ticks[j] != x[i]; j++) {}
        if (j == nticks && nticks < MAX_TICKS) ticks[nticks++] = x[i];
        for (j = 0; j < nser && strcmp(labels[j], label[i]); j++) {}
        if (j == nser && nser < MAX_SERIES) labels[nser++] = label[i];
    }
    logx = xmin > 0 && xmax / xmin >= 4;
    if (ymax <= 0) ymax = 1;
    ystep = nice_step(ymax / 5);
    ytop = ceil(ymax / ystep) * ystep;
#define SVG_X(n) (xmax > xmin ? L + pw * (0.04 + 0.92 * (logx ? log((double)(n) / xmin) / log(xmax / xmin) : ((double)(n) - xmin) / (xmax - xmin))) : L + pw / 2)
#define SVG_Y(v) (T + ph * (1 - (v) / ytop))
    svg_frame(f, W, H, L, T, pw, ph, ytop, ystep, title, ylabel);
    /* x ticks at the values measured (at most about 10 labels) */
    every = nticks > 10 ? (nticks + 9) / 10 : 1;
    for (i = 0; i < nticks; i++) {
        int64_t t = ticks[i];
        for (j = i; j > 0 && ticks[j - 1] > t; j--) ticks[j] = ticks[j - 1];
        ticks[j] = t;
    }
    for (i = 0; i < nticks; i++) {
        double px = SVG_X(ticks[i]);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n", px, T, px, T + ph);
        if (i % every == 0)
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%lld</text>\n", px, T + ph + 18, (long long)ticks[i]);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", L + pw / 2, H - 14);
    xml_text(f, xlabel);
    fprintf(f, "%s</text>\n", logx ? " (log scale)" : "");
    /* one line per series, points in order of x */
    for (s = 0; s < nser; s++) {
        const char *col = svg_colors[s % 8];
        int npt = 0;
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", col, s >= 8 ? " stroke-dasharray=\"6 3\"" : "");
        for (i = 0; i < nticks; i++)
            for (j = 0; j < npts; j++)
                if (x[j] == ticks[i] && y[j] >= 0 && !strcmp(label[j], labels[s]))
                    fprintf(f, "%s%.1f,%.1f", npt++ ? " " : "", SVG_X(x[j]), SVG_Y(y[j]));
        fprintf(f, "\"/>\n");
        for (j = 0; j < npts; j++)
            if (y[j] >= 0 && !strcmp(label[j], labels[s]))
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", SVG_X(x[j]), SVG_Y(y[j]), col);
        /* legend */
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s/>\n", L + pw + 20,
                T + 10 + 20.0 * s, L + pw + 44, T + 10 + 20.0 * s, col, s >= 8 ? " stroke-dasharray=\"6 3\"" : "");
        svg_legend_label(f, L + pw + 50, T + 14 + 20.0 * s, labels[s]);
    }
    if (npts == 0) fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no data</text>\n", L + pw / 2, T + ph / 2);
    fprintf(f, "</svg>\n");
#undef SVG_X
#undef SVG_Y
    return fclose(f) == 0;
}

/* Grouped bars: ngroups groups (matrix and backend) of nser bars (formats), val[g * nser + s]
   (<= 0: none, a failed or refused format) */
int write_svg_bars(const char *path, const char *title, const char *ylabel, char **groups, int ngroups, char **series,
                   int nser, const double *val) {
    const double L = 72, R = 170, T = 48, Bm = 150, H = 520, ph = H - T - Bm, minw = 8.0 * nser + 14;
    const double pw = ngroups * minw > 520 ? ngroups * minw : 520, W = L + pw + R;
    const double gw = ngroups > 0 ? pw / ngroups : pw, gap = gw * 14 / minw, bw = (gw - gap) / (nser > 0 ? nser : 1);
    double ymax = 0, ystep, ytop;
    int g, s;
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    for (g = 0; g < ngroups * nser; g++)
        if (val[g] > ymax) ymax = val[g];
    if (ymax <= 0) ymax = 1;
    ystep = nice_step(ymax / 5);
    ytop = ceil(ymax / ystep) * ystep;
    svg_frame(f, W, H, L, T, pw, ph, ytop, ystep, title, ylabel);
    for (g = 0; g < ngroups; g++) {
        double x0 = L + g * gw + gap / 2, lx = x0 + nser * bw / 2;
        for (s = 0; s < nser; s++) {
            double v = val[g * nser + s];
            if (!(v > 0)) continue;
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>", x0 + s * bw, T + ph * (1 - v / ytop),
                    bw - 1, ph * v / ytop, svg_colors[s % 10]);
            xml_text(f, groups[g]);
            fputs(" ", f);
            xml_text(f, series[s]);
            fprintf(f, ": %.4g</title></rect>\n", v);
        }
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" transform=\"rotate(-40 %.1f %.1f)\">", lx, T + ph + 14, lx, T + ph + 14);
        xml_text(f, groups[g]);
        fprintf(f, "</text>\n");
    }
    for (s = 0; s < nser; s++) {
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\"%s/>\n", L + pw + 20, T + 4 + 20.0 * s,
                svg_colors[s % 10], s >= 10 ? " stroke=\"black\" stroke-dasharray=\"2 1\"" : "");
        svg_legend_label(f, L + pw + 40, T + 14 + 20.0 * s, series[s]);
    }
    if (ngroups == 0) fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no data</text>\n", L + pw / 2, T + ph / 2);
    fprintf(f, "</svg>\n");
    return fclose(f) == 0;
}
