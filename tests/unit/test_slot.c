/*
 * test_slot.c: every slot rule of SPEC 3.2 and 3.4, one test per layer
 * or entity type, with conflicts (same slot, different values) and
 * non-conflicts (different slots, or the same value).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sweep/slot.h"

/* Claim of one row; returns slot_claim's result, *c filled on 1. */
static int
claim(struct claim *c, enum fact_layer layer, const char *type,
    const char *project, const char *name, const char *text,
    const char *props, const char *parent, const char *component)
{
	struct fact f = { layer, "row-1", type, project, name, text, props,
	    parent, component };
	mirror_error err;

	return slot_claim(c, &f, NULL, NULL, &err);
}

static int
ent(struct claim *c, const char *type, const char *name, const char *props)
{
	return claim(c, LAYER_ENTITY, type, "p05", name, "a description",
	    props, NULL, NULL);
}

static int
mem(struct claim *c, const char *type, const char *content)
{
	return claim(c, LAYER_MEMORY, type, "p05", NULL, content, NULL, NULL,
	    NULL);
}

static void
expect(struct claim *c, const char *kind, const char *slot, const char *xkey,
    const char *value)
{
	assert_string_equal(c->slot_kind, kind);
	assert_string_equal(c->slot, slot);
	if (xkey == NULL)
		assert_null(c->xkey);
	else
		assert_string_equal(c->xkey, xkey);
	assert_string_equal(c->value, value);
	claim_free(c);
}

/* Do two memories of a type claim the same slot with different values? */
static void
mem_pair(const char *type, const char *a, const char *b, int same_slot,
    int same_value)
{
	struct claim x, y;

	assert_int_equal(mem(&x, type, a), 1);
	assert_int_equal(mem(&y, type, b), 1);
	assert_int_equal(strcmp(x.slot, y.slot) == 0, same_slot);
	assert_int_equal(strcmp(x.norm, y.norm) == 0, same_value);
	claim_free(&x);
	claim_free(&y);
}

/* Trusted state: (project, key normalised); key is the cross key. */
static void
test_state(void **state)
{
	struct claim c;

	(void)state;
	assert_int_equal(claim(&c, LAYER_STATE, "decision",
	    "p05-interferometer", "Lateral Support Material", "GF-PTFE", NULL,
	    NULL, NULL), 1);
	expect(&c, "cross_layer", "[\"p05-interferometer\","
	    "\"lateral_support_material\"]", "lateral_support_material",
	    "GF-PTFE");
	/* Category is not part of the slot. */
	assert_int_equal(claim(&c, LAYER_STATE, "fact", "p05-interferometer",
	    "lateral_support_material", "PEEK", NULL, NULL, NULL), 1);
	expect(&c, "cross_layer", "[\"p05-interferometer\","
	    "\"lateral_support_material\"]", "lateral_support_material",
	    "PEEK");
	assert_int_equal(claim(&c, LAYER_STATE, "fact", "p05", "!!", "x",
	    NULL, NULL, NULL), 0);
}

/* Decisions: (project, target, field) = value; cross key target_field. */
static void
test_decision(void **state)
{
	struct claim c;

	(void)state;
	assert_int_equal(ent(&c, "decision", "Lateral support material",
	    "{\"target\":\"lateral support\",\"field\":\"material\","
	    "\"value\":\"PEEK\"}"), 1);
	expect(&c, "entity_slot", "[\"p05\",\"decision\",\"lateral_support\","
	    "\"material\"]", "lateral_support_material", "PEEK");
	/* No target: the name stands in. */
	assert_int_equal(ent(&c, "decision", "Pad material",
	    "{\"value\":\"PEEK\"}"), 1);
	expect(&c, "entity_slot", "[\"p05\",\"decision\",\"pad_material\","
	    "\"\"]", "pad_material", "PEEK");
	/* A decision that states no value claims nothing. */
	assert_int_equal(ent(&c, "decision", "x", "{\"target\":\"t\"}"), 0);
}

