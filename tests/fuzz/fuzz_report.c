/* libFuzzer target: the JSON reader of vt sweep/vt report and the two
 * reports made from one file, statistics and timeline (src/report). Any
 * input gives a page or an error with a message; a parsed document must
 * survive json_free. No crash, hang, leak or sanitizer report. */
#include <string.h>

#include "fuzz_check.h"
#include "report/report.h"
#include "sweep/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  json_value v;
  char err[600] = "";
  if (json_parse((const char *)data, size, &v, err, sizeof err) == 0) json_free(&v);
  else FUZZ_CHECK(err[0] != 0, "a failed parse has no message");
  for (int kind = 0; kind < 2; kind++) {
    char *page = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&page, &len);
    FUZZ_CHECK(f != NULL, "out of memory");
    err[0] = 0;
    int rc = kind ? rp_timeline_report("fuzz.json", (const char *)data, size, "", f, err, sizeof err)
                  : rp_stats_report("fuzz.json", (const char *)data, size, "", f, err, sizeof err);
    fclose(f);
    FUZZ_CHECK(rc == 0 || err[0] != 0, "a failed report has no message");
    FUZZ_CHECK(rc != 0 || (page && strstr(page, "</html>")), "a report without its end");
    free(page);
  }
  return 0;
}
