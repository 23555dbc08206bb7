/* The page of vt report: Chart.js copied in from Debian's libjs-chart.js
 * (docs/report.md says why), a small style sheet, and the script that turns
 * each figure's JSON spec into a chart. Nothing is fetched when the page
 * opens: it works offline and from any folder. */
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "util/file.h"

/* Debian's libjs-chart.js: chart.umd.js (Chart.js 4) or chart.min.js (3) */
static const char *const CHARTJS_PATHS[] = {"/usr/share/javascript/chart.js/chart.umd.js",
                                            "/usr/share/javascript/chart.js/chart.min.js"};

int rp_load_chartjs(const rp_opts *o, char **text, char *err, size_t errn) {
  const char *env = getenv("VT_CHARTJS"), *path = o->chartjs ? o->chartjs : env && *env ? env : NULL;
  uint8_t *data = NULL;
  size_t len;
  const vt_file_limit lim = {16u << 20, "a Chart.js file", NULL};
  if (path) {
    if (vt_read_file(path, lim, &data, &len, err, errn)) return -1;
  } else {
    for (int i = 0; i < 2 && !data; i++) vt_read_file(CHARTJS_PATHS[i], lim, &data, &len, NULL, 0);
    if (!data) {
      snprintf(err, errn, "Chart.js not found (%s): install Debian's libjs-chart.js "
               "(sh scripts/install-deps.sh), or name the file with --chartjs or VT_CHARTJS",
               CHARTJS_PATHS[1]);
      return -1;
    }
    path = "libjs-chart.js";
  }
  if (!strstr((char *)data, "Chart.js v") || strstr((char *)data, "</script")) {
    snprintf(err, errn, "%s: not a Chart.js file that can be copied into a page", path);
    free(data);
    return -1;
  }
  *text = (char *)data;
  return 0;
}

void rp_html_text(FILE *f, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    default: fputc(*s, f);
    }
  }
}

static const char STYLE[] =
    "body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1180px;padding:0 18px 40px;color:#222}\n"
    "h1{font-size:24px;margin:22px 0 4px}h2{font-size:19px;margin:30px 0 8px;border-bottom:1px solid #ccc}\n"
    "p.sub{color:#555;margin:0 0 12px}nav a{margin-right:14px}\n"
    ".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(540px,1fr));gap:14px}\n"
    "figure.chart{margin:0;border:1px solid #ddd;border-radius:6px;padding:8px 10px;background:#fff}\n"
    "figcaption{font-weight:600;margin-bottom:4px}.plot{position:relative}\n"
    "p.note{color:#555;font-size:13px;margin:0 0 4px}\n"
    "details{font-size:13px;margin-top:4px}pre.csv{max-height:220px;overflow:auto;background:#f6f6f6;padding:6px}\n"
    "table{border-collapse:collapse;font-size:13px;margin:8px 0}th,td{border:1px solid #ddd;padding:2px 7px;"
    "text-align:right}th{background:#f0f0f0}td.l,th.l{text-align:left}\n"
    "tr.fail td{background:#fde2e1}tr.base td{font-weight:600}.bad{color:#b00;font-weight:600}\n";

/* Draws every figure.chart from its spec; sets data-drawn on the body when
 * done (the browser test waits for it). */
static const char SCRIPT[] =
    "(function(){\n"
    "var palette=['#4e79a7','#f28e2b','#e15759','#76b7b2','#59a14f','#edc948','#b07aa1','#ff9da7',"
    "'#9c755f','#bab0ac','#1b9e77','#d95f02','#7570b3','#e7298a'];\n"
    "function dataset(spec,s,i){\n"
    " var c=palette[i%palette.length],d;\n"
    " if(spec.kind==='gantt')d=s.data.map(function(p){return{y:p[0],x:[p[1],p[2]]};});\n"
    " else d=s.data.map(function(p){return{x:p[0],y:p[1]};});\n"
    " var ds={label:s.label,data:d,borderColor:c,backgroundColor:spec.kind==='line'?c:c+'cc',"
    "pointRadius:s.data.length>40?0:3,borderWidth:spec.kind==='line'?2:1};\n"
    " if(spec.kind==='stacked')ds.stack='all';\n"
    " if(spec.kind==='gantt')ds.grouped=false;\n"
    " return ds;}\n"
    "function options(spec){\n"
    " var x={title:{display:true,text:spec.xlabel}},y={title:{display:true,text:spec.ylabel}};\n"
    " var o={animation:false,responsive:true,maintainAspectRatio:false,parsing:true,"
    "plugins:{legend:{position:'top',display:spec.series.length>1||spec.kind==='gantt'}},scales:{x:x,y:y}};\n"
    " if(spec.kind==='line'){x.type=spec.xcat?'category':'linear';if(spec.xcat)x.labels=spec.cats;}\n"
    " else if(spec.kind==='gantt'){o.indexAxis='y';y.type='category';y.labels=spec.cats;x.type='linear';}\n"
    " else{x.type='category';x.labels=spec.cats;if(spec.kind==='stacked'){x.stacked=true;y.stacked=true;}}\n"
    " if(spec.kind!=='gantt')y.beginAtZero=spec.kind!=='line';\n"
    " return o;}\n"
    "document.querySelectorAll('figure.chart').forEach(function(fig){\n"
    " var spec=JSON.parse(fig.querySelector('script.chart-spec').textContent);\n"
    " new Chart(fig.querySelector('canvas'),{type:spec.kind==='line'?'line':'bar',"
    "data:{datasets:spec.series.map(function(s,i){return dataset(spec,s,i);})},options:options(spec)});\n"
    "});\n"
    "document.body.setAttribute('data-drawn',String(document.querySelectorAll('figure.chart').length));\n"
    "})();\n";

void rp_page_begin(rp_page *pg, FILE *f, const char *title, const char *subtitle, const char *chartjs) {
  pg->f = f;
  pg->nsections = 0;
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<link rel=\"icon\" href=\"data:,\">\n<title>", f);
  rp_html_text(f, title);
  fprintf(f, "</title>\n<style>\n%s</style>\n<script>\n%s\n</script>\n</head>\n<body>\n<h1>", STYLE, chartjs);
  rp_html_text(f, title);
  fputs("</h1>\n<p class=\"sub\">", f);
  rp_html_text(f, subtitle);
  fputs("</p>\n", f);
}

void rp_section(rp_page *pg, const char *title, const char *anchor) {
  fprintf(pg->f, "%s<section id=\"%s\">\n<h2>", pg->nsections ? "</section>\n" : "", anchor);
  rp_html_text(pg->f, title);
  fputs("</h2>\n", pg->f);
  pg->nsections++;
}

void rp_grid(rp_page *pg, bool open) { fputs(open ? "<div class=\"grid\">\n" : "</div>\n", pg->f); }

void rp_page_end(rp_page *pg) {
  if (pg->nsections) fputs("</section>\n", pg->f);
  fprintf(pg->f, "<p class=\"sub\">Made by vt report; charts drawn by Chart.js (MIT licence), "
          "included in this file.</p>\n<script>\n%s</script>\n</body>\n</html>\n", SCRIPT);
}