static void
test_requirement_constraint(void **state)
{
	struct claim c;

	(void)state;
	assert_int_equal(ent(&c, "requirement", "Mass cap",
	    "{\"value\":4.8,\"unit\":\"kg\"}"), 1);
	expect(&c, "entity_slot", "[\"p05\",\"requirement\",\"mass_cap\"]",
	    "mass_cap", "4.8 kg");
	assert_int_equal(ent(&c, "requirement", "Mass cap",
	    "{\"key\":\"mass-limit\",\"value\":\"4.80\",\"unit\":\"kg\"}"), 1);
	expect(&c, "entity_slot", "[\"p05\",\"requirement\",\"mass_limit\"]",
	    "mass_limit", "4.80 kg");
	/* Without a value, the description is the claim. */
	assert_int_equal(ent(&c, "requirement", "Cleanliness", "{}"), 1);
	expect(&c, "entity_slot", "[\"p05\",\"requirement\",\"cleanliness\"]",
	    "cleanliness", "a description");
	/* The seeds' non-conflict: mass cap and heat flux cap differ. */
	{
		struct claim a, b;

		assert_int_equal(ent(&a, "requirement", "mass cap",
		    "{\"value\":\"4.8 kg\"}"), 1);
		assert_int_equal(ent(&b, "requirement", "heat flux cap",
		    "{\"value\":\"20 W\"}"), 1);
		assert_string_not_equal(a.slot, b.slot);
		claim_free(&a);
		claim_free(&b);
	}
	assert_int_equal(ent(&c, "constraint", "Envelope",
	    "{\"target\":\"Mirror cell\",\"kind\":\"max mass\",\"value\":12,"
	    "\"unit\":\"kg\"}"), 1);
	expect(&c, "entity_slot", "[\"p05\",\"constraint\",\"mirror_cell\","
	    "\"max_mass\"]", "mirror_cell_max_mass", "12 kg");
}

static void
test_structure(void **state)
{
	struct claim c;

	(void)state;
	assert_int_equal(claim(&c, LAYER_ENTITY, "project", "p05", "P05",
	    "Optical bench", "{}", NULL, NULL), 1);
	expect(&c, "entity_slot", "[\"p05\",\"project\"]", NULL,
	    "Optical bench");
	assert_int_equal(claim(&c, LAYER_ENTITY, "subsystem", "p05",
	    "Optics", "", "{}", "Bench", NULL), 1);
	expect(&c, "entity_slot", "[\"p05\",\"subsystem\",\"optics\"]", NULL,
	    "Bench");
	assert_int_equal(ent(&c, "subsystem", "Optics",
	    "{\"part_of\":\"Frame\"}"), 1);
	expect(&c, "entity_slot", "[\"p05\",\"subsystem\",\"optics\"]", NULL,
	    "Frame");
	assert_int_equal(claim(&c, LAYER_ENTITY, "component", "p05",
	    "Pad", "", "{\"subsystem\":\"Support\"}", "Support ring", NULL), 1);
	expect(&c, "entity_slot", "[\"p05\",\"component\",\"support\","
	    "\"pad\"]", NULL, "Support ring");
	/* No parent: nothing claimed. */
	assert_int_equal(ent(&c, "component", "Pad", "{}"), 0);
	assert_int_equal(ent(&c, "analysis_model", "FEM",
	    "{\"subsystem\":\"support\",\"method\":\"FEA\","
	    "\"solver\":\"CalculiX\"}"), 1);
	expect(&c, "entity_slot", "[\"p05\",\"analysis_model\",\"support\","
	    "\"fem\"]", NULL, "FEA / CalculiX");
	assert_int_equal(ent(&c, "analysis_model", "FEM",
	    "{\"solver\":\"Nastran\"}"), 1);
	expect(&c, "entity_slot", "[\"p05\",\"analysis_model\",\"\","
	    "\"fem\"]", NULL, "Nastran");
	/* A method without a solver is the value alone (this once returned
	 * freed memory: a double free in the sweep on real stores). */
	assert_int_equal(ent(&c, "analysis_model", "FEM",
	    "{\"method\":\"modal FEA\"}"), 1);
	expect(&c, "entity_slot", "[\"p05\",\"analysis_model\",\"\","
	    "\"fem\"]", NULL, "modal FEA");
}

