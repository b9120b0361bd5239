/*
 * slot.c: the slot rules of SPEC 3.2 and 3.4, as tables.
 *
 * To learn what a row claims, read the rules below: the note on trusted
 * project state, entity_rules (one line per entity_type) and
 * memory_rules with the cue words they use. The code after them only
 * interprets the tables.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "sweep/normalize.h"
#include "sweep/slot.h"
#include "util/jsonwrite.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"

/* ---- the rules --------------------------------------------------------- */

/*
 * Trusted project state: slot (project, key), value = value, and the key
 * is its own cross-layer key. Category is shown, never part of the slot.
 * A state slot is recorded as slot_kind "cross_layer", since it is the
 * very key the other layers are matched against.
 */

/* How an entity's claimed value is found. */
enum value_rule {
	V_DESCRIPTION,        /* the entity's description */
	V_PARENT,             /* its part_of parent (edge, else "part_of") */
	V_VALUE,              /* properties.value */
	V_VALUE_UNIT,         /* properties.value + " " + properties.unit */
	V_VALUE_UNIT_OR_DESC, /* the same, else the description */
	V_NAME,               /* the entity's own name */
	V_METHOD_SOLVER,      /* properties.method / properties.solver */
	V_VERDICT             /* properties.verdict */
};

/* How an entity's cross-layer key is made from its slot fields. */
enum xkey_rule {
	X_NONE,               /* no cross-layer key */
	X_FIELDS,             /* the slot fields joined: target_field */
	X_FIELDS_MATERIAL     /* the slot fields + "_material" */
};

/*
 * Slot fields (after the project) are read from properties, in order of
 * the '|' alternatives; "@name" is the entity's name, "@component" the
 * component of a uses_material edge. Each field is compared in
 * norm_ident form. describe words the slot: {1}, {2}, {3} are the fields.
 */
struct entity_rule {
	const char *type;
	const char *fields[3];
	enum value_rule value;
	enum xkey_rule xkey;
	const char *describe;
};

static const struct entity_rule entity_rules[] = {
/*	 type                slot fields                        claimed value
	                     cross-layer key     described as */
	{ "project",         { NULL },                          V_DESCRIPTION,
	                     X_NONE,             "description of the project" },
	{ "subsystem",       { "name|@name" },                  V_PARENT,
	                     X_NONE,             "parent of subsystem {1}" },
	{ "component",       { "subsystem", "name|@name" },     V_PARENT,
	                     X_NONE,             "parent of component {2}" },
	{ "requirement",     { "key|name|@name" },              V_VALUE_UNIT_OR_DESC,
	                     X_FIELDS,           "requirement {1}" },
	{ "constraint",      { "target|@name", "kind" },        V_VALUE_UNIT,
	                     X_FIELDS,           "{2} constraint on {1}" },
	{ "decision",        { "target|@name", "field" },       V_VALUE,
	                     X_FIELDS,           "decided {1} {2}" },
	{ "material",        { "@component|component" },        V_NAME,
	                     X_FIELDS_MATERIAL,  "material of {1}" },
	{ "parameter",       { "scope", "name|@name" },         V_VALUE_UNIT,
	                     X_FIELDS,           "parameter {1} {2}" },
	{ "analysis_model",  { "subsystem", "name|@name" },     V_METHOD_SOLVER,
	                     X_NONE,             "method of analysis model {2}" },
	{ "result",          { "model", "key|name|@name" },     V_VALUE_UNIT,
	                     X_FIELDS,           "result {2} of model {1}" },
	{ "validation_claim", { "key|name|@name" },             V_VERDICT,
	                     X_FIELDS,           "verdict of validation claim {1}" },
	/* artifact, and any type not listed: no slot, never a conflict. */
};

/* How a memory type finds its slot. */
enum memory_rule_kind {
	M_IDENTITY,     /* (project, role|background|credentials) by cues */
	M_PREFERENCE,   /* (project, topic), value = phrase + polarity */
	M_SUBJECT       /* "<subject> is <value>" on a key the project has */
};

static const struct {
	const char *type;
	enum memory_rule_kind rule;
} memory_rules[] = {
	{ "identity",   M_IDENTITY },
	{ "preference", M_PREFERENCE },
	{ "project",    M_SUBJECT },
	{ "knowledge",  M_SUBJECT },
	{ "adaptation", M_SUBJECT },
	/* episodic, and any type not listed: no slot, never a conflict. */
};

