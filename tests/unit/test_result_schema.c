/* test_result_schema.c - the schema table of the results model: sorted and
 * unique (the look-up is a binary search), every entry well formed, the
 * look-ups by path and by last member, and the typed readers' defaults
 * taken from the table. Which keys src/ spells is checked against the table
 * by tests/integration/result_schema.sh. */
#include "check.h"
#include "result/result_schema.h"

#include <string.h>

TEST(sorted_unique)
{
    size_t n;
    const struct result_key *k = result_schema(&n);
    CHECK(n > 0, "empty table\n");
    for (size_t i = 1; i < n; i++)
        CHECK(strcmp(k[i - 1].path, k[i].path) < 0, "\"%s\" then \"%s\"\n", k[i - 1].path, k[i].path);
}

TEST(entries_well_formed)
{
    size_t n;
    const struct result_key *k = result_schema(&n);
    for (size_t i = 0; i < n; i++) {
        const char *p = k[i].path;
        size_t len = strlen(p);
        CHECK(len > 0 && p[0] != '.' && p[len - 1] != '.', "path \"%s\"\n", p);
        CHECK(!strstr(p, ".."), "path \"%s\"\n", p);
        CHECK(k[i].type >= RK_ANY && k[i].type <= RK_ARR, "type of %s\n", p);
        CHECK(k[i].unit && k[i].meaning, "unit or meaning of %s is NULL\n", p);
        /* only a string key has a string default, only a number a number one */
        CHECK(!k[i].dflt_str || k[i].type == RK_STR, "%s: string default on a %s\n", p,
              result_type_name(k[i].type));
        CHECK(k[i].dflt == 0 || k[i].type == RK_NUM, "%s: number default on a %s\n", p,
              result_type_name(k[i].type));
        CHECK(result_schema_find(p) == &k[i], "%s not found by its own path\n", p);
    }
}

TEST(find_and_leaf)
{
    const struct result_key *k = result_schema_find("phases[].results[].<dir>.iops");
    CHECK(k && k->type == RK_NUM, "phases[].results[].<dir>.iops\n");
    CHECK(!result_schema_find("phases[].results[].<dir>.iops_"), "a prefix matched\n");
    CHECK(!result_schema_find("phases[].results[].<dir>.iop"), "a prefix matched\n");
    CHECK(!result_schema_find(""), "the empty path matched\n");
    k = result_schema_leaf("schema");
    CHECK(k && !strcmp(k->path, "schema") && k->type == RK_STR, "leaf schema\n");
    k = result_schema_leaf("phases");
    CHECK(k && !strcmp(k->path, "phases") && k->type == RK_ARR, "leaf phases\n");
    k = result_schema_leaf("tracking_metric");
    CHECK(k && strstr(k->path, "tracking_metric"), "leaf tracking_metric\n");
    CHECK(!result_schema_leaf("no_such_key_anywhere"), "an unknown key matched\n");
    CHECK(!result_schema_leaf("results[]"), "a \"[]\" key matched\n");
    CHECK(!strcmp(result_type_name(RK_NUM), "number") && !strcmp(result_type_name(RK_ANY), "any"),
          "type names\n");
}

TEST(typed_readers_take_the_tables_default)
{
    cJSON *t = cJSON_Parse("{\"tracking_metric\": \"bw\", \"iops\": 7, \"name\": \"x\"}");
    cJSON *empty = cJSON_CreateObject();
    CHECK(t && empty, "out of memory\n");
    CHECK(!strcmp(result_sstr(t, "pts.tests[].tracking_metric"), "bw"), "present value\n");
    CHECK(!strcmp(result_sstr(empty, "pts.tests[].tracking_metric"), "iops"), "table default\n");
    CHECK(!strcmp(result_sstr(NULL, "pts.tests[].tracking_metric"), "iops"), "NULL object\n");
    CHECK(result_snum(t, "phases[].results[].<dir>.iops") == 7, "number read\n");
    CHECK(result_snum(empty, "phases[].results[].<dir>.iops") == 0, "number default\n");
    /* a path the table lacks reads as the default of nothing */
    CHECK(result_snum(t, "iops") == 0, "an unknown path read a value\n");
    CHECK(!strcmp(result_sstr(t, "nothing.tracking_metric"), ""), "unknown path\n");
    cJSON_Delete(t);
    cJSON_Delete(empty);
}

CHECK_MAIN()