static void
test_material(void **state)
{
	struct claim c;

	(void)state;
	assert_int_equal(ent(&c, "material", "GF-PTFE",
	    "{\"component\":\"Lateral support\"}"), 1);
	expect(&c, "entity_slot", "[\"p05\",\"material\",\"lateral_support\"]",
	    "lateral_support_material", "GF-PTFE");
	/* Through a uses_material edge, the edge's component counts. */
	assert_int_equal(claim(&c, LAYER_ENTITY, "material", "p05", "PEEK",
	    "", "{}", NULL, "Lateral Support"), 1);
	expect(&c, "entity_slot", "[\"p05\",\"material\",\"lateral_support\"]",
	    "lateral_support_material", "PEEK");
	/* A material naming no component claims nothing. */
	assert_int_equal(ent(&c, "material", "Invar", "{}"), 0);
}

static void
test_parameter_result_claim(void **state)
{
	struct claim c, d;

	(void)state;
	assert_int_equal(ent(&c, "parameter", "Preload",
	    "{\"scope\":\"pad\",\"value\":4.8,\"unit\":\"kg\"}"), 1);
	assert_int_equal(ent(&d, "parameter", "preload",
	    "{\"scope\":\"Pad\",\"value\":\"4.82\",\"unit\":\"kg\"}"), 1);
	assert_string_equal(c.slot, d.slot);
	assert_string_equal(c.xkey, "pad_preload");
	assert_string_not_equal(c.norm, d.norm);     /* 4.8 vs 4.82: conflict */
	claim_free(&d);
	assert_int_equal(ent(&d, "parameter", "preload",
	    "{\"scope\":\"Pad\",\"value\":\"4.80\",\"unit\":\"kg\"}"), 1);
	assert_string_equal(c.norm, d.norm);         /* 4.8 vs 4.80: same */
	claim_free(&c);
	claim_free(&d);
	assert_int_equal(ent(&c, "parameter", "Gap", "{\"value\":1}"), 1);
	expect(&c, "entity_slot", "[\"p05\",\"parameter\",\"\",\"gap\"]",
	    "gap", "1");
	assert_int_equal(ent(&c, "result", "Peak stress",
	    "{\"model\":\"FEM-1\",\"value\":12.5,\"unit\":\"MPa\"}"), 1);
	expect(&c, "entity_slot", "[\"p05\",\"result\",\"fem_1\","
	    "\"peak_stress\"]", "fem_1_peak_stress", "12.5 MPa");
	assert_int_equal(ent(&c, "validation_claim", "Survives launch",
	    "{\"key\":\"launch-survival\",\"verdict\":\"pass\"}"), 1);
	expect(&c, "entity_slot", "[\"p05\",\"validation_claim\","
	    "\"launch_survival\"]", "launch_survival", "pass");
}

static void
test_no_slot_and_bad_json(void **state)
{
	struct claim c;
	struct fact f = { LAYER_ENTITY, "e9", "decision", "p05", "x", "",
	    "{not json", NULL, NULL };
	mirror_error err;

	(void)state;
	assert_int_equal(ent(&c, "artifact", "Drawing", "{\"value\":1}"), 0);
	assert_int_equal(ent(&c, "vendor", "ACME", "{\"value\":1}"), 0);
	assert_int_equal(ent(&c, "interface", "I1", "{\"value\":1}"), 0);
	assert_int_equal(slot_claim(&c, &f, NULL, NULL, &err),
	    -MIRROR_EINPUT);
	assert_non_null(strstr(err.msg, "e9"));
	f.properties = "[1]";
	assert_int_equal(slot_claim(&c, &f, NULL, NULL, &err),
	    -MIRROR_EINPUT);
}

/* Validity windows travel with the claim. */
static void
test_windows(void **state)
{
	struct claim c;

	(void)state;
	assert_int_equal(ent(&c, "decision", "d", "{\"target\":\"t\","
	    "\"field\":\"f\",\"value\":\"A\",\"valid_from\":\"2020-01-01\","
	    "\"valid_until\":\"2021-01-01\"}"), 1);
	assert_string_equal(c.valid_from, "2020-01-01");
	assert_string_equal(c.valid_until, "2021-01-01");
	claim_free(&c);
}