/* Identity cues: the earliest cue in the content picks the slot. A cue
 * with "also" counts only when that word follows it ("is an optical
 * engineer"). */
static const struct {
	const char *cue;
	const char *also;
	const char *slot;
} identity_cues[] = {
	{ "works as",    NULL,       "role" },
	{ "is a",        "engineer", "role" },
	{ "is an",       "engineer", "role" },
	{ "role",        NULL,       "role" },
	{ "background",  NULL,       "background" },
	{ "studied",     NULL,       "background" },
	{ "years of",    NULL,       "background" },
	{ "certified",   NULL,       "credentials" },
	{ "licensed",    NULL,       "credentials" },
	{ "degree",      NULL,       "credentials" },
	{ "credential",  NULL,       "credentials" },
	{ "credentials", NULL,       "credentials" },
};

/* Preference verbs; the phrase after the first one is the claim. */
static const struct {
	const char *verb;
	int polarity;      /* +1 wants it, -1 avoids it */
} preference_verbs[] = {
	{ "prefers", 1 }, { "prefer", 1 }, { "uses", 1 }, { "use", 1 },
	{ "likes", 1 }, { "like", 1 }, { "wants", 1 }, { "want", 1 },
	{ "avoids", -1 }, { "avoid", -1 }, { "dislikes", -1 },
};

/* A word right before the verb that turns it around ("never uses X"). */
static const char *const negations[] = {
	"never", "not", "don't", "doesn't", "dont", "doesnt", "no longer",
};

/* Where a preference phrase ends. " for " is handled apart: it names
 * the topic. */
static const char *const phrase_ends[] = {
	" over ", " instead of ", " rather than ", " because ", " when ",
	" since ", " unless ", ",", ";", ". ", "!", "?", "(", "\n",
};

/* Shapes "<subject> SEP <value>" of project/knowledge/adaptation. */
static const char *const subject_seps[] = { " is ", " are ", "=", ":" };

/* Leading words dropped from a subject ("The lateral support ..."). */
static const char *const subject_articles[] = { "the ", "our ", "a ", "an " };

/* How a memory slot is worded: {1} is the slot (topic or identity). */
static const struct {
	const char *type;
	const char *describe;
} memory_words[] = {
	{ "identity", "stated {1}" },
	{ "preference", "preferred {1}" },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- helpers ----------------------------------------------------------- */

char *
slot_key_json(const char *const *parts, size_t n)
{
	strbuf sb;

	strbuf_init(&sb);
	strbuf_putc(&sb, '[');
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			strbuf_putc(&sb, ',');
		json_quote(&sb, parts[i], 0);
	}
	strbuf_putc(&sb, ']');
	return strbuf_detach(&sb);
}

static char *
lower_copy(const char *s)
{
	char *d = xstrdup(s != NULL ? s : "");

	for (char *p = d; *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return d;
}

static int
word_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	    c == '\'' || (c & 0x80);
}

/* Find word (which may hold spaces) as whole words in s from start. */
static const char *
find_word(const char *s, const char *start, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(start, word); p != NULL;
	    p = strstr(p + 1, word))
		if ((p == s || !word_char((unsigned char)p[-1])) &&
		    !word_char((unsigned char)p[n]))
			return p;
	return NULL;
}

/* A property as text: strings as they are, numbers as "%lld" and
 * "%.15g" print them (text.h), booleans as their names. */
static char *
prop_text(json_t *props, const char *key)
{
	json_t *v = props != NULL ? json_object_get(props, key) : NULL;
	char buf[64];

	if (json_is_string(v))
		return json_string_value(v)[0] != '\0' ?
		    xstrdup(json_string_value(v)) : NULL;
	if (json_is_integer(v)) {
		(void)text_int(buf, (long long)json_integer_value(v));
		return xstrdup(buf);
	}
	if (json_is_real(v))
		return text_real(buf, sizeof(buf), json_real_value(v)) > 0 ?
		    xstrdup(buf) : NULL;
	if (json_is_boolean(v))
		return xstrdup(json_is_true(v) ? "true" : "false");
	return NULL;
}

/* Resolve one slot field spec ("key|name|@name") for f. */
static char *
field_text(const char *spec, const struct fact *f, json_t *props)
{
	char *copy = xstrdup(spec), *save = NULL, *alt, *v = NULL;

	for (alt = strtok_r(copy, "|", &save); alt != NULL && v == NULL;
	    alt = strtok_r(NULL, "|", &save)) {
		if (strcmp(alt, "@name") == 0)
			v = f->name != NULL && f->name[0] != '\0' ?
			    xstrdup(f->name) : NULL;
		else if (strcmp(alt, "@component") == 0)
			v = f->component != NULL && f->component[0] != '\0' ?
			    xstrdup(f->component) : NULL;
		else
			v = prop_text(props, alt);
	}
	free(copy);
	return v;
}

