/*
 * test_dockey.c - the table of the JSON documents' members (dockey.h,
 * dockeys.def): the table holds together, an object is made of a row's
 * members in the table's order (fields and values handed over), a member
 * is read by its row, and a document is checked against the table.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "dockey.h"
#include "fixture.h"
#include "result.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

static bool is_shape(enum dockey k)
{
	return dockey_rows[k].parent == k;
}

/* ---- the table ---- */

static void every_row_has_a_parent_that_holds_members_and_a_name_unique_there(void **state)
{
	(void)state;
	for (enum dockey k = DK_NONE + 1; k < DK_COUNT; k++) {
		const struct dockey_row *r = &dockey_rows[k];
		if (is_shape(k)) {
			assert_string_equal(r->name, "");
			continue;
		}
		assert_true(r->name[0] != '\0');
		assert_true(r->parent > DK_NONE && r->parent < DK_COUNT);
		/* a member's parent is an object, or the shape of one */
		assert_true(dockey_rows[r->parent].type & DKT_OBJ);
		assert_int_equal(dockey_rows[r->parent].elem, DK_NONE);
		for (enum dockey j = k + 1; j < DK_COUNT; j++)
			if (dockey_rows[j].parent == r->parent && j != r->parent)
				assert_true(strcmp(dockey_rows[j].name, r->name) != 0);
		assert_true(r->since >= 1 && r->since <= DOCKEY_SCHEMA);
		assert_non_null(r->where);
		assert_true(r->meaning && r->meaning[0]);
	}
}

static void an_array_or_map_names_a_shape_and_an_object_has_members_or_a_shape(void **state)
{
	(void)state;
	for (enum dockey k = DK_NONE + 1; k < DK_COUNT; k++) {
		const struct dockey_row *r = &dockey_rows[k];
		if (r->elem != DK_NONE)
			assert_true(is_shape(r->elem) && (r->type & (DKT_ARR | DKT_MAP | DKT_OBJ)));
		if ((r->type & DKT_MAP) || !(r->type & DKT_OBJ) || r->elem != DK_NONE)
			continue;
		bool members = false;
		for (enum dockey j = DK_NONE + 1; j < DK_COUNT && !members; j++)
			members = dockey_rows[j].parent == k && j != k;
		if (!members)
			fail_msg("%s: an object of no member", dockey_rows[k].name);
	}
}

static void every_document_begins_with_its_schema(void **state)
{
	static const enum dockey docs[] = { DK_RUN, DK_SWEEP, DK_AB };
	static const enum dockey schema[] = { DK_RUN_SCHEMA, DK_SWEEP_SCHEMA, DK_AB_SCHEMA };

	(void)state;
	for (size_t i = 0; i < LEN(docs); i++) {
		enum dockey first = docs[i] + 1;
		assert_true(dockey_rows[docs[i]].type & DKT_DOC);
		assert_int_equal(first, schema[i]);
		assert_int_equal(dockey_rows[first].parent, docs[i]);
		assert_string_equal(dockey_name(first), "schema");
		assert_int_equal(dockey_rows[first].since, 2);
	}
}

/* ---- reading ---- */

static void a_member_is_read_from_an_object_of_its_shape(void **state)
{
	json_t *run = json_loads("{\"result\": {\"throughput_mb_s\": 12.5},"
				 " \"clients\": [{\"mb_s\": 3.0}]}", 0, NULL);
	char *path = dockey_path(fixture_ctx(state), DK_RESULT_THROUGHPUT);

	assert_true(json_real_value(dockey_get(run, DK_RESULT_THROUGHPUT)) == 12.5);
	assert_null(dockey_get(run, DK_RESULT_ELAPSED_S));
	assert_null(dockey_get(NULL, DK_RESULT_ELAPSED_S));
	/* an element of an array is of its own shape */
	const json_t *client = json_array_get(dockey_get(run, DK_CLIENTS), 0);
	assert_true(json_real_value(dockey_get(client, DK_CLIENT_MB_S)) == 3.0);
	assert_string_equal(path, "result.throughput_mb_s");
	assert_string_equal(dockey_path(fixture_ctx(state), DK_CLIENT_MB_S), "mb_s");
	json_decref(run);
}

static void a_document_without_a_schema_is_of_schema_1(void **state)
{
	json_t *none = json_object(), *two = json_pack("{s:i}", "schema", 2);
	json_t *bad = json_pack("{s:s}", "schema", "2"), *zero = json_pack("{s:i}", "schema", 0);

	(void)state;
	assert_int_equal(dockey_schema_of(none, DK_RUN_SCHEMA), 1);
	assert_int_equal(dockey_schema_of(two, DK_RUN_SCHEMA), 2);
	assert_int_equal(dockey_schema_of(bad, DK_RUN_SCHEMA), -1);
	assert_int_equal(dockey_schema_of(zero, DK_RUN_SCHEMA), -1);
	json_decref(none), json_decref(two), json_decref(bad), json_decref(zero);
}

/* ---- writing ---- */