static void
test_identity(void **state)
{
	struct claim c;

	(void)state;
	assert_int_equal(mem(&c, "identity", "Works as an optical engineer"), 1);
	expect(&c, "memory_slot", "[\"p05\",\"identity\",\"role\"]", NULL,
	    "Works as an optical engineer");
	assert_int_equal(mem(&c, "identity", "is a senior mechanical engineer"),
	    1);
	expect(&c, "memory_slot", "[\"p05\",\"identity\",\"role\"]", NULL,
	    "is a senior mechanical engineer");
	assert_int_equal(mem(&c, "identity", "Studied physics in Delft"), 1);
	expect(&c, "memory_slot", "[\"p05\",\"identity\",\"background\"]",
	    NULL, "Studied physics in Delft");
	assert_int_equal(mem(&c, "identity", "Has 10 years of optics"), 1);
	expect(&c, "memory_slot", "[\"p05\",\"identity\",\"background\"]",
	    NULL, "Has 10 years of optics");
	assert_int_equal(mem(&c, "identity", "Licensed professional engineer "
	    "with a background in optics"), 1);
	expect(&c, "memory_slot", "[\"p05\",\"identity\",\"credentials\"]",
	    NULL, "Licensed professional engineer with a background in optics");
	assert_int_equal(mem(&c, "identity", "likes coffee"), 0);
	assert_int_equal(mem(&c, "identity", "is a fan of engineering"), 1);
	claim_free(&c);
	mem_pair("identity", "works as a designer", "role: lead engineer", 1,
	    0);
}

static void
test_preference(void **state)
{
	struct claim c;

	(void)state;
	assert_int_equal(mem(&c, "preference", "prefers rebase workflow"), 1);
	expect(&c, "memory_slot", "[\"p05\",\"preference\",\"workflow\"]",
	    NULL, "rebase workflow");
	/* The seeds' conflict and non-conflict. */
	mem_pair("preference", "prefers rebase workflow",
	    "prefers merge-commit workflow", 1, 0);
	mem_pair("preference", "prefers small diffs", "Prefers small diffs.",
	    1, 1);
	/* "for X" names the topic. */
	mem_pair("preference", "uses ruff for linting",
	    "uses flake8 for linting", 1, 0);
	assert_int_equal(mem(&c, "preference", "uses ruff for linting"), 1);
	expect(&c, "memory_slot", "[\"p05\",\"preference\",\"linting\"]",
	    NULL, "ruff");
	/* ... "for" as a whole word only: "formatting" is no "for matting". */
	assert_int_equal(mem(&c, "preference", "uses black formatting"), 1);
	expect(&c, "memory_slot", "[\"p05\",\"preference\",\"formatting\"]",
	    NULL, "black formatting");
	/* Polarity: "never use X" and "use X" share a slot and disagree. */
	mem_pair("preference", "never uses tabs", "uses tabs", 1, 0);
	mem_pair("preference", "avoids tabs", "never uses tabs", 1, 1);
	assert_int_equal(mem(&c, "preference", "Never uses tabs"), 1);
	expect(&c, "memory_slot", "[\"p05\",\"preference\",\"tab\"]", NULL,
	    "not tabs");
	/* The phrase ends at over/instead of/rather than/because/when/','. */
	mem_pair("preference", "prefers rebase workflows over merges",
	    "likes a rebase workflow, mostly", 1, 0);
	mem_pair("preference", "prefers rebase workflow because history",
	    "prefers rebase workflow when possible", 1, 1);
	mem_pair("preference", "wants short meetings instead of long ones",
	    "wants short meetings rather than none", 1, 1);
	/* Different topics: no common slot. */
	mem_pair("preference", "prefers small diffs", "prefers rebase workflow",
	    0, 0);
	assert_int_equal(mem(&c, "preference", "enjoys hiking"), 0);
	assert_int_equal(mem(&c, "preference", "prefers"), 0);
	/* "user" is not "use". */
	assert_int_equal(mem(&c, "preference", "the user is happy"), 0);
}

static int
only_key(void *arg, const char *project, const char *key, mirror_error *err)
{
	(void)err;
	return strcmp(project, "p05") == 0 && strcmp(key, arg) == 0;
}