static char *
entity_value(const struct entity_rule *r, const struct fact *f,
    json_t *props)
{
	char *v = NULL, *u;
	strbuf sb;

	switch (r->value) {
	case V_DESCRIPTION:
		return f->text != NULL && f->text[0] != '\0' ?
		    xstrdup(f->text) : NULL;
	case V_PARENT:
		if (f->parent != NULL && f->parent[0] != '\0')
			return xstrdup(f->parent);
		return prop_text(props, "part_of");
	case V_VALUE:
		return prop_text(props, "value");
	case V_NAME:
		return f->name != NULL && f->name[0] != '\0' ?
		    xstrdup(f->name) : NULL;
	case V_VERDICT:
		return prop_text(props, "verdict");
	case V_VALUE_UNIT:
	case V_VALUE_UNIT_OR_DESC:
		v = prop_text(props, "value");
		if (v == NULL)
			return r->value == V_VALUE_UNIT_OR_DESC &&
			    f->text != NULL && f->text[0] != '\0' ?
			    xstrdup(f->text) : NULL;
		if ((u = prop_text(props, "unit")) == NULL)
			return v;
		strbuf_init(&sb);
		strbuf_puts(&sb, v);
		strbuf_putc(&sb, ' ');
		strbuf_puts(&sb, u);
		free(v);
		free(u);
		return strbuf_detach(&sb);
	case V_METHOD_SOLVER:
		v = prop_text(props, "method");
		u = prop_text(props, "solver");
		/* One of the two alone is the value. */
		if (v == NULL)
			return u;
		if (u == NULL)
			return v;
		strbuf_init(&sb);
		strbuf_printf(&sb, "%s / %s", v, u);
		free(v);
		free(u);
		return strbuf_detach(&sb);
	}
	return NULL;
}

/* Fill c with kind, slot parts, cross key and value (which c takes). */
static void
claim_set(struct claim *c, const char *kind, const char *const *parts,
    size_t n, const char *xkey, char *value)
{
	c->slot_kind = kind;
	c->slot = slot_key_json(parts, n);
	c->xkey = xkey != NULL ? xstrdup(xkey) : NULL;
	c->value = value;
	c->norm = norm_value(value);
}

/* ---- entities ---------------------------------------------------------- */

static int
entity_claim(struct claim *c, const struct fact *f, mirror_error *err)
{
	const struct entity_rule *r = NULL;
	const char *parts[5];
	char *fields[3] = { NULL, NULL, NULL }, *value = NULL;
	json_t *props = NULL;
	json_error_t jerr;
	size_t nf = 0;
	int rc = 0;

	for (size_t i = 0; i < NELEM(entity_rules); i++)
		if (f->type != NULL && strcmp(entity_rules[i].type, f->type) == 0)
			r = &entity_rules[i];
	if (r == NULL)
		return 0;
	props = json_loads(f->properties != NULL ? f->properties : "{}", 0,
	    &jerr);
	if (props == NULL)
		return mirror_fail(err, MIRROR_EINPUT, "entities row '%s': "
		    "properties is not valid JSON (line %d, column %d: %s)",
		    f->id, jerr.line, jerr.column, jerr.text);
	if (!json_is_object(props)) {
		json_decref(props);
		return mirror_fail(err, MIRROR_EINPUT, "entities row '%s': "
		    "properties is not a JSON object", f->id);
	}
	parts[0] = f->project != NULL ? f->project : "";
	parts[1] = f->type;
	for (nf = 0; nf < 3 && r->fields[nf] != NULL; nf++) {
		char *raw = field_text(r->fields[nf], f, props);

		fields[nf] = norm_ident(raw);
		free(raw);
		parts[2 + nf] = fields[nf];
	}
	/* A material names no component: it claims nothing. */
	if (r->value == V_NAME && (nf == 0 || fields[0][0] == '\0'))
		goto out;
	value = entity_value(r, f, props);
	if (value == NULL)
		goto out;    /* a row that states no value claims nothing */
	if (r->xkey != X_NONE) {
		strbuf xk;
		char *x;

		strbuf_init(&xk);
		for (size_t i = 0; i < nf; i++) {
			strbuf_putc(&xk, '_');
			strbuf_puts(&xk, fields[i]);
		}
		if (r->xkey == X_FIELDS_MATERIAL)
			strbuf_puts(&xk, "_material");
		x = norm_ident(xk.data);
		strbuf_free(&xk);
		claim_set(c, "entity_slot", parts, 2 + nf,
		    x[0] != '\0' ? x : NULL, value);
		free(x);
	} else {
		claim_set(c, "entity_slot", parts, 2 + nf, NULL, value);
	}
	value = NULL;
	c->valid_from = prop_text(props, "valid_from");
	c->valid_until = prop_text(props, "valid_until");
	rc = 1;
out:
	free(value);
	for (size_t i = 0; i < nf; i++)
		free(fields[i]);
	json_decref(props);
	return rc;
}

