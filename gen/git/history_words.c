/*
 * history_words.c: the facts and conflicts a commit changed, in words
 * (see history_words.h). Pure: texts in, strings out.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "git/history_words.h"
#include "util/array.h"
#include "util/text.h"
#include "util/xalloc.h"
#include "words/conflict_words.h"
#include "words/fact_words.h"

#define PROJECTS_DIR "api/projects/"
#define CONFLICTS_DIR "api/conflicts/"
#define CONFLICT_LISTS_DIR "api/conflicts/projects/"
#define CHECKS_DIR "api/checks/"
#define HEALTH_PATH "api/health.json"
#define ARROW " \xe2\x86\x92 "    /* → */

/* In the order the body lists them, facts first. */
enum ev_kind {
	EV_CHANGED, EV_ADDED, EV_RETIRED, EV_STATUS, EV_REMOVED,
	EV_OPENED, EV_OPEN_NOW, EV_JOINED, EV_RESOLVED, EV_DISMISSED,
	EV_CLOSED, EV_CSTATUS, EV_CGONE,
	EV_KOPENED, EV_KCLOSED,         /* a rule's violation opened, closed */
	EV_KWAS,        /* an open violation's own file removed: a site of
	                   one page per check upgraded; no words */
	EV_CWAS         /* a conflict's own file removed: gone, unless a
	                   project's list has it (a site upgraded) */
};

struct event {
	int kind;
	char *project;          /* slug; NULL: no project */
	char *key;              /* fact or conflict id, for the order */
	size_t seq;             /* input order, the last tie-break */
	char *line;             /* body line, no indent, no newline */
	char *subject;          /* the subject when it is the one change */
	char *trailer;          /* "Resolved-by: x", or NULL */
	char *reopens;          /* EV_OPENED: "earlier: ID, ID", or NULL */
	char **ids;             /* conflict: every member id, old and new */
	size_t nids, capids;
	size_t joined;          /* EV_JOINED: members that joined */
};

struct events {
	struct event *v;
	size_t n, cap;
};

void
hw_init(struct hw_words *w)
{
	strbuf_init(&w->subject);
	strbuf_init(&w->body);
	strbuf_init(&w->trailers);
	strbuf_init(&w->totals);
	w->fact_events = 0;
	w->conflict_events = 0;
}

void
hw_free(struct hw_words *w)
{
	strbuf_free(&w->subject);
	strbuf_free(&w->body);
	strbuf_free(&w->trailers);
	strbuf_free(&w->totals);
}

char *
hw_reviewer(const struct hw_words *w)
{
	static const char *const keys[] = { "Resolved-by: ", "Dismissed-by: " };
	const char *line = w->trailers.data, *name = NULL;
	size_t name_len = 0;

	for (; line != NULL && *line != '\0'; line = strchr(line, '\n'),
	    line = line != NULL ? line + 1 : NULL) {
		size_t len = strcspn(line, "\n");

		for (size_t k = 0; k < 2; k++) {
			size_t kl = strlen(keys[k]);

			if (len <= kl || strncmp(line, keys[k], kl) != 0)
				continue;
			if (name != NULL && (len - kl != name_len ||
			    memcmp(name, line + kl, name_len) != 0))
				return NULL;
			name = line + kl;
			name_len = len - kl;
		}
	}
	return name != NULL ? xstrndup(name, name_len) : NULL;
}

/* 1 when s starts with pre and ends in ".json" with a name between. */
static int
json_under(const char *s, const char *pre)
{
	size_t n = strlen(s), p = strlen(pre);

	return n > p + 5 && strncmp(s, pre, p) == 0 &&
	    strcmp(s + n - 5, ".json") == 0 && strchr(s + p, '/') == NULL;
}

int
hw_wants(const char *path, int initial)
{
	if (strcmp(path, HEALTH_PATH) == 0)
		return 1;
	if (initial)
		return json_under(path, CONFLICTS_DIR) ||
		    json_under(path, CONFLICT_LISTS_DIR);
	return json_under(path, PROJECTS_DIR) ||
	    json_under(path, CONFLICTS_DIR) ||
	    json_under(path, CONFLICT_LISTS_DIR) ||
	    json_under(path, CHECKS_DIR);
}