static void
test_subject_memories(void **state)
{
	struct fact f = { LAYER_MEMORY, "m1", "project", "p05", NULL,
	    "The lateral support material is PEEK.", NULL, NULL, NULL };
	char key[] = "lateral_support_material";
	mirror_error err;
	struct claim c;

	(void)state;
	assert_int_equal(slot_claim(&c, &f, only_key, key, &err), 1);
	expect(&c, "memory_slot", "[\"p05\",\"key\","
	    "\"lateral_support_material\"]", "lateral_support_material",
	    "PEEK");
	f.type = "knowledge";
	f.text = "lateral support material: GF-PTFE";
	assert_int_equal(slot_claim(&c, &f, only_key, key, &err), 1);
	expect(&c, "memory_slot", "[\"p05\",\"key\","
	    "\"lateral_support_material\"]", "lateral_support_material",
	    "GF-PTFE");
	f.type = "adaptation";
	f.text = "lateral_support_material = PEEK";
	assert_int_equal(slot_claim(&c, &f, only_key, key, &err), 1);
	claim_free(&c);
	/* A subject the project does not have as a key: no slot. */
	f.text = "the weather is nice";
	assert_int_equal(slot_claim(&c, &f, only_key, key, &err), 0);
	/* No shape: no slot. */
	f.text = "we talked about the lateral support material";
	assert_int_equal(slot_claim(&c, &f, only_key, key, &err), 0);
	/* Episodic memories never have a slot. */
	f.type = "episodic";
	f.text = "lateral support material is PEEK";
	assert_int_equal(slot_claim(&c, &f, only_key, key, &err), 0);
}

static void
test_describe(void **state)
{
	char *s;

	(void)state;
	s = slot_describe("cross_layer",
	    "[\"p05-interferometer\",\"lateral_support_material\"]");
	assert_string_equal(s, "lateral support material of p05-interferometer");
	free(s);
	s = slot_question("cross_layer",
	    "[\"p05-interferometer\",\"lateral_support_material\"]", "GF-PTFE");
	assert_string_equal(s, "Is the lateral support material of "
	    "p05-interferometer GF-PTFE?");
	free(s);
	s = slot_describe("memory_slot", "[\"\",\"preference\",\"workflow\"]");
	assert_string_equal(s, "preferred workflow");
	free(s);
	s = slot_describe("entity_slot",
	    "[\"p05\",\"material\",\"lateral_support\"]");
	assert_string_equal(s, "material of lateral support of p05");
	free(s);
	s = slot_describe("entity_slot", "not json");
	assert_string_equal(s, "not json");
	free(s);
	/* A layer's names at the edges, and its trust as its value. */
	assert_int_equal(layer_of_kind("project_state"), 3);
	assert_int_equal(layer_of_kind("entity"), 2);
	assert_int_equal(layer_of_kind("memory"), 1);
	assert_int_equal(layer_of_kind("other"), 0);
	assert_int_equal(layer_of_kind("entities"), 0);
	assert_int_equal(layer_of_kind(NULL), 0);
	for (int l = LAYER_MEMORY; l <= LAYER_STATE; l++)
		assert_int_equal(layer_of_kind(layer_kind(
		    (enum fact_layer)l)), l);
	assert_string_equal(layer_table(LAYER_STATE), "project_state");
	assert_string_equal(layer_table(LAYER_ENTITY), "entities");
	assert_string_equal(layer_table(LAYER_MEMORY), "memories");
}

/*
 * Inputs the fuzzer (tests/fuzz/fuzz_slot.c) found. A memory whose
 * subject is only an article ("An is ...", "The are ...") took a
 * negative length for the key (a crash in the sweep); it states no
 * subject, so it claims nothing. With a subject it still works.
 */
static void
test_fuzz_regressions(void **state)
{
	static const char *const bare[] = {
		"An is aEe B", "the is great", "The are fine", "a = 5",
	};
	struct claim c;

	(void)state;
	for (size_t i = 0; i < sizeof(bare) / sizeof(bare[0]); i++) {
		assert_int_equal(mem(&c, "knowledge", bare[i]), 0);
		assert_null(c.slot);
	}
	assert_int_equal(mem(&c, "knowledge", "An aperture is 150 mm"), 1);
	expect(&c, "memory_slot", "[\"p05\",\"key\",\"aperture\"]",
	    "aperture", "150 mm");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state),
		cmocka_unit_test(test_decision),
		cmocka_unit_test(test_requirement_constraint),
		cmocka_unit_test(test_structure),
		cmocka_unit_test(test_material),
		cmocka_unit_test(test_parameter_result_claim),
		cmocka_unit_test(test_no_slot_and_bad_json),
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_preference),
		cmocka_unit_test(test_subject_memories),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_fuzz_regressions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
