/* The JSON reader of vt sweep and vt report (src/sweep/json.c) against
 * hand-written documents (RFC 8259 escapes, surrogate pairs as UTF-8 bytes
 * worked out by hand, exact number text, nesting limit, malformed input),
 * and vt report given bad or hostile input: clear errors, no page; names
 * with HTML or script syntax come out escaped; a page has everything
 * inline (no src= or href= to another file). */
#include "check.h"
#include "sweep/json.h"
#include "sweep_test_util.h"

TEST(json_values) {
  const char *doc = "{\"a\": [1, -2.5e3, 0, true, false, null], \"s\": \"x\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\","
                    " \"o\": {}, \"e\": [], \"n\": 12345678901234567890}";
  json_value v;
  char err[300];
  CHECK(st, json_parse(doc, strlen(doc), &v, err, sizeof err) == 0);
  const json_value *a = json_get(&v, "a");
  CHECK(st, a && a->type == JSON_ARRAY && a->n == 6);
  if (a && a->n == 6) {
    CHECK(st, a->items[0].number == 1 && a->items[1].number == -2500);
    CHECK_STR(st, a->items[1].text, "-2.5e3");
    CHECK(st, a->items[3].type == JSON_BOOL && a->items[3].boolean && !a->items[4].boolean);
    CHECK(st, a->items[5].type == JSON_NULL);
  }
  /* e-acute = C3 A9; U+1F600 = F0 9F 98 80 */
  CHECK_STR(st, json_str(json_get(&v, "s")), "x\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80");
  CHECK(st, json_get(&v, "o")->type == JSON_OBJECT && json_get(&v, "o")->n == 0);
  CHECK(st, json_get(&v, "e")->type == JSON_ARRAY && json_get(&v, "e")->n == 0);
  CHECK_STR(st, json_get(&v, "n")->text, "12345678901234567890"); /* text kept exactly */
  CHECK(st, json_get(&v, "missing") == NULL);
  json_free(&v);
}

TEST(json_rejects) {
  static const char *const bad[] = {"", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "[1 2]", "01", "1.", "-",
                                    "\"\\x\"", "\"\\ud800\"", "\"\\udc00\"", "\"a\nb\"", "tru", "[1]x",
                                    "{1:2}", "\"\\u12\"", "[,1]", "{,}"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    json_value v;
    char err[300] = "";
    int rc = json_parse(bad[i], strlen(bad[i]), &v, err, sizeof err);
    CHECK(st, rc == -1 && !strncmp(err, "byte ", 5));
    if (rc == 0) {
      fprintf(stderr, "accepted: %s\n", bad[i]);
      json_free(&v);
    }
  }
  char deep[200];
  memset(deep, '[', 100);
  memset(deep + 100, ']', 100);
  json_value v;
  char err[300] = "";
  CHECK(st, json_parse(deep, 200, &v, err, sizeof err) == -1 && strstr(err, "nested deeper than 64"));
}

TEST(json_cursor_walk) {
  const char *doc = "{\"skip\": {\"x\": [1, {\"y\": 2}]}, \"traceEvents\": [{\"n\": 1}, {\"n\": 2}, {\"n\": 3}]}";
  json_cursor c;
  json_cursor_init(&c, doc, strlen(doc));
  CHECK(st, json_enter(&c, '{') == 0);
  char *key;
  double sum = 0;
  int members = 0;
  while (json_next_key(&c, &key) == 1) {
    members++;
    if (!strcmp(key, "traceEvents")) {
      CHECK(st, json_enter(&c, '[') == 0);
      while (json_next_item(&c) == 1) {
        json_value v;
        CHECK(st, json_read(&c, &v) == 0);
        sum += json_get(&v, "n") ? json_get(&v, "n")->number : 0;
        json_free(&v);
      }
    } else {
      CHECK(st, json_skip(&c) == 0);
    }
    free(key);
  }
  CHECK(st, json_finish(&c) == 0 && members == 2 && sum == 6);
}