static void an_object_takes_fields_and_values_in_the_table_order(void **state)
{
	struct fairness f = { .min_mb_s = 1, .median_mb_s = 2, .max_mb_s = NAN, .jain_index = 0.5 };
	json_t *o = dockey_object(DK_FAIR, &f, NULL, 0);
	char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);

	(void)state;
	assert_string_equal(text, "{\"min_mb_s\":1.0,\"median_mb_s\":2.0,\"max_mb_s\":null,"
				  "\"jain_index\":0.5}");
	free(text);
	json_decref(o);
	/* the straddled operations: a field, a value and a field */
	struct run_result res = { .straddled = 3, .straddled_op = "ReadX" };
	const struct dockey_value v[] = { { DK_STRADDLED_MAX, json_real(9.5) } };
	o = dockey_object(DK_RESULT_STRADDLED, &res, v, LEN(v));
	text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	assert_string_equal(text, "{\"count\":3,\"max_ms\":9.5,\"operation\":\"ReadX\"}");
	free(text);
	json_decref(o);
}

static void a_member_that_may_be_absent_is_left_out_when_not_given(void **state)
{
	struct op_result op = { .count = 2, .mean_ms = 1, .p50_ms = NAN, .p90_ms = NAN,
				.p99_ms = NAN, .p999_ms = NAN, .max_ms = 2 };
	const struct dockey_value v[] = {
		{ DK_OP_NOT_SUPPORTED, DOCKEY_ABSENT }, { DK_OP_SKIPPED, json_integer(1) },
	};
	json_t *o = dockey_object(DK_OP, &op, v, LEN(v));

	(void)state;
	assert_non_null(o);
	assert_null(json_object_get(o, "not_supported"));
	assert_null(json_object_get(o, "hist"));
	assert_int_equal(json_integer_value(json_object_get(o, "skipped")), 1);
	assert_int_equal(json_object_size(o), 9);
	json_decref(o);
}

static void a_writer_that_does_not_match_the_table_gets_no_object(void **state)
{
	struct run_result res = { 0 };
	/* one that must be there is not given */
	const struct dockey_value none[] = { { DK_STRADDLED_OPERATION, json_string("x") } };
	/* a value for a member of another object */
	const struct dockey_value other[] = {
		{ DK_STRADDLED_MAX, json_null() }, { DK_RESULT_THROUGHPUT, json_real(1) },
	};
	/* a value that memory ran out for */
	const struct dockey_value lost[] = { { DK_STRADDLED_MAX, NULL } };

	(void)state;
	assert_null(dockey_object(DK_RESULT_STRADDLED, &res, NULL, 0));
	assert_null(dockey_object(DK_RESULT_STRADDLED, &res, none, LEN(none)));
	assert_null(dockey_object(DK_RESULT_STRADDLED, &res, other, LEN(other)));
	assert_null(dockey_object(DK_RESULT_STRADDLED, &res, lost, LEN(lost)));
}

/* ---- checking ---- */

static void a_document_is_checked_member_by_member(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	json_t *fair = json_loads("{\"min_mb_s\": 1, \"median_mb_s\": null, \"max_mb_s\": 2.0,"
				  " \"jain_index\": 1}", 0, NULL);
	json_t *sweep = json_loads("{\"sweep\": {\"dbench_version\": \"6\", \"procs\": [1],"
				   " \"repeat\": 1, \"precision_pct\": null, \"settle_s\": 3,"
				   " \"drop_caches\": false, \"label\": null, \"prepare\": null,"
				   " \"cleanup\": null}, \"runs\": [], \"summary\": []}", 0, NULL);

	assert_null(dockey_check(ctx, fair, DK_FAIR, 2));
	json_object_set_new(fair, "jain_index", json_string("1"));
	assert_string_equal(dockey_check(ctx, fair, DK_FAIR, 2), "jain_index: not a number or null");
	json_object_del(fair, "jain_index");
	assert_string_equal(dockey_check(ctx, fair, DK_FAIR, 2), "jain_index: missing");
	json_object_set_new(fair, "jain_index", json_real(1));
	json_object_set_new(fair, "extra", json_true());
	assert_string_equal(dockey_check(ctx, fair, DK_FAIR, 2), "extra: not in the table");
	/* the schema member came with schema 2: a sweep of schema 1 has none */
	assert_null(dockey_check(ctx, sweep, DK_SWEEP, 1));
	assert_null(dockey_check(ctx, sweep, DK_SWEEP, 2));	/* it may be absent */
	json_object_del(json_object_get(sweep, "sweep"), "settle_s");
	assert_string_equal(dockey_check(ctx, sweep, DK_SWEEP, 1), "sweep.settle_s: missing");
	json_object_set_new(json_object_get(sweep, "sweep"), "settle_s", json_integer(3));
	json_object_set_new(sweep, "schema", json_integer(2));
	assert_string_equal(dockey_check(ctx, sweep, DK_SWEEP, 1), "schema: not in the table");
	assert_null(dockey_check(ctx, sweep, DK_SWEEP, 2));
	json_decref(fair);
	json_decref(sweep);
}

#define T(f) cmocka_unit_test_setup_teardown(f, fixture_setup, fixture_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(every_row_has_a_parent_that_holds_members_and_a_name_unique_there),
		T(an_array_or_map_names_a_shape_and_an_object_has_members_or_a_shape),
		T(every_document_begins_with_its_schema),
		T(a_member_is_read_from_an_object_of_its_shape),
		T(a_document_without_a_schema_is_of_schema_1),
		T(an_object_takes_fields_and_values_in_the_table_order),
		T(a_member_that_may_be_absent_is_left_out_when_not_given),
		T(a_writer_that_does_not_match_the_table_gets_no_object),
		T(a_document_is_checked_member_by_member),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