/* ---- memories ---------------------------------------------------------- */

static const char *
identity_slot(const char *lower)
{
	const char *best = NULL, *best_at = NULL;

	for (size_t i = 0; i < NELEM(identity_cues); i++) {
		const char *p = find_word(lower, lower, identity_cues[i].cue);

		if (p == NULL)
			continue;
		if (identity_cues[i].also != NULL &&
		    strstr(p, identity_cues[i].also) == NULL)
			continue;
		if (best_at == NULL || p < best_at) {
			best_at = p;
			best = identity_cues[i].slot;
		}
	}
	return best;
}

/* Cut [p, end) at the first phrase end; return the new end. */
static const char *
phrase_end(const char *p, const char *end)
{
	for (size_t i = 0; i < NELEM(phrase_ends); i++) {
		const char *q = strstr(p, phrase_ends[i]);

		if (q != NULL && q < end)
			end = q;
	}
	return end;
}

static char *
trimmed(const char *b, const char *e)
{
	while (b < e && (*b == ' ' || *b == '\t'))
		b++;
	while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '.'))
		e--;
	return xstrndup(b, (size_t)(e - b));
}

/* The topic of a phrase: its last word in the singular (ident form). */
static char *
last_word_topic(const char *phrase)
{
	char *id = norm_ident(phrase), *last = strrchr(id, '_');
	char *topic;

	topic = xstrdup(last != NULL ? last + 1 : id);
	free(id);
	norm_singular(topic);
	return topic;
}

/* Is the word w (which may hold a space) right before at in s? */
static int
preceded_by(const char *s, const char *at, const char *w)
{
	size_t n = strlen(w);
	const char *b;

	if ((size_t)(at - s) < n + 1 || at[-1] != ' ')
		return 0;
	b = at - 1 - n;
	return strncmp(b, w, n) == 0 &&
	    (b == s || !word_char((unsigned char)b[-1]));
}

static int
preference_claim(struct claim *c, const struct fact *f, const char *lower)
{
	const char *verb_at = NULL, *phrase, *end, *forp, *hend;
	char *value, *topic = NULL, *head;
	int polarity = 1;
	size_t vlen = 0;
	strbuf sb;

	for (const char *p = lower; *p != '\0' && verb_at == NULL; p++) {
		if (p != lower && word_char((unsigned char)p[-1]))
			continue;
		for (size_t i = 0; i < NELEM(preference_verbs); i++) {
			size_t n = strlen(preference_verbs[i].verb);

			if (strncmp(p, preference_verbs[i].verb, n) == 0 &&
			    !word_char((unsigned char)p[n])) {
				verb_at = p;
				vlen = n;
				polarity = preference_verbs[i].polarity;
				break;
			}
		}
	}
	if (verb_at == NULL)
		return 0;
	for (size_t i = 0; i < NELEM(negations); i++)
		if (preceded_by(lower, verb_at, negations[i]))
			polarity = -polarity;
	phrase = verb_at + vlen;
	end = phrase_end(phrase, phrase + strlen(phrase));
	forp = find_word(lower, phrase, "for");
	hend = end;
	if (forp != NULL && forp < end) {
		/* "ruff for linting": the topic is what follows "for". */
		char *x = trimmed(forp + 3, end);

		hend = forp;
		if (x[0] != '\0') {
			char *last;

			topic = norm_ident(x);
			last = strrchr(topic, '_');
			norm_singular(last != NULL ? last + 1 : topic);
		}
		free(x);
	}
	/* The claimed phrase in the row's own letters. */
	head = trimmed(f->text + (phrase - lower), f->text + (hend - lower));
	if (topic == NULL && head[0] != '\0') {
		char *lh = lower_copy(head);

		topic = last_word_topic(lh);
		free(lh);
	}
	if (topic == NULL || topic[0] == '\0' || head[0] == '\0') {
		free(topic);
		free(head);
		return 0;
	}
	strbuf_init(&sb);
	if (polarity < 0)
		strbuf_puts(&sb, "not ");
	strbuf_puts(&sb, head);
	value = strbuf_detach(&sb);
	{
		const char *parts[3] = { f->project, "preference", topic };

		claim_set(c, "memory_slot", parts, 3, NULL, value);
	}
	free(topic);
	free(head);
	return 1;
}