/* The UTF-8 characters of s (len bytes, valid: cleaned). */
static size_t
char_count(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

/*
 * Store text as one plain line: cleaned, whitespace runs as one space,
 * trimmed; when longer than HW_VALUE_MAX characters, its whole words
 * within them (a word cut only when the first is longer), then how
 * much is left: " (N more characters)". A commit message says what it
 * leaves out rather than an ellipsis, which reads as part of the value.
 * Returns a new string, never NULL.
 */
static char *
one_line(const char *s, size_t len)
{
	strbuf all;
	size_t cut = 0, chars = 0, sp, rest;

	strbuf_init(&all);
	text_line(&all, s, len, SIZE_MAX, 0);
	/* The byte where character HW_VALUE_MAX + 1 starts, if any. */
	for (size_t i = 0; i < all.len && cut == 0; i++)
		if (((unsigned char)all.data[i] & 0xc0) != 0x80 &&
		    chars++ == HW_VALUE_MAX)
			cut = i;
	if (cut == 0)
		return strbuf_detach(&all);
	/* Cut, and not between two words: back to the last space. */
	if (all.data[cut] != ' ') {
		for (sp = cut; sp > 0 && all.data[sp - 1] != ' '; sp--)
			;
		if (sp > 1)
			cut = sp - 1;
	}
	rest = char_count(all.data + cut + (all.data[cut] == ' '),
	    all.len - cut - (all.data[cut] == ' '));
	all.len = cut;
	all.data[cut] = '\0';
	strbuf_printf(&all, " (%zu more character%s)", rest, rest == 1 ? "" :
	    "s");
	return strbuf_detach(&all);
}

/* A member of o as one plain line ("" when missing or null). */
static char *
field(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	char *d, *r;

	if (v == NULL || json_is_null(v))
		return xstrdup("");
	if (json_is_string(v))
		return one_line(json_string_value(v), json_string_length(v));
	d = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	r = one_line(d != NULL ? d : "", d != NULL ? strlen(d) : 0);
	free(d);
	return r;
}

/* The raw string member key of o, or NULL. Borrowed from o. */
static const char *
raw(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* Do a and b differ in member key? A missing member equals null. */
static int
differs(json_t *a, json_t *b, const char *key)
{
	json_t *x = json_object_get(a, key), *y = json_object_get(b, key);

	if (x == NULL)
		x = json_null();
	if (y == NULL)
		y = json_null();
	return !json_equal(x, y);
}

/* Parse text as a JSON object; NULL for no text or not an object. */
static json_t *
parse_json(const char *text, size_t len)
{
	json_t *j;

	if (text == NULL)
		return NULL;
	j = json_loadb(text, len, JSON_ALLOW_NUL, NULL);
	if (j != NULL && !json_is_object(j)) {
		json_decref(j);
		j = NULL;
	}
	return j;
}

static struct event *
ev_new(struct events *es, int kind, const char *project, const char *key)
{
	struct event *e;

	e = &ARRAY_PUSH(es->v, es->n, es->cap);
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->project = project != NULL ? xstrdup(project) : NULL;
	e->key = xstrdup(key != NULL ? key : "");
	e->seq = es->n - 1;
	return e;
}

/* Give e its body line and subject, taken from line and subj. */
static void
ev_words(struct event *e, strbuf *line, strbuf *subj)
{
	e->line = strbuf_detach(line);
	e->subject = strbuf_detach(subj);
}

/* Free what event e holds. */
static void
ev_free(struct event *e)
{
	free(e->project);
	free(e->key);
	free(e->line);
	free(e->subject);
	free(e->trailer);
	free(e->reopens);
	for (size_t k = 0; k < e->nids; k++)
		free(e->ids[k]);
	free(e->ids);
}

static void
events_free(struct events *es)
{
	for (size_t i = 0; i < es->n; i++)
		ev_free(&es->v[i]);
	free(es->v);
}

static int
is_conflict_kind(int k)
{
	return k >= EV_OPENED;
}

/* ---- facts ------------------------------------------------------------ */

struct fact {
	char *key;              /* "layer id": what a fact is across commits */
	json_t *o;
	size_t seq;
};

struct facts {
	struct fact *v;
	size_t n, cap;
};

/*
 * Is o a fact: a row of api/projects/<slug>.json (layer, id, status and
 * a value, content or description; a relationship has no status), or a
 * fact item of the template's model the file held before (layer, id,
 * label, value, status)? Both name a fact by layer and id alike.
 */
static int
is_fact(json_t *o)
{
	return json_is_string(json_object_get(o, "layer")) &&
	    json_is_string(json_object_get(o, "id")) &&
	    json_object_get(o, "status") != NULL &&
	    (json_object_get(o, "value") != NULL ||
	    json_object_get(o, "content") != NULL ||
	    json_object_get(o, "description") != NULL);
}

/* "layer id" of fact o, a new string. */
static char *
fact_key(json_t *o)
{
	strbuf sb;

	strbuf_init(&sb);
	strbuf_printf(&sb, "%s %s", raw(o, "layer"), raw(o, "id"));
	return strbuf_detach(&sb);
}

/* What fact o is called, one plain line: the model's label, else the
 * store's key (state), name (entity) or type (memory). */
static char *
fact_label(json_t *o)
{
	static const char *const keys[] = { "label", "key", "name", "type" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (json_object_get(o, keys[i]) != NULL)
			return field(o, keys[i]);
	return xstrdup("");
}

/* Fact o's value as its page shows it, one plain line: the value of a
 * state row (or of any model item), a memory's content, an entity's
 * value in words (words_entity_value). */
static char *
fact_value(json_t *o)
{
	strbuf sb;
	char *v;

	if (json_object_get(o, "value") != NULL)
		return field(o, "value");
	if (json_object_get(o, "content") != NULL)
		return field(o, "content");
	strbuf_init(&sb);
	words_entity_value(&sb, raw(o, "type"), json_object_get(o,
	    "properties"), raw(o, "description"));
	v = one_line(sb.data != NULL ? sb.data : "", sb.len);
	strbuf_free(&sb);
	return v;
}

/* Every fact object under v, in document order. */
static void
walk(struct facts *fs, json_t *v)
{
	if (json_is_object(v)) {
		const char *k;
		json_t *c;

		if (is_fact(v)) {
			struct fact *f = &ARRAY_PUSH(fs->v, fs->n, fs->cap);

			f->key = fact_key(v);
			f->o = v;
			f->seq = fs->n - 1;
			return;
		}
		json_object_foreach(v, k, c)
			walk(fs, c);
	} else if (json_is_array(v)) {
		size_t i;
		json_t *c;

		json_array_foreach(v, i, c)
			walk(fs, c);
	}
}

static int
cmp_fact(const void *a, const void *b)
{
	const struct fact *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c != 0)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The facts of doc (may be NULL), sorted by key, one per key. */
static void
collect_facts(struct facts *fs, json_t *doc)
{
	size_t m = 0;

	memset(fs, 0, sizeof(*fs));
	if (doc == NULL)
		return;
	walk(fs, doc);
	if (fs->n == 0)
		return;
	qsort(fs->v, fs->n, sizeof(*fs->v), cmp_fact);
	for (size_t i = 0; i < fs->n; i++) {
		if (m == 0 || strcmp(fs->v[m - 1].key, fs->v[i].key) != 0)
			fs->v[m++] = fs->v[i];
		else
			free(fs->v[i].key);
	}
	fs->n = m;
}

static void
facts_free(struct facts *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		free(fs->v[i].key);
	free(fs->v);
}

/* "label [id, layer]" of a fact, appended to sb. */
static void
put_fact_name(strbuf *sb, json_t *f)
{
	char *label = fact_label(f), *id = field(f, "id");
	char *layer = field(f, "layer");

	strbuf_printf(sb, "%s [%s%s%s]", label[0] ? label : "(no label)", id,
	    layer[0] ? ", " : "", layer);
	free(label);
	free(id);
	free(layer);
}

/* Member key of o, or with key "value" fact o's value (fact_value),
 * as one plain line, "(empty)" for none. */
static void
put_value(strbuf *sb, json_t *o, const char *key)
{
	char *v = strcmp(key, "value") == 0 ? fact_value(o) : field(o, key);

	strbuf_puts(sb, v[0] ? v : "(empty)");
	free(v);
}

/* Do facts a and b have different values (fact_value)? */
static int
value_differs(json_t *a, json_t *b)
{
	char *x = fact_value(a), *y = fact_value(b);
	int d = strcmp(x, y) != 0;

	free(x);
	free(y);
	return d;
}

/*
 * Who changed fact n, when the store's audit says so and it is news (o,
 * the fact before, did not already name the same change): " — by ACTOR
 * (ACTION: NOTE)" on the body line and " (by ACTOR)" on the subject.
 * Nothing when the audit names no actor: the message then says nothing
 * about who.
 */
static void
put_changed_by(strbuf *line, strbuf *subj, json_t *o, json_t *n)
{
	json_t *nb = n != NULL ? json_object_get(n, "changed_by") : NULL;
	json_t *ob = o != NULL ? json_object_get(o, "changed_by") : NULL;
	char *actor, *action, *note;

	if (!json_is_object(nb) || (ob != NULL && json_equal(ob, nb)))
		return;
	actor = field(nb, "actor");
	action = field(nb, "action");
	note = field(nb, "note");
	if (actor[0] != '\0') {
		strbuf_printf(line, " \xe2\x80\x94 by %s", actor);
		if (action[0] != '\0' && note[0] != '\0')
			strbuf_printf(line, " (%s: %s)", action, note);
		else if (action[0] != '\0' || note[0] != '\0')
			strbuf_printf(line, " (%s)", action[0] ? action : note);
		strbuf_printf(subj, " (by %s)", actor);
	}
	free(actor);
	free(action);
	free(note);
}

static void
fact_event(struct events *es, int kind, const char *project, json_t *o,
    json_t *n)
{
	json_t *f = n != NULL ? n : o;
	char *id = field(f, "id"), *label = fact_label(f);
	struct event *e = ev_new(es, kind, project, id);
	strbuf line, subj;

	strbuf_init(&line);
	strbuf_init(&subj);
	put_fact_name(&line, f);
	strbuf_printf(&subj, "%s %s", project, label[0] ? label : id);
	switch (kind) {
	case EV_ADDED:
		strbuf_puts(&line, " added: ");
		put_value(&line, n, "value");
		strbuf_puts(&subj, " added: ");
		put_value(&subj, n, "value");
		break;
	case EV_REMOVED:
		strbuf_puts(&line, " removed (was: ");
		put_value(&line, o, "value");
		strbuf_puts(&line, ")");
		strbuf_puts(&subj, " removed (was: ");
		put_value(&subj, o, "value");
		strbuf_puts(&subj, ")");
		break;
	case EV_RETIRED:
	case EV_STATUS:
		strbuf_puts(&line, kind == EV_RETIRED ? " retired: " :
		    " status: ");
		put_value(&line, o, "status");
		strbuf_puts(&line, ARROW);
		put_value(&line, n, "status");
		strbuf_puts(&line, " (");
		put_value(&line, n, "value");
		strbuf_puts(&line, ")");
		strbuf_puts(&subj, kind == EV_RETIRED ? " retired (" :
		    " status (");
		put_value(&subj, o, "status");
		strbuf_puts(&subj, ARROW);
		put_value(&subj, n, "status");
		strbuf_puts(&subj, ")");
		break;
	default:        /* EV_CHANGED: the value, and the status if it moved */
		strbuf_puts(&line, " changed: ");
		put_value(&line, o, "value");
		strbuf_puts(&line, ARROW);
		put_value(&line, n, "value");
		strbuf_puts(&subj, ": ");
		put_value(&subj, o, "value");
		strbuf_puts(&subj, ARROW);
		put_value(&subj, n, "value");
		if (differs(o, n, "status")) {
			strbuf_puts(&line, "; status ");
			put_value(&line, o, "status");
			strbuf_puts(&line, ARROW);
			put_value(&line, n, "status");
		}
		break;
	}
	put_changed_by(&line, &subj, o, n);
	ev_words(e, &line, &subj);
	free(id);
	free(label);
}

/* The project's slug: from the document, else the file name. */
static char *
project_slug(json_t *a, json_t *b, const char *path)
{
	const char *s = raw(json_object_get(a, "project"), "slug");
	const char *base = strrchr(path, '/');

	if (s == NULL)
		s = raw(json_object_get(b, "project"), "slug");
	if (s != NULL && s[0] != '\0')
		return one_line(s, strlen(s));
	base = base != NULL ? base + 1 : path;
	return one_line(base, strlen(base) - 5);   /* less ".json" */
}

static int
is_active(json_t *o, const char *key)
{
	const char *s = raw(o, key);

	return s != NULL && strcmp(s, "active") == 0;
}

/*
 * Row r of a project file's "facts" as the object it stands for: its
 * layer, then each value under its layer's name in cols (the file's
 * "columns"), a null left out as the file left an absent value out
 * before it wrote rows. A row ends at its last value that is not null,
 * so a column past its end is null too. A new object, or NULL when r
 * is not a row of a known layer with its id and at most its columns.
 */
static json_t *
row_object(json_t *cols, json_t *r)
{
	json_t *layer = json_array_get(r, 0), *o, *v;
	json_t *names = json_object_get(cols, json_string_value(layer) ?
	    json_string_value(layer) : "");
	size_t i;

	if (!json_is_array(names) || json_array_size(r) < 2 ||
	    json_array_size(r) > json_array_size(names) + 1)
		return NULL;
	o = json_object();
	json_object_set(o, "layer", layer);
	json_array_foreach(names, i, v)
		if (json_is_string(v) && !json_is_null(json_array_get(r,
		    i + 1)))
			json_object_set(o, json_string_value(v),
			    json_array_get(r, i + 1));
	return o;
}

/*
 * A project file's "facts" in rows (arrays after its "columns") made
 * objects in place, so that a file in rows and one of objects, as
 * mirror wrote it before, compare fact by fact. Returns doc.
 */
static json_t *
rows_as_objects(json_t *doc)
{
	json_t *cols = json_object_get(doc, "columns");
	json_t *facts = json_object_get(doc, "facts"), *r;
	size_t i;

	if (!json_is_object(cols) || !json_is_array(facts))
		return doc;
	json_array_foreach(facts, i, r) {
		json_t *o = json_is_array(r) ? row_object(cols, r) : NULL;

		if (o != NULL)
			json_array_set_new(facts, i, o);
	}
	return doc;
}

static void
project_events(struct events *es, const struct hw_file *f)
{
	json_t *od = rows_as_objects(parse_json(f->old_text, f->old_len));
	json_t *nd = rows_as_objects(parse_json(f->new_text, f->new_len));
	struct facts of, nf;
	char *slug = project_slug(nd, od, f->path);
	size_t i = 0, j = 0;

	collect_facts(&of, od);
	collect_facts(&nf, nd);
	while (i < of.n || j < nf.n) {
		int c = i >= of.n ? 1 : j >= nf.n ? -1 :
		    strcmp(of.v[i].key, nf.v[j].key);

		if (c < 0) {
			fact_event(es, EV_REMOVED, slug, of.v[i++].o, NULL);
			continue;
		}
		if (c > 0) {
			fact_event(es, EV_ADDED, slug, NULL, nf.v[j++].o);
			continue;
		}
		if (value_differs(of.v[i].o, nf.v[j].o))
			fact_event(es, EV_CHANGED, slug, of.v[i].o, nf.v[j].o);
		else if (differs(of.v[i].o, nf.v[j].o, "status"))
			fact_event(es, is_active(of.v[i].o, "status") ?
			    EV_RETIRED : EV_STATUS, slug, of.v[i].o,
			    nf.v[j].o);
		i++;
		j++;
	}
	facts_free(&of);
	facts_free(&nf);
	free(slug);
	json_decref(od);
	json_decref(nd);
}

/* ---- conflicts -------------------------------------------------------- */

/* The member of conflict c with id, or NULL. */
static json_t *
member(json_t *c, const char *id)
{
	size_t i;
	json_t *m;

	json_array_foreach(json_object_get(c, "members"), i, m) {
		const char *mid = raw(m, "id");

		if (mid != NULL && id != NULL && strcmp(mid, id) == 0)
			return m;
	}
	return NULL;
}

/* The slot in words: slot_words as the pages say it ("Spindle max
 * speed, P06 Polisher"), or in a file written before it was there, the
 * description less " of <project>". A new one-line string. */
static char *
slot_words(json_t *c)
{
	const char *d = raw(c, "description"), *p = raw(c, "project");
	size_t dl, pl;

	if (raw(c, "slot_words") != NULL)
		return field(c, "slot_words");
	if (d == NULL)
		return field(c, "id");
	dl = strlen(d);
	pl = p != NULL ? strlen(p) : 0;
	if (pl > 0 && dl > pl + 4 && memcmp(d + dl - pl - 4, " of ", 4) == 0 &&
	    memcmp(d + dl - pl, p, pl) == 0)
		dl -= pl + 4;
	return one_line(d, dl);
}

/* Member m as a side (conflict_words.h), its value and source on one
 * line each, kept in one[0..2) for the caller to free. */
static void
side_of(struct words_side *s, char *one[2], json_t *m)
{
	json_t *now = json_object_get(m, "value_now");

	one[0] = field(m, now != NULL && !json_is_null(now) ? "value_now" :
	    "value_then");
	one[1] = field(m, "source");
	*s = (struct words_side){ (enum fact_layer)layer_of_kind(raw(m,
	    "kind")), one[0], one[1], NULL, NULL };
}

/*
 * Every side of c now, with where it comes from: "300 rpm (trusted
 * state: spec) [a] · 350 rpm (engineering record: log) [b]" (with_ids)
 * or, each wording once, "300 rpm (trusted state: spec) · 350 rpm
 * (engineering record: log)".
 */
static void
put_values(strbuf *sb, json_t *c, int with_ids)
{
	json_t *ms = json_object_get(c, "members"), *m;
	size_t n = json_array_size(ms), i;
	struct words_side *v = xcalloc(n + 1, sizeof(*v));
	char **one = xcalloc(2 * n + 2, sizeof(*one));

	json_array_foreach(ms, i, m)
		side_of(&v[i], one + 2 * i, m);
	if (!with_ids)
		words_sides(sb, v, n);
	json_array_foreach(ms, i, m) {
		char *id = field(m, "id");

		if (with_ids) {
			strbuf_puts(sb, i > 0 ? " \xc2\xb7 " : "");
			words_side(sb, &v[i]);
			strbuf_printf(sb, " [%s]", id);
		}
		free(id);
	}
	for (i = 0; i < 2 * n; i++)
		free(one[i]);
	free(one);
	free(v);
}

/* Member m's value now with where it comes from, into sb. */
static void
put_side(strbuf *sb, json_t *m)
{
	struct words_side s;
	char *one[2];

	side_of(&s, one, m);
	words_side(sb, &s);
	free(one[0]);
	free(one[1]);
}

/* Every member id of a and b (either may be NULL) into e->ids. */
static void
note_members(struct event *e, json_t *a, json_t *b)
{
	json_t *docs[2] = { a, b };

	for (int d = 0; d < 2; d++) {
		size_t i;
		json_t *m;

		json_array_foreach(json_object_get(docs[d], "members"), i, m) {
			const char *id = raw(m, "id");

			if (id == NULL)
				continue;
			ARRAY_PUSH(e->ids, e->nids, e->capids) = xstrdup(id);
		}
	}
}

/*
 * The winner of a resolution: the one member still active in nc while
 * at least one other went active -> superseded (old state from oc, or
 * value_then's era, active, when oc is NULL). NULL when none.
 */
static json_t *
winner(json_t *oc, json_t *nc)
{
	json_t *m, *win = NULL;
	size_t i, active = 0, went = 0;

	json_array_foreach(json_object_get(nc, "members"), i, m) {
		json_t *was = oc != NULL ? member(oc, raw(m, "id")) : NULL;
		int was_active = was != NULL ? is_active(was, "status_now") :
		    oc == NULL;
		const char *now = raw(m, "status_now");

		if (!was_active)
			continue;
		if (is_active(m, "status_now")) {
			win = m;
			active++;
		} else if (now != NULL && strcmp(now, "superseded") == 0)
			went++;
	}
	return active == 1 && went > 0 ? win : NULL;
}

/* "p05-interferometer: " or "" for a conflict without a project. */
static void
put_prefix(strbuf *sb, const char *project)
{
	if (project != NULL)
		strbuf_printf(sb, "%s: ", project);
}

/* "Key: value", value one plain line already. Returns a new string. */
static char *
trailer(const char *key, const char *value)
{
	strbuf sb;

	strbuf_init(&sb);
	strbuf_printf(&sb, "%s: %s", key, value);
	return strbuf_detach(&sb);
}

/*
 * A conflict file's object as the event makers read it, the conflict's
 * fields with its "members": today's file holds them as "conflict" and
 * "members" beside it, one written before as one object. Takes j (may
 * be NULL); returns a new reference, or NULL.
 */
static json_t *
conflict_doc(json_t *j)
{
	json_t *c = json_object_get(j, "conflict");

	if (!json_is_object(c))
		return j;
	c = json_copy(c);
	if (c != NULL)
		json_object_set(c, "members", json_object_get(j, "members"));
	json_decref(j);
	return c;
}

/* One conflict file, before and after, as the event makers read it. */
struct cfile {
	json_t *oc, *nc;        /* before and after; NULL: none */
	char *project;          /* slug, one line; NULL: no project */
	char *id;               /* one line */
	char *slot;             /* slot_words */
};

/* A status change of cf: resolved, dismissed, closed by the sweep. */
static void
decision_event(struct events *es, const struct cfile *cf)
{
	json_t *nc = cf->nc;
	const char *st = raw(nc, "status"), *by = raw(nc, "resolved_by");
	const char *slot = cf->slot;
	char *actor = field(nc, "resolved_by");
	char *why = field(nc, "resolution");
	int kind, sweep = by != NULL && strcmp(by, "sweep") == 0;
	struct event *e;
	strbuf line, subj;
	json_t *w;

	if (st != NULL && strcmp(st, "resolved") == 0)
		kind = sweep ? EV_CLOSED : EV_RESOLVED;
	else if (st != NULL && strcmp(st, "dismissed") == 0)
		kind = EV_DISMISSED;
	else
		kind = EV_CSTATUS;
	if (actor[0] == '\0') {
		free(actor);
		actor = xstrdup("unknown");
	}
	e = ev_new(es, kind, cf->project, cf->id);
	note_members(e, cf->oc, nc);
	strbuf_init(&line);
	strbuf_init(&subj);
	put_prefix(&subj, cf->project);
	strbuf_printf(&line, "conflict on %s [%s]", slot, cf->id);
	switch (kind) {
	case EV_RESOLVED:
		w = winner(cf->oc, nc);
		strbuf_printf(&line, " resolved by %s", actor);
		strbuf_printf(&subj, "conflict on %s resolved by %s", slot,
		    actor);
		if (w != NULL) {
			char *wid = field(w, "id");

			strbuf_puts(&line, ": kept ");
			put_side(&line, w);
			strbuf_printf(&line, " [%s]", wid);
			strbuf_puts(&subj, " (kept ");
			put_side(&subj, w);
			strbuf_puts(&subj, ")");
			free(wid);
		}
		strbuf_printf(&line, "; notes: %s", why[0] ? why : "(none)");
		e->trailer = trailer("Resolved-by", actor);
		break;
	case EV_DISMISSED:
		strbuf_printf(&line, " dismissed by %s; reason: %s", actor,
		    why[0] ? why : "(none)");
		strbuf_printf(&subj, "conflict on %s dismissed by %s", slot,
		    actor);
		e->trailer = trailer("Dismissed-by", actor);
		break;
	case EV_CLOSED:
		strbuf_printf(&line, " closed by the sweep: %s",
		    why[0] ? why : "the disagreement is gone");
		strbuf_printf(&subj, "conflict on %s closed by the sweep (the "
		    "disagreement is gone)", slot);
		break;
	default: {
		char *os = cf->oc != NULL ? field(cf->oc, "status") :
		    xstrdup("none");
		char *ns = field(nc, "status");

		strbuf_printf(&line, " status: %s" ARROW "%s", os, ns);
		strbuf_printf(&subj, "conflict on %s: status %s" ARROW "%s",
		    slot, os, ns);
		free(os);
		free(ns);
		break;
	}
	}
	ev_words(e, &line, &subj);
	free(actor);
	free(why);
}

/* The first commit lists each open conflict, with its members. */
static void
open_now_event(struct events *es, const struct cfile *cf)
{
	struct event *e = ev_new(es, EV_OPEN_NOW, cf->project, cf->id);
	strbuf line;

	strbuf_init(&line);
	strbuf_printf(&line, "conflict on %s [%s] open: ", cf->slot, cf->id);
	put_values(&line, cf->nc, 1);
	e->line = strbuf_detach(&line);
}

/* A conflict file removed: the conflict left the store. */
static void
gone_event(struct events *es, const struct cfile *cf)
{
	struct event *e = ev_new(es, EV_CGONE, cf->project, cf->id);
	strbuf line, subj;

	note_members(e, cf->oc, NULL);
	strbuf_init(&line);
	strbuf_init(&subj);
	strbuf_printf(&line, "conflict on %s [%s] is gone from the store",
	    cf->slot, cf->id);
	put_prefix(&subj, cf->project);
	strbuf_printf(&subj, "conflict on %s is gone from the store",
	    cf->slot);
	ev_words(e, &line, &subj);
}

/*
 * "earlier: ID, ID": the conflicts closed on the slot of conflict nc
 * before it opened (its "earlier": decided by a reviewer or closed by
 * the sweep), each id one line; NULL when it has none. Returns a new
 * string.
 */
static char *
earlier_words(json_t *nc)
{
	json_t *ea = json_object_get(nc, "earlier"), *v;
	strbuf sb;
	size_t k;

	if (json_array_size(ea) == 0)
		return NULL;
	strbuf_init(&sb);
	strbuf_puts(&sb, "earlier:");
	json_array_foreach(ea, k, v) {
		/* The API file lists ids; a page's data, {"id": ...}. */
		char *id = json_is_string(v) ? one_line(json_string_value(v),
		    json_string_length(v)) : field(v, "id");

		strbuf_printf(&sb, "%s %s", k > 0 ? "," : "", id);
		free(id);
	}
	return strbuf_detach(&sb);
}

/* A conflict file added: the sweep opened the conflict. */
static void
opened_event(struct events *es, const struct cfile *cf)
{
	struct event *e = ev_new(es, EV_OPENED, cf->project, cf->id);
	strbuf line, subj;

	note_members(e, NULL, cf->nc);
	strbuf_init(&line);
	strbuf_init(&subj);
	strbuf_printf(&line, "conflict on %s [%s] opened: ", cf->slot,
	    cf->id);
	put_values(&line, cf->nc, 1);
	put_prefix(&subj, cf->project);
	strbuf_printf(&subj, "conflict opened on %s (", cf->slot);
	put_values(&subj, cf->nc, 0);
	strbuf_puts(&subj, ")");
	ev_words(e, &line, &subj);
	e->reopens = earlier_words(cf->nc);
}

/* Members that joined a conflict already recorded: one event, or none. */
static void
joined_event(struct events *es, const struct cfile *cf)
{
	struct event *e = NULL;
	strbuf line, subj;
	size_t i;
	json_t *m;

	strbuf_init(&line);
	json_array_foreach(json_object_get(cf->nc, "members"), i, m) {
		char *mid;

		if (member(cf->oc, raw(m, "id")) != NULL)
			continue;
		if (e == NULL) {
			e = ev_new(es, EV_JOINED, cf->project, cf->id);
			note_members(e, cf->oc, cf->nc);
			strbuf_printf(&line, "conflict on %s [%s] joined by",
			    cf->slot, cf->id);
		}
		mid = field(m, "id");
		strbuf_printf(&line, "%s ", e->joined ? ";" : "");
		put_side(&line, m);
		strbuf_printf(&line, " [%s]", mid);
		free(mid);
		e->joined++;
	}
	if (e == NULL) {
		strbuf_free(&line);
		return;
	}
	strbuf_init(&subj);
	put_prefix(&subj, cf->project);
	if (e->joined == 1)
		strbuf_printf(&subj, "a member joined the conflict on %s",
		    cf->slot);
	else
		strbuf_printf(&subj, "%zu members joined the conflict on %s",
		    e->joined, cf->slot);
	ev_words(e, &line, &subj);
}

/*
 * The events of one conflict, oc as it was and nc as it is (either
 * NULL: not there; both consumed; a file's object or an entry of a
 * project's list): in the first commit, the conflict if open; later,
 * gone (as EV_CWAS when own, a conflict's own file: it may have moved
 * to its project's list), opened or joined, then a decision when the
 * status moved (or the conflict was recorded already decided).
 */
static void
conflict_pair(struct events *es, json_t *oc, json_t *nc, int initial,
    int own)
{
	struct cfile cf = { .oc = conflict_doc(oc), .nc = conflict_doc(nc) };
	json_t *c;
	const char *ps, *ost, *nst;

	if ((c = cf.nc != NULL ? cf.nc : cf.oc) == NULL)
		return;
	ps = raw(c, "project_slug");
	ost = raw(cf.oc, "status");
	nst = raw(cf.nc, "status");
	cf.project = ps != NULL && ps[0] ? one_line(ps, strlen(ps)) : NULL;
	cf.slot = slot_words(c);
	cf.id = field(c, "id");
	if (initial) {
		if (cf.nc != NULL && nst != NULL && strcmp(nst, "open") == 0)
			open_now_event(es, &cf);
	} else if (cf.nc == NULL) {
		gone_event(es, &cf);
		if (own)
			es->v[es->n - 1].kind = EV_CWAS;
	} else {
		if (cf.oc == NULL)
			opened_event(es, &cf);
		else
			joined_event(es, &cf);
		if (nst != NULL && (ost != NULL ? strcmp(ost, nst) != 0 :
		    strcmp(nst, "open") != 0))
			decision_event(es, &cf);
	}
	free(cf.slot);
	free(cf.id);
	free(cf.project);
	json_decref(cf.oc);
	json_decref(cf.nc);
}

/* The events of one conflict's own file (api/conflicts/<slug>.json,
 * the layout before the projects' lists). */
static void
conflict_events(struct events *es, const struct hw_file *f, int initial)
{
	conflict_pair(es, parse_json(f->old_text, f->old_len),
	    parse_json(f->new_text, f->new_len), initial, 1);
}

/* The id of the k-th entry of list l (a {"conflict", "members"} row),
 * or NULL when there is none or it has no id. */
static const char *
listed_id(json_t *l, size_t k)
{
	return raw(json_object_get(json_array_get(l, k), "conflict"), "id");
}

/*
 * The events of one project's conflict file
 * (api/conflicts/projects/<slug>.json: its "conflicts" listed by id):
 * each conflict of either list against the one of the same id in the
 * other, both walked once in step; an entry without an id is skipped.
 */
static void
conflict_list_events(struct events *es, const struct hw_file *f,
    int initial)
{
	json_t *of = parse_json(f->old_text, f->old_len);
	json_t *nf = parse_json(f->new_text, f->new_len);
	json_t *ol = json_object_get(of, "conflicts");
	json_t *nl = json_object_get(nf, "conflicts");
	size_t i = 0, j = 0, on = json_array_size(ol), nn = json_array_size(nl);

	while (i < on || j < nn) {
		const char *a = i < on ? listed_id(ol, i) : NULL;
		const char *b = j < nn ? listed_id(nl, j) : NULL;
		int c;

		if ((i < on && a == NULL) || (j < nn && b == NULL)) {
			i += i < on && a == NULL;
			j += j < nn && b == NULL;
			continue;
		}
		c = a == NULL ? 1 : b == NULL ? -1 : strcmp(a, b);
		conflict_pair(es, c <= 0 ? json_incref(json_array_get(ol, i)) :
		    NULL, c >= 0 ? json_incref(json_array_get(nl, j)) : NULL,
		    initial, 0);
		i += c <= 0;
		j += c >= 0;
	}
	json_decref(of);
	json_decref(nf);
}

/* ---- checks ----------------------------------------------------------- */

/*
 * The event of one violation, oc as it was (NULL: not listed) and nc as
 * it is, of the project whose overview is ps (NULL: none): newly
 * failing when it is open now and was not (or was not listed), passing
 * again when it went from open to closed; nothing else (a rule's words
 * changing is no event).
 */
static void
check_event(struct events *es, json_t *oc, json_t *nc, const char *ps)
{
	const char *ost = raw(oc, "status"), *nst = raw(nc, "status");
	char *project = NULL, *id, *label, *msg;
	int open = nst != NULL && strcmp(nst, "open") == 0;
	int was = ost != NULL && strcmp(ost, "open") == 0;
	struct event *e;
	strbuf line, subj;

	if (open == was || (!open && ost == NULL))
		return;
	if (ps != NULL && ps[0] != '\0')
		project = one_line(ps, strlen(ps));
	id = field(nc, "id");
	label = field(nc, "label");
	msg = field(nc, "message");
	e = ev_new(es, open ? EV_KOPENED : EV_KCLOSED, project, id);
	strbuf_init(&line);
	strbuf_init(&subj);
	strbuf_printf(&line, "\xe2\x9a\x91 check %s: %s: %s [%s]", open ?
	    "newly failing" : "passing again", label, msg, id);
	put_prefix(&subj, project);
	strbuf_printf(&subj, "check %s: %s (%s)", open ? "newly failing" :
	    "passing again", label, msg);
	ev_words(e, &line, &subj);
	free(project);
	free(id);
	free(label);
	free(msg);
}

/*
 * The events of one project's violation file (api/checks/<slug>.json:
 * its "checks" listed by id): each violation of the new file against
 * the one of the same id in the old, both lists walked once in step.
 */
static void
check_events(struct events *es, const struct hw_file *f)
{
	json_t *of = parse_json(f->old_text, f->old_len);
	json_t *nf = parse_json(f->new_text, f->new_len);
	json_t *ol = json_object_get(of, "checks"), *nl = json_object_get(nf,
	    "checks"), *nc;
	size_t i, j = 0, on = json_array_size(ol);

	/* The file of one violation that a build before pages per project
	 * and rule wrote, removed: its check is not new where the
	 * project's file lists it open (upgraded). */
	if (ol == NULL && nf == NULL && raw(of, "status") != NULL &&
	    strcmp(raw(of, "status"), "open") == 0 && raw(of, "id") != NULL)
		ev_new(es, EV_KWAS, NULL, raw(of, "id"));

	json_array_foreach(nl, i, nc) {
		const char *id = raw(nc, "id");
		json_t *oc = NULL;

		if (!json_is_object(nc) || id == NULL)
			continue;
		while (j < on && (raw(json_array_get(ol, j), "id") == NULL ||
		    strcmp(raw(json_array_get(ol, j), "id"), id) < 0))
			j++;
		if (j < on && strcmp(raw(json_array_get(ol, j), "id"),
		    id) == 0)
			oc = json_array_get(ol, j);
		check_event(es, oc, nc, raw(nf, "project_slug"));
	}
	json_decref(of);
	json_decref(nf);
}

/* ---- the message ------------------------------------------------------ */

static int
cmp_opt(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return (a == NULL) - (b == NULL);     /* no project last */
	return strcmp(a, b);
}

static int
cmp_event(const void *a, const void *b)
{
	const struct event *x = a, *y = b;
	int c = cmp_opt(x->project, y->project);

	if (c != 0)
		return c;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	if ((c = strcmp(x->key, y->key)) != 0)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Does conflict event c name fact id among its members? */
static int
explains(const struct event *c, const char *id)
{
	for (size_t i = 0; i < c->nids; i++)
		if (strcmp(c->ids[i], id) == 0)
			return 1;
	return 0;
}

/* ", N word" / "N noun word" for a count, when it is not 0 (noun
 * takes an "s" when n is not 1). */
static void
put_count(strbuf *sb, int *first_of_noun, size_t n, const char *noun,
    const char *word)
{
	if (n == 0)
		return;
	if (sb->len > 0)
		strbuf_puts(sb, ", ");
	if (*first_of_noun)
		strbuf_printf(sb, "%zu %s%s %s", n, noun, n == 1 ? "" : "s",
		    word);
	else
		strbuf_printf(sb, "%zu %s", n, word);
	*first_of_noun = 0;
}

/* "12 facts changed, 3 conflicts opened, 1 resolved — a, b and 2 more". */
static void
counts_subject(strbuf *sb, const struct events *es)
{
	size_t k[EV_KCLOSED + 1] = { 0 }, members = 0, nproj = 0, shown = 0;
	const char *last = NULL;
	int f = 1, c = 1, m = 1, v = 1;

	for (size_t i = 0; i < es->n; i++) {
		k[es->v[i].kind]++;
		members += es->v[i].joined;
	}
	put_count(sb, &f, k[EV_CHANGED] + k[EV_STATUS], "fact", "changed");
	put_count(sb, &f, k[EV_ADDED], "fact", "added");
	put_count(sb, &f, k[EV_RETIRED], "fact", "retired");
	put_count(sb, &f, k[EV_REMOVED], "fact", "removed");
	put_count(sb, &c, k[EV_OPENED], "conflict", "opened");
	put_count(sb, &c, k[EV_RESOLVED], "conflict", "resolved");
	put_count(sb, &c, k[EV_DISMISSED], "conflict", "dismissed");
	put_count(sb, &c, k[EV_CLOSED], "conflict", "closed by the sweep");
	put_count(sb, &c, k[EV_CSTATUS], "conflict", "changed status");
	put_count(sb, &c, k[EV_CGONE], "conflict", "gone");
	put_count(sb, &m, members, "member", "joined");
	put_count(sb, &v, k[EV_KOPENED], "check", "newly failing");
	put_count(sb, &v, k[EV_KCLOSED], "check", "passing again");

	/* Events are sorted by project: count the distinct names. */
	for (size_t i = 0; i < es->n; i++) {
		const char *p = es->v[i].project;

		if (p == NULL || (last != NULL && strcmp(last, p) == 0))
			continue;
		if (nproj < HW_SUBJECT_PROJECTS) {
			strbuf_printf(sb, "%s%s", nproj == 0 ?
			    " \xe2\x80\x94 " : ", ", p);
			shown++;
		}
		nproj++;
		last = p;
	}
	if (nproj > shown)
		strbuf_printf(sb, " and %zu more", nproj - shown);
}

/* What the sweep did to a conflict, said after the fact change that
 * caused it; NULL for a person's decision, which is its own cause. */
static const char *
sweep_outcome(int kind)
{
	switch (kind) {
	case EV_OPENED: return "conflict opened";
	case EV_JOINED: return "joined a conflict";
	case EV_CLOSED: return "conflict closed by the sweep";
	case EV_CGONE: return "conflict gone";
	default: return NULL;
	}
}

/* The subject: the one change, or counts. A fact change that opened,
 * joined or closed one conflict is the one change: the cause first,
 * then what the sweep did ("P04 power budget: 6 W → 7.5 W; conflict
 * opened"). */
static void
put_subject(struct hw_words *w, const struct events *es)
{
	const struct event *one = NULL, *cause = NULL;
	size_t nconf = 0, nfact = 0;

	for (size_t i = 0; i < es->n; i++) {
		if (is_conflict_kind(es->v[i].kind)) {
			nconf++;
			one = &es->v[i];
		} else {
			nfact++;
			cause = &es->v[i];
		}
	}
	if (nconf == 0 && nfact == 1)
		one = &es->v[0];
	else if (nconf == 1) {
		for (size_t i = 0; i < es->n && one != NULL; i++)
			if (!is_conflict_kind(es->v[i].kind) &&
			    !explains(one, es->v[i].key))
				one = NULL;
	} else
		one = NULL;
	if (one != NULL && nconf == 1 && nfact == 1 && cause->subject !=
	    NULL && sweep_outcome(one->kind) != NULL)
		strbuf_printf(&w->subject, "%s; %s", cause->subject,
		    sweep_outcome(one->kind));
	else if (one != NULL && one->subject != NULL)
		strbuf_puts(&w->subject, one->subject);
	else
		counts_subject(&w->subject, es);
}

/* The body: a heading per project, at most HW_BODY_LINES lines. */
static void
put_body(struct hw_words *w, const struct events *es, size_t used)
{
	const char *group = NULL;
	int grouped = 0;
	size_t i;

	for (i = 0; i < es->n; i++) {
		const struct event *e = &es->v[i];
		int heading = !grouped || cmp_opt(group, e->project) != 0;

		if (e->line == NULL)
			continue;
		if (used + (heading ? 2 : 1) > HW_BODY_LINES)
			break;
		if (heading) {
			/* A space in every heading: never a trailer key. */
			if (e->project != NULL)
				strbuf_printf(&w->body, "Project %s:\n",
				    e->project);
			else
				strbuf_puts(&w->body, "No project:\n");
			group = e->project;
			grouped = 1;
			used++;
		}
		strbuf_printf(&w->body, "  %s\n", e->line);
		used++;
	}
	if (i < es->n)
		strbuf_printf(&w->body, "  and %zu more\n",
		    es->n - i);
}

/* Trailers of human decisions, by conflict id. */
static void
put_trailers(struct hw_words *w, struct events *es)
{
	const struct event **t = xcalloc(es->n ? es->n : 1, sizeof(*t));
	size_t nt = 0;

	for (size_t i = 0; i < es->n; i++)
		if (es->v[i].trailer != NULL)
			t[nt++] = &es->v[i];
	/* Bubble into key order: decisions are few. */
	for (size_t i = 1; i < nt; i++)
		for (size_t j = i; j > 0 && strcmp(t[j - 1]->key, t[j]->key) >
		    0; j--) {
			const struct event *x = t[j];

			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	for (size_t i = 0; i < nt; i++)
		strbuf_printf(&w->trailers, "%s\n", t[i]->trailer);
	free(t);
}

/* The most ids a trailer key lists in one message; past it,
 * "<key>-More: N" says how many it left out. */
#define ID_TRAILERS_MAX 100

/* The trailer key naming the fact or conflict of event kind k, and in
 * *how what became of a closed conflict; NULL for an event named by
 * none. */
static const char *
id_trailer_key(int k, const char **how)
{
	*how = NULL;
	switch (k) {
	case EV_ADDED: return "Fact-Added";
	case EV_CHANGED: case EV_RETIRED: case EV_STATUS:
		return "Fact-Changed";
	case EV_REMOVED: return "Fact-Removed";
	case EV_OPENED: return "Conflict-Opened";
	case EV_RESOLVED: *how = "resolved"; return "Conflict-Closed";
	case EV_DISMISSED: *how = "dismissed"; return "Conflict-Closed";
	case EV_CLOSED: *how = "sweep"; return "Conflict-Closed";
	case EV_CGONE: *how = "gone from the store"; return "Conflict-Closed";
	default: return NULL;
	}
}

/* qsort: events by key (their fact's or conflict's id). */
static int
cmp_event_key(const void *a, const void *b)
{
	const struct event *x = *(const struct event *const *)a;
	const struct event *y = *(const struct event *const *)b;

	return strcmp(x->key, y->key);
}

/*
 * "Reopened-by: NEW (earlier: OLD, ...)" for each conflict opened on a
 * slot whose earlier conflicts were closed, by id, at most
 * ID_TRAILERS_MAX: `git log --grep=OLD` finds the commit that reopened
 * a question decided or closed before. t is scratch
 * room for es->n pointers.
 */
static void
put_reopened(struct hw_words *w, struct events *es,
    const struct event **t)
{
	size_t nt = 0;

	for (size_t i = 0; i < es->n; i++)
		if (es->v[i].reopens != NULL && es->v[i].key != NULL &&
		    es->v[i].key[0] != '\0')
			t[nt++] = &es->v[i];
	if (nt > 1)
		qsort(t, nt, sizeof(*t), cmp_event_key);
	for (size_t i = 0; i < nt && i < ID_TRAILERS_MAX; i++)
		strbuf_printf(&w->trailers, "Reopened-by: %s (%s)\n",
		    t[i]->key, t[i]->reopens);
	if (nt > ID_TRAILERS_MAX)
		strbuf_printf(&w->trailers, "Reopened-by-More: %zu\n",
		    nt - ID_TRAILERS_MAX);
}

/*
 * The ids of what the commit changed, one trailer a fact or conflict,
 * so that `git log --grep='^Fact-Changed: ID$'` lists the commits that
 * changed fact ID: Fact-Added, Fact-Changed, Fact-Removed,
 * Conflict-Opened, Conflict-Closed ("ID (sweep)"), each key's by id, at
 * most ID_TRAILERS_MAX a key.
 */
static void
put_id_trailers(struct hw_words *w, struct events *es)
{
	static const char *const keys[] = { "Fact-Added", "Fact-Changed",
	    "Fact-Removed", "Conflict-Opened", "Conflict-Closed" };
	const struct event **t = xcalloc(es->n ? es->n : 1, sizeof(*t));

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		size_t nt = 0;
		const char *how;

		for (size_t i = 0; i < es->n; i++) {
			const char *key = id_trailer_key(es->v[i].kind, &how);

			if (key != NULL && strcmp(key, keys[k]) == 0 &&
			    es->v[i].key != NULL && es->v[i].key[0] != '\0')
				t[nt++] = &es->v[i];
		}
		if (nt > 1)
			qsort(t, nt, sizeof(*t), cmp_event_key);
		for (size_t i = 0; i < nt && i < ID_TRAILERS_MAX; i++) {
			(void)id_trailer_key(t[i]->kind, &how);
			strbuf_printf(&w->trailers, "%s: %s", keys[k],
			    t[i]->key);
			if (how != NULL)
				strbuf_printf(&w->trailers, " (%s)", how);
			strbuf_putc(&w->trailers, '\n');
		}
		if (nt > ID_TRAILERS_MAX)
			strbuf_printf(&w->trailers, "%s-More: %zu\n", keys[k],
			    nt - ID_TRAILERS_MAX);
	}
	put_reopened(w, es, t);
	free(t);
}

/* "name: 43 active, 1 invalid" from a {"status": count} object. */
static void
put_by_status(strbuf *sb, json_t *by)
{
	const char *k;
	json_t *v;
	int first = 1;

	json_object_foreach(by, k, v) {
		char *name = one_line(k, strlen(k));

		strbuf_printf(sb, "%s%lld %s", first ? "" : ", ",
		    (long long)json_integer_value(v), name);
		free(name);
		first = 0;
	}
}

/*
 * The first commit: subject and store lines from api/health.json.
 * Returns the body lines written (0 when health is not usable).
 */
static size_t
initial_summary(struct hw_words *w, const struct hw_file *health)
{
	json_t *h = health != NULL ? parse_json(health->new_text,
	    health->new_len) : NULL;
	json_t *layers = json_object_get(h, "layers"), *l;
	long long total = 0;
	size_t lines = 0;
	const char *k;
	int first = 1;

	if (h == NULL || !json_is_object(layers)) {
		json_decref(h);
		return 0;
	}
	json_object_foreach(layers, k, l)
		total += json_integer_value(json_object_get(l, "total"));
	strbuf_printf(&w->subject, "first mirror of the store: %lld %s, %lld "
	    "%s (", (long long)json_integer_value(json_object_get(h,
	    "projects")), json_integer_value(json_object_get(h,
	    "projects")) == 1 ? "project" : "projects", total, total == 1 ?
	    "fact" : "facts");
	strbuf_puts(&w->body, "The store:\n");
	lines++;
	json_object_foreach(layers, k, l) {
		char *name = one_line(k, strlen(k));
		long long n = json_integer_value(json_object_get(l, "total"));

		strbuf_printf(&w->subject, "%s%lld %s", first ? "" : ", ", n,
		    name);
		strbuf_printf(&w->body, "  %s (trust %lld): %lld %s: ", name,
		    (long long)json_integer_value(json_object_get(l, "trust")),
		    n, n == 1 ? "fact" : "facts");
		put_by_status(&w->body, json_object_get(l, "by_status"));
		strbuf_putc(&w->body, '\n');
		lines++;
		first = 0;
		free(name);
	}
	strbuf_printf(&w->subject, "), %lld open %s",
	    (long long)json_integer_value(json_object_get(h,
	    "open_conflicts_count")), json_integer_value(json_object_get(h,
	    "open_conflicts_count")) == 1 ? "conflict" : "conflicts");
	strbuf_printf(&w->body, "  conflicts: %lld open, %lld resolved, "
	    "%lld dismissed\n", (long long)json_integer_value(json_object_get(
	    h, "open_conflicts_count")), (long long)json_integer_value(
	    json_object_get(h, "resolved_conflicts")),
	    (long long)json_integer_value(json_object_get(h,
	    "dismissed_conflicts")));
	lines++;
	json_decref(h);
	return lines;
}

/* What hw_file_events found in its files, in their order. */
struct hw_events {
	struct events es;
	int initial;
	char *health;           /* api/health.json's text, or NULL */
	size_t health_len;
	char **projects;        /* initial: every project's slug */
	size_t nprojects, capprojects;
};

/* "N word(s)" for n, n as a JSON integer. */
static void
put_total(strbuf *sb, json_t *n, const char *one, const char *many)
{
	long long v = (long long)json_integer_value(n);

	strbuf_printf(sb, "%lld %s", v, v == 1 ? one : many);
}

/*
 * The open totals after the commit, from api/health.json: "Open now:
 * 15 conflicts, 21 checks (0 errors, 21 warnings)\n" into w->totals;
 * nothing when health is not usable.
 */
static void
put_totals(struct hw_words *w, const char *text, size_t len)
{
	json_t *h = parse_json(text, len), *k;
	json_int_t err, warn;

	if (h == NULL || !json_is_integer(json_object_get(h,
	    "open_conflicts_count"))) {
		json_decref(h);
		return;
	}
	strbuf_puts(&w->totals, "Open now: ");
	put_total(&w->totals, json_object_get(h, "open_conflicts_count"),
	    "conflict", "conflicts");
	k = json_object_get(h, "checks");
	if (json_is_object(k)) {
		err = json_integer_value(json_object_get(k, "open_error"));
		warn = json_integer_value(json_object_get(k, "open_warn"));
		strbuf_printf(&w->totals, ", %lld %s (%lld %s, %lld %s)",
		    (long long)(err + warn), err + warn == 1 ? "check" :
		    "checks", (long long)err, err == 1 ? "error" : "errors",
		    (long long)warn, warn == 1 ? "warning" : "warnings");
	}
	strbuf_putc(&w->totals, '\n');
	json_decref(h);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The first commit's "  projects: a, b and c" line, every project by
 * slug (at most HW_PROJECT_NAMES, then "and N more"), into w->body.
 * Returns the lines written: 1, or 0 when there is no project.
 */
static size_t
put_project_names(struct hw_words *w, struct hw_events *h)
{
	size_t n = h->nprojects, shown = n > HW_PROJECT_NAMES ?
	    HW_PROJECT_NAMES : n;

	if (n == 0)
		return 0;
	qsort(h->projects, n, sizeof(*h->projects), cmp_str);
	strbuf_printf(&w->body, "  %s: ", n == 1 ? "project" : "projects");
	for (size_t i = 0; i < shown; i++)
		strbuf_printf(&w->body, "%s%s", i == 0 ? "" : i + 1 == n ?
		    " and " : ", ", h->projects[i]);
	if (n > shown)
		strbuf_printf(&w->body, " and %zu more", n - shown);
	strbuf_putc(&w->body, '\n');
	return 1;
}

void
hw_events_project(struct hw_events *h, const char *path)
{
	const char *base;

	if (!h->initial || path == NULL || !json_under(path, PROJECTS_DIR))
		return;
	base = path + strlen(PROJECTS_DIR);
	ARRAY_PUSH(h->projects, h->nprojects, h->capprojects) =
	    one_line(base, strlen(base) - 5);      /* less ".json" */
}

struct hw_events *
hw_events_new(int initial)
{
	struct hw_events *h = xcalloc(1, sizeof(*h));

	h->initial = initial;
	return h;
}

struct hw_events *
hw_file_events(const struct hw_file *f, int initial)
{
	struct hw_events *h = hw_events_new(initial);
	const char *p = f->path;

	if (p == NULL || !hw_wants(p, initial))
		return h;
	if (strcmp(p, HEALTH_PATH) == 0) {
		if (f->new_text != NULL) {
			h->health = xmalloc(f->new_len + 1);
			memcpy(h->health, f->new_text, f->new_len);
			h->health[f->new_len] = '\0';
			h->health_len = f->new_len;
		}
	} else if (json_under(p, PROJECTS_DIR))
		project_events(&h->es, f);
	else if (json_under(p, CHECKS_DIR))
		check_events(&h->es, f);
	else if (json_under(p, CONFLICT_LISTS_DIR))
		conflict_list_events(&h->es, f, initial);
	else
		conflict_events(&h->es, f, initial);
	return h;
}

void
hw_events_take(struct hw_events *into, struct hw_events *part)
{
	for (size_t i = 0; i < part->es.n; i++) {
		struct event *e = &ARRAY_PUSH(into->es.v, into->es.n,
		    into->es.cap);

		*e = part->es.v[i];
		e->seq = into->es.n - 1;        /* the order of the files */
	}
	free(part->es.v);
	ARRAY_APPEND(into->projects, into->nprojects, into->capprojects,
	    part->projects, part->nprojects);
	free(part->projects);
	if (part->health != NULL) {             /* the last one counts */
		free(into->health);
		into->health = part->health;
		into->health_len = part->health_len;
	}
	free(part);
}

/*
 * Drop from es the EV_KWAS events and each check newly failing whose
 * own file of the old layout they say was open: the commit that moves a
 * site to pages per project and rule opens nothing.
 */
static void
drop_upgraded(struct events *es)
{
	const char **was = xcalloc(es->n + 1, sizeof(*was));
	char *drop = xcalloc(es->n + 1, 1);
	size_t nw = 0, k = 0;

	for (size_t i = 0; i < es->n; i++)
		if (es->v[i].kind == EV_KWAS)
			was[nw++] = es->v[i].key;
	qsort(was, nw, sizeof(*was), array_str_cmp);
	for (size_t i = 0; i < es->n; i++)
		drop[i] = es->v[i].kind == EV_KWAS || (es->v[i].kind ==
		    EV_KOPENED && nw > 0 && bsearch(&es->v[i].key, was, nw,
		    sizeof(*was), array_str_cmp) != NULL);
	free(was);
	for (size_t i = 0; i < es->n; i++) {
		struct event *e = &es->v[i];

		if (drop[i])
			ev_free(e);
		else
			es->v[k++] = *e;
	}
	free(drop);
	es->n = k;
}

/* Is e a conflict's event from a project's list (or an own file's
 * event other than gone)? */
static int
is_listed_kind(int k)
{
	return k >= EV_OPENED && k <= EV_CGONE;
}

/*
 * Drop from es each conflict's own file removed (EV_CWAS) whose id a
 * project's list has events of, and those events: the commit that moves
 * a site to the projects' lists opens and decides nothing. An EV_CWAS
 * no list has is the conflict gone from the store (EV_CGONE).
 */
static void
drop_moved(struct events *es)
{
	const char **listed = xcalloc(es->n + 1, sizeof(*listed));
	const char **moved = xcalloc(es->n + 1, sizeof(*moved));
	size_t nl = 0, nm = 0, k = 0;

	for (size_t i = 0; i < es->n; i++)
		if (is_listed_kind(es->v[i].kind))
			listed[nl++] = es->v[i].key;
	qsort(listed, nl, sizeof(*listed), array_str_cmp);
	for (size_t i = 0; i < es->n; i++) {
		struct event *e = &es->v[i];

		if (e->kind != EV_CWAS)
			continue;
		if (nl > 0 && bsearch(&e->key, listed, nl, sizeof(*listed),
		    array_str_cmp) != NULL)
			moved[nm++] = e->key;
		else
			e->kind = EV_CGONE;
	}
	free(listed);
	qsort(moved, nm, sizeof(*moved), array_str_cmp);
	for (size_t i = 0; i < es->n; i++) {
		struct event *e = &es->v[i];

		if ((e->kind == EV_CWAS || is_listed_kind(e->kind)) && nm > 0 &&
		    bsearch(&e->key, moved, nm, sizeof(*moved), array_str_cmp) !=
		    NULL)
			e->kind = -1;
	}
	free(moved);
	for (size_t i = 0; i < es->n; i++) {
		if (es->v[i].kind < 0)
			ev_free(&es->v[i]);
		else
			es->v[k++] = es->v[i];
	}
	es->n = k;
}

void
hw_events_words(struct hw_words *w, struct hw_events *h)
{
	struct events *es = &h->es;
	const struct hw_file health = { HEALTH_PATH, NULL, 0, h->health,
	    h->health_len };
	size_t used = 0;

	drop_upgraded(es);
	drop_moved(es);
	if (es->n > 0)
		qsort(es->v, es->n, sizeof(*es->v), cmp_event);
	for (size_t i = 0; i < es->n; i++) {
		if (is_conflict_kind(es->v[i].kind))
			w->conflict_events++;
		else
			w->fact_events++;
	}
	if (h->health != NULL)
		put_totals(w, h->health, h->health_len);
	if (h->initial) {
		used = initial_summary(w, h->health != NULL ? &health : NULL);
		if (used > 0) {
			used += put_project_names(w, h);
			put_body(w, es, used);
		}
	} else if (es->n > 0) {
		put_subject(w, es);
		put_body(w, es, 0);
		put_trailers(w, es);
		put_id_trailers(w, es);
	}
	hw_events_free(h);
}

int
hw_events_has_health(const struct hw_events *h)
{
	return h->health != NULL;
}

void
hw_events_health(struct hw_events *h, const char *text, size_t len)
{
	if (h->health != NULL)
		return;
	h->health = xmalloc(len + 1);
	memcpy(h->health, text, len);
	h->health[len] = '\0';
	h->health_len = len;
}

void
hw_events_free(struct hw_events *h)
{
	if (h == NULL)
		return;
	events_free(&h->es);
	free(h->health);
	for (size_t i = 0; i < h->nprojects; i++)
		free(h->projects[i]);
	free(h->projects);
	free(h);
}

void
hw_describe(struct hw_words *w, const struct hw_file *files, size_t n,
    int initial)
{
	struct hw_events *h = hw_events_new(initial);

	for (size_t i = 0; i < n; i++) {
		hw_events_take(h, hw_file_events(&files[i], initial));
		if (files[i].path != NULL)
			hw_events_project(h, files[i].path);
	}
	hw_events_words(w, h);
}