/* a stand-in for Chart.js: the page is checked as text here (the browser
 * test draws with the real one) */
static void fake_chartjs(void) {
  spit("chart.js", "/*! Chart.js v0 stand-in */ window.Chart = function () {};\n");
  setenv("VT_CHARTJS", "chart.js", 1);
}

static int report(const char *input, const char *out, char **log) {
  char *argv[] = {VT_BINARY, "report", "-o", (char *)out, (char *)input, NULL};
  int rc = run(argv, "report.log");
  *log = slurp("report.log");
  return rc;
}

TEST(report_rejects_bad_input) {
  fake_chartjs();
  struct {
    const char *text, *want;
  } cases[] = {
      {"not json", "stats.json: byte 0: unexpected character"},
      {"{\"total\": 3, \"sms\": []}", "not a statistics file of vt"},
      {"[1, 2]", "not a statistics file of vt"},
      {"{\"traceEvents\": [{\"ph\": \"i\", \"name\": \"x\", \"pid\": 0, \"tid\": 0, \"ts\": 1}]}",
       "the timeline has no spans"},
      {"{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"x\", \"pid\": 0, \"tid\": 0, \"ts\": 1, \"dur\": 2},]}",
       "trailing ','"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    spit("stats.json", cases[i].text);
    remove("out.html");
    char *log;
    CHECK(st, report("stats.json", "out.html", &log) == 1);
    contains(st, log, cases[i].want);
    free(log);
    struct stat sb;
    CHECK(st, stat("out.html", &sb) != 0); /* no page from bad input */
  }
  char *log;
  mkdir("empty", 0755);
  CHECK(st, report("empty", "out.html", &log) == 1);
  contains(st, log, "empty/plan.json");
  free(log);
  setenv("VT_CHARTJS", "stats.json", 1);
  spit("stats.json", "{\"total\": {}, \"sms\": []}");
  CHECK(st, report("stats.json", "out.html", &log) == 1);
  contains(st, log, "stats.json: not a Chart.js file");
  free(log);
  fake_chartjs();
}

/* a functional statistics file with a hostile launch name */
TEST(report_escapes_and_inlines) {
  fake_chartjs();
  spit("s.json", "{\n  \"total\": {\n    \"launches\": 1,\n    \"warp_instructions\": 10,\n"
       "    \"thread_instructions\": 320,\n    \"scalar_instructions\": 4,\n    \"vector_instructions\": 6\n  },\n"
       "  \"sms\": [{\"warp_instructions\": 10, \"thread_instructions\": 320, \"scalar_instructions\": 4,"
       " \"vector_instructions\": 6}],\n  \"launches\": [{\"name\": \"</script><img src=x>\", \"total\": {\"warp_instructions\": 7}},"
       " {\"name\": \"b\", \"total\": {\"warp_instructions\": 3}}]\n}\n");
  char *log;
  CHECK(st, report("s.json", "s.html", &log) == 0);
  free(log);
  char *page = slurp("s.html");
  CHECK(st, page != NULL);
  if (!page) return;
  CHECK(st, strstr(page, "<img") == NULL);            /* escaped in text and JSON */
  CHECK(st, strstr(page, "\\u003c/script\\u003e") != NULL);
  CHECK(st, !strstr(page, "src=\"") && !strstr(page, "src='")); /* nothing loaded from elsewhere */
  CHECK(st, strstr(page, "<link rel=\"stylesheet\"") == NULL);
  CHECK(st, strstr(page, "Chart.js v") != NULL);      /* the library is inside */
  CHECK(st, strstr(page, "id=\"sm-lanes\"") != NULL); /* lanes: 320 / 10 */
  contains(st, page, "SM 0,32\n");
  free(page);
}

RUN_TESTS(T(json_values), T(json_rejects), T(json_cursor_walk), T(report_rejects_bad_input),
          T(report_escapes_and_inlines))