static int
subject_claim(struct claim *c, const struct fact *f, slot_known_fn *known,
    void *arg, mirror_error *err)
{
	const char *text = f->text, *sep_at = NULL, *subj;
	char *lower = lower_copy(text), *key, *value;
	size_t seplen = 0;
	int rc;

	for (size_t i = 0; i < NELEM(subject_seps); i++) {
		const char *p = strstr(lower, subject_seps[i]);

		if (p != NULL && (sep_at == NULL || p < sep_at)) {
			sep_at = p;
			seplen = strlen(subject_seps[i]);
		}
	}
	if (sep_at == NULL) {
		free(lower);
		return 0;
	}
	subj = lower;
	for (size_t i = 0; i < NELEM(subject_articles); i++) {
		size_t n = strlen(subject_articles[i]);

		if (strncmp(subj, subject_articles[i], n) == 0) {
			/* In "An is x" the article's space begins the
			 * separator: the subject is empty, not negative. */
			subj = subj + n < sep_at ? subj + n : sep_at;
			break;
		}
	}
	key = xstrndup(subj, (size_t)(sep_at - subj));
	{
		char *k = norm_ident(key);

		free(key);
		key = k;
	}
	/* The value keeps the row's own letters. */
	value = trimmed(text + (sep_at - lower) + seplen, text + strlen(text));
	free(lower);
	if (key[0] == '\0' || value[0] == '\0') {
		rc = 0;
		goto out;
	}
	rc = known != NULL ? known(arg, f->project, key, err) : 1;
	if (rc == 1) {
		const char *parts[3] = { f->project, "key", key };

		claim_set(c, "memory_slot", parts, 3, key, value);
		value = NULL;
	}
out:
	free(key);
	free(value);
	return rc;
}

static int
memory_claim(struct claim *c, const struct fact *f, slot_known_fn *known,
    void *arg, mirror_error *err)
{
	char *lower;
	int rc = 0;

	for (size_t i = 0; i < NELEM(memory_rules); i++) {
		if (f->type == NULL || strcmp(memory_rules[i].type, f->type) != 0)
			continue;
		switch (memory_rules[i].rule) {
		case M_IDENTITY: {
			const char *slot;

			lower = lower_copy(f->text);
			slot = identity_slot(lower);
			free(lower);
			if (slot != NULL) {
				const char *parts[3] = { f->project, "identity",
				    slot };

				claim_set(c, "memory_slot", parts, 3, NULL,
				    xstrdup(f->text));
				rc = 1;
			}
			break;
		}
		case M_PREFERENCE:
			lower = lower_copy(f->text);
			rc = preference_claim(c, f, lower);
			free(lower);
			break;
		case M_SUBJECT:
			rc = subject_claim(c, f, known, arg, err);
			break;
		}
	}
	return rc;
}

/* ---- the public face --------------------------------------------------- */

int
slot_claim(struct claim *c, const struct fact *f, slot_known_fn *known,
    void *arg, mirror_error *err)
{
	memset(c, 0, sizeof(*c));
	switch (f->layer) {
	case LAYER_STATE: {
		char *key = norm_ident(f->name);
		const char *parts[2] = { f->project != NULL ? f->project : "",
		    key };

		if (key[0] == '\0' || f->text == NULL) {
			free(key);
			return 0;
		}
		claim_set(c, "cross_layer", parts, 2, key, xstrdup(f->text));
		free(key);
		return 1;
	}
	case LAYER_ENTITY:
		return entity_claim(c, f, err);
	case LAYER_MEMORY:
		if (f->text == NULL)
			return 0;
		return memory_claim(c, f, known, arg, err);
	}
	return 0;
}

void
claim_free(struct claim *c)
{
	if (c == NULL)
		return;
	free(c->slot);
	free(c->xkey);
	free(c->value);
	free(c->norm);
	free(c->valid_from);
	free(c->valid_until);
	memset(c, 0, sizeof(*c));
}

