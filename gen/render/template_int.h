/*
 * template_int.h: the parsed form of a template, shared by the parser
 * (template.c) and the renderer (template_render.c). Not for other
 * modules: they use template.h.
 */
#ifndef MIRROR_TEMPLATE_INT_H
#define MIRROR_TEMPLATE_INT_H

#include <stddef.h>

#include "render/template.h"

/* Rendering recurses once per nested block: bound it. */
#define TMPL_MAX_DEPTH 64

enum tkind {
	K_TEXT, K_VAR, K_RAW, K_EACH, K_IF, K_UNLESS, K_ELSE, K_CLOSE,
	K_COMMENT
};

enum tpkind { P_NAME, P_DOT, P_INDEX, P_NUMBER, P_FIRST, P_LAST };
enum tfilter { F_NONE, F_URL, F_PATH, F_ID, F_SLUG, F_CODE, F_WORDS };

struct tnode {
	enum tkind kind;
	int line;
	size_t off, len;        /* K_TEXT: bytes of src */
	enum tpkind pkind;       /* K_VAR, K_EACH, K_IF, K_UNLESS */
	char *name;             /* the path as written, for messages */
	char **seg;             /* P_NAME: its dot-separated segments */
	size_t nseg;
	enum tfilter filter;
	int body, alt, next;    /* child lists and sibling, -1 for none */
};

struct tmpl {
	char *name;
	char *src;
	size_t srclen;
	enum tmpl_mode mode;
	struct tnode *nodes;
	size_t n, cap;
	int root;               /* first node of the top list, or -1 */
	int has_raw;
	int max_each;           /* deepest #each nesting */
};

/*
 * Record "FILE:LINE: what 'name'" in err (name on one line, cut at 200
 * bytes) and return -MIRROR_EINPUT.
 */
int tmpl_perr(const tmpl *t, int line, mirror_error *err, const char *what,
    const char *name);

#endif