/* Words of an identifier: '_' becomes a space. */
static void
put_words(strbuf *sb, const char *ident)
{
	for (; *ident != '\0'; ident++)
		strbuf_putc(sb, *ident == '_' ? ' ' : *ident);
}

/* Expand {1}..{3} in tmpl from fields: identifiers in words, or with
 * raw the fields as they are. */
static void
put_template(strbuf *sb, const char *tmpl, const char *const *fields,
    size_t nf, int raw)
{
	for (const char *p = tmpl; *p != '\0'; p++) {
		if (p[0] == '{' && p[1] >= '1' && p[1] <= '3' && p[2] == '}') {
			size_t k = (size_t)(p[1] - '1');

			if (k < nf && raw)
				strbuf_puts(sb, fields[k]);
			else if (k < nf)
				put_words(sb, fields[k]);
			p += 2;
			continue;
		}
		strbuf_putc(sb, *p);
	}
}

char *
slot_describe(const char *slot_kind, const char *slot_key)
{
	json_error_t jerr;
	json_t *arr = json_loads(slot_key != NULL ? slot_key : "", 0, &jerr);
	const char *parts[6];
	const char *tmpl = NULL;
	size_t n = 0;
	strbuf sb;

	strbuf_init(&sb);
	if (json_is_array(arr))
		for (n = 0; n < json_array_size(arr) && n < NELEM(parts); n++)
			if ((parts[n] = json_string_value(json_array_get(arr,
			    n))) == NULL)
				break;
	if (n < 2 || slot_kind == NULL) {
		strbuf_puts(&sb, slot_key != NULL ? slot_key : "");
		json_decref(arr);
		return strbuf_detach(&sb);
	}
	if (strcmp(slot_kind, "cross_layer") == 0) {
		put_words(&sb, parts[1]);
	} else if (strcmp(slot_kind, "entity_slot") == 0) {
		for (size_t i = 0; i < NELEM(entity_rules); i++)
			if (strcmp(entity_rules[i].type, parts[1]) == 0)
				tmpl = entity_rules[i].describe;
		put_template(&sb, tmpl != NULL ? tmpl : "{1} {2} {3}",
		    parts + 2, n - 2, 0);
	} else if (strcmp(slot_kind, "memory_slot") == 0 && n >= 3) {
		for (size_t i = 0; i < NELEM(memory_words); i++)
			if (strcmp(memory_words[i].type, parts[1]) == 0)
				tmpl = memory_words[i].describe;
		put_template(&sb, tmpl != NULL ? tmpl : "{1}", parts + 2,
		    n - 2, 0);
	} else {
		strbuf_puts(&sb, slot_key);
	}
	if (parts[0][0] != '\0')
		strbuf_printf(&sb, " of %s", parts[0]);
	json_decref(arr);
	return strbuf_detach(&sb);
}

char *
slot_question(const char *slot_kind, const char *slot_key, const char *value)
{
	char *d = slot_describe(slot_kind, slot_key);
	strbuf sb;

	strbuf_init(&sb);
	strbuf_printf(&sb, "Is the %s %s?", d, value != NULL ? value : "");
	free(d);
	return strbuf_detach(&sb);
}

char *
slot_words(const struct fact *f)
{
	const struct entity_rule *r = NULL;
	const char *fields[3];
	char *raw[3] = { NULL, NULL, NULL };
	json_t *props;
	size_t nf;
	strbuf sb;

	if (f->layer == LAYER_STATE)
		return f->name != NULL && f->name[0] != '\0' ?
		    xstrdup(f->name) : NULL;
	for (size_t i = 0; f->layer == LAYER_ENTITY && i < NELEM(entity_rules);
	    i++)
		if (f->type != NULL && strcmp(entity_rules[i].type, f->type) == 0)
			r = &entity_rules[i];
	if (r == NULL)
		return NULL;
	props = json_loads(f->properties != NULL ? f->properties : "{}", 0,
	    NULL);
	for (nf = 0; nf < 3 && r->fields[nf] != NULL; nf++) {
		raw[nf] = field_text(r->fields[nf], f, json_is_object(props) ?
		    props : NULL);
		fields[nf] = raw[nf] != NULL ? raw[nf] : "";
	}
	strbuf_init(&sb);
	put_template(&sb, r->describe, fields, nf, 1);
	for (size_t i = 0; i < nf; i++)
		free(raw[i]);
	json_decref(props);
	return strbuf_detach(&sb);
}
